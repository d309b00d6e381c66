// A Piacentine-like deck (the northern pattern): curved swords and long batons crossing in
// a lattice on the number cards, ringed coins, red chalices; full-length figures in blue,
// red and yellow inside a framed panel.
import { s } from "../dom.js";
import { CX, back as drawBack, face as drawFace, latticePattern, roundPips, sign } from "./parts.js";
import { batons, swords } from "./interlace.js";

const INK = "#1b1b3a";
const GOLD = "#eec643", RED = "#c0392b", BLUE = "#2b5ba8", GREEN = "#5b8c3a", STEEL = "#cfdcee";
const stroke = { stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" };

function coin() {
  const beads = [];
  for (let k = 0; k < 12; k++) {
    const a = (k * Math.PI) / 6;
    beads.push(s("circle", { cx: 20 + 15.6 * Math.cos(a), cy: 20 + 15.6 * Math.sin(a), r: 1.5, fill: RED }));
  }
  return s("symbol", { id: "pia-d", viewBox: "0 0 40 40" },
    s("circle", { cx: 20, cy: 20, r: 18.5, fill: GOLD, ...stroke }),
    ...beads,
    s("circle", { cx: 20, cy: 20, r: 12, fill: BLUE, ...stroke }),
    s("path", { d: "M20 10 Q23 17 30 20 Q23 23 20 30 Q17 23 10 20 Q17 17 20 10 Z", fill: GOLD, stroke: INK, "stroke-width": 0.8 }),
    s("circle", { cx: 20, cy: 20, r: 2.6, fill: RED }));
}

function cup() {
  return s("symbol", { id: "pia-c", viewBox: "0 0 40 40" },
    s("path", { d: "M4 8 H36 Q35 23 20 26 Q5 23 4 8 Z", fill: RED, ...stroke }),
    ...[12, 20, 28].map((x) => s("path", { d: `M${x} 10 Q${x} 19 ${x + (20 - x) * 0.3} 24`, fill: "none", stroke: "#7e1f16", "stroke-width": 1 })),
    s("rect", { x: 3, y: 5, width: 34, height: 4.6, rx: 1.5, fill: GOLD, ...stroke }),
    s("path", { d: "M17 26 H23 L22 33 H18 Z", fill: GOLD, ...stroke }),
    s("circle", { cx: 20, cy: 30, r: 2.8, fill: BLUE, stroke: INK, "stroke-width": 0.8 }),
    s("ellipse", { cx: 20, cy: 36, rx: 12, ry: 3.2, fill: BLUE, ...stroke }));
}

function sword() {
  // a sabre bowed to the right, hilt at the foot
  return s("symbol", { id: "pia-s", viewBox: "0 0 20 60" },
    s("path", { d: "M7 44 Q18 24 6 1 Q14 8 16 22 Q17 36 11 44 Z", fill: STEEL, ...stroke }),
    s("path", { d: "M9 40 Q15 24 8 6", fill: "none", stroke: BLUE, "stroke-width": 0.9 }),
    s("path", { d: "M2 44 H16 Q17 46.5 16 47 H2 Q1 46.5 2 44 Z", fill: GOLD, ...stroke }),
    s("rect", { x: 7, y: 47, width: 4, height: 9, fill: RED, ...stroke }),
    s("circle", { cx: 9, cy: 57, r: 2.4, fill: GOLD, ...stroke }));
}

function club() {
  // a turned baton: rounded ends, gold bands
  return s("symbol", { id: "pia-b", viewBox: "0 0 14 60" },
    s("rect", { x: 3, y: 2, width: 8, height: 56, rx: 4, fill: "#a8502a", ...stroke }),
    ...[11, 29, 47].map((y) => s("rect", { x: 2.4, y, width: 9.2, height: 3, rx: 1, fill: GOLD, stroke: INK, "stroke-width": 0.7 })),
    s("path", { d: "M5.6 6 V54", stroke: "#d98b5f", "stroke-width": 1 }));
}

export const DECK = {
  id: "pia",
  paper: "#fffdf8",
  edge: "#3a4a7a",
  ink: { d: "#8a5a00", c: "#a8231b", s: "#1f4e9a", b: "#2d6a1f" },
  aspect: { d: 1, c: 1, s: 20 / 60, b: 14 / 60 },
  pips(suit, n) {
    if (suit === "s") return swords({ steel: STEEL, fuller: BLUE, gold: GOLD, grip: RED }, n);
    if (suit === "b") return batons({ wood: "#a8502a", light: "#d98b5f", band: GOLD }, n);
    return roundPips(DECK, suit, n, 25);
  },
  ace(suit) {
    const tall = suit === "s" || suit === "b";
    return [
      s("rect", { x: 34, y: 16, width: 56, height: 118, rx: 26, fill: "#eef3fb", stroke: BLUE, "stroke-width": 1.5 }),
      sign(DECK, suit, CX, 75, tall ? 112 : 48),
    ];
  },
  backdrop() {
    return [s("rect", { x: 30, y: 6, width: 64, height: 138, rx: 3, fill: "#eef3fb", stroke: BLUE, "stroke-width": 1.6 })];
  },
  look(suit) {
    const coats = { d: [BLUE, RED], c: [RED, GOLD], s: [GOLD, BLUE], b: [GREEN, RED] }[suit];
    const hose = { d: GOLD, c: BLUE, s: RED, b: GOLD }[suit];
    return {
      skin: "#f5d3b8", hair: suit === "c" || suit === "b" ? "#4a2c17" : "#e0b050",
      coat: coats[0], coat2: coats[1], trim: GOLD, hose, hose2: hose,
      ermine: "#ffffff", horse: suit === "d" || suit === "s" ? "#ffffff" : "#8c5a3c",
      mane: suit === "d" || suit === "s" ? "#c9c1b0" : "#3b2414", saddle: RED === coats[0] ? BLUE : RED,
      hat: (rank, cx, top) => hat(rank, cx, top, coats),
    };
  },
};

/** Fante: a broad-brimmed hat; cavallo: a plumed helmet; re: a crown with pearls. */
function hat(rank, cx, top, coats) {
  if (rank === 10) {
    return [
      s("path", { d: `M${cx - 9} ${top + 3} L${cx - 9} ${top - 5} L${cx + 9} ${top - 5} L${cx + 9} ${top + 3} Z`, fill: GOLD, ...stroke }),
      ...[-9, -3, 3, 9].map((dx) => s("circle", { cx: cx + dx, cy: top - 7, r: 2, fill: "#fff", stroke: INK, "stroke-width": 0.8 })),
      s("rect", { x: cx - 2, y: top - 2.5, width: 4, height: 3, fill: RED }),
    ];
  }
  if (rank === 9) {
    return [
      s("path", { d: `M${cx} ${top - 4} Q${cx - 2} ${top - 16} ${cx - 10} ${top - 14} Q${cx - 4} ${top - 10} ${cx - 3} ${top - 3} Z`, fill: RED, ...stroke }),
      s("path", { d: `M${cx - 8} ${top + 4} Q${cx - 8} ${top - 6} ${cx} ${top - 6} Q${cx + 8} ${top - 6} ${cx + 8} ${top + 4} Z`, fill: "#c8ced8", ...stroke }),
    ];
  }
  return [
    s("ellipse", { cx, cy: top + 1, rx: 14, ry: 3.4, fill: coats[1], ...stroke }),
    s("path", { d: `M${cx - 7} ${top + 1} Q${cx - 7} ${top - 8} ${cx} ${top - 8} Q${cx + 7} ${top - 8} ${cx + 7} ${top + 1} Z`, fill: coats[1], ...stroke }),
    s("rect", { x: cx - 7, y: top - 2, width: 14, height: 2.4, fill: GOLD }),
  ];
}

export function symbols() {
  return [coin(), cup(), sword(), club(), latticePattern("pia", "#24498f", "#f4f1e6")];
}

export function face(text) {
  return drawFace(DECK, text);
}

export function back() {
  return drawBack("pia", ["#24498f", "#f4f1e6", "#eec643"]);
}
