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

Each computer decision says why in one line: the window shows it (a toast) and keeps it with the
step its command made (`Seats.note_why`), so a game's log shows it under the command's own lines
(`Seats.why_of`). The why of a sealed decision (orders, appointments, initiative choices) would
tell what was chosen: it is held back until the seal is lifted (`Seats.unseal`). A save keeps the
why lines by their place in the history (`Seats.by_place`; a held one is left out), and a loaded
game gets them back (`Seats.restore`); an undone step keeps its why while it may be redone, and the
redone step takes it (`Seats.carry`); a step that can no longer come back loses it (`Seats.prune`;
the session runs both whenever its history changes).

Who may change a seat (`SeatRule`, the players dialog): anyone before play has begun; after,
the GM only, who opens the system's GM lock where it has one (the campaign's passphrase) or says
so with a button where it has none.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.core.ai import Budget, PlayerFactory, Timed, choose, parse_seat

HUMAN = "human"
THINK_SECONDS = 1.0   # a computer seat's time budget in the window (Settings.think_seconds)
THINK_CHOICES = (0.5, 1.0, 2.0, 5.0, 10.0)  # what the players dialog offers, in turn
THINK_LIMITS = (0.1, 60.0)  # what `play --think` accepts
THINK_WORK = 10_000
PACE = 0.6  # seconds at least between two computer commands in a window without animations (campaign
            # map, mass board), so that the people watching can follow them (a test sets its scene's 0)


@dataclass
class Seats:
    """side -> computer level; a side not named plays at the screen. With the why lines of the
    computer's decisions, by the step each made (saved by their place in the history, except one
    still held back: `by_place`, `restore`; dropped with their steps: `prune`)."""

    levels: dict[str, str] = field(default_factory=dict)
    whys: dict[int, tuple[Any, str]] = field(default_factory=dict, compare=False, repr=False)  # id(step) ->
    held: list[int] = field(default_factory=list, compare=False, repr=False)  # whys held back (sealed), oldest first

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

    def note_why(self, step: Any, line: str, *, sealed: bool = False) -> None:
        """Keep the why line of the computer command that made `step` (a history step);
        `sealed`: held back until `unseal` (it would tell what a sealed decision chose)."""
        self.whys[id(step)] = (step, line)
        if sealed:
            self.held.append(id(step))

    def why_of(self, step: Any) -> str | None:
        """The why line of the step's command, if a computer seat made it (None while sealed)."""
        kept = self.whys.get(id(step))
        return kept[1] if kept is not None and kept[0] is step and id(step) not in self.held else None

    def unseal(self) -> list[str]:
        """Release the why lines held back (the seal is lifted): they are returned, oldest first,
        for a log that appends."""
        out = [self.whys[k][1] for k in self.held if k in self.whys]
        self.held.clear()
        return out

    def by_place(self, steps: Sequence[Any]) -> dict[int, str]:
        """The why lines of a history by the index of their step in `steps` (what a save keeps).
        A why still held back is left out: it would tell what a sealed decision chose. [decision]"""
        out: dict[int, str] = {}
        if not self.whys:
            return out
        held = set(self.held)
        for i, step in enumerate(steps):
            kept = self.whys.get(id(step))
            if kept is not None and kept[0] is step and id(step) not in held:
                out[i] = kept[1]
        return out

    def restore(self, steps: Sequence[Any], lines: Mapping[int, str]) -> None:
        """Give back the why lines a save kept (`lines`: index in `steps` -> line), none held."""
        for i, line in lines.items():
            if 0 <= i < len(steps):
                self.note_why(steps[i], line)

    def prune(self, steps: Sequence[Any]) -> None:
        """Drop the why lines (and held-back marks) of every step no longer in `steps`: the steps
        an undo took back or a cut of the history left behind."""
        if not self.whys and not self.held:
            return
        alive = {id(step) for step in steps}
        for key in [key for key in self.whys if key not in alive]:
            del self.whys[key]
        self.held[:] = [key for key in self.held if key in self.whys]

    def carry(self, old: Any, new: Any) -> None:
        """The why line of step `old` (undone) goes to step `new` (the same command redone), held
        back still if it was."""
        kept = self.whys.pop(id(old), None)
        if kept is None or kept[0] is not old:
            return
        self.whys[id(new)] = (new, kept[1])
        self.held[:] = [id(new) if key == id(old) else key for key in self.held]

    def label(self, side: str) -> str:
        level = self.levels.get(side)
        return "Human" if level is None else f"Computer ({level})"

    @classmethod
    def from_record(cls, record: Mapping[str, str] | None) -> Seats:
        """The seats a save's header recorded (an older save has none: all Human)."""
        return cls({side: who.removeprefix("ai:") for side, who in (record or {}).items() if who != HUMAN})

    @classmethod
    def from_args(cls, args: Sequence[str], sides: Sequence[str], levels: Sequence[str]) -> Seats:
        """`--seat SIDE=ai:LEVEL` (or SIDE=human) arguments (ValueError naming what was expected)."""
        seats = cls()
        for text in args:
            side, level = parse_seat(text, sides, levels, human=True)
            seats.set(side, level)
        return seats


