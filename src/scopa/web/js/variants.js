// Variant names and one-line descriptions. English lines come from the server
// (scopa.rules.VARIANT_DESCRIPTIONS); Italian ones are ours.
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

export function variantName(name) {
  return NAMES[name] || name;
}

/** The one-line description of a variant ({name, description} from /api/meta). */
export function variantLine(variant) {
  if (lang() === "it" && IT[variant.name]) return IT[variant.name];
  return variant.description || "";
}
