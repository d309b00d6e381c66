// The server's teach-me reasons (scopa.bots.explain, in English) shown in the page's
// language. The first clause describes the move, which the list already shows in our own
// words, so it is dropped. An Italian clause we cannot read falls back to English.
import { lang } from "./i18n.js";

const RANK_IT = { ace: "asso", knave: "fante", knight: "cavallo", king: "re" };

const CLAUSES_IT = [
  [/^wins the settebello$/, () => "prende il settebello"],
  [/^(\d+) sevens? for the primiera$/, (n) => (n === "1" ? "un sette per la primiera" : `${n} sette per la primiera`)],
  [/^leaves (\d+) on the table: an unseen (\w+) would sweep \((\d+) still unseen\)$/,
    (total, rank, left) => `lascia ${total} in tavola: un ${rankIt(rank)} non ancora uscito farebbe scopa (${left} ancora da uscire)`],
  [/^leaves (\d+) on the table, but no (\w+) is left unseen to sweep it$/,
    (total, rank) => `lascia ${total} in tavola, ma non c'è più nessun ${rankIt(rank)} per fare scopa`],
  [/^offers (the settebello|a seven) to (\d+) unseen sevens?$/,
    (prize, left) => `offre ${prize === "a seven" ? "un sette" : "il settebello"} ai ${left} sette non ancora usciti`],
];

function rankIt(word) {
  return RANK_IT[word] || word;
}

function clauseIt(clause) {
  for (const [re, make] of CLAUSES_IT) {
    const found = clause.match(re);
    if (found) return make(...found.slice(1));
  }
  return null;
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

/** The reason for a move, without its description, in the page's language. */
export function reason(explanation) {
  if (!explanation) return "";
  let text = explanation.trim();
  const margin = text.match(/\s*Expected margin ([+-]?\d+(?:\.\d+)?) points for the rest of the hand\.$/);
  if (margin) text = text.slice(0, margin.index);
  const clauses = text.replace(/\.$/, "").split("; ").slice(1);
  if (lang() !== "it") {
    const rest = clauses.length ? `${capitalise(clauses.join("; "))}.` : "";
    return [rest, margin ? margin[0].trim() : ""].filter(Boolean).join(" ");
  }
  const italian = clauses.map(clauseIt);
  if (italian.includes(null)) return explanation;
  const rest = italian.length ? `${capitalise(italian.join("; "))}.` : "";
  const tail = margin ? `Margine atteso ${margin[1]} punti per il resto della mano.` : "";
  return [rest, tail].filter(Boolean).join(" ");
}
