"""What the event pages show, built from the rows and the model: the lobby's line, and the
event page's data (pairings with table numbers, live standings, commitments and the seeds
revealed so far). Players see only the model's public form: a round's seed, and so its
deals, only once the round is over."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...cards import card_text, cards_of
from ...match import Match
from ...rules import Rules
from ...tournament import Event, crosstable, standings
from ..store.tournament_models import RoundTableRow, TournamentRow
from .answers import TournamentLine, TournamentPage, TournamentSettings, TournamentSummary
from .store import Listed, StoredTournament, aware_or_none


def _iso(moment: datetime | None) -> str | None:
    moment = aware_or_none(moment)
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def entrant_names(stored: StoredTournament) -> list[str]:
    """In seeding order: a paper event's as its organiser named them, else the rows'."""
    if stored.row.mode == "paper":
        return [str(n) for n in stored.row.settings.get("paper_entrants", [])]
    return [e.name for e in stored.entrants]


def sees_all(stored: StoredTournament, viewer_id: int | None) -> bool:
    """Whether the viewer sees a running event's results and deals as they are: a paper
    event's organiser, who enters them and deals the boards (and is not playing); everyone
    else sees a sealed round's results only once it is over."""
    return (stored.row.mode == "paper" and viewer_id is not None
            and viewer_id == stored.row.organiser_id)


def summary(stored: StoredTournament, viewer_id: int | None) -> TournamentSummary:
    """An event's settings and entrants (the top of its page)."""
    names = entrant_names(stored)
    return {**_settings(stored.row, viewer_id), "entrants": names,
            "entered_count": len(names),
            "entered": viewer_id is not None and any(e.user_id == viewer_id
                                                     for e in stored.entrants)}


def list_line(listed: Listed, viewer_id: int | None) -> TournamentLine:
    """An event's line in the lobby's list: its settings and how many have entered (not
    who: the list's size must not grow with entrants)."""
    row = listed.row
    count = len(row.settings.get("paper_entrants", [])) if row.mode == "paper" \
        else listed.entered
    return {**_settings(row, viewer_id), "entered_count": count,
            "entered": listed.viewer_entered}


def _settings(row: TournamentRow, viewer_id: int | None) -> TournamentSettings:
    s = row.settings
    return {
        "id": row.id, "name": row.name, "mode": row.mode, "status": row.status,
        "format": s.get("format"), "variant": s.get("variant"),
        "players": s.get("players"), "rounds": s.get("rounds"),
        "deals_per_round": s.get("deals_per_round"), "target": s.get("target"),
        "duplicate": bool(s.get("duplicate")), "rated": bool(s.get("rated")),
        "teach": bool(s.get("teach")), "auto_next": row.auto_next,
        "starts_at": _iso(row.starts_at), "capacity": row.capacity,
        "grace_seconds": s.get("grace_seconds"), "round_minutes": s.get("round_minutes"),
        "confirm_results": bool(s.get("confirm_results")),
        "organiser": viewer_id is not None and viewer_id == row.organiser_id,
    }


def event_page(stored: StoredTournament, event: Event | None, tables: list[RoundTableRow],
               viewer_id: int | None, viewer_name: str | None) -> TournamentPage:
    """The event page's data; ``event`` None before it starts."""
    everything = sees_all(stored, viewer_id)
    shown = None if event is None else event if everything else event.public_copy()
    order = [] if shown is None else standings(shown)
    out: TournamentPage = {
        **summary(stored, viewer_id),
        "event": None if event is None else event.to_dict(public=True,
                                                          sealed=not everything),
        "standings": [s.to_dict() for s in order],
        "crosstable": [] if shown is None else crosstable(shown, order),
        "my_table": None, "withdrawn": [], "reinstatable": [], "tables": [],
    }
    if event is None:
        return out
    out["rounds"] = event.rounds
    out["withdrawn"] = list(event.withdrawn)
    out["reinstatable"] = event.reinstatable() if viewer_id == stored.row.organiser_id else []
    live = {(t.round, t.number): t for t in tables}
    current = event.current
    if current is not None and viewer_name is not None:
        for t in current.tables:
            row = live.get((current.number, t.number))
            if row is not None and t.result is None and viewer_name in (t.home, t.away):
                out["my_table"] = {"round": current.number, "table": t.number,
                                   "table_id": row.table_id}
    out["tables"] = [{"round": t.round, "number": t.number, "table_id": t.table_id}
                     for t in tables]
    return out


def dealt_cards(rules: Rules, seed: str, side: int) -> dict[str, Any]:
    """A deal's cards as a printed board shows them: home's and away's first hands, the
    table, and the whole deck in dealing order (to deal the board from; home holding
    ``side``: side 0 is the seat that leads)."""
    game = Match(rules, hand_seed=seed)
    leader = game.hand.to_move
    home_seat = leader if side == 0 else (leader + 1) % rules.players
    away_seat = (home_seat + 1) % rules.players
    order = [(leader + k) % rules.players for k in range(rules.players)]
    return {"home": [card_text(c) for c in cards_of(game.hand.hands[home_seat])],
            "away": [card_text(c) for c in cards_of(game.hand.hands[away_seat])],
            # every seat's hand from the leader on (Scopone: both partners of each side)
            "hands": [{"side": "home" if (seat - home_seat) % 2 == 0 else "away",
                       "leads": seat == leader,
                       "cards": [card_text(c) for c in cards_of(game.hand.hands[seat])]}
                      for seat in order],
            "table": [card_text(c) for c in cards_of(game.hand.table)],
            "deck": [card_text(c) for c in game.deck or []]}


def round_deals(event: Event, round_number: int, table_number: int) -> list[dict[str, Any]]:
    """A table's deals, card by card (only for a round whose seed may be shown)."""
    rules = event.rules()
    return [{"deal": d + 1, "home_side": side, **dealt_cards(rules, seed, side)}
            for d, (seed, side) in enumerate(event.deal_seeds(round_number, table_number))]

