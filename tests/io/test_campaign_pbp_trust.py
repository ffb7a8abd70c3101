"""A distrustful play-by-post group on the command line (docs/campaign.md, "Play by post" and "The
dice"): a GM who swaps a salt, reuses a revealed secret or acts after the seed is caught; a game
script with a refused command is refused by the commands the players trust; no command writes over
an order file, a GM's secret, a draft or a report; a misnamed player or a file of the wrong kind is
refused saying what was expected."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.__main__ import main
from game.systems.campaign.io.files import OrderEntry, make_orders_file, write_orders_file
from tests.hostile.campaignfix import SCENARIO, SCRIPT, WEEK_ORDERS, head_before_orders
from tests.hostile.hostile import cli

S = str(SCENARIO)
NAME = "Campaign teaching scenario"
SECRET = "9f2c41d7e8a0b3c5d6f718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d"
COMMITMENT = "sha256:" + hashlib.sha256(SECRET.encode()).hexdigest()
SALTS = {"zones": "7c1e9a2f4b6d8e0a3c5f7b9d1e2a4c6f", "jibril": "3a8f2d6c9e1b4f7a0d3c6e9b2f5a8d1c",
         "resistance": "e4b7a1d9c3f6e2b8a5d1c7f4e9b3a6d2", "zenith": "5d9a3e7c1f8b4d2a6e0c9f3b7a1d5e8c"}
PLAYERS = ("zones", "jibril", "resistance", "zenith")
SCOUTING = "4e6a8c0b2d4f6e8a0c2e4a6b8d0f2e4c6a8b0d2f4e6c8a0b2d4f6e8c0a2b4d6f"
SCOUTING_COMMITMENT = "sha256:" + hashlib.sha256(SCOUTING.encode()).hexdigest()


def _secret_file(path: Path, week: int = 1, secret: str = SECRET, scouting: str | None = None) -> Path:
    commitment = "sha256:" + hashlib.sha256(secret.encode()).hexdigest()
    text = (f"kind: campaign-dice-secret\ncampaign: {NAME}\nweek: {week}\nsecret: {secret}\n"
            f"commitment: {commitment}\n")
    if scouting is not None:
        text += (f"scouting_secret: {scouting}\n"
                 f"scouting_commitment: sha256:{hashlib.sha256(scouting.encode()).hexdigest()}\n")
    path.write_text(text, encoding="utf-8")
    return path


def _scouted(head: Path, secret: Path) -> Path:
    """`head` with the week's scouting seed from `secret` put before its first declaration."""
    out = head.with_name(head.stem + "-scouted.yaml")
    assert main(["campaign", "import", S, str(head), "--scouting", str(secret), "--out", str(out)]) == 0
    return out


def _sealed(folder: Path, player: str, week: int, orders: list[OrderEntry], salt: str | None = None) -> Path:
    p = folder / f"{player}-week{week}.yaml"
    write_orders_file(p, make_orders_file(NAME, week, player, orders, salt))
    return p


