"""The computer's why lines survive a save and a load, in every window that has computer seats
(the tactical battle, the campaign map, the mass board), and an undone step drops its why.

Each computer command's why line is kept in its own log entry of the save (`why`, optional:
older saves have none); a why still held back because its decision is sealed is not written
(it would tell what was chosen); a malformed entry is refused naming the file, the line, the
entry and what was expected; the why lines have checksums of their own (tests/io/
test_saves_why_checksum.py), and `replay --verify` checks the game as before. A save opened
straight in the replay view shows them too."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.io import saves  # noqa: E402
from game.shell import savegame  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.shell.savegame import load_session, save_session  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.shell.session import Session  # noqa: E402
from game.shell.toolkit.richtext import plain  # noqa: E402
from game.systems.tactical.client.battle_panels import log_text  # noqa: E402
from game.table import TABLE  # noqa: E402

ROOT = paths.data_root()
GAMES = {"tactical": ("maps/default.yaml", {"zone": "random", "zenith": "random"}),
         "campaign": ("maps/campaign/teaching.yaml", {p: "random" for p in ("zenith", "jibril", "resistance", "zones")}),
         "mass": ("maps/mass/borderland-valley.yaml", {"hida": "random", "akira": "random"})}
FIXTURES = ROOT / "tests" / "fixtures" / "saves"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _window(session: Session) -> tuple[App, Any]:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
    scene = scene_for(app, session)
    if hasattr(scene, "pace"):
        scene.pace = 0.0  # (no pause for people watching between computer commands)
    thinker = getattr(scene, "thinker", None)
    if thinker is not None:
        thinker.seconds = 0.3
    app.push(scene)
    return app, scene


def _played_by_computers(system: str, whys: int = 3) -> tuple[App, Any, Session]:
    """A game of `system` whose every side the computer plays, run in its window until at least
    `whys` of its commands have a why line shown (not held back)."""
    scenario, levels = GAMES[system]
    session = open_game(TABLE, ROOT / scenario)
    session.seats = Seats(dict(levels))
    app, scene = _window(session)
    deadline = time.monotonic() + 90
    while len(session.seats.by_place(session.history)) < whys:
        assert time.monotonic() < deadline, f"the computer did not play {whys} commands with why lines"
        top = app.scenes.top
        if top is not scene and getattr(top, "name", "") in ("briefing", "handoff"):
            app.pop()  # nobody at the screen: the computer plays on behind it anyway
        app.step([])
        time.sleep(0.002)
    return app, scene, session


def _shown_log(scene: Any) -> list[str]:
    """The lines of the window's log (the tactical dice log, the campaign log, the mass log)."""
    panels = getattr(scene, "panels", None)
    if panels is not None:
        return plain(log_text(scene.session, scene.session.state)).splitlines()
    return [line if isinstance(line, str) else line[0] for line in scene.log]


@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_game_with_computer_seats_saved_and_loaded_keeps_each_why_line_on_its_command_and_verifies(
        system: str, tmp_path: Path) -> None:
    _, _, session = _played_by_computers(system)
    whys = session.seats.by_place(session.history)
    path = save_session(session, tmp_path / f"{system}.yaml")
    text = path.read_text(encoding="utf-8")
    for line in set(whys.values()):
        assert line in text
    back = load_session(TABLE, path)
    assert back is not None
    assert back.seats.by_place(back.history) == whys
    assert all(back.seats.why_of(back.history[i]) == line for i, line in whys.items())
    assert savegame.verify(TABLE, path).commands == len(session.history)  # replay --verify: unchanged
    _, scene = _window(back)  # the window opened on the loaded game: its log shows them as before
    shown = _shown_log(scene)
    recent = [line for i, line in whys.items() if i >= len(back.history) - 80]  # (the dice log's last 80)
    assert recent and all(line in shown for line in recent)


def test_every_kind_of_window_save_keeps_the_why_lines_quick_autosave_recovery_and_emergency(tmp_path: Path) -> None:
    _, scene, session = _played_by_computers("tactical")
    line = next(iter(session.seats.by_place(session.history).values()))
    quick = savegame.quick_save(session)
    recovery = savegame.write_recovery(session)
    session.autosaved_round = -1  # the next look is a new round: an autosave starts
    folder = savegame.autosave_if_new_round(session)
    assert folder is not None and savegame.AUTOSAVES.wait(30) and not savegame.AUTOSAVES.problems()
    auto = savegame.AUTOSAVES.written[-1]

    class _Stack:
        scenes = [scene]
        table = TABLE

    emergency, problem = savegame.emergency_save(_Stack())  # type: ignore[arg-type]
    assert problem is None and emergency is not None
    for path in (quick, recovery, auto, emergency):
        assert path is not None and line in path.read_text(encoding="utf-8"), path


def test_a_why_still_held_back_by_a_sealed_decision_is_not_written_in_the_save_and_is_gone_after_loading(
        tmp_path: Path) -> None:
    _, _, session = _played_by_computers("tactical")
    shown = session.seats.by_place(session.history)
    last = session.history[-1]
    session.seats.whys.pop(id(last), None)
    session.seats.note_why(last, "Why (Zenith Town, computer easy): SECRET-CHOICE", sealed=True)
    path = save_session(session, tmp_path / "sealed.yaml")
    assert "SECRET-CHOICE" not in path.read_text(encoding="utf-8")
    back = load_session(TABLE, path)
    assert back is not None
    assert back.seats.why_of(back.history[-1]) is None and not back.seats.held
    assert back.seats.by_place(back.history) == {i: w for i, w in shown.items() if i != len(session.history) - 1}


