"""The shell's GM passphrase in the window (game/shell/gm_seat.py): set in the players dialog (P,
"GM passphrase..."), asked by F2 before GM mode opens in the tactical and the mass battle, drawn
with nothing of the game under it; GM mode's opening said on the game's line and kept in its saves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.core import gm_lock
from game.io import saves
from game.shell import savegame
from game.shell.app import App, Settings
from game.shell.contracts import live_game
from game.shell.gm_seat import PassphraseFormScene, PassphraseScene
from game.shell.launch import open_game
from game.shell.scene import Scene
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.systems.mass.client import MassBoardScene, MassGmScene, open_scene
from game.table import TABLE
from tests.client.clientfix import battle, key, top_name
from tests.client.test_load_menu import demo_save, open_app, saves_dir  # noqa: F401 - fixture

ROOT = Path(__file__).resolve().parents[2]
MASS = ROOT / "maps" / "mass" / "borderland-valley.yaml"


@pytest.fixture(autouse=True)
def quick_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock of 1,000 rounds (the least a save accepts): the same scheme, quicker tests."""
    monkeypatch.setattr(gm_lock, "ITERATIONS", 1_000)


def _set_in_players_dialog(app: App, passphrase: str) -> None:
    """P, then (play has begun) the GM's word, then "GM passphrase..." and the passphrase twice."""
    live = live_game(app)
    assert live is not None
    live.players_dialog()  # type: ignore[attr-defined]
    dialog = app.scenes.top
    assert isinstance(dialog, DialogScene) and dialog.name == "seats"
    if "I am the GM (G)" in [c.label for c in dialog.choices]:
        dialog.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    app.scenes.top.choose_label("GM passphrase... (K)")  # type: ignore[attr-defined]
    form = app.scenes.top
    assert isinstance(form, PassphraseFormScene)
    assert form.submit("", passphrase, passphrase)
    assert top_name(app) == "seats"  # back in the players dialog, which now says a passphrase is set
    assert "GM passphrase: set" in app.scenes.top.body_text  # type: ignore[attr-defined]
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]


def _mass_app() -> tuple[App, MassBoardScene]:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    board = open_scene(app, open_game(TABLE, MASS))
    assert isinstance(board, MassBoardScene)
    app.push(board)
    app.step([])
    while isinstance(app.scenes.top, HandoffScene):
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="", scancode=0)])
    return app, board


def _f2(app: App) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0),
              pygame.event.Event(pygame.KEYUP, key=pygame.K_F2, mod=0, unicode="", scancode=0)])


def test_a_passphrase_set_in_the_players_dialog_is_saved_as_a_digest_not_the_text_and_loads_back(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    path = savegame.save_session(battle(app).session, tmp_path / "locked.yaml")
    text = path.read_text(encoding="utf-8")
    assert "owl and oak" not in text
    header = saves.read_header(path)
    assert header.gm_lock is not None and len(header.gm_lock.digest) == 64 and header.gm_lock.iterations == 1_000
    assert header.gm_lock.digest == gm_lock.digest_of("owl and oak", header.gm_lock.salt, 1_000)
    loaded = savegame.load_session(TABLE, path)
    assert loaded is not None
    kept = gm_lock.keeping(loaded)
    assert kept.is_set and kept.opens("owl and oak") and not kept.opens("owl and elm")
    assert savegame.verify(TABLE, path).commands == 4  # replay --verify: the log replays as before (raises if not)


def test_f2_with_a_passphrase_set_asks_for_it_and_opens_tactical_gm_mode_only_with_the_right_one(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    key(app, pygame.K_F2)
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene) and top_name(app) == "gm_lock"
    assert not lock.submit("owl and elm")
    assert lock.message == "That is not the GM's passphrase." and app.scenes.top is lock
    assert not any(s.name == "gm" for s in app.scenes)  # a wrong one opens nothing
    assert lock.submit("owl and oak")
    assert top_name(app) == "gm"


def test_a_wrong_passphrase_opens_nothing_and_nothing_of_the_game_is_drawn_under_the_question(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    steps = list(battle(app).session.history)
    key(app, pygame.K_F2)
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene)
    assert app.scenes.visible() == [lock]  # the battle under it is not drawn
    frame = app.render()
    assert tuple(frame.get_at((5, 5)))[:3] == (16, 16, 20)  # the seat's own plain background
    lock.submit("not it")
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle" and list(battle(app).session.history) == steps
    assert gm_lock.keeping(battle(app).session).opened == []  # GM mode never opened


def test_f2_with_a_passphrase_set_asks_for_it_and_opens_mass_gm_mode_only_with_the_right_one() -> None:
    app, board = _mass_app()
    _set_in_players_dialog(app, "reeds bend")
    _f2(app)
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene) and app.scenes.visible() == [lock]
    assert not lock.submit("reeds break") and not any(isinstance(s, MassGmScene) for s in app.scenes)
    assert lock.submit("reeds bend")
    assert isinstance(app.scenes.top, MassGmScene)


