"""The window's region painter (game.render.tiles.MapRegions) draws every kind of layer: tile
objects and image layers too, so the window never needs the picture of the whole map at zoom 1
(issue 34 item 9: the size cap is applied only where that picture is drawn). Part by part, the
painter gives the picture `render_map_picture` draws whole, pixel for pixel at zoom 1."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from game.io import tmx  # noqa: E402
from game.render.tiles import MapRegions, render_map_picture  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
BACK = (20, 22, 28)


def _map_with_everything(tmp_path: Path) -> tmx.MapData:
    """order-and-offsets.tmx (an image layer, a tile layer, a group) plus an object layer with two
    tile objects, one of them resized, one flipped."""
    text = (FIX / "order-and-offsets.tmx").read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{(ROOT / "assets" / "tiles").as_posix()}/')
    for img in ("magenta.png", "tall-red.png"):
        text = text.replace(f'source="{img}"', f'source="{(FIX / img).as_posix()}"')
    objects = (' <objectgroup id="9" name="props">\n'
               '  <object id="1" gid="81" x="40" y="150" width="64" height="100"/>\n'
               '  <object id="2" gid="2147483729" x="150" y="120" width="32" height="50"/>\n'
               ' </objectgroup>\n</map>')
    text = text.replace("</map>", objects)
    path = tmp_path / "everything.tmx"
    path.write_text(text, encoding="utf-8")
    md = tmx.load_map(path)
    assert any(isinstance(la, tmx.ObjectLayer) and any(o.gid for o in la.objects) for la in md.layers)
    assert any(isinstance(la, tmx.ImageLayer) for la in md.layers)
    return md


def test_the_region_painter_takes_maps_with_tile_objects_and_image_layers(tmp_path):
    assert MapRegions.supported(_map_with_everything(tmp_path))


def test_four_regions_at_zoom_1_are_the_whole_picture_pixel_for_pixel(tmp_path):
    md = _map_with_everything(tmp_path)
    whole = render_map_picture(md, BACK)
    w, h = whole.get_size()
    regions = MapRegions(md)
    pieced = pygame.Surface((w, h))
    half_w, half_h = w // 2, h // 2
    for rect in (pygame.Rect(0, 0, half_w, half_h), pygame.Rect(half_w, 0, w - half_w, half_h),
                 pygame.Rect(0, half_h, half_w, h - half_h), pygame.Rect(half_w, half_h, w - half_w, h - half_h)):
        pieced.blit(regions.draw(1.0, rect, BACK), rect.topleft)
    differ = sum(1 for x in range(w) for y in range(h) if pieced.get_at((x, y)) != whole.get_at((x, y)))
    assert differ == 0


def test_a_region_away_from_every_tile_object_draws_none_of_them(tmp_path):
    md = _map_with_everything(tmp_path)
    regions = MapRegions(md)
    layer = next(la for la in md.layers if isinstance(la, tmx.ObjectLayer))
    far = pygame.Rect(1000, 1000, 50, 50)
    assert regions._objects_in(layer, 1.0, far) == []  # noqa: SLF001 - the culling itself
    near = pygame.Rect(0, 0, 300, 300)
    assert len(regions._objects_in(layer, 1.0, near)) == 2  # noqa: SLF001


def test_an_image_layer_drawn_at_half_scale_by_regions_is_close_to_the_whole_picture_scaled(tmp_path):
    md = _map_with_everything(tmp_path)
    whole = render_map_picture(md, BACK)
    w, h = whole.get_size()
    half = pygame.transform.smoothscale(whole, (round(w * 0.5), round(h * 0.5)))
    regions = MapRegions(md)
    hw, hh = half.get_size()
    pieced = pygame.Surface((hw, hh))
    for rect in (pygame.Rect(0, 0, hw // 2, hh), pygame.Rect(hw // 2, 0, hw - hw // 2, hh)):
        pieced.blit(regions.draw(0.5, rect, BACK), rect.topleft)
    off = sum(1 for x in range(2, hw - 2) for y in range(2, hh - 2)
              if max(abs(a - b) for a, b in zip(pieced.get_at((x, y))[:3], half.get_at((x, y))[:3], strict=True)) > 48)
    assert off < hw * hh * 0.03, off  # the same picture up to the rounding of scaled edges
