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

/** One sword, hilt at (hx, hy), point at (tx, ty), bowed through (cx, cy): the guard
 * across the blade, the grip and pommel in line with it, a pointed tip. */
function sword(colours, hx, hy, tx, ty, cx, cy) {
  const unit = (x, y) => { const n = Math.hypot(x, y) || 1; return [x / n, y / n]; };
  const [hdx, hdy] = unit(cx - hx, cy - hy); // along the blade at the hilt
  const [tdx, tdy] = unit(tx - cx, ty - cy); // along the blade at the point
  const blade = `M${hx} ${hy} Q${cx} ${cy} ${tx} ${ty}`;
  const butt = (d, colour, width) => s("path", { d, fill: "none", stroke: colour, "stroke-width": width });
  const guard = `M${hx + hdy * 6} ${hy - hdx * 6} L${hx - hdy * 6} ${hy + hdx * 6}`;
  const grip = `M${hx} ${hy} L${hx - hdx * 10} ${hy - hdy * 10}`;
  const tip = `M${tx + tdy * 2.1} ${ty - tdx * 2.1} L${tx + tdx * 6} ${ty + tdy * 6} L${tx - tdy * 2.1} ${ty + tdx * 2.1} Z`;
  return [
    butt(blade, INK, 6.2), butt(blade, colours.steel, 4.2), butt(blade, colours.fuller, 0.7),
    s("path", { d: tip, fill: colours.steel, stroke: INK, "stroke-width": 1, "stroke-linejoin": "round" }),
    line(guard, INK, 4.6), line(guard, colours.gold, 2.8),
    line(grip, INK, 4.6), line(grip, colours.grip, 2.8),
    s("circle", { cx: hx - hdx * 12, cy: hy - hdy * 12, r: 2.4, fill: colours.gold, stroke: INK, "stroke-width": 1 }),
  ];
}

export function swords(colours, n) {
  const out = [];
  const bow = n < 4 ? 36 : 30;
  for (const x of pairs(n, n < 6 ? 19 : 15)) {
    out.push(...sword(colours, x + 5, 114, x + 3, 20, x - bow, 66), ...sword(colours, x - 5, 114, x - 3, 20, x + bow, 66));
  }
  if (n % 2) out.push(...sword(colours, CX, 114, CX, 18, CX, 60));
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
