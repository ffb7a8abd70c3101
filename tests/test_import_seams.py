"""Imports inside functions only at a few named warm-up seams (issue 27).

Start-up is a benchmark target (`python -m game play --frames 1` within 15x a bare interpreter,
game/bench/startup.py), so a few places load a heavy package or a whole slice of the program on
first use instead of at start-up: the warm-up seams, listed in SEAMS below with why. Every other
import is at the top of its module: a module that itself loads only behind a seam (a command's
module, a system's window, its files) needs no laziness of its own.

This test walks every module of game/ and lists each import inside a function as (module,
function, imported module); each must be at a seam of the table, with a comment starting
`# import seam:` on the line just above it (or above the run of imports it belongs to) saying
why; and every seam of the table must still be there. Imports under `if TYPE_CHECKING:` at the
top of a module are not inside functions and need nothing. docs/performance.md lists the seams.
"""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass
from pathlib import Path

from game import paths

GAME = paths.data_root() / "game"
MARK = "# import seam:"


@dataclass(frozen=True)
class Seam:
    module: str  # dotted
    functions: tuple[str, ...]  # qualified names inside the module ("Class.method", "outer.inner")
    imports: tuple[str, ...]  # the modules imported there (absolute)
    why: str


def _hooks(system: str, rules: tuple[str, ...], files: tuple[tuple[str, str], ...], window: str,
           command: tuple[str, str]) -> list[Seam]:
    """A rule system's plugin hooks (game/systems/<system>/plugin.py): each part of the system
    loads on first use."""
    pkg = f"game.systems.{system}"
    return [
        Seam(f"{pkg}.plugin", rules, (f"{pkg}.rules.system" if system != "campaign" else f"{pkg}.rules",),
             "the rules load when a game of the system opens"),
        Seam(f"{pkg}.plugin", tuple(f for f, _ in files), tuple(sorted({m for _, m in files})),
             "the system's file formats (models, YAML, maps) load when one of its files is read"),
        Seam(f"{pkg}.plugin", ("client",), (window,), "the system's window loads when a game of it opens there"),
        Seam(f"{pkg}.plugin", (command[0],), (command[1],), "the system's command loads only when it runs"),
        Seam(f"{pkg}.plugin", ("picture",), (f"{pkg}.io.picture",), "the drawing of a picture loads only to draw one"),
        Seam(f"{pkg}.plugin", ("_player.make",), (f"{pkg}.ai",), "the computer players load only for a computer seat"),
    ]


_SAVE_MACHINERY = "the save machinery (game.replay, game.io.saves, migrations: 20-50 ms) loads at the first save or load"

