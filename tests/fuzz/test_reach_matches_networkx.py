"""Movement reach (move and dash, roads included) equals networkx's Dijkstra on the same hex graph
with the same costs, on random boards with random units: the oracle of the reach benchmark, and
the regression test of the memoised reach search (game/systems/tactical/rules/movement.py)."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.systems.tactical.bench.reach import nx_graphs, nx_reach
from game.systems.tactical.rules import dash_reach, initial_state, move_reach
from game.systems.tactical.rules.models import (
    BattleSetup,
    Catalogue,
    Commander,
    RulesData,
    SideSetup,
    Stats,
    UnitSetup,
)

ROOT = Path(__file__).resolve().parents[2]
RULES = RulesData.model_validate(yaml.safe_load((ROOT / "assets/rules/ail-tactical.yaml").read_text()))
CATALOGUE = Catalogue.model_validate(yaml.safe_load((ROOT / "assets/units/starter.yaml").read_text()))
TERRAIN = sorted(RULES.terrain)
TYPES = sorted(CATALOGUE.units)
W, H = 9, 7


@st.composite
def battles(draw: st.DrawFn) -> object:
    cells = [(c, r) for r in range(H) for c in range(W)]
    overrides = {cell: draw(st.sampled_from(TERRAIN + ["clear"] * 6)) for cell in cells}
    roads = set(draw(st.lists(st.sampled_from(cells), max_size=20)))
    board = Board.filled(W, H, overrides=overrides, roads=roads)
    spots = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=8, unique=True))
    units = []
    for i, (c, r) in enumerate(spots):
        units.append(UnitSetup(id=f"u{i}", type=draw(st.sampled_from(TYPES)), side=("blue", "red")[i % 2],
                               at=board.hex_at(c, r)))
    cmd = Commander(name="C", stats=Stats(physique=3, senses=3, intellect=3, aether=2), skills={})
    setup = BattleSetup(name="reach", rules=RULES, catalogue=CATALOGUE,
                        sides=(SideSetup(id="blue", name="Blue", colour=(0, 0, 200), commander=cmd),
                               SideSetup(id="red", name="Red", colour=(200, 0, 0), commander=cmd)),
                        units=tuple(units), objectives=(), round_limit=5)
    return initial_state(setup, board, 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_move_and_dash_reach_equal_networkx_dijkstra_with_the_same_costs(state: object) -> None:
    from game.systems.tactical.rules import GameState

    assert isinstance(state, GameState)
    for uid in state.units:
        for mode, fn in (("move", move_reach), ("dash", dash_reach)):
            graphs = nx_graphs(state, uid, mode)  # type: ignore[arg-type]
            reach = fn(state, uid)
            assert dict(reach.costs) == nx_reach(state, uid, mode, graphs), f"{uid} {mode}"  # type: ignore[arg-type]
            for h in reach.costs:  # every reported path is contiguous and ends where it says
                path = reach.path_to(h)
                assert path and path[-1] == h