def test_a_save_without_why_lines_older_ones_included_loads_unchanged_with_none(tmp_path: Path) -> None:
    for fixture in sorted(FIXTURES.glob("v*.yaml")):
        copy = tmp_path / fixture.name
        shutil.copy(fixture, copy)
        back = load_session(TABLE, copy)
        assert back is not None and back.history, fixture.name
        assert back.seats.by_place(back.history) == {} and not back.seats.whys
    # and a save the game writes with no computer seat has no why entry at all: its log lines as before
    session = open_game(TABLE, ROOT / "maps/demo-movement.yaml")
    legal = list(session.system.legal_commands(session.state))
    assert session.apply(legal[0])[0]
    text = save_session(session, tmp_path / "people.yaml").read_text(encoding="utf-8")
    assert '"why"' not in text and "why:" not in text


@pytest.mark.parametrize(("bad", "shown"), [("12", "12"), ('""', "''"), ("[a, b]", "['a', 'b']"),
                                            ("{x: 1}", "{'x': 1}")])
def test_a_malformed_why_entry_is_refused_naming_the_file_its_line_the_entry_and_what_was_expected(
        tmp_path: Path, bad: str, shown: str) -> None:
    _, _, session = _played_by_computers("tactical")
    at = next(iter(session.seats.by_place(session.history)))
    path = save_session(session, tmp_path / "bad.yaml")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(n for n, text in enumerate(lines) if '"why": ' in text)
    head, _, _ = lines[row].partition(', "why": ')
    lines[row] = f"{head}, why: {bad}}}\n"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(saves.SaveError) as caught:
        load_session(TABLE, path)
    message = str(caught.value)
    assert str(path) in message
    assert f"line {row + 1}: log[{at}].why:" in message
    assert "expected the computer's why line as text" in message and f"got {shown}" in message


def test_an_undone_step_keeps_its_why_while_it_may_be_redone_and_the_redone_one_shows_it_a_cut_drops_it() -> None:
    session = open_game(TABLE, ROOT / "maps/demo-movement.yaml")
    seats = session.seats
    for n in range(4):
        legal = list(session.system.legal_commands(session.state))
        assert session.apply(legal[0])[0]
        seats.note_why(session.history[-1], f"why {n}", sealed=n == 3)
    kept = session.history[0]
    assert len(seats.whys) == 4 and len(seats.held) == 1
    undone = session.record.undo(gm=True)  # the GM's undo (any step): redoable, so its why is kept
    assert undone is not None and len(seats.whys) == 4 and len(seats.held) == 1
    assert session.record.redo() is not None  # the same command again: a new step, the same why, still held
    redone = session.history[-1]
    assert redone is not undone and seats.why_of(redone) is None and seats.unseal() == ["why 3"]
    assert seats.why_of(redone) == "why 3" and id(undone) not in seats.whys
    gone = session.history[-1]
    session.record.truncate(1)  # a GM branch cuts the history back: not redoable, the whys go
    assert set(seats.whys) == {id(kept)} and seats.why_of(gone) is None
    assert seats.why_of(kept) == "why 0"
    # a player's undo (what the rules allow: a command that rolled no dice), then another command:
    # the undone one can no longer be redone, and its why goes with it
    while True:
        legal = list(session.system.legal_commands(session.state))
        assert session.apply(legal[0])[0]
        seats.note_why(session.history[-1], "mine")
        if session.can_undo:
            break
    undone = session.history[-1]
    assert session.undo()
    assert id(undone) in seats.whys
    others = [c for c in session.system.legal_commands(session.state) if c != undone.command]
    assert session.apply(others[0])[0]
    assert id(undone) not in seats.whys and seats.why_of(kept) == "why 0"


def test_the_mass_board_opened_on_a_loaded_battle_lists_its_commands_with_each_why_under_its_own(
        tmp_path: Path) -> None:
    _, _, session = _played_by_computers("mass")
    whys = session.seats.by_place(session.history)
    back = load_session(TABLE, save_session(session, tmp_path / "mass.yaml"))
    assert back is not None
    _, scene = _window(back)
    shown = _shown_log(scene)
    heads = [n for n, line in enumerate(shown) if line.startswith("> ")]
    assert len(heads) == len(back.history)  # one heading a command played before the save
    for i, line in whys.items():
        end = heads[i + 1] if i + 1 < len(heads) else len(shown)
        assert line in shown[heads[i]:end], (i, line)  # within its own command's lines


def test_seats_give_their_why_lines_by_place_without_the_held_ones_and_take_them_back() -> None:
    seats = Seats({"a": "easy"})
    steps = [object(), object(), object()]
    seats.note_why(steps[0], "one")
    seats.note_why(steps[2], "three", sealed=True)
    assert seats.by_place(steps) == {0: "one"}
    seats.unseal()
    assert seats.by_place(steps) == {0: "one", 2: "three"}
    other = Seats({"a": "easy"})
    other.restore(steps, {0: "one", 2: "three", 7: "beyond the history"})
    assert other.by_place(steps) == {0: "one", 2: "three"} and not other.held
    other.prune(steps[:1])
    assert other.by_place(steps) == {0: "one"} and len(other.whys) == 1


def test_a_save_opened_straight_in_the_replay_view_has_its_seats_and_why_lines(tmp_path: Path) -> None:
    _, _, session = _played_by_computers("tactical")
    whys = session.seats.by_place(session.history)
    path = save_session(session, tmp_path / "replay.yaml")
    replayed, _client = savegame.load_for_replay(TABLE, path)
    assert replayed.seats.by_place(replayed.history) == whys
    assert replayed.seats.levels == session.seats.levels
