"""Fonts for text drawn directly on the map (counters, floating text, charts).

The UI toolkit's own Noto Sans (shipped with pygame_gui under the SIL Open Font Licence) keeps
the map text consistent with the panels; pygame's default font is the fallback.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame
import pygame_gui


def _noto(bold: bool, italic: bool = False) -> Path | None:
    data = Path(pygame_gui.__file__).parent / "data"
    style = ("Bold" if bold else "") + ("Italic" if italic else "") or "Regular"
    path = data / f"NotoSans-{style}.ttf"
    return path if path.exists() else None


_quit_hooked = False


def _forget_fonts() -> None:
    """pygame.quit() invalidates every font made before it: the next call makes them again."""
    global _quit_hooked
    _quit_hooked = False
    font.cache_clear()


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, italic: bool = False) -> pygame.font.Font:
    global _quit_hooked
    if not pygame.font.get_init():
        pygame.font.init()
    if not _quit_hooked:  # a window closed and opened again in one process (tests, a restart)
        pygame.register_quit(_forget_fonts)
        _quit_hooked = True
    path = _noto(bold, italic)
    size = max(6, int(size))
    if path is not None:
        return pygame.font.Font(str(path), size)
    f = pygame.font.Font(None, int(size * 1.3))
    f.set_bold(bold)
    f.set_italic(italic)
    return f


def _render(s: str, size: int, colour: tuple[int, int, int], bold: bool) -> pygame.Surface:
    """Render with a cached font; a pygame.quit()/init() cycle invalidates cached fonts, so on
    'Invalid font' the font cache is dropped and the font made again."""
    try:
        return font(size, bold).render(s, True, colour)
    except pygame.error:
        font.cache_clear()
        return font(size, bold).render(s, True, colour)


@lru_cache(maxsize=512)
def text(s: str, size: int, colour: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
    """A rendered line of text (cached: the same label is drawn every frame)."""
    return _render(s, size, colour, bold)


def outlined(s: str, size: int, colour: tuple[int, int, int], bold: bool = True) -> pygame.Surface:
    """Text with a dark outline, readable over any terrain."""
    return _outlined(s, size, colour, bold)


@lru_cache(maxsize=256)
def _outlined(s: str, size: int, colour: tuple[int, int, int], bold: bool) -> pygame.Surface:
    fg = _render(s, size, colour, bold)
    bg = _render(s, size, (10, 10, 12), bold)
    w, h = fg.get_width() + 2, fg.get_height() + 2
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    for dx, dy in ((0, 1), (2, 1), (1, 0), (1, 2)):
        out.blit(bg, (dx, dy))
    out.blit(fg, (1, 1))
    return out


def wrap_px(line: str, size: int, width: int, bold: bool = False, indent: str = "  ") -> list[str]:
    """`line` cut at spaces into pieces no wider than `width` pixels (a word wider than the
    box is cut after its last "/" that fits, a file's path at a folder, else between letters),
    the pieces after the first indented."""
    f = font(size, bold)
    out: list[str] = []
    rest = line
    while rest:
        if f.size(rest)[0] <= width:
            out.append(rest)
            break
        words = rest.split(" ")
        cut = ""
        for i in range(1, len(words) + 1):
            trial = " ".join(words[:i])
            if f.size(trial)[0] > width:
                break
            cut = trial
        if not cut.strip():  # one word wider than the box: cut it between letters
            n = len(rest)
            while n > 1 and f.size(rest[:n])[0] > width:
                n -= 1
            slash = rest.rfind("/", 0, n)
            cut = rest[:slash + 1] if slash > len(indent) else rest[:n]
        out.append(cut)
        rest = rest[len(cut):].lstrip()
        if rest:
            rest = indent + rest
    return out or [""]
