"""The scouting dice's commitment on the command line (docs/campaign.md, "The dice"): `campaign
commit` writes a scouting secret beside the dice secret and prints both commitments; `campaign
import --scouting` puts `gm_scouting_seed` before the week's first declaration (or at the end of
its movement), refusing another week's file, a used commitment, an old one-secret file and a week
whose orders are in; `verify-dice` checks it against the posted scouting commitment, its reuse
and every scouting die, and says a week whose battles started without it is NOT CHECKED."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import yaml

from game.systems.campaign.cli.campaign import replay
from game.systems.campaign.io.files import make_orders_file, read_script, write_orders_file
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, WEEK_ORDERS, head_before_orders, order_file
from tests.hostile.hostile import cli

S = str(SCENARIO)
SECRET = "1b3d5f7a9c0e2d4f6a8b0c2e4f6a8b0d1c3e5f7a9b0d2e4f6a8c0b2d4e6f8a0c"
SCOUTING = "a0c2e4f6b8d0a2c4e6f8b0d2a4c6e8f0b2d4a6c8e0f2b4d6a8c0e2f4b6d8a0c2"
OTHER_SCOUTING = "f" * 8 + "0123456789abcdef" * 3 + "e" * 8


def _c(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()


def _secret_file(path: Path, week: int = 1, secret: str = SECRET, scouting: str | None = SCOUTING) -> Path:
    text = f"kind: campaign-dice-secret\ncampaign: {NAME}\nweek: {week}\nsecret: {secret}\ncommitment: {_c(secret)}\n"
    if scouting is not None:
        text += f"scouting_secret: {scouting}\nscouting_commitment: {_c(scouting)}\n"
    path.write_text(text, encoding="utf-8")
    return path


def _start(tmp_path: Path) -> Path:
    """The teaching campaign before any command: week 1's movement phase."""
    p = tmp_path / "start.yaml"
    p.write_text("[]\n", encoding="utf-8")
    return p


def _kinds(script: Path) -> list[str]:
    return [c.kind for c in read_script(script)]


def _scout(capsys: Any, script: Path, secret: Path, out: Path) -> tuple[int, str]:
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(script), "--scouting", str(secret), "--out", str(out))
    assert "Traceback" not in err
    return code, err


SALTS = {"zones": "7c1e9a2f4b6d8e0a3c5f7b9d1e2a4c6f", "jibril": "3a8f2d6c9e1b4f7a0d3c6e9b2f5a8d1c",
         "resistance": "e4b7a1d9c3f6e2b8a5d1c7f4e9b3a6d2", "zenith": "5d9a3e7c1f8b4d2a6e0c9f3b7a1d5e8c"}


def _fixed(tmp_path: Path, player: str) -> Path:
    """The player's week-1 order file sealed with a fixed salt (a fresh one each run made the
    week's dice, and a later week's test, differ from run to run)."""
    p = tmp_path / f"{player}-week1.yaml"
    write_orders_file(p, make_orders_file(NAME, 1, player, WEEK_ORDERS[1][player], SALTS[player]))
    return p


def _honest_week(tmp_path: Path, capsys: Any) -> dict[str, Any]:
    """Week 1 with both secrets: scouting seed before the declarations, dice seed before the orders."""
    secret = _secret_file(tmp_path / "gm-secret-week1.yaml")
    head = tmp_path / "head.yaml"
    assert _scout(capsys, head_before_orders(tmp_path, 1), secret, head)[0] == 0
    # fixed salts: the week's dice (and so who is left for week 2) the same in every run
    files = [str(_fixed(tmp_path, p)) for p in WEEK_ORDERS[1]]
    script = tmp_path / "week1.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *files, "--secret", str(secret),
                           "--out", str(script))
    assert code == 0, err
    return {"secret": secret, "head": head, "files": files, "script": script}


def _verify(capsys: Any, script: Path, *extra: str, week: int = 1) -> tuple[int, str]:
    code, out, err, _ = cli(capsys, "campaign", "verify-dice", S, str(script), "--week", str(week), *extra)
    assert "Traceback" not in err
    return code, out + err


# --------------------------------------------------------------------------- commit


def test_commit_writes_a_scouting_secret_and_prints_both_commitments(tmp_path, capsys):
    out = tmp_path / "gm-secret-week1.yaml"
    code, text, err, _ = cli(capsys, "campaign", "commit", S, str(_start(tmp_path)), "--out", str(out))
    assert code == 0, err
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9a-f]{64}", data["scouting_secret"]) and data["scouting_secret"] != data["secret"]
    assert data["scouting_commitment"] == _c(data["scouting_secret"])
    assert f"before any order: {data['commitment']}" in text
    assert f"scouting commitment with it, before any move of the week: {data['scouting_commitment']}" in text
    assert "note:" not in text  # nothing moved yet: nothing to warn about


