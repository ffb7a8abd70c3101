"""The GM moving a unit inside the replay view (issue 12, "How it is checked"): on the replay of
the game being played, the GM's Move tool picks exactly the hex under the pointer, asks before
discarding the later commands, keeps the whole game in a save first, cuts the live history back
to the command shown and plays on from there in GM mode. Driven by real key presses and clicks."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.hexgrid import Hex, neighbours
from game.io import saves
from game.replay import load_game
from game.shell.app import App
from game.shell.toolkit.richtext import Span
from game.table import TABLE
from tests.client.clientfix import battle, click_at, key, move_mouse, press_button, top_name
from tests.client.test_load_menu import open_app, saves_dir  # noqa: F401 - fixture
from tests.client.test_replay_view import played_overwatch


def _replay(app: App):  # type: ignore[no-untyped-def]
    assert top_name(app) == "replay", top_name(app)
    return app.scenes.top


def _screen(replay, h: Hex) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    cam = replay.view.camera
    cam.ensure_visible(*replay.view.layout.hex_center(h), margin=120)
    x, y = cam.world_to_screen(*replay.view.layout.hex_center(h))
    return round(x), round(y)


def _free_neighbour(st, h: Hex) -> Hex:  # type: ignore[no-untyped-def]
    return next(n for n in neighbours(h) if n in st.board.terrain and st.unit_at(n) is None
                and not st.setup.rules.terrain[st.board.terrain[n]].impassable)


def _back_to_a_past_command(app: App):  # type: ignore[no-untyped-def]
    """F3, then back to the command before the lancers' charge (several later commands)."""
    key(app, pygame.K_F3)
    replay = _replay(app)
    charge = next(i for i, s in enumerate(replay.steps) if s.command.kind == "charge")
    replay.goto(charge)
    return replay, charge


def test_the_gm_moves_a_unit_in_the_replay_and_the_game_plays_on_from_there(tmp_path: Path,
                                                                            saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    live = battle(app)
    old_history = list(live.session.history)
    replay, index = _back_to_a_past_command(app)
    st = replay.display.state
    lancer = next(u for u in st.units.values() if "lancer" in u.id and not u.destroyed)
    press_button(app, "GM: Move (M)")
    assert replay.gm_tool == "move"
    at = _screen(replay, lancer.hex)
    move_mouse(app, at)
    assert replay.view.hover == lancer.hex  # the hex under the pointer, in the narrowed view
    click_at(app, at)
    assert replay.gm_unit == lancer.id
    target = _free_neighbour(st, lancer.hex)
    click_at(app, _screen(replay, target))
    # asked first, naming how many later commands are discarded
    assert top_name(app) == "branch_confirm"
    later = len(old_history) - index
    assert Span(f"discards the {later} later commands", bold=True) in app.scenes.top.body_html[0]  # type: ignore[union-attr]
    press_button(app, "Discard and move")
    # the game goes on from that command, in GM mode, with the unit on the clicked hex
    assert top_name(app) == "gm"
    history = live.session.history
    assert len(history) == index + 1 and history[:index] == old_history[:index]
    assert history[-1].command.kind == "gm_move_unit" and history[-1].gm
    assert live.state.units[lancer.id].hex == target
    assert not live.session.record.can_redo  # the discarded commands are not redone by accident
    # and nothing is lost: the whole game before the branch is in a save
    kept = sorted(saves_dir.glob("*-before-branch*.yaml"))
    assert len(kept) == 1
    loaded = load_game(TABLE, kept[0])
    assert [s.command for s in loaded.record.steps] == [s.command for s in old_history]
    assert saves.read_header(kept[0]).title.endswith("(before a GM branch)")
    assert kept[0].name in live.toast_text  # type: ignore[operator]


def test_cancelling_the_branch_changes_nothing(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    live = battle(app)
    old_history = list(live.session.history)
    old_state = live.state
    replay, _ = _back_to_a_past_command(app)
    st = replay.display.state
    lancer = next(u for u in st.units.values() if "lancer" in u.id and not u.destroyed)
    key(app, pygame.K_m)
    click_at(app, _screen(replay, lancer.hex))
    click_at(app, _screen(replay, _free_neighbour(st, lancer.hex)))
    assert top_name(app) == "branch_confirm"
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "replay"
    assert live.session.history == old_history and live.state == old_state
    assert not list(saves_dir.glob("*-before-branch*.yaml"))
    key(app, pygame.K_ESCAPE)  # leaves the Move tool first, then the replay
    assert top_name(app) == "replay" and replay.gm_tool is None
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle"


def test_the_replay_of_a_save_not_being_played_says_how_to_branch_and_changes_nothing(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    from game.shell import launch

    path = played_overwatch(tmp_path / "ow.yaml")
    app = open_app(path)
    live = battle(app)
    old_history = list(live.session.history)
    assert launch.open_replay_file(app, path) is None  # (what the load menu's Replay does)
    replay = _replay(app)
    replay.goto(3)
    st = replay.display.state
    unit = next(u for u in st.units.values() if not u.destroyed)
    gm_button = next(b for b, k in replay.buttons.items() if k == "gm_move")
    assert not gm_button.is_enabled  # no game to play on: the button says so by being off
    key(app, pygame.K_m)  # said at once (QA: only after a unit and a hex were picked)
    assert replay.gm_tool is None and "load it" in (replay.view.toast_text or "")
    click_at(app, _screen(replay, unit.hex))
    assert replay.gm_unit is None
    click_at(app, _screen(replay, _free_neighbour(st, unit.hex)))
    assert top_name(app) == "replay"  # nothing asked, nothing cut
    assert live.session.history == old_history and replay.display.state.units[unit.id].hex == unit.hex
    assert not list(saves_dir.glob("*-before-branch*.yaml"))
