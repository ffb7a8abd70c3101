"""Who plays each seat of a game in the window: a person at the screen (Human) or the computer at
a level its rule system offers (`Plugin.players`, game/core/ai.py). For every rule system.

    seats = Seats({"red": "easy"})            # sides not named are Human
    thinker = Thinker(players, seed)          # one per game scene
    timed = thinker.poll(session, "red")      # None while thinking (a thread); then its Timed

A computer seat is asked only through `game.core.ai.choose` (its side's view, never the state),
off the frame loop: `poll` starts a thread and returns None until the decision is ready, so the
window keeps drawing. A decision made for a position that is no longer on the board (an undo, a
GM edit, a seat taken back meanwhile) is thrown away. The hint (what the computer would do for the
human's side) is asked the same way, under another key.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.core.ai import Budget, PlayerFactory, Timed, choose, parse_seat

HUMAN = "human"
THINK_SECONDS = 1.0   # a computer seat's time budget in the window
THINK_WORK = 10_000


@dataclass
class Seats:
    """side -> computer level; a side not named plays at the screen."""

    levels: dict[str, str] = field(default_factory=dict)

    def level(self, side: str | None) -> str | None:
        return None if side is None else self.levels.get(side)

    def is_computer(self, side: str | None) -> bool:
        return self.level(side) is not None

    def set(self, side: str, level: str | None) -> None:
        if level is None or level == HUMAN:
            self.levels.pop(side, None)
        else:
            self.levels[side] = level

    def humans(self, sides: Sequence[str]) -> list[str]:
        return [s for s in sides if s not in self.levels]

    def record(self, sides: Sequence[str]) -> dict[str, str]:
        """What a save's header keeps: every side -> "human" or "ai:LEVEL"."""
        return {s: (f"ai:{self.levels[s]}" if s in self.levels else HUMAN) for s in sides}

    def label(self, side: str) -> str:
        level = self.levels.get(side)
        return "Human" if level is None else f"Computer ({level})"

    @classmethod
    def from_record(cls, record: Mapping[str, str] | None) -> Seats:
        """The seats a save's header recorded (an older save has none: all Human)."""
        return cls({side: who.removeprefix("ai:") for side, who in (record or {}).items() if who != HUMAN})

    @classmethod
    def from_args(cls, args: Sequence[str], sides: Sequence[str], levels: Sequence[str]) -> Seats:
        """`--seat SIDE=ai:LEVEL` arguments (ValueError naming what was expected)."""
        seats = cls()
        for text in args:
            side, level = parse_seat(text, sides, levels)
            seats.set(side, level)
        return seats


def levels_of(players: Mapping[str, PlayerFactory]) -> list[str]:
    """The levels a person may pick (the random yardstick last)."""
    return sorted(players, key=lambda lv: (lv == "random", ["easy", "hard"].index(lv) if lv in ("easy", "hard") else 2, lv))


def hint_level(players: Mapping[str, PlayerFactory]) -> str | None:
    """The level that gives hints: the strongest offered."""
    for lv in ("hard", "easy", "random"):
        if lv in players:
            return lv
    return next(iter(players), None)


class _Job:
    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key
        self.result: Timed | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()


class Thinker:
    """Asks computer players for decisions in a thread, one question at a time per slot ("turn"
    for a computer seat, "hint" for the hint key)."""

    def __init__(self, players: Mapping[str, PlayerFactory], seed: int, *, seconds: float = THINK_SECONDS,
                 work: int = THINK_WORK) -> None:
        self.players = players
        self.seed = seed
        self.seconds = seconds
        self.work = work
        self._made: dict[tuple[str, str], Any] = {}
        self._jobs: dict[str, _Job] = {}

    def _player(self, side: str, level: str) -> Any:
        key = (side, level)
        if key not in self._made:
            if level not in self.players:
                raise ValueError(f"no computer level {level!r} for this game (levels: {', '.join(self.players)})")
            self._made[key] = self.players[level](random.Random(f"{self.seed}:{side}:{level}"))
        return self._made[key]

    def busy(self, slot: str = "turn") -> bool:
        job = self._jobs.get(slot)
        return job is not None and not job.done.is_set()

    def poll(self, system: Any, state: Any, side: str, level: str, slot: str = "turn") -> Timed | None:
        """The decision of `side` at `level` for `state`: None while it is being thought (a thread
        started on the first call); then the Timed decision, once. Raises what the player raised."""
        key = (id(state), side, level)
        job = self._jobs.get(slot)
        if job is None or job.key != key:
            if job is not None and not job.done.is_set():
                return None  # a stale question still running: wait for it to finish first
            job = self._jobs[slot] = _Job(key)
            player = self._player(side, level)
            budget = Budget(self.seconds, self.work)

            def work(job: _Job = job) -> None:
                try:
                    job.result = choose(system, state, side, player, budget)
                except BaseException as exc:  # handed to the frame loop, which shows it
                    job.error = exc
                finally:
                    job.done.set()

            threading.Thread(target=work, name=f"computer-{side}", daemon=True).start()
            return None
        if not job.done.is_set():
            return None
        del self._jobs[slot]
        if job.error is not None:
            raise job.error
        return job.result

    def forget(self, slot: str = "turn") -> None:
        """Drop a finished answer nobody wants any more (a running one is let finish, then dropped)."""
        job = self._jobs.get(slot)
        if job is not None and job.done.is_set():
            del self._jobs[slot]
