"""The tactical rules package's public names come from one table (`_HOMES`), and the imports that
tell type checkers about them say exactly the same (issue 27 item 8: no parallel lists to drift)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import game.systems.tactical.rules as ail

PACKAGE = "game.systems.tactical.rules"
INIT = Path(ail.__file__)


def _type_checking_imports() -> dict[str, tuple[str, str]]:
    """public name -> (submodule, its name there) as the `if TYPE_CHECKING:` block imports it."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    out: dict[str, tuple[str, str]] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module, f"line {node.lineno}: only `from ... import`"
        for alias in node.names:
            public = alias.asname or alias.name
            assert alias.asname == alias.name, (
                f"line {node.lineno}: write `{alias.name} as {alias.name}` (an explicit re-export; a renamed "
                f"import is not one for mypy)")
            assert public not in out, f"{public} is imported twice"
            if node.module == PACKAGE:  # a submodule
                out[public] = (alias.name, "")
            else:
                assert node.module.startswith(PACKAGE + "."), node.module
                out[public] = (node.module[len(PACKAGE) + 1:], alias.name)
    return out


def _expected_block() -> str:
    lines = [f"    from {PACKAGE} import {m} as {m}" for m in sorted(ail._SUBMODULES)]
    lines += [f"    from {PACKAGE}.{mod} import {attr} as {name}"
              for name, (mod, attr) in sorted(ail._HOMES.items(), key=lambda kv: (kv[1][0], kv[1][1]))]
    return "\n".join(lines)


def test_the_type_checking_imports_name_exactly_the_table_of_public_names() -> None:
    want = {**{m: (m, "") for m in ail._SUBMODULES}, **ail._HOMES}
    got = _type_checking_imports()
    assert got == want, ("the TYPE_CHECKING block of game/systems/tactical/rules/__init__.py differs from "
                         "_HOMES; paste this block:\n" + _expected_block())


def test_all_and_dir_come_from_the_table() -> None:
    assert ail.__all__ == sorted([*ail._HOMES, *ail._SUBMODULES])
    assert set(ail.__all__) <= set(dir(ail))


def test_every_entry_of_the_table_names_an_object_its_home_module_defines_under_that_name() -> None:
    for name, (mod, attr) in ail._HOMES.items():
        assert attr == name, f"{name}: give it its public name in {mod} (mypy re-exports only `x as x`)"
        assert hasattr(importlib.import_module(f"{PACKAGE}.{mod}"), attr), f"{PACKAGE}.{mod} has no {attr}"
