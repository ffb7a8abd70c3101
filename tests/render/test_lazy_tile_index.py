"""The tile index of the lazily drawn map chunks, worked out per bucket on demand (so opening a
battle does not go over every cell of a big map: issue 14), holds exactly the entries of the
whole-map index in every bucket of every layer: on every shipped map and test fixture (pointy and
flat, odd and even, layer offsets, tall and offset tiles) and on the benchmark's painted map."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

from game.io.tmx import load_map  # noqa: E402
from game.render.tiles import REGION_BUCKET, MapRegions  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "tests" / "fixtures").glob("*.tmx")) + sorted((ROOT / "maps").rglob("*.tmx"))


def check_same_buckets(md: object) -> int:
    regions = MapRegions(md)  # type: ignore[arg-type]
    whole = regions._build_full_index()
    lazy = regions._build_index()
    w, h = md.layout.map_pixel_size  # type: ignore[attr-defined]
    entries = 0
    for full, part in zip(whole, lazy, strict=True):
        for bx in range(-2, w // REGION_BUCKET + 3):
            for by in range(-2, h // REGION_BUCKET + 3):
                want = full.get((bx, by), [])
                assert list(part.get((bx, by), ())) == want, (bx, by)
                entries += len(want)
    return entries


@pytest.fixture(autouse=True, scope="module")
def _display() -> object:
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    yield
    pygame.display.quit()


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_every_bucket_worked_out_on_demand_holds_the_whole_index_entries(path: Path) -> None:
    assert check_same_buckets(load_map(path)) > 0


def test_the_painted_benchmark_map_gets_the_same_buckets_lazily(tmp_path: Path) -> None:
    from game.systems.tactical.bench import bigmap

    battle = bigmap.big_battle(tmp_path, 40, 30, 20)
    assert check_same_buckets(battle.map_data) > 0


@pytest.mark.parametrize("layer_offset", [(-613.5, 777.0), (1000.0, -901.25), (0.0, 0.0)])
@pytest.mark.parametrize("tile_offset", [(0, 0), (-300, 420), (517, -260)])
def test_far_shifted_layers_and_tiles_still_get_the_same_buckets(layer_offset: tuple[float, float],
                                                                  tile_offset: tuple[int, int]) -> None:
    import dataclasses

    from game.io.tmx import TileLayer

    md = load_map(ROOT / "maps" / "hollow-ridge.tmx")
    layers = tuple(dataclasses.replace(la, offset=layer_offset) if isinstance(la, TileLayer) else la
                   for la in md.layers)
    tilesets = tuple(dataclasses.replace(ts, offset=tile_offset) for ts in md.tilesets)
    assert check_same_buckets(dataclasses.replace(md, layers=layers, tilesets=tilesets)) > 0
