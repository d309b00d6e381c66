// Sides (teams): how many, and who sits on each. The rules JSON leaves out options equal
// to the variant's default, so the table's own `teams` comes first.

const DEFAULT_SIDES = { 2: 2, 3: 3, 4: 2, 5: 5, 6: 2 };

/** Number of sides; seat s plays for side s % sides. */
export function sideCount(rules, table) {
  if (table && table.teams) return table.teams;
  if (rules.teams) return rules.teams;
  return DEFAULT_SIDES[rules.players] || rules.players;
}

/** Seats of one side, in play order. */
export function seatsOf(side, rules, table) {
  const n = sideCount(rules, table);
  const seats = [];
  for (let s = side; s < rules.players; s += n) seats.push(s);
  return seats;
}
