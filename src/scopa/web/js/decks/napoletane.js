// A Napoletane-like deck (the southern pattern): swords and clubs drawn one by one, upright
// (straight blue swords, knobbly green cudgels), golden coins with a red rosette, golden
// goblets; full-length figures in bright red, yellow, green and blue, standing on the ground.
import { s } from "../dom.js";
import { CX, back as drawBack, face as drawFace, latticePattern, roundPips, sign, uprightRows } from "./parts.js";

const INK = "#2a1d14";
const GOLD = "#eab83a", RED = "#c8312b", GREEN = "#3e8e41", BLUE = "#2f5fa7", SKY = "#b9d3f0";
const WOOD = "#9aa84a";
const stroke = { stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" };

function coin() {
  const petals = [];
  for (let k = 0; k < 8; k++) {
    petals.push(s("ellipse", { cx: 20, cy: 13.5, rx: 2.6, ry: 5, fill: GOLD, stroke: INK, "stroke-width": 0.7, transform: `rotate(${k * 45} 20 20)` }));
  }
  return s("symbol", { id: "nap-d", viewBox: "0 0 40 40" },
    s("circle", { cx: 20, cy: 20, r: 18.5, fill: GOLD, ...stroke }),
    s("circle", { cx: 20, cy: 20, r: 14.5, fill: RED, ...stroke }),
    ...petals,
    s("circle", { cx: 20, cy: 20, r: 3.6, fill: GREEN, stroke: INK, "stroke-width": 0.8 }));
}

function cup() {
  return s("symbol", { id: "nap-c", viewBox: "0 0 40 40" },
    s("path", { d: "M8 6 H32 Q33 21 20 25 Q7 21 8 6 Z", fill: GOLD, ...stroke }),
    s("path", { d: "M9.5 12 H30.5 L30 15 H10 Z", fill: RED, stroke: INK, "stroke-width": 0.8 }),
    s("ellipse", { cx: 20, cy: 6, rx: 12, ry: 2.6, fill: RED, ...stroke }),
    s("rect", { x: 17.6, y: 24, width: 4.8, height: 8, fill: GOLD, ...stroke }),
    s("ellipse", { cx: 20, cy: 28, rx: 4.6, ry: 2.2, fill: GREEN, stroke: INK, "stroke-width": 0.8 }),
    s("path", { d: "M10 38.5 Q20 29 30 38.5 Z", fill: GOLD, ...stroke }));
}

function sword() {
  return s("symbol", { id: "nap-s", viewBox: "0 0 16 60" },
    s("path", { d: "M8 1 L11 7 L11 40 L5 40 L5 7 Z", fill: SKY, ...stroke }),
    s("path", { d: "M8 7 V38", stroke: BLUE, "stroke-width": 1.2 }),
    s("rect", { x: 1, y: 40, width: 14, height: 3.6, rx: 1.6, fill: GOLD, ...stroke }),
    s("rect", { x: 6, y: 43.6, width: 4, height: 10, fill: RED, ...stroke }),
    s("circle", { cx: 8, cy: 56, r: 3, fill: GOLD, ...stroke }));
}

function club() {
  // a cudgel cut from a branch: thick rounded head, stubs of cut twigs, a narrow grip
  return s("symbol", { id: "nap-b", viewBox: "0 0 16 60" },
    s("path", { d: "M3.6 19 L1.2 16 L2.6 14.8 L5 17.6 Z", fill: WOOD, ...stroke }),
    s("path", { d: "M12 33 L15 30.2 L15.8 31.8 L13 35 Z", fill: WOOD, ...stroke }),
    s("path", { d: "M4.2 45 L1.6 43 L2.4 41.6 L5 43.6 Z", fill: WOOD, ...stroke }),
    s("path", { d: "M6.2 58.6 L9.8 58.6 L13.6 9 Q13.4 1.2 8 1.2 Q2.4 1.2 2.4 9 Z", fill: WOOD, ...stroke }),
    s("path", { d: "M5 9 Q8 6 11 9", fill: "none", stroke: "#5b7a2a", "stroke-width": 1 }),
    s("path", { d: "M10.4 10 L8.6 57", stroke: "#c3cf78", "stroke-width": 1.2 }),
    s("ellipse", { cx: 8.6, cy: 24, rx: 1.4, ry: 2.2, fill: "#7a4a1c" }),
    s("ellipse", { cx: 7.4, cy: 38, rx: 1.2, ry: 2, fill: "#7a4a1c" }),
    s("rect", { x: 5.6, y: 50, width: 5, height: 2.6, fill: RED, stroke: INK, "stroke-width": 0.7 }));
}

export const DECK = {
  id: "nap",
  paper: "#fbf3df",
  edge: "#6d5a3a",
  ink: { d: "#8a5a00", c: "#a8231b", s: "#1f4e9a", b: "#2d6a1f" },
  aspect: { d: 1, c: 1, s: 16 / 60, b: 16 / 60 },
  pips(suit, n) {
    return suit === "s" || suit === "b" ? uprightRows(DECK, suit, n) : roundPips(DECK, suit, n);
  },
  ace(suit) {
    const tall = suit === "s" || suit === "b";
    return [
      s("ellipse", { cx: CX, cy: 75, rx: 28, ry: 40, fill: "none", stroke: GOLD, "stroke-width": 2, "stroke-dasharray": "2 3" }),
      sign(DECK, suit, CX, 75, tall ? 122 : 46),
    ];
  },
  backdrop() {
    return [s("path", { d: "M30 131 Q62 126 94 131 L94 140 L30 140 Z", fill: "#c9dca5" })];
  },
  look(suit) {
    const coats = { d: [RED, GOLD], c: [BLUE, RED], s: [GREEN, GOLD], b: [GOLD, GREEN] }[suit];
    const hose = { d: BLUE, c: GOLD, s: RED, b: BLUE }[suit];
    return {
      skin: "#f3cba4", hair: suit === "d" || suit === "s" ? "#6b3d1f" : "#d9a441",
      coat: coats[0], coat2: coats[1], trim: GOLD, hose, hose2: hose === GOLD ? RED : GOLD,
      ermine: "#fffaf0", horse: suit === "c" || suit === "b" ? "#f4efe4" : "#b07a47",
      mane: "#5a3a1c", saddle: coats[1],
      hat: (rank, cx, top) => hat(rank, cx, top, coats),
    };
  },
};

/** Fante: a beret with a feather; cavallo: a round cap; re: a tall pointed crown. */
function hat(rank, cx, top, coats) {
  if (rank === 10) {
    return [s("path", {
      d: `M${cx - 9} ${top + 3} L${cx - 10} ${top - 9} L${cx - 5} ${top - 3} L${cx} ${top - 12} L${cx + 5} ${top - 3} L${cx + 10} ${top - 9} L${cx + 9} ${top + 3} Z`,
      fill: GOLD, ...stroke,
    }), s("circle", { cx, cy: top - 1, r: 1.6, fill: RED })];
  }
  if (rank === 9) {
    return [s("path", { d: `M${cx - 8} ${top + 3} Q${cx} ${top - 10} ${cx + 8} ${top + 3} Z`, fill: coats[1], ...stroke })];
  }
  return [
    s("path", { d: `M${cx + 4} ${top} Q${cx + 16} ${top - 14} ${cx + 20} ${top - 6} Q${cx + 12} ${top - 8} ${cx + 6} ${top + 1} Z`, fill: "#fffaf0", ...stroke }),
    s("ellipse", { cx, cy: top, rx: 11, ry: 4.4, fill: coats[1], ...stroke }),
  ];
}

export function symbols() {
  return [coin(), cup(), sword(), club(), latticePattern("nap", "#a3262a", "#e9b83a")];
}

export function face(text) {
  return drawFace(DECK, text);
}

export function back() {
  return drawBack("nap", ["#a3262a", "#e9b83a", "#eab83a"]);
}
