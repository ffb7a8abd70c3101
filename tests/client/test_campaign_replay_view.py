"""The campaign's replay view (F3, game/systems/campaign/client/replay.py): the island as the GM
sees it after N commands, stepped by command, phase and week, with the step's command, dice and
events; behind the GM's seat exactly as the GM view (it shows every side's sealed orders), and
never changing the live game."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.shell import launch, savegame  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.systems.campaign.client.replay import CampaignReplayScene  # noqa: E402
from game.systems.campaign.rules.commands import GmDiceSeed  # noqa: E402
from game.systems.campaign.rules.dice_seed import commitment_of, ordering_players  # noqa: E402
from game.systems.campaign.rules.models import MANOEUVRE_NAMES  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.campaignfix import PASSPHRASE, top  # noqa: E402
from tests.client.campaignfix import saves_in_tmp as _saves  # noqa: E402, F401 - autouse fixture
from tests.client.campaignfix import teaching_app as _app  # noqa: E402
from tests.client.test_campaign_client import key, past_reveal, play_to_orders, through_handoff  # noqa: E402


def _set_passphrase(app: App, scene: Any) -> None:
    key(app, pygame.K_g)
    lock = top(app)
    assert lock is not None and lock.name == "gm_lock" and lock.mode == "set"
    assert lock.submit(PASSPHRASE), lock.message
    key(app, pygame.K_g)  # leave the GM view again
    through_handoff(app)
    assert not scene.gm


def _zones_seal_withdraw(app: App, scene: Any) -> None:
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones"
    key(app, pygame.K_1)  # Withdraw
    key(app, pygame.K_RETURN)
    through_handoff(app)
    assert scene.viewer != "zones" and any(b.orders for b in scene.state.open_games())


def _open_replay(app: App) -> CampaignReplayScene:
    key(app, pygame.K_F3)
    lock = top(app)
    assert lock is not None and lock.name == "gm_lock" and lock.purpose == "replay"
    assert lock.submit(PASSPHRASE), lock.message
    app.render()
    replay = top(app)
    assert isinstance(replay, CampaignReplayScene)
    return replay


def _sealed_words() -> list[str]:
    return [*MANOEUVRE_NAMES.values(), "Sealed orders:"]


def test_opening_stepping_and_closing_the_replay_leaves_the_live_game_unchanged() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    session = scene.session
    steps_before = list(session.history)
    state_before = session.state
    viewer_before = scene.viewer
    replay = _open_replay(app)
    n = len(steps_before)
    assert replay.index == n
    for k in (pygame.K_LEFT, pygame.K_PAGEUP, pygame.K_UP, pygame.K_HOME, pygame.K_RIGHT, pygame.K_PAGEDOWN,
              pygame.K_DOWN, pygame.K_1, pygame.K_END, pygame.K_LEFT):
        key(app, k)
    assert replay.index == n - 1
    assert replay.display.state is steps_before[n - 2].after  # the display shows the state after N-1 commands
    key(app, pygame.K_ESCAPE)
    assert top(app) is scene
    assert session.history == steps_before and all(a is b for a, b in zip(session.history, steps_before, strict=True))
    assert session.state is state_before
    assert not session.record.redo_stack
    assert scene.viewer == viewer_before and not scene.gm


def test_without_the_passphrase_f3_at_an_order_screen_opens_no_replay_and_shows_nothing_sealed() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    assert scene.orders_panel is not None or scene.state.phase == "orders"
    key(app, pygame.K_F3)
    lock = top(app)
    assert lock is not None and lock.name == "gm_lock" and lock.purpose == "replay"
    app.render()
    drawn = " ".join(lock.drawn_strings)
    assert "replay" in drawn and not any(w in drawn for w in _sealed_words())
    assert not lock.submit("not the passphrase")
    assert lock.message == "That is not the GM's passphrase."
    assert not any(isinstance(s, CampaignReplayScene) for s in app.scenes)
    key(app, pygame.K_ESCAPE)
    assert top(app) is scene and not scene.gm


def test_with_orders_sealed_and_no_passphrase_set_the_replay_stays_closed() -> None:
    app, scene = _app()
    _zones_seal_withdraw(app, scene)
    key(app, pygame.K_F3)
    lock = top(app)
    assert lock is not None and lock.purpose == "replay" and lock.mode == "closed" and lock.ok is None
    assert not lock.submit("anything at all")
    assert not any(isinstance(s, CampaignReplayScene) for s in app.scenes)


def test_f3_on_the_hand_off_screen_opens_nothing() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    key(app, pygame.K_RETURN)  # the next player's turn: the hand-off comes up... (Resistance seals)
    assert top(app) is not None and top(app).name == "handoff"
    key(app, pygame.K_F3)
    assert top(app).name == "handoff"
    assert not any(isinstance(s, CampaignReplayScene) or s.name == "gm_lock" for s in app.scenes)


def test_from_the_gm_view_f3_opens_the_replay_at_once_with_every_sides_sealed_orders() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    key(app, pygame.K_g)
    assert top(app).submit(PASSPHRASE)
    assert scene.gm
    key(app, pygame.K_F3)
    replay = top(app)
    assert isinstance(replay, CampaignReplayScene)  # no second passphrase in the GM view
    # the last command is the Zones' sealed orders: the GM's replay names them
    app.render()
    drawn = " ".join(replay.drawn_strings)
    assert "The Zones seal orders" in drawn and "Sealed orders: Withdraw" in drawn
    key(app, pygame.K_ESCAPE)
    assert top(app) is scene and scene.gm


def test_the_replay_jumps_by_phase_and_week_and_tells_each_steps_command_dice_and_events() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    play_to_orders(app, scene)
    for k in (pygame.K_1, pygame.K_5, pygame.K_2, pygame.K_3):
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)
    past_reveal(app)
    through_handoff(app)
    assert scene.state.week == 2
    replay = _open_replay(app)
    n = len(replay.steps)
    key(app, pygame.K_HOME)
    assert replay.index == 0 and replay.display.state.week == 1 and replay.display.state.phase == "movement"
    key(app, pygame.K_PAGEDOWN)
    assert replay.display.state.phase == "declare"  # one phase on
    assert replay.state_at(replay.index - 1).phase == "movement"
    key(app, pygame.K_DOWN)
    assert replay.display.state.week == 2 and replay.state_at(replay.index - 1).week == 1  # the week's first
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)
    assert replay.index == 0
    key(app, pygame.K_2)
    week2 = replay.index
    assert replay.display.state.week == 2
    assert replay.state_at(week2 - 1).week == 1
    # the step that began week 2 is the last sealed orders: the reveal and every battle's dice
    step = replay.steps[replay.index - 1]
    lines = [t for t, *_ in replay.step_lines()]
    assert lines[0].startswith(f"{replay.index}. ") and ("seals orders" in lines[0] or "seal orders" in lines[0])
    dice = scene.system.rolls(step.events)
    assert dice and lines[2] == f"Dice ({len(dice)}): " + ", ".join(str(d) for d in dice)
    words = [scene.system.describe_event(step.before, e) for e in step.events]
    assert lines[3:] == words and any("successes" in w for w in words)
    app.render()
    assert any("more line" in s for s in replay.drawn_strings)  # too many for the panel: it says so
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(1100, 300), rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False)])  # the wheel over the panel
    assert replay.scroll == 6
    app.render()
    assert lines[0] in replay.drawn_strings  # the command's line stays put
    assert "(6 lines above: the wheel scrolls back)" in replay.drawn_strings
    assert words[0] not in replay.drawn_strings  # the events scrolled under it
    for _ in range(30):  # far past the end: it stops with the last line at the foot of the panel
        app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False)])
        app.render()
    assert words[-1] in replay.drawn_strings and not any("more line" in t for t in replay.drawn_strings)
    shown_words = [w for w in words if w in replay.drawn_strings]
    assert len(shown_words) > 3  # a panel of lines, not one left alone
    key(app, pygame.K_END)
    assert replay.index == n


@pytest.mark.parametrize("size", [(1280, 800), (960, 600)])
def test_the_replay_panel_and_its_buttons_fit_the_window(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    _set_passphrase(app, scene)
    replay = _open_replay(app)
    app.render()
    w, h = size
    for b in replay.buttons:
        r = b.rect
        assert r.left >= w - 400 and r.right <= w and r.bottom <= h


def test_ctrl_z_f2_and_f3_in_the_replay_say_close_it_first_and_change_nothing() -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    steps_before = list(scene.session.history)
    replay = _open_replay(app)
    for k, mod in ((pygame.K_z, pygame.KMOD_CTRL), (pygame.K_F2, 0), (pygame.K_F3, 0)):
        replay.note = ""
        app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)])
        app.render()
        assert top(app) is replay
        assert replay.note.startswith("The replay view: close it first (Esc)")
        assert any(s.startswith("The replay view: close it first (Esc)") for s in replay.drawn_strings)
    assert scene.session.history == steps_before and not scene.gm


def _jibril_pressing_the_gm_keys(zones_key: int) -> list[list[str]]:
    """Jibril at its order screen (the Zones' orders sealed with `zones_key`) presses F3, G, N, B
    and Ctrl+Z: what each screen then draws."""
    app, scene = _app()
    _set_passphrase(app, scene)
    play_to_orders(app, scene)
    for k in (zones_key, pygame.K_5, pygame.K_2):
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)
    through_handoff(app)
    assert scene.viewer == "jibril" and scene.orders_panel is not None
    frames: list[list[str]] = []
    for k, mod in ((pygame.K_F3, 0), (pygame.K_g, 0), (pygame.K_n, 0), (pygame.K_b, 0), (pygame.K_z, pygame.KMOD_CTRL)):
        app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)])
        app.render()
        shown = top(app)
        assert not isinstance(shown, CampaignReplayScene) and not scene.gm
        frames.append(list(shown.drawn_strings))
        if shown is not scene:
            key(app, pygame.K_ESCAPE)  # back from the GM's seat
        assert top(app) is scene
    return frames


def test_a_player_at_an_order_screen_pressing_f3_or_the_gm_views_keys_sees_nothing_of_the_sealed_orders() -> None:
    withdraw = _jibril_pressing_the_gm_keys(pygame.K_1)
    block = _jibril_pressing_the_gm_keys(pygame.K_3)
    assert withdraw == block  # every frame the same, whatever the Zones sealed
    f3, g, n, b, _undo = withdraw
    assert "The replay shows every command of the campaign, every side's sealed" in f3
    assert "The GM view shows every side's sealed orders." in g
    assert any("Forcing the next rolls is the GM's" in s for s in n)
    assert any(s.startswith("B shows the next open battle in the GM's Battle panel") for s in b)


def _saved(scene: Any, tmp_path: Path) -> Path:
    path: Path = savegame.save_session(scene.session, tmp_path / "campaign-save.yaml")
    return path


def test_a_campaign_saves_replay_from_the_load_menu_asks_for_the_passphrase_the_save_keeps(tmp_path: Path) -> None:
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    path = _saved(scene, tmp_path)
    # a player at the screen (the Resistance's orders) opens the load menu's Replay on that save
    assert launch.open_replay_file(app, path) is None
    lock = top(app)
    assert lock.name == "gm_lock" and lock.purpose == "replay" and lock.mode == "unlock"
    app.render()
    assert not any(w in " ".join(lock.drawn_strings) for w in _sealed_words())
    assert not lock.submit("a player's guess")
    assert not any(isinstance(s, CampaignReplayScene) for s in app.scenes)
    assert lock.submit(PASSPHRASE)
    replay = top(app)
    assert isinstance(replay, CampaignReplayScene) and replay.index == 0  # a save's replay starts at the start
    key(app, pygame.K_END)
    app.render()
    assert any(s.startswith("Sealed orders: Withdraw") for s in replay.drawn_strings)
    key(app, pygame.K_ESCAPE)
    assert top(app) is scene and not scene.gm


def test_a_campaign_save_with_orders_sealed_and_no_passphrase_keeps_its_replay_closed(tmp_path: Path) -> None:
    app, scene = _app()
    _zones_seal_withdraw(app, scene)
    path = _saved(scene, tmp_path)
    bare = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    assert launch.open_replay_file(bare, path) is None
    lock = top(bare)
    assert lock.name == "gm_lock" and lock.mode == "closed" and lock.ok is None
    assert not lock.submit("anything")
    assert not any(isinstance(s, CampaignReplayScene) for s in bare.scenes)


def test_a_campaign_save_with_nothing_sealed_and_no_passphrase_opens_its_replay_at_once(tmp_path: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)  # the week up to its orders: nothing sealed yet
    path = _saved(scene, tmp_path)
    bare = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    assert launch.open_replay_file(bare, path) is None
    replay = top(bare)
    assert isinstance(replay, CampaignReplayScene) and replay.index == 0
    assert replay.game_title == "campaign-save.yaml"
    key(bare, pygame.K_END)
    assert replay.index == len(scene.session.history)


def test_a_saves_replay_alone_in_the_window_stays_open_once_the_passphrase_is_given(tmp_path: Path) -> None:
    """`python -m game replay SAVE --view`: the GM's seat is the only screen; the right passphrase
    puts the replay in its place (the window used to close with the seat, the last screen)."""
    app, scene = _app()
    _set_passphrase(app, scene)
    _zones_seal_withdraw(app, scene)
    path = _saved(scene, tmp_path)
    alone = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    alone.running = True
    assert launch.open_replay_file(alone, path) is None
    assert len(alone.scenes) == 1 and top(alone).name == "gm_lock"
    assert top(alone).submit(PASSPHRASE)
    assert alone.running and len(alone.scenes) == 1 and isinstance(top(alone), CampaignReplayScene)


@pytest.mark.parametrize("size", [(1280, 800), (960, 600)])
def test_every_line_of_the_replay_panel_fits_its_width_even_a_dice_seeds_long_digest(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    play_to_orders(app, scene)
    through_handoff(app)
    st = scene.state
    secret = "a secret"
    ok, _e, why = scene.session.apply(GmDiceSeed(week=st.week, commitment=commitment_of(secret), secret=secret,
                                                 salts={p: f"salt-{p}" for p in ordering_players(st)}))
    assert ok, why
    key(app, pygame.K_g)
    assert top(app).submit(PASSPHRASE)
    key(app, pygame.K_F3)
    replay = top(app)
    assert isinstance(replay, CampaignReplayScene)
    key(app, pygame.K_LEFT)  # the seed's step (the passphrase's is the last)
    app.render()
    assert replay.steps[replay.index - 1].command.kind == "gm_dice_seed"
    assert any("sha256:" in t for t, _ in replay.drawn_rects)  # the commitment, broken to fit
    for text, rect in replay.drawn_rects:
        assert rect.left >= size[0] - 400 and rect.right <= size[0] - 8, (text, rect)
