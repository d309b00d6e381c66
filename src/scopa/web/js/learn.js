// The Learn pages: /learn lists the course with a tick on each lesson done; /learn/<id>
// walks one lesson step by step, resuming where the learner left it.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { setDeckContext } from "./decks/choice.js";
import { variantName } from "./variants.js";
import { drawStep } from "./learnstep.js";
import {
  isDone, loadLessons, markDone, nextLesson, progress, resumeAt, say, saveStep,
} from "./lessons.js";

/** How many lessons make the first course (the rest teach the variants). */
const BASICS = 7;

function failed(box, err) {
  replace(box, h("p", { class: "error" }, t("error.generic", { msg: err.message })));
}

export function mountLearn(main) {
  const box = h("article", { class: "learn" });
  main.append(box);

  async function draw() {
    let lessons;
    try {
      lessons = await loadLessons();
    } catch (err) {
      failed(box, err);
      return;
    }
    const { at } = progress();
    const next = nextLesson(lessons);
    const item = (lesson, i) => {
      const done = isDone(lesson.id);
      const left = at[lesson.id];
      const state = done ? h("span", { class: "learn-tick" }, h("span", { "aria-hidden": "true" }, "✓ "), t("learn.done"))
        : Number.isInteger(left) && left > 0 ? h("span", { class: "learn-state" }, t("learn.inProgress", { n: left + 1, k: lesson.steps.length }))
          : null;
      return h("li", { class: `learn-item${done ? " done" : ""}`, dataset: { lesson: lesson.id } },
        h("a", { href: `/learn/${encodeURIComponent(lesson.id)}` },
          h("span", { class: "learn-num", "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "learn-name" }, say(lesson.title))),
        state);
    };
    const basics = lessons.slice(0, BASICS);
    const variants = lessons.slice(BASICS);
    const go = next
      ? h("a", { class: "button primary big learn-go", href: `/learn/${encodeURIComponent(next.id)}` },
        next === lessons[0] && !progress().done.length ? t("learn.start") : t("learn.continue", { title: say(next.title) }))
      : h("p", { class: "learn-all-done" }, t("learn.allDone"));
    replace(box,
      h("h1", {}, t("learn.title")),
      h("p", {}, t("learn.intro")),
      go,
      h("h2", {}, t("learn.basics")),
      h("ol", { class: "learn-list" }, basics.map((l, i) => item(l, i))),
      h("h2", {}, t("learn.variants")),
      h("ol", { class: "learn-list", start: String(BASICS + 1) }, variants.map((l, i) => item(l, i + BASICS))));
    document.title = `${t("learn.title")} · Scopa`;
  }
  draw();
  return { relang: draw };
}

/** `rawId`: the address's part, still encoded (a malformed one is no lesson, not an error). */
export function mountLesson(main, rawId) {
  let id;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = null;
  }
  const box = h("article", { class: "learn lesson" });
  main.append(box);
  let lessons = null;
  let lesson = null;
  let index = 0;

  async function start() {
    try {
      lessons = await loadLessons();
    } catch (err) {
      failed(box, err);
      return;
    }
    lesson = lessons.find((l) => l.id === id);
    if (!lesson) {
      replace(box, h("h1", {}, t("learn.title")), h("p", { class: "error" }, t("learn.unknown")),
        h("a", { href: "/learn" }, t("learn.back")));
      return;
    }
    index = resumeAt(lesson);
    draw();
  }

  function draw() {
    const step = lesson.steps[index];
    const n = lessons.indexOf(lesson);
    const stepBox = h("div", { class: "learn-step", dataset: { step: String(index + 1), kind: step.kind } });
    const onward = h("div", { class: "learn-onward" });
    const variant = step.variant || lesson.variant;
    setDeckContext(variant, { quiet: true }); // Escoba's lessons in Spanish cards, unless a deck was chosen
    replace(box,
      h("nav", { class: "learn-crumbs", "aria-label": t("learn.title") },
        h("a", { href: "/learn" }, h("span", { "aria-hidden": "true" }, "‹ "), t("learn.back"))),
      h("h1", {}, say(lesson.title)),
      h("p", { class: "learn-meta muted" },
        t("learn.lessonOf", { n: n + 1, k: lessons.length }), " · ",
        t("learn.step", { n: index + 1, k: lesson.steps.length }),
        variant !== "scopa" ? ` · ${variantName(variant)}` : ""),
      index === 0 || step.kind === "deal" ? h("p", { class: "learn-intro" }, say(lesson.intro)) : null,
      stepBox, onward);
    drawStep(stepBox, step, lesson, () => solvedStep(onward));
    document.title = `${say(lesson.title)} · Scopa`;
  }

  function solvedStep(onward) {
    const last = index === lesson.steps.length - 1;
    if (!last) {
      saveStep(lesson.id, index + 1);
      const next = h("button", { type: "button", class: "primary big learn-next" }, t("learn.next"));
      next.addEventListener("click", () => {
        index += 1;
        draw();
        const first = box.querySelector(".learn-task");
        if (first) first.focus();
      });
      replace(onward, next);
      next.focus();
      return;
    }
    markDone(lesson.id);
    const after = lessons[lessons.indexOf(lesson) + 1];
    replace(onward,
      h("p", { class: "learn-complete" }, t("learn.complete")),
      after ? h("a", { class: "button primary big learn-next-lesson", href: `/learn/${encodeURIComponent(after.id)}` },
        t("learn.nextLesson", { title: say(after.title) })) : null,
      h("a", { class: "button learn-all", href: "/learn" }, t("learn.back")));
    const link = onward.querySelector("a");
    if (link) link.focus();
  }

  start();
  // a new language redraws the step where it is (an answer given is asked again)
  return { relang: () => { if (lesson) draw(); } };
}
