// Number cards of the northern (Piacentine) pattern: curved swords bowed apart in pairs so
// that each pair makes a pointed oval, and long batons crossing in pairs as an X; an odd
// count adds one straight through the middle. Drawn as strokes, so the lengths and leans
// fit any count from 2 to 7.
import { s } from "../dom.js";
import { CX, line } from "./parts.js";

const INK = "#1b1b3a";

function pairs(n, spacing) {
  const count = Math.floor(n / 2);
  return Array.from({ length: count }, (_, i) => CX + (i - (count - 1) / 2) * spacing);
}

/** One sword, hilt at (hx, hy), point at (tx, ty), bowed through (cx, cy). */
function sword(colours, hx, hy, tx, ty, cx, cy) {
  const d = `M${hx} ${hy} Q${cx} ${cy} ${tx} ${ty}`;
  return [
    line(d, INK, 6.2), line(d, colours.steel, 4.2), line(d, colours.fuller, 0.7),
    line(`M${hx - 6} ${hy} L${hx + 6} ${hy}`, INK, 4.6), line(`M${hx - 6} ${hy} L${hx + 6} ${hy}`, colours.gold, 2.8),
    line(`M${hx} ${hy + 1} L${hx} ${hy + 10}`, INK, 4.6), line(`M${hx} ${hy + 1} L${hx} ${hy + 10}`, colours.grip, 2.8),
    s("circle", { cx: hx, cy: hy + 12, r: 2.4, fill: colours.gold, stroke: INK, "stroke-width": 1 }),
  ];
}

export function swords(colours, n) {
  const out = [];
  const bow = n < 4 ? 36 : 30;
  for (const x of pairs(n, n < 6 ? 19 : 15)) {
    out.push(...sword(colours, x + 5, 116, x + 3, 16, x - bow, 66), ...sword(colours, x - 5, 116, x - 3, 16, x + bow, 66));
  }
  if (n % 2) out.push(...sword(colours, CX, 116, CX, 14, CX, 60));
  return out;
}

/** One baton from (x1, y1) to (x2, y2): knobs at both ends, three gold bands. */
function baton(colours, x1, y1, x2, y2) {
  const d = `M${x1} ${y1} L${x2} ${y2}`;
  const len = Math.hypot(x2 - x1, y2 - y1);
  const px = -(y2 - y1) / len, py = (x2 - x1) / len;
  const bands = [0.22, 0.5, 0.78].flatMap((f) => {
    const x = x1 + (x2 - x1) * f, y = y1 + (y2 - y1) * f;
    const b = `M${x - px * 4} ${y - py * 4} L${x + px * 4} ${y + py * 4}`;
    return [line(b, INK, 3.8), line(b, colours.band, 2.4)];
  });
  return [
    line(d, INK, 8), line(d, colours.wood, 6), line(d, colours.light, 1.3), ...bands,
    s("circle", { cx: x1, cy: y1, r: 4.4, fill: colours.wood, stroke: INK, "stroke-width": 1 }),
    s("circle", { cx: x2, cy: y2, r: 4.4, fill: colours.wood, stroke: INK, "stroke-width": 1 }),
  ];
}

export function batons(colours, n) {
  const out = [];
  for (const x of pairs(n, n < 6 ? 18 : 14)) out.push(...baton(colours, x - 16, 128, x + 16, 22), ...baton(colours, x + 16, 128, x - 16, 22));
  if (n % 2) out.push(...baton(colours, CX, 130, CX, 20));
  return out;
}
