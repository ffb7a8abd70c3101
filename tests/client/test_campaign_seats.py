"""Computer powers in the campaign window (issue 32, the client part): computer powers play their
own turns through the session with a why line in the log, the hand-off comes up only between
people, a computer's sealed orders say why only after the reveal, the players dialog is the GM's
once play has begun (the GM's passphrase), the hint plays nothing, saves keep the seats and
`play --seat` names powers."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import yaml  # noqa: E402

from game import paths  # noqa: E402
from game.cli.play import seat_computers  # noqa: E402
from game.core.errors import UserError  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.shell.savegame import load_session, save_session  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.table import TABLE  # noqa: E402

TEACHING = "maps/campaign/teaching.yaml"
POWERS = ("zones", "resistance", "zenith", "jibril")


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _app(levels: dict[str, str], *, into_battles: bool = True) -> tuple[App, object]:
    """The teaching campaign in the window; `into_battles`: after the teaching script's first
    week of movement (the armies meet: declarations, posts and orders follow)."""
    session = open_game(TABLE, TEACHING)
    if into_battles:
        script = yaml.safe_load(Path("maps/campaign/teaching-commands.yaml").read_text(encoding="utf-8"))
        for data in script[:6]:
            ok, _, why = session.apply(session.system.parse_command(data))
            assert ok, why
    session.seats = Seats(dict(levels))
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)
    scene.pace = 0.0  # type: ignore[attr-defined]  # (no pause for people watching between computer commands)
    app.push(scene)
    return app, scene


def key(app: App, k: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])


def test_four_computer_powers_play_the_teaching_campaign_unattended_for_weeks_with_why_lines_and_no_refusal() -> None:
    app, scene = _app({p: "easy" for p in POWERS})
    session = scene.session  # type: ignore[attr-defined]
    deadline = time.monotonic() + 90
    while session.state.week < 4:
        assert time.monotonic() < deadline, "the computer powers did not play on"
        assert app.scenes.top is scene, f"{app.scenes.top.name} came up in an unattended game"
        app.step([])
        time.sleep(0.001)
        if session.state.phase == "orders":  # a sealed order's why is not in the log before the reveal
            assert not [line for line in scene.log if "equilibrium" in line  # type: ignore[attr-defined]
                        and f"week {session.state.week}" in line]
    assert session.seats.levels == {p: "easy" for p in POWERS}  # no power went back to a person (no refusal)
    kinds = {s.command.kind for s in session.history}
    assert {"declare", "post", "narrative_done", "orders", "move_army", "end_turn"} <= kinds
    log = scene.log  # type: ignore[attr-defined]
    assert any(line.startswith("Why (Jibril, computer easy): battle B1: drawn from the equilibrium") for line in log)
    assert sum(line.startswith("Why (") for line in log) > 10
    assert scene.viewer is None  # no person plays: the GM watching sees the whole board
    app.render()
    heads = [(t, r) for t, r in scene.drawn_rects if t.endswith("· computer only")]  # type: ignore[attr-defined]
    from game.shell.fonts import font
    assert heads and all(r.w in {font(n, True).size(t)[0] for n in (13, 15)} for t, r in heads)  # whole: not clipped


def test_the_teaching_campaign_from_its_start_with_two_computer_powers_and_two_people_hands_off_only_between_people() -> None:
    """Zones and Jibril at the screen (Enter: each phase's main action), Resistance and Zenith by
    the computer: the hand-off names only the people; the computer's commands have why lines."""
    app, scene = _app({"resistance": "easy", "zenith": "hard"}, into_battles=False)
    session = scene.session  # type: ignore[attr-defined]
    handed_to: list[str] = []
    deadline = time.monotonic() + 90
    while session.state.week < 3:
        assert time.monotonic() < deadline, "the game did not reach week 3"
        top = app.scenes.top
        if top.name == "handoff":
            handed_to.append(top.side_name)  # type: ignore[attr-defined]
            key(app, pygame.K_SPACE)
        elif top.name == "campaign_results":
            key(app, pygame.K_ESCAPE)
        elif top is scene and scene.my_move():  # type: ignore[attr-defined]
            assert scene.viewer in ("zones", "jibril")  # type: ignore[attr-defined]
            key(app, pygame.K_RETURN)
        else:
            app.step([])
            time.sleep(0.001)
    assert handed_to and set(handed_to) <= {"The Zones", "Jibril"}
    movers = {s.command.army for s in session.history if s.command.kind == "move_army"}
    computer_armies = {"front", "host"}
    assert movers & computer_armies, "the computer powers never moved"
    assert session.seats.levels == {"resistance": "easy", "zenith": "hard"}
    assert any(line.startswith("Why (Zenith Empire, computer hard)") for line in scene.log)  # type: ignore[attr-defined]


def test_the_players_dialog_changes_seats_freely_before_play_and_only_with_the_gms_passphrase_after() -> None:
    app, scene = _app({}, into_battles=False)
    app.settings.blackout = False
    while app.scenes.top is not scene:  # the first player's hand-off
        key(app, pygame.K_SPACE)
    key(app, pygame.K_p)
    dialog = app.scenes.top
    assert dialog.name == "seats"
    dialog.choose_label("Zones: Human")  # type: ignore[attr-defined]
    assert scene.session.seats.level("zones") == "easy"  # type: ignore[attr-defined]
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]
    # play begins (The Zones, now a computer, ends its turn), then the seats are the GM's
    deadline = time.monotonic() + 30
    while not scene.session.history:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.001)
    key(app, pygame.K_p)
    dialog = app.scenes.top
    assert "only the GM changes who plays a side" in dialog.body_text  # type: ignore[attr-defined]
    dialog.choose_label("Jibril: Human")  # type: ignore[attr-defined]
    refused = app.scenes.top
    assert refused.name == "seats" and "Refused." in refused.body_text  # type: ignore[attr-defined]
    assert scene.session.seats.level("jibril") is None  # type: ignore[attr-defined]
    refused.choose_label("GM: unlock (G)")  # type: ignore[attr-defined]
    lock = app.scenes.top
    assert lock.name == "gm_lock" and lock.mode == "set"  # type: ignore[attr-defined]
    assert lock.submit("the-gm")  # type: ignore[attr-defined]
    unlocked = app.scenes.top
    assert unlocked.name == "seats" and "Play has begun:" not in unlocked.body_text  # type: ignore[attr-defined]
    unlocked.choose_label("Jibril: Human")  # type: ignore[attr-defined]
    assert scene.session.seats.level("jibril") == "easy"  # type: ignore[attr-defined]
    assert not scene.gm  # type: ignore[attr-defined]  # (the GM view itself stays closed)
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]
    key(app, pygame.K_p)  # the next time: the passphrase again
    wrong = app.scenes.top
    wrong.choose_label("GM: unlock (G)")  # type: ignore[attr-defined]
    assert not app.scenes.top.submit("not-it")  # type: ignore[attr-defined]
    assert "not the GM's passphrase" in app.scenes.top.message  # type: ignore[attr-defined]


