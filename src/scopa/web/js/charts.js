// Two small charts drawn as SVG by hand: a line (ratings, a review's expected margin) and a
// row of bars. No chart
// library: these two need a few dozen lines, nothing to build or serve, and the page's
// Content-Security-Policy stays as strict as it is (attributes only, no inline style).
import { s } from "./dom.js";

const H = 200;
const PAD = { left: 44, right: 12, top: 14, bottom: 30 };
// the labels' size in the drawing's units
const FONT = 13;

/** The drawing's width, about as wide as it will be shown (at most 480, the box's 520 px
 * less a margin): its viewBox then scales it up a little, never down, so the labels are
 * never drawn under FONT px (a 480-wide drawing on a 360 px phone drew them at 8.6 px). */
function chartWidth() {
  return Math.round(Math.max(260, Math.min(480, window.innerWidth - 48)));
}

/** A line chart of `values` (oldest first); `label` describes it to screen readers.
 * `span`: the least range the vertical axis shows (ratings: 20; points: a few); `dots`:
 * a dot at each value (not for a long series); `width`: the drawing's width when it is
 * shown in a narrower box than the page's (a side column), so the labels keep their size. */
export function lineChart(values, label, { span = 20, dots = true, width = 0 } = {}) {
  const W = width || chartWidth();
  const svg = s("svg", { class: "chart line-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label });
  svg.append(s("title", {}, label));
  if (!values.length) return svg;
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < span) { hi += span / 2; lo -= span / 2; }
  const x = (i) => PAD.left + (values.length === 1 ? 0.5 : i / (values.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), stroke: "#0002" }));
    svg.append(s("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": FONT, fill: "#444" }, String(Math.round(v))));
  }
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(s("polyline", { points, fill: "none", stroke: "#a8342a", "stroke-width": 2.5 }));
  if (dots) values.forEach((v, i) => svg.append(s("circle", { cx: x(i), cy: y(v), r: 3.5, fill: "#a8342a" })));
  return svg;
}

/** Bars of `items` [{label, value (0..1)}], each with its percentage written above. */
export function barChart(items, label) {
  const W = chartWidth();
  const svg = s("svg", { class: "chart bar-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label });
  svg.append(s("title", {}, label));
  const n = items.length || 1;
  const band = (W - PAD.left - PAD.right) / n;
  const base = H - PAD.bottom;
  const top = PAD.top + 12;
  svg.append(s("line", { x1: PAD.left, x2: W - PAD.right, y1: base, y2: base, stroke: "#0004" }));
  items.forEach((item, i) => {
    const v = Math.max(0, Math.min(1, item.value ?? 0));
    const bh = v * (base - top);
    const bx = PAD.left + i * band + band * 0.2;
    svg.append(s("rect", { x: bx, y: base - bh, width: band * 0.6, height: bh, fill: "#1f5e3b", rx: 3 }));
    svg.append(s("text", { x: bx + band * 0.3, y: base - bh - 4, "text-anchor": "middle", "font-size": FONT, fill: "#222" },
      item.value === null || item.value === undefined ? "–" : `${Math.round(v * 100)}%`));
    svg.append(s("text", { x: bx + band * 0.3, y: H - 10, "text-anchor": "middle", "font-size": FONT, fill: "#222" }, item.label));
  });
  return svg;
}