@pytest.fixture(scope="module")
def week1(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Week 1 of the teaching campaign played under the dice protocol with a fixed secret and
    fixed salts (the QA tester's game), and week 2 up to its orders."""
    folder = tmp_path_factory.mktemp("pbp")
    secret = _secret_file(folder / "gm-secret-week1.yaml", scouting=SCOUTING)
    head = _scouted(head_before_orders(folder, 1), secret)
    files = [_sealed(folder, p, 1, WEEK_ORDERS[1][p], SALTS[p]) for p in PLAYERS]
    seeded = folder / "week1-seeded.yaml"
    assert main(["campaign", "import", S, str(head), *map(str, files), "--secret", str(secret),
                 "--out", str(seeded)]) == 0
    # week 2 as the seeded dice leave it: B2 is over, only B1 is open (the Zones against Jibril)
    week2 = folder / "week2.yaml"
    tail = SCRIPT.read_text(encoding="utf-8").split("# Week 2", 1)[1].splitlines()
    keep = []
    for ln in tail:
        if "kind: orders" in ln and "battle: B1" in ln:
            break
        if "battle: B2" in ln or re.search(r"done, player: (resistance|zenith)", ln):
            continue
        keep.append(ln)
    week2.write_text(seeded.read_text(encoding="utf-8") + "# Week 2" + "\n".join(keep) + "\n", encoding="utf-8")
    return {"folder": folder, "head": head, "secret": secret, "files": [str(f) for f in files], "seeded": seeded,
            "week2": week2}


def _verify(capsys: Any, script: Path, *extra: str, week: int = 1) -> tuple[int, str]:
    code, out, err, _ = cli(capsys, "campaign", "verify-dice", S, str(script), "--week", str(week), *extra)
    assert "Traceback" not in err
    return code, out + err


def _with_salt(w: dict[str, Any], tmp_path: Path, player: str, salt: str) -> Path:
    text = w["seeded"].read_text(encoding="utf-8")
    assert f"{player}: {SALTS[player]}" in text
    p = tmp_path / "swapped.yaml"
    p.write_text(text.replace(f"{player}: {SALTS[player]}", f"{player}: {salt}"), encoding="utf-8")
    return p


def _after_seed(w: dict[str, Any], tmp_path: Path, command: str) -> Path:
    """The seeded week 1 with `command` (one YAML flow line) just after the dice seed."""
    lines = w["seeded"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if "gm_dice_seed" in ln) + 1
    while lines[at].startswith("  "):
        at += 1
    p = tmp_path / "after-seed.yaml"
    p.write_text("\n".join(lines[:at] + [command] + lines[at:]) + "\n", encoding="utf-8")
    return p


# --------------------------------------------------------------------------- 1. a swapped salt


def test_report_with_orders_refuses_a_seed_whose_salt_is_not_the_one_sealed(week1, tmp_path, capsys):
    swapped = _with_salt(week1, tmp_path, "zones", SALTS["zones"][:-2] + "a1")
    out = tmp_path / "report.md"
    code, text, err, _ = cli(capsys, "campaign", "report", S, str(swapped), "--week", "1", "--orders",
                             *week1["files"], "--out", str(out))
    assert code == 1 and not out.exists(), err
    assert "zones-week1.yaml: salt: zones sealed the salt " + SALTS["zones"] in err
    assert SALTS["zones"][:-2] + "a1" in err and "not drawn from the sealed salt" in err
    # the honest week still reports
    code, text, err, _ = cli(capsys, "campaign", "report", S, str(week1["seeded"]), "--week", "1", "--orders",
                             *week1["files"])
    assert code == 0 and SALTS["zones"] in text, err


def test_verify_dice_without_every_players_salt_checked_never_says_the_dice_check_out(week1, tmp_path, capsys):
    swapped = _with_salt(week1, tmp_path, "zones", SALTS["zones"][:-2] + "a1")
    code, text = _verify(capsys, swapped, "--commitment", COMMITMENT)
    assert code == 2 and "the dice check out" not in text and "-- week 1: NOT CHECKED (5 left unchecked)" in text
    for p in PLAYERS:
        assert f"NOT CHECKED: the salt of {p}: give its order file with --orders, or --fingerprint {p}=POSTED" \
            in text
    # three of four checked: still not
    code, text = _verify(capsys, week1["seeded"], "--commitment", COMMITMENT, "--orders", *week1["files"][1:])
    assert code == 2 and "NOT CHECKED: the salt of zones" in text and "the dice check out" not in text
    # no posted commitment: not checked either
    code, text = _verify(capsys, week1["seeded"], "--orders", *week1["files"])
    assert code == 2 and "NOT CHECKED: the commitment" in text and "the dice check out" not in text
    # no posted scouting commitment: not checked either
    code, text = _verify(capsys, week1["seeded"], "--commitment", COMMITMENT, "--orders", *week1["files"])
    assert code == 2 and "NOT CHECKED: the scouting commitment" in text and "the dice check out" not in text
    # everything given: they check out
    code, text = _verify(capsys, week1["seeded"], "--commitment", COMMITMENT, "--scouting-commitment",
                         SCOUTING_COMMITMENT, "--orders", *week1["files"])
    assert code == 0 and "-- week 1: the dice check out" in text, text


# --------------------------------------------------------------------------- 2. a reused secret, GM commands after the seed


def test_import_refuses_a_secret_whose_commitment_drew_an_earlier_week(week1, tmp_path, capsys):
    again = _secret_file(tmp_path / "gm-secret-week2.yaml", week=2)
    files = [str(_sealed(tmp_path, p, 2, WEEK_ORDERS[2][p])) for p in ("zones", "jibril")]
    out = tmp_path / "week2-seeded.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(week1["week2"]), *files, "--secret", str(again),
                           "--out", str(out))
    assert code == 1 and not out.exists(), err
    assert f"{again}: commitment: this secret already drew the dice of week 1" in err
    # a fresh secret is taken
    fresh = _secret_file(tmp_path / "gm-secret-fresh.yaml", week=2, secret=SECRET[::-1])
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(week1["week2"]), *files, "--secret", str(fresh),
                           "--out", str(out))
    assert code == 0 and out.exists(), err


