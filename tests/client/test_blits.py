"""blits.blit copies an opaque picture exactly as Surface.blit does, whatever the width, clip and
source area, in one copy or two (it splits only where SDL's row copy is slow)."""

from __future__ import annotations

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from game.shell.toolkit import blits


def _picture(w: int, h: int) -> pygame.Surface:
    pic = pygame.Surface((w, h))
    for x in range(0, w, 3):
        pic.fill(((x * 7) % 256, (x * 13) % 256, (x // 3) % 256), pygame.Rect(x, 0, 3, h))
    for y in range(0, h, 5):
        pic.fill(((y * 11) % 256, 40, 200), pygame.Rect(0, y, w, 1))
    return pic


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 300), st.integers(1, 60), st.integers(-40, 260), st.integers(-20, 70),
       st.none() | st.tuples(st.integers(-30, 250), st.integers(-10, 50), st.integers(0, 300), st.integers(0, 60)),
       st.none() | st.tuples(st.integers(-10, 250), st.integers(-10, 70), st.integers(0, 300), st.integers(0, 80)))
def test_a_split_copy_draws_the_same_pixels_and_rectangle_as_one_blit(w: int, h: int, x: int, y: int,
                                                                       area: tuple[int, int, int, int] | None,
                                                                       clip: tuple[int, int, int, int] | None) -> None:
    src = _picture(w, h)
    want, got = pygame.Surface((256, 72)), pygame.Surface((256, 72))
    want.fill((1, 2, 3))
    got.fill((1, 2, 3))
    if clip is not None:
        want.set_clip(pygame.Rect(clip))
        got.set_clip(pygame.Rect(clip))
    rect = None if area is None else pygame.Rect(area)
    a = want.blit(src, (x, y), rect)
    b = blits.blit(got, src, (x, y), rect)
    assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(want, "RGB")
    assert got.get_clip() == want.get_clip()  # the caller's clip is left as it was
    if a.w and a.h:
        assert b == a


def test_a_view_wide_copy_is_made_in_two_parts_at_a_multiple_of_16_pixels() -> None:
    calls: list[pygame.Rect] = []
    real = pygame.Surface.blit

    class Spy(pygame.Surface):
        def blit(self, *args, **kwargs):  # type: ignore[override]
            calls.append(self.get_clip())
            return real(self, *args, **kwargs)

    dst = Spy((1000, 100))
    blits.blit(dst, _picture(908, 100), (0, 0))
    assert [c.w for c in calls] == [896, 12]
    calls.clear()
    blits.blit(dst, _picture(896, 100), (0, 0))  # already a multiple of 16: one copy
    assert len(calls) == 1
