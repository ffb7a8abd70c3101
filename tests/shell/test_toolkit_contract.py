"""Issue 27 item 7: what game/shell/toolkit/ takes from pygame_gui beyond its documented use,
one test per private field or hook, so that a toolkit upgrade that moves one fails here, by name,
rather than somewhere in a screen. (Written against pygame_gui 0.6.14.)

- buttons.py: `Button.rebuild` reads the button's look settings and gives it a drawable shape
  (`_Look`) the toolkit then asks for pictures;
- richtext.py: `RichTextBox` / `TextLine` are UIElements that set their own picture;
- drawing.py: `elements_over` reads the sprite group's list of what it blits;
- manager.py: `ThemedManager` shares one manager's theme and resource loader.
"""

from __future__ import annotations

import inspect
import os
import re
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402
from pygame_gui.core import UIElement  # noqa: E402
from pygame_gui.elements import UIButton  # noqa: E402

from game import paths  # noqa: E402
from game.shell.toolkit import buttons, drawing, richtext  # noqa: E402
from game.shell.toolkit.buttons import Button  # noqa: E402
from game.shell.toolkit.manager import ThemedManager  # noqa: E402

THEME = str(paths.theme_file())


@pytest.fixture(scope="module")
def manager() -> pygame_gui.UIManager:
    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((640, 480))
    return ThemedManager((640, 480), THEME)


@pytest.fixture
def button(manager: pygame_gui.UIManager) -> Button:
    return Button(pygame.Rect(10, 10, 160, 36), "Press", manager)


# --------------------------------------------------------------------------- buttons.py

# each field of the toolkit's button that Button.rebuild reads to decide whether it draws the look
LOOK_SETTINGS = ("shape", "dynamic_width", "dynamic_height", "text_horiz_alignment", "text_vert_alignment",
                 "state_transitions", "text_shadow_size", "shadow_width", "normal_images", "hovered_images",
                 "disabled_images", "selected_images", "is_enabled")


@pytest.mark.parametrize("name", LOOK_SETTINGS)
def test_the_toolkit_button_still_has_the_look_setting_button_rebuild_reads(button: Button, name: str) -> None:
    assert hasattr(button, name), f"pygame_gui's UIButton has no `{name}` any more (buttons.Button.rebuild)"


@pytest.mark.parametrize("part", ("bg", "border", "text"))
def test_the_toolkit_button_keeps_a_plain_colour_per_state_and_part_in_colours(button: Button, part: str) -> None:
    for state in buttons.STATES:
        assert isinstance(button.colours.get(f"{state}_{part}"), pygame.Color), f"{state}_{part}"


def test_the_toolkit_button_gives_its_border_width_per_side(button: Button) -> None:
    assert isinstance(button.border_width, dict) and "left" in button.border_width


def test_the_toolkit_button_gives_its_corner_radius(button: Button) -> None:
    corners = button.shape_corner_radius
    assert isinstance(corners, int | list | tuple)


def test_the_toolkit_button_font_renders_premultiplied(button: Button) -> None:
    assert button.font is not None and callable(button.font.render_premul)


def test_the_toolkit_button_keeps_its_text_and_translation_arguments(button: Button) -> None:
    assert button.text == "Press" and isinstance(button.text_kwargs, dict)
    assert buttons.translate(button.text, **button.text_kwargs) == "Press"


def test_the_toolkit_button_takes_a_drawable_shape_and_is_told_when_it_is_ready(button: Button) -> None:
    assert isinstance(button.drawable_shape, buttons._Look)  # ours, not the toolkit's
    assert callable(button.on_fresh_drawable_shape_ready) and callable(button._on_contents_changed)
    assert "def rebuild" in inspect.getsource(UIButton)  # the hook Button overrides


def test_every_call_the_toolkit_makes_on_a_buttons_drawable_shape_is_one_the_look_answers() -> None:
    source = inspect.getsource(UIButton) + inspect.getsource(UIElement)
    asked = set(re.findall(r"drawable_shape\.(\w+)", source))
    assert asked, "the toolkit no longer draws a button through a drawable shape"
    look = buttons._Look.__init__.__code__.co_names + tuple(dir(buttons._Look))
    missing = sorted(name for name in asked if name not in look)
    assert missing == [], f"the toolkit now asks a button's shape for {missing} (buttons._Look)"


def test_the_button_shown_is_the_picture_the_look_drew(manager: pygame_gui.UIManager, button: Button) -> None:
    manager.update(0.0)
    look = button.drawable_shape
    assert isinstance(look, buttons._Look)
    shown = pygame.image.tobytes(button.image, "RGBA")
    assert shown == pygame.image.tobytes(look.picture(look.state), "RGBA")


# --------------------------------------------------------------------------- richtext.py