def test_the_hint_says_what_the_computer_would_do_for_the_person_and_plays_nothing() -> None:
    app, scene = _app({}, into_battles=True)
    app.settings.blackout = False
    while app.scenes.top is not scene:
        key(app, pygame.K_SPACE)
    played = len(scene.session.history)  # type: ignore[attr-defined]
    key(app, pygame.K_h)
    deadline = time.monotonic() + 30
    while not scene.message.startswith("Hint"):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.002)
    assert "Why:" in scene.message  # type: ignore[attr-defined]
    assert len(scene.session.history) == played  # type: ignore[attr-defined]


def test_a_computer_power_is_not_played_at_the_screen_and_its_turn_has_no_buttons() -> None:
    app, scene = _app({"zones": "easy"}, into_battles=False)
    app.settings.blackout = False
    scene.thinker.seconds = 5.0  # type: ignore[attr-defined]
    assert scene.viewer == "resistance"  # type: ignore[attr-defined]  # the screen is the first person's
    assert not scene.my_move() and not scene.buttons  # type: ignore[attr-defined]
    key(app, pygame.K_RETURN)  # the person's Enter does not end the computer's turn (it is thinking)
    assert not scene.session.history  # type: ignore[attr-defined]
    app.render()
    assert any(s.startswith("Waiting for The Zones (computer, easy)") for s in scene.drawn_strings)  # type: ignore[attr-defined]


