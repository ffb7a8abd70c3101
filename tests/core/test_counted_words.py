"""Lines a player reads count things in words, not "(s)": "1 Raise", "2 Raises"
(`game.core.system.counted`), and no rule system's message writes a plural as "(s)"."""

from __future__ import annotations

import ast
from pathlib import Path

from game.core.system import counted

GAME = Path(__file__).resolve().parents[2] / "game"


def test_counted_uses_the_singular_for_one_and_the_plural_otherwise() -> None:
    assert counted(1, "Raise", "Raises") == "1 Raise"
    assert counted(0, "Raise", "Raises") == "0 Raises"
    assert counted(3, "action die", "action dice") == "3 action dice"


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            ids.add(id(node.value))
    return ids


def test_no_message_in_the_game_writes_a_plural_as_s_in_brackets() -> None:
    found = []
    for path in sorted(GAME.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)  # comments and docstrings may say "the force(s) whose turn it is"
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                text = node.value
                if any(text[i + 1:i + 4] == "(s)" and text[i].isalpha() for i in range(len(text) - 3)):
                    found.append(f"{path.relative_to(GAME.parent)}:{node.lineno}: {text.strip()[:60]}")
    assert not found, "plurals written as '(s)':\n" + "\n".join(found)
