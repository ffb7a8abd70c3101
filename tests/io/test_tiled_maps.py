"""A GM's own Tiled maps: other tilesets, terrain mappings, tile objects, templates, property
types, every layer encoding, and the formats we refuse with a sentence saying how to re-save."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.__main__ import main
from game.core.errors import GameFileError
from game.io.datafiles import problems_of
from game.io.tmx import load_map
from game.systems.tactical.io.scenario import load_scenario
from game.table import TABLE
from tests import tiledfix as tf

SIDES = """sides:
  - {id: red, name: Red, colour: "#c04030", commander: {name: R, stats: {physique: 3, senses: 3, intellect: 3, aether: 1}}}
  - {id: blue, name: Blue, colour: "#3060c0", commander: {name: B, stats: {physique: 3, senses: 3, intellect: 3, aether: 1}}}
units:
  - {id: r1, type: rifle_section, side: red, at: [0, 0]}
  - {id: b1, type: rifle_section, side: blue, at: [5, 4]}
"""


def scenario(tmp_path: Path, map_name: str, extra: str = "", sides: str = SIDES) -> Path:
    p = tmp_path / "sc.yaml"
    p.write_text(f"name: GM map\nmap: {map_name}\n{extra}{sides}", encoding="utf-8")
    return p


def problems(path: Path) -> list[str]:
    with pytest.raises(GameFileError) as info:
        load_scenario(path)
    return [str(p) for p in problems_of(info.value)]


# --------------------------------------------------------------------------- any tileset draws


@pytest.mark.parametrize(("axis", "index"), [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")])
def test_a_map_painted_with_a_tileset_without_terrain_properties_loads_and_renders(tmp_path, axis, index, capsys):
    m = tf.foreign_map(tmp_path, axis, index)
    md = load_map(m)
    assert not md.has_terrain and len(md.painted) == 30
    out = tmp_path / "m.png"
    assert main(["render", str(m), "--out", str(out), "--grid"]) == 0
    import pygame

    img = pygame.image.load(str(out))
    assert img.get_size() == md.layout.map_pixel_size
    cx, cy = md.layout.tile_center(0, 0)
    assert img.get_at((int(cx), int(cy)))[3] == 255  # drawn, not refused
    assert main(["validate", str(m)]) == 0
    assert "terrain_map" in capsys.readouterr().out


def test_playing_a_map_without_terrain_and_without_a_mapping_says_what_is_missing(tmp_path):
    m = tf.foreign_map(tmp_path)
    msgs = problems(scenario(tmp_path, m.name))
    assert len(msgs) == 1 and "terrain_map" in msgs[0] and "'meadows'" in msgs[0] and "\n" not in msgs[0]


def test_terrain_mapping_by_tileset_and_tile_id_builds_the_board(tmp_path):
    m = tf.foreign_map(tmp_path)
    sc = load_scenario(scenario(tmp_path, m.name, "terrain_map:\n  tilesets:\n    meadows: {0: clear, 1: woods, "
                                                  "2: water, 3: hill}\n"))
    b, st = sc.board, sc.map.stagger
    assert len(b.terrain) == 30
    names = ["clear", "woods", "water", "hill"]
    for col in range(6):
        for row in range(5):
            assert b.terrain_at(st.to_hex(col, row)) == names[(col + 2 * row) % 4]
    assert sc.map.board is b  # the map the client draws knows the same board


def test_terrain_mapping_by_tile_class_and_null_for_off_board(tmp_path):
    m = tf.foreign_map(tmp_path)
    sc = load_scenario(scenario(tmp_path, m.name, "terrain_map:\n  classes: {Meadow: clear, Forest: woods, Hill: hill, "
                                                  "Lake: null}\n"))
    assert len(sc.board.terrain) == 30 - sum(1 for c in range(6) for r in range(5) if (c + 2 * r) % 4 == 2)
    assert set(sc.board.terrain.values()) == {"clear", "woods", "hill"}


def test_tileset_and_id_mapping_wins_over_the_class_mapping(tmp_path):
    m = tf.foreign_map(tmp_path)
    sc = load_scenario(scenario(tmp_path, m.name, "terrain_map:\n  tilesets: {meadows.tsx: {1: rough}}\n"
                                                  "  classes: {Meadow: clear, Forest: woods, Lake: water, Hill: hill}\n"))
    assert "woods" not in sc.board.terrain.values() and "rough" in sc.board.terrain.values()


def test_unmapped_tiles_are_reported_with_every_cell_where_they_stand(tmp_path):
    m = tf.foreign_map(tmp_path)
    msgs = problems(scenario(tmp_path, m.name, "terrain_map:\n  classes: {Meadow: clear, Forest: woods, Hill: hill}\n"))
    assert len(msgs) == 1
    lake_cells = [(c, r) for r in range(5) for c in range(6) if (c + 2 * r) % 4 == 2]
    assert "tile 2, class 'Lake'" in msgs[0]
    assert ", ".join(f"({c},{r})" for c, r in lake_cells) in msgs[0]


def test_a_terrain_mapping_with_an_unknown_terrain_or_tileset_is_refused_by_name(tmp_path):
    m = tf.foreign_map(tmp_path)
    msgs = problems(scenario(tmp_path, m.name, "terrain_map:\n  tilesets: {meadow: {0: clear}, meadows: {1: lava}}\n"))
    assert any("no tileset 'meadow'" in s and "meadows" in s for s in msgs)
    assert any("unknown terrain 'lava'" in s and "terrain_map.tilesets.meadows" in s for s in msgs)


# --------------------------------------------------------------------------- tile objects, templates, classes


def _counters_tileset(folder: Path) -> Path:
    """The GM's tileset with a counter tile carrying unit properties (and its own `id`)."""
    tsx = tf.tile_sheet(folder)
    text = tsx.read_text(encoding="utf-8").replace(
        '<tile id="3" type="Hill"/>',
        '<tile id="3" type="Hill"><properties><property name="id" type="int" value="7"/>'
        '<property name="unit_type" value="militia_band"/><property name="side" value="red"/></properties></tile>')
    tsx.write_text(text, encoding="utf-8")
    return tsx


