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


# --------------------------------------------------------------------------- on the command line


def _gm_week(tmp_path: Path, capsys: Any) -> dict[str, Any]:
    """A GM commits, four players seal, the GM imports with the secret: the files of that week."""
    from tests.hostile.campaignfix import order_file
    from tests.hostile.hostile import cli

    start = tmp_path / "start.yaml"  # week 1 before any move: the GM commits, both commitments posted
    start.write_text("[]\n", encoding="utf-8")
    secret = tmp_path / "secret.yaml"
    code, out, err, _ = cli(capsys, "campaign", "commit", str(SCENARIO), str(start), "--out", str(secret))
    assert code == 0, err
    commitment = out.split("before any order: ")[1].split()[0]
    scouting = out.split("before any move of the week: ")[1].split()[0]
    # the moves and declarations are in: the scouting seed goes before the first declaration
    head = tmp_path / "head.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", str(SCENARIO), str(head_before_orders(tmp_path, 1)),
                           "--scouting", str(secret), "--out", str(head))
    assert code == 0, err
    files = [str(order_file(tmp_path, p)) for p in WEEK_ORDERS[1]]
    script = tmp_path / "seeded.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", str(SCENARIO), str(head), *files, "--secret", str(secret),
                           "--out", str(script))
    assert code == 0, err
    return {"head": head, "secret": secret, "commitment": commitment, "scouting": scouting, "files": files,
            "script": script}


def _verify(capsys: Any, script: Path, *extra: str) -> tuple[int, str]:
    from tests.hostile.hostile import cli

    code, out, err, _ = cli(capsys, "campaign", "verify-dice", str(SCENARIO), str(script), "--week", "1", *extra)
    assert "Traceback" not in err
    return code, out + err


def test_a_week_committed_sealed_and_imported_verifies_and_its_report_reveals_the_secret_and_salts(tmp_path, capsys):
    from tests.hostile.hostile import cli

    w = _gm_week(tmp_path, capsys)
    code, text = _verify(capsys, w["script"], "--commitment", w["commitment"], "--scouting-commitment", w["scouting"],
                         "--orders", *w["files"])
    assert code == 0 and "the dice check out" in text and "matches the posted commitment" in text, text
    code, report, _err, _ = cli(capsys, "campaign", "report", str(SCENARIO), str(w["script"]), "--week", "1")
    secret = [ln.split(": ", 1)[1] for ln in w["secret"].read_text().splitlines() if ln.startswith("secret:")][0]
    assert code == 0 and secret in report
    from game.systems.campaign.io.files import read_orders_file

    assert all((read_orders_file(f).salt or "-") in report for f in w["files"])


def test_a_changed_gm_secret_is_caught_against_the_posted_commitment(tmp_path, capsys):
    from tests.hostile.hostile import cli

    w = _gm_week(tmp_path, capsys)
    other = tmp_path / "other-secret.yaml"
    assert cli(capsys, "campaign", "commit", str(SCENARIO), str(w["head"]), "--out", str(other))[0] == 0
    rerolled = tmp_path / "rerolled.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", str(SCENARIO), str(w["head"]), *w["files"], "--secret",
                           str(other), "--out", str(rerolled))
    assert code == 0, err
    code, text = _verify(capsys, rerolled, "--commitment", w["commitment"], "--orders", *w["files"])
    assert code == 1 and "another secret was used (a re-rolled week)" in text


def test_a_changed_salt_is_caught_against_the_order_file_and_the_posted_fingerprint(tmp_path, capsys):
    from game.systems.campaign.io.files import read_orders_file

    w = _gm_week(tmp_path, capsys)
    zones = read_orders_file(w["files"][0])
    assert zones.player == "zones"
    text = w["script"].read_text(encoding="utf-8")
    assert zones.salt and zones.salt in text
    forged = tmp_path / "forged.yaml"
    forged.write_text(text.replace(zones.salt, "f" * 31 + "0"), encoding="utf-8")
    code, out = _verify(capsys, forged, "--commitment", w["commitment"], "--orders", *w["files"])
    assert code == 1 and "zones: the salt in the seed is not the one sealed" in out
    code, out = _verify(capsys, forged, "--fingerprint", f"zones={zones.fingerprint}")
    assert code == 1 and "not the posted" in out


def test_forced_dice_after_the_seed_and_an_unseeded_week_are_caught(tmp_path, capsys):
    w = _gm_week(tmp_path, capsys)
    lines = w["script"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if "gm_dice_seed" in ln)
    end = at + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    forced = tmp_path / "forced.yaml"
    forced.write_text("\n".join(lines[:end] + ["- {kind: gm_force_rolls, values: [6, 6, 6, 6, 6, 6]}"]
                                + lines[end:]) + "\n", encoding="utf-8")
    code, out = _verify(capsys, forced, "--commitment", w["commitment"])
    assert code == 1 and "gm_force_rolls after the seed" in out
    from tests.hostile.campaignfix import SCRIPT

    code, out = _verify(capsys, SCRIPT)
    assert code == 1 and "the GM's word" in out


def test_import_with_a_secret_needs_every_players_salt_and_writes_nothing_without(tmp_path, capsys):
    from tests.hostile.hostile import cli

    w = _gm_week(tmp_path, capsys)
    out = tmp_path / "partial.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", str(SCENARIO), str(w["head"]), *w["files"][:2], "--secret",
                           str(w["secret"]), "--out", str(out))
    assert code == 1 and "missing: resistance, zenith" in err and not out.exists()


def test_commit_never_reuses_a_secret_file(tmp_path, capsys):
    from tests.hostile.hostile import cli

    w = _gm_week(tmp_path, capsys)
    before = w["secret"].read_text()
    code, _o, err, _ = cli(capsys, "campaign", "commit", str(SCENARIO), str(w["head"]), "--out", str(w["secret"]))
    assert code == 1 and "already exists" in err and w["secret"].read_text() == before
