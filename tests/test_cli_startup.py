"""The command line imports only the command it runs (start-up time, issue 14), with the same
help, errors and version as the whole parser."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import pytest

from game import paths
from game.__main__ import build_parser, command_names


def _output(parser_args: list[str], only: str | None) -> tuple[str, object]:
    out, err = io.StringIO(), io.StringIO()
    code: object = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            build_parser(prog="ail", only=only).parse_args(parser_args)
        except SystemExit as exc:
            code = exc.code
    return out.getvalue() + err.getvalue(), code


@pytest.mark.parametrize("name", command_names())
def test_a_commands_help_from_the_one_command_parser_is_the_whole_parsers(name: str) -> None:
    whole = _output([name, "--help"], None)
    alone = _output([name, "--help"], name)
    assert alone == whole
    assert alone[1] == 0 and name in alone[0]


def test_a_bad_option_of_a_command_gets_the_same_error_from_the_one_command_parser() -> None:
    whole = _output(["play", "--no-such-option"], None)
    assert _output(["play", "--no-such-option"], "play") == whole
    assert whole[1] == 2 and "--no-such-option" in whole[0]


def test_the_whole_help_still_lists_every_command() -> None:
    text, code = _output(["--help"], None)
    assert code == 0
    for name in command_names():
        assert f"    {name}" in text


def test_version_is_looked_up_only_when_asked_and_still_printed() -> None:
    text, code = _output(["--version"], None)
    assert code == 0 and text.startswith("ail ") and len(text.split()) >= 2


def test_running_one_command_imports_no_other_commands_module() -> None:
    code = ("import sys\nfrom game.__main__ import main\n"
            "rc = main(['dice', '2k1'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('game.') and '.cli.' in m + '.'))\n"
            "print('importlib.metadata' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=str(paths.data_root()))
    proc = subprocess.run([sys.executable, "-c", code], cwd=paths.data_root(), env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    modules_line, metadata_line = proc.stdout.strip().splitlines()[-2:]
    assert modules_line == "['game.cli', 'game.systems.mass.cli', 'game.systems.mass.cli.dice']"
    assert metadata_line == "False"


@pytest.mark.parametrize(("preset", "expected"), [(None, "__all__"), ("some_plugin", "some_plugin")])
def test_the_program_turns_off_the_pydantic_plugin_scan_unless_the_player_set_it(preset: str | None,
                                                                                  expected: str) -> None:
    code = ("import os, sys\nfrom game.__main__ import main\n"
            "sys.argv = ['ail', 'dice', '2k1']\nmain()\n"
            "print(os.environ.get('PYDANTIC_DISABLE_PLUGINS'))\n")
    env = dict(os.environ, PYTHONPATH=str(paths.data_root()))
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    if preset is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = preset
    proc = subprocess.run([sys.executable, "-c", code], cwd=paths.data_root(), env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert proc.stdout.strip().splitlines()[-1] == expected


def test_a_test_calling_main_with_arguments_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.__main__ import main

    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    assert main(["dice", "2k1"]) == 0
    assert "PYDANTIC_DISABLE_PLUGINS" not in os.environ


def test_the_game_prints_no_pygame_greeting_on_the_terminal() -> None:
    env = dict(os.environ, PYTHONPATH=str(paths.data_root()), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("PYGAME_HIDE_SUPPORT_PROMPT", None)
    proc = subprocess.run([sys.executable, "-m", "game", "play", "--frames", "1"], cwd=paths.data_root(), env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    assert "pygame-ce" not in proc.stdout and "pygame-ce" not in proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("frames drawn:")
