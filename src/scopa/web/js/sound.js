// The table's sounds (made by scripts/make_sounds.py): playing, capturing, sweeping,
// dealing, "your turn" and a match won. Off when the player mutes them (remembered).
import { saveSetting, setting } from "./store.js";

export const SOUNDS = ["play", "capture", "sweep", "deal", "turn", "win"];

const cache = new Map();
/** The sounds asked for while on, most recent last (tests and tools read it). */
export const played = [];

export function soundOn() {
  return setting("sound", true) !== false;
}

export function setSoundOn(on) {
  saveSetting("sound", Boolean(on));
}

/** Play one sound, unless muted; a browser that refuses (no gesture yet) is left be. */
export function playSound(name) {
  if (!soundOn() || !SOUNDS.includes(name)) return;
  played.push(name);
  if (played.length > 50) played.shift();
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/static/sounds/${name}.wav`);
    audio.preload = "auto";
    cache.set(name, audio);
  }
  try {
    audio.currentTime = 0;
    const p = audio.play();
    if (p && p.catch) p.catch(() => {});
  } catch {
    // no audio output: the game goes on in silence
  }
}

/** The sound of a move event: a scopa sweeps, a capture gathers, a lay taps. */
export function moveSound(event) {
  if (!event.card) return "sweep"; // Escoba's opening sweep by the dealer
  if (event.scopa) return "sweep";
  return event.capture.length ? "capture" : "play";
}

// handy for tests: what was played
window.scopaSounds = played;