def test_verify_dice_flags_a_commitment_already_used_in_an_earlier_week(week1, tmp_path, capsys):
    files = [str(_sealed(tmp_path, p, 2, WEEK_ORDERS[2][p], SALTS[p][::-1])) for p in ("zones", "jibril")]
    seed = {"kind": "gm_dice_seed", "week": 2, "commitment": COMMITMENT, "secret": SECRET,
            "salts": {"zones": SALTS["zones"][::-1], "jibril": SALTS["jibril"][::-1]}}
    orders = [{"kind": "orders", "player": p, **o.model_dump(mode="json")} for p in ("zones", "jibril")
              for o in WEEK_ORDERS[2][p]]
    script = tmp_path / "reused.yaml"
    script.write_text(week1["week2"].read_text(encoding="utf-8") + yaml.safe_dump([seed, *orders]), encoding="utf-8")
    code, text = _verify(capsys, script, "--commitment", COMMITMENT, "--orders", *files, week=2)
    assert code == 1, text
    assert f"PROBLEM: the seed's commitment {COMMITMENT} already drew the dice of week 1" in text
    assert "the dice check out" not in text


@pytest.mark.parametrize("command", [
    "- {kind: gm_battle_dice, battle: B1, player: jibril, dice: 3, reason: a hero}",
    "- {kind: gm_set_general, general: kiran, level: 3}",
    "- {kind: gm_force_rolls, values: [6, 6, 6]}",
])
def test_verify_dice_lists_a_gm_command_after_the_seed_as_a_problem(week1, tmp_path, capsys, command):
    kind = command.split("kind: ")[1].split(",")[0]
    script = _after_seed(week1, tmp_path, command)
    code, text = _verify(capsys, script, "--commitment", COMMITMENT, "--orders", *week1["files"])
    assert code == 1 and f"PROBLEM: a {kind} after the seed (command " in text, text
    assert "the dice check out" not in text


# --------------------------------------------------------------------------- 3. refused commands in the game script


def _refusing(w: dict[str, Any], tmp_path: Path) -> tuple[Path, int]:
    """Week 1 with Jibril's corps moved one hex past the enemy it must stop at (the QA tester's
    edit): refused, and so is every command after it that needed it. (script, its line)"""
    lines = w["seeded"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.endswith("[22, 27], [21, 27]]}"))
    lines[at] = lines[at].replace("[21, 27]]}", "[21, 27], [20, 27]]}")
    p = tmp_path / "refusing.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p, at + 1


@pytest.mark.parametrize("argv", [
    ["report", S, "{script}", "--week", "1"],
    ["verify-dice", S, "{script}", "--week", "1", "--commitment", COMMITMENT],
    ["commit", S, "{script}", "--out", "{tmp}/secret.yaml"],
    ["seal", "{draft}", "--out", "{tmp}/sealed.yaml", "--scenario", S, "--game", "{script}"],
    ["import", S, "{script}", "{file}"],
])
def test_trust_commands_refuse_a_game_script_with_a_refused_command_naming_its_line(week1, tmp_path, capsys, argv):
    script, line = _refusing(week1, tmp_path)
    draft = tmp_path / "draft.yaml"
    draft.write_text(f"campaign: {NAME}\nweek: 2\nplayer: zones\norders: []\n", encoding="utf-8")
    args = [a.format(script=script, tmp=tmp_path, draft=draft, file=week1["files"][0]) for a in argv]
    code, out, err, _ = cli(capsys, "campaign", *args)
    assert code == 1 and "Traceback" not in err, err
    assert f"{script}: line " in err and "refused by the rules" in err, err
    got = int(err.split(f"{script}: line ")[1].split(":")[0])
    assert got == line, (got, line, err)
    assert "the dice check out" not in out and not (tmp_path / "secret.yaml").exists()
    assert not (tmp_path / "sealed.yaml").exists()


@pytest.mark.parametrize("argv", [
    ["status", S, "{script}"],
    ["brief", S, "{script}", "--player", "zones"],
    ["plan", S, "{script}", "--battle", "B1", "--player", "zones"],
])
def test_status_brief_and_plan_warn_that_the_script_has_a_refused_command(week1, tmp_path, capsys, argv):
    script, line = _refusing(week1, tmp_path)
    code, _out, err, _ = cli(capsys, "campaign", *[a.format(script=script) for a in argv])
    assert "Traceback" not in err
    assert f"warning: {script}: line {line}: command " in err and "refused by the rules" in err, err
    assert "shown without the refused commands" in err


# --------------------------------------------------------------------------- 4. files never overwritten


