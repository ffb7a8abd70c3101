"""game.shell.toolkit.buttons.Button: the toolkit's button with its look drawn by the project. It looks
like the toolkit's own in every state (the same pixels but for a few of each anti-aliased corner),
behaves like it (a click is the toolkit's pressed event, a disabled button sends none, hovering
shows the hovered look, new text is drawn) and leaves a look it does not draw to the toolkit."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402
from pygame_gui.core import ObjectID  # noqa: E402

from game.shell.toolkit.buttons import STATES, Button, _Look  # noqa: E402
from tests.client.clientfix import themed_manager  # noqa: E402


@pytest.fixture()
def ui() -> pygame_gui.UIManager:
    return themed_manager((800, 300))


def _differing(a: pygame.Surface, b: pygame.Surface, more_than: int = 8) -> list[tuple[int, int]]:
    w, h = a.get_size()
    return [(x, y) for y in range(h) for x in range(w)
            if max(abs(p - q) for p, q in zip(a.get_at((x, y)), b.get_at((x, y)), strict=True)) > more_than]


@pytest.mark.parametrize("object_id", [None, ObjectID(class_id="@primary")])
@pytest.mark.parametrize(("width", "label"), [(78, "Help F1"), (161, "End movement (E)"), (70, "Undo"),
                                              (151, "Tactics"), (150, "Options")])
def test_a_button_looks_like_the_toolkits_in_every_state_but_for_its_corners(
        ui: pygame_gui.UIManager, object_id: object, width: int, label: str) -> None:
    theirs = pygame_gui.elements.UIButton(pygame.Rect(10, 10, width, 34), label, ui, object_id=object_id)
    ours = Button(pygame.Rect(10, 60, width, 34), label, ui, object_id=object_id)
    look = ours.drawable_shape
    assert isinstance(look, _Look)
    radius = int(ours.shape_corner_radius[0]) + 1
    for state in STATES:
        theirs.drawable_shape.redraw_state(state)
        mine = look.picture(state)
        assert mine.get_size() == (width, 34)
        for x, y in _differing(theirs.drawable_shape.states[state].surface, mine):
            assert min(x, width - 1 - x) < radius and min(y, 33 - y) < radius, (state, x, y)  # a corner pixel


def test_a_click_is_the_toolkits_pressed_event_and_a_disabled_button_sends_none(ui: pygame_gui.UIManager) -> None:
    button = Button(pygame.Rect(10, 10, 120, 34), "Tactics", ui)
    pygame.event.clear()

    def click() -> list[pygame.event.Event]:
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            ui.process_events(pygame.event.Event(kind, pos=(40, 20), button=1))
        ui.update(0.01)
        return [e for e in pygame.event.get() if e.type == pygame_gui.UI_BUTTON_PRESSED]

    ui.update(0.01)
    pressed = click()
    assert len(pressed) == 1 and pressed[0].ui_element is button
    button.disable()
    assert button.drawable_shape.state == "disabled"
    assert not click()
    button.enable()
    assert len(click()) == 1


def test_hovering_shows_the_hovered_look_and_new_text_is_drawn(ui: pygame_gui.UIManager,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    button = Button(pygame.Rect(10, 10, 120, 34), "Tactics", ui)
    normal = button.image.copy()
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: (40, 20))  # (the toolkit reads the pointer itself)
    ui.process_events(pygame.event.Event(pygame.MOUSEMOTION, pos=(40, 20), rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(3):
        ui.update(0.05)
    assert button.drawable_shape.state == "hovered"
    assert _differing(normal, button.image, 0)
    before = button.image.copy()
    button.set_text("Leadership")
    ui.update(0.01)
    assert button.text == "Leadership" and _differing(before, button.image, 0)


def test_a_look_the_button_does_not_draw_is_left_to_the_toolkit(ui: pygame_gui.UIManager) -> None:
    ui.get_theme().load_theme({"@square": {"misc": {"shape": "rectangle"}},
                               "@lefty": {"misc": {"text_horiz_alignment": "left"}}})
    for kind in ("@square", "@lefty"):
        other = Button(pygame.Rect(10, 10, 120, 34), "Tactics", ui, object_id=ObjectID(class_id=kind))
        assert not isinstance(other.drawable_shape, _Look), kind
        assert other.image.get_size() == (120, 34)
