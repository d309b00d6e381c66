// Variant names and one-line descriptions. English lines come from the server
// (scopa.rules.VARIANT_DESCRIPTIONS); Italian and Spanish ones are ours.
import { lang } from "./i18n.js";

const NAMES = {
  scopa: "Scopa",
  scopone: "Scopone",
  "scopone-scientifico": "Scopone Scientifico",
  "asso-pigliatutto": "Scopa d'Assi (Asso Pigliatutto)",
  napola: "Napola",
  "re-bello": "Re Bello",
  quindici: "Scopa a Quindici",
  escoba: "Escoba",
  cirulla: "Cirulla",
};

const IT = {
  scopa: "Scopa classica: prendi la carta uguale o le carte che sommano la tua; le scope valgono un punto.",
  scopone: "Scopone: quattro giocatori in coppia, 9 carte a testa e 4 in tavola, un solo giro.",
  "scopone-scientifico": "Scopone Scientifico: quattro giocatori in coppia, tutte le 10 carte in mano, tavolo vuoto.",
  "asso-pigliatutto": "Scopa d'Assi: l'asso giocato prende tutto quello che c'è in tavola.",
  napola: "Napola: asso, due e tre di denari valgono 3, più uno per ogni denaro che continua la scala.",
  "re-bello": "Re Bello: il re di denari vale un punto in più.",
  quindici: "Scopa a Quindici: prendi le carte che fanno 15 insieme alla carta che giochi.",
  escoba: "Escoba: la cugina spagnola; somme di 15, i sette contano al posto della primiera.",
  cirulla: "Cirulla: prese uguali, a somma o a quindici, l'asso piglia tutto, accusi con la matta (il sette di coppe); a 51.",
};

const ES = {
  scopa: "Scopa clásica: llévate la carta igual o las cartas que suman la tuya; cada escoba vale un punto.",
  scopone: "Scopone: cuatro jugadores por parejas, 9 cartas cada uno y 4 en la mesa, una sola vuelta.",
  "scopone-scientifico": "Scopone Scientifico: cuatro jugadores por parejas, las 10 cartas en la mano, mesa vacía.",
  "asso-pigliatutto": "Scopa d'Assi: el as jugado se lleva todo lo que hay en la mesa.",
  napola: "Napola: as, dos y tres de oros valen 3, más uno por cada oro que sigue la escalera.",
  "re-bello": "Re Bello: el rey de oros vale un punto más.",
  quindici: "Scopa a Quindici: llévate las cartas que suman 15 junto con la carta que juegas.",
  escoba: "Escoba: la escoba de quince de siempre; sumas de 15, y los sietes cuentan en lugar de la primera.",
  cirulla: "Cirulla: capturas iguales, por suma o de quince, el as se lo lleva todo, declaraciones con la matta (el siete de copas); a 51.",
};

const LINES = { it: IT, es: ES };

export function variantName(name) {
  return NAMES[name] || name;
}

/** The one-line description of a variant ({name, description} from /api/meta). */
export function variantLine(variant) {
  const ours = LINES[lang()];
  if (ours && ours[variant.name]) return ours[variant.name];
  return variant.description || "";
}
