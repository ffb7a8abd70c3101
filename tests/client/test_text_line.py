"""TextLine (game/shell/toolkit/richtext.py): the project's one-line label looks exactly like the UI
toolkit's label it stands in for, and keeps the label's interface the panels use."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from pygame_gui.core import ObjectID

from game.shell.toolkit.richtext import TextLine
from tests.client.clientfix import themed_manager

TITLE = ObjectID(class_id="@title")


@pytest.fixture()
def ui() -> pygame_gui.UIManager:
    return themed_manager((800, 240))


def _pixels(surf: pygame.Surface) -> list[tuple[int, int, int, int]]:
    w, h = surf.get_size()
    return [tuple(surf.get_at((x, y))) for y in range(h) for x in range(w)]  # type: ignore[misc]


def _same_picture(a: pygame.Surface, b: pygame.Surface) -> bool:
    """The same coverage (alpha) at every pixel and colours within one level (the toolkit rounds
    its premultiplied colours in another order)."""
    return a.get_size() == b.get_size() and all(
        p[3] == q[3] and max(abs(x - y) for x, y in zip(p[:3], q[:3], strict=True)) <= 1
        for p, q in zip(_pixels(a), _pixels(b), strict=True))


@pytest.mark.parametrize(("object_id", "height", "text"), [
    (TITLE, 22, "Round 1/8 · Initiative"),                              # the status line
    (None, 20, "Waiting for Zone Expeditionary Column to answer."),      # the hint
    (TITLE, 22, "Dice log (latest command first)"),                      # the log's title
    (TITLE, 28, "Riverford Crossing"),                                   # a dialog's title
    (None, 20, ""),
])
def test_a_text_line_draws_the_toolkits_label_in_the_same_place_and_colours(ui: pygame_gui.UIManager, object_id: object,
                                                                 height: int, text: str) -> None:
    rect = pygame.Rect(10, 4, 420, height)
    theirs = pygame_gui.elements.UILabel(rect, text, ui, object_id=object_id)
    ours = TextLine(rect, text, ui, object_id=object_id)
    assert _same_picture(ours.image, theirs.image)
    assert any(p[3] for p in _pixels(ours.image)) == bool(text)


def test_a_text_line_shows_new_text_measures_with_its_font_and_keeps_its_place(ui: pygame_gui.UIManager) -> None:
    line = TextLine(pygame.Rect(10, 4, 300, 20), "first", ui)
    before = line.image.copy()
    line.set_text("a longer second line")
    assert line.text == "a longer second line"
    assert _pixels(line.image) != _pixels(before)
    assert line.font.size("a longer second line")[0] > line.font.size("first")[0]
    label = pygame_gui.elements.UILabel(pygame.Rect(10, 4, 300, 20), "a longer second line", ui)
    assert _same_picture(line.image, label.image)
    line.set_dimensions((200, 20))
    assert line.image.get_size() == (200, 20) and line.rect.topleft == (10, 4)
