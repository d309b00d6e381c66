// One way to write a rating everywhere it appears (match-end box, profile, leaderboard):
// a whole number on the 1500 scale, "?" after it while it is provisional (as lichess).
/** The rating pools: people's, then the same with an online bot at the table (rated apart,
 * so a bot never farms people's ratings). */
export const POOLS = ["singles", "teams", "scopone", "bots-singles", "bots-teams", "bots-scopone"];

export function ratingText(value, settled = true) {
  return `${Math.round(Number(value))}${settled === false ? "?" : ""}`;
}
