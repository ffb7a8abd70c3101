"""Map pictures are made once and at the size they are shown: a scaled-down render is drawn at the
target scale (the full-size picture of a huge map is never made), and the client's map picture is
one opaque surface that nothing else keeps."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from game.io.tmx import load_map
from game.render import render_map_layer, tiles
from game.shell.mapcache import BACKGROUND, tiled_picture

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
FIX = Path(__file__).resolve().parents[1] / "fixtures"


def _sizes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    scales: list[float] = []
    real = tiles._render_base  # noqa: SLF001 - the test watches which pictures are drawn

    def watch(md, scale=1.0, grow=False, backdrop=None):  # type: ignore[no-untyped-def]
        scales.append(scale)
        return real(md, scale, grow, backdrop)

    monkeypatch.setattr(tiles, "_render_base", watch)
    return scales


def test_a_scaled_down_render_is_drawn_at_the_target_scale_not_cut_down_from_full_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tiles.clear_caches()
    md = load_map(FIX / "layout-pointy-odd.tmx")
    scales = _sizes_drawn(monkeypatch)
    small = render_map_layer(md, 0.25)
    w, h = md.layout.map_pixel_size
    assert small.get_size() == (round(w * 0.25), round(h * 0.25))
    assert scales == [0.25]  # no full-size picture was made
    # and it looks like the full-size one cut down: the water tile is still water
    cx, cy = md.layout.tile_center(1, 1)
    r, g, b, a = small.get_at((int(cx * 0.25), int(cy * 0.25)))
    assert a >= 250 and b > r + 40


def test_the_clients_map_picture_is_one_opaque_surface_kept_nowhere_else(monkeypatch: pytest.MonkeyPatch) -> None:
    tiles.clear_caches()
    md = load_map(FIX / "layout-pointy-odd.tmx")
    scales = _sizes_drawn(monkeypatch)
    pic = tiled_picture(md)()
    assert scales == [1.0] and pic.get_size() == md.layout.map_pixel_size
    assert not pic.get_flags() & pygame.SRCALPHA
    assert not tiles._base_cache  # noqa: SLF001 - no second full-size copy kept by the renderer
    assert tuple(pic.get_at((int(md.layout.tile_center(5, 4)[0]), int(md.layout.tile_center(5, 4)[1]))))[:3] \
        == BACKGROUND  # an empty cell shows the view's colour
    # the same pixels as the transparent render laid on the view's colour
    layer = render_map_layer(md, 1.0)
    ref = pygame.Surface(layer.get_size())
    ref.fill(BACKGROUND)
    ref.blit(layer, (0, 0))
    x, y = (int(v) for v in md.layout.tile_center(1, 1))
    assert pic.get_at((x, y)) == ref.get_at((x, y))


def test_a_map_with_an_image_layer_is_drawn_part_by_part_as_its_whole_picture() -> None:
    # (the region painter draws image layers and tile objects too: issue 34 item 9)
    from game.shell.mapcache import MapCache

    md = load_map(FIX / "order-and-offsets.tmx")
    picture = tiled_picture(md)
    assert picture.region is not None
    cache = MapCache(picture, md.layout, md.painted_hexes())
    assert pygame.image.tobytes(cache.get(1.0), "RGB") == pygame.image.tobytes(picture(), "RGB")


def test_map_chunks_are_drawn_from_the_tiles_and_match_the_whole_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.shell.mapcache import MapCache

    tiles.clear_caches()
    for name in ("layout-pointy-odd", "layout-flat-even"):
        md = load_map(FIX / f"{name}.tmx")
        picture = tiled_picture(md)
        whole = picture()
        scales = _sizes_drawn(monkeypatch)
        cache = MapCache(picture, md.layout, md.board.terrain.keys() if md.has_terrain else md.painted_hexes())
        got = cache.get(1.0, grid=False)
        assert scales == []  # the whole map was never drawn for the chunks
        w, h = whole.get_size()
        assert got.get_size() == (w, h)
        assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(whole, "RGB"), name
        half = cache.get(0.5, grid=False)
        ref = pygame.transform.smoothscale(whole, half.get_size())
        a, b = pygame.image.tobytes(half, "RGB"), pygame.image.tobytes(ref, "RGB")
        mean = sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(a)
        assert mean < 12, (name, mean)  # the same picture, up to the resampling of tile edges
        monkeypatch.undo()
