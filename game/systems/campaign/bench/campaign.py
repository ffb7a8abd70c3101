"""Campaign benchmark: resolving a week of 50 simultaneous battles, and the planner's 36 exact
cells against a 100,000-sample Monte Carlo of one cell (which must agree with the exact chances).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from game.bench.harness import Figure, median_time, ms
from game.core.dice import Rng
from game.core.roller import Roller
from game.systems.campaign.io.files import load_campaign_catalogue, load_campaign_rules
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import build_pool, make_plays, verdict
from game.systems.campaign.rules.commands import GiveOrders
from game.systems.campaign.rules.models import ArmySetup, CampaignMap, CampaignSetup, PlayerSetup, UnitSetup
from game.systems.campaign.rules.planner import OUTCOMES, _label, best_vanguard, plan
from game.systems.campaign.rules.state import BattleState, CampaignState

SAMPLES = 100_000
BATTLES = 50


def fifty_battles() -> tuple[CampaignState, list[GiveOrders]]:
    """A 100 x 20 plain island with 50 battles of mixed armies, every side's orders but the last given."""
    rules, cat = load_campaign_rules(), load_campaign_catalogue()
    types = cat.unit_types()
    red = ["jibril_armoured_infantry"] * 3 + ["jibril_warjack", "jibril_shield_cavalry", "jibril_warstrider"]
    blue = ["zone_rifle_division"] * 12 + ["zone_field_artillery"] * 3 + ["zone_hussars", "zone_balloon_corps"]
    armies = []
    for i in range(BATTLES):
        at = (2 * (i % 25) + 1, 4 * (i // 25) + 5)
        armies.append(ArmySetup(f"r{i}", f"Red {i}", "red", at, tuple(UnitSetup(f"r{i}.{j}", t) for j, t in enumerate(red)),
                                (at[0], at[1] - 1)))
        armies.append(ArmySetup(f"b{i}", f"Blue {i}", "blue", at, tuple(UnitSetup(f"b{i}.{j}", t) for j, t in enumerate(blue)),
                                (at[0], at[1] + 1)))
    cmap = CampaignMap(60, 20, {(c, r): "plains" for c in range(60) for r in range(20)})
    setup = CampaignSetup("bench", rules, types, cmap, (PlayerSetup("red", "Red", "jibril"),
                                                        PlayerSetup("blue", "Blue", "zones")), tuple(armies))
    s = SYSTEM.initial_state(setup, 1)
    battles = {f"B{i + 1}": BattleState(id=f"B{i + 1}", hex=armies[2 * i].hex, sides=("red", "blue"), started_week=1)
               for i in range(BATTLES)}
    arm = {a.id: a.model_copy(update={"battle": f"B{int(a.id[1:]) + 1}"}) for a in s.armies.values()}
    s = s.model_copy(update={"phase": "orders", "battles": battles, "armies": arm})
    manoeuvres = ["attack", "shock_attack", "defend", "block", "skirmish", "withdraw"]
    cmds = []
    for i in range(BATTLES):
        cmds.append(GiveOrders(player="red", battle=f"B{i + 1}", manoeuvre=manoeuvres[i % 6], vanguard=f"r{i}.0"))
        cmds.append(GiveOrders(player="blue", battle=f"B{i + 1}", manoeuvre=manoeuvres[(i // 6) % 6],
                               vanguard=f"b{i}.0"))
    for c in cmds[:-1]:
        out = SYSTEM.apply(s, c)
        assert out.accepted, getattr(out, "reason", "")
        s = out.state  # type: ignore[union-attr]
    return s, cmds[-1:]


def monte_carlo(state: CampaignState, battle: str, player: str, mine: str, theirs: str, samples: int
                ) -> dict[str, float]:
    b = state.battles[battle]
    foe = b.sides[1] if b.sides[0] == player else b.sides[0]
    me_f, foe_f = side_facts(state, b, player), side_facts(state, b, foe)
    mv, fv = best_vanguard(me_f, mine), best_vanguard(foe_f, theirs)  # type: ignore[arg-type]
    assert mv and fv
    pm, pf = make_plays(me_f, mine, (), mv, foe_f, theirs, (), fv)  # type: ignore[arg-type]
    rules = state.cs.rules
    nm = build_pool(rules, me_f, pm, foe_f, pf, True).dice
    nf = build_pool(rules, foe_f, pf, me_f, pm, True).dice
    roller = Roller(Rng.from_seed(99).state)
    counts = dict.fromkeys(OUTCOMES, 0)
    sides, succ = rules.dice.sides, rules.dice.success_on
    for _ in range(samples):
        sm = sum(1 for _ in range(nm) if roller.roll(sides, "mc") >= succ)
        sf = sum(1 for _ in range(nf) if roller.roll(sides, "mc") >= succ)
        roller.dice.clear()
        v = verdict(rules, pm, pf, sm, sf)
        counts[_label(v.band, v.winner, pm)] += 1
    return {k: n / samples for k, n in counts.items()}


def run(*, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    figures: list[Figure] = []
    s, last = fifty_battles()

    def resolve() -> None:
        out = SYSTEM.apply(s, last[0])
        assert out.accepted and out.state.week == 2  # type: ignore[union-attr]

    t = median_time(resolve, 1 if quick else 3)
    figures.append(Figure("campaign week: resolve 50 simultaneous battles", ms(t), 1000.0, "ms_max", "ms",
                          {"battles": BATTLES}))
    log(f"  50 battles resolved in {ms(t):.0f} ms")
    # the planner on one of those battles, from red's view
    view = SYSTEM.view(s, "red")
    t_exact = median_time(lambda: plan(view, "B1", "red"), 1 if quick else 3)
    samples = 10_000 if quick else SAMPLES
    t0 = time.perf_counter()
    mc = monte_carlo(view, "B1", "red", "attack", "defend", samples)
    t_mc = time.perf_counter() - t0
    exact = plan(view, "B1", "red").at("attack", "defend").chances
    worst = max(abs(mc[k] - exact[k]) / max(1e-12, (exact[k] * (1 - exact[k]) / samples) ** 0.5)
                for k in OUTCOMES if 0 < exact[k] < 1)
    agree = worst <= 5.0
    figures.append(Figure("campaign planner: 36 exact cells / one cell's Monte Carlo", t_exact / t_mc, 1.0, "ratio_max",
                          "x", {"exact_ms": round(ms(t_exact), 1), "monte_carlo_ms": round(ms(t_mc), 1),
                                "samples": samples, "worst_z": round(worst, 2), "agrees": agree},
                          note="agrees within 5 standard errors" if agree else "DISAGREES with the exact chances"))
    if not agree:
        raise AssertionError(f"Monte Carlo disagrees with the exact planner (z = {worst:.1f})")
    log(f"  planner: 36 exact cells in {ms(t_exact):.1f} ms; {samples} samples in {ms(t_mc):.0f} ms; "
        f"worst z {worst:.2f}")
    return figures
