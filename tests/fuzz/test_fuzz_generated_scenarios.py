"""Generated scenarios: well-formed scenario files with random sides, commanders, units,
objectives and hostile rules overrides (zero, negative and huge numbers). Each either is refused
with a GameFileError naming the file, or loads, starts and survives a short random game with
every command the rules list as legal accepted (no exception of any other kind)."""

from __future__ import annotations

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
from tests.fuzz.fuzzlib import QUICK, SLOW, loads_or_clean_error
from tests.scratch import scratch_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAPS = [ROOT / "maps" / "demo-movement.tmx", ROOT / "maps" / "demo-overwatch.tmx"]
WORK = scratch_dir("ail-fuzz-generated-")
TYPES = ["rifle_section", "field_gun", "militia_band", "battlemage_knight", "armoured_infantry",
         "shield_lancers", "warjack", "armoured_car", "hover_skiff"]
SKILLS = ["tactics", "leadership", "deception", "firearms", "melee", "athletics", "awareness", "pilot",
          "gunnery", "aether_channel"]
# Mostly plausible numbers, now and then a hostile one (zero, negative, huge).
odd = st.one_of(st.integers(1, 9), st.integers(1, 9), st.integers(0, 12), st.sampled_from([0, -1, -3, 100, 10**6]))


def stats() -> st.SearchStrategy[dict[str, int]]:
    return st.fixed_dictionaries({k: st.integers(0, 10) for k in ("physique", "senses", "intellect", "aether")})


def rules_overrides() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={
        "check": st.fixed_dictionaries({}, optional={"skilled_die": odd, "unskilled_die": odd, "threshold": odd}),
        "road_move_cost": odd,
        "road_bonus": st.fixed_dictionaries({}, optional={"infantry": odd, "wheeled": odd, "hover": odd}),
        "dash": st.fixed_dictionaries({}, optional={"adrenaline_cost": odd, "pilot_ct": odd,
                                                    "leadership_per_adrenaline": odd}),
        "accuracy": st.fixed_dictionaries({}, optional={"melee_ac": odd, "defensive_stance": odd,
                                                        "band_ac": st.lists(odd, min_size=4, max_size=4)}),
        "edges": st.fixed_dictionaries({}, optional={"braced": odd, "overwatch": odd}),
        "casualty": st.fixed_dictionaries({}, optional={"die": odd, "reduced_bonus": odd}),
        "initiative": st.fixed_dictionaries({}, optional={"two_sides_winner": odd, "per_full_margin": odd,
                                                          "multi_winner": odd, "multi_runner_up": odd}),
        "overwatch_triggers": st.lists(st.sampled_from(["move", "dash", "charge"]), max_size=3, unique=True),
        "terrain": st.fixed_dictionaries({}, optional={
            "clear": st.fixed_dictionaries({}, optional={"move_cost": odd, "cover": odd, "difficult": st.booleans()}),
            "road": st.fixed_dictionaries({}, optional={"move_cost": odd, "impassable": st.booleans()}),
        }),
    })


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    n_sides = draw(st.integers(2, 3))
    side_ids = [f"s{i}" for i in range(n_sides)]
    units = []
    spots = draw(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 9)), min_size=n_sides, max_size=9,
                          unique=True))
    for i, (col, row) in enumerate(spots):
        units.append({"id": f"u{i}", "type": draw(st.sampled_from(TYPES)), "side": side_ids[i % n_sides],
                      "at": [col, row]})
        if draw(st.integers(0, 3)) == 0:
            units[-1]["strength"] = draw(st.integers(1, 3))
    sides = []
    for sid in side_ids:
        commander: dict[str, Any] = {"name": f"Commander {sid}", "stats": draw(stats()),
                                     "skills": draw(st.dictionaries(st.sampled_from(SKILLS), st.integers(0, 5),
                                                                    max_size=4))}
        if draw(st.booleans()):
            commander["unit"] = draw(st.sampled_from([u["id"] for u in units if u["side"] == sid] or ["ghost"]))
        sides.append({"id": sid, "name": sid.upper(), "colour": [10, 20, 30], "commander": commander})
    objectives = []
    for _ in range(draw(st.integers(0, 3))):
        obj: dict[str, Any] = {"kind": draw(st.sampled_from(["destroy_all", "hold", "survive"])),
                               "side": draw(st.sampled_from(side_ids))}
        if obj["kind"] == "hold" or draw(st.booleans()):
            obj["hexes"] = draw(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 9)).map(list), min_size=1,
                                         max_size=3))
        if draw(st.booleans()):
            obj["round"] = draw(st.integers(1, 6))
        objectives.append(obj)
    data: dict[str, Any] = {"name": "generated", "map": str(draw(st.sampled_from(MAPS))), "seed": draw(st.integers(0, 99)),
                            "round_limit": draw(st.integers(1, 4)), "map_units": draw(st.booleans()),
                            "sides": sides, "units": units, "objectives": objectives}
    overrides = draw(rules_overrides())
    if overrides:
        data["rules"] = overrides
    return data


