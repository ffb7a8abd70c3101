"""The odds the client shows (queries.attack_preview) agree with what `apply` really does: a seeded
Monte Carlo run of the whole engine path (command -> setup -> dice -> state) for starter pairs."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from game.core.dice import Rng
from game.systems.tactical.rules.commands import Attack
from game.systems.tactical.rules.odds import Odds
from game.systems.tactical.rules.queries import AttackPreview, attack_preview
from game.systems.tactical.rules.state import GameState
from tests.rules.ailfix import CATALOGUE, make_state, of, ok

PAIRS = [(a_id, w.name, w.melee, t_id) for a_id, a in CATALOGUE.units.items() for w in a.weapons
         for t_id in CATALOGUE.units]
# A few pairs covering every defence kind and trait, for the quick run.
QUICK = [
    ("warjack", "light cannon", False, "militia_band"),        # many hits, casualty spread, annihilation
    ("hover_skiff", "autocannon", False, "armoured_infantry"),  # armour piercing
    ("battlemage_knight", "runeblade", True, "shield_lancers"),  # melee against a separate shield
    ("rifle_section", "bolt rifles", False, "warjack"),         # weak gun against armour
    ("armoured_infantry", "repeater rifles", False, "battlemage_knight"),  # ward
]


def _state(a_id: str, melee: bool, t_id: str) -> GameState:
    return make_state([("a", a_id, "blue", (1, 1)), ("t", t_id, "red", (2, 1) if melee else (4, 1))],
                      phase="attack", rule_changes={"defensive_action_prompt": "never"})


def _agree(exact: Odds, counts: dict[tuple[int, str], int], n: int, sigmas: float = 4.0) -> None:
    assert set(counts) <= set(exact.joint), "apply produced an outcome the odds call impossible"
    for key, p in exact.joint.items():
        pf, q = float(p), counts.get(key, 0) / n
        tol = sigmas * math.sqrt(pf * (1 - pf) / n) + 1 / n
        assert abs(pf - q) <= tol, f"{key}: odds {pf:.4f}, apply {q:.4f} over {n} attacks"


def _run(a_id: str, weapon: str, melee: bool, t_id: str, n: int, seed: int) -> None:
    st = _state(a_id, melee, t_id)
    pv = attack_preview(st, "a", "t", weapon)
    assert isinstance(pv, AttackPreview), pv
    assert sum(pv.odds.joint.values()) == Fraction(1)
    counts: dict[tuple[int, str], int] = {}
    before = st.units["t"].strength
    for i in range(n):
        s = st.model_copy(update={"rng": Rng.from_seed(seed * 1_000_003 + i).state})
        out = ok(s, Attack(attacker_id="a", target_id="t", weapon=weapon))
        (res,) = of(out.events, "attack_resolved")
        assert out.state.units["t"].strength == before - res.strength_lost
        key = (res.strength_lost, res.result)
        counts[key] = counts.get(key, 0) + 1
    _agree(pv.odds, counts, n)


@pytest.mark.parametrize(("a_id", "weapon", "melee", "t_id"), QUICK)
def test_previewed_odds_agree_with_attacks_applied_by_the_engine(a_id: str, weapon: str, melee: bool,
                                                                 t_id: str) -> None:
    _run(a_id, weapon, melee, t_id, 800, seed=QUICK.index((a_id, weapon, melee, t_id)))


@pytest.mark.slow
def test_previewed_odds_agree_with_the_engine_for_every_starter_pair() -> None:
    for i, pair in enumerate(PAIRS):
        _run(*pair, n=4000, seed=100 + i)