def _units_map(folder: Path, objects: list[str]) -> Path:
    tsx = _counters_tileset(folder)
    spec = tf.MapSpec(tilesets=[(1, tsx.name)], layers=[tf.Layer("ground", tf.pattern(6, 5))], objects=objects)
    return tf.write_map(folder / "units.tmx", spec)


def _tile_obj(oid: int, col: int, row: int, gid: int = 4, props: str = "", extra: str = "") -> str:
    from game.core.hexgrid import Stagger
    from game.core.hexlayout import HexLayout

    x, y = HexLayout(64, 74, 36, Stagger("y", "odd"), 6, 5).tile_center(col, row)
    body = f"<properties>{props}</properties>" if props else ""
    return f'<object id="{oid}" gid="{gid}" x="{x - 32:g}" y="{y + 37:g}" width="64" height="74"{extra}>{body}</object>'


def test_a_tile_object_takes_its_tiles_unit_properties_and_the_tiles_own_id_is_not_refused(tmp_path):
    m = _units_map(tmp_path, [_tile_obj(1, 2, 2), _tile_obj(2, 4, 1, props='<property name="id" value="scout"/>'
                                                                           '<property name="side" value="blue"/>')])
    md = load_map(m)
    a, b = sorted(md.units, key=lambda u: u.object_id)
    assert (a.unit_type, a.side, a.id, a.col, a.row) == ("militia_band", "red", None, 2, 2)
    assert (b.unit_type, b.side, b.id, b.col, b.row) == ("militia_band", "blue", "scout", 4, 1)  # its own win


