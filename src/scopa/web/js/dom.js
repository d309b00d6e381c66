// Tiny DOM helpers. Text is always set with textContent, never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** h("div", {class: "x", onclick: fn}, child, "text") -> element */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Same as h() but in the SVG namespace. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace all children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** What identifies an element across two drawings of the same page: its id, else its kind,
 * link and text (a link or button drawn again is the "same" one). */
function keyOf(el) {
  return el.id ? `#${el.id}` : `${el.tagName}|${el.getAttribute("href") || ""}|${el.textContent.trim()}`;
}

const watched = new WeakSet();

/** Replace `el`'s children as `replace` does, keeping what a person is doing there: the
 * controls they changed keep their values (matched by id, a choice only while the new list
 * still offers it), a disclosure they opened stays open, and the focus and a text's
 * selection stay where they were. Every page
 * that refreshes itself draws through this, so a refresh never resets a choice (an
 * organiser's pick in a list) nor sends a keyboard user back to the top. */
export function redraw(el, ...children) {
  if (!watched.has(el)) {
    watched.add(el);
    const touch = (e) => { if (e.target && e.target.dataset) e.target.dataset.touched = "1"; };
    el.addEventListener("input", touch);
    el.addEventListener("change", touch);
  }
  const kept = [];
  for (const c of el.querySelectorAll("input[id], select[id], textarea[id]")) {
    if (c.dataset.touched === "1") kept.push({ id: c.id, value: c.value, checked: c.checked });
  }
  const opened = [...el.querySelectorAll("details[id]")].filter((d) => d.open).map((d) => d.id);
  const active = document.activeElement;
  const focus = active && active !== el && el.contains(active) ? keyOf(active) : null;
  let range = null;
  if (active && typeof active.selectionStart === "number") range = [active.selectionStart, active.selectionEnd];
  replace(el, ...children);
  for (const id of opened) {
    const d = el.querySelector(`#${CSS.escape(id)}`);
    if (d) d.open = true;
  }
  for (const k of kept) {
    const c = el.querySelector(`#${CSS.escape(k.id)}`);
    if (!c) continue;
    if (c.type === "checkbox" || c.type === "radio") c.checked = k.checked;
    else if (c.tagName === "SELECT" && ![...c.options].some((o) => o.value === k.value)) continue;
    else c.value = k.value;
    c.dataset.touched = "1";
  }
  if (focus) {
    const again = [...el.querySelectorAll("*")].find((x) => keyOf(x) === focus);
    if (again) {
      again.focus({ preventScroll: true });
      if (range && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(range[0], range[1]); } catch { /* not a text field */ }
      }
    }
  }
  return el;
}
