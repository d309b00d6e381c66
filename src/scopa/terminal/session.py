"""A match in the terminal: you at seat 0 against bots, with Rich output.

The loop takes a Rich ``Console`` and an ``ask(prompt) -> str`` function, so a test can
script a whole match with a console writing to a buffer. The human's screen is drawn
from ``PlayerView.of(game, 0)`` only; the bots get their own views (or, for the hint, the search
bot's analysis of the human's view).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..bots.base import Bot, Limit, bot_names, make_bot
from ..match import Match
from ..messages import LANGUAGES, sentence, text
from ..moves import AUTO_DECLARE, MARKS, OPENING, IllegalMoveError, Move
from ..rules import Rules
from ..shuffle import derive_seed
from ..view import PlayerView
from . import render

HUMAN = 0
words = render.words

Ask = Callable[[str], str]


class QuitMatch(Exception):
    """The human typed quit (or input ended)."""


@dataclass
class MatchOutcome:
    #: the winning side, None if the human quit
    winner: int | None
    scores: list[int]
    hands: int
    quit: bool


def default_opponent() -> str:
    return "intermediate" if "intermediate" in bot_names() else "random"


def language(environ: Mapping[str, str]) -> str:
    """The language of the environment's locale (``LC_ALL``, then ``LC_MESSAGES``, then
    ``LANG``, as gettext reads them) when the catalogue has it, else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def parse_choice(text: str, moves: Sequence[Move], lang: str = "en") -> Move:
    """A legal move from a number (1-based) or a move in notation; a card alone is enough
    when that card has a single legal move. ``ValueError`` says what is wrong."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        i = int(text)
        if 1 <= i <= len(moves):
            return moves[i - 1]
        raise ValueError(words("noMove", lang, i=i, n=len(moves)))
    try:
        move = Move.parse(text)
    except IllegalMoveError as e:
        raise ValueError(words("typeHelpAfter", lang, error=str(e))) from None
    if move in moves:
        return move
    same = [m for m in moves if m.card == move.card]
    if not move.capture and len(same) == 1:
        return same[0]
    if not same:
        raise ValueError(words("notInHand", lang, card=text))
    options = ", ".join(str(m) for m in same)
    raise ValueError(words("notLegal", lang, card=text, options=options))


#: builds the bot of a seat from its spec and seed (ValueError for an unknown spec)
BotMaker = Callable[[str, str | int | None], Bot]


def registered_opponent(level: str, seed: str | int | None) -> Bot:
    """A registered bot by name (the command line also seats frozen bots and programs)."""
    if level not in bot_names():
        raise ValueError(f"unknown opponent {level!r}; choose one of " + ", ".join(bot_names()))
    return make_bot(level, seed)


class TerminalMatch:
    """One match to the target; ``run()`` plays it and returns the outcome."""

    def __init__(
        self,
        rules: Rules,
        opponents: Sequence[str] = (),
        seed: str | int | None = None,
        console: Console | None = None,
        ask: Ask | None = None,
        hint_limit: Limit | None = None,
        bot_limit: Limit | None = None,
        make: BotMaker | None = None,
        lang: str = "en",
    ) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
        self.lang = lang
        levels = list(opponents) or [default_opponent()]
        make = make or registered_opponent
        self.rules = rules
        self.console = console or Console()
        self.ask: Ask = ask or self.console.input
        self.hint_limit = hint_limit
        self.bot_limit = bot_limit
        self.seed = seed
        self.game = Match(rules) if seed is None else Match(rules, seed=str(seed))
        n = rules.players
        self.levels = [levels[(s - 1) % len(levels)] for s in range(1, n)]
        self.bots: dict[int, Bot] = {}
        for seat in range(1, n):
            level = self.levels[seat - 1]
            bot_seed = None if seed is None else derive_seed(seed, "seat", seat)
            bot = make(level, bot_seed)
            if getattr(bot, "omniscient", False):
                self.close()
                raise ValueError(f"{level!r} sees every card: it cannot sit at a table")
            self.bots[seat] = bot
        self.names = [words("you", lang)] + [
            words("partner", lang, name=f"{self.levels[s - 1]} {s}")
            if rules.side_of(s) == rules.side_of(HUMAN) else f"{self.levels[s - 1]} {s}"
            for s in range(1, n)
        ]
        self.side_names = [
            " & ".join(self.names[s] for s in rules.seats_of(side)) for side in range(rules.teams)
        ]

    def close(self) -> None:
        """Stop the bots that run as programs of their own (frozen bots, ``cmd:``)."""
        for bot in self.bots.values():
            closer = getattr(bot, "close", None)
            if callable(closer):
                closer()

    # -- the match ----------------------------------------------------------------------
    def run(self) -> MatchOutcome:
        game = self.game
        out = self.console
        lang = self.lang
        out.print(Rule(words("title", lang, variant=self.rules.variant,
                             players=self.rules.players, target=self.rules.target)))
        out.print(words("typeHelp", lang), style="dim")
        try:
            while True:
                self.play_hand()
                self.show_hand_end()
                if game.match_over:
                    return self.finish()
                self._read(words("nextHand", lang))
                game.next_hand()
        except QuitMatch:
            out.print(words("left", lang), style="bold")
            return MatchOutcome(None, list(game.scores), game.hand_number, True)

    def play_hand(self) -> None:
        game = self.game
        lang = self.lang
        self.console.print(Rule(words("hand", lang, n=game.hand_number)))
        self.console.print(render.scores_line(game.scores, self.side_names, self.rules.target,
                                              lang))
        for seat, code, _swept in game.hand.history:  # the opening 15/30, declarations
            if code & 63 == OPENING:
                self.console.print(words("openingSweep", lang, name=self.names[seat]))
            elif code & 63 == AUTO_DECLARE:
                line = Text(f"{self.names[seat]}: ").append_text(
                    render.move_text(Move.from_code(code), lang)
                )
                self.console.print(line)
        while not game.hand.hand_over:
            seat = game.hand.to_move
            if seat == HUMAN:
                self.human_turn()
            else:
                self.bot_turn(seat)

    def bot_turn(self, seat: int) -> None:
        move = self.bots[seat].choose(PlayerView.of(self.game.hand, seat), self.bot_limit)
        self.game.hand.play(move)
        self.console.print(self._play_line(seat))

    def _play_line(self, seat: int) -> Text:
        _, code, swept = self.game.hand.last_entry()
        move = Move.from_code(code)
        if move.card >= MARKS:  # a declaration, a pass or the opening sweep
            line = Text(f"{self.names[seat]}: ").append_text(render.move_text(move, self.lang))
        else:
            line = Text(render.play_words(self.names[seat], move, self.lang,
                                          mine=seat == HUMAN) + " (")
            line.append_text(render.move_notation(move)).append(")")
        if swept:
            line.append("  " + text("table.sweep", self.lang).upper(), style="bold magenta")
        return line

    def human_turn(self) -> None:
        view = PlayerView.of(self.game.hand, HUMAN)
        moves = view.legal_moves()
        self.console.print(render.state_panel(view, self.names, self.lang))
        self.console.print(render.moves_table(moves, self.lang))
        while True:
            numbers = "1" if len(moves) == 1 else f"1-{len(moves)}"
            answer = self._read(words("yourMove", self.lang, numbers=numbers))
            word = answer.strip().lower()
            if word in ("help", "?"):
                self.console.print(words("help", self.lang), markup=False)
                continue
            if word in ("hint", "h"):
                self.show_hint(view, moves)
                continue
            if not word:
                continue
            try:
                move = parse_choice(word, moves, self.lang)
            except ValueError as e:
                self.console.print(f"[red]{e}[/red]")
                continue
            self.game.hand.play(move)
            self.console.print(self._play_line(HUMAN))
            return

    def _read(self, prompt: str) -> str:
        try:
            answer = self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitMatch from None
        if answer.strip().lower() in ("quit", "q", "exit"):
            raise QuitMatch
        return answer

    # -- hint ---------------------------------------------------------------------------
    def show_hint(self, view: PlayerView, moves: Sequence[Move]) -> None:
        try:
            from ..bots.analysis import analyse
        except ImportError:
            self.console.print(words("noHints", self.lang), style="yellow")
            return
        from ..bots.explain import still_to_come

        lang = self.lang
        self.console.print(words("thinking", lang), style="dim")
        values = analyse(view, self.hint_limit, seed=derive_seed(self.seed, "hint"))
        context = still_to_come(view)
        table = Table(title=words("hintTitle", lang))
        table.add_column("#", justify="right")
        table.add_column(words("colMove", lang))
        table.add_column(words("colValue", lang), justify="right")
        table.add_column(words("colWhy", lang))
        for mv in values[:5]:
            number = moves.index(mv.move) + 1 if mv.move in moves else 0
            why = " ".join(sentence(m, lang) for m in (*mv.reasons, *mv.margin))
            table.add_row(str(number), render.move_text(mv.move, lang), f"{mv.value:+.2f}",
                          why)
        self.console.print(table)
        if context:
            self.console.print(sentence(context, lang))
        self.console.print(words("valueNote", lang), style="dim")

    # -- hand and match end -------------------------------------------------------------
    def show_hand_end(self) -> None:
        game = self.game
        result = game.hand.hand_result()
        self.console.print(render.score_sheet(
            result, self.names, words("sheetTitle", self.lang, n=game.hand_number), self.lang))
        totals = [s + side["total"] for s, side in zip(game.scores, result["sides"], strict=True)]
        self.console.print(render.scores_line(totals, self.side_names, self.rules.target,
                                              self.lang))

    def finish(self) -> MatchOutcome:
        game = self.game
        winner = game.winner
        result = game.hand.hand_result()
        totals = [s + side["total"] for s, side in zip(game.scores, result["sides"], strict=True)]
        assert winner is not None
        mine = winner == self.rules.side_of(HUMAN)
        verdict = words("youWin", self.lang) if mine else words(
            "theyWin", self.lang, names=self.side_names[winner])
        score = f" {words('to', self.lang)} ".join(str(t) for t in sorted(totals, reverse=True))
        self.console.print(Rule(f"{verdict} ({score})"), style="bold green" if mine else "bold")
        return MatchOutcome(winner, totals, game.hand_number, False)
