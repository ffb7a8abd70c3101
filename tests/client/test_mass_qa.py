"""What the QA walk of the mass board found (960x600 and 1280x800, against the computer): the line
over the list that says what the computer played names its choice once, so its reason fits in the
line's three rows at 960x600 (the why, as the log needs it, began with the choice again and the
reason was cut off); a die held past its Phase is drawn once on the Phase track (it was a square
in the Phase it left and an outline in the Phase now); a commander's line on a force card keeps every
tag at 960x600 (the second tag was cut); F3 and F2 in GM mode work while the dice box has the caret
(after queueing with Enter they did nothing until Esc)."""

from __future__ import annotations

import time

import pygame
import pytest

from game.shell import fonts
from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.seats import Seats
from game.systems.mass.client import MassBoardScene, MassGmScene, MassReplayScene, open_scene
from game.systems.mass.client import board as board_module
from game.systems.mass.client.board import colour_of
from game.systems.mass.rules import commands as c
from game.table import TABLE
from tests.client.massfix import BATTLE, board_app
from tests.client.massfix import key_events as _key


def test_the_computers_line_over_the_list_names_its_choice_once_and_its_reason_fits_at_960_by_600() -> None:
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    session.seats = Seats({"akira": "easy"})
    board = open_scene(app, session)
    assert isinstance(board, MassBoardScene)
    board.pace = 0.0
    app.push(board)
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the computer took no Battle Action with a reason in time"
        before = len(session.history)
        if isinstance(app.scenes.top, HandoffScene):
            app.step(_key(pygame.K_SPACE))
        elif board.legal:
            app.step(_key(pygame.K_RETURN))  # the first choice (a hold once the Phases run)
        else:
            app.step([])
            time.sleep(0.002)
        if len(session.history) > before and session.history[-1].command.kind == "action" \
                and session.history[-1].command.force == "akira" and "points our way" in board.last_said:
            break
    said = board.last_said
    what = said.split(": ", 1)[1].split(". Why: ")[0]
    assert said.count(what) == 1, said  # the choice named once
    assert said.endswith("(1% of Brutes lost: 1 point; a Wound: 5)")  # the figure's unit (test_watch_qa_whys)
    width = board._rects()["cmds"].w - 20  # as the list draws it
    assert " ".join(line.strip() for line in board._said_lines(width)).endswith("a Wound: 5)")  # shown whole


def test_a_die_held_past_its_phase_is_drawn_once_on_the_track_as_an_outline_in_the_phase_now() -> None:
    app, board, session = board_app()
    for _ in range(200):  # the first choice each time: the appointments, the Ways, then holds
        s = session.state
        if s.stage == "phases" and any(d < s.phase for f in s.forces.values() for d in f.dice):
            break
        app.step(_key(pygame.K_SPACE if isinstance(app.scenes.top, HandoffScene) else pygame.K_RETURN))
    s = session.state
    fid, i, die = next((fid, i, d) for i, fid in enumerate(s.order) for d in s.forces[fid].dice if d < s.phase)
    app.render()
    surface = app.screen
    track = board._rects()["track"]
    cell = (track.w - 150 - 10) // 10
    colour = tuple(colour_of(s, fid))

    def first_mark(ph: int) -> tuple[int, ...]:  # the middle of the first mark of this force in Phase ph
        x = track.x + 150 + (ph - 1) * cell + 20
        return tuple(surface.get_at((x + 5, track.y + 8 + i * 14 + 5)))[:3]

    def first_mark_edge(ph: int) -> tuple[int, ...]:
        x = track.x + 150 + (ph - 1) * cell + 20
        return tuple(surface.get_at((x, track.y + 8 + i * 14 + 5)))[:3]

    assert first_mark(die) != colour  # not a square in the Phase it has left
    assert first_mark_edge(s.phase) == colour  # drawn in the Phase now (an outline, after any die of its own)


def test_a_commanders_line_on_a_force_card_keeps_every_tag_at_960_by_600(monkeypatch: pytest.MonkeyPatch) -> None:
    app, board, session = board_app((960, 600))
    ok, _, why = session.apply(c.WrestCommand(force="hida", person="hida-teishin"))
    assert ok, why
    board.after_change()
    while isinstance(app.scenes.top, HandoffScene):  # (the hand-off before a sealed choice covers the board)
        app.step(_key(pygame.K_SPACE))
    drawn: list[str] = []

    def spy(s: str, size: int, colour: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
        drawn.append(s)
        return fonts.text(s, size, colour, bold)

    monkeypatch.setattr(board_module, "text", spy)
    app.render()
    assert "* Kuni Taro (teishin) (shugenja)" in drawn  # the star, and the tag that says it casts spells


def test_f3_and_f2_work_in_gm_mode_while_the_dice_box_has_the_caret() -> None:
    app, _, session = board_app()
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    app.step(_key(pygame.K_F2))
    if isinstance(app.scenes.top, DialogScene):
        app.step(_key(pygame.K_g))
    gm = app.scenes.top
    assert isinstance(gm, MassGmScene)
    gm.ui.set_focus_set(gm.dice_entry)  # as a click in the box does
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="9")])
    app.step(_key(pygame.K_RETURN))
    app.step()  # (the toolkit's 'entry finished' comes on pygame's queue): queued; the box keeps the caret
    assert session.state.forced == [9] and gm.dice_entry.is_focused
    app.step(_key(pygame.K_F3))
    replay = app.scenes.top
    assert isinstance(replay, MassReplayScene) and replay.gm  # the GM's replay, at once
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is gm
    gm.ui.set_focus_set(gm.dice_entry)
    app.step(_key(pygame.K_F2))
    assert gm not in list(app.scenes)  # F2 left GM mode
