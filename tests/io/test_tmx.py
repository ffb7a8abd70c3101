"""Loading Tiled hexagonal maps: all four layouts, file order, units, and every kind of bad map."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import GameFileError
from game.core.hexgrid import Stagger
from game.io.tmx import ImageLayer, TileLayer, load_map, load_tileset

FIX = Path(__file__).resolve().parents[1] / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
TILES = ROOT / "assets" / "tiles"

LAYOUTS = [("pointy", "odd", Stagger("y", "odd")), ("pointy", "even", Stagger("y", "even")),
           ("flat", "odd", Stagger("x", "odd")), ("flat", "even", Stagger("x", "even"))]


def variant(tmp_path: Path, name: str, *edits: tuple[str, str], fname: str = "map.tmx") -> Path:
    """A copy of a fixture map with text replacements, its tileset path made absolute."""
    text = (FIX / name).read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{TILES.as_posix()}/')
    for old, new in edits:
        assert old in text, f"fixture text {old!r} not found"
        text = text.replace(old, new)
    p = tmp_path / fname
    p.write_text(text, encoding="utf-8")
    return p


def error_of(path: Path) -> GameFileError:
    with pytest.raises(GameFileError) as info:
        load_map(path)
    return info.value


# --------------------------------------------------------------------------- good maps

@pytest.mark.parametrize(("shape", "index", "stagger"), LAYOUTS)
def test_every_layout_loads_terrain_roads_and_off_board_hexes_at_the_right_tiles(shape, index, stagger):
    md = load_map(FIX / f"layout-{shape}-{index}.tmx")
    assert md.stagger == stagger
    b = md.board
    assert b.terrain_at(stagger.to_hex(1, 1)) == "water"
    assert b.terrain_at(stagger.to_hex(2, 3)) == "woods"
    assert b.terrain_at(stagger.to_hex(4, 0)) == "building"
    assert b.terrain_at(stagger.to_hex(3, 3)) == "clear"
    assert stagger.to_hex(5, 4) not in b  # no tile there: off the board
    assert len(b.terrain) == 6 * 5 - 1
    assert b.roads == frozenset({stagger.to_hex(0, 2), stagger.to_hex(1, 2)})


@pytest.mark.parametrize(("shape", "index", "stagger"), LAYOUTS)
def test_map_geometry_follows_tiled_formulas(shape, index, stagger):
    md = load_map(FIX / f"layout-{shape}-{index}.tmx")
    if shape == "pointy":
        assert (md.tilewidth, md.tileheight, md.hexsidelength) == (64, 74, 36)
        assert md.layout.map_pixel_size == (6 * 64 + 32, 5 * 55 + 19)
    else:
        assert (md.tilewidth, md.tileheight, md.hexsidelength) == (74, 64, 36)
        assert md.layout.map_pixel_size == (6 * 55 + 19, 5 * 64 + 32)


def test_units_come_from_object_layer_with_type_side_id_and_hex():
    md = load_map(FIX / "layout-pointy-odd.tmx")
    assert len(md.units) == 1
    u = md.units[0]
    assert (u.unit_type, u.side, u.id, u.col, u.row) == ("rifle_section", "red", "map-scout", 3, 2)
    assert u.hex == md.stagger.to_hex(3, 2)


def test_layers_are_listed_in_the_files_own_order_with_groups_flattened():
    md = load_map(FIX / "order-and-offsets.tmx")
    assert [la.name for la in md.layers] == ["backdrop", "ground", "towers"]
    assert isinstance(md.layers[0], ImageLayer)
    assert isinstance(md.layers[1], TileLayer)


def test_tileset_tile_offset_and_tall_tile_size_are_read():
    md = load_map(FIX / "order-and-offsets.tmx")
    tall = next(ts for ts in md.tilesets if ts.name == "tall")
    assert tall.offset == (3, -4)
    assert tall.tile_size(0) == (64, 100)


def test_shipped_maps_are_big_enough_and_use_both_stagger_axes():
    a = load_map(ROOT / "maps" / "riverford.tmx")
    b = load_map(ROOT / "maps" / "hollow-ridge.tmx")
    assert {a.stagger.axis, b.stagger.axis} == {"x", "y"}
    for md in (a, b):
        assert md.width >= 30 and md.height >= 20
        kinds = set(md.board.terrain.values())
        assert {"clear", "woods", "rough", "swamp", "water", "building", "hill"} <= kinds
        assert md.board.roads
    assert len(b.units) >= 6


def test_project_tilesets_carry_terrain_and_road_properties():
    for name in ("hex-pointy.tsx", "hex-flat.tsx"):
        ts = load_tileset(TILES / name)
        terrains = {p["terrain"] for p in ts.properties.values() if "terrain" in p}
        assert {"clear", "woods", "dense_woods", "rough", "swamp", "water", "building", "rubble", "hill",
                "fortification", "road"} <= terrains
        assert any(p.get("road") is True and "terrain" not in p for p in ts.properties.values())
    assert (TILES / "LICENSE").read_text(encoding="utf-8").strip()


# --------------------------------------------------------------------------- bad maps

def test_orthogonal_map_is_refused_saying_hexagonal_is_needed(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", ('orientation="hexagonal"', 'orientation="orthogonal"'))
    err = error_of(p)
    assert err.path == str(p)
    assert "orthogonal" in err.message and "hexagonal" in err.message


def test_missing_tileset_image_names_the_image(tmp_path):
    tsx = tmp_path / "broken.tsx"
    tsx.write_text((TILES / "hex-pointy.tsx").read_text(encoding="utf-8").replace(
        'source="hex-pointy.png"', 'source="nowhere.png"'), encoding="utf-8")
    p = variant(tmp_path, "layout-pointy-odd.tmx", (f'source="{TILES.as_posix()}/hex-pointy.tsx"',
                                                    'source="broken.tsx"'))
    err = error_of(p)
    assert "nowhere.png" in str(err) and "not found" in str(err)
    assert "broken.tsx" in err.path


def test_missing_tileset_file_names_it(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", (f'source="{TILES.as_posix()}/hex-pointy.tsx"',
                                                    'source="gone.tsx"'))
    err = error_of(p)
    assert "gone.tsx" in str(err) and "not found" in str(err)


def _embedded_tileset_map(tmp_path: Path, prop: str) -> Path:
    return variant(
        tmp_path, "layout-pointy-odd.tmx",
        (f'<tileset firstgid="1" source="{TILES.as_posix()}/hex-pointy.tsx"/>',
         f'<tileset firstgid="1" name="mine" tilewidth="64" tileheight="74" tilecount="80" columns="8">'
         f'<image source="{TILES.as_posix()}/hex-pointy.png" width="512" height="740"/>'
         f'<tile id="0"><properties><property name="terrain" value="clear"/></properties></tile>'
         f'<tile id="5"><properties>{prop}</properties></tile></tileset>'))


def test_unknown_terrain_names_tile_gid_and_allowed_names(tmp_path):
    p = _embedded_tileset_map(tmp_path, '<property name="terrain" value="lava"/>')
    err = error_of(p)
    text = str(err)
    assert "'lava'" in text and "tile 5" in text and "gid 6" in text and "'mine'" in text
    assert "allowed:" in text and "woods" in text


def test_wrongly_typed_road_property_is_reported(tmp_path):
    p = _embedded_tileset_map(tmp_path, '<property name="terrain" value="water"/>'
                                        '<property name="road" value="yes"/>')
    err = error_of(p)
    assert "'road'" in str(err) and "bool" in str(err) and "tile 5" in str(err)


def test_property_value_not_matching_its_declared_type_is_reported(tmp_path):
    p = _embedded_tileset_map(tmp_path, '<property name="terrain" value="water"/>'
                                        '<property name="height" type="int" value="tall"/>')
    err = error_of(p)
    assert "'height'" in str(err) and "int" in str(err) and "tall" in str(err)


def test_non_string_terrain_property_is_reported(tmp_path):
    p = _embedded_tileset_map(tmp_path, '<property name="terrain" type="int" value="3"/>')
    assert "should be a string" in str(error_of(p))


def test_empty_map_of_zero_size_is_refused(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", ('width="6" height="5" tilewidth', 'width="0" height="5" tilewidth'))
    assert "empty map" in str(error_of(p))


def test_map_without_any_terrain_tile_loads_with_an_empty_board(tmp_path):
    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    ground = text.split('<layer id="1" name="ground" width="6" height="5">\n  <data encoding="csv">\n')[1].split("</data>")[0]
    p = variant(tmp_path, "layout-pointy-odd.tmx", (ground, ",".join(["0"] * 30) + "\n"),
                ('<objectgroup id="3" name="units">', '<objectgroup id="3" name="units" visible="0">'))
    md = load_map(p)
    assert not md.has_terrain and len(md.board.terrain) == 0
    assert md.painted  # the road overlays still paint cells, and they are drawn


def test_broken_xml_reports_line_and_column(tmp_path):
    p = tmp_path / "bad.tmx"
    p.write_text('<?xml version="1.0"?>\n<map orientation="hexagonal">\n <layer>\n</map>\n', encoding="utf-8")
    err = error_of(p)
    assert "not valid XML" in err.message and err.where.startswith("line ")


def test_missing_map_file_is_a_clear_error(tmp_path):
    err = error_of(tmp_path / "nope.tmx")
    assert "not found" in err.message


def test_unit_object_off_the_map_is_reported_with_its_layer_and_id(tmp_path):
    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    pos = text.split('<object id="1" name="scout" ')[1].split(">")[0]
    p = variant(tmp_path, "layout-pointy-odd.tmx", (pos, 'x="5000" y="40"'))
    err = error_of(p)
    assert "off the map" in err.message and "'units'" in err.where and "id 1" in err.where


def test_unit_object_missing_side_is_reported(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", ('<property name="side" value="red"/>', ""))
    err = error_of(p)
    assert "'side' is missing" in err.message and "scout" in err.where


def test_unit_object_on_an_off_board_tile_is_reported(tmp_path):
    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    pos = text.split('<object id="1" name="scout" ')[1].split(">")[0]
    from game.core.hexlayout import HexLayout

    x, y = HexLayout(64, 74, 36, Stagger("y", "odd"), 6, 5).tile_center(5, 4)
    p = variant(tmp_path, "layout-pointy-odd.tmx", (pos, f'x="{x:g}" y="{y:g}"'))
    assert "off the board" in error_of(p).message


def test_gid_outside_every_tileset_is_reported_with_layer_and_cell(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", ("1,1,1,1,7,1,", "1,1,999,1,7,1,"))
    err = error_of(p)
    assert "gid 999" in err.message and "layer 'ground'" in err.where and "(2,0)" in err.where


def test_xml_tile_data_asks_for_csv_or_base64(tmp_path):
    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    roads = text.split('<layer id="2" name="roads" width="6" height="5">')[1].split("</layer>")[0]
    p = variant(tmp_path, "layout-pointy-odd.tmx",
                (roads, "<data>" + "<tile/>" * 30 + "</data>"))
    assert "CSV or Base64" in str(error_of(p))


def test_wrong_cell_count_is_reported(tmp_path):
    p = variant(tmp_path, "layout-pointy-odd.tmx", ("1,1,1,1,7,1,", "1,1,1,1,7,"))
    assert "expected 6 x 5 = 30" in str(error_of(p))


def test_base64_zlib_layer_data_loads_like_csv(tmp_path):
    import base64
    import struct
    import zlib

    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    csv = text.split('<layer id="1" name="ground" width="6" height="5">\n  <data encoding="csv">\n')[1].split("</data>")[0]
    gids = [int(g) for g in csv.replace("\n", "").split(",")]
    blob = base64.b64encode(zlib.compress(struct.pack("<30I", *gids))).decode()
    p = variant(tmp_path, "layout-pointy-odd.tmx",
                ('<data encoding="csv">\n' + csv + "</data>",
                 f'<data encoding="base64" compression="zlib">{blob}</data>'))
    got, want = load_map(p).board, load_map(FIX / "layout-pointy-odd.tmx").board
    assert dict(got.terrain) == dict(want.terrain) and got.roads == want.roads


# --------------------------------------------------------------------------- fuzzing

_ATTRS = ['orientation="hexagonal"', 'width="6"', 'height="5"', 'tilewidth="64"', 'tileheight="74"',
          'hexsidelength="36"', 'staggeraxis="y"', 'staggerindex="odd"', 'firstgid="1"', 'encoding="csv"',
          'value="rifle_section"', 'value="red"', 'id="1"', 'infinite="0"']
_ODD = ["", "0", "-3", "1e9", "abc", "x", "even", "hexagonal", "base64", "99999999999", "2.5", "\u00e9", "<"]


@settings(max_examples=int(os.environ.get('AIL_FUZZ_QUICK', '60')), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_ATTRS), st.sampled_from(_ODD)), min_size=1, max_size=3),
       st.integers(0, 2000), st.sampled_from(["", "<", ",", "0", "\n</map>", "1,"]))
def test_mutated_maps_load_or_give_a_clean_error(tmp_path_factory, edits, cut, insert):
    text = (FIX / "layout-pointy-odd.tmx").read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{TILES.as_posix()}/')
    for attr, value in edits:
        name = attr.split("=")[0]
        text = text.replace(attr, f'{name}="{value}"', 1)
    text = text[:cut] + insert + text[cut:]
    p = tmp_path_factory.mktemp("fuzz") / "m.tmx"
    p.write_text(text, encoding="utf-8")
    try:
        md = load_map(p)
    except GameFileError as exc:
        assert exc.path and str(exc).strip() and "\n" not in str(exc)
        return
    assert md.width > 0 and md.board.terrain
