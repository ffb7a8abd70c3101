"""The soak's aggressive player: it only ever picks a legal command, and it ends a phase only
when nothing aggressive is left (no charge, attack, or move or dash that closes on an enemy).
And the soak invariant its games first tripped: a mover stopped by overwatch on a friend's hex
falls back, free, to the last free hex it passed (docs/rules.md, overwatch)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pydantic import BaseModel

from game.core.hexgrid import Hex, distance
from game.replay import Step, initial_state_of
from game.systems.tactical.bench.randomplay import aggressive, end_kind, play
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules import GameState
from game.systems.tactical.rules.events import UnitMoved
from game.table import TABLE
from tests.fuzz.fuzzlib import shipped_scenarios
from tests.soak.soaklib import check_step


def _closes(state: GameState, c: BaseModel) -> bool:
    u = state.units[c.unit_id]  # type: ignore[attr-defined]
    path = c.path  # type: ignore[attr-defined]
    enemies = [e.hex for e in state.live_units() if e.side != u.side]
    end = path[-1] if path else u.hex
    return bool(enemies) and min(distance(end, e) for e in enemies) < min(distance(u.hex, e) for e in enemies)


def test_the_aggressive_player_picks_legal_commands_and_ends_a_phase_only_when_nothing_aggressive_is_left() -> None:
    seen: list[tuple[GameState, list[BaseModel], BaseModel]] = []

    def spy(state: GameState, cmds: list[BaseModel], rng: random.Random) -> BaseModel:
        choice = aggressive(state, cmds, rng, overwatch_chance=0.0)
        seen.append((state, cmds, choice))
        return choice

    path = next(p for p in shipped_scenarios() if p.stem == "default")
    scenario = load_scenario(path)
    played = play(initial_state_of(TABLE, scenario, scenario.seed), 5, policy=spy, max_commands=20_000)
    assert played.ended and end_kind(played.state) != "not ended"
    ended_phases = 0
    for state, cmds, choice in seen:
        assert choice in cmds
        kinds = {getattr(c, "kind", "") for c in cmds}
        if "end_phase" not in kinds:
            continue
        if state.phase == "attack" and "attack" in kinds:
            assert getattr(choice, "kind", "") == "attack", f"{choice!r} with an attack available"
        if getattr(choice, "kind", "") != "end_phase":
            continue
        ended_phases += 1
        assert "charge" not in kinds and "attack" not in kinds, f"ended the {state.phase} phase with a fight left"
        assert not any(getattr(c, "kind", "") in ("move", "dash") and _closes(state, c) for c in cmds), \
            "ended the movement phase with a closing move left"
    assert ended_phases > 0


def _fall_back_game() -> list[Step]:
    """Default scenario, soak game 243 (aggressive): a charge through a friend's hex is stopped
    there by overwatch and the charger falls back to the hex before."""
    path = next(p for p in shipped_scenarios() if p.stem == "default")
    scenario = load_scenario(path)
    n = 243
    steps: list[Step] = []
    play(initial_state_of(TABLE, scenario, scenario.seed + 7919 * n), 1000 + n, policy=aggressive,
         max_commands=20_000, after_each=steps.append)
    return steps


def test_the_soak_invariants_accept_a_charger_stopped_on_a_friends_hex_falling_back_free() -> None:
    steps = _fall_back_game()
    falls = [s for s in steps for ev in s.events
             if isinstance(ev, UnitMoved) and ev.stopped and len(ev.path) == 2]
    assert falls, "the game no longer has a fall back; pick another"
    for s in steps:
        check_step(s)


def test_the_soak_invariants_refuse_a_fall_back_to_a_hex_the_mover_never_passed() -> None:
    step = next(s for s in _fall_back_game() for ev in s.events
                if isinstance(ev, UnitMoved) and ev.stopped and len(ev.path) == 2)
    far = Hex(0, 0)
    events = tuple(ev.model_copy(update={"path": [ev.path[0], far]})
                   if isinstance(ev, UnitMoved) and ev.stopped and len(ev.path) == 2 else ev
                   for ev in step.events)
    with pytest.raises(AssertionError, match="not to a hex it passed"):
        check_step(dataclasses.replace(step, events=events))
