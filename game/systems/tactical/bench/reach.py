"""Reach benchmark: the rules' movement reach against networkx's Dijkstra on the same graph.

For each sampled unit of the 100 x 100 battle, networkx gets a directed graph of the board whose
edge u -> v weighs what the rules charge that unit to enter v (enemy-held hexes and, for a dash,
difficult terrain left out), and a second graph of road hexes only for the road bonus. Building
the graphs is not timed; only the searches are. Both must give the same set of end hexes with the
same costs, then the timing ratio is networkx / ours (target: at least 5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, Literal

from game.bench.harness import Figure, interleaved, ms
from game.core.hexgrid import Hex, neighbours
from game.systems.tactical.rules import dash_reach, initial_state, move_reach
from game.systems.tactical.rules.movement import enter_cost, is_difficult, road_bonus, terrain_bars_dash
from game.systems.tactical.rules.state import GameState

Mode = Literal["move", "dash"]


def nx_graphs(state: GameState, unit_id: str, mode: Mode) -> tuple[Any, Any]:
    """The board as networkx graphs for this unit's kind of movement: (all hexes, road hexes only).

    Edge u -> v weighs what the rules charge to enter v (impassable hexes and, for a dash,
    difficult terrain are left out). Terrain never changes, so a program using networkx would
    build these once per board and movement kind; the benchmark does not time building them.
    """
    # import seam: networkx is a test extra (pyproject [test]), only for the reach bench's reference figure
    import networkx as nx

    unit = state.units[unit_id]
    board = state.board
    g = nx.DiGraph()
    roads = nx.DiGraph()
    for h in board.terrain:
        for n in neighbours(h):
            cost = enter_cost(state, unit, n)
            if cost is None or (mode == "dash" and is_difficult(state, n)):
                continue
            g.add_edge(h, n, weight=cost)
            if board.is_road(n):
                roads.add_edge(h, n, weight=cost)
    return g, roads


Occupancy = dict[Hex, str]


def occupancy(state: GameState) -> Occupancy:
    """Hex -> side of every live unit (computed once per state, like the rules' own memo)."""
    return {u.hex: u.side for u in state.live_units()}


def enemy_hexes(occupied: Occupancy) -> dict[str, frozenset[Hex]]:
    """Side -> hexes its enemies hold (once per state, like the rules' per-side memo)."""
    return {s: frozenset(h for h, side in occupied.items() if side != s) for s in set(occupied.values())}


def nx_reach(state: GameState, unit_id: str, mode: Mode, graphs: tuple[Any, Any],
             occupied: Occupancy | None = None, enemies: dict[str, frozenset[Hex]] | None = None,
             ) -> dict[Hex, int]:
    """End hexes and costs computed with networkx from the game state: enemy-held hexes are closed
    through the weight function (None hides an edge), friends may be passed but not ended on, and
    the road bonus applies only to an all-road path from a road hex. `occupied` and `enemies`:
    the per-state memos (computed here when not given)."""
    # import seam: networkx is a test extra (pyproject [test]), only for the reach bench's reference figure
    import networkx as nx

    unit = state.units[unit_id]
    if mode == "dash" and terrain_bars_dash(state, unit) is not None:
        return {}  # the rules' dash reach is empty for a unit barred by difficult terrain
    base = state.unit_type(unit_id).move
    g, roads = graphs
    if occupied is None:
        occupied = occupancy(state)
    if enemies is None:
        enemies = enemy_hexes(occupied)
    enemy = enemies.get(unit.side, frozenset())

    def weight(u: Hex, v: Hex, d: dict[str, int]) -> int | None:
        return None if v in enemy else d["weight"]

    out: dict[Hex, int] = {}
    if unit.hex in g:
        out = {h: int(c) for h, c in nx.single_source_dijkstra_path_length(g, unit.hex, cutoff=base,
                                                                           weight=weight).items()
               if h != unit.hex and h not in occupied}
    bonus = road_bonus(state, unit)
    if state.board.is_road(unit.hex) and bonus and unit.hex in roads:
        extra = nx.single_source_dijkstra_path_length(roads, unit.hex, cutoff=base + bonus, weight=weight)
        for h, c in extra.items():
            if h != unit.hex and h not in occupied and h not in out:
                out[h] = int(c)
    return out


def sample_units(state: GameState, count: int) -> list[str]:
    """A spread of units: every unit type, on and off roads."""
    units = sorted(state.live_units(), key=lambda u: u.id)
    on_road = [u.id for u in units if state.board.is_road(u.hex)]
    chosen: list[str] = on_road[: max(1, count // 4)]
    units = [u for u in units if u.id not in on_road]
    seen_types: set[str] = set()
    for u in units:
        if len(chosen) >= count:
            break
        if u.id in chosen:
            continue
        if u.type_id not in seen_types or len(seen_types) >= len(state.setup.catalogue.units):
            seen_types.add(u.type_id)
            chosen.append(u.id)
    return chosen[:count]


def put_on_roads(state: GameState, count: int) -> GameState:
    """Move a few units onto free road hexes so the road-bonus search is exercised."""
    occupied = {u.hex for u in state.live_units()}
    free_roads = [h for h in sorted(state.board.roads) if h not in occupied]
    units = dict(state.units)
    ids = sorted(units)[:count]
    for uid, h in zip(ids, free_roads[:: max(1, len(free_roads) // max(1, count))], strict=False):
        units[uid] = units[uid].model_copy(update={"hex": h})
    return state.model_copy(update={"units": units})


def fresh_states(state: GameState, keep: list[str], count: int) -> list[GameState]:
    """`count` states, each with one more unit (never one of `keep`) moved onto a free hex from
    the state before: a chain of new states, a unit apart, as a game or a what-if makes them."""
    taken = {u.hex for u in state.live_units()}
    free = [h for h in sorted(state.board.terrain) if h not in taken and state.board.terrain[h] == "clear"]
    movers = [uid for uid in sorted(state.units) if uid not in keep]
    out: list[GameState] = []
    for k in range(count):
        uid = movers[(k * 7) % len(movers)]
        units = {**state.units, uid: state.units[uid].model_copy(update={"hex": free[(k * 13) % len(free)]})}
        state = state.model_copy(update={"units": units})
        out.append(state)
    return out


def _nx_cold(state: GameState, uid: str, mode: Mode, graphs: tuple[Any, Any]) -> dict[Hex, int]:
    return nx_reach(state, uid, mode, graphs)


def _on_fresh_states(fn: Callable[[GameState, str], Any], states: Iterator[GameState], uid: str) -> Any:
    return fn(next(states), uid)


def run(battle: Any, *, quick: bool = False, log: Callable[[str], None] = print,
        more: tuple[Any, ...] = ()) -> list[Figure]:
    """The figures for `battle` and for each battle of `more` (e.g. the same map with 1,000 units)."""
    figures: list[Figure] = []
    for b in (battle, *more):
        figures += _run_one(b, quick=quick, log=log)
    return figures


def _run_one(battle: Any, *, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    state = initial_state(battle.setup, battle.board, 1)
    state = put_on_roads(state, 12)
    ids = sample_units(state, 12 if quick else 40)
    repeats = 5 if quick else 15
    ours_total = theirs_total = 0.0
    cold_ours = cold_theirs = 0.0
    occ = occupancy(state)  # networkx gets the per-state memos the rules keep too: occupancy,
    enemies = enemy_hexes(occ)  # and the hexes each side's enemies hold
    # "cold": the first query on a fresh state (no per-state memo on either side), each fresh state
    # one unit away from the one before, as after a command or in a what-if: ours derives its
    # occupancy from the latest one seen, networkx works it out again
    fresh = fresh_states(state, ids, 4 * (repeats + 1))
    mismatches: list[str] = []
    hexes = 0
    graph_cache: dict[tuple[bool, str], tuple[Any, Any]] = {}
    for uid in ids:
        for mode in ("move", "dash"):
            key = (state.unit_type(uid).unit_class == "hover", mode)
            if key not in graph_cache:
                graph_cache[key] = nx_graphs(state, uid, mode)
            graphs = graph_cache[key]
            fn = move_reach if mode == "move" else dash_reach
            expected = nx_reach(state, uid, mode, graphs)
            got = dict(fn(state, uid).costs)
            if got != expected:
                diff = set(got.items()) ^ set(expected.items())
                mismatches.append(f"{uid} {mode}: {len(diff)} hexes differ")
            hexes += len(got)
            t = interleaved({"ours": partial(fn, state, uid),
                             "nx": partial(nx_reach, state, uid, mode, graphs, occ, enemies)}, repeats)
            ours_total += t["ours"]
            theirs_total += t["nx"]
            t = interleaved({"ours": partial(_on_fresh_states, fn, iter(fresh), uid),
                             "nx": partial(_on_fresh_states, partial(_nx_cold, mode=mode, graphs=graphs),
                                           iter(fresh), uid)}, repeats, warmup=0)
            cold_ours += t["ours"]
            cold_theirs += t["nx"]
    n = len(ids) * 2
    ratio = theirs_total / ours_total if ours_total else float("inf")
    log(f"  reach: {len(ids)} units x (move, dash), {hexes} end hexes in all")
    units = len(state.units)
    where = f"{state.board.width}x{state.board.height} map, {units} units"
    return [
        # what a player's click costs: the first query on a state the rules have not seen
        Figure(f"reach: first query on a fresh state, networkx time / ours ({where})", cold_theirs / cold_ours,
               5.0, "ratio_min", details={"ours median ms": ms(cold_ours / n), "networkx median ms": ms(cold_theirs / n),
                                          "searches": n},
               note="each query on a new state one unit apart from the one before (ours derives its occupancy, "
                    "networkx works its out); "
                    + ("same sets" if not mismatches else "DIFFERENT SETS: " + "; ".join(mismatches[:3]))),
        Figure(f"reach (informational): repeated query on one state, networkx time / ours ({where})", ratio, 5.0,
               "ratio_min", judged=False,
               details={"ours median ms": ms(ours_total / n), "networkx median ms": ms(theirs_total / n)}),
        Figure(f"reach: searches whose set differs from networkx ({where})", float(len(mismatches)), 0.0, "max",
               unit=""),
    ]
