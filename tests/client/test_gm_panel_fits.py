"""The tactical GM panel (F2, game/systems/tactical/client/gm.py) fits the smallest window whole:
at 960x600 its lower third (the rolls, Undo / Redo, Save as scenario) was below the fold of a
scrolling box. Every tool is in view, none scrolls, and each still does what it says."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
import pytest

from game.shell import launch
from game.shell.toolkit.richtext import RichTextBox, lines_of, plain, wrap
from game.table import TABLE
from tests.client.clientfix import battle, click_hex, key, make_app, make_session, press_button
from tests.client.test_load_menu import demo_save


def _gm(size: tuple[int, int]) -> tuple[Any, Any]:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 4))],
                           phase="movement")
    app = make_app(session, size=size, blackout=False)
    key(app, pygame.K_F2)
    assert app.scenes.top.name == "gm"
    return app, app.scenes.top


def _elements(gm: Any) -> list[Any]:
    """The panel's buttons, labels and text boxes (not the scroll bar's parts, kept 0 wide)."""
    out = []
    for el in gm.ui.get_sprite_group().sprites():
        if isinstance(el, RichTextBox) or (isinstance(el, (pygame_gui.elements.UIButton, pygame_gui.elements.UILabel))
                                           and el.visible and el.text not in ("▲", "▼", "")):
            out.append(el)
    return out


@pytest.mark.parametrize("size", [(960, 600), (1280, 800)])
def test_every_gm_tool_lies_inside_the_panel_and_the_panel_does_not_scroll(size: tuple[int, int]) -> None:
    app, gm = _gm(size)
    panel = gm._rect()
    assert gm.content_h <= panel.h
    assert not gm.box.vert_scroll_bar_active  # no scroll bar: nothing below the fold
    shown = _elements(gm)
    labels = {getattr(el, "text", "") for el in shown}
    for needed in ("Undo", "Redo", "Select", "Place", "Move", "Remove", "Str -", "Adr +", "Next stance",
                   "Pinned", "Out of act.", "Destroyed", "Remove unit", "Stat: physique", "-1", "+1",
                   "Clear", "1", "10", "Save as scenario"):
        assert needed in labels, needed
    for el in shown:
        assert panel.contains(el.rect), (size, getattr(el, "text", el), el.rect, panel)
    buttons = [el for el in shown if isinstance(el, pygame_gui.elements.UIButton)]
    for n, a in enumerate(buttons):  # none lies over another
        for b in buttons[n + 1:]:
            assert not a.rect.colliderect(b.rect), (a.text, b.text)


def test_the_stat_buttons_show_the_value_they_change_and_the_unit_box_shows_its_four_lines_whole() -> None:
    app, gm = _gm((960, 600))
    assert gm.stat_value.text == "–"  # no unit selected
    session = battle(app).session
    click_hex(app, session.state.units["r1"].hex)
    before = session.state.unit_type("r1").stats.physique
    assert gm.stat_value.text == str(before)
    press_button(app, "+")
    assert session.state.unit_type("r1").stats.physique == before + 1
    assert gm.stat_value.text == str(before + 1)
    box = gm.unit_box
    assert box.max_scroll == 0, plain(box.html_text)  # nothing of it scrolled out of sight
    assert plain(box.html_text).splitlines()[0].endswith("[r1]")


def test_the_queued_rolls_fit_their_line_however_many_there_are() -> None:
    from game.shell import fonts

    app, gm = _gm((960, 600))
    for v in (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 10, 10):
        gm.press(f"roll:{v}")
    label = next(el for el in _elements(gm) if isinstance(el, pygame_gui.elements.UILabel)
                 and el.text.startswith("Next rolls"))
    assert fonts.font(14).size(label.text)[0] <= label.rect.w
    assert label.text.startswith("Next rolls: 10, 9, 8") and label.text.endswith(tuple(f"+{n}" for n in range(1, 12)))


def test_the_export_message_names_the_file_and_its_folder_in_the_boxs_three_lines(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "a-rather-long-folder-for-saves" / "of-the-table"
    monkeypatch.setenv("AIL_SAVES_DIR", str(saves))
    session = launch.session_from_save(TABLE, demo_save(tmp_path / "s.yaml"))  # a battle from a scenario file
    assert session is not None
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_F2)
    gm = app.scenes.top
    press_button(app, "Save as scenario")
    written = list((saves / "scenarios").glob("*.yaml"))
    assert len(written) == 1, (gm.message, list(tmp_path.rglob("*")))
    box = gm.message_box
    rows = ["".join(run.text for run in row) for row in wrap(lines_of(box.html_text), box.text_width, 13)]
    name, folder = written[0].name, str(written[0].parent)
    assert rows[0] == "Scenario written:"
    assert name in "".join(rows[1:3])  # the file's name in view (the box shows three lines)
    assert folder in "".join(rows)
    message, at = gm.message, 0
    for row in rows:  # each line ends at a space, or inside a word after a "/" or a "-" only
        at = message.index(row, at) + len(row)
        assert at == len(message) or message[at] == " " or row.endswith(("/", "-")), (row, rows)
