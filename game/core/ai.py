"""Computer players, for every rule system: one way for the computer to take a seat.

A computer player is told only what the seat's player could know: the state as its side sees it
(`system.view(state, side)`, which hides what the side may not see: the GM's forced rolls, the
other sides' sealed choices and, as every system's view should, the generator's state) and the
rules' own queries on that view (`legal_commands`, previews, exact odds). It answers with one command and a "why" line for people, within a time budget:

    player = plugin.players["hard"](random.Random(seed))       # each system offers its levels
    timed = choose(system, state, side, player, Budget(1.0))   # the only way a seat is asked
    timed.decision.command, timed.decision.why, timed.seconds

`choose` makes the view itself and hands the player nothing else, so a player cannot read a hidden
field even by mistake; the honesty tests (tests/ai/) change every hidden field, the dice seed
included, and check that the decisions do not change.

A player that simulates (looks ahead over the dice) draws its dice from its own seeded
`random.Random`, never from the game's generator. A player is deterministic for a given view,
random seed and work limit; the time budget is a safety stop on top (`Budget.work` bounds the
search in steps that do not depend on the machine's speed, so that a game is reproducible).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.core.record import Record
from game.core.system import Accepted, RuleSystem, counted

__all__ = ["Budget", "Decision", "GameOut", "Player", "PlayerFactory", "RandomPlayer", "RefusedCommand", "Timed", "choose",
           "game_summary", "parse_seat", "play_out", "wilson"]


class Budget:
    """How long a player may think: `seconds` of wall-clock time (measured with
    time.perf_counter from its creation) and at most `work` units of search (a player counts
    them its own way: positions evaluated, games simulated). Whichever runs out first stops the
    search; a player always has an answer ready (its best so far)."""

    def __init__(self, seconds: float = 1.0, work: int = 10_000,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if seconds <= 0:
            raise ValueError(f"a time budget must be more than 0 seconds, got {seconds}")
        if work < 1:
            raise ValueError(f"a work budget must be at least 1, got {work}")
        self.seconds = seconds
        self.work = work
        self.used = 0
        self._clock = clock
        self._start = clock()

    def spend(self, units: int = 1) -> None:
        self.used += units

    def elapsed(self) -> float:
        return self._clock() - self._start

    def expired(self) -> bool:
        return self.used >= self.work or self.elapsed() >= self.seconds

    def out_of_time(self) -> bool:
        """The wall clock alone has run out (a stop that does not depend on the work counted, for
        the parts of a search that never count any)."""
        return self.elapsed() >= self.seconds


@dataclass(frozen=True)
class Decision:
    """A player's answer: the command, and one line saying why (the odds it weighed)."""

    command: Any
    why: str = ""


@dataclass(frozen=True)
class Timed:
    """A decision and how long it took (seconds, wall clock)."""

    decision: Decision
    seconds: float


class Player(Protocol):
    """A computer player of one rule system. `decide` gets the view of one side (never the state
    itself) and returns a command `legal_commands(view)` lists for that side."""

    level: str

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision: ...


# level name -> (the player's own random generator) -> a player. Each system offers its levels in
# its Plugin (`Plugin.players`), e.g. {"random": ..., "easy": ..., "hard": ...}.
PlayerFactory = Callable[[random.Random], Player]


def choose(system: RuleSystem, state: Any, side: str, player: Player, budget: Budget | None = None) -> Timed:
    """Ask `player` for `side`'s command in `state`, showing it only the side's view."""
    budget = budget or Budget()
    view = system.view(state, side)
    start = time.perf_counter()
    decision = player.decide(system, view, side, budget)
    return Timed(decision, time.perf_counter() - start)


class RandomPlayer:
    """The uniform random player, the yardstick every level is measured against: among the
    commands of its side, a kind of command at random (so ending the phase is as likely as any
    other kind of action), then one command of that kind at random."""

    level = "random"

    def __init__(self, rng: random.Random, commands_of: Callable[[RuleSystem, Any, str], Sequence[Any]]) -> None:
        self.rng = rng
        self.commands_of = commands_of

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        cmds = list(self.commands_of(system, view, side))
        if not cmds:
            raise ValueError(f"no legal command for side {side!r}")
        by_kind: dict[str, list[Any]] = {}
        for c in cmds:
            by_kind.setdefault(str(getattr(c, "kind", type(c).__name__)), []).append(c)
        kind = self.rng.choice(sorted(by_kind))
        return Decision(self.rng.choice(by_kind[kind]), f"at random among {counted(len(cmds), 'command', 'commands')}")


