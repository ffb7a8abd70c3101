"""Dice nobody can bias (issue 31, docs/campaign.md "The dice"): the week's dice come from the GM's
committed secret and every order's salt; change any one and the dice change; the rules take the
seed only with a secret matching its commitment, every ordering player's salt, before the first
order of the week."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core.system import Rejection
from game.systems.campaign.rules.dice_seed import commitment_of, week_rng, week_seed
from tests.hostile.campaignfix import NAME, SCENARIO, WEEK_ORDERS, head_before_orders

SECRET = "5be1c0a7e2d94f6b8a3c1e0d7f2a4b69c8e1d3f5a7b9c0e2d4f6a8b0c2e4f6a8"
SALTS = {"zones": "a" * 31 + "1", "jibril": "b" * 31 + "2", "resistance": "c" * 31 + "3", "zenith": "d" * 31 + "4"}


def _week1(tmp_path: Path, seed: dict[str, Any] | None) -> Any:
    """The teaching campaign's week 1 with the orders played, seeded by `seed` (None: unseeded)."""
    from game.systems.campaign.cli.campaign import replay
    from game.systems.campaign.rules.commands import GiveOrders

    tmp_path.mkdir(parents=True, exist_ok=True)
    _, rec, refusals = replay(str(SCENARIO), str(head_before_orders(tmp_path, 1)))
    assert not refusals
    if seed is not None:
        from game.systems.campaign.rules.commands import parse_command

        out = rec.apply(parse_command({"kind": "gm_dice_seed", **seed}))
        assert not isinstance(out, Rejection), out.reason
    for player, orders in WEEK_ORDERS[1].items():
        for o in orders:
            assert not isinstance(rec.apply(GiveOrders(player=player, **o.model_dump())), Rejection)
    return rec


def _dice(rec: Any) -> list[tuple[int, ...]]:
    """Every die the week's resolution rolled (the battles and the casualties)."""
    return [e.dice for s in rec.steps if s.command.kind == "orders" for e in s.events if e.kind == "dice_rolled"]


def _seed(secret: str = SECRET, salts: dict[str, str] | None = None, **kw: Any) -> dict[str, Any]:
    return {"week": 1, "commitment": commitment_of(secret), "secret": secret, "salts": dict(salts or SALTS), **kw}


def test_the_seeded_weeks_dice_come_from_the_secret_and_the_salts(tmp_path):
    rec = _week1(tmp_path, _seed())
    step = next(s for s in rec.steps if s.command.kind == "gm_dice_seed")
    assert step.after.rng == week_rng(NAME, 1, SECRET, SALTS)
    assert any("drawn from the GM's secret" in getattr(e, "what", "") for e in step.events)
    assert _dice(rec)


@pytest.mark.parametrize("change", ["secret", "zones", "jibril", "resistance", "zenith"])
def test_the_dice_of_the_week_change_if_any_one_salt_or_the_secret_changes(tmp_path, change):
    base = _dice(_week1(tmp_path / "a", _seed()))
    if change == "secret":
        other = _seed(secret=SECRET[::-1])
    else:
        other = _seed(salts={**SALTS, change: SALTS[change][::-1]})
    assert _dice(_week1(tmp_path / "b", other)) != base
    assert week_seed(NAME, 1, other["secret"], other["salts"]) != week_seed(NAME, 1, SECRET, SALTS)


@pytest.mark.parametrize(("seed", "reason"), [
    (_seed(commitment=commitment_of("another secret")), "does not match the commitment"),
    (_seed(week=2), "for week 2"),
    (_seed(salts={k: v for k, v in SALTS.items() if k != "zenith"}), "the salts must be those"),
    (_seed(salts={**SALTS, "nobody": "x" * 32}), "the salts must be those"),
])
def test_the_rules_refuse_a_seed_that_does_not_hold(tmp_path, seed, reason):
    from game.systems.campaign.cli.campaign import replay
    from game.systems.campaign.rules.commands import parse_command

    _, rec, _ = replay(str(SCENARIO), str(head_before_orders(tmp_path, 1)))
    out = rec.apply(parse_command({"kind": "gm_dice_seed", **seed}))
    assert isinstance(out, Rejection) and reason.lower() in out.reason.lower()


def test_the_rules_refuse_a_seed_after_the_first_order_of_the_week(tmp_path):
    from game.systems.campaign.cli.campaign import replay
    from game.systems.campaign.rules.commands import GiveOrders, parse_command

    _, rec, _ = replay(str(SCENARIO), str(head_before_orders(tmp_path, 1)))
    o = WEEK_ORDERS[1]["zones"][0]
    assert not isinstance(rec.apply(GiveOrders(player="zones", **o.model_dump())), Rejection)
    out = rec.apply(parse_command({"kind": "gm_dice_seed", **_seed()}))
    assert isinstance(out, Rejection) and "before the first order" in out.reason
