"""The GM's forced rolls in the campaign's GM view (game/systems/campaign/client/gm_rolls.py): N
opens a dialog for die values, checked against the campaign's die; they go to the rules as the
logged GM command `gm_force_rolls`, the GM view's panel shows the queue, Ctrl+Z in the GM view takes
them back; on a week whose dice the commitment protocol seeded the dialog warns that verify-dice
will fail and forces nothing until the GM confirms."""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.shell.app import App  # noqa: E402
from game.systems.campaign.client.gm_rolls import ForceRollsScene, parse_values  # noqa: E402
from game.systems.campaign.rules.commands import GmDiceSeed  # noqa: E402
from game.systems.campaign.rules.dice_seed import commitment_of, ordering_players  # noqa: E402
from tests.client.campaignfix import PASSPHRASE, top  # noqa: E402
from tests.client.campaignfix import saves_in_tmp as _saves  # noqa: E402, F401 - autouse fixture
from tests.client.campaignfix import teaching_app as _app  # noqa: E402
from tests.client.clientfix import press_button  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, through_handoff  # noqa: E402


def _gm_view(app: App, scene: Any) -> None:
    key(app, pygame.K_g)
    assert top(app).name == "gm_lock"
    assert top(app).submit(PASSPHRASE), top(app).message
    app.render()
    assert scene.gm


def _dialog(app: App) -> ForceRollsScene:
    key(app, pygame.K_n)
    dialog = top(app)
    assert isinstance(dialog, ForceRollsScene)
    return dialog


def _panel(scene: Any) -> str:
    return " ".join(s.strip() for s in scene.drawn_strings)


def test_n_in_the_gm_view_forces_the_typed_values_as_a_logged_gm_command_and_the_panel_shows_the_queue() -> None:
    app, scene = _app()
    _gm_view(app, scene)
    assert "No rolls forced. N: force the next rolls." in _panel(scene)
    n = len(scene.session.history)
    dialog = _dialog(app)
    assert dialog.submit("3 5, 10")
    assert top(app) is scene
    assert scene.state.forced == (3, 5, 10)
    assert len(scene.session.history) == n + 1
    step = scene.session.history[-1]
    assert step.command.kind == "gm_force_rolls" and step.gm
    assert "GM: forced the next 3 rolls" in scene.log  # every player's log: no faces
    assert not any("10" in line for line in scene.log if line.startswith("GM: forced"))
    app.render()
    assert "Next rolls forced (3): 3, 5, 10." in _panel(scene)


def test_the_gm_views_button_opens_the_same_dialog() -> None:
    app, scene = _app()
    _gm_view(app, scene)
    press_button(app, "GM: force next rolls (N)")  # a real click on the GM view's button
    assert isinstance(top(app), ForceRollsScene)


@pytest.mark.parametrize("typed, words", [
    ("11", "11 cannot be rolled on a d10: expected whole numbers from 1 to 10 (the campaign's d10)"),
    ("0", "0 cannot be rolled on a d10"),
    ("3 x", "'x' is not a die value: expected whole numbers from 1 to 10 (the campaign's d10)"),
    ("-2", "'-2' is not a die value"),
    ("", "Type at least one die value: whole numbers from 1 to 10"),
])
def test_values_the_campaigns_die_cannot_roll_are_refused_naming_what_was_expected(typed: str, words: str) -> None:
    app, scene = _app()
    _gm_view(app, scene)
    n = len(scene.session.history)
    dialog = _dialog(app)
    assert not dialog.submit(typed)
    assert words in dialog.message
    assert top(app) is dialog and len(scene.session.history) == n and scene.state.forced == ()
    app.render()
    assert words in " ".join(dialog.drawn_strings)  # the refusal is on screen


def test_parse_values_follows_the_die_size_it_is_given() -> None:
    assert parse_values("6 6 1", 6) == (6, 6, 1)
    refusal = parse_values("7", 6)
    assert isinstance(refusal, str) and "from 1 to 6 (the campaign's d6)" in refusal


def test_ctrl_z_in_the_gm_view_takes_the_forced_rolls_back_and_ctrl_y_plays_them_again() -> None:
    app, scene = _app()
    _gm_view(app, scene)
    n = len(scene.session.history)
    assert _dialog(app).submit("4 4")
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    app.render()
    assert scene.state.forced == () and len(scene.session.history) == n
    assert "Taken back: GM: force the next rolls 4, 4 (Ctrl+Y plays it again)." in _panel(scene)
    assert not any("forced the next rolls" in line for line in scene.log)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    assert scene.state.forced == (4, 4) and scene.session.history[-1].command.kind == "gm_force_rolls"


