"""Fuzzing unit catalogues: a scenario using a mutated copy of the starter catalogue is refused
with a GameFileError naming the catalogue or the scenario, or it loads and survives a short
random game (within a time limit: a runaway number of dice counts as a failure)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.errors import GameFileError
from game.systems.tactical.bench.randomplay import play
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules import initial_state
from tests.fuzz.fuzzlib import QUICK, SLOW, mutated_tree, time_limit
from tests.scratch import scratch_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORK = scratch_dir("ail-fuzz-catalogue-")
CATALOGUE = yaml.safe_load((ROOT / "assets" / "units" / "starter.yaml").read_text(encoding="utf-8"))
SCENARIO = yaml.safe_load((ROOT / "maps" / "default.yaml").read_text(encoding="utf-8"))
SCENARIO["map"] = str((ROOT / "maps" / SCENARIO["map"]).resolve())
SCENARIO["catalogue"] = str(WORK / "catalogue.yaml")
HUGE = st.sampled_from([0, 1, 50, 1000, 10**6])


@st.composite
def catalogues(draw: st.DrawFn) -> Any:
    data = draw(mutated_tree(CATALOGUE)) if draw(st.booleans()) else copy.deepcopy(CATALOGUE)
    if draw(st.booleans()) and isinstance(data, dict) and isinstance(data.get("units"), dict) and data["units"]:
        unit = data["units"][draw(st.sampled_from(sorted(data["units"])))]  # a plausible but extreme number
        if isinstance(unit, dict):
            field = draw(st.sampled_from(["move", "strength", "durability", "morale"]))
            unit[field] = draw(HUGE)
            weapons = unit.get("weapons")
            if isinstance(weapons, list) and weapons and isinstance(weapons[0], dict):
                weapons[0][draw(st.sampled_from(["fp", "damage"]))] = draw(HUGE)
    return data


def check_catalogue(data: Any, seed: int) -> None:
    (WORK / "catalogue.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    path = WORK / "scenario.yaml"
    path.write_text(yaml.safe_dump(SCENARIO, sort_keys=False), encoding="utf-8")
    with time_limit(20):
        try:
            scenario = load_scenario(path)
        except GameFileError as exc:
            assert Path(exc.path).name in ("catalogue.yaml", "scenario.yaml"), str(exc)
            return
        play(initial_state(scenario.setup, scenario.board, scenario.seed), seed, max_commands=60)


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(catalogues(), st.integers(0, 1000))
def test_mutated_catalogues_are_refused_cleanly_or_play(data: Any, seed: int) -> None:
    check_catalogue(data, seed)


@pytest.mark.slow
@settings(max_examples=SLOW // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(catalogues(), st.integers(0, 1000))
def test_many_mutated_catalogues_are_refused_cleanly_or_play(data: Any, seed: int) -> None:
    check_catalogue(data, seed)


# --------------------------------------------------------------------------- regressions found by fuzzing

def test_a_catalogue_unit_with_a_move_of_a_million_is_refused_naming_the_field() -> None:
    # found by fuzzing: every reach search then walked a million cost buckets (the game froze)
    data = copy.deepcopy(CATALOGUE)
    data["units"]["rifle_section"]["move"] = 10**6
    (WORK / "catalogue.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    path = WORK / "scenario.yaml"
    path.write_text(yaml.safe_dump(SCENARIO, sort_keys=False), encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_scenario(path)
    assert Path(info.value.path).name == "catalogue.yaml" and "move" in str(info.value)


def test_the_gm_cannot_give_a_unit_a_move_of_a_million() -> None:
    from game.systems.tactical.rules import Rejection, apply
    from game.systems.tactical.rules.gm import EditUnit

    (WORK / "catalogue.yaml").write_text(yaml.safe_dump(CATALOGUE, sort_keys=False), encoding="utf-8")
    path = WORK / "scenario.yaml"
    path.write_text(yaml.safe_dump(SCENARIO, sort_keys=False), encoding="utf-8")
    scenario = load_scenario(path)
    state = initial_state(scenario.setup, scenario.board, 1)
    uid = sorted(state.units)[0]
    assert isinstance(apply(state, EditUnit(unit_id=uid, move=10**6)), Rejection)
    assert not isinstance(apply(state, EditUnit(unit_id=uid, move=6)), Rejection)
