// The rules page and the strategy guide: our own static HTML, one file per language.
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { fillFacts } from "./rulesfacts.js";

export function mountDoc(main, page) {
  const box = h("article", { class: "doc" });
  main.append(box);

  async function load() {
    delete box.dataset.ready;
    try {
      const res = await fetch(`/static/content/${page}.${lang()}.html`);
      if (!res.ok) throw new Error(res.statusText);
      // trusted static content shipped with the page (no user data)
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      replace(box, ...doc.body.childNodes);
      await fillFacts(box);
      box.dataset.ready = "true"; // the facts are in (tests wait for it)
      document.title = `${box.querySelector("h1")?.textContent || ""} · Scopa`;
    } catch (e) {
      replace(box, h("p", { class: "error" }, t("error.generic", { msg: e.message })));
    }
  }
  load();
  return { relang: load };
}
