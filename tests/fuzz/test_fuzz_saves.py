"""Fuzzing save files: truncated, damaged and hand-edited saves (with or without their checksums
put right, so that the deeper checks are reached too) either load, and the game goes on, or are
refused with a GameFileError naming the file. Loading never writes or changes a file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.errors import GameFileError
from game.io import saves
from game.replay import initial_state_of, load_game, make_save
from game.systems.tactical.bench.randomplay import play
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules import legal_commands
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.fuzz.fuzzlib import QUICK, SLOW, loads_or_clean_error, mutated_text, mutated_tree
from tests.scratch import scratch_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "maps" / "default.yaml"
WORK = scratch_dir("ail-fuzz-saves-")


def _base_save() -> tuple[str, list[Any]]:
    scenario = load_scenario(SCENARIO)
    played = play(initial_state_of(TABLE, scenario), 5, max_commands=60)
    save = make_save(SYSTEM, played.state, played.record.steps, scenario_path=SCENARIO, seed=scenario.seed)
    text = saves.dump_save(save)
    docs = list(yaml.safe_load_all(text))
    return text, docs


BASE_TEXT, BASE_DOCS = _base_save()


def rebuild(docs: list[Any], fix_checksums: bool) -> str:
    """A save text from (header, state, log) documents, checksums recomputed when asked."""
    header, state, log = (copy.deepcopy(d) for d in docs)
    if fix_checksums and isinstance(header, dict):
        try:
            check = saves.state_checksum(state)
        except (TypeError, ValueError):
            check = "0"
        header["state_checksum"] = check
        if isinstance(log, list):
            header["commands"] = len(log)
            if log and isinstance(log[-1], dict):
                log[-1]["after"] = check
    parts = [saves._PREAMBLE]  # noqa: SLF001 - the real file layout
    for name, doc in zip(("header", "state", "log"), (header, state, log), strict=True):
        parts.append(f"--- # {name}\n" + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    return "".join(parts) + saves.END_MARKER + "\n"


def check_save_text(text: str) -> None:
    path = WORK / "fuzzed-save.yaml"
    path.write_text(text, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in WORK.iterdir()}
    result = loads_or_clean_error(lambda p: load_game(TABLE, p), path)
    after = {p.name: p.read_bytes() for p in WORK.iterdir()}
    assert after == before, "loading a save wrote or changed a file"
    if isinstance(result, GameFileError):
        return
    legal_commands(result.state)  # the game goes on from the loaded state


def test_the_unmutated_base_save_loads() -> None:
    check_save_text(BASE_TEXT)
    check_save_text(rebuild(BASE_DOCS, fix_checksums=True))


docs_mutation = st.tuples(st.integers(0, 2), st.booleans()).flatmap(
    lambda t: mutated_tree(BASE_DOCS[t[0]]).map(
        lambda d, t=t: rebuild([d if i == t[0] else BASE_DOCS[i] for i in range(3)], t[1])))
text_mutation = mutated_text(BASE_TEXT)


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs_mutation)
def test_hand_edited_saves_load_or_get_a_located_error(text: str) -> None:
    check_save_text(text)


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text_mutation)
def test_damaged_or_truncated_saves_load_or_get_a_located_error(text: str) -> None:
    check_save_text(text)


@pytest.mark.slow
@settings(max_examples=SLOW, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(docs_mutation, text_mutation))
def test_many_mutated_saves_load_or_get_a_located_error(text: str) -> None:
    check_save_text(text)


# --------------------------------------------------------------------------- regressions found by fuzzing

@pytest.mark.parametrize("kind", [["move"], {"a": 1}, 3, None])
def test_a_command_whose_kind_is_not_a_name_is_refused_with_a_sentence(kind: Any) -> None:
    from game.systems.tactical.rules.commands import parse_command

    # found by fuzzing a save's log: a list as `kind` raised TypeError (unhashable) instead
    with pytest.raises(ValueError, match="unknown command kind"):
        parse_command({"kind": kind, "side": "zone"})


@pytest.mark.parametrize("command", [
    {"kind": "move", "unit_id": "u1", "path": True},
    {"kind": "move", "unit_id": "u1", "path": "x"},
    {"kind": "move", "unit_id": "u1", "path": {"a": 1}},
    {"kind": "special_move", "unit_id": "u1", "to": 5},
    {"kind": "gm_place_unit", "unit_id": "u1", "at": [1]},
])
def test_describing_a_malformed_logged_command_never_fails(command: dict[str, Any]) -> None:
    from game.replay import command_label, initial_state_of
    from game.systems.tactical.io.scenario import load_scenario

    # found by fuzzing a save's log: a hand-edited path crashed the message meant to report it
    assert command_label(command).startswith(command["kind"].replace("_", " "))
    state = initial_state_of(TABLE, load_scenario(SCENARIO))
    label = SYSTEM.describe_command(state, command)
    assert label.startswith(command["kind"].replace("_", " ").replace("gm ", "GM: "))


@pytest.mark.parametrize("at", [[1], "x", {"a": 1}, True, [3, 3]])
def test_describing_a_gm_placement_with_a_known_type_and_a_malformed_hex_never_fails(at: Any) -> None:
    from game.replay import initial_state_of
    from game.systems.tactical.io.scenario import load_scenario

    state = initial_state_of(TABLE, load_scenario(SCENARIO))
    type_id = next(iter(state.setup.catalogue.units))
    label = SYSTEM.describe_command(state, {"kind": "gm_place_unit", "unit_id": "u1", "type_id": type_id,
                                            "side": 5, "at": at})
    assert label.startswith(f"GM: place {state.setup.catalogue.units[type_id].name} (")
