// One way to write a rating everywhere it appears (match-end box, profile, leaderboard):
// a whole number on the 1500 scale, "?" after it while it is provisional (as lichess).
export function ratingText(value, settled = true) {
  return `${Math.round(Number(value))}${settled === false ? "?" : ""}`;
}
