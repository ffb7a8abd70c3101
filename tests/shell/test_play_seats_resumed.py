"""QA: `play --seat SIDE=ai:LEVEL` and the game resumed at start-up from a recovery save. The
seats of the command line are applied to the resumed game and said; when they cannot be (a game
of another system, resumed when no file was named) the screen and the terminal say so and why.
And `--seat` says what it expects in one line: SIDE=human or SIDE=ai:LEVEL."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.__main__ import main
from game.cli import play
from game.core.ai import parse_seat
from game.shell import actions
from game.shell.app import Settings
from game.shell.contracts import live_game
from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import ROOT, SCENARIOS, TABLE, open_game, play_some, step

SETTINGS = Settings(animation="instant", blackout=False)


def _left_unfinished(system: str, tmp_path: Path) -> None:
    game = open_game(system, tmp_path)
    play_some(game)
    actions.quit_now(game.app)


def _resume(app: object) -> None:
    offer = app.scenes.top  # type: ignore[attr-defined]
    assert isinstance(offer, DialogScene) and offer.title == "Resume your last game?"
    offer.choose_label("Resume")
    step(app)  # type: ignore[arg-type]


def _told(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    said: list[tuple[str, bool]] = []
    tell = play.tell

    def recorded(scene: object, text: str, seconds: float = 3.0, problem: bool = False) -> None:
        said.append((text, problem))
        tell(scene, text, seconds, problem=problem)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "tell", recorded)
    return said


def test_the_seats_of_the_command_line_are_applied_to_the_game_resumed_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    _left_unfinished("tactical", tmp_path)  # played at the screen: no computer seat
    said = _told(monkeypatch)
    app = play.open_window(TABLE, ROOT / SCENARIOS["tactical"], (1280, 800), SETTINGS, headless=True,
                           seats=["zenith=ai:easy"])
    _resume(app)
    game = live_game(app)
    assert game is not None and game.session.history  # the game left, not a new one
    assert game.session.seats.levels == {"zenith": "easy"}
    assert ("Resumed with the seats of the command line: zenith=ai:easy", False) in said
    assert "zenith=ai:easy" in capsys.readouterr().out


def test_seats_that_do_not_fit_the_game_resumed_are_not_applied_and_the_screen_and_terminal_say_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    _left_unfinished("race", tmp_path)  # the newest game left: no file named offers it
    said = _told(monkeypatch)
    app = play.open_window(TABLE, None, (1280, 800), SETTINGS, headless=True, seats=["zenith=ai:easy"])
    _resume(app)
    game = live_game(app)
    assert game is not None and game.session.system.name == "race" and game.session.seats.levels == {}
    (text, problem), = said
    assert problem and text.startswith("--seat was not applied to the resumed game")
    assert text in capsys.readouterr().err


def test_a_seat_that_is_neither_human_nor_a_computer_level_says_what_is_expected_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(ROOT / SCENARIOS["tactical"]), "--seat", "zenith=robot"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "--seat 'zenith=robot': expected zenith=human or zenith=ai:LEVEL (levels: " in err[0]
    assert err[0].endswith("got 'robot'")
    with pytest.raises(ValueError, match=r"expected SIDE=human or SIDE=ai:LEVEL \(sides: zone, zenith"):
        parse_seat("zenith", ["zone", "zenith"], ["easy"], human=True)


def test_seat_side_equals_human_gives_a_side_back_to_the_screen(tmp_path: Path) -> None:
    game = open_game("tactical", tmp_path)
    game.session.seats.set("zenith", "easy")  # (as a save played against the computer comes back)
    play.seat_session(TABLE, game.session, ["zenith=human", "zone=ai:easy"])
    assert game.session.seats.levels == {"zone": "easy"}
