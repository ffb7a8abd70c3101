"""GM mode of the mass battle (F2, game/systems/mass/client/gm.py), headless, driven by real key
events and button presses: who may open it (the GM's word in a hotseat battle, a campaign's
passphrase when there is one; one side at the screen: tests/client/test_mass_endings.py), the
queue of forced dice shown while it waits and used by the next roll, and the dialogs for an individual, Brutes and Advantage, whose GM
commands are logged, undoable and replayed, with refusals said in the dialog."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.shell.scene import Scene
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.session import Session
from game.systems.mass.client import MassGmScene, MassReplayScene, open_scene
from game.systems.mass.client.gm import FormScene, PassphraseScene
from game.systems.mass.rules.commands import Rolled
from game.table import TABLE
from tests.client.massfix import BATTLE
from tests.client.massfix import board_app as _app
from tests.client.massfix import key_events as _key
from tests.client.massfix import play_first_choices as _play


def _press(app: App, gm: MassGmScene, key: str) -> None:
    button = next(b for b, k in gm.buttons.items() if k == key)
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)])


def _gm(app: App, session: Session) -> MassGmScene:
    """F2 on the board; once the battle has begun, the GM says so (G)."""
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    app.step(_key(pygame.K_F2))
    if isinstance(app.scenes.top, DialogScene):
        app.step(_key(pygame.K_g))
    top = app.scenes.top
    assert isinstance(top, MassGmScene)
    return top


def _fill(app: App, values: dict[str, str]) -> FormScene:
    form = app.scenes.top
    assert isinstance(form, FormScene)
    for k, v in values.items():
        form.entries[k].set_text(v)
    app.step(_key(pygame.K_RETURN))
    return form


def test_f2_in_a_hotseat_battle_asks_for_the_gm_first_then_opens_gm_mode_and_f2_leaves_it() -> None:
    app, board, session = _app()
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    app.step(_key(pygame.K_F2))
    asked = app.scenes.top
    assert isinstance(asked, DialogScene) and asked.name == "gm_ask"  # two sides at this screen
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is board and not session.history  # a player goes back: nothing opened
    gm = _gm(app, session)
    assert [s.name for s in app.scenes][-1] == "gm"
    app.render()
    app.step(_key(pygame.K_F2))
    assert app.scenes.top is board and gm not in list(app.scenes)


def test_in_a_hotseat_battle_once_it_has_begun_only_the_gm_opens_gm_mode_and_esc_leaves_the_game_as_it_was() -> None:
    app, board, session = _app()
    _play(app, session, 5)
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    steps = list(session.history)
    app.step(_key(pygame.K_F2))
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "gm_ask"
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is board and list(session.history) == steps
    app.step(_key(pygame.K_F2))
    app.step(_key(pygame.K_g))  # "I am the GM"
    assert isinstance(app.scenes.top, MassGmScene)


class _Campaign(Scene):
    """A campaign screen under a battle fought out from it, as the GM-mode opener sees it: its
    GM's seat with a passphrase set."""

    name = "campaign"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.gm_seat = type("Seat", (), {"is_set": True, "opens": staticmethod(lambda p: p == "sesame")})()


def test_a_battle_from_a_campaign_with_a_gm_passphrase_asks_for_it_before_gm_mode_opens() -> None:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    app.push(_Campaign(app))
    session = open_game(TABLE, BATTLE)
    board = open_scene(app, session)
    app.push(board)
    app.step([])
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    app.step(_key(pygame.K_F2))
    lock = app.scenes.top
    assert isinstance(lock, PassphraseScene)
    assert not lock.submit("open up") and lock.message == "That is not the GM's passphrase."
    assert app.scenes.top is lock
    assert lock.submit("sesame")
    assert isinstance(app.scenes.top, MassGmScene)


def test_queued_rolls_are_shown_while_pending_and_the_next_rolls_show_them() -> None:
    app, board, session = _app()
    _play(app, session, 2)  # both appointments: Heaven is rolled next
    gm = _gm(app, session)
    gm.dice_entry.set_text("10, 10 3")
    _press(app, gm, "queue")
    _press(app, gm, "die:7")
    assert session.state.forced == [10, 10, 3, 7]
    assert gm.queue_text() == "Queued: 10, 10, 3, 7"
    last = session.history[-1]
    assert last.gm and last.command.kind == "gm_force_rolls" and last.command.values == (7,)
    assert gm.message == "GM: the next die will show 7"  # the GM's panel says the faces
    assert not any("will show" in line for line, _ in board.log)  # the board's log (the players') does not
    assert board.log[-1][0].startswith("GM: the face of the next die is the GM's")
    app.render()
    app.step(_key(pygame.K_F2))
    app.step(_key(pygame.K_RETURN))  # the next roll (Heaven)
    rolled = [e for e in session.history[-1].events if isinstance(e, Rolled)]
    assert rolled and rolled[0].forced and list(rolled[0].dice[:3]) == [10, 10, 3]