def test_commit_after_the_weeks_battles_started_says_the_scouting_secret_is_of_no_use(tmp_path, capsys):
    code, text, err, _ = cli(capsys, "campaign", "commit", S, str(head_before_orders(tmp_path, 1)), "--out",
                             str(tmp_path / "late.yaml"))
    assert code == 0, err
    assert "note: week 1's battles have started" in text


# --------------------------------------------------------------------------- import --scouting


def test_import_scouting_puts_the_seed_before_the_weeks_first_declaration(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    out = tmp_path / "scouted.yaml"
    code, err = _scout(capsys, head, _secret_file(tmp_path / "s.yaml"), out)
    assert code == 0, err
    kinds = _kinds(out)
    assert kinds.count("gm_scouting_seed") == 1
    at = kinds.index("gm_scouting_seed")
    assert kinds[at + 1] == "declare" and "declare" not in kinds[:at]
    assert [k for k in kinds if k != "gm_scouting_seed"] == _kinds(head)
    assert "the first declaration of week 1" in err and "no longer those rolled without the seed" in err
    _, rec, refusals = replay(S, str(out))
    assert not refusals
    seed = next(s for s in rec.steps if s.command.kind == "gm_scouting_seed")
    assert seed.command.secret == SCOUTING and seed.command.commitment == _c(SCOUTING)


def test_import_scouting_in_the_movement_phase_adds_the_seed_at_the_end(tmp_path, capsys):
    out = tmp_path / "scouted.yaml"
    code, err = _scout(capsys, _start(tmp_path), _secret_file(tmp_path / "s.yaml"), out)
    assert code == 0, err
    assert _kinds(out) == ["gm_scouting_seed"] and "at the end, in the movement phase of week 1" in err


def test_import_scouting_refuses_a_secret_file_of_another_week(tmp_path, capsys):
    out = tmp_path / "scouted.yaml"
    code, err = _scout(capsys, head_before_orders(tmp_path, 1), _secret_file(tmp_path / "s.yaml", week=2), out)
    assert code == 1 and "week: the secret of week 2, but the campaign is in week 1" in err and not out.exists()


def test_import_scouting_refuses_an_old_secret_file_with_one_secret_which_still_seeds_the_dice(tmp_path, capsys):
    old = _secret_file(tmp_path / "old.yaml", scouting=None)
    out = tmp_path / "scouted.yaml"
    head = head_before_orders(tmp_path, 1)
    code, err = _scout(capsys, head, old, out)
    assert code == 1 and "an older secret file with no scouting secret" in err and not out.exists()
    files = [str(order_file(tmp_path, p)) for p in WEEK_ORDERS[1]]
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *files, "--secret", str(old), "--out",
                           str(tmp_path / "seeded.yaml"))
    assert code == 0, err


