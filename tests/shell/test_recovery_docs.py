"""docs/saves.md, "Recovery saves", says what the code does: a recovery save made by the shell is
named and placed as the page says, the page gives the number kept per game and the suffix a
set-aside one gets, and it says the load menu skips set-up files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game import paths
from game.shell import savegame
from tests.shell.harness import open_game, play_some

DOC = paths.data_root() / "docs" / "saves.md"
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### Recovery saves")
    return text[start:text.index("\n### ", start + 1)]


def test_saves_doc_names_the_recovery_file_the_shell_writes_and_what_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    play_some(game)
    kept = savegame.keep_recovery(game.session)
    assert kept is not None
    section = _section()
    # the pattern the page gives, with its placeholders filled from the game that was kept
    said = re.search(r"`(recovery/recovery-<system>-<scenario>-<clock><n>-<date>\.yaml)`", section)
    assert said, "the page names the recovery file's pattern"
    pattern = re.escape(said.group(1)).replace(re.escape("<system>"), re.escape(game.session.system.name)) \
        .replace(re.escape("<scenario>"), re.escape(game.session.path.stem)) \
        .replace(re.escape("<clock><n>"), r"r\d\d").replace(re.escape("<date>"), r"\d{8}-\d{6}")
    assert re.fullmatch(pattern, kept.relative_to(tmp_path / "saves").as_posix()), kept
    assert f"newest {NUMBERS[savegame.RECOVERY_KEEP]} of each game" in section.lower()
    assert f"`<name>{savegame.DISMISSED}.yaml`" in section
    assert f"`saves/{savegame.DELETED_DIR}/`" in section
    assert "SIGTERM and SIGHUP" in section and "--seat" in section
    assert "skips set-up files" in section