def test_a_die_face_outside_1_to_10_is_refused_saying_what_was_expected_and_nothing_is_played() -> None:
    app, _, session = _app()
    gm = _gm(app, session)
    before = list(session.history)
    gm.dice_entry.set_text("4 11")
    _press(app, gm, "queue")
    assert list(session.history) == before and session.state.forced == []
    assert gm.refused and gm.message.startswith("11 cannot be rolled on a d10: expected whole numbers from 1 to 10 "
                                                "(the mass battle's d10)"), gm.message
    gm.dice_entry.set_text("four")
    _press(app, gm, "queue")
    assert gm.refused and gm.message.startswith("'four' is not a die value") and list(session.history) == before


def test_an_individuals_wounds_set_in_the_dialog_are_a_logged_gm_command_the_gm_undoes() -> None:
    app, board, session = _app()
    _play(app, session, 3)
    gm = _gm(app, session)
    fid, person = gm.person()
    wounds = person.wounds
    _press(app, gm, "edit_person")
    _fill(app, {"wounds": "7"})
    assert app.scenes.top is gm  # the dialog closed
    assert session.state.forces[fid].people[person.id].wounds == 7
    assert session.history[-1].gm and session.history[-1].command.kind == "gm_set_person"
    assert any(line.startswith(f"GM: {person.name} now") for line, _ in board.log)
    app.step(_key(pygame.K_z, pygame.KMOD_CTRL))  # the GM's undo
    assert session.state.forces[fid].people[person.id].wounds == wounds
    app.step(_key(pygame.K_y, pygame.KMOD_CTRL))
    assert session.state.forces[fid].people[person.id].wounds == 7


def test_a_field_that_is_not_a_whole_number_is_refused_in_the_dialog_which_stays_open() -> None:
    app, _, session = _app()
    gm = _gm(app, session)
    before = list(session.history)
    _press(app, gm, "edit_person")
    form = _fill(app, {"wounds": "x"})
    assert app.scenes.top is form and form.message == "Wounds taken: a whole number, not 'x'"
    form = _fill(app, {"wounds": "-2"})
    assert form.message == "Wounds taken: 0 or more, not -2"
    assert list(session.history) == before
    app.step(_key(pygame.K_ESCAPE))
    assert [s.name for s in app.scenes][-1] == "gm"  # the dialog closed, nothing played


def test_brutes_and_advantage_set_in_their_dialogs_change_the_chosen_force() -> None:
    app, _, session = _app()
    gm = _gm(app, session)
    _press(app, gm, "force+")
    force = gm.force()
    _press(app, gm, "brutes")
    form = _fill(app, {"armour": "chain", "count": "5"})
    assert form.message == "Armour: one of none, light, heavy, not 'chain'"
    _fill(app, {"armour": "heavy", "count": "1234"})
    assert any(d.armour == "heavy" and d.count == 1234 for d in session.state.forces[force.id].brutes)
    _press(app, gm, "advantage")
    _fill(app, {"glory": "6", "terrain": "2"})
    adv = session.state.forces[force.id].advantage
    assert adv["glory"] == 6 and adv["terrain"] == 2
    kinds = [st.command.kind for st in session.history[-3:]]
    assert kinds == ["gm_set_brutes", "gm_set_advantage", "gm_set_advantage"]


def test_gm_commands_appear_in_the_replay_and_f3_in_gm_mode_shows_the_sealed_choices() -> None:
    app, _, session = _app()
    _play(app, session, 1)  # one sealed appointment, not yet announced
    gm = _gm(app, session)
    _press(app, gm, "die:9")
    app.step(_key(pygame.K_F3))
    replay = app.scenes.top
    assert isinstance(replay, MassReplayScene) and replay.gm
    assert replay.step_lines[0][0].startswith("2. GM: the next die is set")
    assert "GM: the next die will show 9" in [line for line, _ in replay.step_lines]  # the GM's eyes
    replay.goto(1)
    assert "reads Heaven" in replay.step_lines[0][0]
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is gm
    app.step(_key(pygame.K_F2))
    players = MassReplayScene(app, session, list(session.history))
    assert not any("will show" in line for line, _ in players.step_lines + players.view.log)


def test_gm_mode_fits_a_960_by_600_window() -> None:
    app, _, session = _app((960, 600))
    gm = _gm(app, session)
    panel = gm.panel_rect()
    assert all(panel.contains(b.rect) for b in gm.buttons)
    app.render()


def test_tab_moves_the_typing_through_every_field_of_a_gm_dialog_and_shift_tab_back() -> None:
    app, _, session = _app()
    gm = _gm(app, session)
    _press(app, gm, "edit_person")
    form = app.scenes.top
    assert isinstance(form, FormScene) and len(form.entries) >= 3
    keys = list(form.entries)
    before = {k: e.get_text() for k, e in form.entries.items()}
    for n, k in enumerate(keys[1:3], start=1):
        app.step(_key(pygame.K_TAB))
        assert [x for x in keys if form.entries[x].is_focused] == [k]  # one field has the caret
        app.step([pygame.event.Event(pygame.TEXTINPUT, text=str(n))])
    assert form.entries[keys[0]].get_text() == before[keys[0]]  # nothing typed into the first field
    assert form.entries[keys[1]].get_text().endswith("1") and form.entries[keys[2]].get_text().endswith("2")
    app.step(_key(pygame.K_TAB, pygame.KMOD_SHIFT))
    assert [x for x in keys if form.entries[x].is_focused] == [keys[1]]
