"""The campaign client's Battle panel (issue 16), headless with real pygame events: the GM sees
the forecast (every number from the rules' queries), chooses to fight a battle out, the shell
hands over into the battle's own client, and the way back to the map confirms the result (or
abandons the battle to the tables)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from game.bridge.files import forecast  # noqa: E402
from game.core.system import Accepted  # noqa: E402
from game.replay import verify_save  # noqa: E402
from game.shell.savegame import load_session  # noqa: E402
from game.shell.toolkit.richtext import Span, plain  # noqa: E402
from game.systems.campaign.rules.odds import battle_odds  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.bridge.players import _pick  # noqa: E402
from tests.client.clientfix import key, press_button, settle, top_name  # noqa: E402
from tests.client.test_campaign_client import _app, open_gm, play_to_orders, through_handoff  # noqa: E402


def _drawn(app: Any, scene: Any) -> str:
    app.render()
    return " ".join(s.strip() for s in scene.drawn_strings)  # wrapped lines joined again


def _finish(session: Any) -> None:
    """Play the open battle to its end with its own legal commands (the scripted player)."""
    system = session.system
    for _ in range(5000):
        st = session.state
        if getattr(st, "phase", None) == "ended" or getattr(st, "stage", None) == "ended":
            return
        ok, _events, why = session.apply(_pick(system.name, system.legal_commands(st)))
        assert ok, why
    raise AssertionError("the battle did not end")


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def test_the_gm_sees_the_tables_odds_and_both_forecasts_before_choosing(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)  # the GM's view: the Battle panel
    text = _drawn(app, scene)
    odds = battle_odds(scene.state, "B1")
    f = forecast(scene.state, "B1")
    assert "By the tables (exact odds this week):" in text
    assert f"The Zones win {100 * odds.win('zones'):.1f}%" in text  # (plural: the verb agrees)
    assert f"Jibril wins {100 * odds.win('jibril'):.1f}%" in text and f"draw {100 * odds.draw:.1f}%" in text
    assert f"As a tactical battle on {f.tactical_map}:" in text
    z = f.tactical_sides[0]
    assert z.name == "The Zones" and f"The Zones defend: {z.units} units, strength {z.strength}" in text
    assert f"As a mass battle on {f.mass_terrain} ground:" in text
    heaven = dict(f.mass_ways)["heaven"]
    assert f"opening Way of Heaven: The Zones {100 * heaven['zones']:.1f}%" in text
    key(app, pygame.K_b)  # the next battle
    assert "Battle B2 at" in _drawn(app, scene)


def test_a_battle_fought_out_hands_over_to_its_client_and_returns_with_the_result(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    press_button(app, "Fight: tactical")
    settle(app, 2)
    assert top_name(app) == "briefing"  # the generated scenario's briefing, as for any scenario
    key(app, pygame.K_RETURN)
    battle = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    bs = battle.session
    assert bs.system.name == "ail-tactical" and bs.return_to is not None
    camp = scene.session.save_path
    b1 = scene.state.battles["B1"]
    assert b1.fought_as == "tactical" and camp is not None and camp.is_file()
    assert (camp.parent / b1.battle_save).parent.name == "battles"
    # the battle is played to its end; the end summary offers the way back
    _finish(bs)
    settle(app, 3)
    for _ in range(5):  # a hand-off shown before the last commands: pass it on
        if top_name(app) != "handoff":
            break
        key(app, pygame.K_SPACE)
    assert top_name(app) == "end"
    primary = [c.label for c in app.scenes.top.choices if c.primary]  # type: ignore[union-attr]
    assert primary == ["Campaign map"]  # the way back is the default, not Quit
    press_button(app, "Campaign map")
    assert top_name(app) == "battle_return"
    pieces = app.scenes.top.body_html  # type: ignore[union-attr]
    body = plain(pieces)
    assert "1. " not in body and "{" not in body  # sentences, not numbered lists or a printed mapping
    bold = {sp.text for line in pieces for sp in line if sp.bold}
    assert {"Casualties", "Who won", "How it was worked out"} <= bold
    assert "The Zones win a " in body or "Jibril wins a " in body or "A draw" in body
    press_button(app, "Apply the result")
    assert top_name(app) == "handoff"  # the screen goes on to the power to move, not to whoever fought
    through_handoff(app)
    assert app.scenes.top is scene
    assert scene.state.battles["B1"].over and "resolved outside the tables" in scene.state.battles["B1"].ended
    last = scene.session.history[-1].command
    assert last.kind == "gm_battle_result" and last.source is not None and last.source.scale == "tactical"
    # the campaign save refers to the battle's save, and replay --verify follows the link
    report = verify_save(TABLE, camp, follow_links=True)
    assert report.links and all(ok for ok, _ in report.links)
    assert any("translates to the same result" in line for _, line in report.links)


def test_leaving_a_mass_battle_midway_and_abandoning_it_gives_the_battle_back_to_the_tables(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    key(app, pygame.K_b)  # B2
    before = scene.state.to_dict()
    press_button(app, "Fight: mass")
    board = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    assert board.session.system.name == "mass-battle"
    if top_name(app) == "handoff":  # (the mass board opens behind its own hand-off)
        key(app, pygame.K_SPACE)
    assert app.scenes.top is board
    ms = board.session
    outcome = ms.record.apply(ms.system.legal_commands(ms.state)[0])
    assert isinstance(outcome, Accepted)
    key(app, pygame.K_ESCAPE)  # the mass board closes: back on the campaign map
    assert top_name(app) == "battle_return"
    assert "not over yet" in app.scenes.top.title  # type: ignore[union-attr]
    b2 = scene.state.battles["B2"]
    assert (scene.session.save_path.parent / b2.battle_save).is_file()  # saved midway
    assert not scene.gm  # the GM view closed when the battle took the screen
    press_button(app, "Abandon (tables)...")
    # the GM's command: with a GM passphrase set (open_gm set it), only the passphrase goes on
    lock = app.scenes.top
    assert lock is not None and lock.name == "gm_lock" and not lock.submit("a player's guess")  # type: ignore[attr-defined]
    assert scene.state.battles["B2"].fought_as == "mass"
    assert lock.submit("gm-secret")  # type: ignore[attr-defined]
    assert top_name(app) == "battle_return" and app.scenes.top.title == "Abandon battle B2?"  # type: ignore[union-attr]
    press_button(app, "Abandon")
    assert scene.state.battles["B2"].fought_as == "tables"
    saved = load_session(TABLE, scene.session.save_path)  # the campaign saved with it, as a result applied is
    assert saved is not None and saved.state.battles["B2"].fought_as == "tables"
    assert scene.state.to_dict()["battles"] == before["battles"]  # nothing of the campaign lost
    kinds = [s.command.kind for s in scene.session.history[-2:]]
    assert kinds == ["gm_battle_choice", "gm_battle_abandon"]
    assert top_name(app) == "handoff"  # then the screen goes on to the power to move


def test_coming_back_from_a_battle_shows_nothing_of_the_next_powers_orders_and_hands_the_screen_on(
        saves: Path) -> None:
    """QA: after a battle fought out (the GM's Fight: mass, left midway), the way back's question
    was drawn over the orders screen of the power to move next, and Later showed it whole."""
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    key(app, pygame.K_b)  # B2
    press_button(app, "Fight: mass")
    board = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    if top_name(app) == "handoff":
        key(app, pygame.K_SPACE)
    assert app.scenes.top is board
    key(app, pygame.K_ESCAPE)  # back on the campaign map, the battle not over
    assert top_name(app) == "battle_return"
    app.render()
    assert not [t for t in scene.drawn_strings if "battle orders" in t or "Vanguard" in t]  # nothing under it
    press_button(app, "Later")
    assert top_name(app) == "handoff"  # the screen is passed on before anything of the next power's shows
    through_handoff(app)
    assert app.scenes.top is scene and scene.viewer is not None


@pytest.mark.parametrize("answer", ["Agree", "Refuse"])
def test_players_fight_a_battle_out_only_if_the_other_side_agrees_behind_the_hand_off(
        saves: Path, answer: str) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones" and not scene.gm
    press_button(app, "Propose: tactical")
    assert top_name(app) == "handoff"  # the screen goes to Jibril, the other side of B1
    key(app, pygame.K_SPACE)
    assert top_name(app) == "battle_proposal"
    proposal = app.scenes.top.body_html  # type: ignore[union-attr]
    assert "The Zones propose to fight battle B1 out" in plain(proposal)
    assert proposal[0][0] == Span("The Zones", bold=True)
    assert "By the tables (exact odds this week):" in plain(proposal)
    press_button(app, answer)
    b1 = scene.state.battles["B1"]
    if answer == "Agree":
        assert b1.fought_as == "tactical"
        last = scene.session.history[-1].command
        assert last.kind == "gm_battle_choice" and last.note == "The Zones proposed it, Jibril agreed"
        assert any(getattr(s, "session", None) is not None and s.session.system.name == "ail-tactical"
                   for s in app.scenes)
    else:
        assert b1.fought_as == "tables" and top_name(app) == "handoff"  # back to the Zones
        assert all(s.command.kind != "gm_battle_choice" for s in scene.session.history)
        assert "Jibril refuses" in scene.message


def test_a_battle_left_midway_resumes_from_its_save_after_the_campaign_save_is_loaded_again(saves: Path) -> None:
    from game.shell.app import App, Settings
    from game.shell.launch import open_game, scene_for

    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    press_button(app, "Fight: tactical")
    settle(app, 2)
    key(app, pygame.K_RETURN)  # the briefing
    battle = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    for _ in range(3):  # a few commands of the battle
        st = battle.session.state
        ok, _e, why = battle.session.apply(_pick("ail-tactical", battle.session.system.legal_commands(st)))
        assert ok, why
    key(app, pygame.K_b, mod=pygame.KMOD_CTRL)  # Ctrl+B: back to the campaign map
    assert top_name(app) == "battle_return"
    press_button(app, "Later")
    camp = scene.session.save_path
    # another evening: the campaign save is opened again; it refers to the battle's save
    session = open_game(TABLE, camp)
    app2 = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene2 = scene_for(app2, session)
    app2.push(scene2)
    through_handoff(app2)
    open_gm(app2)
    press_button(app2, "Resume tactical battle")
    resumed = next(s for s in app2.scenes if getattr(s, "game_scene", False) and s is not scene2)
    assert resumed.session.system.name == "ail-tactical" and len(resumed.session.history) == 3


def _open_battle(app: Any, scene: Any, scale: str) -> Any:
    """The GM fights out B1 (tactical) or B2 (mass); the battle's scene once it is open."""
    if scale == "mass":
        key(app, pygame.K_b)  # B2
    press_button(app, f"Fight: {scale}")
    settle(app, 2)
    return next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)


