"""The GM's choice of how a campaign battle is resolved (gm_battle_choice, gm_battle_abandon) as
part of the campaign's record, and the exact odds of the tables shown before choosing."""

from __future__ import annotations

from typing import Any

import pytest

from game.core.record import Record
from game.core.system import Accepted, Rejection
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import parse_command
from game.systems.campaign.rules.odds import battle_odds
from game.systems.campaign.rules.planner import OUTCOMES
from game.systems.campaign.rules.report import week_report
from game.systems.campaign.rules.state import Orders

from .conftest import campaign_record

ORDERS = {
    "B1": [{"kind": "orders", "player": "zones", "battle": "B1", "manoeuvre": "withdraw", "vanguard": "rifles.1"},
           {"kind": "orders", "player": "jibril", "battle": "B1", "manoeuvre": "block", "vanguard": "corps.1"}],
    "B2": [{"kind": "orders", "player": "resistance", "battle": "B2", "manoeuvre": "attack", "vanguard": "front.1"},
           {"kind": "orders", "player": "zenith", "battle": "B2", "manoeuvre": "defend", "vanguard": "host.1"}],
}


def _apply(rec: Record, data: dict[str, Any]) -> Any:
    return rec.apply(parse_command(data))


def _ok(rec: Record, data: dict[str, Any]) -> Accepted:
    outcome = _apply(rec, data)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def _vanguards(rec: Record) -> None:
    # the ids used above must be real line units of each side (else the test would be wrong)
    for cmds in ORDERS.values():
        for c in cmds:
            assert c["vanguard"] in rec.state.units, c


def test_a_battle_fought_out_takes_no_orders_and_the_week_waits_for_its_result() -> None:
    rec = campaign_record()
    _vanguards(rec)
    ev = _ok(rec, {"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": "battles/b1-save.yaml"})
    assert [e.kind for e in ev.events] == ["battle_chosen"]
    b1 = rec.state.battles["B1"]
    assert (b1.fought_as, b1.battle_save) == ("tactical", "battles/b1-save.yaml")
    assert set(SYSTEM.to_move(rec.state)) == {"resistance", "zenith"}  # B1's sides are not asked
    refused = _apply(rec, ORDERS["B1"][0])
    assert isinstance(refused, Rejection) and "fought out as a tactical battle" in refused.reason
    for c in ORDERS["B2"]:
        _ok(rec, c)
    # B2's orders are in, but B1 is still being fought: the week does not end
    assert rec.state.phase == "orders" and rec.state.week == 1 and not rec.state.battles["B2"].over
    assert SYSTEM.to_move(rec.state) == []


def test_abandoning_returns_the_battle_to_the_tables_and_loses_nothing_of_the_campaign() -> None:
    rec = campaign_record()
    before = rec.state
    _ok(rec, {"kind": "gm_battle_choice", "battle": "B1", "scale": "mass", "save": "battles/b1-save.yaml"})
    ev = _ok(rec, {"kind": "gm_battle_abandon", "battle": "B1", "note": "the GM has no evening for it"})
    assert [e.kind for e in ev.events] == ["battle_abandoned"] and ev.events[0].scale == "mass"
    assert ev.events[0].save == "battles/b1-save.yaml"
    # exactly the campaign as it was before the choice (units, armies, battles, dice state)
    assert rec.state.to_dict() == before.to_dict()
    for c in ORDERS["B1"] + ORDERS["B2"]:
        _ok(rec, c)
    assert rec.state.week == 2 and rec.state.battles["B2"].log  # the tables resolved the week


def test_after_an_abandonment_the_week_asks_that_battles_sides_for_orders_and_then_resolves() -> None:
    rec = campaign_record()
    _ok(rec, {"kind": "gm_battle_choice", "battle": "B2", "scale": "tactical"})
    for c in ORDERS["B1"]:
        _ok(rec, c)
    assert rec.state.week == 1 and SYSTEM.to_move(rec.state) == []  # waiting for B2's result
    _ok(rec, {"kind": "gm_battle_abandon", "battle": "B2"})
    assert set(SYSTEM.to_move(rec.state)) == {"resistance", "zenith"}
    for c in ORDERS["B2"]:
        _ok(rec, c)
    assert rec.state.week == 2


def test_the_choice_and_the_abandonment_are_in_the_log_and_the_weeks_battle_report() -> None:
    rec = campaign_record()
    start = len(rec.steps)
    _ok(rec, ORDERS["B1"][0])  # one side of B1 sealed before the GM chose: the order is kept
    _ok(rec, {"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": "battles/b1.yaml"})
    _ok(rec, {"kind": "gm_battle_abandon", "battle": "B1"})
    for c in ORDERS["B1"][1:] + ORDERS["B2"]:
        _ok(rec, c)
    kinds = [s.command.kind for s in rec.steps[start:]]
    assert kinds[:3] == ["orders", "gm_battle_choice", "gm_battle_abandon"]
    events = [e for s in rec.steps for e in s.events]
    text = week_report(rec.steps[0].before, events, 1)
    assert "battle B1 is fought out as a tactical battle (battle save battles/b1.yaml)" in text
    assert "the tactical battle for B1 is abandoned (battles/b1.yaml); the tables resolve it" in text
    assert rec.state.week == 2


