"""One theme per window (App.make_ui, issue 14): every scene's UI manager after the first shares
its parsed theme and loader instead of reading both theme files again; the map's fonts survive a
window closed and opened again in one process; on Linux the window shows frames through X's own
shared-memory path (SDL_FRAMEBUFFER_ACCELERATION=0) unless the player set the variable."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.shell import fonts  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.scenes.dialog import Choice, DialogScene  # noqa: E402
from game.table import TABLE  # noqa: E402


def test_every_manager_of_a_window_shares_the_first_ones_theme_and_loader() -> None:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    first, second, third = app.make_ui(), app.make_ui(), app.make_ui()
    assert second.get_theme() is first.get_theme() is third.get_theme()
    assert second.resource_loader is first.resource_loader
    assert not first.live_theme_updates and not second.live_theme_updates
    # the project theme is in force in a later manager too (its title class has its own font)
    assert first.get_theme().get_font_dictionary() is second.get_theme().get_font_dictionary()
    pygame.quit()


def test_a_dialog_on_a_shared_theme_draws_its_buttons_in_the_themes_colours() -> None:
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    app.make_ui()  # the first manager: parses the theme
    dialog = DialogScene(app, "Title", "<b>Body</b> text", [Choice("OK", primary=True)])
    app.push(dialog)
    app.step([])
    surface = app.render()
    (button,) = dialog.buttons
    # the project's gold-brown primary button (#6e5224), not pygame_gui's default grey
    r, g, b, *_ = surface.get_at((button.rect.x + 5, button.rect.centery))
    assert r > b + 40 and r > 80, (r, g, b)
    pygame.quit()


def test_a_new_window_after_pygame_quit_renders_map_text_with_new_fonts() -> None:
    pygame.init()
    before = fonts.font(14)
    before.render("x", True, (255, 255, 255))
    pygame.quit()
    pygame.init()
    after = fonts.font(14)
    assert after is not before
    assert after.render("Fort Ashby", True, (255, 255, 255)).get_width() > 0
    pygame.quit()


def test_on_linux_the_window_shows_frames_through_xs_own_path_unless_the_player_chose(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    App(TABLE, size=(960, 600), headless=True)
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    pygame.quit()
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "opengl")
    App(TABLE, size=(960, 600), headless=True)
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "opengl"
    pygame.quit()
