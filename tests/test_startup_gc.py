"""Start-up without the cyclic collector (game/startup_gc.py, issue 14): paused while the game
starts, collecting again once the first frame is up, and never touched for code that did not
pause it (tests calling `main`, other commands)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

from game import paths, startup_gc


def _child(code: str) -> list[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(paths.data_root())}
    out = subprocess.run([sys.executable, "-c", code], cwd=paths.data_root(), env=env, capture_output=True,
                         text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()


def test_the_game_starts_without_the_collector_and_collects_again_after_its_first_frame() -> None:
    code = ("import gc, sys\n"
            "from game import startup_gc\n"
            "from game.shell import app as app_mod\n"
            "seen = []\n"
            "real = app_mod.App.render\n"
            "def render(self):\n"
            "    seen.append((gc.isenabled(), startup_gc.paused()))\n"
            "    return real(self)\n"
            "app_mod.App.render = render\n"
            "sys.argv = ['game', 'play', '--frames', '2', '--instant']\n"
            "from game.__main__ import main\n"
            "rc = main()\n"
            "print(rc, seen[0], seen[1], gc.isenabled(), gc.get_freeze_count() > 0)\n")
    line = _child(code)[-1]
    # first frame drawn with the collector paused, the second with it running again; start-up's
    # objects frozen out of its sight
    assert line == "0 (False, True) (True, False) True True"


def test_a_command_without_a_window_collects_as_usual() -> None:
    code = ("import gc, sys\n"
            "from game import cli\n"
            "sys.argv = ['game', 'dice', '2k1']\n"
            "from game.__main__ import main\n"
            "import game.systems.mass.cli.dice as d\n"
            "real = d.run\n"
            "state = []\n"
            "def run(args):\n"
            "    state.append(gc.isenabled())\n"
            "    return real(args)\n"
            "d.run = run\n"
            "rc = main()\n"
            "print(rc, state, gc.get_freeze_count())\n")
    assert _child(code)[-1] == "0 [True] 0"


def test_calling_main_with_arguments_leaves_the_callers_collector_alone() -> None:
    from game.__main__ import main

    assert gc.isenabled()
    assert main(["dice", "2k1"]) == 0
    assert gc.isenabled() and not startup_gc.paused()


def test_settle_and_resume_do_nothing_without_a_pause() -> None:
    frozen = gc.get_freeze_count()
    startup_gc.settle()
    startup_gc.resume()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
