// A Spanish-suited deck of our own drawing, for Escoba: oros (d), copas (c), espadas (s),
// bastos (b); sota, caballo and rey for 8, 9, 10, numbered by their value in the game.
// As on Spanish cards, the frame line at the top and bottom says the suit by its breaks
// (none for oros, one for copas, two for espadas, three for bastos): a sign that needs no
// colour. Figures stand on a red-tiled floor under an arch.
import { s } from "../dom.js";
import { CX, back as drawBack, face as drawFace, latticePattern, line, roundPips, sign, uprightRows } from "./parts.js";

const INK = "#2b1a10";
const GOLD = "#f0b92e", RED = "#c62f2a", BLUE = "#2c58a0", GREEN = "#3f7d3a", STEEL = "#dde6f0";
const WOOD = "#b7742f";
const stroke = { stroke: INK, "stroke-width": 1.3, "stroke-linejoin": "round" };

function oro() {
  // a gold coin with a sunburst: rays round a face-like boss
  const rays = [];
  for (let k = 0; k < 16; k++) {
    rays.push(s("path", { d: "M20 4.5 L21.6 9.5 L18.4 9.5 Z", fill: "#b8860b", transform: `rotate(${k * 22.5} 20 20)` }));
  }
  return s("symbol", { id: "spa-d", viewBox: "0 0 40 40" },
    s("circle", { cx: 20, cy: 20, r: 18.5, fill: GOLD, ...stroke }),
    ...rays,
    s("circle", { cx: 20, cy: 20, r: 9.5, fill: "#f8d766", ...stroke }),
    s("circle", { cx: 17, cy: 18.5, r: 1.2, fill: INK }),
    s("circle", { cx: 23, cy: 18.5, r: 1.2, fill: INK }),
    s("path", { d: "M16.5 23 Q20 26 23.5 23", fill: "none", stroke: INK, "stroke-width": 1.2 }));
}

function copa() {
  // a tall goblet: red bowl with a gold rim, a knop, a wide foot
  return s("symbol", { id: "spa-c", viewBox: "0 0 40 40" },
    s("path", { d: "M9 3 H31 Q32 17 20 21 Q8 17 9 3 Z", fill: RED, ...stroke }),
    s("rect", { x: 8, y: 2, width: 24, height: 4, rx: 1.5, fill: GOLD, ...stroke }),
    s("rect", { x: 18, y: 21, width: 4, height: 10, fill: GOLD, ...stroke }),
    s("ellipse", { cx: 20, cy: 25.5, rx: 4.4, ry: 2.4, fill: GOLD, ...stroke }),
    s("path", { d: "M9 38.5 Q20 28 31 38.5 Z", fill: RED, ...stroke }));
}

function espada() {
  // a straight rapier: steel blade, a blue cross-guard with curled quillons, a gold pommel
  return s("symbol", { id: "spa-s", viewBox: "0 0 18 60" },
    s("path", { d: "M9 1 L11.5 6 L11 41 L7 41 L6.5 6 Z", fill: STEEL, ...stroke }),
    s("path", { d: "M9 6 V39", stroke: BLUE, "stroke-width": 0.8 }),
    s("path", { d: "M1.5 38 Q1 43 4 43 H14 Q17 43 16.5 38 Q15 41 9 41 Q3 41 1.5 38 Z", fill: BLUE, ...stroke }),
    s("rect", { x: 7, y: 43, width: 4, height: 10, fill: GOLD, ...stroke }),
    s("circle", { cx: 9, cy: 55.5, r: 3, fill: GOLD, ...stroke }));
}

function basto() {
  // a rough club: thick knotted head, lopped twigs, tapering to the hand
  return s("symbol", { id: "spa-b", viewBox: "0 0 18 60" },
    s("path", { d: "M4 22 L0.8 18.5 L2.6 17 L5.6 20.4 Z", fill: GREEN, ...stroke }),
    s("path", { d: "M13.4 34 L17 31 L17.6 33 L14.4 36.4 Z", fill: GREEN, ...stroke }),
    s("path", { d: "M7 58.6 L11 58.6 L15.6 10 Q15.6 1.2 9 1.2 Q2.4 1.2 2.4 10 Z", fill: WOOD, ...stroke }),
    s("path", { d: "M12.2 9 L10 56", stroke: "#e2ab6b", "stroke-width": 1.2 }),
    ...[[7, 12], [10.5, 26], [7.6, 40]].map(([cx, cy]) => s("ellipse", { cx, cy, rx: 1.6, ry: 2.4, fill: "#6b3d14" })));
}

