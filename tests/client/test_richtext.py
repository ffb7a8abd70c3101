"""The side panels' own rich text (game/shell/toolkit/richtext.py): the markup subset parsed as the
panels write it, wrapped without losing or reordering a word and within the box, drawn in the
colours it names, kept once laid out, and a box scrolled by the wheel and its bar when the text
is taller than the box."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from game.shell import fonts  # noqa: E402
from game.shell.toolkit import richtext
from game.shell.toolkit.richtext import RichTextBox, Span, TextCache  # noqa: E402
from game.table import TABLE  # noqa: E402

INK = (230, 224, 210)


def test_parse_nests_bold_italic_and_colours_and_splits_lines_at_br() -> None:
    lines = richtext.parse("<font color='#ff0000'>red <b>bold red</b></font> plain<br><i>it</i> &gt; &amp;")
    assert lines == [
        [Span("red ", colour=(255, 0, 0)), Span("bold red", bold=True, colour=(255, 0, 0)), Span(" plain")],
        [Span("it", italic=True), Span(" > &")],
    ]


def test_parse_is_tolerant_of_stray_closing_tags_unknown_tags_and_a_lone_angle_bracket() -> None:
    lines = richtext.parse("</b>a <u>b</u> c < d <font color='nosuchcolour'>e</font></font><br><br>")
    assert lines == [[Span("a "), Span("b"), Span(" c "), Span("<"), Span(" d "), Span("e")], [], []]


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789·,+", min_size=1, max_size=14)
spans = st.lists(st.tuples(st.lists(words, min_size=1, max_size=6), st.booleans(), st.booleans()),
                 min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(spans, st.integers(min_value=30, max_value=320))
def test_wrapping_keeps_every_word_in_order_and_every_run_inside_the_box(parts: list[tuple[list[str], bool, bool]],
                                                                           width: int) -> None:
    pygame.font.init()
    markup = ""
    for ws, bold, italic in parts:
        text = " ".join(ws) + " "
        if bold:
            text = f"<b>{text}</b>"
        if italic:
            text = f"<i>{text}</i>"
        markup += text
    rows = richtext.wrap(richtext.parse(markup), width, 13)
    laid = "".join(r.text for row in rows for r in row)
    assert laid.replace(" ", "") == "".join(w for ws, _, _ in parts for w in ws)  # nothing lost or moved
    for row in rows:
        end = 0
        for r in row:
            assert r.x >= end - 1  # runs follow each other, never drawn over one another
            end = r.x + fonts.font(13, r.bold, r.italic).size(r.text)[0]
            assert end <= width + 1 or (r.x == 0 and len(r.text) == 1)  # only one glyph may be wider
        assert not row or not row[-1].text.endswith(" ")


def test_a_word_wider_than_the_box_is_broken_and_a_short_text_keeps_one_line() -> None:
    pygame.font.init()
    rows = richtext.wrap(richtext.parse("x" * 80), 60, 13)
    assert len(rows) > 1 and "".join(r.text for row in rows for r in row) == "x" * 80
    assert len(richtext.wrap(richtext.parse("Move 4 · cost 2"), 300, 13)) == 1


def test_text_is_drawn_in_the_colour_its_markup_names() -> None:
    pygame.font.init()
    img = richtext.render(richtext.wrap(richtext.parse("<font color='#ff0000'>MMMM</font> <b>WWWW</b>"), 300, 13),
                          300, 13, (0, 255, 0))
    colours = {tuple(img.get_at((x, y)))[:3] for x in range(img.get_width()) for y in range(img.get_height())
               if img.get_at((x, y)).a == 255}
    assert (255, 0, 0) in colours and (0, 255, 0) in colours  # the named colour and the box's own


def test_the_cache_lays_a_text_out_once_and_drops_the_least_recently_used() -> None:
    pygame.font.init()
    cache = TextCache(size=2)
    a = cache.get("a", 100, 13, INK)
    assert cache.get("a", 100, 13, INK) is a and cache.built == 1
    cache.get("b", 100, 13, INK)
    cache.get("a", 100, 13, INK)  # a used again: b is now the oldest
    cache.get("c", 100, 13, INK)
    assert cache.built == 3
    cache.get("a", 100, 13, INK)
    assert cache.built == 3
    cache.get("b", 100, 13, INK)
    assert cache.built == 4  # b was dropped


def _box(markup: str, h: int = 60) -> tuple[pygame_gui.UIManager, RichTextBox]:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((400, 300))
    ui = pygame_gui.UIManager((400, 300))
    return ui, RichTextBox(markup, pygame.Rect(20, 20, 200, h), ui)


def _wheel(ui: pygame_gui.UIManager, at: tuple[int, int], y: int) -> bool:
    ui.process_events(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    ui.mouse_position = at
    return bool(ui.process_events(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y)))


LONG = "<br>".join(f"line {i} of the card" for i in range(30))


def test_a_box_taller_text_scrolls_with_the_wheel_over_it_and_only_there() -> None:
    ui, box = _box(LONG)
    assert box.max_scroll > 0 and box.bar_rect() is not None
    assert not _wheel(ui, (350, 250), -1) and box.scroll == 0  # elsewhere: passed on (the map zooms)
    assert _wheel(ui, (60, 40), -1) and box.scroll > 0
    down = box.scroll
    assert _wheel(ui, (60, 40), -50) and box.scroll == box.max_scroll > down  # not past the end
    assert _wheel(ui, (60, 40), 50) and box.scroll == 0
    box.set_text(LONG + "<br>more")
    assert box.scroll == 0


def test_a_text_that_fits_has_no_bar_and_leaves_the_wheel_alone() -> None:
    ui, box = _box("short")
    assert box.max_scroll == 0 and box.bar_rect() is None
    assert not _wheel(ui, (60, 40), -1)


def test_dragging_the_bar_scrolls_the_text_with_the_pointer() -> None:
    ui, box = _box(LONG)
    bar = box.bar_rect()
    assert bar is not None
    ui.process_events(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=bar.center, button=1))
    ui.process_events(pygame.event.Event(pygame.MOUSEMOTION, pos=(bar.centerx, bar.centery + 400), rel=(0, 400),
                                         buttons=(1, 0, 0)))
    assert box.scroll == box.max_scroll
    ui.process_events(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(bar.centerx, 300), button=1))
    ui.process_events(pygame.event.Event(pygame.MOUSEMOTION, pos=(bar.centerx, 0), rel=(0, -300), buttons=(0, 0, 0)))
    assert box.scroll == box.max_scroll  # released: the pointer no longer moves it


def test_a_scrolled_text_shows_the_lines_a_single_picture_of_it_shows_there() -> None:
    pygame.font.init()
    cache = TextCache()
    markup = "<br>".join(f"<b>step {i}</b> the dice rolled {i % 7} and more words to wrap" for i in range(40))
    laid = cache.get(markup, 150, 13, INK)
    whole = richtext.render(richtext.wrap(richtext.parse(markup), 150, 13), 150, 13, INK)
    assert laid.height == whole.get_height()
    for top in (0, 7, 100, laid.height - 90):
        part = pygame.Surface((150, 90), pygame.SRCALPHA)
        laid.draw(part, (0, 0), top, 90)
        assert pygame.image.tobytes(part, "RGBA") == pygame.image.tobytes(whole.subsurface((0, top, 150, 90)), "RGBA")


def test_a_log_that_gained_a_line_lays_out_that_line_only() -> None:
    pygame.font.init()
    cache = TextCache()
    log = [f"<b>command {i}</b><br>roll {i}: 3 + 2 + d10" for i in range(50)]
    cache.get("<br>".join(log), 200, 13, INK)
    before = cache.lines_built
    cache.get("<br>".join(["<b>command 50</b>", *log]), 200, 13, INK)
    assert cache.lines_built == before + 1


def test_a_huge_text_is_cut_and_says_so_instead_of_becoming_a_huge_picture() -> None:
    pygame.font.init()
    cache = TextCache()
    laid = cache.get("word " * 200_000, 200, 13, INK)  # one line of a million characters
    assert laid.height < 200 * richtext.line_height(13)
    assert richtext.bounded([[Span("y" * 5000)]])[0][-1] == Span("…")  # a cut line says so
    many = "<br>".join(f"line {i}" for i in range(5000))
    laid = cache.get(many, 200, 13, INK)
    assert len(laid.lines) == richtext.MAX_LINES + 1  # and a last one saying how many more


def test_a_box_in_a_panel_is_placed_inside_it_and_scrolls_where_it_is_shown() -> None:
    pygame.font.init()
    pygame.display.set_mode((400, 300))
    ui = pygame_gui.UIManager((400, 300))
    panel = pygame_gui.elements.UIPanel(pygame.Rect(100, 50, 260, 200), manager=ui)
    box = RichTextBox(LONG, pygame.Rect(10, 30, 220, 120), ui, container=panel)
    inner = panel.get_container().get_rect()
    assert box.rect.topleft == (inner.x + 10, inner.y + 30)  # relative to the panel's inside
    assert panel.rect.contains(box.rect)  # placed in the panel (window coordinates)
    assert not _wheel(ui, (40, 100), -1) and box.scroll == 0  # where the box would be without its panel
    assert _wheel(ui, box.rect.center, -1) and box.scroll > 0


def test_a_dialog_body_is_a_rich_text_box_that_scrolls_a_long_text() -> None:
    from game.shell.app import App
    from game.shell.scenes.dialog import Choice, DialogScene

    app = App(TABLE, size=(960, 600), headless=True)
    body = "<br>".join(f"<b>line {i}</b> of a long help text" for i in range(80))
    dialog = DialogScene(app, "Controls", body, [Choice("Close")], size=(600, 400))
    assert isinstance(dialog.body, RichTextBox) and dialog.body.html_text == body
    assert dialog.rect.contains(dialog.body.rect)
    dialog.ui.update(0.0)
    assert _wheel(dialog.ui, dialog.body.rect.center, -2) and dialog.body.scroll > 0
