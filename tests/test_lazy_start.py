"""The first frame imports only what it draws (issue 14): opening the default battle loads the
set-up, the state and the first state, not the rules' engine, queries, events or commands; the
window's loop imports those once its first frame is up (App.warm_up), before the player's first
click. The rules package finds its public names when first used."""

from __future__ import annotations

import sys

import pytest

import game.systems.tactical.rules as ail
from game.systems.tactical.rules import system
from tests.test_startup_gc import _child  # (a child interpreter on the dummy video driver)

_DEFERRED = ("game.systems.tactical.rules.engine", "game.systems.tactical.rules.queries", "game.systems.tactical.rules.events",
             "game.systems.tactical.rules.commands", "game.systems.tactical.rules.txn", "game.systems.tactical.rules.movement",
             "game.systems.tactical.rules.attack", "game.systems.tactical.rules.describe", "game.systems.tactical.rules.gm")


_LOADED = ("import sys\n"
           f"deferred = {_DEFERRED!r}\n"
           "def loaded(): return [m for m in deferred if m in sys.modules]\n")


def test_the_first_frame_of_the_default_battle_imports_no_engine_query_event_or_command() -> None:
    code = _LOADED + ("from game.shell import app as app_mod\n"
                      "seen = []\n"
                      "real = app_mod.App.render\n"
                      "def render(self):\n"
                      "    out = real(self)\n"
                      "    seen.append(loaded())\n"
                      "    return out\n"
                      "app_mod.App.render = render\n"
                      "sys.argv = ['game', 'play', '--frames', '1']\n"
                      "from game.__main__ import main\n"
                      "print(main(), seen[0], loaded())\n")
    # drawn without them, and a run that stops at its first frame never imports them at all
    assert _child(code)[-1] == "0 [] []"


def test_the_loop_imports_the_rest_once_its_first_frame_is_up_before_any_input() -> None:
    code = _LOADED + ("from game.shell import app as app_mod\n"
                      "seen = []\n"
                      "real = app_mod.App.render\n"
                      "def render(self):\n"
                      "    out = real(self)\n"
                      "    seen.append(len(loaded()))\n"
                      "    return out\n"
                      "app_mod.App.render = render\n"
                      "sys.argv = ['game', 'play', '--frames', '2']\n"
                      "from game.__main__ import main\n"
                      "print(main(), seen, loaded() == list(deferred))\n")
    assert _child(code)[-1] == f"0 [0, {len(_DEFERRED)}] True"


def test_warm_up_imports_every_module_that_acting_needs() -> None:
    system.warm_up()
    assert all(name in sys.modules for name in system.ACTING_MODULES)


@pytest.mark.parametrize("name", ail.__all__)
def test_every_public_name_of_the_rules_package_is_its_home_modules_object(name: str) -> None:
    value = getattr(ail, name)
    home = ail._HOMES.get(name)
    if home is None:  # a submodule
        assert value is sys.modules[f"game.systems.tactical.rules.{name}"]
    else:
        assert value is getattr(sys.modules[f"game.systems.tactical.rules.{home[0]}"], home[1])
    assert name in dir(ail)


def test_an_unknown_name_of_the_rules_package_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_rule'"):
        _ = ail.no_such_rule
    assert ail.commands is sys.modules["game.systems.tactical.rules.commands"]  # submodules are found too
