"""Scenario files: the shipped scenarios load, and each kind of mistake gets a located, clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.errors import GameFileError
from game.io.datafiles import deep_merge, problems_of
from game.systems.tactical.io.data import load_catalogue, load_rules
from game.systems.tactical.io.scenario import load_scenario

FIX = Path(__file__).resolve().parents[1] / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
SMALL = (FIX / "small.yaml").read_text(encoding="utf-8")


def scenario(tmp_path: Path, text: str) -> Path:
    """Write a scenario next to a copy of the small fixture's map."""
    tmx = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8").replace(
        'source="../../assets/tiles/', f'source="{(ROOT / "assets" / "tiles").as_posix()}/')
    (tmp_path / "layout-pointy-odd.tmx").write_text(tmx, encoding="utf-8")
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def edited(tmp_path: Path, old: str, new: str) -> Path:
    assert old in SMALL, old
    return scenario(tmp_path, SMALL.replace(old, new))


def errors(path: Path) -> list[GameFileError]:
    with pytest.raises(GameFileError) as info:
        load_scenario(path)
    return problems_of(info.value)


def first(path: Path) -> str:
    return str(errors(path)[0])


# --------------------------------------------------------------------------- good scenarios

def test_default_scenario_is_a_real_battle_of_two_factions_with_objectives():
    sc = load_scenario(ROOT / "maps" / "default.yaml")
    setup = sc.setup
    assert len(setup.sides) == 2
    factions = {setup.catalogue.units[u.type].faction for u in setup.units}
    assert len(factions) >= 2
    for side in setup.sides:
        n = sum(1 for u in setup.units if u.side == side.id)
        assert 5 <= n <= 8, (side.id, n)
    assert setup.objectives
    assert all(u.at in sc.board for u in setup.units)
    assert sc.map.stagger.axis == "y" and sc.seed == 1864


def test_hollow_ridge_takes_its_units_from_the_maps_object_layer():
    sc = load_scenario(ROOT / "maps" / "hollow-ridge.yaml")
    assert sc.map.stagger.axis == "x"
    assert {u.side for u in sc.setup.units} == {"jibril", "resistance"}
    assert len(sc.setup.units) == len(sc.map.units)


def test_small_scenario_converts_tiles_to_hexes_colours_and_adds_map_units():
    sc = load_scenario(FIX / "small.yaml")
    st = sc.map.stagger
    by_id = {u.id: u for u in sc.setup.units}
    assert by_id["b1"].at == st.to_hex(0, 0)
    assert by_id["b2"].strength == 2
    assert by_id["map-scout"].side == "red" and by_id["map-scout"].at == st.to_hex(3, 2)
    assert sc.setup.sides[1].colour == (0xC0, 0x40, 0x30)
    assert sc.setup.objectives[0].hexes == (st.to_hex(3, 3),)
    assert sc.setup.round_limit == 3 and sc.seed == 42
    assert sc.options.ask_defensive_action is True


def test_rules_overrides_are_deep_merged_onto_the_rules_file(tmp_path):
    p = edited(tmp_path, "round_limit: 3\n", "round_limit: 3\nrules:\n  terrain:\n    woods: {cover: 5}\n")
    rules = load_scenario(p).setup.rules
    assert rules.terrain["woods"].cover == 5
    assert rules.terrain["woods"].move_cost == 2  # the rest of the entry kept
    assert rules.terrain["water"].impassable


def test_deep_merge_merges_mappings_and_replaces_everything_else():
    assert deep_merge({"a": {"b": 1, "c": 2}, "l": [1]}, {"a": {"c": 3}, "l": [2]}) == {"a": {"b": 1, "c": 3}, "l": [2]}


def test_map_units_can_be_turned_off(tmp_path):
    p = edited(tmp_path, "round_limit: 3\n", "round_limit: 3\nmap_units: false\n")
    assert "map-scout" not in {u.id for u in load_scenario(p).setup.units}


# --------------------------------------------------------------------------- bad scenarios

def test_unknown_key_is_refused_with_its_line(tmp_path):
    p = edited(tmp_path, "seed: 42\n", "seed: 42\nweather: rain\n")
    msg = first(p)
    assert "weather" in msg and "unknown key" in msg and "line 6" in msg


def test_unit_outside_the_map_names_the_field_path_and_line(tmp_path):
    p = edited(tmp_path, "at: [5, 2]", "at: [9, 2]")
    msg = first(p)
    assert "units[2].at" in msg and "outside the 6 x 5 map" in msg and "line 26" in msg


def test_unit_on_an_off_board_tile_is_refused(tmp_path):
    p = edited(tmp_path, "at: [5, 2]", "at: [5, 4]")
    assert "no terrain" in first(p)


def test_unit_in_water_is_refused_but_hover_may_float(tmp_path):
    assert "impassable" in first(edited(tmp_path, "at: [5, 2]", "at: [1, 1]"))
    ok = edited(tmp_path, "{id: r1, type: militia_band, side: red, at: [5, 2]}",
                "{id: r1, type: hover_skiff, side: red, at: [1, 1]}")
    assert load_scenario(ok).setup.units[2].type == "hover_skiff"


