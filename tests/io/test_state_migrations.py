"""Migrations kept per rule system: each system declares the version of its state data and the
steps from older versions; the save header records the version (format 3); loading an older save
runs the system's steps before `state_from_data`, and a save from a newer version of the system is
refused with a clear message. The tactical rules' real step 1 -> 2 is exercised on the fixtures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core.system import StateDataError, StateStep, StateVersionError, migrate_state, state_version_of
from game.io import saves
from game.io.saves import SaveError
from game.replay import load_game, make_save, verify_save
from game.systems.tactical.rules import migrations as ail_migrations
from game.systems.tactical.rules.system import SYSTEM, TacticalSetup
from game.table import TABLE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saves"
OLD_STATE = ["v1-demo-overwatch.yaml", "v2-demo-overwatch.yaml", "v2-jsonlines-demo-overwatch.yaml"]
V2_FIELDS = ("stance_advantage", "stance_advantage_kind", "difficult_terrain", "casualty_advantage",
             "casualty_advantage_kind")


def test_the_tactical_system_declares_state_version_2_with_a_step_from_1() -> None:
    assert state_version_of(SYSTEM) == ail_migrations.STATE_VERSION == 2
    assert sorted(SYSTEM.state_migrations) == [1]


@pytest.mark.parametrize("name", OLD_STATE)
def test_saves_made_before_state_versions_are_state_version_1(name: str) -> None:
    assert "state_version" not in (FIXTURES / name).read_text(encoding="utf-8")
    assert saves.read_header(FIXTURES / name).state_version == 1  # the format 2 -> 3 step says so
    assert saves.load_save(FIXTURES / name).header.state_version == 1


@pytest.mark.parametrize("name", OLD_STATE)
def test_an_old_state_is_migrated_then_loads_replays_and_verifies(name: str) -> None:
    raw_units = saves.load_save(FIXTURES / name).state["units"]
    assert all(any(f not in u for f in V2_FIELDS) for u in raw_units.values())  # really the old layout
    game = load_game(TABLE, FIXTURES / name)  # verify=True: the log is replayed die by die
    assert game.record.state == game.state
    data = SYSTEM.state_to_data(game.state)
    assert all(f in u for u in data["units"].values() for f in V2_FIELDS)
    report = verify_save(TABLE, FIXTURES / name)
    assert report.commands == len(game.record.steps) and report.rolls > 0


def test_without_the_step_an_old_state_is_refused_naming_the_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SYSTEM, "state_migrations", {})
    with pytest.raises(SaveError, match="no migration of the AI:L tactical battle state from version 1 to 2"):
        load_game(TABLE, FIXTURES / "v2-demo-overwatch.yaml")


def test_state_version_2_data_must_name_every_unit_field() -> None:
    game = load_game(TABLE, FIXTURES / "v3-demo-overwatch.yaml")
    data = SYSTEM.state_to_data(game.state)
    uid = next(iter(data["units"]))
    del data["units"][uid]["casualty_advantage"]
    with pytest.raises(StateDataError) as err:
        SYSTEM.state_from_data(data, TacticalSetup(game.state.setup, game.state.board))
    assert err.value.loc == ("units", uid, "casualty_advantage")


def test_a_new_save_records_the_systems_state_version_and_loads_without_migrating() -> None:
    header = saves.read_header(FIXTURES / "v4-demo-overwatch.yaml")
    assert header.format == saves.FORMAT_VERSION == 4 and header.state_version == 2
    game = load_game(TABLE, FIXTURES / "v4-demo-overwatch.yaml")
    again = make_save(SYSTEM, game.record.state, game.record.steps, scenario_path=header.scenario,
                      seed=header.seed)
    assert again.header.state_version == 2
    assert again.state == game.save.state  # written at version 2: the same data as the file


def test_a_save_from_a_newer_state_version_is_refused(tmp_path: Path) -> None:
    text = (FIXTURES / "v3-demo-overwatch.yaml").read_text(encoding="utf-8")
    newer = tmp_path / "newer.yaml"
    newer.write_text(text.replace("state_version: 2\n", "state_version: 3\n", 1).replace(
        "scenario: maps/", f"scenario: {Path(__file__).resolve().parents[2]}/maps/", 1), encoding="utf-8")
    with pytest.raises(SaveError) as err:
        load_game(TABLE, newer)
    msg = str(err.value)
    assert "newer version of the AI:L tactical battle rules (state version 3)" in msg
    assert "state versions 1 to 2" in msg and "state_version" in msg


# --------------------------------------------------------------------------- the mechanism


class _Versioned:
    name = "toy"
    title = "toy game"
    state_version = 3

    def __init__(self, steps: dict[int, StateStep]) -> None:
        self.state_migrations = steps


def _step(v: int, seen: list[int]) -> StateStep:
    def run(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(v)
        return {**data, "trail": [*data.get("trail", []), v]}
    return StateStep(v, f"step {v}", run)


def test_migrate_state_runs_every_step_in_order_from_the_saved_version() -> None:
    seen: list[int] = []
    system = _Versioned({1: _step(1, seen), 2: _step(2, seen)})
    assert migrate_state(system, {"x": 1}, 1) == {"x": 1, "trail": [1, 2]}
    assert migrate_state(system, {"x": 1}, 2) == {"x": 1, "trail": [2]}
    assert migrate_state(system, {"x": 1}, 3) == {"x": 1}
    assert seen == [1, 2, 2]


def test_a_failing_state_step_names_the_system_the_versions_and_the_step() -> None:
    def broken(data: dict[str, Any]) -> dict[str, Any]:
        raise KeyError("units")
    system = _Versioned({1: StateStep(1, "units renamed", broken), 2: _step(2, [])})
    with pytest.raises(StateVersionError, match=r"toy game state from version 1 to 2 \(units renamed\)"):
        migrate_state(system, {}, 1)


def test_a_system_without_versions_is_at_version_1_and_refuses_a_newer_one() -> None:
    class Plain:
        title = "plain game"
    assert state_version_of(Plain()) == 1
    assert migrate_state(Plain(), {"a": 1}, 1) == {"a": 1}
    with pytest.raises(StateVersionError, match="newer version of the plain game rules"):
        migrate_state(Plain(), {"a": 1}, 2)
