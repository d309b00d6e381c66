"""Ratings shown on the 1500 scale: the stored points of the rating history and the
before/after of each rated seat move from the old shown value (``max(0, mu - 3 sigma)``,
openskill's units) to the new one (``1500 + 40 (mu - 25)``, ``players.ratings.shown``).

The old value kept no sigma, so each history point is converted with the sigma its
account has in that pool now (``mu ~ old + 3 sigma``): exact for the latest point, a little
low for older ones (sigma only shrinks), and a point floored at 0 stays an estimate. A
seat's ``rating_after`` is its converted history point, ``rating_before`` the point before
it in the same pool (1500 for the first), so the match-end box, the profile and its chart
agree.

Revision ID: 0011_rating_scale
Revises: 0010_tournaments
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_rating_scale"
down_revision = "0010_tournaments"
branch_labels = None
depends_on = None

START, STEP, MU = 1500, 40, 25.0


def _convert(new_scale: bool) -> None:
    """Every history point, in order per account and pool, to the other scale, and each
    rated seat's before and after from the points (``new_scale``: up, else back)."""
    conn = op.get_bind()
    sigma = {(u, p): s for u, p, s in conn.execute(
        sa.text("SELECT user_id, pool, sigma FROM ratings"))}
    points = conn.execute(sa.text(
        "SELECT id, user_id, pool, match_id, rating FROM rating_history "
        "ORDER BY user_id, pool, at, id")).all()
    start = START if new_scale else 0.0
    before: dict[tuple[int, str], float] = {}
    for pid, user, pool, match_id, value in points:
        s = sigma.get((user, pool), 25 / 3)
        if new_scale:  # mu ~ old + 3 sigma
            rating: float = round(START + STEP * (value + 3 * s - MU))
        else:
            rating = max(0.0, round((value - START) / STEP + MU - 3 * s, 1))
        conn.execute(sa.text("UPDATE rating_history SET rating = :r WHERE id = :id"),
                     {"r": rating, "id": pid})
        conn.execute(sa.text(
            "UPDATE match_players SET rating_before = :b, rating_after = :a "
            "WHERE match_id = :m AND user_id = :u AND rating_after IS NOT NULL"),
            {"b": before.get((user, pool), start), "a": rating, "m": match_id, "u": user})
        before[(user, pool)] = rating


def upgrade() -> None:
    _convert(new_scale=True)


def downgrade() -> None:
    """Back to ``max(0, mu - 3 sigma)``, with the same sigma as the upgrade used."""
    _convert(new_scale=False)
