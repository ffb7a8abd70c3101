"""Where results go: `run --out` checks its destination before playing anything and, should the
write fail anyway, keeps the save in a fallback file and says where; the crash report and the
emergency save never crash on an unusable saves folder; a save killed half-way leaves no
temporary files behind once the game starts again."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from game.io import outpaths, saves
from game.table import TABLE
from tests.hostile.hostile import COMMANDS, cli, copy_demo, refused


@pytest.fixture
def demo(tmp_path) -> Path:
    d = tmp_path / "demo"
    d.mkdir()
    return copy_demo(d)


def _run_to(capsys, demo: Path, out: Path | str, expect: str) -> str:
    line = refused(capsys, out, "run", str(demo), "--commands", str(COMMANDS), "--out", str(out), expect=expect,
                   limit=5.0)
    return line


def test_run_out_onto_a_folder_is_refused_before_the_game_runs(tmp_path, capsys, demo):
    code, out, err, _ = cli(capsys, "run", str(demo), "--commands", str(COMMANDS), "--out", str(tmp_path))
    assert code == 1 and "is a folder" in err and out == ""  # no event printed: nothing was played


def test_run_out_under_a_regular_file_is_refused_before_the_game_runs(tmp_path, capsys, demo):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("keep me\n")
    _run_to(capsys, demo, blocker / "sub" / "game.yaml", "is a file, not a folder")
    assert blocker.read_text() == "keep me\n"


def test_run_out_onto_a_read_only_file_leaves_it_untouched(tmp_path, capsys, demo):
    target = tmp_path / "precious.yaml"
    target.write_text("my old save\n")
    target.chmod(0o444)
    try:
        _run_to(capsys, demo, target, "read-only")
        assert target.read_text() == "my old save\n"
        assert not (tmp_path / "precious.yaml.bak").exists()
    finally:
        target.chmod(0o644)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_run_out_into_a_read_only_folder_is_refused_before_the_game_runs(tmp_path, capsys, demo):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        _run_to(capsys, demo, folder / "game.yaml", "not writable")
    finally:
        folder.chmod(0o755)


def test_the_destination_checks_in_one_place():
    with pytest.raises(Exception, match="is a folder"):
        outpaths.check_destination("/")
    with pytest.raises(Exception, match="not a regular file"):
        outpaths.check_destination("/dev/null")
    assert outpaths.check_destination("new-folder/never/made.yaml").name == "made.yaml"


def test_a_write_that_fails_after_the_run_keeps_the_save_in_a_fallback_file(tmp_path, capsys, demo, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    target = tmp_path / "out" / "game.yaml"
    real = saves.atomic_write_text

    def failing(path, text, **kw):
        if Path(path) == target:
            raise OSError(28, "No space left on device")
        return real(path, text, **kw)

    monkeypatch.setattr(outpaths, "atomic_write_text", failing)  # (where write_text_or_keep finds it)
    code, _out, err, _ = cli(capsys, "run", str(demo), "--commands", str(COMMANDS), "--out", str(target))
    assert code == 1 and "No space left on device" in err and "kept in" in err
    kept = Path(err.strip().rsplit("kept in ", 1)[1])
    assert kept.is_file() and kept.parent == tmp_path / "tmp" / outpaths.FALLBACK_DIR
    monkeypatch.undo()
    from game.replay import load_game

    assert load_game(TABLE, kept).save.header.commands > 0  # the whole game is in it


def test_the_crash_report_goes_elsewhere_when_the_saves_folder_is_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    blocker = tmp_path / "saves"
    blocker.write_text("not a folder")
    try:
        raise ValueError("boom " + "x" * 100_000)
    except ValueError as exc:
        report = saves.write_crash_report(blocker, exc, context={"huge": list(range(100_000))})
    assert report is not None and report.parent == tmp_path
    text = report.read_text()
    assert "ValueError" in text and len(text) < 50_000


def test_the_crash_report_returns_none_rather_than_raise_when_nowhere_is_writable(tmp_path, monkeypatch):
    blocker = tmp_path / "f"
    blocker.write_text("x")
    monkeypatch.setattr("tempfile.tempdir", str(blocker / "also-under-a-file"))
    assert saves.write_crash_report(blocker / "saves", RuntimeError("boom")) is None


def test_the_crash_guard_survives_an_unusable_saves_folder(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "saves"
    blocker.write_text("not a folder")
    monkeypatch.setenv("AIL_SAVES_DIR", str(blocker))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    from game.shell import savegame

    report = savegame.handle_crash(SimpleNamespace(scenes=[]), RuntimeError("boom"))
    assert report is not None and report.parent == tmp_path / "tmp"
    assert "crash report was written" in capsys.readouterr().err


def _leftover(folder: Path, name: str, age: float) -> Path:
    p = folder / name
    p.write_text("half a save")
    then = time.time() - age
    os.utime(p, (then, then))
    return p


def test_leftover_temp_files_of_a_killed_save_are_cleaned_at_start_up(tmp_path, monkeypatch):
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path))
    (tmp_path / "autosave").mkdir()
    old = _leftover(tmp_path, ".quick.yaml.abc123.tmp", 3600)
    old_auto = _leftover(tmp_path / "autosave", ".autosave-r01.yaml.x.tmp", 3600)
    fresh = _leftover(tmp_path, ".other.yaml.def456.tmp", 0)  # another copy of the game saving now
    real = _leftover(tmp_path, "quick.yaml", 3600)
    from game.shell.savegame import AUTOSAVE_DIR, clean_leftovers

    assert AUTOSAVE_DIR == "autosave"
    removed = clean_leftovers()
    assert set(removed) == {old, old_auto}
    assert fresh.exists() and real.exists()


def test_loading_a_save_cleans_leftovers_in_its_folder(tmp_path, capsys):
    demo_dir = tmp_path / "demo"
    demo_dir.mkdir()
    demo = copy_demo(demo_dir)
    out = tmp_path / "game.yaml"
    cli(capsys, "run", str(demo), "--commands", str(COMMANDS), "--out", str(out))
    old = _leftover(tmp_path, ".game.yaml.zz.tmp", 3600)
    from game.shell.launch import session_from_save

    assert session_from_save(TABLE, out) is not None
    assert not old.exists()


def test_play_cleans_leftovers_before_opening(tmp_path, monkeypatch):
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path))
    old = _leftover(tmp_path, ".x.yaml.1.tmp", 3600)
    from game.cli import play as play_module

    def stop(*_a, **_k):
        raise SystemExit(0)

    monkeypatch.setattr(play_module, "App", stop)  # the window is never made: the clean-up comes before it
    from game.__main__ import main

    with pytest.raises(SystemExit):
        main(["play"])
    assert not old.exists()


def test_run_out_through_a_symbolic_link_is_refused_and_its_target_kept(tmp_path, capsys, demo):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "game.yaml"
    link.symlink_to(victim)
    _run_to(capsys, demo, link, "symbolic link")
    assert victim.read_text() == "precious\n" and link.is_symlink()


def test_the_destination_check_refuses_an_input_of_the_same_command_and_a_place_outside_the_folder(tmp_path):
    src = tmp_path / "in.yaml"
    src.write_text("x")
    with pytest.raises(Exception, match="also an input"):
        outpaths.check_destination(src, inputs=(src,))
    with pytest.raises(Exception, match="also an input"):
        outpaths.check_destination(tmp_path / "sub" / ".." / "in.yaml", inputs=(str(src),))
    with pytest.raises(Exception, match="outside"):
        outpaths.check_destination(tmp_path / "out.yaml", within=tmp_path / "sub")
    assert outpaths.check_destination(tmp_path / "sub" / "out.yaml", within=tmp_path, inputs=(src,)).name == "out.yaml"
