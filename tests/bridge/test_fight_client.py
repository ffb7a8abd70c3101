"""The window's side of a battle fought out (game/bridge/client/fight.py, docs/scales.md),
headless with real pygame events: fresh dice for every battle begun, abandoning asks and saves
the campaign and a later Fight begins a new battle, the battle save names its battle file
relative to itself (a moved saves folder keeps working), a later save of the battle (Save and
quit) is offered on Resume, a save of another campaign battle is refused on the way back, and the
GM's lock on the seats of a battle under a campaign's passphrase."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from game.bridge.files import CampaignBattle, generate_battle, scenario_of_save  # noqa: E402
from game.io.saves import read_header  # noqa: E402
from game.replay import load_game  # noqa: E402
from game.shell import actions, gm_seat, savegame  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.shell.savegame import load_session  # noqa: E402
from game.shell.toolkit.richtext import plain  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.bridge.players import _pick  # noqa: E402
from tests.client.clientfix import key, press_button, settle, top_name  # noqa: E402
from tests.client.test_campaign_client import _app, open_gm, play_to_orders, through_handoff  # noqa: E402


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    return tmp_path / "saves"


def _fight(app: Any, scene: Any, scale: str = "tactical") -> Any:
    if scale == "mass":
        key(app, pygame.K_b)
    press_button(app, f"Fight: {scale}")
    settle(app, 2)
    for _ in range(4):  # the briefing, the hand-offs of a hotseat battle
        if top_name(app) == "briefing":
            key(app, pygame.K_RETURN)
        elif top_name(app) == "handoff":
            key(app, pygame.K_SPACE)
    return next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)


def _play(battle: Any, n: int) -> None:
    bs = battle.session
    for _ in range(n):
        ok, _e, why = bs.apply(_pick(bs.system.name, bs.system.legal_commands(bs.state)))
        assert ok, why


def _back_later(app: Any) -> None:
    for _ in range(4):  # a hand-off or a phase's dialog over the battle: the battle's own screen first
        if top_name(app) not in ("battle", "mass_board"):
            app.pop()
    key(app, pygame.K_b, mod=pygame.KMOD_CTRL)  # Ctrl+B: back to the campaign map
    assert top_name(app) == "battle_return"
    press_button(app, "Later")
    through_handoff(app)  # the screen goes on to the power the campaign waits for


def _started(saves: Path) -> tuple[Any, Any, Any]:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    return app, scene, _fight(app, scene)


def test_a_battle_fought_out_deals_fresh_dice_each_time_it_is_begun(saves: Path) -> None:
    app, scene, battle = _started(saves)
    first = battle.session.seed
    assert first != scene.session.seed  # not the campaign's dice (its scouting rolls are in its log)
    # begun again from its battle file (never saved): other dice again, not the attempt's
    scene.fight.away = None  # the battle left without its way back (the program quit, nothing saved)
    while app.scenes.top is not scene:
        app.pop()
    assert scene.fight.resume("B1")
    again = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    assert again.session.seed != first and not again.session.history


def test_abandon_to_tables_on_the_gm_panel_asks_naming_the_battle_saves_the_campaign_and_a_new_fight_begins_afresh(
        saves: Path) -> None:
    app, scene, battle = _started(saves)
    old_seed = battle.session.seed
    _play(battle, 3)
    _back_later(app)
    camp = scene.session.save_path
    save = camp.parent / scene.state.battles["B1"].battle_save
    assert read_header(save).commands == 3
    open_gm(app)
    press_button(app, "Abandon to tables")
    dialog = app.scenes.top
    assert dialog is not None and dialog.title == "Abandon battle B1?"  # type: ignore[attr-defined]
    body = plain(dialog.body_html)  # type: ignore[attr-defined]
    assert "Lost: the tactical battle B1 at Lowmarch as its save" in body and "3 commands" in body
    press_button(app, "Keep the battle")  # nothing happens
    assert scene.state.battles["B1"].fought_as == "tactical" and app.scenes.top is scene
    press_button(app, "Abandon to tables")
    press_button(app, "Abandon")
    assert scene.state.battles["B1"].fought_as == "tables"
    saved = load_session(TABLE, camp)  # the campaign saved with it
    assert saved is not None and saved.state.battles["B1"].fought_as == "tables"
    assert "campaign saved" in scene.message
    # fighting it out again: a new battle, not the old save; the old one is kept, and it is said
    through_handoff(app)
    if not scene.gm:
        open_gm(app)
    new = _fight(app, scene)
    assert not new.session.history and new.session.seed != old_seed
    earlier = save.with_name(save.name.removesuffix(".yaml") + "-earlier.yaml")
    assert earlier.is_file() and read_header(earlier).commands == 3 and not save.exists()
    assert "A new tactical battle B1 begins, with fresh dice" in scene.message
    assert f"the earlier battle save is kept as {earlier.name}" in scene.message
    assert ".yaml is kept as " in scene.message and ".yaml.bak" in scene.message  # the battle file's .bak


def test_the_battle_save_names_its_battle_file_beside_it_so_a_moved_saves_folder_keeps_working(
        saves: Path, tmp_path: Path) -> None:
    app, scene, battle = _started(saves)
    _play(battle, 3)
    _back_later(app)
    camp = scene.session.save_path
    save = camp.parent / scene.state.battles["B1"].battle_save
    assert read_header(save).scenario == scenario_of_save(save).name  # relative to the save: beside it
    moved = tmp_path / "elsewhere"
    shutil.copytree(camp.parent, moved)
    shutil.rmtree(camp.parent)
    camp2 = moved / camp.name
    assert len(load_game(TABLE, moved / scene.state.battles["B1"].battle_save).record.steps) == 3
    session = open_game(TABLE, camp2)
    app2 = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene2 = scene_for(app2, session)
    app2.push(scene2)
    through_handoff(app2)
    open_gm(app2)
    press_button(app2, "Resume tactical battle")
    resumed = next(s for s in app2.scenes if getattr(s, "game_scene", False) and s is not scene2)
    assert len(resumed.session.history) == 3


def test_resume_offers_a_later_save_of_the_battle_and_carries_its_play_into_the_campaigns_battle_save(
        saves: Path) -> None:
    app, scene, battle = _started(saves)
    _play(battle, 3)
    _back_later(app)
    camp = scene.session.save_path
    linked = camp.parent / scene.state.battles["B1"].battle_save
    # the battle goes on and is left by Save and quit: a new file in the saves folder
    open_gm(app)
    press_button(app, "Resume tactical battle")
    resumed = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    _play(resumed, 2)
    later = savegame.save_session(resumed.session, actions.new_save_path(resumed.session))
    # another evening
    session = open_game(TABLE, camp)
    app2 = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene2 = scene_for(app2, session)
    app2.push(scene2)
    through_handoff(app2)
    open_gm(app2)
    press_button(app2, "Resume tactical battle")
    assert top_name(app2) == "battle_later"
    body = plain(app2.scenes.top.body_html)  # type: ignore[union-attr]
    assert later.name in body and "5 commands" in body and "holds 3 commands" in body
    press_button(app2, "Use the later save")
    on = next(s for s in app2.scenes if getattr(s, "game_scene", False) and s is not scene2)
    assert len(on.session.history) == 5
    _back_later(app2)
    assert read_header(linked).commands == 5  # the way back wrote it where the campaign links to


def test_the_way_back_refuses_a_save_of_another_campaign_battle(saves: Path) -> None:
    app, scene, battle = _started(saves)
    _back_later(app)
    camp = scene.session.save_path
    linked = camp.parent / scene.state.battles["B1"].battle_save
    week2 = CampaignBattle(scene.fight.link("B1").campaign, "B1", 2)
    other = generate_battle(scene.state, "B1", "tactical", linked.parent, "week2", seed=1, link=week2)
    savegame.save_session(open_game(TABLE, other), linked)
    result, text = scene.fight.translation("B1", linked)
    assert result is None
    assert text == (f"{linked}: a save of battle B1 of week 2 of this campaign; expected battle B1 of week 1")


def test_the_seats_of_a_battle_under_a_campaign_passphrase_unlock_only_with_it(saves: Path) -> None:
    app, scene, battle = _started(saves)
    unlock = gm_seat.seat_unlock(app, battle.session)
    assert unlock is not None
    opened: list[bool] = []
    unlock(lambda: opened.append(True))
    lock = app.scenes.top
    assert lock is not None and lock.name == "gm_lock"
    assert not lock.submit("a player's guess") and not opened  # type: ignore[attr-defined]
    assert lock.submit("gm-secret") and opened  # type: ignore[attr-defined]
    # a battle with no passphrase over it and none of its own: no lock (the GM says so)
    plain_app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    assert gm_seat.seat_unlock(plain_app, open_game(TABLE, "maps/hollow-ridge.yaml")) is None
