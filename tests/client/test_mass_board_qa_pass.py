"""What a player's pass over the mass-battle board found, headless and driven by real events: the
Battle Actions list says when choices lie above or below the part in sight (and the wheel stops
at its last choice); in a 960x600 window, where the battle-over summary covers the log, a save's
place is shown beside the summary's buttons; a casualty past the end of the wound track reads
"Dead, 77 Wounds", not "77/76"; a hint whose reason only repeats the choice has no "Why:"; and the
replay of a save opened alone (`replay SAVE --view`) neither lists nor silently ignores the save
and load keys, which have no game to act on there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from game.core.system import counted
from game.shell import actions
from game.shell.app import App, Settings
from game.shell.keys import help_groups
from game.shell.launch import open_replay_file
from game.shell.scenes.handoff import HandoffScene
from game.systems.mass.client import MassBoardScene, MassReplayScene
from game.systems.mass.client import board as board_module
from game.systems.mass.rules import commands as c
from game.table import TABLE
from tests.client.massfix import board_app, key_events

Drawn = list[str]


def _spy_text(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Every line of text the board draws, in order (the board's `text` and `outlined`, wrapped)."""
    seen: Drawn = []

    def spying(real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(s: str, *args: Any, **kwargs: Any) -> Any:
            seen.append(s)
            return real(s, *args, **kwargs)
        return spy

    monkeypatch.setattr(board_module, "text", spying(board_module.text))
    monkeypatch.setattr(board_module, "outlined", spying(board_module.outlined))
    return seen


def _to_the_end(app: App, scene: MassBoardScene) -> None:
    """Play the first choice listed (hand-offs passed on) until the battle is over."""
    for _ in range(3000):
        if scene.over:
            return
        app.step(key_events(pygame.K_SPACE if isinstance(app.scenes.top, HandoffScene) else pygame.K_RETURN))
    raise AssertionError("the battle did not end")


def test_a_list_longer_than_its_box_says_how_many_choices_lie_below_and_above(monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, _session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))  # the hand-off: Hida Jo's army's nine sealed appointments
    seen = _spy_text(monkeypatch)
    view = scene.list_view()
    n = len(scene.legal)
    assert view.above == 0 and 0 < view.below == n - len(view.rows)
    app.render()
    below = f"{counted(view.below, 'more choice', 'more choices')} below"
    assert any(line.startswith(below) for line in seen), seen
    assert not any("above" in line for line in seen)
    # the marker has its own line under the last row, inside the list
    assert view.rows[-1].rect.bottom + board_module.MORE_LINE <= view.area.bottom

    for _ in range(n - 1):  # down to the last choice: the list scrolls, and says what is above
        app.step(key_events(pygame.K_DOWN))
    view = scene.list_view()
    assert scene.selected == n - 1 and view.below == 0 and view.above == scene.scroll > 0
    assert view.rows[-1].index == n - 1
    assert view.rows[0].rect.top >= view.area.top + board_module.MORE_LINE  # under the "above" marker
    seen.clear()
    app.render()
    assert any(line.startswith(f"{counted(view.above, 'more choice', 'more choices')} above") for line in seen)
    assert not any("below" in line for line in seen)


def test_the_wheel_scrolls_no_further_than_the_last_choice() -> None:
    app, scene, _session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))
    for _ in range(20):  # down, far more than the list holds
        app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0,
                                     touch=False, which=0)])
    view = scene.list_view()
    assert view.below == 0 and view.rows[-1].index == len(scene.legal) - 1
    scene.scroll -= 1  # one step up from there, the last choice is out of sight again
    assert scene.list_view().below > 0


def test_a_list_that_fits_has_no_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, session = board_app((960, 600))
    for _ in range(2):  # both sealed appointments: then Heaven, two choices
        app.step(key_events(pygame.K_SPACE))
        app.step(key_events(pygame.K_RETURN))
    assert session.state.stage == "heaven" and len(scene.legal) == 2
    seen = _spy_text(monkeypatch)
    app.render()
    view = scene.list_view()
    assert view.above == view.below == 0
    assert not any("more choice" in line for line in seen)


