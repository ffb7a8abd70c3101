"""The mass board's endings ask first (QA): a person's command that ends the battle for their own
force (Surrender, Cede, the force's Flee, Entrapping Ground, nobody taking command: the rules'
`choices.ends_own_battle`) is confirmed in a dialog naming what it does (Esc or N: nothing is
played), never the computer's; the end screen's New battle with unsaved play asks as the tactical
battle's Restart does (the shell's `actions.ask_restart`); F2 against the computer follows the
shell's GM seat (at once, as in the tactical battle). Headless, driven by real key events and
button presses."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pygame_gui
import pytest

from game import paths
from game.core.gm_lock import keeping, lock_of
from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.seats import Seats
from game.shell.session import Session
from game.systems.mass.client import MassBoardScene, MassGmScene, open_scene
from game.systems.mass.rules import choices
from game.systems.mass.rules import commands as c
from game.table import TABLE
from tests.client.massfix import BATTLE
from tests.client.massfix import board_app as _app
from tests.client.massfix import key_events as _key
from tests.client.massfix import play_first_choices as _play


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv(paths.SAVES_ENV, str(folder))
    return folder


def _computer_app(size: tuple[int, int] = (1280, 800)) -> tuple[App, MassBoardScene, Session]:
    """The example battle with Akira's army the computer's (easy), as `play --seat akira=ai:easy`."""
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    session.seats = Seats({"akira": "easy"})
    board = open_scene(app, session)
    assert isinstance(board, MassBoardScene)
    board.pace = 0.0
    app.push(board)
    app.step([])
    return app, board, session


def _until(app: App, board: MassBoardScene, done: Any, seconds: float = 60.0) -> None:
    """Frames (the computer thinking in its thread) until `done()`; a hand-off is passed on."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        if isinstance(app.scenes.top, HandoffScene):
            app.step(_key(pygame.K_SPACE))
            continue
        app.step([])
        time.sleep(0.002)


def _to_choice(app: App, board: MassBoardScene, session: Session, want: Any) -> int:
    """Play the first quiet choice (Enter) until the list offers one for which `want(cmd)`; its index."""
    for _ in range(400):
        if isinstance(app.scenes.top, HandoffScene):
            app.step(_key(pygame.K_SPACE))
            continue
        if board.thinking is not None and not board.legal:
            app.step([])
            time.sleep(0.002)
            continue
        found = [i for i, cmd in enumerate(board.legal) if want(cmd)]
        if found:
            return found[0]
        board.choose(0)
        app.step(_key(pygame.K_RETURN))
    raise AssertionError("the choice never came up")


def _press(app: App, button: Any) -> None:
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)])


def _surrender(cmd: Any) -> bool:
    return isinstance(cmd, c.Surrender)


def _force_flee(cmd: Any) -> bool:
    return isinstance(cmd, c.BattleAction) and cmd.action == "flee" and cmd.target is None and not cmd.void


# --------------------------------------------------------------------------- the rules' query


def test_the_rules_say_which_commands_end_the_battle_for_their_own_force_and_what_they_do() -> None:
    app, board, session = _app()
    _play(app, session, 2)  # the two sealed appointments: Heaven is rolled next, Surrender is listed
    s = session.state
    assert "surrenders to Akira's army" in choices.ends_own_battle(s, c.Surrender(force="hida", to="akira"))
    assert "defeat" in choices.ends_own_battle(s, c.Surrender(force="hida", to="akira"))
    assert "leaves the field" in choices.ends_own_battle(s, c.Cede(force="hida", to="akira"))
    assert "defeated" in choices.ends_own_battle(s, c.NameCommander(force="hida", person=None))
    assert "flees the field" in choices.ends_own_battle(s, c.BattleAction(force="hida", action="flee"))
    assert "undecided" in choices.ends_own_battle(s, c.BattleAction(force="hida", action="entrapping_ground"))
    # what leaves the force in the battle: nothing to ask
    assert choices.ends_own_battle(s, c.Hold(force="hida")) == ""
    assert choices.ends_own_battle(s, c.RollWay(force="hida", way="heaven")) == ""
    assert choices.ends_own_battle(s, c.BattleAction(force="hida", action="flee", target="hida-jo")) == ""
    assert choices.ends_own_battle(s, c.NameCommander(force="hida", person="hida-jo")) == ""