/** The frame line at the top and bottom, broken 0-3 times by suit ("las pintas"). */
function pintas(suit) {
  const breaks = { d: 0, c: 1, s: 2, b: 3 }[suit];
  const from = 31, to = 95, gap = 5;
  const part = (to - from - breaks * gap) / (breaks + 1);
  const out = [];
  for (let i = 0; i <= breaks; i++) {
    const x1 = from + i * (part + gap), x2 = x1 + part;
    for (const y of [5, 145]) out.push(line(`M${x1} ${y} L${x2} ${y}`, DECK.ink[suit], 2.2));
  }
  return out;
}

export const DECK = {
  id: "spa",
  paper: "#fffcf2",
  edge: "#7a5a3a",
  ink: { d: "#8a5a00", c: "#a8231b", s: "#1f4e9a", b: "#2d6a1f" },
  aspect: { d: 1, c: 1, s: 18 / 60, b: 18 / 60 },
  pips(suit, n) {
    return suit === "s" || suit === "b" ? uprightRows(DECK, suit, n) : roundPips(DECK, suit, n, 25);
  },
  ace(suit) {
    const tall = suit === "s" || suit === "b";
    return [
      s("rect", { x: 36, y: 18, width: 52, height: 114, rx: 4, fill: "none", stroke: DECK.ink[suit], "stroke-width": 1.2, "stroke-dasharray": "4 2" }),
      sign(DECK, suit, CX, 75, tall ? 118 : 50),
    ];
  },
  backdrop() {
    return [
      s("path", { d: "M31 140 V40 Q62 8 93 40 V140 Z", fill: "#f3ead2", stroke: "#c9a76a", "stroke-width": 1.2 }),
      s("rect", { x: 31, y: 131, width: 62, height: 9, fill: "#d98c6a" }),
      line("M31 135.5 H93", "#a85a3a", 0.8),
    ];
  },
  look(suit) {
    const coats = { d: [BLUE, GOLD], c: [RED, BLUE], s: [GREEN, RED], b: [RED, GOLD] }[suit];
    const hose = { d: RED, c: GOLD, s: BLUE, b: GREEN }[suit];
    return {
      skin: "#f1c9a0", hair: suit === "d" || suit === "b" ? "#3d2614" : "#c58a3a",
      coat: coats[0], coat2: coats[1], trim: GOLD, hose, hose2: hose,
      ermine: "#ffffff", horse: suit === "c" || suit === "s" ? "#6b4226" : "#e9e2d4",
      mane: suit === "c" || suit === "s" ? "#2b1a10" : "#8c7a60", saddle: coats[1],
      hat: (rank, cx, top) => hat(rank, cx, top, coats),
    };
  },
};

/** Sota: a flat cap; caballo: a broad hat with a plume; rey: a crown with a cross. */
function hat(rank, cx, top, coats) {
  if (rank === 10) {
    return [
      s("path", { d: `M${cx - 9} ${top + 3} L${cx - 9} ${top - 6} L${cx - 4} ${top - 2} L${cx} ${top - 8} L${cx + 4} ${top - 2} L${cx + 9} ${top - 6} L${cx + 9} ${top + 3} Z`, fill: GOLD, ...stroke }),
      line(`M${cx} ${top - 8} V${top - 14} M${cx - 2.5} ${top - 11.5} H${cx + 2.5}`, INK, 1.4),
    ];
  }
  if (rank === 9) {
    return [
      s("ellipse", { cx, cy: top + 2, rx: 13, ry: 3, fill: coats[1], ...stroke }),
      s("path", { d: `M${cx - 7} ${top + 2} Q${cx} ${top - 9} ${cx + 7} ${top + 2} Z`, fill: coats[1], ...stroke }),
      s("path", { d: `M${cx + 3} ${top - 4} Q${cx + 12} ${top - 16} ${cx + 16} ${top - 8} Q${cx + 9} ${top - 8} ${cx + 5} ${top - 2} Z`, fill: "#fff", ...stroke }),
    ];
  }
  return [s("path", { d: `M${cx - 9} ${top + 3} Q${cx - 10} ${top - 6} ${cx} ${top - 6} Q${cx + 10} ${top - 6} ${cx + 9} ${top + 3} Z`, fill: coats[1], ...stroke })];
}

export function symbols() {
  return [oro(), copa(), espada(), basto(), latticePattern("spa", "#8f2a24", "#f0c95a")];
}

export function face(text) {
  const svg = drawFace(DECK, text);
  svg.append(...pintas(text.slice(-1)));
  return svg;
}

export function back() {
  return drawBack("spa", ["#8f2a24", "#f0c95a", "#f0b92e"]);
}
