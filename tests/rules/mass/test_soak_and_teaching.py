"""A soak of random legal battles (legal_commands -> apply) with invariants, save round trips,
and the teaching battle reproducing the source's worked example."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.core.record import Record
from game.core.system import Accepted
from game.systems.mass.io.files import load_battle, load_mass_commands
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.pools import size
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, person, setup

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "maps" / "mass" / "borderland-valley-commands.yaml"


def _check(s: MassState, before: MassState) -> None:
    for f in s.forces.values():
        assert all(d.count >= 0 for d in f.brutes)
        assert f.brutes_killed <= f.brutes_wounded
        assert all(v >= 0 for v in f.advantage.values())
        assert f.total() == sum(f.advantage[k] for k in ("heaven", "honor", "glory", "strategy", "terrain"))
        if f.commander is None and f.in_field:
            assert f.needs_commander
        assert size(s.rules, f) <= size(before.rules, before.forces[f.id]) or s.wave > 0
    assert len(s.leaders) == s.wave - (0 if s.stage == "ended" else 1)


def _battle(seed: int) -> tuple[int, MassState]:
    rng = random.Random(seed)
    n = rng.choice([2, 2, 3])
    forces = [force(f"f{i}", people=[person(f"f{i}-a"), person(f"f{i}-b", tags=["shugenja"]),
                                     person(f"f{i}-c", armour="light")],
                    brutes=[{"armour": "none", "count": rng.randint(10, 500)},
                            {"armour": "heavy", "count": rng.randint(0, 200)}]) for i in range(n)]
    su = setup(*forces, terrain=rng.choice(["accessible", "constricted", "suspended"]), prepared=rng.random() < 0.5)
    s = SYSTEM.initial_state(su, seed)
    steps = 0
    while s.stage != "ended":
        legal = SYSTEM.legal_commands(s)
        assert legal, f"no legal command at {s.stage}"
        quiet = [x for x in legal if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        cmd = rng.choice(quiet if quiet and rng.random() < 0.97 else legal)
        out = SYSTEM.apply(s, cmd)
        assert isinstance(out, Accepted), (cmd, getattr(out, "reason", ""))
        _check(out.state, s)
        if steps % 7 == 0:
            data = SYSTEM.state_to_data(out.state)
            assert SYSTEM.state_from_data(data, su) == out.state
            assert SYSTEM.parse_command(SYSTEM.command_to_data(cmd)) == cmd
            for e in out.events:
                assert SYSTEM.parse_event(e.model_dump(mode="json")) == e
        s = out.state
        steps += 1
        assert steps < 5000, "a battle did not end"
    return steps, s


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_battles_end_with_their_invariants_kept(seed: int) -> None:
    steps, s = _battle(seed)
    assert s.stage == "ended" and s.end_reason


def test_replaying_the_commands_gives_the_same_battle() -> None:
    rng = random.Random(3)
    su = setup(prepared=True)
    rec = Record(SYSTEM, SYSTEM.initial_state(su, 5))
    while rec.state.stage != "ended" and len(rec.steps) < 400:
        rec.apply(rng.choice(SYSTEM.legal_commands(rec.state)))
    again = Record(SYSTEM, SYSTEM.initial_state(su, 5))
    for cmd in rec.commands:
        assert again.apply(cmd).accepted
    assert again.state == rec.state
    assert SYSTEM.rolls(again.all_events()) == SYSTEM.rolls(rec.all_events())


def _teaching() -> Record:
    battle, cmds = load_mass_commands(SCRIPT)
    lb = load_battle(battle)
    rec = Record(SYSTEM, SYSTEM.initial_state(lb.setup, lb.seed))
    for cmd in cmds:
        out = rec.apply(cmd)
        assert out.accepted, (cmd, getattr(out, "reason", ""))
    return rec


def test_the_teaching_battle_reproduces_the_examples_advantage_totals() -> None:
    rec = _teaching()
    after_strategy = next(i for i, st in enumerate(rec.steps)
                          if isinstance(st.command, c.RollWay) and st.command.way == "strategy")
    s = rec.steps[after_strategy].after
    hida, akira = s.forces["hida"], s.forces["akira"]
    assert hida.total() == 8 and akira.total() == 3
    assert (hida.advantage["honor"], hida.advantage["strategy"], hida.advantage["terrain"]) == (3, 1, 4)
    assert (akira.advantage["heaven"], akira.advantage["glory"]) == (1, 2)
    assert hida.lost_last_battle and not akira.lost_last_battle
    # the script goes on through the first Wave to its casualties
    assert rec.state.wave == 2 and rec.state.stage == "strategy"


def test_the_teaching_battle_is_big_enough_for_the_mass_rules() -> None:
    battle, _ = load_mass_commands(SCRIPT)
    lb = load_battle(battle)
    assert lb.combatants == 15000 and "a battle" in lb.note
