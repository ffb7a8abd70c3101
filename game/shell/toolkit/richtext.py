"""Rich text laid out by the project: the side panels' unit card and hex box.

A text is either styled pieces (`Styled`: lines of `Span`s, built with `styled(...)`: nothing to
parse, nothing to escape) or, for the older callers, a small HTML subset (`<b>`, `<i>`,
`<font color=...>`, `<br>` and entities; game/systems/tactical/client/text.py). pygame_gui's text box parses it with a general HTML parser and lays it
out through its own text chunks: 2-6 ms for a unit card, on every click and every new hex the
mouse crosses (docs/performance.md, "Fifth pass"). Here the same subset is parsed by one regular
expression, wrapped by measuring words (`Font.size`) and rendered one run of a style per line
(`Font.render`): a fifth of a millisecond for the same card. Whatever else the markup holds is
shown as its text (an unknown tag is dropped, a lone `<` is a character).

`RichTextBox` is a pygame_gui element (themed like a text box: background, border, padding and
font from the theme's `text_box` block) showing one laid-out text, scrolled with the mouse wheel
over it or by dragging its bar when the text is taller than the box.
"""

from __future__ import annotations

import bisect
import html as _html
import re
from collections import OrderedDict
from typing import Any, NamedTuple

import pygame
import pygame_gui
from pygame_gui.core import UIElement

from game.shell import fonts


class Span(NamedTuple):
    """A piece of text in one style; `colour` None is the box's own text colour."""

    text: str
    bold: bool = False
    italic: bool = False
    colour: tuple[int, int, int] | None = None


# A text as styled pieces: its lines, each a tuple of spans (hashable: texts are cached by it).
Styled = tuple[tuple[Span, ...], ...]
Content = str | Styled  # what a RichTextBox shows: markup or styled pieces


def styled(*pieces: Span | str) -> Styled:
    """Lines of spans from pieces in reading order: a plain string is a span in the box's own
    style; a new line starts at each "\n" inside a piece (its style carries on)."""
    lines: list[list[Span]] = [[]]
    for piece in pieces:
        span = Span(piece) if isinstance(piece, str) else piece
        parts = span.text.split("\n")
        for n, part in enumerate(parts):
            if n:
                lines.append([])
            if part:
                lines[-1].append(span._replace(text=part))
    return tuple(tuple(line) for line in lines)


def lines_of(content: Content) -> list[list[Span]]:
    """The lines of spans of a text: styled pieces as they are, markup parsed."""
    return parse(content) if isinstance(content, str) else [list(line) for line in content]


def plain(content: Content) -> str:
    """The text without its styles, a line per line (tests, logs)."""
    return "\n".join("".join(sp.text for sp in line) for line in lines_of(content))


# a tag (closing or not, its name, its attributes) or text up to the next "<" (or a lone "<")
_TOKEN = re.compile(r"<\s*(/?)\s*([A-Za-z]+)([^<>]*)>|([^<]+|<)")
_COLOUR = re.compile(r"""colou?r\s*=\s*['"]?\s*([#\w]+)""", re.IGNORECASE)
_PIECE = re.compile(r"\S+\s*|\s+")


def _colour(attrs: str) -> tuple[int, int, int] | None:
    m = _COLOUR.search(attrs)
    if m is None:
        return None
    try:
        c = pygame.Color(m.group(1))
    except ValueError:  # an unknown colour name: the text keeps the colour around it
        return None
    return (c.r, c.g, c.b)


def parse(markup: str) -> list[list[Span]]:
    """The markup as lines (split at `<br>`) of styled spans; `<b>`/`<strong>`, `<i>`/`<em>`
    and `<font color>` nest, a closing tag ends the latest of its kind (a stray one is
    ignored), entities are decoded and other tags dropped."""
    lines: list[list[Span]] = [[]]
    bold = italic = 0
    colours: list[tuple[int, int, int] | None] = []
    for m in _TOKEN.finditer(markup):
        closing, tag, attrs, words = m.groups()
        if words is not None:
            s = _html.unescape(words).replace("\n", " ")
            if s:
                lines[-1].append(Span(s, bold > 0, italic > 0, colours[-1] if colours else None))
            continue
        tag = tag.lower()
        if tag == "br":
            lines.append([])
        elif tag in ("b", "strong"):
            bold = max(0, bold - 1) if closing else bold + 1
        elif tag in ("i", "em"):
            italic = max(0, italic - 1) if closing else italic + 1
        elif tag == "font":
            if closing:
                if colours:
                    colours.pop()
            else:
                colours.append(_colour(attrs) or (colours[-1] if colours else None))
    return lines