def test_seal_never_overwrites_an_existing_order_file(week1, tmp_path, capsys):
    sealed = _sealed(tmp_path, "zones", 1, WEEK_ORDERS[1]["zones"])
    before = sealed.read_text(encoding="utf-8")
    draft = tmp_path / "zones-draft.yaml"
    draft.write_text(f"campaign: {NAME}\nweek: 1\nplayer: zones\norders:\n"
                     "- {battle: B1, manoeuvre: block, vanguard: rifles.6}\n", encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(sealed))
    assert code == 1 and sealed.read_text(encoding="utf-8") == before, err
    assert f"{sealed}: already exists (a sealed order file); not overwriting it" in err
    assert "zones-week1-2.yaml" in err


def test_brief_never_overwrites_an_edited_draft(week1, tmp_path, capsys):
    draft = tmp_path / "zones-draft.yaml"
    draft.write_text("# my edits\n", encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "brief", S, str(week1["head"]), "--player", "zones", "--draft",
                           str(draft))
    assert code == 1 and draft.read_text(encoding="utf-8") == "# my edits\n"
    assert f"{draft}: already exists" in err and "zones-draft-2.yaml" in err


def test_report_out_never_overwrites_an_existing_file_such_as_a_gm_secret(week1, tmp_path, capsys):
    secret = _secret_file(tmp_path / "gm-secret-week1.yaml")
    before = secret.read_text(encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "report", S, str(week1["seeded"]), "--week", "1", "--out",
                           str(secret))
    assert code == 1 and secret.read_text(encoding="utf-8") == before
    assert f"{secret}: already exists (a GM's dice secret file); not overwriting it" in err
    assert "gm-secret-week1-2.yaml" in err


@pytest.mark.parametrize("victim", ["secret", "order"])
def test_import_out_never_overwrites_a_gm_secret_or_an_order_file(week1, tmp_path, capsys, victim):
    target = (_secret_file(tmp_path / "gm-secret.yaml") if victim == "secret" else
              _sealed(tmp_path, "zenith", 1, WEEK_ORDERS[1]["zenith"]))
    before = target.read_text(encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(week1["head"]), week1["files"][0], "--out",
                           str(target))
    assert code == 1 and target.read_text(encoding="utf-8") == before, err
    assert f"{target}: is a " in err and "never overwritten" in err


# --------------------------------------------------------------------------- 5. fingerprints of unknown players


@pytest.mark.parametrize("who", ["Zones", "jibrl"])
def test_verify_dice_refuses_a_fingerprint_of_a_miscased_or_unknown_player(week1, capsys, who):
    fp = make_orders_file(NAME, 1, "zones", WEEK_ORDERS[1]["zones"], SALTS["zones"]).fingerprint
    code, text = _verify(capsys, week1["seeded"], "--commitment", COMMITMENT, "--orders", *week1["files"][1:],
                         "--fingerprint", f"{who}={fp}")
    assert code == 1 and f"no player '{who}' gives orders in week 1" in text
    assert "jibril, resistance, zenith, zones" in text and "the dice check out" not in text


# --------------------------------------------------------------------------- 6. what a wrong file is


@pytest.mark.parametrize(("make", "expect"), [
    ("secret", "kind: a GM's dice secret file (campaign commit), not an order file"),
    ("draft", "a draft of orders, not sealed (no salt, no fingerprint); seal it first"),
    ("script", "a command script, not an order file"),
])
def test_an_order_file_argument_of_another_kind_says_what_it_is(week1, tmp_path, capsys, make, expect):
    if make == "secret":
        p = _secret_file(tmp_path / "gm-secret-week1.yaml")
    elif make == "draft":
        p = tmp_path / "zones-draft.yaml"
        p.write_text(f"campaign: {NAME}\nweek: 1\nplayer: zones\norders: []\n", encoding="utf-8")
    else:
        p = week1["head"]
    for argv in (["verify", str(p)], ["import", S, str(week1["head"]), str(p)],
                 ["report", S, str(week1["seeded"]), "--week", "1", "--orders", str(p)],
                 ["verify-dice", S, str(week1["seeded"]), "--week", "1", "--orders", str(p)]):
        code, _o, err, _ = cli(capsys, "campaign", *argv)
        assert code == 1 and f"{p}: {expect}" in err, (argv, err)


def test_seal_refuses_a_draft_with_no_orders_for_a_player_with_no_battle(week1, tmp_path, capsys):
    draft = tmp_path / "resistance-d2.yaml"
    draft.write_text(f"campaign: {NAME}\nweek: 2\nplayer: resistance\norders: []\n", encoding="utf-8")
    out = tmp_path / "resistance-week2.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(out), "--scenario", S, "--game",
                           str(week1["week2"]))
    assert code == 1 and not out.exists() and f"{draft}: line 4: orders: no orders to seal" in err, err


