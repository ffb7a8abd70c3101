"""Random legal campaigns: legal_commands -> apply, with invariants checked after every step."""

from __future__ import annotations

import random

import pytest

from game.systems.campaign.io.files import load_campaign
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.state import CampaignState

_LOADED = None


def loaded():  # type: ignore[no-untyped-def]
    global _LOADED
    if _LOADED is None:
        _LOADED = load_campaign("maps/campaign/teaching.yaml")
    return _LOADED


def check(s: CampaignState) -> None:
    for a in s.armies.values():
        assert s.alive_units(a.id), f"{a.id} has no units but is still on the map"
        assert s.cs.rules.terrain[s.cs.map.terrain[a.hex]].cost is not None
        if a.battle:
            b = s.battles[a.battle]
            assert not b.over and b.hex == a.hex and a.owner in b.sides
    for b in s.open_games():
        for p in s.players:
            if p != b.sides[0] and p != b.sides[1]:
                assert p not in b.orders
    for g in s.generals.values():
        if g.army is not None:
            assert g.army in s.armies and s.armies[g.army].hex == g.hex
    for u in s.units.values():
        t = s.cs.unit_types[u.type_id]
        if t.armour:
            assert u.armour_damage <= t.armour
    if s.phase == "orders":
        for p in s.players:
            shown = SYSTEM.view(s, p)
            for b in shown.battles.values():
                assert set(b.orders) <= {p}


def play(seed: int, steps: int) -> CampaignState:
    rng = random.Random(seed)
    L = loaded()
    s = SYSTEM.initial_state(L.setup, seed)
    for _ in range(steps):
        cmds = SYSTEM.legal_commands(s)
        assert cmds, f"no legal command in phase {s.phase}"
        # lean towards moving and fighting so battles happen (ending a turn stays possible)
        busy = [c for c in cmds if c.kind != "end_turn" and not (c.kind == "declare" and not c.fight)]
        cmd = rng.choice(busy if busy and rng.random() < 0.8 else cmds)
        out = SYSTEM.apply(s, cmd)
        assert out.accepted, (cmd, getattr(out, "reason", ""))
        s = out.state
        check(s)
        assert SYSTEM.state_from_data(SYSTEM.state_to_data(s), s.cs) == s
    return s


@pytest.mark.parametrize("seed", range(24))
def test_random_legal_campaigns_keep_the_invariants(seed: int) -> None:
    s = play(seed, 120)
    assert s.week >= 1


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 160))
def test_long_random_campaigns_keep_the_invariants(seed: int) -> None:
    play(seed, 600)