def test_changing_or_clearing_the_passphrase_takes_the_current_one_first(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    kept = gm_lock.keeping(battle(app).session)
    form = PassphraseFormScene(app, kept)
    app.push(form)
    assert not form.submit("guess", "mine now", "mine now") and "not the GM's passphrase" in form.message
    assert not form.clear_lock("guess") and kept.opens("owl and oak")
    assert form.submit("owl and oak", "elm and ash", "elm and ash") and kept.opens("elm and ash")
    form = PassphraseFormScene(app, kept)
    app.push(form)
    assert form.clear_lock("elm and ash") and not kept.is_set
    path = savegame.save_session(battle(app).session, tmp_path / "cleared.yaml")
    assert saves.read_header(path).gm_lock is None and "gm_lock" not in path.read_text(encoding="utf-8")


def test_opening_gm_mode_is_said_in_gm_modes_panel_and_kept_in_the_save_for_later_players(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    scene = battle(app)
    key(app, pygame.K_F2)
    assert isinstance(app.scenes.top, PassphraseScene) and app.scenes.top.submit("owl and oak")
    rnd = int(scene.session.system.summary(scene.state)["round"])
    gm = app.scenes.top
    assert top_name(app) == "gm"
    assert gm.message.startswith(f"GM mode opened in round {rnd}. ")  # type: ignore[attr-defined]
    key(app, pygame.K_F2)  # leaves GM mode
    path = savegame.save_session(scene.session, tmp_path / "after.yaml")
    assert saves.read_header(path).gm_opened == (rnd,)
    loaded = savegame.load_session(TABLE, path)
    assert loaded is not None and gm_lock.keeping(loaded).opened == [rnd]
    # a later player sees it in the players dialog
    app2 = open_app(path)
    live = live_game(app2)
    live.players_dialog()  # type: ignore[union-attr]
    assert f"GM mode was opened in round {rnd}" in app2.scenes.top.body_text  # type: ignore[attr-defined]


def test_opening_mass_gm_mode_is_said_in_the_boards_log_and_kept_in_the_save(tmp_path: Path,
                                                                          saves_dir: Path) -> None:  # noqa: F811
    app, board = _mass_app()
    said: list[str] = []
    board.notify = lambda text, seconds, problem: (said.append(text), True)[1]  # type: ignore[method-assign]
    _f2(app)
    if isinstance(app.scenes.top, DialogScene):  # two sides at the screen: the GM's word first
        assert app.scenes.top.name == "gm_ask" and "sealed choices" in str(app.scenes.top.body_text)
        app.scenes.top.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    assert isinstance(app.scenes.top, MassGmScene)
    assert said == ["GM mode opened in wave 1"]
    data = savegame.session_save(board.session)
    assert data.header.gm_opened == (1,)


class _Campaign(Scene):
    """A campaign screen under a battle fought out from it: its GM's seat with a passphrase set."""

    name = "campaign"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.gm_seat = type("Seat", (), {"is_set": True, "opens": staticmethod(lambda p: p == "sesame")})()


def test_a_tactical_battle_from_a_campaign_asks_for_the_campaigns_passphrase_and_offers_no_own(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    app.scenes._scenes.insert(0, _Campaign(app))  # type: ignore[attr-defined]
    key(app, pygame.K_F2)
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene) and any("campaign" in line for line in lock.lines)
    assert not lock.submit("owl and oak")
    assert lock.submit("sesame") and top_name(app) == "gm"
    key(app, pygame.K_F2)
    battle(app).players_dialog()
    assert "GM passphrase... (K)" not in [c.label for c in app.scenes.top.choices]  # type: ignore[attr-defined]


def test_the_players_dialog_keeps_a_new_passphrase_for_the_gm_once_play_has_begun(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    battle(app).players_dialog()
    app.scenes.top.choose_label("GM passphrase... (K)")  # type: ignore[attr-defined]
    assert top_name(app) == "seats" and "Refused." in app.scenes.top.body_text  # type: ignore[attr-defined]
    assert not gm_lock.keeping(battle(app).session).is_set


def test_hotseat_without_a_passphrase_asks_first_in_the_tactical_battle(tmp_path: Path,
                                                                       saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    app.settings.blackout = True  # two sides at the screen, kept apart: hotseat
    key(app, pygame.K_F2)
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "gm_ask"
    assert "sealed choices" in str(ask.body_text) and "players dialog" in str(ask.body_text)
    key(app, pygame.K_ESCAPE)  # a player goes back: nothing opened, nothing kept
    assert top_name(app) == "battle" and gm_lock.keeping(battle(app).session).opened == []
    key(app, pygame.K_F2)
    key(app, pygame.K_g)  # "I am the GM"
    assert top_name(app) == "gm" and len(gm_lock.keeping(battle(app).session).opened) == 1


def test_a_gm_at_the_table_or_one_side_at_the_screen_opens_tactical_gm_mode_at_once(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    app.settings.blackout = False  # "GM at the table": the screen shows every side's play anyway
    key(app, pygame.K_F2)
    assert top_name(app) == "gm"
    key(app, pygame.K_F2)
    app.settings.blackout = True
    battle(app).session.seats.levels = {"zenith": "easy"}  # one side at the screen, one by the computer
    key(app, pygame.K_F2)
    assert top_name(app) == "gm"


def test_the_replays_gm_move_tool_asks_for_the_passphrase_before_anything_can_be_cut(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    steps = list(battle(app).session.history)
    key(app, pygame.K_F3)
    replay = app.scenes.top
    assert top_name(app) == "replay"
    key(app, pygame.K_HOME)
    key(app, pygame.K_m)  # the GM's Move tool
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene)
    assert not lock.submit("owl and elm")
    assert replay.gm_tool is None  # type: ignore[attr-defined]
    assert lock.submit("owl and oak")
    assert app.scenes.top is replay and replay.gm_tool == "move"  # type: ignore[attr-defined]
    assert list(battle(app).session.history) == steps  # nothing cut until a unit is moved


def test_restarting_a_battle_keeps_its_gm_passphrase(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    _set_in_players_dialog(app, "owl and oak")
    old = battle(app)
    old.restart()  # type: ignore[attr-defined]
    fresh = live_game(app)
    assert fresh is not None and fresh is not old
    kept = gm_lock.keeping(fresh.session)
    assert kept.is_set and kept.opens("owl and oak") and kept.opened == []
