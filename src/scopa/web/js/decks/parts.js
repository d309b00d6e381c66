// Drawing parts shared by the traditional decks: the card's paper and corner index, suit
// signs placed from <symbol>s, pip layouts and the three figures (fante, cavallo, re), each
// coloured by a deck's "look". A card is a 100 x 150 picture; the art stands in x 28..96.
import { s } from "../dom.js";
import { parseCard } from "../cards.js";

export const CX = 62;
const INK = "#2a1d14";

/** A suit sign from the deck's symbols, centred on (cx, cy); `size` is its height for
 * the tall signs (swords, clubs) and its width for the round ones. */
export function sign(deck, suit, cx, cy, size) {
  const aspect = deck.aspect[suit];
  const height = aspect < 1 ? size : size / aspect;
  const width = height * aspect;
  return s("use", { href: `#${deck.id}-${suit}`, x: cx - width / 2, y: cy - height / 2, width, height });
}

/** The card's paper and the corner index: the rank numeral (read first, so the visible
 * number matches the spoken name) and a small suit sign. */
export function frame(deck, rank, suit) {
  const mark = deck.mark ? deck.mark(rank) : String(rank); // A, J, Q, K on French cards
  return [
    s("rect", { x: 1, y: 1, width: 98, height: 148, rx: 8, fill: deck.paper, stroke: deck.edge, "stroke-width": 2 }),
    s("text", {
      x: 15, y: 30, "text-anchor": "middle", "font-size": mark.length > 1 ? 24 : 28, "font-weight": 800,
      fill: deck.ink[suit], "font-family": deck.font || "Georgia, 'Times New Roman', serif",
      "letter-spacing": mark.length > 1 ? -2 : 0,
    }, mark),
    sign(deck, suit, 15, 46, deck.aspect[suit] < 1 ? 24 : 16),
  ];
}

/** Rows of upright signs, for swords and clubs drawn one by one (Napoletane). */
export function uprightRows(deck, suit, n) {
  const rows = { 1: [1], 2: [2], 3: [3], 4: [2, 2], 5: [3, 2], 6: [3, 3], 7: [4, 3] }[n];
  const height = rows.length > 1 ? 58 : n === 3 ? 88 : 100;
  const gap = rows.length > 1 ? 16 : n === 3 ? 21 : 24;
  const out = [];
  rows.forEach((count, r) => {
    const cy = rows.length === 1 ? 75 : 43 + r * 64;
    for (let i = 0; i < count; i++) out.push(sign(deck, suit, CX + (i - (count - 1) / 2) * gap, cy, height));
  });
  return out;
}

/** Round signs (coins, cups) in the classic spots for 2 to 7. */
export function roundPips(deck, suit, n, size = 25) {
  const L = CX - 16, R = CX + 16;
  const spots = {
    2: [[CX, 42], [CX, 108]],
    3: [[CX, 32], [CX, 75], [CX, 118]],
    4: [[L, 42], [R, 42], [L, 108], [R, 108]],
    5: [[L, 36], [R, 36], [CX, 75], [L, 114], [R, 114]],
    6: [[L, 30], [R, 30], [L, 75], [R, 75], [L, 120], [R, 120]],
    7: [[L, 28], [R, 28], [CX, 52], [L, 78], [R, 78], [L, 122], [R, 122]],
  }[n];
  return spots.map(([x, y]) => sign(deck, suit, x, y, size));
}

export const line = (d, colour, width) => s("path", {
  d, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round",
});
const shape = (d, fill, extra = {}) => s("path", { d, fill, stroke: INK, "stroke-width": 1.1, "stroke-linejoin": "round", ...extra });

/** An arm: a sleeve from shoulder to hand and the hand. */
function arm(look, from, to, sleeve) {
  return [
    line(`M${from[0]} ${from[1]} L${to[0]} ${to[1]}`, INK, 7.4),
    line(`M${from[0]} ${from[1]} L${to[0]} ${to[1]}`, sleeve, 5.4),
    s("circle", { cx: to[0], cy: to[1], r: 2.8, fill: look.skin, stroke: INK, "stroke-width": 0.9 }),
  ];
}

