"""The layering the import-linter contracts in pyproject.toml state, plus what they cannot: no import
cycles anywhere in `game/` (imports made only for type checking aside)."""

from __future__ import annotations

import sys

import grimp


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        for m in sorted(graph.modules):
            if m not in index:
                visit(m)
    finally:
        sys.setrecursionlimit(old)
    return groups


def test_no_module_of_the_game_sits_in_an_import_cycle() -> None:
    graph = grimp.build_graph("game", exclude_type_checking_imports=True)
    assert len(graph.modules) > 100
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_when_there_is_one() -> None:
    graph = grimp.ImportGraph()
    for m in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(m)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.y", imported="a.z")
    assert _cycles(graph) == [["a.x", "a.y"]]


def test_the_shell_reaches_rule_systems_only_through_the_plugin_table() -> None:
    graph = grimp.build_graph("game", exclude_type_checking_imports=True)
    shell = [m for m in graph.modules if m.startswith("game.client.")
             and not m.startswith(("game.client.ail", "game.client.campaign", "game.client.mass"))]
    systems = ("game.rules.ail", "game.rules.campaign", "game.rules.mass", "game.client.ail",
               "game.client.campaign", "game.client.mass")
    direct = sorted((m, w) for m in shell for w in graph.find_modules_directly_imported_by(m)
                    if w.startswith(systems))
    assert direct == []
