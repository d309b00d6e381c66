"""What an event's settings may be, who may do what to it, and the model built from its
rows: the one place that turns the stored settings and entrants into an ``Event``.

Pure: no I/O. Every refusal is a ``TournamentError`` (the model's rule: the API answers 400)
or a ``Refusal`` (``common.refusal``: ``conflict`` for the event's state, ``forbidden`` for
who asks)."""

from __future__ import annotations

from typing import Any

from ...tournament import Entrant, Event, TournamentError
from ..common.refusal import Refusal
from ..players.names import NAME_MAX, clean_label
from .bodies import EVENT_NAME_MAX, CreateTournament

#: the model's settings kept from a creation body (the rest are the server's own columns)
MODEL_FIELDS = ("format", "rounds", "variant", "players", "deals_per_round", "target",
                "duplicate", "options")


def settings_of(req: CreateTournament) -> dict[str, Any]:
    """The stored settings: the model's fields, plus rated and teach for the tables."""
    out = {k: getattr(req, k) for k in MODEL_FIELDS}
    out.update(name=req.name, rated=req.rated, teach=req.teach,
               grace_seconds=req.grace_seconds, round_minutes=req.round_minutes,
               confirm_results=req.confirm_results, rest_points=req.rest_points)
    return out


def build_event(settings: dict[str, Any], names: list[str]) -> Event:
    """The model of an event with these entrants (a ``TournamentError`` if it cannot be)."""
    model = {k: settings.get(k) for k in MODEL_FIELDS}
    return Event([Entrant(n) for n in names], name=str(settings.get("name", "")),
                 format=str(model["format"]), rounds=model["rounds"],
                 variant=str(model["variant"]), players=model["players"],
                 options=dict(model["options"] or {}),
                 deals_per_round=model["deals_per_round"], target=model["target"],
                 duplicate=bool(model["duplicate"]),
                 rest_points=int(settings.get("rest_points", 1)))


def cleaned(req: CreateTournament) -> CreateTournament:
    """The request with its names cleaned as players' names are (``names.clean_label``:
    NFC, trimmed, no control or bidi character), or a ``TournamentError`` saying which."""
    try:
        return req.model_copy(update={
            "name": clean_label(req.name, EVENT_NAME_MAX, "event's name"),
            "entrants": None if req.entrants is None else [
                entrant_name(n) for n in req.entrants]})
    except ValueError as e:
        raise TournamentError(str(e)) from None


def entrant_name(raw: str) -> str:
    """An entrant's name as players' names are cleaned (``ValueError`` saying why not)."""
    return clean_label(raw, NAME_MAX, "entrant's name")


def check_settings(req: CreateTournament) -> None:
    """Refuse settings no field of entrants could play (``TournamentError``): the model
    is built with as many stand-in names as the event takes (or the paper entrants)."""
    if req.mode == "paper":
        if not req.entrants or len(req.entrants) < 2:
            raise TournamentError("a paper event names its entrants (at least two)")
        if len(req.entrants) > req.capacity:
            raise TournamentError(f"{len(req.entrants)} entrants for {req.capacity} places")
        names = list(req.entrants)
    else:
        if req.entrants:
            raise TournamentError(
                "an online event's entrants join with their accounts; name entrants only "
                "in a paper event")
        names = [f"entrant {i + 1}" for i in range(req.capacity)]
    if req.rated and req.mode == "paper":
        raise TournamentError("a paper event is not rated (its games are not played here)")
    event = build_event(settings_of(req), names)
    rules = event.rules()
    if req.mode == "online" and rules.players != 2:
        raise TournamentError(
            "online events are for one player a side (partnerships play at paper events "
            f"for now); {rules.variant} with {rules.players} players has partners")


def pairs_itself(mode: str, auto_next: bool, event: Event) -> bool:
    """Whether the next round is to be paired now, without the organiser: an online event
    made with auto-next whose current round has every result (however the last came: a
    match's end, a withdrawal's forfeits, the organiser's entry) and rounds to go. A paper
    event is paired by its organiser, who prints each round."""
    rnd = event.current
    return (mode == "online" and auto_next and rnd is not None and rnd.complete
            and not event.finished)


def may_organise(organiser_id: int, viewer_id: int | None) -> None:
    if viewer_id != organiser_id:
        raise Refusal("forbidden", "only the event's organiser may do this")


def check_open(status: str) -> None:
    if status != "open":
        raise Refusal("conflict", "the event has started: entries are closed")


def check_running(status: str) -> None:
    if status == "open":
        raise Refusal("conflict", "the event has not started")
    if status == "finished":
        raise Refusal("conflict", "the event is over")
