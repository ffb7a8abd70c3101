"""Issue 27 items 4 and 6: the shell's modules talk to the App and to a game's screen through the
contracts in game/shell/contracts.py, never through `game.shell.app.App` (no import loop, counting
imports inside functions and under TYPE_CHECKING); Ctrl+S runs keys -> actions -> the save service
-> files with nothing climbing back up; the Scene base reads no field it does not declare."""

from __future__ import annotations

import inspect

import grimp
import pygame

from game.shell import actions, keys
from game.shell.scene import Scene


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("game", exclude_type_checking_imports=False, cache_dir=None)


def test_no_shell_module_imports_the_app() -> None:
    graph = _graph()
    importers = sorted(m for m in graph.find_modules_that_directly_import("game.shell.app")
                       if m.startswith("game.shell"))
    assert importers == []


def test_the_shells_modules_form_no_import_loop() -> None:
    graph = _graph()
    shell = sorted(m for m in graph.modules if m.startswith("game.shell"))
    for m in shell:
        for w in graph.find_modules_directly_imported_by(m):
            if w.startswith("game.shell") and w != m:
                assert not graph.chain_exists(importer=w, imported=m), f"{m} <-> {w}"


def test_the_save_service_reaches_down_only() -> None:
    graph = _graph()
    below = {w for w in graph.find_upstream_modules("game.shell.savegame") if w.startswith("game.shell")}
    # the contracts it is typed against (their key map's text pieces come with them): nothing that
    # acts (keys, actions, launch, the app, the scenes); who plays each seat (seats: data and the thread asking a player)
    assert below <= {"game.shell.contracts", "game.shell.session", "game.shell.seats", "game.shell.keymap", "game.shell.toolkit",
                     "game.shell.toolkit.richtext", "game.shell.fonts", "game.shell"}, below
    assert graph.chain_exists(importer="game.shell.keys", imported="game.shell.actions")
    assert graph.chain_exists(importer="game.shell.actions", imported="game.shell.savegame")


def test_ctrl_s_is_bound_to_the_save_action() -> None:
    ctrl_s = [b for b in keys.SHELL_KEYS if b.keys == (pygame.K_s,) and b.ctrl]
    assert len(ctrl_s) == 1
    handler = ctrl_s[0].action
    assert handler is not None and handler.__closure__ is not None
    assert any(c.cell_contents is actions.save_new_action for c in handler.__closure__)


def test_the_scene_base_reads_no_field_of_its_subclasses_by_name() -> None:
    assert "getattr(" not in inspect.getsource(Scene)
