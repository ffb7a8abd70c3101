"""Properties of the rules core as a whole: purity, determinism, serialisation, legal commands,
objectives and the end of the battle (design page §7)."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from game.core.board import Board
from game.systems.tactical.rules import (
    Accepted,
    ChooseInitiative,
    ChooseTurnPlace,
    EndPhase,
    GameState,
    Move,
    apply,
    legal_commands,
    parse_command,
    units_that_can_act,
)
from game.systems.tactical.rules.models import Objective

from .ailfix import at, edit_unit, kinds, make_state, no, ok

GAME = Path(__file__).resolve().parents[2] / "game"
RULES_DIRS = [GAME / "systems" / name / "rules" for name in ("tactical", "campaign", "mass")]
FORBIDDEN_MODULES = {"pygame", "pytmx", "yaml", "random", "time", "datetime", "os", "io", "pathlib", "socket"}


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for n in names:
            if n.split(".")[0] in FORBIDDEN_MODULES:
                out.append(f"{path.name}:{node.lineno} imports {n}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("open", "__import__",
                                                                                               "exec", "eval"):
            out.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
    return out


PURE_MODULES = [GAME / "core" / f"{name}.py" for name in ("hexgrid", "hexlayout", "dice", "board")]


def test_the_rules_core_imports_no_pygame_pytmx_yaml_random_or_clock_and_opens_no_files():
    files = sorted(f for d in RULES_DIRS for f in d.rglob("*.py")) + PURE_MODULES
    assert len(files) > 40 and all(f.exists() for f in PURE_MODULES)
    problems = [v for f in files for v in _violations(f)]
    assert problems == []


def test_the_purity_scan_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom pygame import Rect\nx = open('f')\n")
    assert len(_violations(bad)) == 3


UNITS = [("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (1, 4)),
         ("c1", "armoured_car", "blue", (0, 6)), ("m1", "militia_band", "red", (7, 1)),
         ("k1", "battlemage_knight", "red", (8, 4)), ("g1", "field_gun", "red", (9, 6))]
BOARD = Board.filled(10, 8, overrides={(4, 2): "woods", (5, 5): "swamp", (3, 4): "building"}, roads={(c, 6) for c in range(10)})


def play_random(seed: int, n: int, state: GameState | None = None) -> tuple[GameState, list[dict], list[str]]:
    """n random legal commands (chosen by a seeded test-side generator)."""
    pick = random.Random(seed)
    st = state or make_state(UNITS, board=BOARD, seed=seed)
    log: list[dict] = []
    events: list[str] = []
    for _ in range(n):
        if st.phase == "ended":
            break
        cmds = legal_commands(st)
        ends = [c for c in cmds if c.kind == "end_phase"]
        cmd = ends[0] if ends and pick.random() < 0.15 else pick.choice(cmds)
        out = apply(st, cmd)
        assert isinstance(out, Accepted), f"legal command refused: {cmd} -> {out}"
        log.append(cmd.model_dump(mode="json"))
        events.extend(e.model_dump_json() for e in out.events)
        st = out.state
    return st, log, events


def test_every_legal_command_is_accepted_and_the_same_seed_and_commands_replay_identically():
    st, log, events = play_random(7, 150)
    replay = make_state(UNITS, board=BOARD, seed=7)
    replay_events: list[str] = []
    for d in log:
        out = apply(replay, parse_command(d))
        assert isinstance(out, Accepted)
        replay_events.extend(e.model_dump_json() for e in out.events)
        replay = out.state
    assert replay == st and replay_events == events
    assert st.seq == len(log)


def test_a_different_seed_gives_different_dice():
    a = make_state(UNITS, board=BOARD, seed=1)
    b = make_state(UNITS, board=BOARD, seed=2)
    rolls = []
    for st in (a, b):
        s = ok(st, ChooseInitiative(side="blue", option="tactics")).state
        out = ok(s, ChooseInitiative(side="red", option="tactics"))
        rolls.append([e.die for e in out.events if e.kind == "roll_made"])
    assert rolls[0] != rolls[1]


def test_state_round_trips_through_plain_json_and_equality_ignores_the_static_context():
    st, _, _ = play_random(3, 60)
    d = st.to_dict()
    again = GameState.from_dict(json.loads(json.dumps(d)), st.setup, st.board)
    assert again == st and again.to_dict() == d
    assert "setup" not in d and "board" not in d
    assert st != st.model_copy(update={"seq": st.seq + 1})


def test_commands_round_trip_through_model_dump_and_parse_command():
    st = make_state(UNITS, board=BOARD, phase="movement")
    cmds = legal_commands(st)
    assert {c.kind for c in cmds} >= {"move", "dash", "end_phase"}
    for c in cmds:
        assert parse_command(json.loads(json.dumps(c.model_dump(mode="json")))) == c


def test_parse_command_explains_bad_input():
    with pytest.raises(ValueError, match="unknown command kind 'fly'"):
        parse_command({"kind": "fly"})
    with pytest.raises(ValueError, match="bad move command: unit_id"):
        parse_command({"kind": "move", "path": []})
    with pytest.raises(ValueError, match="unknown command kind"):
        parse_command({"kind": ["move"]})
    with pytest.raises(ValueError, match="must be a mapping"):
        parse_command(["move"])  # type: ignore[arg-type]


def test_forced_rolls_are_used_before_the_generator_and_consumed():
    st = make_state(UNITS, board=BOARD, forced=[7, 3, 99])
    s = ok(st, ChooseInitiative(side="blue", option="tactics")).state
    out = ok(s, ChooseInitiative(side="red", option="tactics"))
    rolls = [e for e in out.events if e.kind == "roll_made"]
    assert [(r.die, r.forced) for r in rolls] == [(7, True), (3, True)]
    assert out.state.forced_rolls == (99,)


def test_units_that_can_act_lists_who_still_has_something_to_do():
    st = make_state(UNITS, board=BOARD, phase="movement")
    assert set(units_that_can_act(st, "blue")) == {"r1", "r2", "c1"}
    assert units_that_can_act(st, "red") == []
    s = ok(st, Move(unit_id="r1", path=(at(2, 1),))).state
    assert "r1" in units_that_can_act(s, "blue")  # it may still dash
    assert "r1" not in units_that_can_act(edit_unit(s, "r1", dashed=True), "blue")


# --------------------------------------------------------------------------- objectives

def finish_round(st: GameState) -> GameState:
    for side in [slot.side for slot in st.turn_order[st.turn_index:]]:
        st = ok(st, EndPhase(side=side)).state
        if st.phase == "ended":
            return st
        st = ok(st, EndPhase(side=side)).state
        if st.phase == "ended":
            return st
    return st


def test_hold_objective_wins_when_the_side_occupies_every_listed_hex_at_the_end_of_its_round():
    obj = Objective(kind="hold", side="blue", hexes=(at(2, 1),), round=1)
    st = make_state(UNITS[:1] + UNITS[3:4], phase="movement", objectives=[obj])
    end = finish_round(st)
    assert end.phase == "initiative"  # not held: the battle goes on
    s = ok(st, Move(unit_id="r1", path=(at(2, 1),))).state
    end = finish_round(s)
    assert (end.phase, end.winner) == ("ended", "blue")


def test_survive_objective_wins_at_the_end_of_its_round_with_a_unit_left():
    obj = Objective(kind="survive", side="red", round=1)
    end = finish_round(make_state(UNITS[:1] + UNITS[3:4], phase="movement", objectives=[obj]))
    assert (end.phase, end.winner) == ("ended", "red")


def test_destroy_all_ends_the_battle_at_once():
    obj = Objective(kind="destroy_all", side="blue")
    st = make_state(UNITS[:1] + [("m1", "militia_band", "red", (4, 1), 1)], phase="attack", objectives=[obj],
                    forced=[10, 10, 10, 10], rule_changes={"defensive_action_prompt": "never"})
    from game.systems.tactical.rules import Attack
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert kinds(out.events)[-1] == "battle_ended" and out.state.winner == "blue"


def test_the_round_limit_without_an_objective_met_is_a_draw():
    st = make_state(UNITS[:1] + UNITS[3:4], phase="movement", round_limit=1)
    end = finish_round(st)
    assert (end.phase, end.winner) == ("ended", None)
    assert "round limit" in (end.end_reason or "")
    assert "battle is over" in no(end, ChooseTurnPlace(side="blue", position=0))


def test_every_test_the_rules_reference_names_exists():
    import re

    root = Path(__file__).resolve().parents[2]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", (root / "docs" / "rules.md").read_text(encoding="utf-8")))
    defined = set()
    for f in (root / "tests" / "rules").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", f.read_text(encoding="utf-8"), re.M))
    assert len(named) > 50
    assert sorted(named - defined) == []


def test_the_ail_rules_fit_the_interface_every_rule_system_shares():
    from game.core.system import RuleSystem
    from game.systems.tactical.rules.system import SYSTEM, TacticalSetup

    assert isinstance(SYSTEM, RuleSystem)
    st = SYSTEM.initial_state(TacticalSetup(make_state(UNITS, board=BOARD).setup, BOARD), 3)
    cmd = SYSTEM.parse_command({"kind": "choose_initiative", "side": "blue", "option": "tactics"})
    assert cmd in SYSTEM.legal_commands(st) and SYSTEM.apply(st, cmd).accepted
    assert SYSTEM.preview(st, cmd) is None
    assert SYSTEM.state_from_data(SYSTEM.state_to_data(st), TacticalSetup(st.setup, BOARD)) == st


def test_gm_commands_parse_and_apply_with_only_the_rules_package_imported():
    import subprocess
    import sys

    code = ("from game.systems.tactical.rules import apply, parse_command\n"
            "c = parse_command({'kind': 'gm_remove_unit', 'unit_id': 'x'})\n"
            "print(type(c).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "RemoveUnit"
