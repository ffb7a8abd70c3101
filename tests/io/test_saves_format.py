"""The save file itself: multi-document layout, header-only reading, checksums, atomic writes,
backups, autosave rotation, crash reports and the clear message for every kind of bad file.

These tests use a small hand-made state (a plain mapping): the file layer knows nothing of the
rules. Round trips through the real engine live in test_saves_roundtrip.py.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from game.io import migrations, saves
from game.io.saves import LogEntry, SaveData, SaveError, SaveHeader


def _state(n: int = 0) -> dict:
    return {"round": 2, "phase": "movement", "rng": 123456789 + n,
            "units": {"u1": {"at": [0, 0], "strength": 6}, "u2": {"at": [3, 1], "strength": 4 + n}}}


def _save(n: int = 0, entries: int = 2) -> SaveData:
    state = _state(n)
    check = saves.state_checksum(state)
    log = tuple(LogEntry(command={"kind": "move", "unit": "u1", "path": [[0, 0], [1, 0]]},
                         rolls=(3, 9) if i % 2 else (), gm=(i == 0), round=1,
                         after=check if i == entries - 1 else f"{i:016x}")
                for i in range(entries))
    header = SaveHeader(format=saves.FORMAT_VERSION, title="Test", scenario="maps/x.yaml",
                        scenario_checksum="abc", seed=7, saved_at="2026-01-01T10:00:00", round=2,
                        phase="movement", sides=("zone", "zenith"), to_move="zenith",
                        commands=len(log), state_checksum=check)
    return SaveData(header, state, log)


def test_save_text_has_three_documents_and_an_end_marker(tmp_path: Path) -> None:
    text = saves.dump_save(_save())
    docs = list(yaml.safe_load_all(text))
    assert len(docs) == 3
    assert docs[0]["format"] == saves.FORMAT_VERSION
    assert docs[1] == _state()
    assert docs[2][1]["rolls"] == [3, 9] and docs[2][0]["gm"] is True
    assert text.rstrip().endswith("\n...")
    assert "!!python" not in text


def test_write_then_load_gives_the_same_save(tmp_path: Path) -> None:
    path = saves.write_save(tmp_path / "game.yaml", _save())
    loaded = saves.load_save(path)
    assert loaded == _save()


def test_header_is_read_without_parsing_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    text = saves.dump_save(_save())
    # Everything after the header is garbage: the header reader must not look at it.
    head, _, _ = text.partition("--- # state")
    path.write_text(head + "--- # state\n{{{ not yaml at all ::\n", encoding="utf-8")
    header = saves.read_header(path)
    assert header.round == 2 and header.to_move == "zenith" and header.sides == ("zone", "zenith")


def test_first_write_makes_no_backup_and_second_keeps_the_old_file_as_bak(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    saves.write_save(path, _save(0))
    assert not saves.backup_path(path).exists()
    saves.write_save(path, _save(1))
    assert saves.load_save(path).state == _state(1)
    assert saves.load_save(saves.backup_path(path)).state == _state(0)


def test_atomic_write_leaves_no_temporary_files(tmp_path: Path) -> None:
    for n in range(3):
        saves.write_save(tmp_path / "game.yaml", _save(n))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml", "game.yaml.bak"]


def test_failed_write_keeps_the_old_save_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = saves.write_save(tmp_path / "game.yaml", _save(0))
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.os, "replace", broken_replace)
    with pytest.raises(OSError):
        saves.write_save(path, _save(1))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_autosave_keeps_only_the_newest_few(tmp_path: Path) -> None:
    base = dt.datetime(2026, 1, 1, 12, 0, 0)
    made = []
    for i in range(7):
        made.append(saves.autosave(tmp_path, _save(i), keep=3, now=base + dt.timedelta(minutes=i)))
        # distinct modification times even on coarse file systems
        import os
        os.utime(made[-1], (1_000_000 + i, 1_000_000 + i))
    left = sorted(p.name for p in tmp_path.glob("autosave-*.yaml"))
    assert left == sorted(p.name for p in made[-3:])


def test_two_autosaves_in_the_same_second_do_not_overwrite_each_other(tmp_path: Path) -> None:
    when = dt.datetime(2026, 1, 1, 12, 0, 0)
    a = saves.autosave(tmp_path, _save(0), now=when)
    b = saves.autosave(tmp_path, _save(1), now=when)
    assert a != b and saves.load_save(a).state == _state(0) and saves.load_save(b).state == _state(1)


def test_list_saves_shows_headers_and_the_reason_a_file_is_unreadable(tmp_path: Path) -> None:
    saves.write_save(tmp_path / "good.yaml", _save())
    (tmp_path / "bad.yaml").write_text("--- # header\nformat: [\n", encoding="utf-8")
    (tmp_path / ".good.yaml.123.tmp").write_text("junk", encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "gm-setup.yaml").write_text("name: a scenario\n", encoding="utf-8")
    listing = {p.path.name: p for p in saves.list_saves(tmp_path)}
    assert set(listing) == {"good.yaml", "bad.yaml"}
    assert listing["good.yaml"].ok and listing["good.yaml"].header is not None
    assert not listing["bad.yaml"].ok and "bad.yaml" in (listing["bad.yaml"].error or "")


def test_list_saves_marks_a_save_cut_short_after_a_good_header_as_unreadable(tmp_path: Path) -> None:
    saves.write_save(tmp_path / "good.yaml", _save())
    text = (tmp_path / "good.yaml").read_text(encoding="utf-8")
    (tmp_path / "half.yaml").write_text(text[: len(text) - 20], encoding="utf-8")  # QA: listed like a good save
    listing = {p.path.name: p for p in saves.list_saves(tmp_path)}
    assert listing["good.yaml"].ok
    half = listing["half.yaml"]
    assert not half.ok and "half.yaml" in (half.error or "") and "cut short" in (half.error or "")


def test_clean_temp_files_removes_leftovers_of_an_interrupted_save(tmp_path: Path) -> None:
    saves.write_save(tmp_path / "game.yaml", _save())
    (tmp_path / ".game.yaml.abc.tmp").write_text("half a save", encoding="utf-8")
    removed = saves.clean_temp_files(tmp_path)
    assert [p.name for p in removed] == [".game.yaml.abc.tmp"]
    assert (tmp_path / "game.yaml").exists()


def test_crash_report_is_readable_and_points_to_the_emergency_save(tmp_path: Path) -> None:
    try:
        raise RuntimeError("the map cache exploded")
    except RuntimeError as exc:
        report = saves.write_crash_report(tmp_path, exc, emergency_save=tmp_path / "emergency.yaml",
                                          context={"round": 3}, now=dt.datetime(2026, 1, 2, 3, 4, 5))
    text = report.read_text(encoding="utf-8")
    assert report.name == "crash-20260102-030405.txt"
    assert "RuntimeError: the map cache exploded" in text
    assert "python -m game play" in text and "emergency.yaml" in text
    assert "round: 3" in text and "Traceback" in text


# --------------------------------------------------------------------------- bad saves


def _bad(tmp_path: Path, text: str) -> tuple[Path, SaveError]:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SaveError) as info:
        saves.load_save(path)
    assert path.read_bytes() == before, "loading must never rewrite the file"
    assert str(info.value).startswith(str(path) + ": ")
    return path, info.value


def test_truncated_save_is_reported_as_cut_short_at_every_cut(tmp_path: Path) -> None:
    text = saves.dump_save(_save(entries=4))
    for cut in range(0, len(text) - 1, max(1, len(text) // 60)):
        _, err = _bad(tmp_path, text[:cut] if cut else "")
        msg = str(err)
        assert ("ends early" in msg or "empty" in msg or "not valid YAML" in msg
                or "expected" in msg), msg


def test_truncated_save_missing_only_the_end_marker_names_the_last_line(tmp_path: Path) -> None:
    text = saves.dump_save(_save())
    cut = text.rstrip().removesuffix("...")
    _, err = _bad(tmp_path, cut)
    assert "ends early" in str(err) and "line " in str(err)


def test_future_version_says_to_update_the_game(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace(f"format: {saves.FORMAT_VERSION}\n", "format: 99\n", 1)
    _, err = _bad(tmp_path, text)
    assert "newer version" in str(err) and "format 99" in str(err) and "line 6" in str(err)
    with pytest.raises(SaveError, match="newer version"):
        saves.read_header(tmp_path / "bad.yaml")


def test_wrong_type_in_header_names_line_and_field(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace("round: 2\n", "round: two\n", 1)
    _, err = _bad(tmp_path, text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln == "round: two")
    assert f"line {line}: round:" in str(err) and "integer" in str(err)


def test_unknown_key_in_header_is_named(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace("round: 2\n", "round: 2\ncheat: true\n", 1)
    _, err = _bad(tmp_path, text)
    assert "cheat" in str(err) and "unknown key" in str(err)


def test_unknown_key_in_log_entry_is_named_with_its_index(tmp_path: Path) -> None:
    # (typed the YAML way into a log line the game wrote as JSON)
    text = saves.dump_save(_save()).replace('"gm": false,', '"gm": false, colour: red,', 1)
    _, err = _bad(tmp_path, text)
    assert "log[1].colour" in str(err) and "unknown key" in str(err)


def test_wrong_type_of_roll_in_log_names_the_entry(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace('"rolls": [3, 9]', '"rolls": [3, nine]', 1)
    _, err = _bad(tmp_path, text)
    assert "log[1].rolls[1]" in str(err)


def test_hand_edited_state_fails_its_checksum(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace("strength: 6", "strength: 60", 1)
    _, err = _bad(tmp_path, text)
    assert "state_checksum" in str(err) and "edited by hand" in str(err)


def test_log_not_matching_state_is_refused(tmp_path: Path) -> None:
    save = _save()
    # drop the last command but keep the header's count honest: the log now stops short
    shorter = SaveData(save.header.model_copy(update={"commands": 1}), save.state, save.log[:1])
    _, err = _bad(tmp_path, saves.dump_save(shorter))
    assert "log does not match the state" in str(err) and "log[0].after" in str(err)


def test_header_counting_other_commands_than_the_log_is_refused(tmp_path: Path) -> None:
    save = _save()
    wrong = SaveData(save.header.model_copy(update={"commands": 5}), save.state, save.log)
    _, err = _bad(tmp_path, saves.dump_save(wrong))
    assert "log does not match the state" in str(err)


def test_not_yaml_names_the_line(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace("phase: movement\n", "phase: [movement\n", 1)
    _, err = _bad(tmp_path, text)
    assert "not valid YAML" in str(err) and "line " in str(err)


def test_binary_junk_is_not_a_save(tmp_path: Path) -> None:
    path = tmp_path / "junk.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    with pytest.raises(SaveError, match="not UTF-8"):
        saves.load_save(path)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no such file"):
        saves.load_save(tmp_path / "nope.yaml")


def test_python_tags_are_refused_not_executed(tmp_path: Path) -> None:
    text = saves.dump_save(_save()).replace("phase: movement\n", "phase: !!python/object:os.system [ls]\n", 1)
    _, err = _bad(tmp_path, text)
    assert "not valid YAML" in str(err)


# --------------------------------------------------------------------------- migrations


def test_every_version_below_current_has_a_migration_step() -> None:
    for v in range(1, migrations.CURRENT_VERSION):
        assert v in migrations.STEPS, f"format {v} has no migration to {v + 1}"
