"""The layering the import-linter contracts in pyproject.toml state, plus what they cannot: no import
cycles anywhere in `game/`, counting every import: at the top of a module, inside functions (the
warm-up seams) and under `TYPE_CHECKING`. The table of systems is made of real imports
(game/table.py), so its edges are in the graph too."""

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


def _graph() -> grimp.ImportGraph:
    # no cache: a stale cache once hid an edge that was gone (and could hide one that is new)
    return grimp.build_graph("game", exclude_type_checking_imports=False, cache_dir=None)


def test_no_module_of_the_game_sits_in_an_import_cycle() -> None:
    graph = _graph()
    assert len(graph.modules) > 100
    assert _cycles(graph) == []


def test_the_table_reaches_every_system_by_a_real_import() -> None:
    graph = _graph()
    for name in ("tactical", "campaign", "mass"):
        assert graph.find_shortest_chain(importer="game.table", imported=f"game.systems.{name}.plugin") is not None
        assert graph.find_shortest_chain(importer=f"game.systems.{name}.plugin",
                                         imported=f"game.systems.{name}.rules.system") is not None


def test_the_cycle_finder_finds_a_cycle_when_there_is_one() -> None:
    graph = grimp.ImportGraph()
    for m in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(m)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.y", imported="a.z")
    assert _cycles(graph) == [["a.x", "a.y"]]


def test_the_shell_and_the_shared_commands_reach_a_system_only_through_the_table() -> None:
    graph = _graph()
    outside = [m for m in graph.modules if m.startswith(("game.shell", "game.cli", "game.replay", "game.io",
                                                          "game.render", "game.core"))]
    assert len(outside) > 40
    direct = sorted((m, w) for m in outside for w in graph.find_modules_directly_imported_by(m)
                    if w.startswith(("game.systems", "game.bridge")))
    assert direct == []
    # and nothing below the entry point and the shared commands imports the table
    importers = sorted(m for m in graph.find_modules_that_directly_import("game.table")
                       if not m.startswith(("game.__main__", "game.cli", "game.bench")))
    assert importers == []