def test_a_player_pressing_n_is_told_forcing_rolls_is_the_gms_and_nothing_opens() -> None:
    app, scene = _app()
    key(app, pygame.K_n)
    assert top(app) is scene and not scene.gm
    assert "Forcing the next rolls is the GM's: open the GM view first" in _panel(scene)
    assert scene.state.forced == ()


def _seed_the_week(scene: Any) -> None:
    st = scene.state
    secret = "the GM's secret for week 1"
    salts = {p: f"salt-{p}" for p in ordering_players(st)}
    ok, _events, reason = scene.session.apply(GmDiceSeed(week=st.week, commitment=commitment_of(secret),
                                                         secret=secret, salts=salts))
    assert ok, reason


def test_on_a_seeded_week_the_dialog_warns_that_verify_dice_fails_and_forces_only_after_confirming() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    _seed_the_week(scene)
    _gm_view(app, scene)
    assert "Week 1's dice are seeded (commitment protocol): forcing a roll now fails its verify-dice." \
        in _panel(scene)
    n = len(scene.session.history)
    dialog = _dialog(app)
    app.render()
    shown = " ".join(dialog.drawn_strings)
    assert "Warning: the dice of week 1 were seeded by the commitment protocol" in shown
    assert "verify-dice" in shown and "will then fail" in shown
    assert not dialog.submit("9")  # asks first
    confirm = top(app)
    assert confirm.name == "gm_force_after_seed" and scene.state.forced == ()
    key(app, pygame.K_ESCAPE)  # "Do not force"
    assert top(app) is dialog and scene.state.forced == () and len(scene.session.history) == n
    assert not dialog.submit("9")
    key(app, pygame.K_f)  # "Force anyway"
    assert top(app) is scene
    assert scene.state.forced == (9,) and scene.session.history[-1].command.kind == "gm_force_rolls"


def test_on_a_week_not_seeded_the_dialog_says_a_later_seed_drops_the_queue_and_asks_nothing() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    _gm_view(app, scene)
    dialog = _dialog(app)
    app.render()
    shown = " ".join(dialog.drawn_strings)
    assert "Warning" not in shown and "the seed drops the values still queued" in shown
    assert "verify-dice` lists this command among the GM's commands before the seed" in shown
    assert dialog.submit("2")
    assert top(app) is scene and scene.state.forced == (2,)


@pytest.mark.parametrize("size", [(1280, 800), (960, 600)])
def test_the_dialog_and_its_warning_fit_the_window(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    play_to_orders(app, scene)
    through_handoff(app)
    _seed_the_week(scene)
    _gm_view(app, scene)
    dialog = _dialog(app)
    app.render()
    box = dialog._box()
    assert pygame.Rect(0, 0, *size).contains(box)
    assert any("verify-dice" in s for s in dialog.drawn_strings)
    assert box.contains(dialog.ok.rect) and box.contains(dialog.entry.rect)


def test_in_the_smallest_window_the_gm_panels_text_stays_above_its_buttons() -> None:
    app, scene = _app((960, 600))
    play_to_orders(app, scene)
    through_handoff(app)
    _gm_view(app, scene)
    assert _dialog(app).submit("5")
    app.render()
    assert scene.fight_battle() is not None  # the Battle panel's lines fill the panel
    panel_x = 960 - 400
    drawn = [(t, r) for t, r in scene.drawn_rects if r.x >= panel_x]
    assert any(t.startswith("GM: forced the next rolls 5.") for t, _ in drawn)  # the confirmation is shown
    assert any(t.startswith("Next rolls forced (1): 5.") for t, _ in drawn)
    for text, rect in drawn:
        assert rect.bottom <= scene.widgets_top, (text, rect, scene.widgets_top)


def test_ctrl_z_in_the_gm_view_keeps_the_passphrase_and_the_dice_seed_and_says_why() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    _gm_view(app, scene)  # the passphrase set now: the last command
    n = len(scene.session.history)
    ctrl_z = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL, unicode="", scancode=0)
    app.step([ctrl_z])
    app.render()
    assert len(scene.session.history) == n and scene.state.gm_lock is not None
    assert "Not undone: the GM's passphrase holds for the whole campaign." in _panel(scene)
    _seed_the_week(scene)
    app.step([ctrl_z])
    app.render()
    assert len(scene.session.history) == n + 1 and scene.session.history[-1].command.kind == "gm_dice_seed"
    assert "Not undone: the week's dice seed stays" in _panel(scene)
