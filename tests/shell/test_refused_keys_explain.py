"""A shell key never does nothing in silence (QA: F2 on a hand-off screen did nothing and said
nothing). On the hand-off screen, in the load menu and in the players (seats) dialog, every shell
key either acts (a screen opens, a save is written and listed, the window changes) or leaves a
visible message saying why not and where it works; on the hand-off the message names nothing of
the game, and nothing is done to the hidden game. For every rule system and the race."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.shell import savegame
from game.shell.keys import SHORT
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import REFUSED_COLOUR, HandoffScene
from game.shell.scenes.load_menu import LoadMenuScene
from tests.shell.harness import SYSTEMS, Game, key, open_game, play_some, to_map

CTRL = pygame.KMOD_LCTRL
# the shell's keys that act on the game (game/shell/keys.py): label, key, modifier
GAME_ACTING = [("F2", pygame.K_F2, 0), ("F3", pygame.K_F3, 0), ("Ctrl+Z", pygame.K_z, CTRL),
               ("Ctrl+Y", pygame.K_y, CTRL)]
SAVING = [("F5", pygame.K_F5, 0), ("Ctrl+S", pygame.K_s, CTRL), ("F9", pygame.K_F9, 0)]
BACK = ("Ctrl+B", pygame.K_b, CTRL)


def _saves(tmp_path: Path) -> list[str]:
    folder = tmp_path / "saves"
    return sorted(p.name for p in folder.rglob("*.yaml")) if folder.exists() else []


def _refused_colour_drawn(game: Game) -> bool:
    surface = game.app.render()
    w, h = surface.get_size()
    area = pygame.Rect(0, h // 2 + 90, w, 80)
    return any(surface.get_at((x, y))[:3] == REFUSED_COLOUR
               for y in range(area.top, area.bottom, 2) for x in range(area.left, area.right, 3))


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_shell_key_on_the_hand_off_screen_acts_or_says_why_not_and_shows_nothing_of_the_game(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    play_some(game)  # unsaved play: Ctrl+Q asks rather than quitting
    handoff = HandoffScene(game.app, "The next side", (200, 200, 60))
    game.app.push(handoff)
    state, said, files = game.session.state, list(game.said), _saves(tmp_path)
    for label, k, mod in [*GAME_ACTING, *SAVING]:
        handoff.message = None
        key(game, k, mod)
        assert game.app.scenes.top is handoff, label
        assert handoff.message is not None and f"({label})" in handoff.message, label
        assert "pass the screen first" in handoff.message and handoff.message_lines()
        assert _refused_colour_drawn(game), f"{label}: the message is not drawn"
        # the same words whatever the game: nothing about the side whose view is hidden
        assert handoff.message == f"Hand-off: pass the screen first (Enter); {SHORT[label]} ({label}) works " \
                                  "from the game's screen."
    assert game.session.state is state and game.said == said and _saves(tmp_path) == files  # nothing done behind
    key(game, BACK[1], BACK[2])  # no game to go back to: said here
    assert game.app.scenes.top is handoff and handoff.message is not None and "Ctrl+B" in handoff.message
    assert "not opened from another one" in handoff.message and _refused_colour_drawn(game)
    # the keys that do work here act, over the blank screen
    key(game, pygame.K_F1)
    assert game.top() == "help"
    key(game, pygame.K_F1)
    key(game, pygame.K_o, CTRL)
    assert game.top() == "load_menu"
    key(game, pygame.K_ESCAPE)
    key(game, pygame.K_q, CTRL)
    assert game.top() == "quit_dialog"
    key(game, pygame.K_ESCAPE)
    key(game, pygame.K_F11)
    assert game.app.fullscreen
    key(game, pygame.K_F11)
    assert game.app.scenes.top is handoff and not game.app.fullscreen


def _menu(game: Game) -> LoadMenuScene:
    top = game.app.scenes.top
    assert isinstance(top, LoadMenuScene), game.top()
    return top


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_shell_key_in_the_load_menu_acts_or_says_why_not_in_the_menu(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    key(game, pygame.K_o, CTRL)
    menu = _menu(game)
    for label, k, mod in [*GAME_ACTING, BACK, ("Ctrl+O", pygame.K_o, CTRL)]:
        menu.message = None
        key(game, k, mod)
        assert game.app.scenes.top is menu, label
        assert menu.message is not None and label in menu.message, label
    key(game, pygame.K_F9)  # no quick save yet: said in the menu
    assert game.app.scenes.top is menu and menu.message is not None and "no quick save" in menu.message
    key(game, pygame.K_F5)  # saves, and the list shows the quick save, selected
    quick = savegame.quick_save_path(game.session)
    assert quick.is_file() and menu.selected is not None and menu.selected.path == quick
    assert menu.note is not None and quick.name in menu.note
    key(game, pygame.K_s, CTRL)
    assert menu.selected is not None and menu.selected.path != quick and menu.note is not None
    assert menu.selected.path.name in menu.note and len(menu.listings) == 2
    key(game, pygame.K_F9)  # a quick save now: it loads (or asks first)
    assert game.top() != "load_menu"


def _seats(game: Game) -> DialogScene:
    key(game, pygame.K_p)
    top = game.app.scenes.top
    assert isinstance(top, DialogScene) and top.name == "seats", game.top()
    return top


@pytest.mark.parametrize("system", ["tactical", "campaign", "mass"])
def test_every_shell_key_in_the_players_dialog_acts_or_says_why_not_over_the_game(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    dialog = _seats(game)
    for label, k, mod in GAME_ACTING:
        said = len(game.said)
        key(game, k, mod)
        top = game.app.scenes.top
        # in a small dialog over the players dialog (the game's message line may be hidden under it)
        assert isinstance(top, DialogScene) and top.name == "not_here", (label, game.top())
        assert top.body_text == f"Players: close this first; {SHORT[label]} ({label}) works from the game's screen."
        assert len(game.said) == said  # nothing told to the game behind
        key(game, pygame.K_RETURN)
        assert game.app.scenes.top is dialog, label
    key(game, pygame.K_F2)
    key(game, pygame.K_z, CTRL)  # a second key while the first is explained: one dialog, the newest words
    names = [s.name for s in game.app.scenes]
    assert names.count("not_here") == 1 and "undo (Ctrl+Z)" in game.app.scenes.top.body_text  # type: ignore[union-attr]
    key(game, pygame.K_ESCAPE)
    assert game.app.scenes.top is dialog
    # the shell's own refusals are said over the dialog too, not only on the game's line under it
    for k, mod, words in ((pygame.K_F9, 0, "No quick save of this game yet"),
                          (pygame.K_b, CTRL, "This game was not opened from another one")):
        key(game, k, mod)
        top = game.app.scenes.top
        assert isinstance(top, DialogScene) and top.title == "Not done" and words in top.body_text, game.top()
        assert words in game.last()[0]
        key(game, pygame.K_RETURN)
        assert game.app.scenes.top is dialog
    key(game, pygame.K_F5)  # these act, as on the map
    assert savegame.quick_save_path(game.session).is_file() and "Saved to" in game.last()[0]
    assert game.app.scenes.top is dialog
    key(game, pygame.K_s, CTRL)
    assert "Saved to" in game.last()[0] and game.app.scenes.top is dialog
    key(game, pygame.K_o, CTRL)
    assert game.top() == "load_menu"


@pytest.mark.parametrize("system", ["tactical", "mass"])
def test_a_game_key_on_a_full_screen_without_a_message_line_says_why_in_a_small_dialog(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    key(game, pygame.K_F3)
    replay = game.app.scenes.top
    assert game.top() == "replay" and replay is not None and not replay.overlay
    for label, k, mod in GAME_ACTING[:1] + GAME_ACTING[2:]:  # (F3 there is the replay's own key)
        key(game, k, mod)
        top = game.app.scenes.top
        assert isinstance(top, DialogScene) and top.name == "not_here", (label, game.top())
        assert top.body_text.endswith(f": close this first; {SHORT[label]} ({label}) works from the game's screen.")
        assert top.body_text.startswith("The replay view: "), top.body_text  # the screen named, not the game
        key(game, pygame.K_RETURN)
        assert game.app.scenes.top is replay


def test_a_quick_save_that_fails_from_the_load_menu_says_why_in_the_menu(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    key(game, pygame.K_o, CTRL)
    menu = _menu(game)

    def refused(*args: object, **kwargs: object) -> Path:
        raise PermissionError(13, "Permission denied", str(tmp_path / "saves"))

    monkeypatch.setattr(savegame, "quick_save", refused)
    key(game, pygame.K_F5)
    assert game.app.scenes.top is menu  # said in the menu, not in another dialog over it
    assert menu.message is not None and menu.message.startswith("Not saved:") and "Permission denied" in menu.message
    assert menu.note is None


def test_the_help_on_the_hand_off_does_not_offer_the_keys_it_refuses(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    game.app.push(HandoffScene(game.app, "The next side", (200, 200, 60)))
    key(game, pygame.K_F1)
    help_ = game.app.scenes.top
    assert isinstance(help_, DialogScene) and help_.name == "help"
    text = help_.body_text
    for refused in ("F5:", "F9:", "Ctrl+S:"):
        assert refused not in text
    for offered in ("Ctrl+O:", "Ctrl+Q:", "F11:", "Enter or Space:"):
        assert offered in text


def test_a_games_letter_key_on_the_hand_off_screen_is_answered_and_does_nothing_behind_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("campaign", tmp_path)
    to_map(game)
    handoff = HandoffScene(game.app, "The next side", (200, 200, 60))
    game.app.push(handoff)
    state = game.session.state
    for k, ch in ((pygame.K_g, "g"), (pygame.K_p, "p"), (pygame.K_e, "e")):
        handoff.message = None
        game.app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch, scancode=0)])
        assert game.app.scenes.top is handoff
        assert handoff.message == "Hand-off: the game's keys wait until the screen is passed (Enter)."
    assert game.session.state is state


def test_a_screen_title_that_ends_a_sentence_is_quoted_in_close_this_first() -> None:
    from types import SimpleNamespace

    from game.shell.keys import _screen_name
    assert _screen_name(SimpleNamespace(title="The Zones wins!")) == '"The Zones wins!"'
    assert _screen_name(SimpleNamespace(title="Players")) == "Players"
    assert _screen_name(SimpleNamespace(title="  ")) == "This screen"
    assert _screen_name(SimpleNamespace()) == "This screen"
