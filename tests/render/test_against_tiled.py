"""The project's render against Tiled's own renderer, `tmxrasterizer` (Debian/Ubuntu package
`tiled`; skipped when it is not installed). Same picture size, and the same colour on every pixel
away from the edges of shapes (anti-aliasing on edges may differ)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.__main__ import main
from tests import tiledfix as tf
from tests.render.tiledcompare import RASTERIZER, compare, tiled_render

pytestmark = pytest.mark.skipif(RASTERIZER is None, reason="Tiled's tmxrasterizer is not installed (apt install tiled)")

FD, R120, FH, FV = 0x20000000, 0x10000000, 0x80000000, 0x40000000
FLAGS = [0, FD, R120, FD | R120, FH, FV, FH | FD, FV | R120]


def _rotated() -> dict[str, Any]:
    g = tf.pattern(6, 5)
    return {"layers": [tf.Layer("ground", [[v | FLAGS[(c + r) % len(FLAGS)] for c, v in enumerate(row)]
                                           for r, row in enumerate(g)])]}


def _sparse(tile: int, keep: Callable[[int, int], bool]) -> list[list[int]]:
    return [[tile if keep(c, r) else 0 for c in range(6)] for r in range(5)]


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "plain": dict,
    "rotations-60-120-and-flips": _rotated,
    "layer-tint": lambda: {"layers": [tf.Layer("ground", tf.pattern(6, 5)),
                                      tf.Layer("over", _sparse(2, lambda c, r: (c + r) % 3 == 0), tint="#c0ff8040")]},
    "group-tint": lambda: {"layers": [tf.Layer("ground", tf.pattern(6, 5), tint="#ffa0c0ff")], "group_tint": "#ff80ff80"},
    "offsets-past-the-canvas": lambda: {"layers": [
        tf.Layer("ground", tf.pattern(6, 5)), tf.Layer("up-left", _sparse(3, lambda c, r: c == 0 or r == 0), offset=(-40, -25)),
        tf.Layer("down-right", _sparse(4, lambda c, r: c == 5), offset=(30, 50))]},
    "opacity": lambda: {"layers": [tf.Layer("ground", tf.pattern(6, 5)), tf.Layer("ghost", _sparse(3, lambda c, r: True),
                                                                             opacity=0.5)]},
    "zstd": lambda: {"encoding": "zstd"},
    "gzip": lambda: {"encoding": "gzip"},
}
LAYOUTS = [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")]
FIGURES: list[str] = []


def _both(folder: Path, m: Path) -> tuple[Path, Path]:
    ours, theirs = folder / "ours.png", folder / "tiled.png"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["render", str(m), "--out", str(ours), "--no-units"]) == 0
    tiled_render(m, theirs)
    return ours, theirs


# Placement and rotation depend on the layout: all four. The rest: one pointy and one flat layout.
MATRIX = [(case, axis, index) for case in CASES for axis, index in LAYOUTS
          if case in ("plain", "rotations-60-120-and-flips") or (axis, index) in (("y", "odd"), ("x", "even"))]


@pytest.mark.parametrize(("case", "axis", "index"), MATRIX)
def test_our_render_matches_tmxrasterizer_away_from_edges(tmp_path, case, axis, index):
    m = tf.foreign_map(tmp_path, axis, index, **CASES[case]())
    d = compare(*_both(tmp_path, m))
    print(f"{case} {axis}-{index}: {d.describe()}")
    assert d.size_ours == d.size_tiled, d.describe()
    assert d.inner_fraction <= 0.001, d.describe()
    assert d.differing <= 0.02 * d.pixels, d.describe()  # edge pixels only, and few


def test_tile_objects_are_drawn_where_tiled_draws_them(tmp_path):
    # (Objects stamped from templates are not compared: tmxrasterizer 1.8 draws them as bare points,
    # without their template's tile. tests/io/test_tiled_maps.py checks where they land.)
    tsx = tf.tile_sheet(tmp_path)
    objs = ['<object id="1" gid="2" x="10" y="120" width="64" height="74"/>',
            '<object id="2" gid="3" x="200" y="200" width="32" height="37"/>',  # scaled down
            '<object id="3" gid="4" x="300" y="100"/>']  # no size given: the tile's own
    spec = tf.MapSpec(tilesets=[(1, tsx.name)], layers=[tf.Layer("ground", tf.pattern(6, 5))], objects=objs)
    m = tf.write_map(tmp_path / "objects.tmx", spec)
    d = compare(*_both(tmp_path, m))
    print(f"tile objects: {d.describe()}")
    assert d.size_ours == d.size_tiled and d.inner_fraction <= 0.001, d.describe()


@pytest.mark.slow  # big pictures compared pixel by pixel in Python: about a minute
@pytest.mark.parametrize("name", ["riverford", "hollow-ridge", "demo-movement"])
def test_the_shipped_maps_match_tmxrasterizer(tmp_path, name):
    root = Path(__file__).resolve().parents[2]
    m = root / "maps" / f"{name}.tmx"
    ours, theirs = tmp_path / "ours.png", tmp_path / "tiled.png"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["render", str(m), "--out", str(ours), "--no-units"]) == 0
    import os
    import subprocess

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(tmp_path))
    assert RASTERIZER is not None
    subprocess.run([RASTERIZER, "--hide-layer", "units", str(m), str(theirs)], env=env, capture_output=True,
                   timeout=120, check=True)  # unit objects are drawn by the game as counters, not by the map
    d = compare(ours, theirs)
    print(f"{name}: {d.describe()}")
    assert d.size_ours == d.size_tiled and d.inner_fraction <= 0.001, d.describe()