def test_at_960x600_a_save_from_the_battle_over_summary_says_where_beside_its_buttons(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, _session = board_app((960, 600))
    _to_the_end(app, scene)
    assert scene._log_covered()  # the summary lies over the log: its lines are out of sight
    assert scene.notice is None  # (a message from before the end, "Wave 3: autosaved", is not kept there)
    scene._end_action("save")  # the summary's Save button
    assert scene.notice is not None and scene.notice[0].startswith("Saved to ")
    area = scene.notice_rect()
    assert area.w >= 250 and scene.app.screen.get_rect().contains(area)
    assert not any(area.colliderect(b.rect) for b in scene.end_buttons)
    seen = _spy_text(monkeypatch)
    app.render()
    assert any(line.startswith("Saved to") for line in seen)
    assert scene.summary_fits


def test_at_1280x800_the_log_beside_the_summary_keeps_the_shells_messages() -> None:
    app, scene, _session = board_app((1280, 800))
    _to_the_end(app, scene)
    assert not scene._log_covered()
    actions.save_new_action(scene)
    assert any(line.startswith("Saved to ") for line, _ in scene.log)
    assert scene.end_buttons and max(b.rect.right for b in scene.end_buttons) <= scene._rects()["summary"].right


def test_a_casualty_past_the_end_of_the_wound_track_reads_as_its_wounds(monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))
    assert session.apply(c.GmSetPerson(person="hida-jo", wounds=77), gm=True)[0]
    seen = _spy_text(monkeypatch)
    app.render()
    assert "Dead, 77 Wounds" in seen
    assert not any(line.endswith("77/76") for line in seen)
    assert "Healthy 0/38" in seen  # one on the track still reads as the part taken of it