# --------------------------------------------------------------------------- endings ask first


def test_surrender_with_down_and_enter_asks_first_naming_what_it_does_and_esc_plays_nothing() -> None:
    app, board, session = _app()
    at = _to_choice(app, board, session, _surrender)
    steps = list(session.history)
    while board.selected != at:
        app.step(_key(pygame.K_DOWN))
    app.step(_key(pygame.K_RETURN))
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "confirm_ending"
    assert ask.title == "End the battle for Hida Jo's army?"
    assert "surrenders to Akira's army" in ask.body_text and "cannot be taken back" in ask.body_text
    assert [ch.label for ch in ask.choices] == ["Surrender (Y)", "Keep fighting (N)"]
    app.step(_key(pygame.K_RETURN))  # Enter does not answer the question
    assert app.scenes.top is ask
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is board and list(session.history) == steps and not board.over
    app.step(_key(pygame.K_RETURN))
    app.step(_key(pygame.K_n))
    assert app.scenes.top is board and list(session.history) == steps
    app.step(_key(pygame.K_RETURN))
    app.step(_key(pygame.K_y))
    assert app.scenes.top is board and isinstance(session.history[-1].command, c.Surrender)
    assert session.state.forces["hida"].status == "surrendered"


def test_the_force_fleeing_by_the_apply_button_asks_first_and_yes_plays_it() -> None:
    app, board, session = _app()
    at = _to_choice(app, board, session, _force_flee)
    board.choose(at)
    steps = len(session.history)
    _press(app, board.apply_button)
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "confirm_ending"
    assert "Hida Jo's army flees the field" in ask.body_text
    assert ask.choices[0].label == "Flee (Y)"
    assert len(session.history) == steps
    ask.choose_label("Flee (Y)")
    assert _force_flee(session.history[-1].command) and len(session.history) == steps + 1
    assert session.state.forces["hida"].status == "fled"


def test_enter_on_hold_plays_it_at_once_without_asking() -> None:
    app, board, session = _app()
    at = _to_choice(app, board, session, lambda cmd: isinstance(cmd, c.Hold))
    board.choose(at)
    steps = len(session.history)
    app.step(_key(pygame.K_RETURN))
    assert app.scenes.top is board and len(session.history) == steps + 1
    assert isinstance(session.history[-1].command, c.Hold)


def test_a_computer_force_that_surrenders_is_not_asked() -> None:
    app, board, session = _computer_app()
    real = board.thinker.poll

    def surrendering(system: Any, state: Any, side: str, level: str, slot: str = "turn") -> Any:
        give_up = [x for x in system.legal_commands(state) if isinstance(x, c.Surrender) and x.force == side]
        if slot == "turn" and side == "akira" and give_up:
            return SimpleNamespace(decision=SimpleNamespace(command=give_up[0], why="test: it gives up"))
        return real(system, state, side, level, slot)

    board.thinker.poll = surrendering  # type: ignore[method-assign]
    asked: list[str] = []

    def done() -> bool:
        top = app.scenes.top
        if isinstance(top, DialogScene):
            asked.append(top.name)
        if board.legal and not board.over:  # the person's turn: a quiet choice
            board.choose(next(i for i, x in enumerate(board.legal) if not choices.ends_own_battle(session.state, x)))
            app.step(_key(pygame.K_RETURN))
        return board.over

    _until(app, board, done)
    assert asked == []
    assert any(isinstance(st.command, c.Surrender) and st.command.force == "akira" for st in session.history)
    assert session.state.forces["akira"].status == "surrendered"


# --------------------------------------------------------------------------- New battle asks first


def _surrendered(app: App, board: MassBoardScene, session: Session) -> None:
    """Hida Jo's army surrenders (confirmed) and the Wave's casualties are counted: the battle is
    over with unsaved play."""
    at = _to_choice(app, board, session, _surrender)
    board.choose(at)
    app.step(_key(pygame.K_RETURN))
    app.step(_key(pygame.K_y))
    app.step(_key(pygame.K_RETURN))  # count the Wave's casualties
    assert board.over