def parse_seat(text: str, sides: Sequence[str], levels: Sequence[str], *, human: bool = False) -> tuple[str, str]:
    """A `--seat SIDE=ai:LEVEL` (or SIDE=LEVEL; SIDE=human too when `human`: the window's `play`)
    argument -> (side, level, or "human"); ValueError naming what was expected, in one line."""
    side, sep, rest = text.partition("=")
    seat = "human or SIDE=ai:LEVEL" if human else "ai:LEVEL"
    if not sep or not side or not rest:
        raise ValueError(f"--seat {text!r}: expected SIDE={seat} (sides: {', '.join(sides)}; "
                         f"levels: {', '.join(levels)})")
    if side not in sides:
        raise ValueError(f"--seat {text!r}: no side {side!r} in this game (sides: {', '.join(sides)})")
    if human and rest == "human":
        return side, rest
    level = rest.removeprefix("ai:")
    if level not in levels:
        if human:
            raise ValueError(f"--seat {text!r}: expected {side}=human or {side}=ai:LEVEL (levels: {', '.join(levels)}), "
                             f"got {rest!r}")
        raise ValueError(f"--seat {text!r}: no computer level {level!r}: expected {side}=ai:LEVEL (levels: "
                         f"{', '.join(levels)})")
    return side, level


# --------------------------------------------------------------------------- a game between seats


class RefusedCommand(AssertionError):
    """A computer player chose a command the rules refused (a bug in the player or the rules)."""


@dataclass
class GameOut:
    """One game played out by computer seats: its history, how it ended, each decision's time and
    why it was made."""

    record: Any  # game.core.record.Record
    over: bool
    winner: str | None
    times: dict[str, list[float]]  # side -> seconds of each of its decisions
    commands: int
    # the summary of its last state with what the system reads from its history (game_summary):
    # e.g. the campaign's `score` and `battles_fought`
    summary: dict[str, Any] = field(default_factory=dict)
    # the why of each decision (Decision.why) by the place of its command in the history
    # (record.steps); a decision that gave none (empty, blanks only) has no entry
    whys: dict[int, str] = field(default_factory=dict)


def game_summary(system: RuleSystem, state: Any, steps: Sequence[Any]) -> dict[str, Any]:
    """`system.summary(state)` of a game's last state, with the facts a system reads from the
    game's history rather than its state: a system may offer `history_summary(state, steps)`
    (optional; `steps` from the game's start to `state`), whose entries are added. The optional
    entry the arena reads is `score` (side -> number: the higher, the better the side did), by
    which it judges a game not over (docs/ai.md, "The arena")."""
    summary = dict(system.summary(state))
    extra = getattr(system, "history_summary", None)
    if callable(extra):
        summary.update(extra(state, steps))
    return summary


def play_out(system: RuleSystem, initial: Any, seats: Mapping[str, Player], *, seconds: float = 1.0,
             work: int = 10_000, max_commands: int = 20_000, max_rounds: int | None = None) -> GameOut:
    """Play a game from `initial`, every side's decision asked of its seat's player through
    `choose` (its view only), until the game is over, `max_commands`, or (when set) the system's
    clock (its summary's `round`: rounds, weeks, waves) passes `max_rounds`. A refused command
    raises RefusedCommand: a computer plays only commands the rules accept. Each decision's why
    is kept by the place of its command in the history (`GameOut.whys`)."""
    record = Record(system, initial)
    times: dict[str, list[float]] = {side: [] for side in seats}
    whys: dict[int, str] = {}
    n = 0
    while n < max_commands:
        to_move = system.to_move(record.state)
        summary = system.summary(record.state)
        if not to_move or summary.get("over"):
            break
        if max_rounds is not None and int(summary.get("round", 0)) > max_rounds:
            break
        side = to_move[0]
        if side not in seats:
            raise ValueError(f"no seat for side {side!r} (seats: {', '.join(seats)})")
        timed = choose(system, record.state, side, seats[side], Budget(seconds, work))
        times[side].append(timed.seconds)
        outcome = record.apply(timed.decision.command)
        if not isinstance(outcome, Accepted):
            raise RefusedCommand(f"the {seats[side].level} player of {side} chose "
                                 f"{system.describe_command(record.state, timed.decision.command)!r}, "
                                 f"which the rules refused: {getattr(outcome, 'reason', outcome)}")
        why = timed.decision.why
        if isinstance(why, str) and why.strip():
            whys[len(record.steps) - 1] = why
        n += 1
    summary = game_summary(system, record.state, record.steps)
    winner = summary.get("winner")
    return GameOut(record, bool(summary.get("over")), winner if isinstance(winner, str) else None, times, n,
                   summary, whys)


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion `wins / n` ((0, 1) when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / den
    return max(0.0, mid - half), min(1.0, mid + half)
