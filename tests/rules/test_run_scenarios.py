"""Whole-scenario tests through `python -m game run` on the shipped default scenario (Riverford
Crossing): a GM-style command file sets the situation up (GM commands, queued dice) and plays it.
Positions are written as Tiled (col, row) here and converted to the axial hexes commands carry."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from game.__main__ import main
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules import Accepted, apply, initial_state, legal_commands
from game.systems.tactical.rules.los import has_line_of_sight
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "maps" / "default.yaml"
SC = load_scenario(SCENARIO)


def h(col: int, row: int) -> list[int]:
    q, r = SC.board.hex_at(col, row)
    return [q, r]


# zone wins the initiative (4 + 3 + 10 against 3 + 2 + 1) and goes first
PRELUDE = [
    {"kind": "gm_set_next_roll", "values": [10, 1]},
    {"kind": "choose_initiative", "side": "zone", "option": "tactics"},
    {"kind": "choose_initiative", "side": "zenith", "option": "tactics"},
    {"kind": "choose_turn_place", "side": "zone", "position": 0},
]


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], commands: list[dict], *extra: str) -> tuple[int, str]:
    f = tmp_path / "commands.yaml"
    f.write_text(yaml.safe_dump(PRELUDE + commands))
    code = main(["run", str(SCENARIO), "--commands", str(f), *extra])
    return code, capsys.readouterr().out


def test_run_road_bonus_on_the_riverford_road(tmp_path, capsys):
    code, out = run(tmp_path, capsys, [
        {"kind": "move", "unit_id": "zone-car", "path": [h(c, 10) for c in range(2, 11)]},
        {"kind": "move", "unit_id": "zone-rifles-1", "path": [h(3, 10), *(h(c, 10) for c in range(4, 8))]},
    ])
    assert "Resistance Car moves" in out and "road bonus +3" in out
    assert "REJECTED: that path costs 5 movement points; 1st Rifles has 4" in out
    assert code == 3


def test_run_dash_into_overwatch_stops_the_pinned_unit(tmp_path, capsys):
    code, out = run(tmp_path, capsys, [
        {"kind": "gm_place_unit", "unit_id": "zen-rifles", "type_id": "rifle_section", "side": "zenith",
         "at": h(16, 12)},
        {"kind": "gm_edit_unit", "unit_id": "zen-rifles", "stance": "overwatch", "stance_weapon": "bolt rifles"},
        # long range (7 hexes, AC 15): 3 + 2 + 10 + braced 2 - overwatch 2 = 15; damage 6 on 6+;
        # casualty 1 + 5 strength left = 6: pinned
        {"kind": "gm_set_next_roll", "values": [10, 6, 1]},
        {"kind": "dash", "unit_id": "zone-rifles-3", "path": [h(9, 12), h(10, 12), h(11, 12)]},
    ])
    assert code == 0, out
    assert "fires overwatch (bolt rifles) at 3rd Rifles" in out
    assert "3rd Rifles is pinned" in out and "is stopped there" in out
    final = [line for line in out.splitlines() if "unit_moved" in line][-1]
    assert "hex 9,12" in final  # the map's column,row, as the scenario file and the client show it


def test_run_charge_against_a_guard_with_a_defensive_action(tmp_path, capsys):
    code, out = run(tmp_path, capsys, [
        {"kind": "gm_place_unit", "unit_id": "zen-guard", "type_id": "militia_band", "side": "zenith",
         "at": h(12, 12)},
        {"kind": "gm_edit_unit", "unit_id": "zen-guard", "stance": "guard"},
        {"kind": "gm_set_next_roll", "values": [1, 1, 1]},
        {"kind": "charge", "unit_id": "zone-rifles-3", "path": [h(9, 12), h(10, 12), h(11, 12)],
         "target_id": "zen-guard", "weapon": "bayonets"},
        {"kind": "defensive_action", "unit_id": "zen-guard", "accept": True},
    ])
    assert code == 0, out
    lines = out.splitlines()
    order = [next(i for i, line in enumerate(lines) if key in line)
             for key in ("guard_counter", "attack_declared", "defensive_action_offered", "defensive_action_taken")]
    assert order == sorted(order)
    hit_line = [line for line in lines if line.startswith("[9] roll_made")][0]
    assert "vs 10 failure" in hit_line  # melee AC 5 + defensive action 5


def test_run_indirect_fire_over_the_hill(tmp_path, capsys):
    gun = SC.board.hex_at(4, 11)
    target = SC.board.hex_at(22, 11)
    assert not has_line_of_sight(SC.board, SC.setup.rules, gun, target)
    attack = [
        {"kind": "end_phase", "side": "zone"},
        {"kind": "attack", "attacker_id": "zone-gun", "target_id": "zenith-militia-2", "weapon": "field gun"},
        {"kind": "defensive_action", "unit_id": "zenith-militia-2", "accept": False},
    ]
    # another Zone unit sees the target: the gun fires without a penalty
    spotters = [u.id for u in SC.setup.units if u.side == "zone" and u.id != "zone-gun"
                and has_line_of_sight(SC.board, SC.setup.rules, u.at, target)]
    assert spotters
    code, out = run(tmp_path, capsys, attack)
    assert code == 0, out
    assert "attack_resolved" in out and "no spotter" not in out
    # with the spotters gone, the gun still fires but takes +5 AC
    code, out = run(tmp_path, capsys, [{"kind": "gm_remove_unit", "unit_id": uid} for uid in spotters] + attack)
    assert code == 0, out
    assert "indirect fire, no spotter 5" in out and "attack_resolved" in out


def test_run_a_battle_to_its_destroy_all_objective_and_save_it(tmp_path, capsys):
    zenith = [u.id for u in SC.setup.units if u.side == "zenith"]
    save = tmp_path / "end.yaml"
    code, out = run(tmp_path, capsys, [
        *({"kind": "gm_remove_unit", "unit_id": uid} for uid in zenith[1:]),
        {"kind": "gm_move_unit", "unit_id": zenith[0], "to": h(12, 12)},
        {"kind": "gm_edit_unit", "unit_id": zenith[0], "strength": 1},
        {"kind": "end_phase", "side": "zone"},
        {"kind": "gm_set_next_roll", "values": [10, 10, 10, 10]},
        {"kind": "attack", "attacker_id": "zone-rifles-3", "target_id": zenith[0], "weapon": "bolt rifles"},
        {"kind": "defensive_action", "unit_id": zenith[0], "accept": False},
    ], "--out", str(save))
    assert code == 0, out
    assert "battle over: Zone Expeditionary Column wins (Or destroy every Zenith unit.)" in out  # names, not ids
    assert save.exists()
    from game.replay import load_game
    loaded = load_game(TABLE, save)
    assert loaded.state.phase == "ended" and loaded.state.winner == "zone"


def test_run_reports_bad_command_files_without_a_traceback(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text("- {kind: fly, unit_id: x}\n")
    assert main(["run", str(SCENARIO), "--commands", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "command 1" in err and "unknown command kind 'fly'" in err


def test_a_random_legal_battle_on_the_default_scenario_plays_to_its_end():
    state = initial_state(SC.setup, SC.board, 5)
    pick = random.Random(5)
    for _ in range(2000):
        if state.phase == "ended":
            break
        cmds = legal_commands(state)
        ends = [c for c in cmds if c.kind == "end_phase"]
        cmd = ends[0] if ends and pick.random() < 0.1 else pick.choice(cmds)
        out = apply(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    assert state.phase == "ended" and state.end_reason


def test_run_with_the_same_seed_prints_the_same_game_and_another_seed_other_dice(tmp_path, capsys):
    f = tmp_path / "c.yaml"
    f.write_text(yaml.safe_dump([
        {"kind": "choose_initiative", "side": "zone", "option": "tactics"},
        {"kind": "choose_initiative", "side": "zenith", "option": "deception"},
    ]))
    outs = []
    for seed in ("11", "11", "12"):
        main(["run", str(SCENARIO), "--commands", str(f), "--seed", seed])
        outs.append([line for line in capsys.readouterr().out.splitlines() if "roll_made" in line])
    assert outs[0] == outs[1] and len(outs[0]) >= 2
    assert outs[0] != outs[2]


def test_run_command_files_may_write_hexes_as_column_row_like_the_messages(tmp_path, capsys):
    f = tmp_path / "commands.yaml"
    f.write_text(yaml.safe_dump({"coordinates": "col_row", "commands": PRELUDE + [
        {"kind": "move", "unit_id": "zone-car", "path": [[c, 10] for c in range(2, 11)]},
        {"kind": "move", "unit_id": "zone-rifles-1", "path": [[3, 10], [3, 11], [3, 13]]},
    ]}))
    code = main(["run", str(SCENARIO), "--commands", str(f)])
    out = capsys.readouterr().out
    assert code == 3, out
    assert "Resistance Car moves: hexes 1,10 → 2,10 → 3,10" in out and "→ 10,10 (cost 9, road bonus +3)" in out
    assert "REJECTED: the path is not contiguous: hex 3,13 is not next to hex 3,11" in out


def test_run_refuses_an_unknown_coordinates_word(tmp_path, capsys):
    f = tmp_path / "commands.yaml"
    f.write_text(yaml.safe_dump({"coordinates": "offset", "commands": []}))
    assert main(["run", str(SCENARIO), "--commands", str(f)]) == 1
    assert "coordinates: expected axial or col_row, got 'offset'" in capsys.readouterr().err