def check_generated(data: dict[str, Any], seed: int) -> None:
    path = WORK / "generated.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = loads_or_clean_error(load_scenario, path)
    if isinstance(result, GameFileError):
        return
    state = initial_state(result.setup, result.board, result.seed)
    play(state, seed, max_commands=80)  # raises if a legal command is refused or anything else fails


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.integers(0, 1000))
def test_generated_scenarios_are_refused_cleanly_or_play(data: dict[str, Any], seed: int) -> None:
    check_generated(data, seed)


@pytest.mark.slow
@settings(max_examples=SLOW // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.integers(0, 1000))
def test_many_generated_scenarios_are_refused_cleanly_or_play(data: dict[str, Any], seed: int) -> None:
    check_generated(data, seed)


# --------------------------------------------------------------------------- regressions found by fuzzing

BASE = {"name": "bounds", "map": str(MAPS[0]), "round_limit": 2,
        "sides": [{"id": "a", "name": "A", "colour": [1, 2, 3],
                   "commander": {"name": "CA", "stats": {"physique": 3, "senses": 3, "intellect": 3, "aether": 3}}},
                  {"id": "b", "name": "B", "colour": [3, 2, 1],
                   "commander": {"name": "CB", "stats": {"physique": 3, "senses": 3, "intellect": 3, "aether": 3}}}],
        "units": [{"id": "u0", "type": "rifle_section", "side": "a", "at": [1, 1]},
                  {"id": "u1", "type": "militia_band", "side": "b", "at": [5, 5]}]}


@pytest.mark.parametrize(("override", "field"), [
    ({"initiative": {"per_full_margin": 0}}, "per_full_margin"),   # was ZeroDivisionError in the initiative award
    ({"check": {"threshold": 0}}, "threshold"),                    # was ZeroDivisionError in a check's successes
    ({"check": {"skilled_die": 0}}, "skilled_die"),                # was "a die needs at least one side"
    ({"casualty": {"die": 0}}, "die"),
    ({"road_bonus": {"wheeled": -3}}, "wheeled"),                  # was IndexError in the reach search
    ({"road_move_cost": 0}, "road_move_cost"),
    ({"edges": {"braced": 1000000}}, "braced"),                    # was an attack rolling ~200,000 dice (a hang)
])
def test_rules_overrides_that_would_break_the_engine_are_refused_naming_the_field(override: dict[str, Any],
                                                                                 field: str) -> None:
    path = WORK / "bounds.yaml"
    path.write_text(yaml.safe_dump({**BASE, "rules": override}, sort_keys=False), encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_scenario(path)
    assert info.value.path == str(path) and field in str(info.value)


def test_the_gm_cannot_give_a_million_advantage_or_a_skill_of_a_million() -> None:
    from game.systems.tactical.rules import Rejection, apply
    from game.systems.tactical.rules.gm import EditUnit, GiveAdvantage

    path = WORK / "bounds-gm.yaml"
    path.write_text(yaml.safe_dump(BASE, sort_keys=False), encoding="utf-8")
    scenario = load_scenario(path)
    state = initial_state(scenario.setup, scenario.board, 1)
    # found by fuzzing: a margin of a million made one attack roll hundreds of thousands of dice
    assert isinstance(apply(state, GiveAdvantage(side="a", advantage_kind="command", points=10**6)), Rejection)
    assert isinstance(apply(state, EditUnit(unit_id="u0", skills={"firearms": 10**6})), Rejection)
    assert not isinstance(apply(state, GiveAdvantage(side="a", advantage_kind="command", points=3)), Rejection)
