"""The veil behind dialogs (game.shell.draw.shade): darkened as a black veil would darken it."""

from __future__ import annotations

import pygame

from game.shell.draw import shade


def _veiled(colour: tuple[int, int, int], alpha: int) -> tuple[int, int, int]:
    """What blending a black veil of opacity `alpha` over `colour` gives (pygame's own blit)."""
    under = pygame.Surface((1, 1))
    under.fill(colour)
    veil = pygame.Surface((1, 1), pygame.SRCALPHA)
    veil.fill((0, 0, 0, alpha))
    under.blit(veil, (0, 0))
    c = under.get_at((0, 0))
    return (c.r, c.g, c.b)


def test_shade_darkens_every_pixel_as_a_black_veil_would_within_one_level() -> None:
    colours = [(0, 0, 0), (255, 255, 255), (90, 120, 60), (201, 164, 92), (14, 16, 19), (1, 254, 128)]
    for alpha in (0, 1, 140, 150, 254, 255):
        surf = pygame.Surface((len(colours), 1))
        for x, c in enumerate(colours):
            surf.set_at((x, 0), c)
        shade(surf, alpha)
        for x, c in enumerate(colours):
            got = surf.get_at((x, 0))
            want = _veiled(c, alpha)
            assert all(abs(g - w) <= 1 for g, w in zip((got.r, got.g, got.b), want, strict=True)), (c, alpha, got, want)


def test_shade_of_zero_leaves_the_picture_and_full_shade_makes_it_black() -> None:
    surf = pygame.Surface((3, 2))
    surf.fill((90, 120, 60))
    shade(surf, 0)
    assert surf.get_at((1, 1))[:3] == (90, 120, 60)
    shade(surf, 255)
    assert surf.get_at((2, 0))[:3] == (0, 0, 0)
