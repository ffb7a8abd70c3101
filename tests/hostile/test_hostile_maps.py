"""Hostile and oversized Tiled maps: coordinates that are not finite, layers that inflate to
gigabytes, giant tiles and maps, tileset images that are not images. `validate` refuses what
`play` could not draw, with one line, before anything big is allocated or decoded."""

from __future__ import annotations

import base64
import re
import shutil
import zlib
from pathlib import Path

import pytest

from game.core.errors import GameFileError
from game.io.tmx import MAX_MAP_CELLS, load_map
from game.table import TABLE
from tests.hostile.hostile import TILES, map_copy, refused, small_scenario

CSV_DATA = '''  <data encoding="csv">
1,1,1,1,7,1,
1,6,1,1,1,1,
1,1,1,1,1,1,
1,1,2,1,1,1,
1,1,1,1,1,0
</data>'''


def _layer_b64(payload: bytes) -> str:
    return f'  <data encoding="base64" compression="zlib">{base64.b64encode(payload).decode()}</data>'


@pytest.mark.parametrize("value", ["1e999", "-1e999", "nan", "inf"])
def test_an_object_at_an_infinite_or_nan_position_is_one_line(tmp_path, capsys, value):
    p = map_copy(tmp_path, ('x="224"', f'x="{value}"'))
    refused(capsys, p, expect="finite number")


def test_a_compressed_layer_that_inflates_to_gigabytes_is_refused_before_decoding(tmp_path, capsys):
    # 1 GiB of zeros compresses to about 1 MiB: far too long for 30 cells, refused unread
    bomb = zlib.compress(b"\0" * (1 << 30), 9)
    p = map_copy(tmp_path, (CSV_DATA, _layer_b64(bomb)))
    refused(capsys, p, expect="too long", limit=10.0)


def test_a_short_compressed_layer_that_inflates_past_its_cells_is_refused_with_a_reason(tmp_path, capsys):
    bomb = zlib.compress(b"\0" * (1 << 20), 9)  # 1 MiB out of about 1.4 KB of text
    p = map_copy(tmp_path, (CSV_DATA, _layer_b64(bomb)))
    line = refused(capsys, p, expect="inflates to more than")
    assert line.rstrip().endswith(")")  # never an empty reason


def test_a_layer_that_does_not_decode_says_why(tmp_path, capsys):
    p = map_copy(tmp_path, (CSV_DATA, _layer_b64(b"not zlib at all")))
    line = refused(capsys, p, expect="cannot decode")
    assert not line.rstrip().endswith(":")


def test_tiles_of_a_billion_pixels_fail_validate_not_play(tmp_path, capsys):
    p = map_copy(tmp_path, ('tilewidth="64"', 'tilewidth="1000000000"'))
    refused(capsys, p, expect="at most 1024")


def test_a_map_of_too_many_tiles_is_refused_before_its_layers_are_read(tmp_path, capsys):
    p = map_copy(tmp_path, ('width="6" height="5" tilewidth', 'width="100000" height="100000" tilewidth'))
    refused(capsys, p, expect=f"at most {MAX_MAP_CELLS:,} tiles")


def test_a_5000_digit_attribute_is_one_short_line(tmp_path, capsys):
    p = map_copy(tmp_path, ('width="6"', f'width="{"9" * 5000}"'))
    line = refused(capsys, p, expect="whole number")
    assert len(line) < 400


def _tileset_with_image(tmp_path: Path, content: bytes, name: str = "bad.png") -> Path:
    (tmp_path / name).write_bytes(content)
    tsx = (TILES / "hex-pointy.tsx").read_text(encoding="utf-8").replace('source="hex-pointy.png"',
                                                                          f'source="{name}"')
    (tmp_path / "bad.tsx").write_text(tsx, encoding="utf-8")
    return tmp_path / "bad.tsx"


def test_a_tileset_image_that_is_not_an_image_fails_validate_for_the_tileset_and_the_map(tmp_path, capsys):
    tsx = _tileset_with_image(tmp_path, b"this is plain text, not a picture\n" * 10)
    refused(capsys, tsx, expect="not a PNG")
    p = map_copy(tmp_path, (f'source="{TILES.as_posix()}/hex-pointy.tsx"', 'source="bad.tsx"'))
    refused(capsys, tsx, "validate", str(p), expect="not a PNG")  # named against the tileset file


def test_a_png_claiming_a_giant_size_is_refused(tmp_path, capsys):
    real = (TILES / "hex-pointy.png").read_bytes()
    giant = real[:16] + (100_000).to_bytes(4, "big") + (100_000).to_bytes(4, "big") + real[24:]
    tsx = _tileset_with_image(tmp_path, giant)
    refused(capsys, tsx, expect="100,000 x 100,000 px")


def test_play_opens_a_map_with_a_bad_tileset_image_as_one_line_not_a_crash(tmp_path):
    sc = small_scenario(tmp_path)
    _tileset_with_image(tmp_path, b"\0\0garbage")
    m = tmp_path / "layout-pointy-odd.tmx"
    m.write_text(m.read_text(encoding="utf-8").replace(f'source="{TILES.as_posix()}/hex-pointy.tsx"',
                                                       'source="bad.tsx"'), encoding="utf-8")
    from game.shell.launch import open_game

    with pytest.raises(GameFileError, match="not a PNG"):
        open_game(TABLE, sc)  # raised before the window opens: `play` prints it as one line


def test_a_symlink_loop_as_tileset_is_one_line(tmp_path, capsys):
    loop = tmp_path / "loop.tsx"
    loop.symlink_to(loop)
    p = map_copy(tmp_path, (f'source="{TILES.as_posix()}/hex-pointy.tsx"', 'source="loop.tsx"'))
    refused(capsys, p, expect="loop")


def test_valid_maps_and_the_project_tilesets_still_load(tmp_path):
    md = load_map(map_copy(tmp_path))
    assert md.width == 6 and md.units
    shutil.copy(TILES / "hex-pointy.png", tmp_path / "ok.png")
    from game.io.tmx import load_tileset

    assert load_tileset(_tileset_with_image(tmp_path, (TILES / "hex-pointy.png").read_bytes())).tilecount > 0


@pytest.mark.parametrize("attr", ["offsetx", "offsety", "opacity"])
@pytest.mark.parametrize("value", ["nan", "inf", "99999999999999999999", "x"])
def test_a_groups_offset_or_opacity_that_is_not_a_sane_number_is_a_located_error(tmp_path, attr, value):
    # found by the slow map fuzzer: a group's offset reached every layer in it and the drawing
    src = Path(__file__).resolve().parents[1] / "fixtures" / "order-and-offsets.tmx"
    text = src.read_text(encoding="utf-8")
    group = re.search(r"<group [^>]*>", text)
    assert group is not None
    tag = re.sub(rf'\s{attr}="[^"]*"', "", group.group(0)).replace("<group ", f'<group {attr}="{value}" ', 1)
    text = re.sub(r'source="([^"]+)"', lambda m: f'source="{(src.parent / m.group(1)).resolve()}"', text)
    p = tmp_path / src.name
    p.write_text(text.replace(group.group(0), tag, 1), encoding="utf-8")
    with pytest.raises(GameFileError) as err:
        load_map(p)
    assert "group '" in str(err.value) and attr in str(err.value) and str(p) in str(err.value)