class Run(NamedTuple):
    """One run of a style on a laid-out line: where it starts (x), its text and style."""

    x: int
    text: str
    bold: bool
    italic: bool
    colour: tuple[int, int, int] | None


def wrap(lines: list[list[Span]], width: int, size: int) -> list[list[Run]]:
    """The lines broken to fit `width` pixels: at spaces, a word wider than the box after its
    last "/" or "-" that fits (a file's path at a folder, a name between its parts: cut_at),
    else at the character that no longer fits. Spaces that end a broken line are dropped. Neighbouring
    pieces of one style on a line are one run (rendered in one call)."""
    out: list[list[Run]] = []
    for spans in lines:
        row: list[list[Any]] = []  # [x, pieces, span] per run of the line being filled
        x = 0
        for span in spans:
            style = (size, span.bold, span.italic)
            font = fonts.font(*style)
            for piece in _PIECE.findall(span.text):
                word = piece.rstrip()
                w_word = _width(font, style, word)
                if row and word and x + w_word > width:
                    out.append(_ended(row))
                    row, x = [], 0
                if not row and not word:
                    continue  # no space at the start of a line
                while word and not row and w_word > width:  # one word wider than the box
                    n = _fits(font, word, width)
                    n = cut_at(word, n)
                    out.append(_ended([[0, [word[:n]], span]]))
                    word, piece = word[n:], piece[n:]
                    w_word = _width(font, style, word)
                if not piece:
                    continue
                last = row[-1][2] if row else None
                if last is not None and (last.bold, last.italic, last.colour) == (span.bold, span.italic, span.colour):
                    row[-1][1].append(piece)
                else:
                    row.append([x, [piece], span])
                x += _width(font, style, piece)
        out.append(_ended(row))
    return out


_WIDTHS: dict[tuple[Any, ...], int] = {}  # (size, bold, italic, text) -> pixels; words repeat


def _width(font: pygame.font.Font, style: tuple[int, bool, bool], s: str) -> int:
    if not s:
        return 0
    key = (*style, s)
    w = _WIDTHS.get(key)
    if w is None:
        if len(_WIDTHS) > 20000:
            _WIDTHS.clear()
        w = _WIDTHS[key] = font.size(s)[0]
    return w


