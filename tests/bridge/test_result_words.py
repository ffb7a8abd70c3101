"""The won battle's decisiveness in words (game/bridge/client/fight.py result_sentences, the GM's
confirm dialog; game/bridge/back.py steps, `scales back`): the loser lost more, both lost the
same share, or the winner lost more and still won the battle."""

from __future__ import annotations

from typing import Any

from game.bridge import back
from game.bridge.client.fight import result_sentences


def _result(campaign: Any, rules: Any, zones: float, jibril: float) -> back.CampaignResult:
    """Campaign battle B1 won by Jibril, each side's units losing the given share of their strength."""
    b = campaign.battles["B1"]
    losses = {u: back.Loss(100, round(100 * (zones if p == "zones" else jibril)))
              for p in b.sides for u in campaign.force_units(b, p)}
    return back.campaign_result(campaign, "B1", rules, losses, "jibril", "tactical")


def test_a_loser_that_lost_more_is_said_to_have_lost_that_many_points_more(campaign: Any,
                                                                           scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, 0.5, 0.25)
    assert r.decisiveness == 25
    first = result_sentences(campaign, r)[0]
    assert first == ("Jibril wins a major victory over The Zones (The Zones lost 25 percentage points "
                     "more of their forces than Jibril).")  # The Zones: plural
    assert not any("at least a" in s for s in r.steps)


def test_one_point_is_a_point_not_points(campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, 0.26, 0.25)
    assert r.decisiveness == 1
    assert "lost 1 percentage point more" in result_sentences(campaign, r)[0]


def test_equal_shares_lost_read_as_the_same_share_not_zero_points_more(campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, 0.3, 0.3)
    assert r.decisiveness == 0 and r.band_name == "minor victory"
    first = result_sentences(campaign, r)[0]
    assert "0 percentage" not in first
    assert first == ("Jibril wins a minor victory over The Zones (Jibril won the battle; both sides "
                     "lost the same share of their forces).")


def test_a_winner_that_lost_more_is_said_to_have_won_though_it_lost_more_never_a_negative_number(
        campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, 0.25, 0.5)
    assert r.decisiveness == -25 and r.band_name == "minor victory"
    first = result_sentences(campaign, r)[0]
    assert "-25" not in first
    assert first == ("Jibril wins a minor victory over The Zones (Jibril won the battle though it lost "
                     "25 percentage points more of its forces than The Zones).")
    # the working steps say why a negative decisiveness still makes a minor victory
    assert "   Jibril lost the larger share but won the battle: a winner wins at least a minor victory" in r.steps
