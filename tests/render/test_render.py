"""Headless rendering: exact Tiled placement checked on pixels, file order, counters, grid, commands."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from game.__main__ import main
from game.core.hexgrid import Hex
from game.io.tmx import load_map
from game.render import (
    CounterView,
    draw_grid,
    render_counter,
    render_map_layer,
    render_picture,
    setup_counters,
)
from game.systems.tactical.io.scenario import load_scenario

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
FIX = Path(__file__).resolve().parents[1] / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ["pointy-odd", "pointy-even", "flat-odd", "flat-even"]


def rgb_at(surf: pygame.Surface, x: float, y: float) -> tuple[int, int, int, int]:
    return tuple(surf.get_at((int(x), int(y))))  # type: ignore[return-value]


def is_watery(c: tuple[int, ...]) -> bool:
    return c[3] == 255 and c[2] > c[0] + 40 and c[2] > c[1]


def is_grassy(c: tuple[int, ...]) -> bool:
    return c[3] == 255 and c[1] > c[0] and c[1] > c[2]


@pytest.mark.parametrize("name", LAYOUTS)
def test_map_layer_has_the_maps_pixel_size_and_water_where_the_water_tile_is(name):
    md = load_map(FIX / f"layout-{name}.tmx")
    surf = render_map_layer(md, 1.0)
    assert surf.get_size() == md.layout.map_pixel_size
    assert is_watery(rgb_at(surf, *md.layout.tile_center(1, 1)))
    assert is_grassy(rgb_at(surf, *md.layout.tile_center(3, 3)))
    assert rgb_at(surf, *md.layout.tile_center(5, 4))[3] == 0  # no tile: transparent


def test_tiles_stay_inside_their_hex_so_a_neighbour_of_water_is_not_watery():
    md = load_map(FIX / "layout-pointy-odd.tmx")
    surf = render_map_layer(md)
    for n_hex in [md.stagger.to_hex(1, 1) + d for d in [Hex(1, 0), Hex(-1, 0), Hex(0, 1)]]:
        assert not is_watery(rgb_at(surf, *md.layout.hex_center(n_hex)))


def test_layers_draw_in_file_order_not_pytmx_order():
    md = load_map(FIX / "order-and-offsets.tmx")
    surf = render_map_layer(md)
    magenta = (255, 0, 255, 255)
    assert rgb_at(surf, 1, 1) == magenta  # image layer shows in the corner no hex covers
    assert rgb_at(surf, *md.layout.tile_center(0, 0)) != magenta  # tiles drawn over it


def test_tall_tile_is_bottom_aligned_and_shifted_by_the_tile_offset():
    md = load_map(FIX / "order-and-offsets.tmx")
    surf = render_map_layer(md)
    red = (255, 0, 0, 255)
    # cell (1,1): origin (96, 55); 100 px image bottom-aligned to 74 px cell, offset (3, -4)
    left, top = 96 + 3, 55 + 74 - 100 - 4
    assert rgb_at(surf, left, top) == red
    assert rgb_at(surf, left + 63, top + 99) == red
    assert rgb_at(surf, left - 1, top + 50) != red
    assert rgb_at(surf, left + 10, top - 1) != red
    assert rgb_at(surf, left + 10, top + 100) != red


def test_scaled_map_layer_has_scaled_size():
    md = load_map(FIX / "layout-flat-odd.tmx")
    w, h = md.layout.map_pixel_size
    assert render_map_layer(md, 0.5).get_size() == (round(w * 0.5), round(h * 0.5))
    with pytest.raises(ValueError):
        render_map_layer(md, 0)


def test_render_returns_a_fresh_surface_each_time():
    md = load_map(FIX / "layout-pointy-even.tmx")
    a = render_map_layer(md)
    a.fill((0, 0, 0, 255))
    b = render_map_layer(md)
    assert is_grassy(rgb_at(b, *md.layout.tile_center(3, 3)))


def test_counter_shows_side_colour_and_differs_by_class_and_status():
    base = CounterView(Hex(0, 0), (200, 40, 40), "infantry", "RIF", 6, 6)
    a = render_counter(base, 46)
    assert a.get_size() == (46, 46)
    body = rgb_at(a, 4, 23)
    assert body[0] > 150 and body[1] < 90  # red side colour
    cav = render_counter(CounterView(Hex(0, 0), (200, 40, 40), "cavalry", "RIF", 6, 6), 46)
    pinned = render_counter(CounterView(Hex(0, 0), (200, 40, 40), "infantry", "RIF", 6, 6, ("pinned",)), 46)
    weak = render_counter(CounterView(Hex(0, 0), (200, 40, 40), "infantry", "RIF", 2, 6), 46)
    raw = pygame.image.tobytes(a, "RGBA")
    for other in (cav, pinned, weak):
        assert pygame.image.tobytes(other, "RGBA") != raw


def test_units_and_grid_are_drawn_on_the_picture():
    sc = load_scenario(FIX / "small.yaml")
    plain = render_map_layer(sc.map)
    pic = render_picture(sc.map, setup_counters(sc.setup), 1.0, grid=True)
    blue_unit = next(u for u in sc.setup.units if u.id == "b1")
    x, y = sc.map.layout.hex_center(blue_unit.at)
    assert rgb_at(pic, x - 18, y) != rgb_at(plain, x - 18, y)
    c = rgb_at(pic, x - 18, y)
    assert c[2] > c[0]  # blue side colour
    grid = plain.copy()
    draw_grid(grid, sc.map.layout, colour=(0, 0, 0), width=2)
    cx, cy = sc.map.layout.tile_corners(2, 2)[0]
    assert rgb_at(grid, cx, cy - 3)[:3] == (0, 0, 0)


# --------------------------------------------------------------------------- commands

def test_render_command_writes_a_map_image_of_the_maps_pixel_size(tmp_path, capsys):
    out = tmp_path / "map.png"
    assert main(["render", str(FIX / "layout-flat-even.tmx"), "--out", str(out)]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == load_map(FIX / "layout-flat-even.tmx").layout.map_pixel_size
    assert "wrote" in capsys.readouterr().out


def test_render_command_draws_a_scenario_scaled_with_grid(tmp_path):
    out = tmp_path / "s.png"
    assert main(["render", str(ROOT / "maps" / "default.yaml"), "--out", str(out), "--scale", "0.5", "--grid"]) == 0
    w, h = load_map(ROOT / "maps" / "riverford.tmx").layout.map_pixel_size
    assert pygame.image.load(str(out)).get_size() == (round(w * 0.5), round(h * 0.5))


def test_render_command_reports_bad_input_in_one_line(tmp_path, capsys):
    assert main(["render", str(tmp_path / "none.tmx"), "--out", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no such file" in err and err.count("\n") == 1
    bad = tmp_path / "bad.tmx"
    bad.write_text("<map orientation='isometric' width='2' height='2'/>", encoding="utf-8")
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 1
    assert "isometric" in capsys.readouterr().err


def test_validate_passes_shipped_files(capsys):
    assert main(["validate", str(ROOT / "maps"), str(ROOT / "assets" / "units" / "starter.yaml"),
                 str(ROOT / "assets" / "rules" / "ail-tactical.yaml"), str(ROOT / "assets" / "tiles")]) == 0
    out = capsys.readouterr().out
    assert "ok: " in out and "default.yaml" in out and "hex-pointy.tsx" in out


def test_validate_prints_one_line_per_problem_and_exits_1(tmp_path, capsys):
    bad_scenario = tmp_path / "bad.yaml"
    bad_scenario.write_text((FIX / "small.yaml").read_text(encoding="utf-8")
                            .replace("map: layout-pointy-odd.tmx", f"map: {(FIX / 'layout-pointy-odd.tmx').as_posix()}")
                            .replace("type: militia_band", "type: dragon")
                            .replace("side: blue, at: [0, 4]", "side: purple, at: [0, 4]"), encoding="utf-8")
    bad_map = tmp_path / "ortho.tmx"
    bad_map.write_text("<map orientation='orthogonal' width='2' height='2'/>", encoding="utf-8")
    code = main(["validate", str(bad_scenario), str(bad_map), str(FIX / "layout-pointy-odd.tmx")])
    assert code == 1
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 3
    assert any("dragon" in line for line in lines) and any("purple" in line for line in lines)
    assert any("orthogonal" in line for line in lines)
    assert "ok: " in captured.out and "layout-pointy-odd.tmx" in captured.out


def test_render_command_draws_a_save_with_its_units(tmp_path):
    cmds = tmp_path / "cmds.yaml"
    cmds.write_text("[]\n", encoding="utf-8")
    save = tmp_path / "game.yaml"
    assert main(["run", str(FIX / "small.yaml"), "--commands", str(cmds), "--out", str(save)]) == 0
    out = tmp_path / "save.png"
    assert main(["render", str(save), "--out", str(out)]) == 0
    sc = load_scenario(FIX / "small.yaml")
    img = pygame.image.load(str(out))
    x, y = sc.map.layout.hex_center(next(u.at for u in sc.setup.units if u.id == "b1"))
    c = tuple(img.get_at((int(x - 18), int(y))))
    assert c[2] > c[0]  # the blue unit's counter is there


def test_grid_render_size_squeezes_a_tall_tile_into_its_cell(tmp_path):
    text = (FIX / "order-and-offsets.tmx").read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{(ROOT / "assets" / "tiles").as_posix()}/')
    text = text.replace('tilecount="1" columns="1">', 'tilecount="1" columns="1" tilerendersize="grid">')
    text = text.replace('source="tall-red.png"', f'source="{(FIX / "tall-red.png").as_posix()}"')
    text = text.replace('source="magenta.png"', f'source="{(FIX / "magenta.png").as_posix()}"')
    p = tmp_path / "grid.tmx"
    p.write_text(text, encoding="utf-8")
    surf = render_map_layer(load_map(p))

    def red(x: int, y: int) -> bool:
        c = rgb_at(surf, x, y)
        return c[0] > 200 and c[1] < 40 and c[2] < 40

    left, top = 96 + 3, 55 - 4  # now 64 x 74, the cell's size, still shifted by the offset
    assert red(left, top) and red(left + 63, top + 73)
    assert not red(left + 10, top - 2) and not red(left + 10, top + 75)


def test_zooming_in_draws_tiles_at_scaled_tiled_positions():
    md = load_map(FIX / "layout-pointy-odd.tmx")
    big = render_map_layer(md, 2.0)
    w, h = md.layout.map_pixel_size
    assert big.get_size() == (w * 2, h * 2)
    cx, cy = md.layout.tile_center(1, 1)
    assert is_watery(rgb_at(big, cx * 2, cy * 2))
    assert is_grassy(rgb_at(big, *(v * 2 for v in md.layout.tile_center(3, 3))))


def _fixture_copy(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = (FIX / name).read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{(ROOT / "assets" / "tiles").as_posix()}/')
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_layer_offset_shifts_the_layers_tiles(tmp_path):
    p = _fixture_copy(tmp_path, "layout-pointy-odd.tmx",
                      ('<layer id="1" name="ground" width="6"', '<layer id="1" name="ground" offsetx="20" offsety="10" width="6"'))
    md = load_map(p)
    surf = render_map_layer(md)
    cx, cy = md.layout.tile_center(1, 1)
    assert is_watery(rgb_at(surf, cx + 20, cy + 10))
    assert not is_watery(rgb_at(surf, cx - 22, cy))


def test_hidden_layers_are_not_drawn_and_opacity_blends(tmp_path):
    hidden = _fixture_copy(tmp_path, "layout-pointy-odd.tmx",
                           ('<layer id="1" name="ground" width="6"', '<layer id="1" name="ground" visible="0" width="6"'))
    md = load_map(hidden)
    assert md.board.terrain_at(md.stagger.to_hex(1, 1)) == "water"  # terrain still counts
    assert rgb_at(render_map_layer(md), *md.layout.tile_center(1, 1))[3] == 0
    faint = _fixture_copy(tmp_path, "layout-pointy-odd.tmx",
                          ('<layer id="1" name="ground" width="6"', '<layer id="1" name="ground" opacity="0.5" width="6"'))
    md2 = load_map(faint)
    alpha = rgb_at(render_map_layer(md2), *md2.layout.tile_center(1, 1))[3]
    assert 100 <= alpha <= 160


def test_objective_hexes_are_outlined_in_gold():
    from game.render import objective_hexes

    sc = load_scenario(FIX / "small.yaml")
    hexes = objective_hexes(sc.setup)
    assert hexes == [sc.map.stagger.to_hex(3, 3)]
    pic = render_picture(sc.map, (), 1.0, objectives=hexes)
    corners = sc.map.layout.hex_corners(hexes[0])
    cx, cy = sc.map.layout.hex_center(hexes[0])
    x, y = corners[0][0] + (cx - corners[0][0]) * 0.08, corners[0][1] + (cy - corners[0][1]) * 0.08
    c = rgb_at(pic, x + 1, y)
    assert c[0] > 200 and c[1] > 160 and c[2] < 120


def test_validate_reports_a_yaml_syntax_error_with_its_line(tmp_path, capsys):
    p = tmp_path / "broken.yaml"
    p.write_text("name: x\nsides: [\n  - a\n", encoding="utf-8")
    assert main(["validate", str(p)]) == 1
    err = capsys.readouterr().err
    assert "not valid YAML" in err and "line 3" in err