def test_a_hint_whose_reason_only_repeats_the_choice_has_no_why(monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, session = board_app((960, 600))
    for _ in range(2):
        app.step(key_events(pygame.K_SPACE))
        app.step(key_events(pygame.K_RETURN))
    cmd = scene.legal[0]
    what = board_module._without_name(board_module.choices.label(session.state, cmd), "Hida Jo's army")

    def answer(why: str) -> None:
        decided = SimpleNamespace(decision=SimpleNamespace(command=cmd, why=why))
        monkeypatch.setattr(scene.thinker, "poll", lambda *a, **k: decided)
        scene.hint()
        scene._poll_hint()

    answer(what)
    assert scene.last_said.startswith("Hint (") and what in scene.last_said and "Why:" not in scene.last_said
    answer("the odds favour us")
    assert scene.last_said.endswith("Why: the odds favour us")


def _saved_battle(tmp_path: Path) -> Path:
    app, scene, session = board_app((960, 600))
    for _ in range(6):
        app.step(key_events(pygame.K_SPACE if isinstance(app.scenes.top, HandoffScene) else pygame.K_RETURN))
    assert session.history
    actions.save_new_action(scene)
    line = next(line for line, _ in reversed(scene.log) if line.startswith("Saved to "))
    return Path(line[len("Saved to "):].split(" (")[0])


def _help_labels(scene: Any) -> dict[str, str]:
    return {b.label: b.what for _group, bindings in help_groups(scene) for b in bindings}


def test_a_saves_replay_opened_alone_neither_lists_nor_ignores_the_save_keys(tmp_path: Path) -> None:
    path = _saved_battle(tmp_path)
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    assert open_replay_file(app, path) is None
    view = app.scenes.top
    assert isinstance(view, MassReplayScene) and view.alone()
    keys = _help_labels(view)
    assert not {"F5", "F9", "Ctrl+S", "Ctrl+O", "Ctrl+B"} & set(keys)
    assert keys["Esc"] == "close the replay view and its window"
    for key, mod in ((pygame.K_F5, 0), (pygame.K_s, pygame.KMOD_CTRL)):
        view.note = ""
        app.step(key_events(key, mod))
        assert view.note.startswith(("F5 does nothing here", "Ctrl+S does nothing here")), view.note
        assert "no game to save" in view.note
    app.step(key_events(pygame.K_RETURN))
    assert view.note.endswith("Esc closes the window.")


def test_the_replay_view_over_a_live_game_keeps_the_save_keys_and_goes_back_to_it() -> None:
    app, scene, session = board_app((960, 600))
    for _ in range(2):  # both sealed appointments
        app.step(key_events(pygame.K_SPACE))
        app.step(key_events(pygame.K_RETURN))
    assert session.state.stage == "heaven" and app.scenes.top is scene
    app.step(key_events(pygame.K_F3))
    view = app.scenes.top
    assert isinstance(view, MassReplayScene) and not view.alone()
    keys = _help_labels(view)
    assert {"F5", "Ctrl+S"} <= set(keys) and "the game is as it was" in keys["Esc"]
    app.step(key_events(pygame.K_RETURN))
    assert view.note.endswith("goes back to the game.")


def test_a_save_path_too_wide_for_the_notice_is_cut_after_a_slash_and_keeps_every_letter() -> None:
    pygame.font.init()
    line = "Saved to /tmp/some/saves/borderland-valley-wave03-20261204-145530.yaml (Ctrl+O lists every save)"
    rows = board_module.wrap_path(line, board_module.NOTICE_SIZE, 290)
    assert all(board_module.font(board_module.NOTICE_SIZE).size(r)[0] <= 290 for r in rows)
    assert rows[0].endswith("/saves/")  # the file's name starts a line whole
    assert rows[1].startswith("borderland-valley-wave03-20261204-145530.yaml")
    assert " ".join(rows).replace("/ ", "/") == line


def test_a_hint_for_a_sealed_appointment_stays_off_the_log_and_leaves_with_its_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hot-seat: the log stays on the board for every force, so a hint naming a sealed appointment
    ("Hint (hard) for Hida Jo's army: Kuni Taro reads Heaven ...") goes only over the list, and is
    gone when the screen is handed to the other force."""
    app, scene, session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))  # the screen is Hida Jo's army's
    cmd = scene.legal[3]
    decided = SimpleNamespace(decision=SimpleNamespace(command=cmd, why="the best odds"))
    monkeypatch.setattr(scene.thinker, "poll", lambda *a, **k: decided)
    app.step(key_events(pygame.K_h))
    app.step([])
    what = board_module.choices.label(session.state, cmd).split(": ", 1)[1]
    assert scene.last_said.startswith("Hint (") and what in scene.last_said and scene.selected == 3
    assert not any(what in line for line, _ in scene.log)
    app.step(key_events(pygame.K_RETURN))  # Hida Jo's army seals the hinted choice
    assert isinstance(app.scenes.top, HandoffScene)
    app.step(key_events(pygame.K_SPACE))  # Akira's army at the screen
    assert scene.viewer == "akira" and scene.last_said == ""
    assert not any(what in line for line, _ in scene.log)
    app.render()


def test_a_hint_for_an_open_choice_is_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    app, scene, _session = board_app((960, 600))
    for _ in range(2):
        app.step(key_events(pygame.K_SPACE))
        app.step(key_events(pygame.K_RETURN))
    cmd = scene.legal[0]
    decided = SimpleNamespace(decision=SimpleNamespace(command=cmd, why="why not"))
    monkeypatch.setattr(scene.thinker, "poll", lambda *a, **k: decided)
    scene.hint()
    scene._poll_hint()
    assert scene.log[-1][0] == scene.last_said and scene.last_said.endswith("Why: why not")


def test_a_line_over_the_list_too_long_for_four_lines_ends_in_an_ellipsis() -> None:
    app, scene, _session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))
    width = scene._rects()["cmds"].inflate(-8, -8).w - 20
    scene.last_said = ("Hint (hard) for Hida Jo's army: Kuni Taro (teishin) reads Heaven, Kuni Taro (teishin) argues "
                       "Honor. Why: Kuni Taro (teishin) for Heaven (average 21.9), Kuni Taro (teishin) for Honor "
                       "(average 28.2)")
    lines = scene._said_lines(width)
    assert len(lines) == 4 and lines[-1].endswith("(average 28.2)")  # a sealed hint's reason, whole
    scene.last_said += ", and then a good deal more besides, " * 4
    lines = scene._said_lines(width)
    assert len(lines) == 4 and lines[-1].endswith(" ...")
    assert all(board_module.font(board_module.SAID_SIZE).size(x)[0] <= width for x in lines)
    assert scene.list_view().rows  # the list still has room under it


def test_the_below_marker_stays_above_a_refusal_under_the_list() -> None:
    app, scene, _session = board_app((960, 600))
    app.step(key_events(pygame.K_SPACE))
    scene.message = "Wrest command: not now - command cannot change hands now: a duel waits for its answer"
    width = scene._rects()["cmds"].inflate(-8, -8).w - 20
    refusal_top = scene._rects()["cmds"].inflate(-8, -8).bottom - 5 - 15 * len(scene._message_lines(width))
    view = scene.list_view()
    assert view.below > 0 and view.rows[-1].rect.bottom + board_module.MORE_LINE <= refusal_top
    app.render()


def test_with_the_way_back_to_a_campaign_the_buttons_keep_their_labels_and_the_notice_its_room() -> None:
    app, scene, session = board_app((960, 600))
    session.return_to = lambda board: None
    session.return_label = "Back to the campaign"
    _to_the_end(app, scene)
    buttons = sorted(scene.end_buttons, key=lambda b: b.rect.x)
    assert [b.text for b in buttons] == ["Back to the campaign", "Save", "New battle", "Quit"]
    width = board_module.font(14).size("Back to the campaign")[0]  # (the theme's button font: Noto Sans 14)
    assert all(b.rect.w >= width + 16 for b in buttons)  # every label whole, with a margin
    area = scene.notice_rect()
    assert area.w >= 180 and not any(area.colliderect(b.rect) for b in buttons)
    scene._end_action("save")
    lines = board_module.wrap_path(scene.notice[0], board_module.NOTICE_SIZE, area.w) if scene.notice else []
    assert lines and any(line.endswith(".yaml") for line in lines)  # the file's name whole on its line