def test_units_stamped_from_an_object_template_are_loaded_with_the_objects_own_values_on_top(tmp_path):
    tsx = _counters_tileset(tmp_path)
    tf.template(tmp_path, "rifles", tsx.name, 0, '<property name="unit_type" value="rifle_section"/>'
                                                '<property name="side" value="blue"/>')
    from game.core.hexgrid import Stagger
    from game.core.hexlayout import HexLayout

    x, y = HexLayout(64, 74, 36, Stagger("y", "odd"), 6, 5).tile_center(1, 3)
    objs = [f'<object id="5" template="rifles.tx" x="{x - 32:g}" y="{y + 37:g}"/>',
            f'<object id="6" template="rifles.tx" x="{x + 32:g}" y="{y + 37:g}"><properties>'
            '<property name="side" value="red"/></properties></object>']
    spec = tf.MapSpec(tilesets=[(1, tsx.name)], layers=[tf.Layer("ground", tf.pattern(6, 5))], objects=objs)
    md = load_map(tf.write_map(tmp_path / "tmpl.tmx", spec))
    got = sorted((u.object_id, u.unit_type, u.side, u.col, u.row) for u in md.units)
    assert got == [(5, "rifle_section", "blue", 1, 3), (6, "rifle_section", "red", 2, 3)]
    obj = md.layers[-1].objects[0]  # type: ignore[union-attr]
    assert obj.gid == 1 and obj.template == (tmp_path / "rifles.tx").resolve() and obj.kind == "unit"


def test_class_members_left_at_their_default_take_the_projects_default_nested_classes_included(tmp_path):
    tf.project(tmp_path)
    objs = [_tile_obj(1, 1, 1, gid=1, extra=' type="unit"', props='<property name="side" value="blue"/>'),
            _tile_obj(2, 3, 3, gid=1, extra=' type="unit"',
                      props='<property name="orders" type="class" propertytype="orders"><properties>'
                            '<property name="hold" type="bool" value="true"/></properties></property>')]
    md = load_map(_units_map(tmp_path, objs))
    a, b = sorted(md.units, key=lambda u: u.object_id)
    assert (a.unit_type, a.side, a.id) == ("rifle_section", "blue", None)
    assert (b.unit_type, b.side) == ("rifle_section", "red")
    orders = md.layers[-1].objects[1].properties["orders"]  # type: ignore[union-attr]
    assert orders == {"stance": "guard", "hold": True}


def test_the_shipped_tiled_project_declares_the_terrain_enum_and_the_unit_class():
    from game.io.tmx import find_project, load_property_types
    from game.systems.tactical.io.data import load_rules

    root = Path(__file__).resolve().parents[2]
    proj = find_project(root / "maps" / "riverford.tmx")
    assert proj is not None and proj.name == "ascension-isle.tiled-project"
    types = load_property_types(proj)
    assert set(types.enums["terrain"]) == set(load_rules().terrain)
    assert {"unit_type", "side", "id"} <= set(types.classes["unit"])


# --------------------------------------------------------------------------- encodings and refusals


@pytest.mark.parametrize("encoding", ["base64", "zlib", "gzip", "zstd"])
def test_every_layer_encoding_loads_the_same_cells_as_csv(tmp_path, encoding):
    (tmp_path / "csv").mkdir()
    (tmp_path / encoding).mkdir()
    ref = load_map(tf.foreign_map(tmp_path / "csv", encoding="csv"))
    md = load_map(tf.foreign_map(tmp_path / encoding, encoding=encoding))
    assert md.tile_layers[0].gids == ref.tile_layers[0].gids


