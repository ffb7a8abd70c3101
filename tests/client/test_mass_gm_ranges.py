"""GM mode's dialogs (F2 in a mass battle) refuse a value out of the rules' range, naming the field
and the range, before anything is applied: the dialog stays open with the rules' words and the
battle is as it was (engine.gm_range_problem; tests/rules/mass/test_gm_ranges.py has the ranges).
Each field's label says its range; a status may have decimals; a field left as it was is not sent."""

from __future__ import annotations

import pygame
import pygame_gui

from game.shell.app import App
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.session import Session
from game.systems.mass.client import MassGmScene
from game.systems.mass.client.gm import FormScene
from tests.client.massfix import board_app as _app
from tests.client.massfix import key_events as _key


def _press(app: App, gm: MassGmScene, key: str) -> None:
    button = next(b for b, k in gm.buttons.items() if k == key)
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)])


def _gm(app: App) -> MassGmScene:
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


def _as_was(session: Session) -> tuple[int, str]:
    return len(session.history), session.system.state_to_data(session.state).__repr__()


def test_99999999_wounds_in_the_gm_dialog_are_refused_naming_the_field_and_range_and_nothing_is_applied() -> None:
    app, _, session = _app()
    gm = _gm(app)
    _, p = gm.person()  # Hida Jo, Earth 4: 76 Wounds fill the track, 77 is dead
    before = _as_was(session)
    _press(app, gm, "edit_person")
    form = _fill(app, {"wounds": "99999999"})
    assert app.scenes.top is form and _as_was(session) == before
    assert form.message == ("Refused by the rules: Wounds taken: 0 to 77 for Hida Jo (Earth 4: 76 fill the wound "
                            "track, 77 is dead), not 99999999")
    assert [f.label for f in form.fields] == ["Wounds taken (0 to 77)", "Void points left (0 to 2)",
                                              "Status (0 to 10)"]
    form = _fill(app, {"wounds": "0", "void": "3"})
    assert form.message.endswith("Void points left: 0 to 2 for Hida Jo (their Void points), not 3")
    form = _fill(app, {"void": "2", "status": "11"})
    assert form.message.endswith("Status: 0 to 10 (the Celestial Order), not 11")
    form = _fill(app, {"wounds": "9" * 40, "status": "5"})
    assert form.message == "Wounds taken: a whole number, not '999999999999999999999...'"
    assert _as_was(session) == before
    _fill(app, {"wounds": "77", "status": "4.5"})  # dead, and a status with a decimal
    assert app.scenes.top is gm and session.state.person(p.id).wounds == 77
    assert session.state.person(p.id).stats.status == 4.5


def test_a_gm_person_dialog_sends_only_the_fields_changed() -> None:
    app, _, session = _app()
    gm = _gm(app)
    _, p = gm.person()
    _press(app, gm, "edit_person")
    form = _fill(app, {})
    assert app.scenes.top is form and form.message == "Nothing changed: type a new value, or Cancel."
    _fill(app, {"void": "0"})
    cmd = session.history[-1].command
    assert (cmd.wounds, cmd.void_left, cmd.status) == (None, 0, None)


def test_an_advantage_out_of_range_in_any_way_applies_none_of_the_ways() -> None:
    app, _, session = _app()
    gm = _gm(app)
    force = gm.force()
    before = _as_was(session)
    _press(app, gm, "advantage")
    form = _fill(app, {"heaven": "3", "glory": "12", "terrain": "2"})
    assert app.scenes.top is form and _as_was(session) == before  # Heaven not applied either
    assert form.message == "Refused by the rules: Glory Advantage: 0 to 11 (1 for the Way, +1 per Raise), not 12"
    form = _fill(app, {"glory": "0", "terrain": "11"})
    assert form.message == "Refused by the rules: Terrain Advantage: 0 to 10 (a ring's rank), not 11"
    assert _as_was(session) == before
    _fill(app, {"terrain": "10"})
    adv = session.state.forces[force.id].advantage
    assert (adv["heaven"], adv["terrain"]) == (3, 10)


def test_brutes_and_honor_out_of_range_are_refused_in_their_dialogs() -> None:
    app, _, session = _app()
    gm = _gm(app)
    before = _as_was(session)
    _press(app, gm, "brutes")
    form = _fill(app, {"armour": "heavy", "count": "99999999"})
    assert form.message == "Refused by the rules: Brutes in heavy armour: 0 to 100000 in one division, not 99999999"
    app.step(_key(pygame.K_ESCAPE))
    _press(app, gm, "honor")
    form = _fill(app, {"points": "50", "reason": "saved the daimyo"})
    assert form.message == "Refused by the rules: Honor change: -10 to +10 at a time, not +50"
    assert _as_was(session) == before


def test_a_gm_value_the_rules_refuse_is_said_to_the_gm_only_not_in_the_players_log() -> None:
    app, board, session = _app()
    gm = _gm(app)
    log = list(board.log)
    _press(app, gm, "honor")
    form = _fill(app, {"points": "50", "reason": "saved the daimyo"})
    assert form.message.startswith("Refused by the rules: Honor change") and gm.refused
    assert board.log == log  # the board's log (every player's) has no line for the GM's slip
