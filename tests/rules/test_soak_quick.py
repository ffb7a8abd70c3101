"""A quick soak: random legal games on a small crowded board, biased toward combat, with the
invariants checked after every command (a longer run is marked slow)."""

from __future__ import annotations

import random

import pytest

from game.core.board import Board
from game.systems.tactical.rules import Accepted, GameState, apply, legal_commands

from .ailfix import make_state

UNITS = [("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (1, 4)),
         ("c1", "armoured_car", "blue", (0, 6)), ("s1", "shield_lancers", "blue", (2, 5)),
         ("h1", "hover_skiff", "blue", (0, 3)), ("m1", "militia_band", "red", (7, 1)),
         ("k1", "battlemage_knight", "red", (8, 4)), ("g1", "field_gun", "red", (9, 6)),
         ("w1", "warjack", "red", (6, 3)), ("a1", "armoured_infantry", "red", (7, 6))]
BOARD = Board.filled(10, 8, overrides={(4, 2): "woods", (5, 5): "swamp", (3, 4): "building", (6, 0): "water",
                                       (4, 6): "rubble"}, roads={(c, 6) for c in range(10)})
ACTIVE = ("attack", "charge", "dash", "enter_stance", "defensive_action", "stuck_step", "special_move")


def check_invariants(st: GameState) -> None:
    live = [u for u in st.units.values() if u.alive]
    assert len({u.hex for u in live}) == len(live), "two units share a hex"
    assert all(u.hex in st.board for u in live)
    assert all(u.strength >= 0 and u.adrenaline >= 0 and u.leadership >= 0 for u in st.units.values())
    assert all(u.strength > 0 for u in live)
    assert all(v >= 0 for s in st.sides.values() for v in s.advantage.values())
    assert all(not (u.out_of_action and u.stance != "none") for u in live)


def soak(seed: int) -> GameState:
    st = make_state(UNITS, board=BOARD, seed=seed)
    pick = random.Random(seed)
    for _ in range(3000):
        if st.phase == "ended":
            break
        cmds = legal_commands(st)
        active = [c for c in cmds if c.kind in ACTIVE]
        ends = [c for c in cmds if c.kind == "end_phase"]
        r = pick.random()
        cmd = pick.choice(active) if active and r < 0.7 else ends[0] if ends and r < 0.8 else pick.choice(cmds)
        out = apply(st, cmd)
        assert isinstance(out, Accepted), f"legal {cmd} refused: {out}"
        st = out.state
        check_invariants(st)
    assert st.phase == "ended"
    return st


@pytest.mark.parametrize("seed", range(3))
def test_random_combat_heavy_games_keep_every_invariant_and_end(seed):
    soak(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 203))
def test_random_combat_heavy_games_keep_every_invariant_and_end_long(seed):
    soak(seed)
