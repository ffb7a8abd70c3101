"""The why lines of a save are covered by checksums (docs/formats.md, "Saves: the why lines'
checksums"): each log entry with a why carries `why_checksum` (the line at its place in the log)
and the header carries `why_checksum` (all of them). A why line edited, removed, added or moved
by hand is refused on load, naming the file, the line and the entry (or the header's field) and
what was expected, as an edited state is; `replay --verify` refuses it too. A save without why
lines is written exactly as before; a save from the versions that wrote why lines without
checksums is read as it is."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.__main__ import main  # noqa: E402
from game.core.record import Record  # noqa: E402
from game.core.system import Accepted, RuleSystem  # noqa: E402
from game.io import saves  # noqa: E402
from game.io.saves import SaveData, SaveError  # noqa: E402
from game.replay import load_game, make_save, verify_save  # noqa: E402
from game.shell.launch import open_game  # noqa: E402
from game.shell.savegame import load_session, save_session  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.table import TABLE  # noqa: E402

ROOT = paths.data_root()
SCENARIO = ROOT / "maps" / "demo-overwatch.yaml"
FIXTURE = ROOT / "tests" / "fixtures" / "saves" / "v4-demo-overwatch.yaml"
WHYS = {1: "Why (Jibril Assault Group, computer easy): tactics: rolls 10.5 on average",
        3: "Why (Street Garrison, computer random): at random among 7 commands",
        4: "Why (Street Garrison, computer hard): attack Militia Band with repeater rifles: 100% to hit, "
           "24% to destroy — «quoted», ünïcode"}


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _played(n: int = 6) -> tuple[RuleSystem, Record]:
    """The demonstration battle after its first `n` legal commands."""
    plugin = TABLE.plugin_named("ail-tactical")
    system = plugin.system
    loaded = plugin.load(SCENARIO)
    record = Record(system, system.initial_state(plugin.setup_of(loaded), loaded.seed))
    for _ in range(n):
        assert isinstance(record.apply(list(system.legal_commands(record.state))[0]), Accepted)
    return system, record


def _bare(n: int = 6) -> SaveData:
    system, record = _played(n)
    seed = TABLE.plugin_named("ail-tactical").load(SCENARIO).seed
    return make_save(system, record.state, record.steps, scenario_path=SCENARIO, seed=seed)


def _written(tmp_path: Path, whys: dict[int, str] | None = None, name: str = "game.yaml") -> Path:
    return saves.write_save(tmp_path / name, saves.with_whys(_bare(), WHYS if whys is None else whys))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _row(lines: list[str], index: int) -> int:
    """The line number (from 0) of log entry `index`."""
    start = lines.index("--- # log\n") + 1
    return start + index


def _entry(lines: list[str], index: int) -> dict[str, object]:
    return dict(json.loads(lines[_row(lines, index)][2:]))


def _put(path: Path, lines: list[str], index: int, entry: dict[str, object]) -> None:
    lines[_row(lines, index)] = "- " + json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def _refused(path: Path) -> str:
    with pytest.raises(SaveError) as caught:
        saves.load_save(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    return message


# --------------------------------------------------------------------------- written


def test_a_save_with_why_lines_carries_their_checksums_and_reads_back_the_same(tmp_path: Path) -> None:
    path = _written(tmp_path)
    back = saves.load_save(path)
    assert {i: e.why for i, e in enumerate(back.log) if e.why is not None} == WHYS
    for i, entry in enumerate(back.log):
        assert entry.why_checksum == (saves.why_line_checksum(i, WHYS[i]) if i in WHYS else None)
    assert back.header.why_checksum == saves.whys_checksum(back.log)
    assert back.header.why_checksum is not None and len(back.header.why_checksum) == 16
    assert saves.dump_save(dataclasses.replace(back, system_title=TABLE.plugin_named("ail-tactical").system.title)) \
        == path.read_text(encoding="utf-8")
    assert load_game(TABLE, path).save.log == back.log
    assert verify_save(TABLE, path).commands == len(back.log)
    assert saves.read_header(path).why_checksum == back.header.why_checksum  # the load menu reads it
    assert [s.ok for s in saves.list_saves(tmp_path)] == [True]


def test_the_checksums_are_sha256_of_the_canonical_json_of_the_index_and_line() -> None:
    line = WHYS[4]
    text = json.dumps([4, line], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert saves.why_line_checksum(4, line) == hashlib.sha256(text.encode("ascii")).hexdigest()[:16]
    log = saves.with_whys(_bare(), WHYS).log
    pairs = json.dumps([[i, WHYS[i]] for i in sorted(WHYS)], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert saves.whys_checksum(log) == hashlib.sha256(pairs.encode("ascii")).hexdigest()[:16]
    assert saves.whys_checksum(_bare().log) is None


def test_a_save_without_why_lines_is_written_exactly_as_before(tmp_path: Path) -> None:
    bare = _bare()
    assert saves.with_whys(bare, {}) is bare
    assert saves.with_whys(bare, {1: "", 2: "   ", 99: "out of the log"}) is bare  # nothing to write
    text = saves.dump_save(bare)
    assert "why" not in text
    # a save of the format written before why checksums existed: read and written again, its
    # documents come out byte for byte (the comment lines at its top have been reworded since)
    old = FIXTURE.read_text(encoding="utf-8")
    again = saves.dump_save(saves.parse_save(old, FIXTURE))
    assert [ln for ln in again.splitlines() if not ln.startswith("#")] == \
        [ln for ln in old.splitlines() if not ln.startswith("#")]


def test_an_empty_why_line_is_never_written(tmp_path: Path) -> None:
    path = saves.write_save(tmp_path / "g.yaml", saves.with_whys(_bare(), {1: "kept", 2: "", 3: " \t "}))
    back = saves.load_save(path)
    assert {i: e.why for i, e in enumerate(back.log) if e.why is not None} == {1: "kept"}


def test_with_whys_twice_keeps_every_line_checked(tmp_path: Path) -> None:
    once = saves.with_whys(_bare(), {1: WHYS[1]})
    twice = saves.with_whys(once, {3: WHYS[3]})
    assert twice.header.why_checksum == saves.whys_checksum(twice.log)
    assert [e.why_checksum is not None for e in twice.log] == [e.why is not None for e in twice.log]
    path = saves.write_save(tmp_path / "g.yaml", twice)
    assert saves.load_save(path).log == twice.log


# --------------------------------------------------------------------------- refused


def test_an_edited_why_line_is_refused_naming_the_file_the_line_the_entry_and_the_checksums(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    entry = _entry(lines, 4)
    entry["why"] = str(entry["why"]).replace("24% to destroy", "94% to destroy")
    _put(path, lines, 4, entry)
    message = _refused(path)
    expected = saves.why_line_checksum(4, str(entry["why"]))
    assert f"line {_row(lines, 4) + 1}: log[4].why: the why line was changed" in message
    assert f"why_checksum is {entry['why_checksum']}" in message and expected in message
    assert "command 5" in message and "edited by hand" in message
    # the game, its replay view and `replay --verify` refuse it alike, and nothing is written
    before = path.read_bytes()
    for load in (lambda: load_game(TABLE, path), lambda: verify_save(TABLE, path)):
        with pytest.raises(SaveError) as caught:
            load()
        assert str(caught.value) == message
    assert path.read_bytes() == before


def test_replay_verify_refuses_an_edited_why_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    entry = _entry(lines, 1)
    entry["why"] = "Why (Jibril Assault Group, computer hard): because I said so"
    _put(path, lines, 1, entry)
    assert main(["replay", str(path), "--verify"]) != 0
    assert f"line {_row(lines, 1) + 1}: log[1].why: the why line was changed" in capsys.readouterr().err


def test_a_why_line_removed_is_refused(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    entry = _entry(lines, 3)
    del entry["why"]  # the line alone: its checksum is left
    _put(path, lines, 3, entry)
    assert f"line {_row(lines, 3) + 1}: log[3].why_checksum: a why line's checksum without its why line" \
        in _refused(path)
    del entry["why_checksum"]  # and its checksum with it: the header's checksum no longer fits
    _put(path, lines, 3, entry)
    message = _refused(path)
    header_row = next(n for n, ln in enumerate(lines) if ln.startswith("why_checksum:"))
    assert f"line {header_row + 1}: why_checksum: the log's why lines are not the ones saved" in message
    assert "the 2 why lines of the log give" in message and "removed or added by hand" in message


def test_every_why_line_removed_is_refused_by_the_header(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    for i in WHYS:
        entry = _entry(lines, i)
        del entry["why"], entry["why_checksum"]
        _put(path, lines, i, entry)
    assert "why_checksum: the log's why lines are not the ones saved" in _refused(path)
    assert "give none" in _refused(path)


def test_a_why_line_added_is_refused(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    entry = _entry(lines, 2)
    entry["why"] = "Why (Street Garrison, computer hard): an afterthought"
    _put(path, lines, 2, entry)
    assert f"line {_row(lines, 2) + 1}: log[2].why: a why line without its why_checksum" in _refused(path)
    entry["why_checksum"] = saves.why_line_checksum(2, str(entry["why"]))  # with its own checksum made up
    _put(path, lines, 2, entry)
    assert "why_checksum: the log's why lines are not the ones saved" in _refused(path)
    assert "the 4 why lines" in _refused(path)


def test_a_why_line_moved_to_another_command_is_refused_at_its_new_place(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    moved, other = _entry(lines, 1), _entry(lines, 2)
    other["why"], other["why_checksum"] = moved.pop("why"), moved.pop("why_checksum")
    _put(path, lines, 1, moved)
    _put(path, lines, 2, other)
    assert f"line {_row(lines, 2) + 1}: log[2].why: the why line was changed" in _refused(path)


def test_a_why_line_added_to_a_save_without_any_is_read_as_one_from_before_the_checksums(tmp_path: Path) -> None:
    """[decision] The limit of the design: a save with no why checksum anywhere is one from before
    them, so a why line added to a save that had none is not detected (nor any edit of a save
    whose every why checksum was removed)."""
    path = saves.write_save(tmp_path / "g.yaml", _bare())
    lines = _lines(path)
    entry = _entry(lines, 2)
    entry["why"] = "Why (Street Garrison, computer easy): added later"
    _put(path, lines, 2, entry)
    assert saves.load_save(path).log[2].why == "Why (Street Garrison, computer easy): added later"


def test_a_header_without_its_why_checksum_is_refused_when_the_entries_have_theirs(tmp_path: Path) -> None:
    path = _written(tmp_path)
    text = path.read_text(encoding="utf-8")
    header_line = next(ln for ln in text.splitlines(keepends=True) if ln.startswith("why_checksum:"))
    path.write_text(text.replace(header_line, ""), encoding="utf-8")
    lines = _lines(path)
    first = min(WHYS)
    assert f"line {_row(lines, first) + 1}: log[{first}].why_checksum: a why line's checksum, but the header has " \
           "no why_checksum" in _refused(path)


def test_an_edited_header_why_checksum_is_refused(tmp_path: Path) -> None:
    path = _written(tmp_path)
    text = path.read_text(encoding="utf-8")
    saved = saves.load_save(path).header.why_checksum
    assert saved is not None
    path.write_text(text.replace(f"why_checksum: {saved}", "why_checksum: 0123456789abcdef"), encoding="utf-8")
    message = _refused(path)
    assert "why_checksum: the log's why lines are not the ones saved: the header's why_checksum is 0123456789abcdef" \
        in message and saved in message
    path.write_text(text.replace(f"why_checksum: {saved}", "why_checksum: 12"), encoding="utf-8")
    assert "why_checksum: input should be a valid string" in _refused(path).lower()


def test_a_save_read_without_its_checksums_reads_an_edited_why_line(tmp_path: Path) -> None:
    path = _written(tmp_path)
    lines = _lines(path)
    entry = _entry(lines, 1)
    entry["why"] = "edited"
    _put(path, lines, 1, entry)
    assert saves.load_save(path, verify_checksums=False).log[1].why == "edited"


# --------------------------------------------------------------------------- older saves


def _as_before_the_checksums(path: Path) -> None:
    """The save as the versions that wrote why lines without checksums wrote it."""
    out = []
    for line in _lines(path):
        if line.startswith("why_checksum:"):
            continue
        if line.startswith("- {") and '"why_checksum"' in line:
            entry = json.loads(line[2:])
            del entry["why_checksum"]
            line = "- " + json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")) + "\n"
        out.append(line)
    path.write_text("".join(out), encoding="utf-8")


def test_a_save_from_before_the_why_checksums_loads_and_verifies_with_its_why_lines(tmp_path: Path) -> None:
    path = _written(tmp_path)
    _as_before_the_checksums(path)
    text = path.read_text(encoding="utf-8")
    assert "why_checksum" not in text and '"why": ' in text
    back = saves.load_save(path)
    assert back.header.why_checksum is None
    assert {i: e.why for i, e in enumerate(back.log) if e.why is not None} == WHYS
    assert verify_save(TABLE, path).commands == len(back.log)
    # written again with its why lines (as the window does), it gets their checksums
    again = saves.write_save(tmp_path / "again.yaml", saves.with_whys(back, {}))
    assert "why_checksum" not in again.read_text(encoding="utf-8")  # (nothing given: the save as it was)
    resaved = saves.with_whys(back, {i: e.why for i, e in enumerate(back.log) if e.why is not None})
    again = saves.write_save(tmp_path / "again.yaml", resaved)
    assert saves.load_save(again).header.why_checksum == saves.whys_checksum(back.log)


# --------------------------------------------------------------------------- the window's saves


def test_a_held_why_is_in_no_checksum_and_the_window_saves_load(tmp_path: Path) -> None:
    session = open_game(TABLE, SCENARIO)
    session.seats = Seats({"garrison": "easy"})
    for i in range(4):
        assert session.apply(list(session.system.legal_commands(session.state))[0])[0]
        session.seats.note_why(session.history[-1], f"Why (Street Garrison, computer easy): line {i}",
                               sealed=i == 3)
    path = save_session(session, tmp_path / "held.yaml")
    back = saves.load_save(path)
    assert {i: e.why for i, e in enumerate(back.log) if e.why is not None} == \
        {i: f"Why (Street Garrison, computer easy): line {i}" for i in range(3)}
    assert back.header.why_checksum == saves.whys_checksum(back.log)
    assert "line 3" not in path.read_text(encoding="utf-8")
    loaded = load_session(TABLE, path)
    assert loaded is not None and len(loaded.seats.by_place(loaded.history)) == 3
    auto = saves.autosave(tmp_path / "autosaves", saves.with_whys(back, {}))
    assert saves.load_save(auto).header.why_checksum == back.header.why_checksum