def test_unknown_unit_type_lists_the_catalogue(tmp_path):
    msg = first(edited(tmp_path, "type: militia_band", "type: dragon"))
    assert "units[2].type" in msg and "'dragon'" in msg and "rifle_section" in msg


def test_unknown_side_lists_the_sides(tmp_path):
    msg = first(edited(tmp_path, "side: red, at: [5, 2]", "side: green, at: [5, 2]"))
    assert "units[2].side" in msg and "'green'" in msg and "blue, red" in msg


def test_duplicate_unit_id_and_shared_hex_are_reported(tmp_path):
    p = edited(tmp_path, "{id: r1, type: militia_band, side: red, at: [5, 2]}",
               "{id: b1, type: militia_band, side: red, at: [0, 0]}")
    msgs = [str(e) for e in errors(p)]
    assert any("'b1' is used twice" in m for m in msgs)
    assert any("already taken" in m for m in msgs)


def test_bad_colour_is_explained(tmp_path):
    msg = first(edited(tmp_path, 'colour: "#c04030"', 'colour: "reddish"'))
    assert "sides[1].colour" in msg and "#rrggbb" in msg


def test_wrong_type_of_stat_is_reported_with_its_path(tmp_path):
    msg = first(edited(tmp_path, "stats: {physique: 3, senses: 3, intellect: 3, aether: 1}\n      skills: {tactics: 2}",
                       "stats: {physique: strong, senses: 3, intellect: 3, aether: 1}\n      skills: {tactics: 2}"))
    assert "sides[0].commander.stats.physique" in msg and "strong" in msg


def test_bad_rules_override_is_reported_against_the_scenario(tmp_path):
    p = edited(tmp_path, "round_limit: 3\n", "round_limit: 3\nrules:\n  terrain:\n    woods: {cover: lots}\n")
    err = errors(p)[0]
    assert err.path == str(p)
    assert "rules.terrain.woods.cover" in err.where and "lots" in err.message


def test_a_rules_override_that_empties_a_list_is_reported_against_the_scenario_not_the_rules(tmp_path):
    # found by the slow scenario fuzzer: `colour: []` left colour[0] missing, and the error named
    # the rules file's line for colour[0], which the override had replaced
    p = edited(tmp_path, "round_limit: 3\n", "round_limit: 3\nrules:\n  terrain:\n    woods: {colour: []}\n")
    err = errors(p)[0]
    assert err.path == str(p), err
    assert "rules.terrain.woods.colour" in err.where


def test_commander_riding_with_a_missing_unit_is_reported(tmp_path):
    msg = first(edited(tmp_path, "unit: b1", "unit: nobody"))
    assert "sides[0].commander.unit" in msg and "nobody" in msg


def test_hold_objective_off_the_board_is_reported(tmp_path):
    msg = first(edited(tmp_path, "hexes: [[3, 3]]", "hexes: [[30, 3]]"))
    assert "objectives[0].hexes[0]" in msg


def test_missing_map_file_is_reported_on_the_map_field(tmp_path):
    msg = first(edited(tmp_path, "map: layout-pointy-odd.tmx", "map: elsewhere.tmx"))
    assert "map" in msg and "elsewhere.tmx" in msg and "not found" in msg


def test_yaml_syntax_error_gives_line_and_column(tmp_path):
    p = scenario(tmp_path, "name: x\nsides: [\n  - a\n")
    msg = first(p)
    assert "not valid YAML" in msg and "line " in msg


def test_empty_file_says_a_scenario_mapping_was_expected(tmp_path):
    assert "expected a scenario" in first(scenario(tmp_path, ""))


def test_map_unit_of_unknown_side_names_the_map_object(tmp_path):
    p = edited(tmp_path, "  - id: red\n    name: Red\n", "  - id: rouge\n    name: Red\n")
    p.write_text(p.read_text().replace("side: red", "side: rouge"), encoding="utf-8")
    err = errors(p)[0]
    assert err.path == str(p) and "map" in err.where
    assert "scout" in err.message and "layout-pointy-odd.tmx" in err.message and "'red'" in err.message


# --------------------------------------------------------------------------- data files

def test_starter_catalogue_and_rules_load():
    assert len(load_catalogue().units) >= 9
    assert "water" in load_rules().terrain


def test_catalogue_mistake_names_unit_field_and_line(tmp_path):
    text = (ROOT / "assets" / "units" / "starter.yaml").read_text(encoding="utf-8")
    p = tmp_path / "cat.yaml"
    p.write_text(text.replace("    move: 4\n", "    move: fast\n", 1), encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_catalogue(p)
    msg = str(info.value)
    assert "units.rifle_section.move" in msg and "fast" in msg and "line 10" in msg


def test_map_unit_of_unknown_type_names_the_map_object(tmp_path):
    p = scenario(tmp_path, SMALL)
    tmx = tmp_path / "layout-pointy-odd.tmx"
    tmx.write_text(tmx.read_text(encoding="utf-8").replace('value="rifle_section"', 'value="dragon"'), encoding="utf-8")
    err = errors(p)[0]
    assert err.path == str(p) and "scout" in err.message and "'dragon'" in err.message