def test_import_scouting_refuses_a_commitment_already_used(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    week2 = tmp_path / "week2.yaml"  # week 1 played out: week 2's movement phase
    week2.write_text(w["script"].read_text(encoding="utf-8"), encoding="utf-8")
    again = _secret_file(tmp_path / "gm-secret-week2.yaml", week=2, secret=SECRET[::-1])
    out = tmp_path / "out.yaml"
    code, err = _scout(capsys, week2, again, out)
    assert code == 1 and "already used for the scouting dice of week 1" in err and not out.exists()
    fresh = _secret_file(tmp_path / "fresh.yaml", week=2, secret=SECRET[::-1], scouting=OTHER_SCOUTING)
    assert _scout(capsys, week2, fresh, out)[0] == 0


def test_import_scouting_refuses_a_week_whose_orders_are_in(tmp_path, capsys):
    lines = SCRIPT.read_text(encoding="utf-8").split("# Week 2")[0]
    played = tmp_path / "orders-in.yaml"
    first_orders = lines.index("- {kind: orders")
    played.write_text(lines[:first_orders] + lines[first_orders:].split("\n")[0] + "\n", encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, err = _scout(capsys, played, _secret_file(tmp_path / "s.yaml"), out)
    assert code == 1 and "orders of week 1 are already in" in err and not out.exists()


def test_the_report_shows_the_scouting_secret(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    code, text, err, _ = cli(capsys, "campaign", "report", S, str(w["script"]), "--week", "1")
    assert code == 0, err
    assert f"scouting secret {SCOUTING}" in text and _c(SCOUTING) in text


# --------------------------------------------------------------------------- verify-dice


def test_verify_dice_passes_an_honest_week_with_both_commitments(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    code, text = _verify(capsys, w["script"], "--commitment", _c(SECRET), "--scouting-commitment", _c(SCOUTING),
                         "--orders", *w["files"])
    assert code == 0 and "-- week 1: the dice check out" in text, text
    assert f"the revealed scouting secret matches the posted scouting commitment {_c(SCOUTING)}" in text
    assert "every scouting die of week 1 follows from the scouting secret" in text


def test_verify_dice_flags_another_scouting_secret_than_the_posted_commitment(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    text = w["script"].read_text(encoding="utf-8")
    other = tmp_path / "other.yaml"  # the GM seeded the scouting dice from another secret
    other.write_text(text.replace(SCOUTING, OTHER_SCOUTING).replace(_c(SCOUTING), _c(OTHER_SCOUTING)),
                     encoding="utf-8")
    code, out = _verify(capsys, other, "--commitment", _c(SECRET), "--scouting-commitment", _c(SCOUTING),
                        "--orders", *w["files"])
    assert code == 1 and f"is not the posted {_c(SCOUTING)}: another scouting secret was used" in out, out


def test_verify_dice_flags_a_scouting_commitment_reused_from_an_earlier_week(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    seed = next(ln for ln in w["script"].read_text(encoding="utf-8").splitlines() if "gm_scouting_seed" in ln)
    week2 = tmp_path / "week2.yaml"  # week 2's movement begins with week 1's scouting seed again
    week2.write_text(w["script"].read_text(encoding="utf-8") + seed.replace("week: 1", "week: 2") + "\n",
                     encoding="utf-8")
    _, rec, _ = replay(S, str(w["script"]))
    open_battles = {b.id for b in rec.state.open_games()}
    fighting = sorted({p for b in rec.state.open_games() for p in b.sides})
    tail = SCRIPT.read_text(encoding="utf-8").split("# Week 2", 1)[1]
    keep = []
    for ln in tail.splitlines():
        if "kind: orders" in ln:
            break
        m = re.search(r"battle: (B\d)", ln)
        if (m and m.group(1) not in open_battles) or ("narrative_done" in ln and not any(p in ln for p in fighting)):
            continue  # a battle week 1's dice ended
        keep.append(ln)
    week2.write_text(week2.read_text(encoding="utf-8") + "# Week 2" + "\n".join(keep) + "\n", encoding="utf-8")
    _, rec, refusals = replay(S, str(week2))
    assert not refusals and rec.state.week == 2 and rec.state.phase == "orders", refusals
    files = [str(order_file(tmp_path, p, 2)) for p in fighting]
    played = tmp_path / "week2-played.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(week2), *files, "--secret",
                           str(_secret_file(tmp_path / "s2.yaml", week=2, secret=SECRET[::-1], scouting=None)),
                           "--out", str(played))
    assert code == 0, err
    code, out = _verify(capsys, played, "--commitment", _c(SECRET[::-1]), "--scouting-commitment", _c(SCOUTING),
                        "--orders", *files, week=2)
    assert code == 1 and f"the scouting commitment {_c(SCOUTING)} (or its secret) was already used for the " \
                         "scouting dice of week 1" in out, out


def test_verify_dice_says_battles_started_without_a_scouting_seed_are_not_checked(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    files = [str(order_file(tmp_path, p)) for p in WEEK_ORDERS[1]]
    script = tmp_path / "unscouted.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *files, "--secret",
                           str(_secret_file(tmp_path / "s.yaml")), "--out", str(script))
    assert code == 0, err
    code, out = _verify(capsys, script, "--commitment", _c(SECRET), "--scouting-commitment", _c(SCOUTING),
                        "--orders", *files)
    assert code == 2 and "the dice check out" not in out, out
    assert "NOT CHECKED: the scouting dice of B1, B2: the week's battles started with no scouting seed" in out
    assert f"the posted scouting commitment {_c(SCOUTING)} was never used" in out


def test_verify_dice_flags_a_gm_move_between_the_scouting_seed_and_the_battles(tmp_path, capsys):
    w = _honest_week(tmp_path, capsys)
    lines = w["script"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if "gm_scouting_seed" in ln) + 1
    moved = tmp_path / "moved.yaml"  # the GM, who knows the scouting secret, nudges an army first
    moved.write_text("\n".join(lines[:at] + ["- {kind: gm_move_army, army: host, to: [28, 11]}"] + lines[at:])
                     + "\n", encoding="utf-8")
    code, out = _verify(capsys, moved, "--commitment", _c(SECRET), "--scouting-commitment", _c(SCOUTING),
                        "--orders", *w["files"])
    assert code == 1 and "a gm_move_army before the week's battles started" in out, out
