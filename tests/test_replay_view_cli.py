"""`python -m game replay SAVE --view` for a save whose rule system has no replay view says so at
once, before printing the game, and the help says which systems have one."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import paths
from game.__main__ import main

ROOT = paths.data_root()


def test_replay_view_of_a_system_without_one_says_so_before_replaying(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    path = tmp_path / "campaign.yaml"
    assert main(["arena", str(ROOT / "maps" / "campaign" / "teaching.yaml"), "--games", "1", "--max-rounds", "1",
                 "--work", "200", "--save", str(path), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--view"]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # nothing printed before the refusal
    assert "no replay view yet" in err and f"python -m game replay {path}" in err
    assert main(["replay", str(path)]) == 0  # the text replay still works


def test_replay_help_says_which_systems_have_a_replay_view(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "the tactical battle" in " ".join(capsys.readouterr().out.split())