/** A face: hair behind, the head, eyes, and a beard for the king. */
function head(look, cx, cy, r, beard) {
  const parts = [
    s("ellipse", { cx, cy: cy - 1.2, rx: r + 1.8, ry: r + 1.4, fill: look.hair, stroke: INK, "stroke-width": 1 }),
    s("circle", { cx, cy, r, fill: look.skin, stroke: INK, "stroke-width": 1.1 }),
    s("circle", { cx: cx - r * 0.35, cy: cy - 1, r: 0.9, fill: INK }),
    s("circle", { cx: cx + r * 0.35, cy: cy - 1, r: 0.9, fill: INK }),
    line(`M${cx - 2} ${cy + r * 0.45} Q${cx} ${cy + r * 0.6} ${cx + 2} ${cy + r * 0.45}`, "#a0452d", 0.9),
  ];
  if (beard) parts.push(shape(`M${cx - r} ${cy + 1} Q${cx} ${cy + r * 2.4} ${cx + r} ${cy + 1} Q${cx} ${cy + r * 1.1} ${cx - r} ${cy + 1} Z`, look.hair));
  return parts;
}

/** The suit sign a figure holds: its foot (the hilt, the handle, the cup's foot) in the
 * hand at (x, y). */
function held(deck, suit, x, y, size) {
  const tall = deck.aspect[suit] < 1;
  const h = tall ? size * 1.9 : size;
  return sign(deck, suit, x, y - h / 2 + (tall ? 3 : 2), tall ? h : size);
}

/** Fante: a young page standing, the sign raised in his right hand. */
function fante(deck, look, suit) {
  return [
    s("ellipse", { cx: CX, cy: 137, rx: 19, ry: 3, fill: "#0003" }),
    shape("M55 100 L61 100 L60 133 L55 133 Z", look.hose),
    shape("M63 100 L69 100 L69 133 L64 133 Z", look.hose2),
    s("ellipse", { cx: 56.5, cy: 134.5, rx: 5, ry: 2.5, fill: INK }),
    s("ellipse", { cx: 67.5, cy: 134.5, rx: 5, ry: 2.5, fill: INK }),
    ...arm(look, [51, 56], [44, 88], look.coat2),
    shape("M51 50 L73 50 L80 104 L44 104 Z", look.coat),
    shape("M58 50 L66 50 L65 104 L59 104 Z", look.coat2),
    s("rect", { x: 48, y: 77, width: 28, height: 4, fill: look.trim, stroke: INK, "stroke-width": 0.8 }),
    shape("M54 50 Q62 58 70 50 Z", look.trim),
    ...head(look, CX, 40, 8.5, false),
    ...look.hat(8, CX, 32),
    held(deck, suit, 84, 46, 22),
    ...arm(look, [73, 56], [84, 45], look.coat2),
  ];
}

/** Re: a king in a long robe with an ermine collar, a sceptre and his sign. */
function re(deck, look, suit) {
  return [
    s("ellipse", { cx: CX, cy: 138, rx: 24, ry: 3, fill: "#0003" }),
    ...arm(look, [50, 58], [42, 84], look.coat2),
    line("M42 62 L42 124", INK, 3.4), line("M42 62 L42 124", look.trim, 2),
    s("circle", { cx: 42, cy: 60, r: 3.4, fill: look.trim, stroke: INK, "stroke-width": 0.9 }),
    shape("M48 52 L76 52 L86 136 L38 136 Z", look.coat),
    shape("M57 52 L67 52 L70 136 L54 136 Z", look.coat2),
    shape("M38 136 L86 136 L85 131 L39 131 Z", look.ermine),
    s("ellipse", { cx: CX, cy: 52, rx: 15, ry: 5, fill: look.ermine, stroke: INK, "stroke-width": 1 }),
    ...[54, 62, 70].map((x) => s("circle", { cx: x, cy: 52, r: 0.9, fill: INK })),
    ...head(look, CX, 37, 8.5, true),
    ...look.hat(10, CX, 29),
    held(deck, suit, 84, 52, 20),
    ...arm(look, [74, 58], [84, 51], look.coat2),
  ];
}