def why_line(level: str, side_name: str, why: str) -> str:
    """A computer decision's line in a game's log."""
    return f"Why ({side_name}, computer {level}): {why or 'no reason given'}"


def said(level: str, side_name: str, what: str, why: str, *, sealed: bool = False) -> str:
    """What the window shows when a computer seat has played (a sealed decision: only that it was made)."""
    if sealed:
        return f"Computer ({level}), {side_name}: {what}. Why: said once the choices are revealed."
    return f"Computer ({level}), {side_name}: {what}. Why: {why or 'no reason given'}"


def is_sealed(system: Any, before: Any, command: Any) -> bool:
    """Whether what `command` chose stays hidden from the other sides for now: the rule system's
    own `sealed(state, command)` when it has one (a system without it has no sealed choice the
    shell knows of; a client may know more of its own rules)."""
    sealed = getattr(system, "sealed", None)
    return bool(sealed(before, command)) if callable(sealed) else False


@dataclass(frozen=True)
class SeatRule:
    """Who may change a seat now, the same in every window: anyone before play has begun; once it
    has, the GM only. `gm`: the GM has already proved it (the campaign's GM view is open);
    `unlock(then)`: the system's GM lock (it calls `then` once opened; None: the system has no
    lock, and the GM says so with a button)."""

    started: bool = False
    gm: bool = False
    unlock: Callable[[Callable[[], None]], None] | None = None

    def why_not(self) -> str | None:
        """None when the seats may be changed now, else why not (for the screen)."""
        if not self.started or self.gm:
            return None
        how = ("The GM unlocks them below with the GM's passphrase." if self.unlock is not None
               else "The GM says so below ('I am the GM') to change them.")
        return f"Play has begun: only the GM changes who plays a side. {how}"


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
    def __init__(self, key: tuple[Any, ...], state: Any) -> None:
        self.key = key
        self.state = state  # kept while the job lives, so that no other state takes its id
        self.result: Timed | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()


class Thinker:
    """Asks computer players for decisions in a thread, one question at a time per slot ("turn"
    for a computer seat, "hint" for the hint key). `seconds`: each decision's time budget, or
    what gives it when a question is asked (the window's Settings.think_seconds, which the players
    dialog and `play --think` change)."""

    def __init__(self, players: Mapping[str, PlayerFactory], seed: int, *,
                 seconds: float | Callable[[], float] = THINK_SECONDS, work: int = THINK_WORK) -> None:
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
            job = self._jobs[slot] = _Job(key, state)
            player = self._player(side, level)
            budget = Budget(self.seconds() if callable(self.seconds) else self.seconds, self.work)

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
