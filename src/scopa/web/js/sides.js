// Sides (teams): how many, and who sits on each. The rules JSON leaves out options equal
// to the variant's default, so the server sends each table's (and match's) `teams`.

/** Number of sides; seat s plays for side s % sides. */
export function sideCount(rules, table) {
  if (table && table.teams) return table.teams;
  if (rules.teams) return rules.teams;
  return rules.players;  // every player alone (the server always says otherwise)
}

/** Seats of one side, in play order. */
export function seatsOf(side, rules, table) {
  const n = sideCount(rules, table);
  const seats = [];
  for (let s = side; s < rules.players; s += n) seats.push(s);
  return seats;
}
