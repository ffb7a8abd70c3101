"""The mass battle's replay view (F3, game/systems/mass/client/replay.py), headless, driven by real
key events: it shows the state after N commands, steps and jumps by Wave, words each step as the
board's log does, never changes the live game, keeps a sealed appointment hidden until the game
announced it (unless the GM watches), and opens on a save (`python -m game replay SAVE --view`)."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.shell import savegame
from game.shell.app import App, Settings
from game.shell.launch import open_replay_file
from game.shell.scenes.handoff import HandoffScene
from game.systems.mass.client import MassReplayScene
from game.systems.mass.client.board import command_lines
from game.table import TABLE
from tests.client.massfix import board_app as _app
from tests.client.massfix import key_events as _key
from tests.client.massfix import play_first_choices as _play


def _replay(app: App) -> MassReplayScene:
    app.step(_key(pygame.K_F3))
    top = app.scenes.top
    assert isinstance(top, MassReplayScene)
    return top


def test_opening_stepping_and_closing_the_replay_leaves_the_games_history_and_state_unchanged() -> None:
    app, board, session = _app()
    _play(app, session, 40)
    steps = list(session.history)
    state = session.state.model_copy(deep=True)
    redo = list(session.record.redo_stack)
    replay = _replay(app)
    for k in (pygame.K_HOME, pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_LEFT, pygame.K_END,
              pygame.K_PAGEUP, pygame.K_2, pygame.K_d, pygame.K_a, pygame.K_RETURN, pygame.K_w, pygame.K_h):
        app.step(_key(k))
        app.render()
    for row in board.command_rows()[:3]:  # where the board lists its choices: no click reaches it
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=row.rect.center),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=row.rect.center)])
    assert [s.name for s in app.scenes][-1] == "replay"
    assert replay.index != len(steps)  # it did move
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is board
    assert list(session.history) == steps and all(a is b for a, b in zip(session.history, steps, strict=True))
    assert session.state == state
    assert list(session.record.redo_stack) == redo


def test_the_replay_shows_the_state_after_the_first_n_commands_and_steps_one_at_a_time() -> None:
    app, _, session = _app()
    _play(app, session, 30)
    replay = _replay(app)
    assert replay.index == 30 and replay.display.state == session.state  # it opens on the game as it is
    app.step(_key(pygame.K_HOME))
    assert replay.index == 0 and replay.display.state == session.history[0].before
    for n in range(1, 6):
        app.step(_key(pygame.K_RIGHT))
        assert replay.index == n and replay.display.state == session.history[n - 1].after
    app.step(_key(pygame.K_LEFT))
    assert replay.index == 4 and replay.display.state == session.history[3].after
    app.step(_key(pygame.K_END))
    assert replay.index == 30


def test_page_down_and_the_wave_keys_jump_to_the_start_of_each_wave() -> None:
    app, _, session = _app()
    _play(app, session, 40)
    first_of_wave_2 = next(i for i, st in enumerate(session.history) if st.before.wave == 2)
    replay = _replay(app)
    app.step(_key(pygame.K_HOME))
    app.step(_key(pygame.K_PAGEDOWN))
    assert replay.index == first_of_wave_2 and replay.display.state.wave == 2
    app.step(_key(pygame.K_RIGHT))
    app.step(_key(pygame.K_PAGEUP))  # back to the start of this Wave
    assert replay.index == first_of_wave_2
    app.step(_key(pygame.K_1))
    assert replay.index == 0
    app.step(_key(pygame.K_2))
    assert replay.index == first_of_wave_2


def test_the_step_panel_names_the_command_and_its_dice_in_the_boards_log_wording() -> None:
    app, board, session = _app()
    _play(app, session, 12)
    rolled = next(i for i, st in enumerate(session.history) if session.system.rolls(st.events))
    step = session.history[rolled]
    replay = _replay(app)
    replay.goto(rolled + 1)
    lines = [line for line, _ in replay.step_lines]
    dice = ", ".join(str(v) for v in session.system.rolls(step.events))
    assert lines[0].startswith(f"{rolled + 1}. ") and f"dice: {dice}" in lines[0]
    board_words, _ = command_lines(session.system, step.before, step.command, step.events)
    assert lines[0].split(". ", 1)[1].startswith(board_words[0][0][2:])  # the board's "> ..." line
    assert lines[1:] == [line for line, _ in board_words[1:]]
    assert all(line in [x for x, _ in board.log] for line in lines[1:])  # the very lines the board logged


def test_a_sealed_appointment_stays_hidden_in_the_replay_until_announced_but_the_gm_sees_it() -> None:
    app, board, session = _app()
    _play(app, session, 1)  # the first force makes its sealed appointment
    assert len(session.history) == 1 and session.state.stage == "appoint"
    chosen = session.history[0].command
    heaven = session.state.forces[chosen.force].people[chosen.heaven].name
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    replay = _replay(app)
    replay.goto(1)
    shown = " ".join(line for line, _ in replay.step_lines) + " ".join(line for line, _ in replay.view.log)
    assert "makes its sealed choice" in shown and "reads Heaven" not in shown and f"{heaven} reads" not in shown
    app.step(_key(pygame.K_ESCAPE))
    gm_view = MassReplayScene(app, session, list(session.history), gm=True)
    gm_view.goto(1)
    assert f"{heaven} reads Heaven" in gm_view.step_lines[0][0]


def test_once_the_appointments_are_announced_the_replay_shows_each_at_its_own_step() -> None:
    app, _, session = _app()
    _play(app, session, 3)
    assert session.history[1].after.stage != "appoint"  # both chose: the rules announced them
    replay = _replay(app)
    replay.goto(1)
    assert "reads Heaven" in replay.step_lines[0][0]


def test_replay_view_of_a_mass_save_opens_on_its_first_command(tmp_path: Path) -> None:
    app, _, session = _app()
    _play(app, session, 20)
    path = savegame.save_session(session, tmp_path / "mass.yaml")
    other = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    assert open_replay_file(other, path) is None
    replay = other.scenes.top
    assert isinstance(replay, MassReplayScene)
    assert replay.index == 0 and len(replay.steps) == 20 and replay.game_title == "mass.yaml"
    other.step(_key(pygame.K_END))
    assert replay.display.state == session.state
    other.render()


def test_the_game_keys_in_the_replay_say_to_close_it_first_and_change_nothing() -> None:
    app, _, session = _app()
    _play(app, session, 6)
    steps = list(session.history)
    _replay(app)
    app.step(_key(pygame.K_z, pygame.KMOD_CTRL))
    said = app.scenes.top
    assert said is not None and said.name == "not_here"
    assert str(getattr(said, "body_html", "")).startswith("The replay view: close this first")
    assert list(session.history) == steps


def test_a_board_key_or_a_wave_the_battle_never_reached_is_answered_in_the_replays_panel() -> None:
    app, _, session = _app()
    _play(app, session, 6)
    steps = list(session.history)
    replay = _replay(app)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w", scancode=0)])
    assert replay.note.startswith("The replay view plays nothing")
    app.step(_key(pygame.K_RETURN))
    assert replay.note.startswith("The replay view plays nothing")
    app.step(_key(pygame.K_9))
    assert replay.note.startswith("This battle has no Wave 9")
    app.step(_key(pygame.K_RIGHT))
    assert replay.note == ""  # said once, gone with the next key
    assert list(session.history) == steps
