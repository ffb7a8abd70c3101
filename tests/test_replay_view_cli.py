"""`python -m game replay SAVE --view` for a save whose rule system has no replay view says so at
once, before printing the game; every shipped system has one now, and the help names them."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from game import paths
from game.__main__ import main
from game.cli import replay as replay_cli
from game.table import TABLE

ROOT = paths.data_root()


def test_replay_view_of_a_system_without_one_says_so_before_replaying(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    path = tmp_path / "campaign.yaml"
    assert main(["arena", str(ROOT / "maps" / "campaign" / "teaching.yaml"), "--games", "1", "--max-rounds", "1",
                 "--work", "200", "--save", str(path), "--quiet"]) == 0
    capsys.readouterr()
    campaign = TABLE.plugin_named("campaign")
    bare = TABLE.with_plugin(dataclasses.replace(campaign, client=lambda: object()))  # a client with no replay view
    args = argparse.Namespace(table=bare, save=str(path), view=True, verify=False, frames=0)
    assert replay_cli.run(args) == 1
    out, err = capsys.readouterr()
    assert out == ""  # nothing printed before the refusal
    assert "no replay view yet" in err and f"python -m game replay {path}" in err
    assert main(["replay", str(path)]) == 0  # the text replay still works


def test_every_shipped_rule_system_has_a_replay_view_and_the_help_names_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    for plugin in TABLE:
        assert plugin.client is not None and callable(getattr(plugin.client(), "open_replay", None)), plugin.name
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in ("the tactical battle", "the campaign", "the mass battle")), text


def _teaching_save(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A one-week teaching campaign played by the computer, saved (the arena's --save)."""
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "teaching.yaml"
    assert main(["arena", str(ROOT / "maps" / "campaign" / "teaching.yaml"), "--games", "1", "--max-rounds", "1",
                 "--work", "200", "--save", str(path), "--quiet"]) == 0
    capsys.readouterr()
    return path


def test_the_replay_view_alone_names_the_replayed_game_in_the_window_title(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from game.shell.app import App
    from game.shell.launch import open_replay_file

    path = _teaching_save(tmp_path, capsys, monkeypatch)
    app = App(TABLE, headless=True)
    assert open_replay_file(app, path) is None
    app._show_title()
    assert pygame.display.get_caption()[0].endswith("- replay of teaching.yaml")


def test_the_replay_view_window_fits_a_small_screen_as_play_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from game.shell.app import App

    path = _teaching_save(tmp_path, capsys, monkeypatch)
    sizes: list[tuple[int, int]] = []

    class Seen(App):
        def __post_init__(self) -> None:
            sizes.append(self.size)
            super().__post_init__()

    monkeypatch.setattr(replay_cli, "App", Seen)
    monkeypatch.setattr(replay_cli, "desktop_size", lambda: (1366, 768))  # a laptop's screen
    assert replay_cli._view(TABLE, str(path), frames=2) == 0
    assert sizes == [(1280, 658)]  # not 1280x800, whose bottom buttons a 768-high screen hides
