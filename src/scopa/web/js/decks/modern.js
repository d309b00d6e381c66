// Our own SVG art for today's ("modern") Italian-suited deck: coins, cups, swords and clubs.
// A card is a 100 x 150 picture: a large rank numeral top left (readable on a phone),
// a small suit sign under it, and pips (1-7) or a figure (8 knave, 9 knight, 10 king).
import { s } from "../dom.js";
import { parseCard } from "../cards.js";

export const SUIT_COLOURS = { d: "#8a5a00", c: "#b3261e", s: "#1f4e9a", b: "#2d6a1f" };

/** Suit signs drawn in a 40 x 40 box, shared through <symbol> and <use>. */
function suitSymbols() {
  const coin = s("symbol", { id: "suit-d", viewBox: "0 0 40 40" },
    s("circle", { cx: 20, cy: 20, r: 18, fill: "#e6b422", stroke: "#7a4f00", "stroke-width": 2 }),
    s("circle", { cx: 20, cy: 20, r: 12, fill: "#f3d36b", stroke: "#7a4f00", "stroke-width": 1.5 }),
    s("path", {
      d: "M20 10 L23 17 L30 20 L23 23 L20 30 L17 23 L10 20 L17 17 Z",
      fill: "#c0392b", stroke: "#7a4f00", "stroke-width": 1,
    }),
    s("circle", { cx: 20, cy: 20, r: 2.5, fill: "#7a4f00" }),
  );
  const cup = s("symbol", { id: "suit-c", viewBox: "0 0 40 40" },
    s("path", {
      d: "M7 5 H33 Q33 22 20 25 Q7 22 7 5 Z",
      fill: "#d23b2e", stroke: "#6b1510", "stroke-width": 1.8,
    }),
    s("rect", { x: 7, y: 5, width: 26, height: 4, fill: "#e6b422", stroke: "#6b1510", "stroke-width": 1.2 }),
    s("rect", { x: 17.5, y: 25, width: 5, height: 8, fill: "#e6b422", stroke: "#6b1510", "stroke-width": 1.2 }),
    s("ellipse", { cx: 20, cy: 35, rx: 10, ry: 3.2, fill: "#d23b2e", stroke: "#6b1510", "stroke-width": 1.5 }),
  );
  const sword = s("symbol", { id: "suit-s", viewBox: "0 0 40 40" },
    s("path", {
      d: "M20 1 L26 8 L25 27 L15 27 L14 8 Z",
      fill: "#dfe6ef", stroke: "#1f3f78", "stroke-width": 1.6,
    }),
    s("line", { x1: 20, y1: 6, x2: 20, y2: 26, stroke: "#1f3f78", "stroke-width": 1.4 }),
    s("rect", { x: 9, y: 27, width: 22, height: 4, rx: 2, fill: "#2e5fa8", stroke: "#1f3f78", "stroke-width": 1 }),
    s("rect", { x: 17.8, y: 31, width: 4.4, height: 5, fill: "#8a5a2b" }),
    s("circle", { cx: 20, cy: 37.3, r: 2.4, fill: "#2e5fa8", stroke: "#1f3f78", "stroke-width": 0.8 }),
  );
  // a wooden cudgel: a rounded head, knots, a green-bound grip (not a leaf)
  const club = s("symbol", { id: "suit-b", viewBox: "0 0 40 40" },
    s("path", {
      d: "M17.4 39 L22.6 39 L27 8.5 Q26.5 1.2 20 1.2 Q13.5 1.2 13 8.5 Z",
      fill: "#a0703a", stroke: "#3f2a10", "stroke-width": 1.8,
    }),
    s("path", { d: "M23.5 5 Q25 12 22.2 30", fill: "none", stroke: "#c99a5e", "stroke-width": 1.4 }),
    s("ellipse", { cx: 18.2, cy: 10, rx: 1.6, ry: 2.4, fill: "#5a3a16" }),
    s("ellipse", { cx: 21.4, cy: 19, rx: 1.4, ry: 2.2, fill: "#5a3a16" }),
    s("ellipse", { cx: 19, cy: 26.5, rx: 1.2, ry: 1.8, fill: "#5a3a16" }),
    s("rect", { x: 17.2, y: 31.5, width: 5.8, height: 3.4, fill: "#2d6a1f" }),
  );
  return [coin, cup, sword, club];
}

/** The suit symbols this deck's cards <use>. */
export function symbols() {
  return suitSymbols();
}

function pip(suit, x, y, size) {
  return s("use", { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size });
}