SEAMS: tuple[Seam, ...] = (
    # the entry point and the shared helpers
    Seam("game.__main__", ("version",), ("importlib.metadata",),
         "importlib.metadata only for --version (commands that read no model never load it)"),
    Seam("game.paths", ("user_data_dir",), ("platformdirs",),
         "platformdirs only where saves go to the user data folder (an installed game)"),
    Seam("game.io.tmx", ("_unpack_zstd",), ("zstandard",), "zstandard's codec only for zstd-compressed map layers"),
    # the window: the save machinery and the load menu are not needed for the first frame
    Seam("game.shell.savegame", ("_encode", "write_checked", "AutosaveWriter.submit", "load_session", "load_for_replay",
                                 "verify", "emergency_save", "handle_crash", "quick_save_note", "holds_another_game"),
         ("game.replay", "game.io.saves", "game.io.outpaths"), _SAVE_MACHINERY),
    Seam("game.shell.actions", ("recovery_for", "offer_recovery"), ("game.io.saves", "game.replay"), _SAVE_MACHINERY),
    Seam("game.shell.actions", ("open_load_menu",), ("game.shell.scenes.load_menu",),
         "the load menu (and the save reader behind it) loads when the player opens it"),
    # each rule system's parts, through its plugin's hooks
    *_hooks("tactical", ("rules", "setup_of"),
            (("load", "game.systems.tactical.io.scenario"), ("check", "game.systems.tactical.io.check")),
            "game.systems.tactical.client.plugin", ("odds_command", "game.systems.tactical.cli.odds")),
    *_hooks("campaign", ("rules",),
            tuple((f, "game.systems.campaign.io.files") for f in ("load", "read_script", "sniff", "check")),
            "game.systems.campaign.client", ("campaign_command", "game.systems.campaign.cli.campaign")),
    *_hooks("mass", ("rules",),
            tuple((f, "game.systems.mass.io.files") for f in ("load", "read_script", "sniff", "check")),
            "game.systems.mass.client", ("dice_command", "game.systems.mass.cli.dice")),
    # the bridge between the scales, through its hooks in the table
    Seam("game.bridge.plugin", ("scales_command",), ("game.bridge.cli.scales",),
         "the `scales` command loads only when it runs"),
    Seam("game.bridge.plugin", ("campaign_client",), ("game.bridge.client.fight", "game.systems.campaign.client"),
         "the campaign window with the GM's Battle panel loads when a campaign opens in the window"),
    Seam("game.bridge.plugin", ("campaign_links", "_check"), ("game.bridge.files",),
         "the bridge's files (and the battle formats they read) load only to check a save or a rules file"),
    # the tactical rules' system object: the engine, queries, commands, events, GM commands and
    # descriptions load after the first frame (`system.warm_up`), not with the battle's state
    Seam("game.systems.tactical.rules.system",
         ("AILSystem.apply", "AILSystem.legal_commands", "AILSystem.preview", "AILSystem.parse_command",
          "AILSystem.parse_event", "AILSystem.rolls", "AILSystem.is_gm_command", "AILSystem.describe_event",
          "AILSystem.describe_command"),
         ("game.systems.tactical.rules.engine", "game.systems.tactical.rules.queries",
          "game.systems.tactical.rules.commands", "game.systems.tactical.rules.events",
          "game.systems.tactical.rules.gm", "game.systems.tactical.rules.describe"),
         "opening a battle needs its set-up and state; the rest of the rules load right after the first frame"),
    # the tactical window's own views that open on a key
    Seam("game.systems.tactical.client.plugin", ("open_replay", "open_gm"),
         ("game.systems.tactical.client.replay", "game.systems.tactical.client.gm"),
         "the replay view (F3) and GM mode (F2) load when first opened (GM mode about 130 ms)"),
    # heavy optional libraries
    Seam("game.systems.campaign.rules.equilibrium", ("_solve_lp",), ("scipy.optimize",),
         "scipy (about 0.3 s) only when a campaign battle's equilibrium is asked for"),
    Seam("game.systems.tactical.bench.reach", ("nx_graphs", "nx_reach"), ("networkx",),
         "networkx is a test extra, only for the reach benchmark's reference figure"),
)

# Files other changes are converting right now (issue 27): a failure in one of them is theirs to
# finish; the message below names them apart.
IN_PROGRESS: tuple[str, ...] = ()


@dataclass(frozen=True)
class Found:
    path: str  # relative to the checkout, with /
    module: str
    function: str
    imported: str
    line: int
    comment: str  # the `# import seam:` comment above it (or above its run of imports), or ""

    def where(self) -> str:
        return f"{self.path}:{self.line} ({self.function}) imports {self.imported}"


def _module_name(rel: Path) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    # `from package import submodule` imports the submodule
    return [f"{source}.{a.name}" if _is_module(f"{source}.{a.name}") else source for a in node.names]


