"""`python -m game play`: opens the window on a scenario; bad paths give one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from game.__main__ import main
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]


def test_play_opens_the_default_scenario_and_draws_frames() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-m", "game", "play", "--frames", "2", "--instant"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr


def test_play_with_a_missing_file_says_so_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "no/such/scenario.yaml"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "no/such/scenario.yaml" in err[0]


def test_play_with_a_bad_size_says_what_is_expected(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--size", "big"]) == 1
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_play_offers_to_resume_a_game_left_unfinished_and_resume_opens_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.cli.play import open_window
    from game.shell.app import Settings
    from tests.client.clientfix import battle, press_button, settle, top_name
    from tests.client.test_load_menu import demo_save

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    (tmp_path / "saves").mkdir()
    demo_save(tmp_path / "saves" / "recovery-ail-tactical.yaml", commands=6)
    app = open_window(TABLE, None, (1280, 800), Settings(animation="instant", blackout=False), headless=True)
    settle(app)
    assert getattr(app.scenes.top, "title", "") == "Resume your last game?", top_name(app)
    press_button(app, "Resume")
    settle(app)
    assert len(battle(app).session.history) == 6  # the unfinished game, not the default scenario's start


def test_play_new_game_keeps_the_unfinished_one_aside_and_does_not_ask_again(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.cli.play import open_window
    from game.shell.app import Settings
    from tests.client.clientfix import battle, press_button, settle, top_name
    from tests.client.test_load_menu import demo_save

    saves = tmp_path / "saves"
    monkeypatch.setenv("AIL_SAVES_DIR", str(saves))
    saves.mkdir()
    demo_save(saves / "recovery-ail-tactical.yaml", commands=6)
    app = open_window(TABLE, None, (1280, 800), Settings(animation="instant", blackout=False), headless=True)
    settle(app)
    press_button(app, "New game")
    settle(app)
    assert not (saves / "recovery-ail-tactical.yaml").exists()
    assert (saves / "recovery-ail-tactical-dismissed.yaml").is_file()
    assert len(battle(app).session.history) == 0
    again = open_window(TABLE, None, (1280, 800), Settings(animation="instant", blackout=False), headless=True)
    settle(again)
    assert getattr(again.scenes.top, "title", None) != "Resume your last game?"
    assert top_name(again) in ("battle", "briefing")  # the new game opens (on its briefing)


def test_each_new_game_from_play_gets_fresh_dice_unless_a_seed_is_asked_for(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.cli.play import new_game_seed, open_window
    from game.shell.app import Settings
    from tests.client.clientfix import battle, settle

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    fresh = {new_game_seed("fresh") for _ in range(4)}
    assert len(fresh) == 4  # a seed nobody chose, new each time (1 chance in 2**30 of a repeat)
    assert new_game_seed("scenario") is None and new_game_seed("17") == 17
    scenario_seed = TABLE.plugin_named("ail-tactical").load(ROOT / "maps" / "default.yaml").seed
    for asked, expected in ((None, scenario_seed), (17, 17)):
        app = open_window(TABLE, None, (1280, 800), Settings(animation="instant", blackout=False), headless=True,
                          seed=asked)
        settle(app)
        assert battle(app).session.seed == expected
        assert battle(app).session.state == TABLE.plugin_named("ail-tactical").system.initial_state(
            battle(app).session.game_setup, expected)


def test_play_with_a_bad_seed_says_what_is_expected(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--seed", "lucky"]) == 1
    err = capsys.readouterr().err
    assert "--seed" in err and "'scenario' or 'fresh'" in err