def _fits(font: pygame.font.Font, word: str, width: int) -> int:
    """How many characters of `word` fit `width` (at least one)."""
    lo, hi = 1, len(word)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(word[:mid])[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def cut_at(word: str, n: int) -> int:
    """Where to cut a word wider than the box whose first `n` characters fit: after the last
    "/" among them (a file's path at a folder), else after the last "-" (a file's name between
    its parts), else at `n`, between letters."""
    for mark in ("/", "-"):
        at = word.rfind(mark, 0, n)
        if at > 0:
            return at + 1
    return n


def _ended(row: list[list[Any]]) -> list[Run]:
    """A finished line as runs, the spaces it ends with dropped."""
    runs = [Run(x, "".join(pieces), span.bold, span.italic, span.colour) for x, pieces, span in row]
    if runs:
        last = runs[-1]
        runs[-1] = Run(last.x, last.text.rstrip(), last.bold, last.italic, last.colour)
        if not runs[-1].text:
            runs.pop()
    return runs


def line_height(size: int) -> int:
    return int(round(fonts.font(size).get_linesize() * 1.15))


def render(rows: list[list[Run]], width: int, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """The laid-out rows drawn on a clear surface `width` wide and as tall as they need."""
    step = line_height(size)
    out = pygame.Surface((max(1, width), max(1, step * len(rows))), pygame.SRCALPHA)
    base = fonts.font(size).get_ascent()
    for i, row in enumerate(rows):
        for r in row:
            font = fonts.font(size, r.bold, r.italic)
            img = font.render(r.text, True, r.colour or colour)
            out.blit(img, (r.x, i * step + base - font.get_ascent()))
    return out


MAX_LINE_CHARS = 4000  # a unit card's line is under 200; more is cut, and says so
MAX_LINES = 1000  # the dice log shows about 200


def bounded(lines: list[list[Span]]) -> list[list[Span]]:
    """The lines as shown: at most MAX_LINES of them and MAX_LINE_CHARS characters each, what is
    cut marked with an ellipsis (a scenario's 10 MB description would otherwise be laid out as a
    picture of half a million rows)."""
    out = []
    for spans in lines[:MAX_LINES]:
        if sum(len(sp.text) for sp in spans) > MAX_LINE_CHARS:
            kept, room = [], MAX_LINE_CHARS
            for sp in spans:
                if room <= 0:
                    break
                kept.append(sp._replace(text=sp.text[:room]))
                room -= len(sp.text)
            kept.append(Span("…"))
            spans = kept
        out.append(spans)
    if len(lines) > MAX_LINES:
        out.append([Span(f"… ({len(lines) - MAX_LINES} more lines)")])
    return out


class Laid(NamedTuple):
    """A text laid out: each line's picture (what lies between two `<br>`, wrapped), where each
    starts, and the height of all; only the lines in view are drawn (a dice log is 7,000 pixels
    tall)."""

    lines: tuple[pygame.Surface, ...]
    tops: tuple[int, ...]
    height: int

    def draw(self, target: pygame.Surface, at: tuple[int, int], top: int, height: int) -> None:
        """Draw the part from `top` to `top + height` at `at` on `target`."""
        i = max(0, bisect.bisect_right(self.tops, top) - 1)
        x, y = at
        while i < len(self.lines) and self.tops[i] < top + height:
            pic, y0 = self.lines[i], self.tops[i]
            skip = max(0, top - y0)  # the rows of this line above the part shown
            rows = min(pic.get_height() - skip, top + height - y0 - skip)
            if rows > 0:
                target.blit(pic, (x, y + y0 + skip - top), pygame.Rect(0, skip, pic.get_width(), rows))
            i += 1


class TextCache:
    """Laid-out texts by (markup, width, size, colour), the least recently used dropped first:
    a text shown a moment ago (the mouse back on a hex) is not laid out again. Each line is laid
    out and kept on its own too: a dice log that gained a command lays out that command's lines,
    not the two hundred it already showed."""

    def __init__(self, size: int = 24, lines: int = 600) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[Any, ...], Laid] = OrderedDict()
        self._lines_size = lines
        self._lines: OrderedDict[tuple[Any, ...], pygame.Surface] = OrderedDict()
        self.built = 0  # how many texts were laid out (tests)
        self.lines_built = 0  # how many of their lines were (tests)

    def get(self, markup: Content, width: int, size: int, colour: tuple[int, int, int]) -> Laid:
        key = (markup, width, size, colour)
        got = self._kept.get(key)
        if got is not None:
            self._kept.move_to_end(key)
            return got
        pics = tuple(self._line(tuple(spans), width, size, colour) for spans in bounded(lines_of(markup)))
        tops, y = [], 0
        for p in pics:
            tops.append(y)
            y += p.get_height()
        got = Laid(pics, tuple(tops), y)
        self.built += 1
        self._kept[key] = got
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return got

    def _line(self, spans: tuple[Span, ...], width: int, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        key = (spans, width, size, colour)
        got = self._lines.get(key)
        if got is not None:
            self._lines.move_to_end(key)
            return got
        got = render(wrap([list(spans)], width, size), width, size, colour)
        self.lines_built += 1
        self._lines[key] = got
        if len(self._lines) > self._lines_size:
            self._lines.popitem(last=False)
        return got


BAR_W = 6  # the scroll bar's width, when the text is taller than the box


class RichTextBox(UIElement):
    """A box of rich text in the UI: themed as pygame_gui's text box, scrolled by the wheel
    over it or by dragging the bar. `html_text` is the markup shown, `scroll` the pixels
    scrolled, `text_height` the height the text needs. The text is styled pieces (`styled`) or
    markup."""

    def __init__(self, markup: Content, relative_rect: pygame.Rect, manager: pygame_gui.UIManager, *,
                 visible: int = 1, object_id: Any = None, cache: TextCache | None = None,
                 container: Any = None) -> None:
        super().__init__(relative_rect, manager, container, starting_height=1, layer_thickness=1,
                         visible=visible, object_id=object_id, element_id=["text_box"])
        theme = self.ui_theme
        ids = self.combined_element_ids
        self._bg = _rgb(theme.get_colour("dark_bg", ids))
        self._edge = _rgb(theme.get_colour("normal_border", ids))
        self._ink = _rgb(theme.get_colour("normal_text", ids))
        self._bar = _rgb(theme.get_colour("normal_border", ids))
        self._size = int(theme.get_font_info(ids).get("size", 13) or 13)
        self._pad = _padding(theme, ids)
        self._border = _misc_int(theme, ids, "border_width", 1)
        self._cache = cache or TextCache()
        self._drag: tuple[int, int] | None = None  # (mouse y, scroll) when the bar was grabbed
        self.html_text = markup
        self.scroll = 0
        self.text_height = 0
        self._text: Laid | None = None
        self.redraws = 0  # pictures drawn in place (toolkit_draw: a changed element is drawn again)
        self._redraw(new_text=True)

    # ---------------------------------------------------------------- what it shows
    def set_text(self, markup: Content) -> None:
        """Show other text (styled pieces or markup), from its top."""
        if markup == self.html_text:
            return
        self.html_text = markup
        self.scroll = 0
        self._redraw(new_text=True)

    def set_dimensions(self, dimensions: Any, clamp_to_container: bool = False) -> None:
        super().set_dimensions(dimensions, clamp_to_container)
        self._redraw(new_text=True)

    @property
    def text_width(self) -> int:
        """The width the text is wrapped to: inside the border and padding, and the bar."""
        return max(1, int(self.rect.w) - 2 * (self._border + self._pad[0]) - BAR_W - 2)

    @property
    def view_height(self) -> int:
        return max(1, int(self.rect.h) - 2 * (self._border + self._pad[1]))

    @property
    def max_scroll(self) -> int:
        return max(0, self.text_height - self.view_height)

    def _redraw(self, new_text: bool = False) -> None:
        if new_text or self._text is None:
            self._text = self._cache.get(self.html_text, self.text_width, self._size, self._ink)
            self.text_height = self._text.height if self.html_text else 0
            self.scroll = min(self.scroll, self.max_scroll)
        w, h = self.rect.size
        img = self.image
        fresh = img is None or img.get_size() != (max(1, w), max(1, h)) or self.get_image_clipping_rect() is not None
        if fresh:
            img = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
        self.redraws += 1
        img.fill(self._bg)  # (opaque: the same under the toolkit's premultiplied blending)
        inner = pygame.Rect(self._border + self._pad[0], self._border + self._pad[1],
                            self.text_width, self.view_height)
        if self.html_text:
            self._text.draw(img, inner.topleft, self.scroll, inner.h)
        bar = self.bar_rect(local=True)
        if bar is not None:
            track = pygame.Rect(bar.x, inner.y, bar.w, inner.h)
            pygame.draw.rect(img, _mix(self._bg, self._bar, 0.35), track, border_radius=3)
            pygame.draw.rect(img, self._bar, bar, border_radius=3)
        if self._border:
            pygame.draw.rect(img, self._edge, img.get_rect(), self._border)
        if fresh:
            _show(self, img)  # else drawn again in place: the toolkit blits it as it is

    def bar_rect(self, local: bool = False) -> pygame.Rect | None:
        """The scroll bar's thumb (None when all the text fits); in window coordinates unless
        `local`."""
        if self.max_scroll <= 0:
            return None
        inner_h = self.view_height
        top = self._border + self._pad[1]
        thumb = max(16, inner_h * inner_h // max(1, self.text_height))
        y = top + (inner_h - thumb) * self.scroll // max(1, self.max_scroll)
        x = self.rect.w - self._border - self._pad[0] // 2 - BAR_W
        r = pygame.Rect(x, y, BAR_W, thumb)
        return r if local else r.move(self.rect.topleft)

    def scroll_to(self, pixels: int) -> None:
        s = max(0, min(self.max_scroll, int(pixels)))
        if s != self.scroll:
            self.scroll = s
            self._redraw()

    # ---------------------------------------------------------------- input
    def process_event(self, event: pygame.event.Event) -> bool:
        """The wheel over a box with more text than room scrolls it (and is used up); a press
        on the bar grabs it until released. Everything else passes through."""
        if not self.visible or self.max_scroll <= 0:
            self._drag = None
            return False
        if event.type == pygame.MOUSEWHEEL:
            if self.hover_point(*self.ui_manager.get_mouse_position()):
                self.scroll_to(self.scroll - int(event.y) * 3 * line_height(self._size))
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            bar = self.bar_rect()
            if bar is not None and bar.inflate(6, 0).collidepoint(event.pos):
                self._drag = (event.pos[1], self.scroll)
                return True
            if self.rect.collidepoint(event.pos) and event.pos[0] >= self.rect.right - BAR_W - 8:
                page = self.view_height - line_height(self._size)  # the track: a page up or down
                self.scroll_to(self.scroll + (page if bar is not None and event.pos[1] > bar.bottom else -page))
                return True
            return False
        if event.type == pygame.MOUSEMOTION and self._drag is not None:
            y0, s0 = self._drag
            thumb = self.bar_rect()
            room = self.view_height - (thumb.h if thumb is not None else 0)
            self.scroll_to(s0 + (event.pos[1] - y0) * self.max_scroll // max(1, room))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag is not None:
            self._drag = None
            return True
        return False


def _show(element: UIElement, img: pygame.Surface) -> None:
    """Give an element a picture just made for it. The toolkit's `_set_image` copies every new
    picture (for the dialog's body a megabyte, 2 ms of the first frame); one made here belongs to
    nobody else, so it is taken as it is, unless the element is clipped by its container, where
    the toolkit's own path cuts a copy."""
    if element.get_image_clipping_rect() is None:
        element.image = img
        element._pre_clipped_image = None
    else:
        element._set_image(img)


def _rgb(c: Any) -> tuple[int, int, int]:
    return (int(c[0]), int(c[1]), int(c[2]))


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _misc_int(theme: Any, ids: list[str], name: str, default: int) -> int:
    try:
        return int(theme.get_misc_data(name, ids))
    except (LookupError, ValueError, TypeError):
        return default


def _padding(theme: Any, ids: list[str]) -> tuple[int, int]:
    try:
        x, y = (int(p) for p in str(theme.get_misc_data("padding", ids)).split(","))
        return (x, y)
    except (LookupError, ValueError, TypeError):
        return (6, 4)


class TextLine(UIElement):
    """One line of plain text in the UI, themed as pygame_gui's label (the theme's `label` block
    and the element's class, e.g. `@title`): the same font object the toolkit's own elements use,
    its text colour, the line at the left, centred in the height as the toolkit's label centres
    it (tests/client/test_text_line.py compares the two pixel for pixel).

    The toolkit's label builds a drawable shape with a text layout for each text it is given:
    1.4 ms a label, four of them in the game's first frame (the top bar's status and hint, the
    dice log's title, the briefing's title) and again at every new status or hint. This renders
    the line once (~0.1 ms). `text` is what it shows, `font` the font (for measuring)."""

    def __init__(self, relative_rect: pygame.Rect, text: str, manager: pygame_gui.UIManager, *,
                 container: Any = None, object_id: Any = None) -> None:
        super().__init__(relative_rect, manager, container, starting_height=1, layer_thickness=1,
                         object_id=object_id, element_id=["label"])
        ids = self.combined_element_ids
        self.font = self.ui_theme.get_font(ids)
        self._ink = self.ui_theme.get_colour("normal_text", ids)
        self.text = ""
        self._draw(text)

    def set_text(self, text: str) -> None:
        if text != self.text:
            self._draw(text)

    def set_dimensions(self, dimensions: Any, clamp_to_container: bool = False) -> None:
        super().set_dimensions(dimensions, clamp_to_container)
        self._draw(self.text)

    def _draw(self, text: str) -> None:
        self.text = text
        w, h = max(1, int(self.rect.w)), max(1, int(self.rect.h))
        img = pygame.Surface((w, h), pygame.SRCALPHA)  # clear; the toolkit blits premultiplied
        if text:
            line = self.font.render_premul(text, self._ink)
            img.blit(line, (0, (h - line.get_height()) // 2), special_flags=pygame.BLEND_PREMULTIPLIED)
        _show(self, img)