def _is_module(dotted: str) -> bool:
    if not dotted.startswith("game."):
        return False
    where = paths.data_root().joinpath(*dotted.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def in_function_imports(source: str, path: str, module: str, is_package: bool = False) -> list[Found]:
    """Every import inside a function (or a method, or a class inside a function) of `source`."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[Found] = []

    def comment_above(body: list[ast.stmt], index: int) -> str:
        # climb the run of imports this one belongs to, then read the line above the run
        while index > 0 and isinstance(body[index - 1], (ast.Import, ast.ImportFrom)) \
                and body[index - 1].end_lineno == body[index].lineno - 1:
            index -= 1
        above = body[index].lineno - 2
        text = lines[above].strip() if above >= 0 else ""
        return text if text.startswith(MARK) else ""

    def visit(body: list[ast.stmt], scope: str, in_function: bool) -> None:
        for i, node in enumerate(body):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if in_function:
                    found.extend(Found(path, module, scope, name, node.lineno, comment_above(body, i))
                                 for name in _absolute(node, module, is_package))
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{scope}.{node.name}" if scope else node.name
                visit(node.body, inner, in_function or not isinstance(node, ast.ClassDef))
                continue
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, field, []) or []:
                    if isinstance(child, (ast.ExceptHandler, ast.match_case)):
                        visit(child.body, scope, in_function)
                if isinstance(getattr(node, field, None), list) and all(
                        isinstance(c, ast.stmt) for c in getattr(node, field)):
                    visit(getattr(node, field), scope, in_function)

    visit(tree.body, "", False)
    return found


def _all_found() -> list[Found]:
    root = paths.data_root()
    out: list[Found] = []
    for file in sorted(GAME.rglob("*.py")):
        rel = file.relative_to(root)
        out.extend(in_function_imports(file.read_text(encoding="utf-8"), rel.as_posix(), _module_name(rel),
                                       file.name == "__init__.py"))
    return out


def _seam_of(f: Found) -> Seam | None:
    for seam in SEAMS:
        if seam.module == f.module and f.function in seam.functions and f.imported in seam.imports:
            return seam
    return None


def _in_progress(path: str) -> bool:
    return any(fnmatch.fnmatch(path, pattern) for pattern in IN_PROGRESS)


def _message(bad: list[Found], what: str) -> str:
    mine = [f.where() for f in bad if not _in_progress(f.path)]
    theirs = [f.where() for f in bad if _in_progress(f.path)]
    text = "\n".join([f"{len(bad)} import(s) inside functions {what}:", *mine])
    if theirs:
        text += ("\n-- in files another change is converting now (IN_PROGRESS in this test):\n" + "\n".join(theirs))
    return text + ("\nMove the import to the top of its module, or (a heavy package or a whole slice loaded on first "
                   "use) add a seam to SEAMS in tests/test_import_seams.py and the comment to the code.")


def test_every_import_inside_a_function_of_the_game_is_at_a_named_seam() -> None:
    found = _all_found()
    assert len(found) > 10  # (the walker sees the seams at least)
    outside = [f for f in found if _seam_of(f) is None]
    assert outside == [], _message(outside, "at no seam of SEAMS")


def test_every_seam_import_has_the_import_seam_comment_just_above_it_saying_why() -> None:
    uncommented = [f for f in _all_found() if _seam_of(f) is not None and len(f.comment) < len(MARK) + 15]
    assert uncommented == [], _message(uncommented, f"without a `{MARK} <why>` comment on the line above")


def test_every_function_and_import_of_the_seam_table_is_still_in_the_code() -> None:
    found = _all_found()
    stale = []
    for seam in SEAMS:
        here = [f for f in found if f.module == seam.module and f.function in seam.functions
                and f.imported in seam.imports]
        stale += [f"{seam.module}: {fn} imports none of {seam.imports}"
                  for fn in seam.functions if not any(f.function == fn for f in here)]
        stale += [f"{seam.module}: no function of {seam.functions} imports {m}"
                  for m in seam.imports if not any(f.imported == m for f in here)]
    assert stale == [], "stale entries in SEAMS (the code moved on; drop them):\n" + "\n".join(stale)


def test_the_seam_table_names_a_few_seams_each_with_its_reason() -> None:
    # six kinds: the entry point's --version, each system's plugin hooks (six a system, three for
    # the bridge), the window's save machinery and load menu, the tactical rules' warm-up, the
    # tactical views opened on a key, and optional libraries; a new one has to argue its place
    assert len(SEAMS) <= 31
    assert all(len(s.why) >= 20 and s.functions and s.imports for s in SEAMS)
    assert len({(s.module, fn, m) for s in SEAMS for fn in s.functions for m in s.imports}) == \
        sum(len(s.functions) * len(s.imports) for s in SEAMS)  # no seam listed twice


_SAMPLE = '''
from __future__ import annotations
import os
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from game.core.board import Board

def plain():
    import json
    return json

class Thing:
    def method(self):
        # import seam: a reason long enough to say why
        from . import sibling
        from .other import name
        return sibling, name

def outer():
    def inner():
        try:
            import zlib
        except ImportError:
            pass
        if True:
            # import seam: another reason, also long enough
            import math
        return zlib, math
    return inner
'''


def test_the_walker_lists_imports_in_functions_methods_and_nested_blocks_and_not_at_the_top() -> None:
    got = [(f.function, f.imported, f.line, bool(f.comment))
           for f in in_function_imports(_SAMPLE, "x.py", "game.pkg.mod")]
    assert got == [("plain", "json", 9, False),
                   ("Thing.method", "game.pkg", 15, True),
                   ("Thing.method", "game.pkg.other", 16, True),  # in the run under the comment
                   ("outer.inner", "zlib", 22, False),
                   ("outer.inner", "math", 27, True)]