// pip centres in the art area (x 34..94, y 8..142)
const L = 50, R = 78, M = 64;
const PIPS = {
  2: [[M, 42], [M, 108]],
  3: [[M, 30], [M, 75], [M, 120]],
  4: [[L, 42], [R, 42], [L, 108], [R, 108]],
  5: [[L, 36], [R, 36], [M, 75], [L, 114], [R, 114]],
  6: [[L, 30], [R, 30], [L, 75], [R, 75], [L, 120], [R, 120]],
  7: [[L, 28], [R, 28], [M, 52], [L, 78], [R, 78], [L, 122], [R, 122]],
};

function figure(rank, suit) {
  const colour = SUIT_COLOURS[suit];
  const parts = [
    s("rect", { x: 34, y: 10, width: 60, height: 130, rx: 6, fill: "#f4ecd8", stroke: colour, "stroke-width": 1.5 }),
  ];
  if (rank === 9) {
    // the knight's horse, seen from the side: legs, body, neck and head, tail
    const horse = { fill: "#a57548", stroke: "#5a3a1c", "stroke-width": 1.3 };
    for (const x of [47, 53, 74, 80]) parts.push(s("rect", { x, y: 112, width: 4.5, height: 25, rx: 1.5, ...horse }));
    parts.push(
      s("path", { d: "M44 104 Q36 112 38 126 Q42 116 46 110 Z", ...horse }),
      s("ellipse", { cx: 64, cy: 108, rx: 22, ry: 10, ...horse }),
      s("path", { d: "M78 104 L84 84 Q86 78 92 80 L93 88 L88 90 L84 106 Z", ...horse }),
      s("circle", { cx: 88, cy: 83, r: 1.2, fill: "#2b2b2b" }),
    );
  }
  const bodyTop = rank === 9 ? 46 : 58;
  parts.push(
    s("path", { d: `M52 ${bodyTop + 6} L76 ${bodyTop + 6} L82 ${rank === 9 ? 100 : 132} L46 ${rank === 9 ? 100 : 132} Z`,
      fill: colour, stroke: "#2b2b2b", "stroke-width": 1.2 }),
    s("circle", { cx: 64, cy: bodyTop - 6, r: 10, fill: "#f1c9a0", stroke: "#2b2b2b", "stroke-width": 1.2 }),
  );
  if (rank === 10) {
    parts.push(s("path", {
      d: `M53 ${bodyTop - 14} L55 ${bodyTop - 26} L60 ${bodyTop - 18} L64 ${bodyTop - 28} L68 ${bodyTop - 18} L73 ${bodyTop - 26} L75 ${bodyTop - 14} Z`,
      fill: "#e6b422", stroke: "#7a4f00", "stroke-width": 1.2,
    }));
  } else {
    parts.push(s("path", {
      d: `M53 ${bodyTop - 12} Q64 ${bodyTop - 26} 76 ${bodyTop - 12} Z`,
      fill: rank === 8 ? "#6b3fa0" : "#555", stroke: "#2b2b2b", "stroke-width": 1,
    }));
  }
  parts.push(pip(suit, 64, rank === 9 ? 74 : 92, 24));
  return parts;
}

/** The face of a card as an <svg>; decorative (the name goes on the element holding it). */
export function face(text) {
  const { rank, suit } = parseCard(text);
  const colour = SUIT_COLOURS[suit];
  const art = rank === 1
    ? [pip(suit, M, 75, 50)]
    : rank <= 7 ? PIPS[rank].map(([x, y]) => pip(suit, x, y, 22)) : figure(rank, suit);
  return s("svg", { class: "card-art", viewBox: "0 0 100 150", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 98, height: 148, rx: 8, fill: "#fffdf6", stroke: "#6d6355", "stroke-width": 2 }),
    s("text", {
      x: 18, y: 34, "text-anchor": "middle", "font-size": rank === 10 ? 28 : 34, "font-weight": 800,
      fill: colour, "font-family": "system-ui, sans-serif", "letter-spacing": rank === 10 ? -2 : 0,
    }, String(rank)),
    pip(suit, 18, 50, 20),
    ...art,
  );
}

/** The back of a card, for hidden hands and piles. */
export function back() {
  return s("svg", { class: "card-art", viewBox: "0 0 100 150", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 98, height: 148, rx: 8, fill: "#7a1f2b", stroke: "#3d0f15", "stroke-width": 2 }),
    s("rect", { x: 9, y: 9, width: 82, height: 132, rx: 5, fill: "none", stroke: "#e6b422", "stroke-width": 2 }),
    s("path", { d: "M50 35 L72 75 L50 115 L28 75 Z", fill: "#e6b422", opacity: 0.85 }),
    s("circle", { cx: 50, cy: 75, r: 9, fill: "#7a1f2b" }),
  );
}