/** Cavallo: a knight on a horse walking to the left, his sign raised. */
function cavallo(deck, look, suit) {
  const horse = look.horse;
  const legs = [44, 51, 73, 80].map((x, i) => [
    shape(`M${x} 108 L${x + 5} 108 L${x + 4 + (i % 2)} 133 L${x + 1} 133 Z`, horse),
    s("rect", { x: x, y: 132, width: 5.5, height: 3.5, rx: 1, fill: INK }),
  ]).flat();
  return [
    s("ellipse", { cx: CX, cy: 137, rx: 28, ry: 3, fill: "#0003" }),
    shape("M84 98 Q96 104 90 128 Q88 114 82 106 Z", look.mane),
    ...legs,
    s("ellipse", { cx: CX, cy: 102, rx: 23, ry: 12, fill: horse, stroke: INK, "stroke-width": 1.1 }),
    shape("M42 104 L39 80 Q41 69 48 67 L56 72 L58 98 Z", horse),
    shape("M44 68 L46 60 L50 67 Z", horse),
    shape("M43 69 Q37 67 34 73 L28 83 Q27 89 32 89 L37 88 Q42 81 47 75 Z", horse),
    shape("M48 67 Q57 72 58 96 L54 95 Q53 77 46 70 Z", look.mane),
    s("circle", { cx: 39, cy: 74, r: 1.2, fill: INK }),
    s("circle", { cx: 30.5, cy: 85.5, r: 0.9, fill: INK }),
    line("M33 83 L52 84", look.trim, 1.2),
    shape("M52 92 L76 92 L78 112 L50 112 Z", look.saddle),
    line("M52 108 L78 108", look.trim, 2),
    shape("M57 64 L70 64 L73 96 L55 96 Z", look.coat),
    shape("M61 96 L67 96 L68 116 L62 116 Z", look.hose),
    s("ellipse", { cx: 65, cy: 117, rx: 4.5, ry: 2.2, fill: INK }),
    s("rect", { x: 55, y: 80, width: 18, height: 3.5, fill: look.trim, stroke: INK, "stroke-width": 0.8 }),
    ...arm(look, [58, 68], [52, 84], look.coat2),
    ...head(look, 63, 55, 7.5, false),
    ...look.hat(9, 63, 48),
    held(deck, suit, 82, 54, 17),
    ...arm(look, [70, 68], [81, 54], look.coat2),
  ];
}

/** The figure of a rank 8-10 card in a deck's look for that suit. */
export function figure(deck, rank, suit) {
  const look = deck.look(suit);
  const draw = { 8: fante, 9: cavallo, 10: re }[rank];
  return [...deck.backdrop(rank, suit), ...draw(deck, look, suit)];
}

/** The whole face of a card in a traditional deck. */
export function face(deck, text) {
  const { rank, suit } = parseCard(text);
  const art = rank === 1 ? deck.ace(suit) : rank <= 7 ? deck.pips(suit, rank)
    : deck.figure ? deck.figure(rank, suit) : figure(deck, rank, suit);
  return s("svg", { class: `card-art deck-${deck.id}`, viewBox: "0 0 100 150", "aria-hidden": "true", focusable: "false" },
    ...frame(deck, rank, suit), ...art);
}

/** The lattice the backs are filled with, one <pattern> per deck. */
export function latticePattern(id, field, lines) {
  return s("pattern", { id: `${id}-lattice`, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    s("rect", { width: 10, height: 10, fill: field }),
    s("path", { d: "M0 0 H10 M0 0 V10", stroke: lines, "stroke-width": 1.4 }));
}

/** A back: a coloured field with a diamond lattice and a medallion in the middle. */
export function back(id, [field, lines, medal]) {
  return s("svg", { class: `card-art deck-${id}`, viewBox: "0 0 100 150", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 98, height: 148, rx: 8, fill: field, stroke: INK, "stroke-width": 2 }),
    s("rect", { x: 8, y: 8, width: 84, height: 134, rx: 4, fill: `url(#${id}-lattice)`, stroke: lines, "stroke-width": 2 }),
    s("ellipse", { cx: 50, cy: 75, rx: 18, ry: 26, fill: field, stroke: medal, "stroke-width": 3 }),
    s("ellipse", { cx: 50, cy: 75, rx: 9, ry: 14, fill: medal }));
}
