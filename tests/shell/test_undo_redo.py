"""Issue 28 item 1: Ctrl+Z / Ctrl+Y undo and redo whatever the rule system's `undoable` allows, in
every system (the three shipped ones and the race from the tests), with the same message, and a
refusal says why."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.shell import actions
from game.systems.tactical.rules.commands import SetNextRoll
from tests.shell.harness import SYSTEMS, ctrl, open_game, play_to_undoable, to_map


@pytest.mark.parametrize("system", SYSTEMS)
def test_ctrl_z_takes_back_what_the_rules_allow_and_ctrl_y_plays_it_again_with_the_same_message(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_to_undoable(game)
    played = len(game.session.history)
    after = game.session.state
    assert game.top() == game.scene.name
    ctrl(game, pygame.K_z)
    assert len(game.session.history) == played - 1
    what = game.session.system.describe_command(game.session.record.redo_stack[-1].before,
                                                game.session.record.redo_stack[-1].command)
    assert game.last() == (f"Taken back: {what} (Ctrl+Y plays it again).", False)  # what, in the system's words
    ctrl(game, pygame.K_y)
    assert len(game.session.history) == played
    assert game.session.state == after  # the same command again, from the same state
    assert game.last() == (f"Played again: {what}.", False)


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_undo_with_nothing_to_take_back_is_refused_with_the_reason(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    if game.session.history:
        pytest.skip("this scenario starts with commands played")
    to_map(game)
    ctrl(game, pygame.K_z)
    assert game.last() == ("Nothing to undo: no command has been played yet.", True)
    ctrl(game, pygame.K_y)
    text, problem = game.last()
    assert problem and text.startswith("Nothing to redo")


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_undo_the_rules_refuse_says_why_and_changes_nothing(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    session, record = game.session, game.session.record
    # play until the last command is one the rules keep (dice, or something revealed)
    for _ in range(40):
        if record.steps and not record.can_undo:
            break
        legal = session.system.legal_commands(session.state)
        assert session.apply(legal[len(record.steps) % len(legal)])[0]
    else:
        pytest.fail("no command the rules keep within reach")
    to_map(game)
    game.scene.after_change()
    to_map(game)
    before = list(session.history)
    ctrl(game, pygame.K_z)
    text, problem = game.last()
    assert problem and text.startswith("Not undone: ")
    assert ("rolled dice" in text) == record.rolled_dice(before[-1])
    assert session.history == before


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_computer_sides_move_is_not_taken_back_and_nothing_is_while_the_computer_is_to_move(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_to_undoable(game)
    session = game.session
    played = len(session.history)
    mover = session.system.to_move(session.history[-1].before)[0]
    assert session.can_undo  # every side at the screen: the player's own move may be taken back
    session.seats.levels = {mover: "easy"}  # the computer made it
    assert not session.can_undo
    assert not session.undo() and len(session.history) == played
    reason = actions.undo_refusal(session)
    assert reason.startswith("Not undone:") and "computer" in reason
    to_move = session.system.to_move(session.state)
    session.seats.levels = {to_move[0]: "easy"}  # the computer is to move now (thinking over this position)
    assert not session.can_undo and not session.undo() and len(session.history) == played
    assert actions.undo_refusal(session).startswith("Not undone: the computer is playing ")
    others = [s for s in session.system.summary(session.state).get("sides", ()) if s not in (mover, *to_move)]
    session.seats.levels = {others[0]: "easy"} if others else {}  # a computer seat elsewhere: no matter
    assert session.can_undo and session.undo() and len(session.history) == played - 1


def test_a_players_undo_after_a_gm_command_says_it_is_the_gms_to_take_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    session = game.session
    assert session.apply(SetNextRoll(values=(10,)), gm=True)[0]  # the GM fixes the next die
    before = list(session.history)
    if session.can_undo:
        pytest.skip("the rules let a player take this GM command back")
    assert actions.undo_refusal(session) == ("Not undone: the last command was the GM's; the GM takes it back "
                                             "with the GM tools (F2).")
    assert not session.undo() and session.history == before