@pytest.mark.parametrize(("scale", "computer", "person"),
                         [("tactical", "jibril", "zones"), ("mass", "zenith", "resistance")])
def test_a_battle_fought_out_is_played_by_the_computer_for_the_powers_the_computer_plays_in_the_campaign(
        saves: Path, scale: str, computer: str, person: str) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    seats = scene.session.seats
    seats.set(computer, "hard")
    kept = dict(seats.levels)
    battle = _open_battle(app, scene, scale)
    bs = battle.session
    sides = [str(s) for s in bs.system.summary(bs.state)["sides"]]
    assert sorted(sides) == sorted([computer, person])
    assert bs.seats.levels == {computer: "hard"}  # the power's own level; the person's side stays Human
    assert bs.seats is not seats and seats.levels == kept  # the campaign's seats are not changed
    bs.seats.set(person, "easy")  # nor by what the battle's own window does with its seats
    assert seats.levels == kept


def test_in_a_tactical_battle_fought_out_a_person_plays_a_computer_power_without_a_hand_off(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    scene.session.seats.set("jibril", "easy")
    battle = _open_battle(app, scene, "tactical")
    battle.thinker.seconds = 0.3
    bs = battle.session
    deadline = time.monotonic() + 60
    while not any(bs.seats.why_of(step) for step in bs.history):  # the computer has played for Jibril
        assert time.monotonic() < deadline, "the computer did not play Jibril's side in the battle"
        top = app.scenes.top
        assert top is not None and top.name != "handoff"  # one person at the screen: nothing to hide
        side = battle.decision_side()
        if top.name == "briefing":
            key(app, pygame.K_RETURN)
            continue
        if side == "zones":  # the person, through the window
            if top is not battle:
                app.pop()
            assert battle.submit(_pick("ail-tactical", bs.system.legal_commands(bs.view("zones"))))
        app.step([])
        time.sleep(0.005)
    assert all(s.command.side == "jibril" for s in bs.history if bs.seats.why_of(s))