def test_an_infinite_map_is_refused_saying_how_to_resave_it(tmp_path):
    m = tf.foreign_map(tmp_path)
    m.write_text(m.read_text(encoding="utf-8").replace('infinite="0"', 'infinite="1"'), encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_map(m)
    assert "untick 'Infinite'" in info.value.message and "save again" in info.value.message


@pytest.mark.parametrize("name", ["map.tmj", "map.json", "map.tmx"])
def test_a_json_map_is_refused_saying_how_to_save_it_as_tmx_even_from_a_scenario(tmp_path, name):
    m = tmp_path / name
    m.write_text('{"type": "map", "orientation": "hexagonal", "layers": []}', encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_map(m)
    assert "Tiled map files (*.tmx)" in info.value.message
    msgs = problems(scenario(tmp_path, name))
    assert "Tiled map files (*.tmx)" in msgs[0] and "not valid XML" not in msgs[0]


def test_layer_and_group_tints_are_read_and_multiplied(tmp_path):
    m = tf.foreign_map(tmp_path, layers=[tf.Layer("ground", tf.pattern(6, 5), tint="#ff8080ff")], group_tint="#80ffffff")
    la = load_map(m).tile_layers[0]
    assert la.tint == (128, 128, 255, 128)  # AARRGGBB each, multiplied channel by channel


def test_the_shipped_projects_unit_type_enum_lists_the_starter_catalogue():
    from game.io.tmx import load_property_types
    from game.systems.tactical.io.data import load_catalogue

    types = load_property_types(Path(__file__).resolve().parents[2] / "maps" / "ascension-isle.tiled-project")
    assert set(types.enums["unit_type"]) == set(load_catalogue().units)


# --------------------------------------------------------------------------- play MAP.tmx


def test_a_map_whose_object_layer_places_two_sides_becomes_a_playable_scenario(tmp_path):
    from game.cli.play import scenario_for_map

    root = Path(__file__).resolve().parents[2]
    sc = load_scenario(scenario_for_map(TABLE, root / "maps" / "hollow-ridge.tmx", tmp_path))
    assert [s.id for s in sc.setup.sides] == list(dict.fromkeys(u.side for u in sc.map.units))
    assert len(sc.setup.units) == len(sc.map.units) > 2
    assert {o.kind for o in sc.setup.objectives} == {"destroy_all"}


@pytest.mark.parametrize(("objects", "missing"), [
    ([], "places no units"),
    (["one"], "at least two sides"),
])
def test_playing_a_map_that_lacks_units_or_sides_says_what_is_missing(tmp_path, objects, missing):
    from game.cli.play import scenario_for_map
    from game.core.errors import UserError

    tsx = _counters_tileset(tmp_path)
    objs = [_tile_obj(1, 2, 1)] if objects else []  # on a Meadow tile, the one with terrain
    spec = tf.MapSpec(tilesets=[(1, tsx.name)], layers=[tf.Layer("ground", tf.pattern(6, 5))], objects=objs)
    m = tf.write_map(tmp_path / "m.tmx", spec)
    tsx.write_text(tsx.read_text(encoding="utf-8").replace('<tile id="0" type="Meadow"/>',
                   '<tile id="0" type="Meadow"><properties><property name="terrain" value="clear"/></properties></tile>'),
                   encoding="utf-8")
    with pytest.raises(UserError) as info:
        scenario_for_map(TABLE, m, tmp_path)
    assert missing in str(info.value) and "\n" not in str(info.value)


def test_playing_a_map_without_terrain_directly_says_a_terrain_map_is_needed(tmp_path):
    from game.cli.play import scenario_for_map
    from game.core.errors import UserError

    with pytest.raises(UserError) as info:
        scenario_for_map(TABLE, tf.foreign_map(tmp_path), tmp_path)
    assert "terrain_map" in str(info.value)


def test_play_command_opens_a_map_directly_headless(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    root = Path(__file__).resolve().parents[2]
    assert main(["play", str(root / "maps" / "hollow-ridge.tmx"), "--frames", "2"]) == 0
    assert "hollow-ridge-from-map.yaml" in capsys.readouterr().out
    assert (tmp_path / "saves" / "scenarios" / "hollow-ridge-from-map.yaml").is_file()


@pytest.mark.parametrize("command", ["render", "validate"])
def test_render_and_validate_of_a_tmj_map_say_how_to_save_it_as_tmx(tmp_path, capsys, command):
    m = tmp_path / "map.tmj"
    m.write_text('{"type": "map"}', encoding="utf-8")
    args = [command, str(m)] + (["--out", str(tmp_path / "x.png")] if command == "render" else [])
    assert main(args) == 1
    assert "Tiled map files (*.tmx)" in capsys.readouterr().err


def test_a_scenario_with_a_terrain_map_opens_in_the_game_window(tmp_path, monkeypatch):
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    m = tf.foreign_map(tmp_path)
    sc = scenario(tmp_path, m.name, "terrain_map:\n  classes: {Meadow: clear, Forest: woods, Lake: water, Hill: hill}\n")
    assert main(["play", str(sc), "--frames", "3", "--no-blackout"]) == 0
