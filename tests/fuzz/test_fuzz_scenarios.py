"""Fuzzing scenario files: generated and mutated scenarios either load (and then start a battle
whose first legal commands can be listed) or are refused with a GameFileError naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.errors import GameFileError
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules import initial_state, legal_commands
from tests.fuzz.fuzzlib import (
    QUICK,
    SLOW,
    loads_or_clean_error,
    mutated_text,
    mutated_tree,
    shipped_scenarios,
)
from tests.scratch import scratch_dir

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = shipped_scenarios()
WORK = scratch_dir("ail-fuzz-scenario-")


def _base(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["map"] = str((path.parent / data["map"]).resolve())  # the fuzzed copy lives elsewhere
    return data


BASES = [_base(p) for p in SHIPPED]


def check_scenario_text(text: str) -> None:
    path = WORK / "fuzzed-scenario.yaml"
    path.write_text(text, encoding="utf-8")
    result = loads_or_clean_error(load_scenario, path)
    if isinstance(result, GameFileError):
        return
    # Accepted by the loader: the battle must start and list its commands without an error.
    state = initial_state(result.setup, result.board, result.seed)
    legal_commands(state)


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def test_the_shipped_scenarios_are_the_fuzzing_bases_and_load() -> None:
    assert len(SHIPPED) >= 2
    for base in BASES:
        check_scenario_text(_dump(base))


structural = st.sampled_from(range(len(BASES))).flatmap(lambda i: mutated_tree(BASES[i]))
textual = st.sampled_from(range(len(BASES))).flatmap(lambda i: mutated_text(_dump(BASES[i])))


@settings(max_examples=2 * QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structural)
def test_mutated_scenario_data_loads_or_gets_a_located_error(data: Any) -> None:
    check_scenario_text(_dump(data))


@settings(max_examples=2 * QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(textual)
def test_mutated_scenario_text_loads_or_gets_a_located_error(text: str) -> None:
    check_scenario_text(text)


@pytest.mark.slow
@settings(max_examples=SLOW, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(structural.map(_dump), textual))
def test_many_mutated_scenarios_load_or_get_a_located_error(text: str) -> None:
    check_scenario_text(text)


# --------------------------------------------------------------------------- regressions found by fuzzing

@pytest.mark.parametrize("field", ["map", "catalogue"])
def test_a_scenario_whose_map_or_catalogue_names_a_folder_gets_an_error_naming_the_scenario_field(field: str) -> None:
    data = dict(BASES[0])
    data[field] = "."  # found by fuzzing: map "" resolved to the scenario's folder, and the error named the folder
    path = WORK / f"folder-{field}.yaml"
    path.write_text(_dump(data), encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    assert field in info.value.where and "folder" in info.value.message
