"""Comparing the project's render of a map with Tiled's own (`tmxrasterizer`, Debian's `tiled`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

RASTERIZER = shutil.which("tmxrasterizer")


def tiled_render(map_path: Path, out: Path) -> Path:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(out.parent))
    assert RASTERIZER is not None
    subprocess.run([RASTERIZER, str(map_path), str(out)], env=env, capture_output=True, timeout=120, check=True)
    return out


@dataclass(frozen=True)
class Diff:
    size_ours: tuple[int, int]
    size_tiled: tuple[int, int]
    pixels: int          # pixels compared
    differing: int       # pixels whose colour differs by more than the tolerance
    inner_differing: int  # of those, pixels not on an edge (every neighbour alike in Tiled's image)
    worst: int           # the largest channel difference seen on an inner pixel

    @property
    def inner_fraction(self) -> float:
        return self.inner_differing / max(1, self.pixels)

    def describe(self) -> str:
        return (f"{self.size_ours[0]}x{self.size_ours[1]} vs Tiled {self.size_tiled[0]}x{self.size_tiled[1]}: "
                f"{self.differing} of {self.pixels} px differ by >{TOLERANCE} (edges included), "
                f"{self.inner_differing} away from edges ({100 * self.inner_fraction:.3f}%), worst inner {self.worst}")


TOLERANCE = 24  # per channel, on colours premultiplied by alpha (rounding, smooth scaling)


def compare(ours: Path, theirs: Path) -> Diff:
    import pygame

    a = pygame.image.load(str(ours))
    b = pygame.image.load(str(theirs))
    w, h = a.get_size()
    if a.get_size() != b.get_size():
        return Diff(a.get_size(), b.get_size(), 0, 0, 0, 0)
    pa = pygame.image.tobytes(a, "RGBA")
    pb = pygame.image.tobytes(b, "RGBA")

    def px(buf: bytes, i: int) -> tuple[int, int, int, int]:
        r, g, bl, al = buf[4 * i:4 * i + 4]
        return r * al // 255, g * al // 255, bl * al // 255, al

    qa = [px(pa, i) for i in range(w * h)]
    qb = [px(pb, i) for i in range(w * h)]
    differing = inner = worst = 0
    for y in range(h):
        for x in range(w):
            i = y * w + x
            d = max(abs(u - v) for u, v in zip(qa[i], qb[i], strict=True))
            if d <= TOLERANCE:
                continue
            differing += 1
            ref = qb[i]
            edge = False
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    xx, yy = x + dx, y + dy
                    if 0 <= xx < w and 0 <= yy < h:
                        n = qb[yy * w + xx]
                        if max(abs(u - v) for u, v in zip(n, ref, strict=True)) > TOLERANCE:
                            edge = True
            if not edge:
                inner += 1
                worst = max(worst, d)
    return Diff((w, h), b.get_size(), w * h, differing, inner, worst)