def test_seats_are_saved_and_restored_and_play_seat_names_campaign_powers(tmp_path: Path) -> None:
    app, scene = _app({"zenith": "hard"}, into_battles=True)
    seat_computers(app, ["jibril=ai:easy"])
    session = scene.session  # type: ignore[attr-defined]
    assert session.seats.levels == {"zenith": "hard", "jibril": "easy"}
    path = save_session(session, tmp_path / "c.yaml")
    back = load_session(TABLE, path)
    assert back is not None and back.seats.levels == {"zenith": "hard", "jibril": "easy"}
    with pytest.raises(UserError, match="no side 'nobody'"):
        seat_computers(app, ["nobody=ai:easy"])


def test_play_seat_gives_the_power_to_the_computer_before_the_screen_is_made_so_the_first_handoff_is_a_persons() -> None:
    from game.cli.play import open_window

    app = open_window(TABLE, TEACHING, (1280, 800), Settings(animation="instant"), headless=True,
                      seats=["zones=ai:easy"])
    top = app.scenes.top
    assert top is not None and top.name == "handoff"
    assert top.side_name == "Resistance Fronts"  # type: ignore[attr-defined]  # not The Zones, whose turn it is


@pytest.mark.parametrize("into_battles", [False, True])
def test_the_hand_off_names_the_step_the_next_person_meets_once_the_computer_has_played(into_battles: bool) -> None:
    """Jibril by the computer (hard), the Resistance too: after the first week's movement the
    Zones and Jibril both declare at 23,26. The QA run (from the start): the hand-off said
    "declare combat" to the Zones, then Jibril's declaration settled the hex while they looked
    and they met the posts. Each hand-off's step is the one its person meets once the computer
    is done, from the start and from a game opened at the declarations."""
    from game.systems.campaign.rules.state import PHASE_NAMES

    app, scene = _app({"jibril": "hard", "resistance": "easy"}, into_battles=into_battles)
    session = scene.session  # type: ignore[attr-defined]
    system = session.system
    seats = session.seats
    checked = 0
    deadline = time.monotonic() + 90
    while session.state.phase != "orders":
        assert time.monotonic() < deadline, "the week did not reach the orders"
        top = app.scenes.top
        if top.name == "handoff":
            detail = top.detail  # type: ignore[attr-defined]
            person = next(p for p in POWERS if session.state.player_name(p) == top.side_name)  # type: ignore[attr-defined]
            key(app, pygame.K_SPACE)
            # the computer plays what it is waited for (the person looks at the screen meanwhile)
            while any(seats.is_computer(p) for p in system.to_move(session.state)):
                assert time.monotonic() < deadline, "the computer did not play"
                app.step([])
                time.sleep(0.001)
            assert f": {PHASE_NAMES[session.state.phase]}." in detail, (detail, session.state.phase)
            assert person in system.to_move(session.state), (detail, system.to_move(session.state))
            checked += 1
        elif top is scene and scene.my_move():  # type: ignore[attr-defined]
            if session.state.phase == "narrative":
                p = scene.viewer  # type: ignore[attr-defined]
                if not any(x.player == p and x.week == session.state.week for x in session.state.posts):
                    scene._main_action("post")  # type: ignore[attr-defined]
                    continue
                scene._main_action("done")  # type: ignore[attr-defined]
                continue
            key(app, pygame.K_RETURN)
        else:
            app.step([])
            time.sleep(0.001)
    assert checked >= 2
