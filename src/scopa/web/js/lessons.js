// The Learn course's data and the learner's progress. The lessons are static data
// (../content/lessons.json, checked against the rules engine by
// tests/engine/test_lessons_data.py); the progress stays in this browser (localStorage).
import { deckWords } from "./decks/words.js";
import { lang } from "./i18n.js";

const KEY = "scopa.learn";
let loading = null;

/** The lessons, fetched once. */
export function loadLessons() {
  if (!loading) {
    loading = fetch(new URL("../content/lessons.json", import.meta.url))
      .then((res) => {
        if (!res.ok) throw new Error(res.statusText);
        return res.json();
      })
      .then((data) => data.lessons)
      .catch((err) => {
        loading = null; // a later visit asks again
        throw err;
      });
  }
  return loading;
}

/** A lesson text ({en, it}) in the page's language. */
export function say(text) {
  if (!text) return "";
  // a lesson names the suits in the chosen deck's words too (decks/words.js)
  return deckWords(text[lang()] || text.en || "", lang());
}

/** {done: [lesson ids], at: {lesson id: step index}}: what was finished, where each
 * unfinished lesson was left. Anything unreadable counts as a fresh start. */
export function progress() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "{}");
    const done = Array.isArray(raw.done) ? raw.done.filter((x) => typeof x === "string") : [];
    const at = raw.at && typeof raw.at === "object" ? raw.at : {};
    return { done, at };
  } catch {
    return { done: [], at: {} };
  }
}

function save(p) {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // storage full or blocked: the course still works, it only forgets
  }
}

/** The step to open a lesson at: where it was left, else its start. */
export function resumeAt(lesson) {
  const at = progress().at[lesson.id];
  return Number.isInteger(at) && at >= 0 && at < lesson.steps.length ? at : 0;
}

export function saveStep(lessonId, index) {
  const p = progress();
  p.at[lessonId] = index;
  save(p);
}

export function markDone(lessonId) {
  const p = progress();
  if (!p.done.includes(lessonId)) p.done.push(lessonId);
  delete p.at[lessonId];
  save(p);
}

export function isDone(lessonId) {
  return progress().done.includes(lessonId);
}

/** The first lesson not yet done, in course order (null: all done). */
export function nextLesson(lessons) {
  const { done } = progress();
  return lessons.find((l) => !done.includes(l.id)) || null;
}

/** Forget the whole course's progress. */
export function forgetProgress() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

/** Whether a play (a hand card and the table cards picked) is one of `plays`. */
export function samePlay(play, wanted) {
  if (play.card !== wanted.card || play.capture.length !== wanted.capture.length) return false;
  const set = new Set(play.capture);
  return wanted.capture.every((c) => set.has(c));
}

/** What the data says of a play: {right: true, text} or {right: false, text}. */
export function judgePlay(step, play) {
  if (step.any ? play.capture.length === 0 && step.hand.includes(play.card)
    : step.right.some((w) => samePlay(play, w))) {
    return { right: true, text: say(step.well) };
  }
  const wrong = (step.wrong || []).find((w) => samePlay(play, w));
  return { right: false, text: say(wrong ? wrong.why : step.otherwise) };
}