def test_import_with_a_secret_names_a_player_whose_file_is_not_wanted(week1, tmp_path, capsys):
    files = [str(_sealed(tmp_path, p, 2, WEEK_ORDERS[2][p])) for p in ("zones", "jibril")]
    empty = tmp_path / "resistance-week2.yaml"
    write_orders_file(empty, make_orders_file(NAME, 2, "resistance", []))
    fresh = _secret_file(tmp_path / "gm-secret-week2.yaml", week=2, secret=SECRET[::-1])
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(week1["week2"]), *files, str(empty), "--secret",
                           str(fresh), "--out", str(tmp_path / "out.yaml"))
    assert code == 1 and "not giving orders this week (no battle on the tables): resistance" in err, err
    assert "(jibril, zones)" in err


def test_verify_dice_says_an_order_file_is_of_another_week(week1, tmp_path, capsys):
    files = [str(_sealed(tmp_path, p, 2, WEEK_ORDERS[2][p], SALTS[p][::-1])) for p in ("zones", "jibril")]
    code, text = _verify(capsys, week1["seeded"], "--commitment", COMMITMENT, "--orders", files[0])
    assert code == 1 and f"{files[0]}: week: orders for week 2, not week 1" in text, text


def test_seal_given_a_gm_secret_as_its_draft_says_what_it_is(tmp_path, capsys):
    secret = _secret_file(tmp_path / "gm-secret-week1.yaml")
    out = tmp_path / "sealed.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(secret), "--out", str(out))
    assert code == 1 and not out.exists()
    assert f"{secret}: kind: a GM's dice secret file (campaign commit), not a draft of orders" in err, err


def test_verify_dice_points_out_a_gm_command_of_the_orders_phase_placed_before_the_seed(week1, tmp_path, capsys):
    lines = week1["seeded"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if "gm_dice_seed" in ln)
    script = tmp_path / "before-seed.yaml"
    script.write_text("\n".join(lines[:at] + ["- {kind: gm_battle_dice, battle: B1, player: jibril, dice: 3, "
                                               "reason: a hero}"] + lines[at:]) + "\n", encoding="utf-8")
    code, text = _verify(capsys, script, "--commitment", COMMITMENT, "--orders", *week1["files"])
    assert "a gm_battle_dice in the orders phase before the seed" in text, text
    assert "check it was posted before the orders were sealed" in text


def test_verify_dice_notes_the_result_of_a_battle_fought_out_as_its_own_saves_not_a_problem(tmp_path, capsys):
    """A battle the GM chose before the seed to fight out at another scale ends by gm_battle_result,
    after the seed: its result is its battle save's (`replay --verify` checks it), so it is said,
    not counted a problem; the same result with no save behind it still is one."""
    secret = _secret_file(tmp_path / "gm-secret-week1.yaml", scouting=SCOUTING)
    head = _scouted(head_before_orders(tmp_path, 1), secret)
    text = head.read_text(encoding="utf-8")
    head.write_text(text + "- {kind: gm_battle_choice, battle: B2, scale: tactical, save: battles/b2.yaml}\n",
                    encoding="utf-8")
    files = [_sealed(tmp_path, p, 1, WEEK_ORDERS[1][p], SALTS[p]) for p in ("zones", "jibril")]
    seeded = tmp_path / "seeded.yaml"
    assert main(["campaign", "import", S, str(head), *map(str, files), "--secret", str(secret),
                 "--out", str(seeded)]) == 0
    capsys.readouterr()
    result = ("- {kind: gm_battle_result, battle: B2, winner: resistance, band: 1, source: {scale: tactical, "
              "save: battles/b2.yaml, checksum: 'sha256:00'}}")
    fought = tmp_path / "fought.yaml"
    fought.write_text(seeded.read_text(encoding="utf-8") + result + "\n", encoding="utf-8")
    code, out = _verify(capsys, fought, "--commitment", COMMITMENT, "--scouting-commitment", SCOUTING_COMMITMENT,
                        "--orders", *map(str, files))
    assert code == 0 and "the result of battle B2, fought out at the tactical scale" in out, out
    assert "PROBLEM" not in out and "the dice check out" in out
    bare = tmp_path / "bare.yaml"
    bare.write_text(seeded.read_text(encoding="utf-8") + result.split(", source:")[0] + "}\n", encoding="utf-8")
    code, out = _verify(capsys, bare, "--commitment", COMMITMENT, "--orders", *map(str, files))
    assert code == 1 and "PROBLEM: a gm_battle_result after the seed" in out, out
