"""The map-size cap (issue 34 item 9): a map whose whole picture at zoom 1 is over
tmx.MAX_MAP_PIXELS was refused on loading, so `validate` refused a valid map and `render
--scale 0.1` refused to draw it small. The cap is now applied where the whole map is drawn at full
size (game.render: `render` at a scale of 1 or more, the window's picture of a map its region
painter cannot draw piece by piece), not where the map is checked."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.core.errors import GameFileError
from game.io import tmx
from game.render.tiles import render_map_layer
from game.systems.tactical.bench.bigmap import write_big_map
from tests.hostile.hostile import cli, refused


@pytest.fixture(scope="module")
def big_map(tmp_path_factory) -> Path:
    """A 100 x 100 map of 64 px hexes: about 6,432 x 4,850 px at zoom 1, over the cap."""
    path = write_big_map(tmp_path_factory.mktemp("bigmap"), 100, 100)
    w, h = tmx.load_map(path).layout.map_pixel_size
    assert w * h > tmx.MAX_MAP_PIXELS
    return path


def test_validate_accepts_a_valid_map_too_large_to_draw_at_full_size(big_map, capsys):
    code, out, err, _t = cli(capsys, "validate", str(big_map))
    assert code == 0, err
    assert "ok" in out


def test_render_draws_a_large_map_scaled_down_without_the_full_size_picture(big_map, tmp_path, capsys):
    out_png = tmp_path / "small.png"
    code, out, err, took = cli(capsys, "render", str(big_map), "--scale", "0.1", "--out", str(out_png))
    assert code == 0, err
    w, h = tmx.load_map(big_map).layout.map_pixel_size
    img = pygame.image.load(str(out_png))
    assert abs(img.get_width() - w * 0.1) <= 20 and abs(img.get_height() - h * 0.1) <= 20
    assert took < 30


def test_render_at_full_size_refuses_the_large_map_naming_it_and_the_scale_to_use(big_map, tmp_path, capsys):
    out_png = tmp_path / "full.png"
    line = refused(capsys, big_map, "render", str(big_map), "--out", str(out_png), expect="px at zoom 1")
    assert "--scale below 1" in line
    assert not out_png.exists()


def test_the_renderer_refuses_the_full_size_picture_but_draws_the_scaled_one(big_map):
    md = tmx.load_map(big_map)
    with pytest.raises(GameFileError, match="at full size"):
        render_map_layer(md, 1.0)
    with pytest.raises(GameFileError, match="at full size"):
        render_map_layer(md, 2.0)  # (a closer zoom is the full-size picture scaled up)
    small = render_map_layer(md, 0.05)
    assert small.get_width() < 400


def test_a_map_within_the_cap_still_renders_at_full_size(tmp_path, capsys):
    path = write_big_map(tmp_path, 20, 20)
    code, _out, err, _t = cli(capsys, "render", str(path), "--out", str(tmp_path / "m.png"))
    assert code == 0, err


def test_the_window_opens_the_picture_of_a_large_map_it_draws_piece_by_piece(big_map):
    from game.shell.mapcache import TiledPicture

    picture = TiledPicture(tmx.load_map(big_map))  # (its region painter never draws the whole map)
    assert picture.region is not None