@pytest.mark.parametrize("first, second, why", [
    ({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical"},
     {"kind": "gm_battle_choice", "battle": "B1", "scale": "mass"}, "abandon it first"),
    (None, {"kind": "gm_battle_abandon", "battle": "B1"}, "nothing to abandon"),
    (None, {"kind": "gm_battle_choice", "battle": "B9", "scale": "mass"}, "no battle B9"),
    ({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical"},
     {"kind": "gm_battle_result", "battle": "B1", "winner": "jibril", "band": 1,
      "source": {"scale": "mass", "save": "x.yaml", "checksum": "0"}}, "not a mass one"),
])
def test_the_campaign_refuses_a_choice_that_does_not_fit(first: Any, second: Any, why: str) -> None:
    rec = campaign_record()
    if first:
        _ok(rec, first)
    outcome = _apply(rec, second)
    assert isinstance(outcome, Rejection) and why in outcome.reason


def test_a_battle_resolved_by_the_tables_saves_exactly_as_before_the_choice_existed() -> None:
    state = campaign_record().state
    assert all("fought_as" not in b for b in state.to_dict()["battles"].values())


# --------------------------------------------------------------------------- the tables' odds

def test_the_tables_odds_cover_every_result_and_add_up_to_one() -> None:
    state = campaign_record().state
    for bid in ("B1", "B2"):
        odds = battle_odds(state, bid)
        assert set(odds.chances) == set(OUTCOMES)
        assert sum(odds.chances.values()) == pytest.approx(1.0, abs=1e-12)
        a, z = odds.sides
        assert odds.win(a) + odds.win(z) + odds.draw == pytest.approx(1.0)
        assert sum(odds.band_chances(z).values()) == pytest.approx(odds.win(z))
        assert odds.sealed == () and all("equally likely" in n for n in odds.notes)


def test_the_tables_odds_with_sealed_orders_match_the_tables_rolled_many_times() -> None:
    """The exact chance of each result, with both sides' orders sealed, against the frequency of
    the very resolution `apply` runs, over 1,500 generators: within four standard errors."""
    base = campaign_record()
    _ok(base, ORDERS["B1"][0])
    _ok(base, ORDERS["B2"][0])
    _ok(base, ORDERS["B2"][1])
    state = base.state
    odds = battle_odds(state, "B1")  # the GM's view: one sealed, one to come
    last = parse_command(ORDERS["B1"][1])
    # with the last order sealed as well: the odds used by the dice below
    b1 = state.battles["B1"]
    b1 = b1.model_copy(update={"orders": {**b1.orders, "jibril": Orders(manoeuvre="block", vanguard="corps.1")}})
    sealed_state = state.model_copy(update={"battles": {**state.battles, "B1": b1}})
    exact = battle_odds(sealed_state, "B1")
    assert exact.sealed == ("zones", "jibril") and odds.sealed == ("zones",)
    n = 1500
    counts = dict.fromkeys(OUTCOMES, 0)
    for seed in range(n):
        s = state.model_copy(update={"rng": seed * 7919 + 13})
        out = SYSTEM.apply(s, last)
        assert isinstance(out, Accepted)
        r = next(e for e in out.events if e.kind == "result_read" and e.battle == "B1")
        label = "draw" if r.winner is None or r.band == 0 else (
            ("win " if r.winner == "zones" else "lose ") + {1: "minor", 2: "major", 3: "crushing", 4: "legendary"}[r.band])
        counts[label] += 1
    for k, p in exact.chances.items():
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(counts[k] / n - p) <= 4 * se + 1e-9, (k, counts[k] / n, p)


def test_an_army_moved_by_a_battle_fought_out_is_told_as_that_battles_result_not_a_gm_placement() -> None:
    from game.systems.campaign.rules.describe import event_text

    rec = campaign_record()
    _ok(rec, {"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": "battles/b1-save.yaml"})
    for c in ORDERS["B2"]:
        _ok(rec, c)
    at = rec.state.armies["rifles"].hex
    back = rec.state.armies["rifles"].route
    assert back is not None and back != at
    ev = _ok(rec, {"kind": "gm_battle_result", "battle": "B1", "winner": "jibril", "band": 1,
                   "moves": {"rifles": [list(back)]}})
    moved = [e for e in ev.events if e.kind == "army_moved"]
    assert moved and moved[0].reason == "fought_out"
    text = event_text(rec.state, moved[0])
    assert text == f"Lowmarch Rifle Corps moves to {back[0]},{back[1]}, as its battle fought out ended", text
    events = [e for s in rec.steps for e in s.events]
    report = week_report(rec.steps[0].before, events, 1)
    map_moves = report.split("Map moves", 1)[1].split("\n#", 1)[0]
    assert "Lowmarch Rifle Corps" not in map_moves  # a result of battle B1, told with it
    assert "placed by the GM" not in report
