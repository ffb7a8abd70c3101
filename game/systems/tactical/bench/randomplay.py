"""Games of random legal commands: the soak tests' player and the saves benchmark's game maker.

Each step asks the rules for `legal_commands(state)`, picks a command kind at random (so that
ending the phase is as likely as any other kind of action) and then one command of that kind,
and applies it through a `game.replay.Record`. Seeded with its own `random.Random`, so a game is
reproducible from (scenario, game seed, player seed).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from game.core.hexgrid import Hex, distance
from game.core.record import Record, Step
from game.systems.tactical.rules import Accepted, GameState, legal_commands
from game.systems.tactical.rules.system import SYSTEM


class IllegalLegalCommand(AssertionError):
    """The rules listed a command as legal and then refused it."""


@dataclass
class Played:
    record: Record
    ended: bool
    commands: int

    @property
    def state(self) -> GameState:
        state: GameState = self.record.state
        return state


Policy = Callable[[GameState, list[BaseModel], random.Random], BaseModel]


def uniform_by_kind(state: GameState, cmds: list[BaseModel], rng: random.Random) -> BaseModel:
    by_kind: dict[str, list[BaseModel]] = {}
    for c in cmds:
        by_kind.setdefault(str(getattr(c, "kind", type(c).__name__)), []).append(c)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def play(initial: GameState, seed: int, *, max_commands: int = 5000, policy: Policy = uniform_by_kind,
         after_each: Callable[[Step], None] | None = None) -> Played:
    """Play random legal commands from `initial` until the battle ends (or max_commands)."""
    rng = random.Random(seed)
    record = Record(SYSTEM, initial)
    n = 0
    while record.state.phase != "ended" and n < max_commands:
        cmds = legal_commands(record.state)
        if not cmds:
            raise IllegalLegalCommand(f"no legal command in phase {record.state.phase} of round "
                                      f"{record.state.round}, but the battle has not ended")
        cmd = policy(record.state, cmds, rng)
        outcome = record.apply(cmd)
        if not isinstance(outcome, Accepted):
            raise IllegalLegalCommand(f"legal_commands listed {cmd!r} but apply refused it: "
                                      f"{getattr(outcome, 'reason', outcome)}")
        n += 1
        if after_each is not None:
            after_each(record.steps[-1])
    return Played(record, record.state.phase == "ended", n)


def long_game_policy(moves_per_phase: int = 3, attack_chance: float = 0.3) -> Policy:
    """A steadier player for long games: a few moves and the odd attack per phase, rarely a kill
    shot against a side that is nearly gone, so that a battle lasts to its round limit."""

    def choose(state: GameState, cmds: list[BaseModel], rng: random.Random) -> BaseModel:
        kinds = {str(getattr(c, "kind", "")): c for c in cmds}
        if "end_phase" not in kinds:
            return rng.choice(cmds)
        acted = state.seq  # changes every command; combined with rng keeps phases short
        del acted
        if state.phase == "movement":
            moves = [c for c in cmds if getattr(c, "kind", "") == "move"]
            if moves and rng.random() < moves_per_phase / (moves_per_phase + 1):
                return rng.choice(moves)
        elif state.phase == "attack":
            live: dict[str, int] = {}
            for u in state.live_units():
                live[u.side] = live.get(u.side, 0) + 1
            attacks = [c for c in cmds if getattr(c, "kind", "") == "attack"
                       and live.get(state.units[c.target_id].side, 0) > 3]  # type: ignore[attr-defined]
            if attacks and rng.random() < attack_chance:
                return rng.choice(attacks)
        return kinds["end_phase"]

    return choose


def _nearest_enemy_distance(state: GameState, side: str, h: Hex) -> int | None:
    ds = [distance(h, e.hex) for e in state.live_units() if e.side != side]
    return min(ds) if ds else None


def _closing(state: GameState, cmds: list[BaseModel], rng: random.Random) -> BaseModel | None:
    """Among moves or dashes, one that ends nearest an enemy, if it ends nearer than the unit is
    now (ties broken at random)."""
    best: list[BaseModel] = []
    best_d: int | None = None
    for c in cmds:
        u = state.units[c.unit_id]  # type: ignore[attr-defined]
        path = c.path  # type: ignore[attr-defined]
        now = _nearest_enemy_distance(state, u.side, u.hex)
        then = _nearest_enemy_distance(state, u.side, path[-1] if path else u.hex)
        if now is None or then is None or then >= now:
            continue
        if best_d is None or then < best_d:
            best, best_d = [c], then
        elif then == best_d:
            best.append(c)
    return rng.choice(best) if best else None


def aggressive(state: GameState, cmds: list[BaseModel], rng: random.Random,
               overwatch_chance: float = 0.05) -> BaseModel:
    """A player that fights, so that battles end by destruction rather than on the clock.

    Answers to prompts (initiative, turn place, defensive action) are chosen at random. In the
    movement phase: a charge if there is one (against the weakest target in reach), else a move,
    else a dash that ends nearer the nearest enemy. In the attack phase: an attack (against the
    weakest target), now and then (`overwatch_chance`) overwatch instead. The phase ends only when
    nothing of the kind is left. Always one of `cmds`, the rules' legal commands.
    """
    by_kind: dict[str, list[BaseModel]] = {}
    for c in cmds:
        by_kind.setdefault(str(getattr(c, "kind", type(c).__name__)), []).append(c)
    if "end_phase" not in by_kind:  # a prompt: initiative, turn place or defensive action
        return rng.choice(cmds)

    def weakest(options: list[BaseModel]) -> BaseModel:
        low = min(state.units[c.target_id].strength for c in options)  # type: ignore[attr-defined]
        return rng.choice([c for c in options
                           if state.units[c.target_id].strength == low])  # type: ignore[attr-defined]

    if state.phase == "movement":
        if "charge" in by_kind:
            return weakest(by_kind["charge"])
        for kind in ("move", "dash"):
            pick = _closing(state, by_kind.get(kind, []), rng)
            if pick is not None:
                return pick
    else:
        overwatch = [c for c in by_kind.get("enter_stance", []) if getattr(c, "stance", "") == "overwatch"]
        if overwatch and rng.random() < overwatch_chance:
            return rng.choice(overwatch)
        if "attack" in by_kind:
            return weakest(by_kind["attack"])
    return by_kind["end_phase"][0]


def end_kind(state: GameState) -> str:
    """How an ended battle ended: 'destroy_all' (a side met its destroy-every-enemy objective),
    'last_side' (one side left standing with no such objective, or none at all), 'objective'
    (a hold or survive objective at the end of a round) or 'time' (round limit, a draw)."""
    if state.phase != "ended":
        return "not ended"
    fielded = [s for s in state.sides if any(u.side == s for u in state.setup.units)]
    standing = [s for s in fielded if state.live_units(s)]
    if len(standing) <= 1:
        winner = state.winner
        if winner is not None and any(o.kind == "destroy_all" and o.side == winner
                                      for o in state.setup.objectives):
            return "destroy_all"
        return "last_side"
    return "time" if state.winner is None else "objective"