def test_an_element_still_takes_its_picture_through_image_and_pre_clipped_image(
        manager: pygame_gui.UIManager) -> None:
    box = richtext.RichTextBox("<b>bold</b> text", pygame.Rect(0, 0, 200, 80), manager)
    assert box.get_image_clipping_rect() is None
    assert hasattr(box, "_pre_clipped_image"), "UIElement._pre_clipped_image is gone (richtext._show)"
    picture = pygame.Surface((200, 80), pygame.SRCALPHA)
    richtext._show(box, picture)
    assert box.image is picture


def test_an_element_clipped_by_its_container_takes_its_picture_through_set_image(
        manager: pygame_gui.UIManager) -> None:
    box = richtext.RichTextBox("text", pygame.Rect(0, 0, 200, 80), manager)
    assert callable(box._set_image), "UIElement._set_image is gone (richtext._show)"
    box._set_image_clip(pygame.Rect(0, 0, 100, 80))
    picture = pygame.Surface((200, 80), pygame.SRCALPHA)
    picture.fill((10, 200, 10, 255))
    richtext._show(box, picture)
    assert box.image.get_at((10, 10))[:3] == (10, 200, 10)


def test_an_element_reads_its_theme_through_ui_theme_and_combined_element_ids(
        manager: pygame_gui.UIManager) -> None:
    box = richtext.RichTextBox("text", pygame.Rect(0, 0, 200, 80), manager)
    ids = box.combined_element_ids
    assert "text_box" in ids
    theme = box.ui_theme
    assert theme.get_colour("dark_bg", ids) is not None and theme.get_font_info(ids)
    line = richtext.TextLine(pygame.Rect(0, 0, 200, 24), "a line", manager)
    assert line.ui_theme.get_font(line.combined_element_ids) is not None


def test_an_element_finds_the_pointer_through_its_manager(manager: pygame_gui.UIManager) -> None:
    box = richtext.RichTextBox("text", pygame.Rect(0, 0, 200, 80), manager)
    x, y = box.ui_manager.get_mouse_position()
    assert isinstance(box.hover_point(x, y), bool)


# --------------------------------------------------------------------------- drawing.py


def test_the_sprite_groups_visible_list_holds_each_shown_picture_and_its_rectangle(
        manager: pygame_gui.UIManager) -> None:
    label = pygame_gui.elements.UILabel(pygame.Rect(300, 300, 120, 24), "here", manager=manager)
    manager.update(0.0)
    visible = manager.get_sprite_group().visible
    assert any(row[0] is label.image and tuple(row[1][:2]) == (300, 300) for row in visible)
    assert drawing.elements_over(manager, pygame.Rect(310, 305, 5, 5))
    label.kill()


# --------------------------------------------------------------------------- manager.py


def test_a_manager_still_takes_a_resource_loader_and_keeps_it(manager: pygame_gui.UIManager) -> None:
    params = inspect.signature(pygame_gui.UIManager.__init__).parameters
    assert "resource_loader" in params and "enable_live_theme_updates" in params
    second = ThemedManager((640, 480), None, shared=manager)
    assert second.resource_loader is manager.resource_loader


def test_a_manager_builds_its_theme_through_create_new_theme(manager: pygame_gui.UIManager) -> None:
    assert "create_new_theme" in inspect.getsource(pygame_gui.UIManager.__init__)
    second = ThemedManager((640, 480), None, shared=manager)
    assert second.get_theme() is manager.get_theme()  # the override was used: one theme


def test_the_toolkits_translations_live_on_the_i18n_search_path(manager: pygame_gui.UIManager) -> None:
    i18n = sys.modules.get("i18n")
    assert i18n is not None and isinstance(i18n.load_path, list)
    ThemedManager((640, 480), None, shared=manager)
    assert len(i18n.load_path) == len(set(i18n.load_path))  # no folder added twice


def test_the_manager_still_reads_the_pointer_through_its_update_mouse_position_hook() -> None:
    """manager.py: `update_pointer_away` shadows `UIManager._update_mouse_position` for one update
    (and the hook sets `mouse_position`, which hovering reads)."""
    from game.shell.toolkit.manager import ThemedManager

    pygame.init()
    pygame.display.set_mode((200, 100))
    ui = ThemedManager((200, 100), None)
    assert callable(getattr(pygame_gui.UIManager, "_update_mouse_position", None))
    button = UIButton(pygame.Rect(0, 0, 200, 100), "x", manager=ui)
    pygame.mouse.set_pos((100, 50))
    ui.update_pointer_away(0.01)
    assert ui.mouse_position == (-1, -1) and not button.hovered
    assert "_update_mouse_position" not in vars(ui)  # the hook is the class's again after the update
