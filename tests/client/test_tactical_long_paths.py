"""Long file paths in the tactical client read well (QA at 960x600 after commit 4502733 made
the shell's wrap cut a path at a folder): the top bar's line shows a save's message cut at a word
with "…" (it ran on under the bar's buttons, cut mid-word), the toast over the map and the
panels' text boxes cut a path after a "/" (or a name after a "-"), never inside a folder's name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.shell import launch
from game.shell.toolkit.richtext import lines_of, wrap
from game.systems.tactical.client import labels
from game.table import TABLE
from tests.client.clientfix import battle, key, make_app, make_session, settle
from tests.client.test_load_menu import demo_save

LONG = Path("/home/a-player/.local/share/ascension-isle-legacy/saves/quicksave-ail-tactical-riverford.yaml")


def _session() -> Any:
    return make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 4))],
                        phase="movement")


def _cut_only_at_spaces_or_after_marks(message: str, rows: list[str]) -> None:
    at = 0
    for row in rows:
        row = row.strip()
        at = message.index(row, at) + len(row)
        assert at == len(message) or message[at] == " " or row.endswith(("/", "-")), (row, rows)


def test_a_save_message_too_long_for_the_top_bar_is_cut_at_a_word_with_an_ellipsis() -> None:
    app = make_app(_session(), size=(960, 600), blackout=False)
    scene = battle(app)
    message = f"Saved to {LONG} (Ctrl+O lists every save)"
    scene.toast(message, 3.0)
    scene.panels.refresh_hint(scene)
    label = scene.panels.hint_label
    shown = label.text
    assert label.font.size(shown)[0] <= label.rect.w - 8  # whole inside its box, not under the buttons
    assert shown.endswith("…") and message.startswith(shown[:-1])
    assert message[len(shown) - 1] == " "  # cut between words


def test_the_toast_over_the_map_cuts_a_long_path_after_a_folder() -> None:
    message = f"Saved to {LONG} (F9 loads it)"
    rows = list(labels.wrap(message, labels.TOAST_SIZE, 300))
    assert len(rows) > 2
    _cut_only_at_spaces_or_after_marks(message, rows)
    assert any(row.endswith("/saves/") or row.endswith("/") for row in rows)


def test_a_text_box_cuts_a_long_path_after_a_folder_and_a_long_name_after_a_dash() -> None:
    message = f"Not loaded: {LONG} could not be read"
    rows = ["".join(run.text for run in row) for row in wrap(lines_of(message), 200, 13)]
    _cut_only_at_spaces_or_after_marks(message, rows)
    name = "demonstration-roads-dash-and-the-mire-gm-20261204-180404.yaml"
    rows = ["".join(run.text for run in row) for row in wrap(lines_of(name), 200, 13)]
    assert len(rows) > 1 and all(row.endswith("-") for row in rows[:-1]) and "".join(rows) == name


def test_f5_in_a_deep_saves_folder_shows_the_whole_path_over_the_map(tmp_path: Path, monkeypatch: Any) -> None:
    deep = tmp_path / "a-rather-long-folder-for-the-saves" / "of-this-table-top-game"
    monkeypatch.setenv("AIL_SAVES_DIR", str(deep))
    session = launch.session_from_save(TABLE, demo_save(tmp_path / "s.yaml"))  # a battle from a scenario file
    assert session is not None
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_F5)
    settle(app, 2)
    scene = battle(app)
    written = list(deep.glob("*.yaml"))
    assert len(written) == 1
    assert scene.toast_text is not None and str(written[0]) in scene.toast_text
    view = labels.view_rect(scene.camera)
    rows = labels.wrap(scene.toast_text, labels.TOAST_SIZE, max(60, view.w - 40))
    _cut_only_at_spaces_or_after_marks(scene.toast_text, list(rows))


def test_the_load_menus_title_fits_a_deep_saves_folder_by_giving_up_its_first_folders() -> None:
    from game.shell import fonts
    from game.shell.scenes.load_menu import folder_title

    deep = Path("/tmp/saves/a-rather-long-folder-for-the-saves/of-this-table-top-game/kept-by-the-games-master")
    title = folder_title(2, deep, 876)  # the title's room at 960x600
    assert fonts.font(16, True).size(title)[0] <= 876
    assert title.endswith("/of-this-table-top-game/kept-by-the-games-master)") and "(2 in …/" in title
    assert folder_title(2, Path("/tmp/saves"), 876) == "Load a saved game (2 in /tmp/saves)"


def test_the_top_bars_first_line_fits_a_personal_slot_with_long_names_at_960() -> None:
    from game.systems.tactical.client.battle_panels import _fit_status
    from game.systems.tactical.rules.state import TurnSlot

    session = _session()
    session.state = session.state.model_copy(update={"turn_order": (TurnSlot(side="blue", unit_id="r1"),
                                                                    TurnSlot(side="red"))})
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    label = scene.panels.status_label
    assert "Personal:" in label.text and label.text.endswith("alone")  # a short line: whole
    line = _fit_status("Round 1/8", "Zone Expeditionary Column", "Movement", "Captain Ilse Varga", label)
    assert label.font.size(line)[0] <= label.rect.w
    assert line == "Round 1/8 · Movement · Personal: Captain Ilse Varga alone"  # the side gives way first
    line = _fit_status("Round 1/8", "Zone Expeditionary Column", "Movement",
                       "Knight-Warden Oskar Tann of the Riverford Crossing Garrison", label)
    assert label.font.size(line)[0] <= label.rect.w and line.endswith("…") and " · Personal: " in line


def test_a_terminate_signal_names_the_recovery_saves_folder_and_what_the_next_start_does(
        tmp_path: Path, monkeypatch: Any) -> None:
    import signal

    import game.systems.tactical.rules as ail

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    session = launch.session_from_save(TABLE, demo_save(tmp_path / "s.yaml"))
    assert session is not None
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    unit = next(u for u in session.state.units.values() if u.side == session.state.active_side)
    for h in session.board.terrain:  # a move, so there is play since the last save
        if scene.submit(ail.Move(unit_id=unit.id, path=(unit.hex, h))):
            break
    settle(app, 3)
    app.terminate(signal.SIGTERM)
    settle(app, 2)
    kept = list((tmp_path / "saves" / "recovery").glob("*.yaml"))
    assert len(kept) == 1
    assert f"kept in recovery/{kept[0].name} (the next start offers to resume it)." in (scene.toast_text or "")
