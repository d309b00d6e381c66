// A French-suited deck of our own drawing, as Scopa is played in the north with French
// cards: diamonds for coins (d, so the settebello is the seven of diamonds), hearts for
// cups (c), spades for swords (s), clubs for clubs (b); A, 2-7, then J, Q, K for 8, 9, 10.
// Red and near-black inks, the suit's shape always under the corner letter; the courts are
// busts in a framed panel, told apart by the headgear (a feathered cap, a queen's circlet
// over long hair, a king's crown and beard) as well as by the letter.
import { s } from "../dom.js";
import { CX, back as drawBack, face as drawFace, latticePattern, roundPips, sign } from "./parts.js";
import { rankMark } from "./words.js";

const INK = "#1d1d1f";
const RED = "#b3261e", GOLD = "#e0a526", BLUE = "#2b5ba8", SKIN = "#f5d3b8";
const stroke = { stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" };
const COLOURS = { d: RED, c: RED, s: INK, b: INK };

const SHAPES = {
  d: [s("path", { d: "M20 1.5 L35.5 20 L20 38.5 L4.5 20 Z" })],
  c: [s("path", { d: "M20 37 C5 25 1.5 16 6.5 9 C11 3 18 5 20 11 C22 5 29 3 33.5 9 C38.5 16 35 25 20 37 Z" })],
  s: [s("path", { d: "M20 2 C31 13 38 19 35 26.5 C32.5 32 25.5 31.5 22 27.5 L24.5 38 H15.5 L18 27.5 C14.5 31.5 7.5 32 5 26.5 C2 19 9 13 20 2 Z" })],
  b: [
    s("circle", { cx: 20, cy: 10.5, r: 8 }), s("circle", { cx: 10.5, cy: 23, r: 8 }), s("circle", { cx: 29.5, cy: 23, r: 8 }),
    s("path", { d: "M18 20 L15 38 H25 L22 20 Z" }),
  ],
};

function symbol(suit) {
  return s("symbol", { id: `fr-${suit}`, viewBox: "0 0 40 40" },
    s("g", { fill: COLOURS[suit] }, ...SHAPES[suit].map((el) => el.cloneNode(true))));
}

/** The court's headgear: a cap with a feather (J), a circlet over long hair (Q), a crown (K). */
function headgear(rank, suit) {
  const colour = COLOURS[suit];
  if (rank === 8) {
    return [
      s("path", { d: "M48 67 Q50 53 64 54 Q77 56 77 66 Z", fill: colour === RED ? BLUE : RED, ...stroke }),
      s("path", { d: "M70 57 Q84 40 90 47 Q80 48 74 60 Z", fill: "#fff", ...stroke }),
    ];
  }
  if (rank === 9) {
    return [
      s("path", { d: "M45 92 Q43 62 62 58 Q81 62 79 92 L73 92 Q74 70 62 68 Q50 70 51 92 Z", fill: "#7a4a22", ...stroke }),
      s("path", { d: "M51 63 L54 55 L58 61 L62 52 L66 61 L70 55 L73 63 Z", fill: GOLD, ...stroke }),
      s("circle", { cx: 62, cy: 57, r: 1.8, fill: colour === RED ? BLUE : RED }),
    ];
  }
  return [
    s("path", { d: "M50 65 L49 49 L55 57 L62 45 L69 57 L75 49 L74 65 Z", fill: GOLD, ...stroke }),
    ...[49, 62, 75].map((cx, i) => s("circle", { cx, cy: [49, 45, 49][i], r: 2, fill: colour === RED ? BLUE : RED })),
    s("path", { d: "M52 84 Q62 104 72 84 Q62 90 52 84 Z", fill: "#6b4a2a", ...stroke }),
  ];
}

/** J, Q, K: a bust in a panel, the suit's sign on a medallion at the chest. */
function court(rank, suit) {
  const colour = COLOURS[suit];
  const robe = { 8: BLUE, 9: RED, 10: GOLD }[rank];
  const trim = rank === 10 ? RED : GOLD;
  return [
    s("rect", { x: 30, y: 7, width: 64, height: 136, rx: 4, fill: "#f7f3e8", stroke: colour, "stroke-width": 1.8 }),
    sign(DECK, suit, 84, 19, 13),
    s("path", { d: "M34 141 Q34 102 62 97 Q90 102 90 141 Z", fill: robe, ...stroke }),
    s("path", { d: "M50 99 Q62 112 74 99 Q62 104 50 99 Z", fill: trim, ...stroke }),
    s("path", { d: "M58 104 L66 104 L64 141 L60 141 Z", fill: trim, ...stroke }),
    s("rect", { x: 57, y: 88, width: 10, height: 11, fill: SKIN, ...stroke }),
    s("ellipse", { cx: CX, cy: 76, rx: 12.5, ry: 14, fill: SKIN, ...stroke }),
    s("circle", { cx: CX - 4.5, cy: 74, r: 1.2, fill: INK }),
    s("circle", { cx: CX + 4.5, cy: 74, r: 1.2, fill: INK }),
    s("path", { d: `M${CX - 3} 83 Q${CX} 85.5 ${CX + 3} 83`, fill: "none", stroke: RED, "stroke-width": 1.2 }),
    ...headgear(rank, suit),
    s("circle", { cx: CX, cy: 122, r: 12.5, fill: "#fff", ...stroke }),
    sign(DECK, suit, CX, 122, 17),
  ];
}

export const DECK = {
  id: "fr",
  paper: "#fffefa",
  edge: "#55555a",
  font: "system-ui, 'Helvetica Neue', Arial, sans-serif",
  ink: COLOURS,
  aspect: { d: 1, c: 1, s: 1, b: 1 },
  mark: (rank) => rankMark(rank, "french"),
  pips(suit, n) {
    return roundPips(DECK, suit, n, 23);
  },
  ace(suit) {
    return [sign(DECK, suit, CX, 75, 58)];
  },
  figure: court,
};

export function symbols() {
  return [..."dcsb"].map(symbol).concat(latticePattern("fr", "#1f3f7a", "#dbe4f3"));
}

export function face(text) {
  return drawFace(DECK, text);
}

export function back() {
  return drawBack("fr", ["#1f3f7a", "#dbe4f3", "#e0a526"]);
}
