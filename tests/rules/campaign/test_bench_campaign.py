"""The campaign bench section runs and its Monte Carlo agrees with the exact planner (quick mode)."""

from __future__ import annotations

from game.systems.campaign.bench import campaign


def test_the_campaign_bench_resolves_fifty_battles_and_its_monte_carlo_agrees_with_the_planner() -> None:
    figures = campaign.run(quick=True, log=lambda _m: None)
    assert len(figures) == 2
    week, planner = figures
    assert week.details["battles"] == 50 and week.value > 0
    assert planner.details["agrees"] and planner.details["samples"] == 10_000
