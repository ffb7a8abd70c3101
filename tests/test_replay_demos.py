"""The two teaching scenarios: their scripts play as their comments say, and the saved games
they produce replay bit for bit through `python -m game replay --verify`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.__main__ import main
from game.replay import Record, initial_state_of, load_game, save_game
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[1]


def _run_script(name: str) -> tuple[Any, Record, list[str]]:
    scenario = load_scenario(ROOT / "maps" / f"{name}.yaml")
    commands = yaml.safe_load((ROOT / "maps" / f"{name}-commands.yaml").read_text(encoding="utf-8"))
    rec = Record(SYSTEM, initial_state_of(TABLE, scenario))
    refused = []
    for entry in commands:
        outcome = rec.apply(parse_command(entry))
        if not outcome.accepted:
            refused.append(outcome.reason)
    return scenario, rec, refused


def _kinds(rec: Record, unit: str) -> list[Any]:
    return [e for s in rec.steps for e in s.events if getattr(e, "unit_id", None) == unit]


def test_movement_demo_shows_road_bonus_per_action_dash_ban_and_stuck_units() -> None:
    _, rec, refused = _run_script("demo-movement")
    assert refused == ["a dash may not enter difficult terrain: hex 5,5 is swamp"]
    moves = {(e.unit_id, e.mode): e for s in rec.steps for e in s.events if e.kind == "unit_moved"}
    assert moves[("car", "move")].road_bonus == 3 and len(moves[("car", "move")].path) == 10
    assert moves[("runners", "move")].road_bonus == 1 and moves[("runners", "dash")].road_bonus == 1
    assert moves[("mired", "stuck_step")] and moves[("gun", "stuck_step")]
    assert any(e.kind == "adrenaline_spent" for e in _kinds(rec, "mired"))
    assert any(e.kind == "attack_given_up" for e in _kinds(rec, "gun"))
    assert moves[("band-1", "move")].cost == 4 and moves[("band-2", "move")].cost == 4
    assert (rec.state.round, rec.state.phase, rec.state.active_side) == (1, "attack", "zenith")


def test_overwatch_demo_stops_the_dasher_and_the_guard_strikes_first() -> None:
    _, rec, refused = _run_script("demo-overwatch")
    assert refused == []
    events = [e for s in rec.steps for e in s.events]
    kinds = [e.kind for e in events]
    fired = kinds.index("overwatch_fired")
    assert (events[fired].watcher_id, events[fired].target_id) == ("watch", "troopers")
    dash_stop = next(e for e in events if e.kind == "unit_moved" and e.unit_id == "troopers" and e.stopped)
    assert dash_stop.path[-1] == (3, 4)
    assert rec.state.units["troopers"].pinned
    counter, declared = kinds.index("guard_counter"), kinds.index("attack_declared")
    assert counter < declared, "the guard's counter must come before the charge's attack"
    assert rec.state.units["guard"].stance == "none"


def test_demo_saves_replay_bit_for_bit_through_the_command_line(tmp_path: Path, capsys: Any) -> None:
    for name in ("demo-movement", "demo-overwatch"):
        scenario, rec, _ = _run_script(name)
        path = save_game(tmp_path / f"{name}.yaml", SYSTEM, rec.state, rec.steps, scenario_path=scenario.path,
                         seed=scenario.seed)
        assert main(["replay", str(path), "--verify"]) == 0
        assert "OK:" in capsys.readouterr().out
        loaded = load_game(TABLE, path)
        assert loaded.state == rec.state and sum(1 for e in loaded.save.log if e.gm) >= 1


def test_replay_command_fails_loudly_on_a_tampered_roll(tmp_path: Path, capsys: Any) -> None:
    scenario, rec, _ = _run_script("demo-overwatch")
    path = save_game(tmp_path / "t.yaml", SYSTEM, rec.state, rec.steps, scenario_path=scenario.path, seed=scenario.seed)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if '"kind": "charge"' in ln)
    first = int(lines[at].split('"rolls": [')[1].split(",")[0])
    lines[at] = lines[at].replace(f'"rolls": [{first},', f'"rolls": [{first % 10 + 1},', 1)  # the guard's hit die
    path.write_text("".join(lines), encoding="utf-8")
    assert main(["replay", str(path), "--verify"]) == 1
    err = capsys.readouterr().err
    assert "error:" in err and "recorded rolls" in err and "charge lancers" in err


def test_a_changed_map_file_is_noticed_when_the_save_is_loaded(tmp_path: Path) -> None:
    import shutil

    (tmp_path / "maps").mkdir()
    shutil.copytree(ROOT / "assets" / "tiles", tmp_path / "assets" / "tiles")
    for name in ("demo-movement.yaml", "demo-movement.tmx"):
        shutil.copy(ROOT / "maps" / name, tmp_path / "maps" / name)
    scenario = load_scenario(tmp_path / "maps" / "demo-movement.yaml")
    rec = Record(SYSTEM, initial_state_of(TABLE, scenario))
    path = save_game(tmp_path / "s.yaml", SYSTEM, rec.state, rec.steps, scenario_path=scenario.path, seed=scenario.seed)
    assert load_game(TABLE, path).warnings == []
    tmx = tmp_path / "maps" / "demo-movement.tmx"
    tmx.write_text(tmx.read_text(encoding="utf-8") + "<!-- edited in Tiled -->\n", encoding="utf-8")
    warnings = load_game(TABLE, path).warnings
    assert len(warnings) == 1 and "has changed" in warnings[0]
