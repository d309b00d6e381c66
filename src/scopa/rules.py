"""Rules: one immutable value holding every option a table can set, and named presets.

A variant is a preset of options (see ``docs/rules.md``); a table may override any
option. ``Rules.from_dict`` / ``to_dict`` give the JSON form used in positions and records:
``variant``, ``players`` and ``target`` always, other keys only where they differ from the
preset.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from .cards import NUM_CARDS
from .messages import text as message_text

#: "equal": an equal card first, else a sum; "fifteen": the played card and the taken cards
#: make 15; "cirulla": the fewest-cards equal-or-sum capture or a fifteen, the player's choice
CAPTURE_MODES = ("equal", "fifteen", "cirulla")
#: "off": no declarations; "choice": a seat whose dealt hand scores may declare it (a move);
#: "auto": every hand that scores is declared when dealt
DECLARATIONS = ("off", "choice", "auto")
PRIMIERA_FACES = ("ten", "rank")

#: one line per variant, for menus and help texts
VARIANT_DESCRIPTIONS: dict[str, str] = {
    "scopa": "Classic Scopa: take an equal card or cards that add up to yours; sweeps score.",
    "scopone": "Scopone: four players in pairs, 9 cards each and 4 on the table, one round.",
    "scopone-scientifico": "Scopone Scientifico: four players in pairs, all 10 cards dealt, "
    "empty table.",
    "asso-pigliatutto": "Scopa d'Assi: an ace played takes everything on the table.",
    "napola": "Napola: ace, 2 and 3 of coins score 3, plus one per further coin in the run.",
    "re-bello": "Re Bello: the king of coins is worth one more point.",
    "quindici": "Scopa a Quindici: take cards that make 15 together with the card you play.",
    "escoba": "Escoba: the Spanish cousin; sums of 15, most sevens instead of primiera.",
    "cirulla": "Cirulla: equal, sum or fifteen captures, the ace sweeps, declarations with "
    "the wild seven of cups; to 51.",
}

# Deal shapes by player count: (table cards, cards per hand in each round of dealing).
_STANDARD_DEALS: dict[int, tuple[int, tuple[int, ...]]] = {
    2: (4, (3,) * 6),
    3: (4, (3,) * 4),
    4: (4, (3,) * 3),
    5: (5, (3, 4)),
    6: (4, (3, 3)),
}
#: the sides each player count may be split into (the first is the default): partners sit
#: alternately, so the number of sides divides the players
_STANDARD_SEATINGS: dict[int, tuple[int, ...]] = {
    2: (2,), 3: (3,), 4: (2, 4), 5: (5,), 6: (2, 3, 6),
}

# Options each variant sets; everything else takes the Rules field default.
_VARIANT_OPTIONS: dict[str, dict[str, Any]] = {
    "scopa": {},
    "scopone": {"players": 4, "table_cards": 4, "rounds": (9,), "target": 21},
    "scopone-scientifico": {"players": 4, "table_cards": 0, "rounds": (10,), "target": 21},
    "asso-pigliatutto": {"ace_takes_all": True},
    "napola": {"napola": True},
    "re-bello": {"re_bello": True},
    "quindici": {"capture": "fifteen", "target": 21},
    "escoba": {
        "capture": "fifteen",
        "primiera": False,
        "sevens": True,
        "table_fifteen": True,
        "king_redeal": None,
        "target": 21,
    },
    "cirulla": {
        "capture": "cirulla",
        "ace_takes_all": True,
        "table_fifteen": True,
        "king_redeal": None,
        "ace_redeal": 2,
        "declarations": "choice",
        "piccola": True,
        "grande": True,
        "target": 51,
    },
}
VARIANTS = tuple(_VARIANT_OPTIONS)

#: the player counts each variant is played with and the sides allowed at each (declared
#: here, so nobody has to find them by trying presets)
VARIANT_SEATINGS: dict[str, dict[int, tuple[int, ...]]] = {
    v: dict(_STANDARD_SEATINGS) for v in VARIANTS
}
VARIANT_SEATINGS["scopone"] = {4: (2, 4)}
VARIANT_SEATINGS["scopone-scientifico"] = {4: (2, 4)}
VARIANT_SEATINGS["cirulla"] = {2: (2,), 3: (3,), 4: (2,)}


@dataclass(frozen=True)
class Rules:
    """Every option of a table. Build with ``Rules.preset`` or ``Rules.from_dict``."""

    variant: str = "scopa"
    players: int = 2
    #: number of sides; seat s plays for side s % teams (partners sit alternately)
    teams: int = 2
    target: int = 11
    table_cards: int = 4
    #: cards dealt to each hand in each round of dealing
    rounds: tuple[int, ...] = field(default=(3,) * 6)
    #: redeal when the opening table shows at least this many kings (None: never)
    king_redeal: int | None = 3
    #: redeal when the opening table shows at least this many aces (None: never; Cirulla)
    ace_redeal: int | None = None
    #: one of CAPTURE_MODES
    capture: str = "equal"
    #: among sum captures only those with the fewest cards are allowed
    fewest_cards: bool = False
    #: a played ace takes the whole table (unless an ace lies there)
    ace_takes_all: bool = False
    #: the ace's take-all sweep scores a scopa
    ace_sweep_scopa: bool = False
    #: a sweep on the hand's very last play scores
    last_sweep_counts: bool = False
    #: a player may lay a card even when it could capture (a house rule of the sources: "a
    #: player can decide not to take any cards"); off, taking is obligatory
    capture_optional: bool = False
    #: the primiera point is played for
    primiera: bool = True
    #: "ten": faces worth 10 in primiera; "rank": faces worth 8, 9, 10 (old sources)
    primiera_faces: str = "ten"
    #: a point for most sevens (Escoba)
    sevens: bool = False
    #: the dealer sweeps an opening table that makes 15 (two sweeps for 30) (Escoba)
    table_fifteen: bool = False
    napola: bool = False
    #: capturing all ten coins wins the match outright
    napola_outright: bool = False
    re_bello: bool = False
    #: Cirulla's piccola: ace, 2 and 3 of coins score 3, plus one per further coin in the run
    piccola: bool = False
    #: Cirulla's grande: king, knight and knave of coins together score 5
    grande: bool = False
    #: one of DECLARATIONS: Cirulla's declared hands (under 10, or three of a kind)
    declarations: str = "off"

    def __post_init__(self) -> None:
        self._validate()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def preset(cls, variant: str = "scopa", **overrides: Any) -> Rules:
        """The named variant's options, with overrides applied."""
        if variant not in _VARIANT_OPTIONS:
            raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        opts: dict[str, Any] = {"variant": variant, **_VARIANT_OPTIONS[variant]}
        unknown = set(overrides) - _FIELD_NAMES
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(sorted(unknown))}; the "
                             f"options are {', '.join(OPTION_NAMES)}")
        if "variant" in overrides and overrides["variant"] != variant:
            raise ValueError("variant given twice")
        opts.update(overrides)
        players = opts.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be an integer, got {players!r}")
        seatings = VARIANT_SEATINGS[variant]
        if players not in seatings:
            counts = ", ".join(map(str, seatings))
            raise ValueError(
                f"{variant} is played by {counts} players, not {players} (its deal of "
                f"{NUM_CARDS} cards and its sides are made for them)"
            )
        if "table_cards" not in opts and "rounds" not in opts:
            opts["table_cards"], opts["rounds"] = _STANDARD_DEALS[players]
        opts.setdefault("teams", seatings[players][0])
        if "rounds" in opts and isinstance(opts["rounds"], list):
            opts["rounds"] = tuple(opts["rounds"])
        return cls(**opts)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Parse the JSON form; raise ``ValueError`` with a clear message if it is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be an object, got {type(data).__name__}")
        try:
            # the value types are part of the key: {"napola": 1} must not hit {"napola": true}
            # (one flat tuple: keys, values, their types; its length tells them apart)
            key = (*data, *data.values(), *map(type, data.values()))
            cached = _FROM_DICT_CACHE.get(key)
        except TypeError:  # unhashable values (a list of rounds): no caching
            key, cached = None, None
        if cached is not None:
            return cached
        rules = cls._parse(dict(data))
        if key is not None and len(_FROM_DICT_CACHE) < 1000:
            _FROM_DICT_CACHE[key] = rules
        return rules

    @classmethod
    def _parse(cls, data: dict[str, Any]) -> Rules:
        variant = data.pop("variant", "scopa")
        if not isinstance(variant, str):
            raise ValueError("rules.variant must be a string")
        return cls.preset(variant, **data)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: variant, players, target, and the options that differ from the
        preset for this variant and player count."""
        cached = _TO_DICT_CACHE.get(self)
        if cached is not None:
            return {k: list(v) if isinstance(v, list) else v for k, v in cached.items()}
        base = Rules.preset(self.variant, players=self.players)
        out: dict[str, Any] = {
            "variant": self.variant,
            "players": self.players,
            "target": self.target,
        }
        for f in dataclasses.fields(self):
            if f.name in out:
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        if len(_TO_DICT_CACHE) < 1000:
            _TO_DICT_CACHE[self] = out
        return {k: list(v) if isinstance(v, list) else v for k, v in out.items()}

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return dataclasses.replace(self, **changes)

    # -- derived facts ------------------------------------------------------------------
    def side_of(self, seat: int) -> int:
        return seat % self.teams

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if s % self.teams == side]

    @property
    def sides(self) -> int:
        return self.teams

    # -- validation ---------------------------------------------------------------------
    def _validate(self) -> None:
        def need(cond: bool, message: str) -> None:
            if not cond:
                raise ValueError(message)

        def is_int(v: object) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        need(self.variant in _VARIANT_OPTIONS, f"unknown variant {self.variant!r}")
        need(is_int(self.players) and 2 <= self.players <= 6, "players must be 2 to 6")
        need(
            is_int(self.teams) and self.teams >= 2 and self.players % self.teams == 0,
            f"teams (number of sides) must be at least 2 and divide {self.players} players",
        )
        seatings = VARIANT_SEATINGS[self.variant]
        need(
            self.players in seatings,
            f"{self.variant} is played by {', '.join(map(str, seatings))} players",
        )
        need(
            self.teams in seatings.get(self.players, ()),
            f"{self.players} players of {self.variant} play as "
            + " or ".join(map(str, seatings.get(self.players, ()))) + " sides",
        )
        need(is_int(self.target) and 1 <= self.target <= 1000, "target must be 1 to 1000")
        need(is_int(self.table_cards) and 0 <= self.table_cards <= 10, "table_cards: 0 to 10")
        need(
            isinstance(self.rounds, tuple)
            and len(self.rounds) >= 1
            and all(is_int(r) and r >= 1 for r in self.rounds),
            "rounds must be a non-empty list of positive hand sizes",
        )
        dealt = self.table_cards + self.players * sum(self.rounds)
        need(
            dealt == NUM_CARDS,
            f"the deal uses {dealt} cards, not {NUM_CARDS}: set table_cards and rounds "
            f"for {self.players} players",
        )
        need(
            self.king_redeal is None or (is_int(self.king_redeal) and 1 <= self.king_redeal <= 4),
            "king_redeal must be 1 to 4 or null",
        )
        need(
            self.ace_redeal is None or (is_int(self.ace_redeal) and 1 <= self.ace_redeal <= 4),
            "ace_redeal must be 1 to 4 or null",
        )
        need(self.declarations in DECLARATIONS, f"declarations: one of {DECLARATIONS}")
        need(
            self.declarations == "off" or set(self.rounds) == {3},
            "declarations are made on hands of 3 cards: every round must deal 3",
        )
        need(self.capture in CAPTURE_MODES, f"capture must be one of {CAPTURE_MODES}")
        need(self.primiera_faces in PRIMIERA_FACES, f"primiera_faces: one of {PRIMIERA_FACES}")
        for name in (
            "fewest_cards", "ace_takes_all", "ace_sweep_scopa", "last_sweep_counts",
            "capture_optional", "primiera", "sevens", "table_fifteen", "napola",
            "napola_outright", "re_bello", "piccola", "grande",
        ):
            need(isinstance(getattr(self, name), bool), f"{name} must be true or false")
        for conflict in CONFLICTS:
            need(not conflict.applies(self), conflict.error())


_FIELD_NAMES = {f.name for f in dataclasses.fields(Rules)}


@dataclass(frozen=True)
class Conflict:
    """Two option values that cannot be played together, and the message key
    (``conflict.<name>`` in the catalogue) that says why."""

    first: tuple[str, Any]
    second: tuple[str, Any]
    message: str

    def applies(self, rules: Rules) -> bool:
        (a, va), (b, vb) = self.first, self.second
        return bool(getattr(rules, a) == va and getattr(rules, b) == vb)

    def text(self, lang: str = "en") -> str:
        return message_text(self.message, lang)

    def error(self) -> str:
        """The error naming both options: ``ace_takes_all=true with capture="fifteen": ...``."""
        (a, va), (b, vb) = self.first, self.second
        return f"{a}={json.dumps(va)} with {b}={json.dumps(vb)}: {self.text()}"

    def to_dict(self) -> dict[str, Any]:
        return {"options": [list(self.first), list(self.second)], "message": self.message}


#: every incompatible pair of option values, declared once: ``Rules`` refuses them, the
#: server sends them (``variant_facts``), the lobby disables and explains them
CONFLICTS: tuple[Conflict, ...] = (
    Conflict(("ace_takes_all", True), ("capture", "fifteen"), "conflict.ace_fifteen"),
    Conflict(("napola_outright", True), ("napola", False), "conflict.outright_napola"),
)

#: the values each table option may take (the deal's shape and the seating aside), for
#: clients that offer them: declared here next to the options themselves
_BOOL = (False, True)
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "king_redeal": (None, 1, 2, 3, 4),
    "ace_redeal": (None, 1, 2, 3, 4),
    "capture": CAPTURE_MODES,
    "fewest_cards": _BOOL,
    "ace_takes_all": _BOOL,
    "ace_sweep_scopa": _BOOL,
    "last_sweep_counts": _BOOL,
    "capture_optional": _BOOL,
    "primiera": _BOOL,
    "primiera_faces": PRIMIERA_FACES,
    "sevens": _BOOL,
    "table_fifteen": _BOOL,
    "napola": _BOOL,
    "napola_outright": _BOOL,
    "re_bello": _BOOL,
    "piccola": _BOOL,
    "grande": _BOOL,
    "declarations": DECLARATIONS,
}
#: the targets offered (any 1 to 1000 is valid)
TARGETS = (11, 16, 21, 31, 51)


def _deal_facts(variant: str, players: int) -> dict[str, Any]:
    rules = Rules.preset(variant, players=players)
    return {"table": rules.table_cards, "rounds": list(rules.rounds)}


def variant_facts(variant: str) -> dict[str, Any]:
    """What a client needs to offer a variant: its player counts and the sides allowed at
    each (the first is the default), its target, and every option with its default here
    and its allowed values. Declared data: nothing is found by trying presets."""
    seatings = VARIANT_SEATINGS[variant]
    default = Rules.preset(variant, players=next(iter(seatings)))
    return {
        "name": variant,
        "description": VARIANT_DESCRIPTIONS.get(variant, ""),
        "players": list(seatings),
        "teams": {str(p): list(sides) for p, sides in seatings.items()},
        # the deal at each player count: cards to the table, cards per hand in each round
        "deals": {str(p): _deal_facts(variant, p) for p in seatings},
        "target": default.target,
        "targets": sorted({*TARGETS, default.target}),
        "options": [
            {"key": key, "default": getattr(default, key), "values": list(values)}
            for key, values in OPTION_VALUES.items()
        ],
        "conflicts": [c.to_dict() for c in CONFLICTS],
    }


_TO_DICT_CACHE: dict[Rules, dict[str, Any]] = {}
_FROM_DICT_CACHE: dict[tuple[Any, ...], Rules] = {}


#: every option a table may set, in declaration order (``variant`` names the preset)
OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "variant")
#: the options a table gives as their own fields (the lobby's form, the command line's
#: flags), never among its other options
TABLE_FIELDS = ("players", "teams", "target")


def table_rules(
    variant: str,
    options: dict[str, Any] | None = None,
    *,
    players: int | None = None,
    teams: int | None = None,
    target: int | None = None,
) -> Rules:
    """The rules of a new table: a variant, the fields every table sets (None: the
    variant's) and any other options. One reading for the lobby and the command line."""
    opts = dict(options or {})
    for key in ("variant", *TABLE_FIELDS):
        if key in opts:
            raise ValueError(f"give {key} as its own field (--{key}), not among the options")
    for key, value in (("players", players), ("teams", teams), ("target", target)):
        if value is not None:
            opts[key] = value
    return Rules.preset(variant, **opts)
