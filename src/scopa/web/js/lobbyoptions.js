// The lobby's "rules options": every option of the chosen variant with its allowed values
// (from /api/meta), collapsed by default. A change is kept as a difference from the
// variant's preset, sent as the table's options (the server validates them again). Choices
// that conflict with another option's value (meta's declared conflicts) are disabled and
// the reason is shown under the option.
import { h, replace } from "./dom.js";
import { has, t } from "./i18n.js";

/** A value's words: `option.<key>.<value>`, else yes/no for booleans, else the value itself. */
export function valueLabel(key, value) {
  const own = `option.${key}.${value === null ? "null" : value}`;
  if (has(own)) return t(own);
  if (typeof value === "boolean") return t(`option.value.${value}`);
  return String(value);
}

/**
 * The section. `state.options` holds the changes ({key: value}) and `state.optionsOpen`
 * whether the section is open: both survive a language change (the form is rebuilt).
 * @param {object} state  the lobby's choices
 * @param {() => object} variantOf  the chosen variant's facts from /api/meta
 */
export function rulesOptions(state, variantOf) {
  if (!state.options) state.options = {};
  const body = h("div", { class: "rules-options-body" });
  const box = h("details", { class: "rules-options", id: "rules-options" },
    h("summary", {}, t("option.section")), body);
  box.open = Boolean(state.optionsOpen);
  box.addEventListener("toggle", () => { state.optionsOpen = box.open; });

  const facts = () => variantOf() || { options: [], conflicts: [] };
  const current = (option) => (option.key in state.options ? state.options[option.key] : option.default);
  const valueOf = (key) => {
    const option = facts().options.find((o) => o.key === key);
    return option ? current(option) : undefined;
  };

  /** The conflicts that choosing `value` for `key` would break, given the other options. */
  function blockedBy(key, value) {
    const out = [];
    for (const c of facts().conflicts || []) {
      const [[a, va], [b, vb]] = c.options;
      if (a === key && value === va && valueOf(b) === vb) out.push(c);
      else if (b === key && value === vb && valueOf(a) === va) out.push(c);
    }
    return out;
  }

  function choose(option, value) {
    if (value === option.default) delete state.options[option.key];
    else state.options[option.key] = value;
    draw();
  }

  function draw() {
    const rows = [h("p", { class: "muted small" }, t("option.sectionHelp"))];
    const grid = h("div", { class: "rules-options-grid" });
    for (const option of facts().options) {
      const id = `opt-${option.key}`;
      const chosen = current(option);
      const reasons = new Set();
      const select = h("select", { id, name: id, "aria-describedby": `${id}-help`,
        dataset: { changed: option.key in state.options ? "yes" : "no" } });
      option.values.forEach((value, i) => {
        const blocks = value === chosen ? [] : blockedBy(option.key, value);
        for (const c of blocks) reasons.add(c.message);
        select.append(h("option", { value: String(i), selected: value === chosen, disabled: blocks.length > 0 },
          valueLabel(option.key, value)));
      });
      select.addEventListener("change", () => choose(option, option.values[Number(select.value)]));
      const help = [t(`option.${option.key}.help`), ...[...reasons].map((key) => ` ${t(key)}`)];
      grid.append(h("div", { class: "field rules-option" },
        h("label", { for: id }, t(`option.${option.key}`)), select,
        h("p", { class: "muted small", id: `${id}-help` }, help.join(""))));
    }
    rows.push(grid);
    const reset = h("button", { type: "button", class: "ghost", id: "options-reset",
      disabled: Object.keys(state.options).length === 0 }, t("option.reset"));
    reset.addEventListener("click", () => { state.options = {}; draw(); });
    rows.push(reset);
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.id : null;
    replace(body, rows);
    if (focused) document.getElementById(focused)?.focus();
  }

  draw();
  return {
    el: box,
    /** The variant changed: back to its preset's options. */
    reset() {
      state.options = {};
      draw();
    },
    /** The options to send: only those that differ from the variant's preset. */
    chosen() {
      return { ...state.options };
    },
  };
}
