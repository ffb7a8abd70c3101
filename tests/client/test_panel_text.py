"""The side panel's unit card and hex box are laid out by game/shell/toolkit/richtext.py, which keeps
the texts shown lately: the mouse back on a hex, or a unit selected again, shows the text
without laying it out anew; what is shown is always the text for what is under the mouse, also
after the window changes size."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from game.shell.toolkit import richtext
from game.shell.toolkit.richtext import RichTextBox, Styled, plain
from game.systems.tactical.client import battle_panels
from game.systems.tactical.rules import commands as cmd
from game.systems.tactical.rules.gm import PlaceUnit
from tests.client.clientfix import battle, click_hex, hover_hex, make_app, make_session

UNITS = [("r1", "rifle_section", "blue", (2, 2)), ("r2", "rifle_section", "blue", (4, 5)),
         ("m1", "militia_band", "red", (9, 6))]


def _laid_out(monkeypatch: Any) -> list[int]:
    """One entry per text laid out from now on."""
    seen: list[int] = []
    real = richtext.render

    def render(rows, *a, **k):  # type: ignore[no-untyped-def]
        seen.append(len(rows))
        return real(rows, *a, **k)

    monkeypatch.setattr(richtext, "render", render)
    return seen


def test_hovering_back_over_a_hex_shows_its_text_without_laying_it_out_again(monkeypatch: Any) -> None:
    session = make_session(UNITS, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    a, b = session.board.hex_at(3, 3), session.board.hex_at(5, 2)
    hover_hex(app, a)
    app.render()
    text_a = scene.panels.info_box.html_text
    hover_hex(app, b)
    app.render()
    text_b = scene.panels.info_box.html_text
    assert text_a != text_b and "3,3" in plain(text_a) and "5,2" in plain(text_b)
    seen = _laid_out(monkeypatch)
    for _ in range(3):
        hover_hex(app, a)
        app.render()
        assert scene.panels.info_box.html_text == text_a and scene.panels.info_box.visible
        hover_hex(app, b)
        app.render()
        assert scene.panels.info_box.html_text == text_b and scene.panels.info_box.visible
    assert seen == []  # nothing laid out again
    visible = [e for e in scene.ui.get_sprite_group().sprites() if isinstance(e, RichTextBox)
               and e.visible and e.rect == scene.panels.info_box.rect]
    assert visible == [scene.panels.info_box]  # one box shown in that place, not two on each other


def test_selecting_a_unit_again_shows_its_card_at_once_and_a_resize_keeps_what_is_shown(monkeypatch: Any) -> None:
    session = make_session(UNITS, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    cards = {}
    for uid in ("r1", "r2", "r1"):
        click_hex(app, session.state.units[uid].hex)
        app.render()
        cards[uid] = scene.panels.unit_box.html_text
    assert cards["r1"] != cards["r2"]
    seen = _laid_out(monkeypatch)
    click_hex(app, session.state.units["r2"].hex)
    app.render()
    assert scene.panels.unit_box.html_text == cards["r2"]
    assert seen == []  # shown from the kept layout
    scene.on_resize((960, 600))
    app.render()
    assert scene.panels.unit_box.html_text == cards["r2"] and scene.panels.unit_box.visible
    click_hex(app, session.state.units["r1"].hex)
    app.render()
    assert scene.panels.unit_box.html_text == cards["r1"]


def test_a_command_lays_out_only_its_own_lines_of_the_dice_log() -> None:
    """The dice log shows up to 200 lines; laid out whole by pygame_gui each command cost 0.3-0.5 s
    once the log was long. Now a command's frame lays out the lines that command added."""
    session = make_session(UNITS, width=16, height=12, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    cache = scene.panels.log_box._cache
    moves = [((2, 2), (2, 3)), ((2, 3), (2, 4)), ((4, 5), (4, 6))]
    for uid, (_, (c, r)) in zip(("r1", "r1", "r2"), moves, strict=True):
        if session.state.units[uid].move_done:
            continue
        before_log = len(scene.panels.styled("log"))
        lines_before = cache.lines_built
        assert scene.submit(cmd.Move(unit_id=uid, path=(session.board.hex_at(c, r),)))
        for _ in range(3):
            app.step()
            app.render()
        added = len(scene.panels.styled("log")) - before_log
        assert added > 0
        assert cache.lines_built - lines_before <= added + 1  # the new lines, not the whole log


def test_the_kept_lines_of_the_dice_log_are_the_lines_made_afresh_also_after_a_gm_change() -> None:
    session = make_session(UNITS, width=16, height=12, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)

    def fresh() -> Styled:
        battle_panels._LOG_BLOCKS.clear()
        return battle_panels.log_text(session, session.state)

    assert scene.submit(cmd.Move(unit_id="r1", path=(session.board.hex_at(2, 3),)))
    kept = battle_panels.log_text(session, session.state)
    assert kept == fresh() and "Rifle Section" in plain(kept)
    # a GM places a unit: names may change, so every line is made again with the new names
    before = session.state.names_version()
    assert scene.submit(PlaceUnit(unit_id="gm-r", type_id="rifle_section", side="blue",
                                  at=session.board.hex_at(8, 8)), gm=True)
    assert session.state.names_version() is not before
    assert scene.submit(cmd.Move(unit_id="r2", path=(session.board.hex_at(4, 6),)))
    kept = battle_panels.log_text(session, session.state)
    assert kept == fresh()


def test_the_kept_log_lines_do_not_keep_an_undone_command_and_its_states_alive() -> None:
    session = make_session(UNITS, width=16, height=12, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    assert scene.submit(cmd.Move(unit_id="r1", path=(session.board.hex_at(2, 3),)))
    battle_panels.log_text(session, session.state)
    gone = weakref.ref(session.history[-1])
    assert session.undo()
    assert scene.submit(cmd.Move(unit_id="r2", path=(session.board.hex_at(4, 6),)))  # (no redo now)
    battle_panels.log_text(session, session.state)
    gc.collect()
    assert gone() is None  # nothing of the log's kept lines holds it
