"""Issue 27 item 7: text is built as styled pieces (game/shell/toolkit/richtext.py `styled`), not
as HTML parsed again by regular expressions: a player's name with "<" or "&" in it is shown as
written, with nothing to escape; the box draws pieces exactly as it draws the same markup."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402

from game.shell.keymap import Binding, help_pieces  # noqa: E402
from game.shell.toolkit.richtext import RichTextBox, Span, plain, styled  # noqa: E402


def test_pieces_become_lines_of_spans_at_each_new_line_keeping_their_style() -> None:
    text = styled(Span("Title", bold=True), "\nplain ", Span("red\nstill red", colour=(200, 0, 0)))
    assert text == ((Span("Title", bold=True),),
                    (Span("plain "), Span("red", colour=(200, 0, 0))),
                    (Span("still red", colour=(200, 0, 0)),))


def test_a_name_with_markup_characters_is_shown_as_written() -> None:
    name = "<b>Zones & Co</b>"
    assert plain(styled("Quit ", Span(name, bold=True), "?")) == f"Quit {name}?"


def test_the_box_draws_pieces_as_it_draws_the_same_markup() -> None:
    pygame.display.init()
    pygame.font.init()  # (the toolkit's fonts: not yet set up when this test runs first)
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((400, 300))
    manager = pygame_gui.UIManager((400, 300))
    rect = pygame.Rect(0, 0, 300, 120)
    pieces = RichTextBox(styled(Span("Bold", bold=True), " and ", Span("red", colour=(255, 0, 0)), "\nnext"),
                         rect, manager)
    markup = RichTextBox("<b>Bold</b> and <font color='#ff0000'>red</font><br>next", rect, manager)
    assert pygame.image.tobytes(pieces.image, "RGBA") == pygame.image.tobytes(markup.image, "RGBA")
    assert pieces.text_height == markup.text_height > 0


def test_the_help_is_built_as_pieces_from_the_key_map() -> None:
    keys = [Binding((pygame.K_a,), "A <alt>", "does a & b")]
    text = help_pieces([("Group", keys)])
    assert text[0] == (Span("Group", bold=True),)
    assert text[1] == (Span("A <alt>", bold=True), Span(": does a & b"))