def _new_battle_button(board: MassBoardScene) -> Any:
    return next(b for b, k in board.end_buttons.items() if k == "new")


def test_new_battle_with_unsaved_play_asks_first_and_back_keeps_the_battle_over_as_it_was() -> None:
    app, board, session = _app()
    _surrendered(app, board, session)
    steps = list(session.history)
    _press(app, _new_battle_button(board))
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "restart_question"
    assert ask.title == "Start the battle again?"
    assert [ch.label for ch in ask.choices] == ["Save and restart", "Restart", "Back"]
    assert "moves since its last save" in ask.body_text
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is board and list(session.history) == steps and board.over
    _press(app, _new_battle_button(board))
    app.scenes.top.choose_label("Back")  # type: ignore[attr-defined]
    assert app.scenes.top is board and list(session.history) == steps
    _press(app, _new_battle_button(board))
    app.scenes.top.choose_label("Restart")  # type: ignore[attr-defined]
    fresh = app.scenes.top
    assert isinstance(fresh, MassBoardScene) and fresh is not board
    assert not fresh.session.history and fresh.session.seed == session.seed + 1


def test_save_and_restart_keeps_the_finished_battle_in_a_new_save_then_starts_again(_saves: Path) -> None:
    app, board, session = _app()
    _surrendered(app, board, session)
    _press(app, _new_battle_button(board))
    app.scenes.top.choose_label("Save and restart")  # type: ignore[attr-defined]
    saved = list(_saves.glob("borderland-valley-*.yaml"))
    assert len(saved) == 1 and "surrender" in saved[0].read_text(encoding="utf-8")
    fresh = app.scenes.top
    assert isinstance(fresh, MassBoardScene) and fresh is not board and not fresh.session.history


def test_new_battle_after_a_save_starts_at_once_and_keeps_the_gm_passphrase() -> None:
    app, board, session = _app()
    _surrendered(app, board, session)
    keeping(session).lock = lock_of("owl and oak")
    app.step(_key(pygame.K_s, pygame.KMOD_CTRL))  # Ctrl+S: nothing unsaved
    _press(app, _new_battle_button(board))
    assert not any(isinstance(x, DialogScene) for x in app.scenes)  # not asked: nothing to lose
    fresh = next(x for x in app.scenes if isinstance(x, MassBoardScene))
    assert fresh is not board and not fresh.session.history
    assert keeping(fresh.session).is_set and keeping(fresh.session).opens("owl and oak")


# --------------------------------------------------------------------------- F2 against the computer


def test_f2_against_the_computer_once_the_battle_has_begun_opens_gm_mode_at_once_as_the_tactical_battle() -> None:
    app, board, session = _computer_app()

    def begun() -> bool:
        if board.legal:  # the person's choice: the first (an appointment, a roll)
            board.choose(0)
            app.step(_key(pygame.K_RETURN))
        return len(session.history) >= 3

    _until(app, board, begun)
    assert app.scenes.top is board
    app.step(_key(pygame.K_F2))
    assert isinstance(app.scenes.top, MassGmScene)  # one side at the screen: no "GM mode is the GM's"


def test_f2_with_the_blackout_off_opens_gm_mode_at_once_once_the_battle_has_begun() -> None:
    app, board, session = _app()
    app.settings.blackout = False  # "GM at the table": the screen shows every side's play anyway
    _play(app, session, 5)
    app.step(_key(pygame.K_F2))
    assert isinstance(app.scenes.top, MassGmScene)



def test_the_summary_of_a_battle_won_by_a_surrender_says_who_surrendered() -> None:
    from game.systems.mass.client import end as end_screen

    app, board, session = _app()
    _play(app, session, 2)  # past the sealed appointments: Surrender is listed
    s = session.state
    cmd = next(x for x in choices.legal_commands(s) if isinstance(x, c.Surrender))
    session.apply(cmd)
    for _ in range(10):  # (the Wave's casualties are still taken)
        if session.state.stage == "ended":
            break
        session.apply(choices.legal_commands(session.state)[0])
    s = session.state
    assert s.stage == "ended" and s.winner is not None
    loser = s.forces[cmd.force].name
    summary = end_screen.summary(session)
    assert summary.how.startswith("How it ended: ") and f"({loser} surrendered)" in summary.how, summary.how
