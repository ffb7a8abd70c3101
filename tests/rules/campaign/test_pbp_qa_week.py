"""A two-week play-by-post game of the teaching campaign as a forum group runs it (docs/campaign.md,
"Play by post"), and what its players and GM read: the brief gives what a player needs to fill a
draft (Generals, who fights, scouting, the enemy's forces, why a manoeuvre is not possible, the
hexes a Withdraw or a Breakthrough may name) and never tells how another side declared; status
and import --scouting know a week with no new battle; refusals name the file, the line and what
was expected; counts read "1 order"; report says a week is not over; a destroyed army is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import paths
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, head_before_orders, order_file
from tests.hostile.hostile import cli

S = str(SCENARIO)
LINES = SCRIPT.read_text(encoding="utf-8").splitlines()


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _head(tmp_path: Path, upto: str, *, extra: str = "", name: str = "head.yaml") -> Path:
    """The teaching script up to (not including) its first line starting with `upto`, then `extra`."""
    cut = next(i for i, ln in enumerate(LINES) if ln.startswith(upto))
    p = tmp_path / name
    p.write_text("\n".join(LINES[:cut]) + "\n" + extra, encoding="utf-8")
    return p


def _week2_pickup(tmp_path: Path) -> Path:
    """Week 2 of the teaching script once its movement is over: no two armies met, so no
    declaration was asked and the campaign is in the pick-up phase."""
    cut = next(i for i, ln in enumerate(LINES) if ln.startswith("# Week 2"))
    p = tmp_path / "week2-pickup.yaml"
    p.write_text("\n".join(LINES[:cut + 1] + ["- {kind: end_turn}"] * 4) + "\n", encoding="utf-8")
    return p


def _draft(tmp_path: Path, orders: str, player: str = "zones") -> Path:
    d = tmp_path / f"{player}-draft.yaml"
    d.write_text(f"campaign: {NAME}\nweek: 1\nplayer: {player}\norders:\n{orders}", encoding="utf-8")
    return d


# --------------------------------------------------------------------------- brief


def test_the_brief_gives_generals_who_fights_scouting_the_enemys_forces_and_the_hexes(tmp_path, capsys):
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(head_before_orders(tmp_path, 1)), "--player", "zones")
    assert code == 0, err
    assert "phase: battle orders (sealed) (waiting for you)" in out
    assert "## Your Generals\n- Colonel Brin (brin), level 1, with Lowmarch Rifle Corps at 21,27" in out
    assert "your Generals fighting: Colonel Brin (level 1)" in out
    assert "  - scouting: you " in out and " successes" in out
    assert "enemy army Jibril Second Corps (corps), 4 units, with Strategos Kiran (General, level 2):" in out
    assert "corps.1: Jibril Armoured Infantry Division, attack 5, defense 6, mobility 2, line" in out
    assert "Armour 2" in out  # the enemy's durability, as the map shows it
    assert "rifles.13: Zone Observation Balloon Corps, attack 0, defense 1, mobility 3, observer" in out
    assert "Withdraw (withdraw): vanguard (the rearguard) rifles.1" in out  # a Withdraw's unit is its rearguard
    assert "withdraw_to (where a Withdraw goes; up your route first): [20, 27]" in out
    assert "breakthrough_to (a Breakthrough's first hex, next to the battle): " in out


def test_the_brief_says_why_a_manoeuvre_is_not_possible_and_lists_no_withdraw_hexes_then(tmp_path, capsys):
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(head_before_orders(tmp_path, 2)), "--player", "zones")
    assert code == 0, err
    assert "in battle B1, pinned by a Block: no withdrawal this week" in out
    assert "Withdraw (withdraw): not possible (These forces were beaten by a Block" in out
    assert "withdraw_to" not in out.split("## Draft orders")[0]


def test_a_brief_with_nothing_to_order_says_why_and_writes_no_draft(tmp_path, capsys):
    # before the orders phase the draft is the phase's turn file (tests/io/test_campaign_pbp_turns.py),
    # never an order draft; with nothing to send (the Zones' movement turn is over) none is written
    draft = tmp_path / "zones-draft.yaml"
    head = _head(tmp_path, "- {kind: end_turn}", extra="- {kind: end_turn}\n")
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(head), "--player", "zones", "--draft", str(draft))
    assert code == 0, err
    assert "nothing to send in the movement phase: your movement turn is over this week" in out
    assert f"(no draft was written to {draft})" in out and not draft.exists()
    assert "orders: []" not in out  # no draft that seal would refuse
    done = head_before_orders(tmp_path, 1)
    done.write_text(done.read_text(encoding="utf-8") + LINES[next(i for i, ln in enumerate(LINES)
                                                                   if ln.startswith("- {kind: orders"))] + "\n")
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(done), "--player", "zones")
    assert code == 0 and "no orders to give: your orders are in for every battle of yours" in out, err


@pytest.mark.parametrize("command", ["brief", "status"])
def test_the_declare_phase_never_tells_a_player_how_the_other_side_declared(tmp_path, capsys, command):
    # one "fight" starts the battle and the other side is not asked: a brief or status saying
    # whether Jibril is still waited for would tell Jibril how the Zones declared
    texts = []
    for fight in ("true", "false"):
        head = _head(tmp_path, "- {kind: declare", name=f"head-{fight}.yaml",
                     extra=f"- {{kind: declare, player: zones, hex: [21, 27], fight: {fight}}}\n")
        argv = ["--player", "jibril"] if command == "brief" else []
        code, out, err, _ = cli(capsys, "campaign", command, S, str(head), *argv)
        assert code == 0, err
        texts.append(out)
    assert texts[0] == texts[1]
    if command == "brief":
        assert "phase: declare combat; send the GM fight or not for 21,27" in texts[0]
    else:
        assert "21,27: armies of The Zones and Jibril meet: each declares to the GM privately" in texts[0]


# --------------------------------------------------------------------------- a week with no new battle


def test_status_and_import_scouting_know_a_week_where_no_battle_began(tmp_path, capsys):
    head = _week2_pickup(tmp_path)
    code, out, err, _ = cli(capsys, "campaign", "status", S, str(head))
    assert code == 0, err
    assert "no battle began in week 2: no scouting dice were rolled, and no scouting seed is needed" in out
    assert "import --scouting puts it before" not in out
    assert "Generals' pick-up moves in player order; now: The Zones" in out
    secret = tmp_path / "gm-secret-week2.yaml"
    assert cli(capsys, "campaign", "commit", S, str(head), "--out", str(secret))[0] == 0
    out_file = tmp_path / "next.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), "--scouting", str(secret), "--out",
                           str(out_file))
    assert code == 1 and not out_file.exists()
    assert "no battle began and no scouting die was rolled this week: no scouting seed is needed" in err
    assert "command 17 (gm_scouting_seed)" not in err


# --------------------------------------------------------------------------- refusals and counts


def test_a_refused_order_names_the_line_and_the_players_own_battles(tmp_path, capsys):
    draft = _draft(tmp_path, "- battle: B1\n  manoeuvre: attack\n  vanguard: rifles.1\n"
                             "- battle: B2\n  manoeuvre: attack\n  vanguard: rifles.2\n")
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "o.yaml"), "--scenario", S,
                           "--game", str(head_before_orders(tmp_path, 1)))
    assert code == 1 and not (tmp_path / "o.yaml").exists()
    assert (f"{draft}: line 8: orders[1]: refused by the rules: The Zones are not a side of battle B2 "
            "(the battles of The Zones this week: B1)") in err


def test_seal_counts_one_order_and_says_when_to_send_the_file(tmp_path, capsys):
    draft = _draft(tmp_path, "- {battle: B1, manoeuvre: withdraw, vanguard: rifles.6, withdraw_to: [20, 27]}\n")
    out_file = tmp_path / "zones-week1.yaml"
    code, out, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(out_file), "--scenario", S,
                            "--game", str(head_before_orders(tmp_path, 1)))
    assert code == 0, err
    assert f"sealed 1 order of zones for week 1 in {out_file}" in out
    assert f"send {out_file} to the GM privately once every player's fingerprint of the week is posted" in out
    assert "1 orders" not in out


def test_import_names_the_first_file_of_a_player_and_a_file_given_twice(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    first = order_file(tmp_path, "zones")
    second = order_file(tmp_path, "zones", name="zones-again.yaml")
    out_file = tmp_path / "next.yaml"
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(head), str(first), str(second), str(first),
                            "--out", str(out_file))
    assert code == 1
    assert f"REFUSED {second}: line 4: player: a second order file of zones (the first, {first}, is taken" in err
    assert f"REFUSED {first}: line 4: player: the same file given twice" in err
    assert f"ok {first}: zones, 1 order\n" in err
    assert f"wrote {out_file} (1 order from 1 file added, 2 files refused)" in out


def test_verify_says_which_fingerprint_does_not_match(tmp_path, capsys):
    sealed = order_file(tmp_path, "zones")
    posted = next(ln.split(": ", 1)[1] for ln in sealed.read_text(encoding="utf-8").splitlines()
                  if ln.startswith("fingerprint:"))
    edited = tmp_path / "edited.yaml"
    edited.write_text(sealed.read_text(encoding="utf-8").replace("manoeuvre: withdraw", "manoeuvre: block"))
    code, out, _e, _ = cli(capsys, "campaign", "verify", str(edited), "--fingerprint", posted)
    assert code == 1 and "FINGERPRINT DOES NOT MATCH" in out and "1 order)" in out
    assert f"not the posted {posted}; the file's fingerprint line is the posted one, so a field was changed" in out
    code, out, _e, _ = cli(capsys, "campaign", "verify", str(edited))
    assert code == 1 and f"but its fingerprint line says {posted}: a field was changed after sealing" in out
    resealed = order_file(tmp_path, "zones", name="resealed.yaml")
    code, out, _e, _ = cli(capsys, "campaign", "verify", str(resealed), "--fingerprint", posted)
    assert code == 1 and "sealed again after the post?" in out
    head = head_before_orders(tmp_path, 1)
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(edited), "--out", str(tmp_path / "n.yaml"))
    assert code == 1 and f"REFUSED {edited}: line " in err and "(changed after sealing)" in err


def test_commit_never_replaces_a_secret_file_and_says_why(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    secret = tmp_path / "gm-secret-week1.yaml"
    assert cli(capsys, "campaign", "commit", S, str(head), "--out", str(secret))[0] == 0
    before = secret.read_text(encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "commit", S, str(head), "--out", str(secret))
    assert code == 1 and secret.read_text(encoding="utf-8") == before
    assert f"{secret}: already exists (a GM's dice secret file); not overwriting it (its commitments may be posted" \
           in err and "gm-secret-week1-2.yaml" in err


# --------------------------------------------------------------------------- reports


@pytest.mark.parametrize("fmt", ["md", "bbcode"])
def test_a_report_of_a_week_not_over_says_so_in_the_post_and_shows_no_order(tmp_path, capsys, fmt):
    head = head_before_orders(tmp_path, 1)
    half = tmp_path / "half.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(order_file(tmp_path, "zones")), "--out",
                           str(half))
    assert code == 0, err
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(half), "--week", "1", "--format", fmt)
    assert code == 0, err
    note = ("Week 1 is not over (battle orders (sealed), waiting for Jibril, Resistance Fronts, Zenith Empire): "
            "this is the week so far")
    assert note in out.splitlines()[2] and note in err
    assert "Withdraw" not in out and "rifles.6" not in out  # the Zones' sealed order stays sealed


def test_report_and_verify_dice_of_a_week_with_nothing_yet_say_so(capsys):
    for argv in (["report"], ["verify-dice"]):
        code, _o, err, _ = cli(capsys, "campaign", *argv, S, str(SCRIPT), "--week", "3")
        assert code == 1
        assert "week 3 has begun but nothing happened in it yet (movement)" in err
    code, _o, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "9")
    assert code == 1 and "does not reach week 9 (it is in week 3)" in err


def test_the_report_names_an_army_destroyed_in_the_week(capsys):
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "2")
    assert code == 0, err
    assert "- Stonegate Front is destroyed" in out and "- front is destroyed" not in out


def test_import_with_the_posted_fingerprints_refuses_a_file_sealed_again_after_the_post(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    sealed = order_file(tmp_path, "zones")
    posted = next(ln.split(": ", 1)[1] for ln in sealed.read_text(encoding="utf-8").splitlines()
                  if ln.startswith("fingerprint:"))
    again = order_file(tmp_path, "zones", name="zones-again.yaml")  # other orders could be in it: a fresh salt
    jibril = order_file(tmp_path, "jibril")
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(head), str(again), str(jibril), "--fingerprint",
                            f"zones={posted}")
    assert code == 1 and out == ""
    assert f"REFUSED {again}: line " in err and f"is not the fingerprint zones posted, {posted}" in err
    assert f"REFUSED {jibril}: line 4: player: no posted fingerprint of jibril given" in err
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(head), str(sealed), "--fingerprint",
                            f"zones={posted}")
    assert code == 0 and "player: zones" in out, err
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(sealed), "--fingerprint", "Zones=abc")
    assert code == 1 and "no player 'Zones'; players are zones, resistance, zenith, jibril (spelt exactly)" in err


def test_plan_refuses_a_battle_the_player_is_not_in_naming_theirs(tmp_path, capsys):
    code, out, err, _ = cli(capsys, "campaign", "plan", S, str(head_before_orders(tmp_path, 1)), "--battle", "B2",
                            "--player", "zones")
    assert code == 1 and "planner for" not in out
    assert "--battle B2: The Zones are not a side of battle B2 (the battles of The Zones this week: B1)" in err


def test_casualties_beyond_the_units_left_are_said_not_lost_from_the_line():
    # a report line '5 casualties (four units x1)' leaves a reader looking for the fifth
    from game.systems.campaign.cli.campaign import replay
    from game.systems.campaign.rules.describe import event_text
    from game.systems.campaign.rules.events import CasualtiesPlaced

    _, rec, _ = replay(S, str(SCRIPT))
    state = rec.steps[0].before
    units = ("front.1", "front.2", "front.3", "front.4")
    e = CasualtiesPlaced(battle="B2", player="resistance", count=5, rolled=5, mitigated=0, extra=0,
                         placed=tuple((u, 1) for u in units), destroyed=units)
    line = event_text(state, e)
    assert "Resistance Fronts take 5 casualties (" in line and "; 1 more with no unit left to take it)" in line
    e2 = e.model_copy(update={"count": 4})
    assert "no unit left" not in event_text(state, e2)


def test_the_reports_map_moves_start_at_the_hex_each_army_left(capsys):
    # a move's path holds the hexes entered; without the hex left, '28,10 > 28,11' reads as a
    # one-hex move from 28,10 while the Host came from 29,9
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1")
    assert code == 0, err
    assert "- Host of the Ember Crown: 29,9 > 28,10 > 28,11 (stopped: enemy)" in out
    assert "- Jibril Second Corps: 24,27 > 23,26 > 22,27 > 21,27 (stopped: enemy)" in out


def test_import_secret_after_orders_imported_without_it_says_the_seed_goes_first(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    half = tmp_path / "half.yaml"
    assert cli(capsys, "campaign", "import", S, str(head), str(order_file(tmp_path, "zones")), "--out",
               str(half))[0] == 0
    secret = tmp_path / "gm-secret-week1.yaml"
    assert cli(capsys, "campaign", "commit", S, str(head), "--out", str(secret))[0] == 0
    rest = [str(order_file(tmp_path, p)) for p in ("jibril", "resistance", "zenith")]
    out_file = tmp_path / "seeded.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(half), *rest, "--secret", str(secret), "--out",
                           str(out_file))
    assert code == 1 and not out_file.exists()
    assert (f"{half}: orders of week 1 are already in it (of The Zones, imported without --secret), and the week's "
            "dice seed goes before its first order") in err
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(half), *rest, "--out", str(out_file))
    assert code == 0, err
    assert "note: week 1 is resolved with no dice seed (no --secret)" in err


@pytest.mark.parametrize(("field", "said"), [
    ("  stratagems: flee\n", "line 8: orders[0].stratagems: expected a list in brackets, e.g. stratagems: [flee], "
                             "or [] for none; got a string 'flee'"),
    ("  withdraw_to: 20,27\n", "line 8: orders[0].withdraw_to: expected a hex as [column, row], e.g. withdraw_to: "
                               "[20, 27]; got a string '20,27'"),
    ("  withdraw_to: [20]\n", "line 8: orders[0].withdraw_to: expected a hex as [column, row]"),
])
def test_a_hand_edited_draft_with_a_list_or_hex_mistyped_says_what_to_write(tmp_path, capsys, field, said):
    draft = _draft(tmp_path, "- battle: B1\n  manoeuvre: withdraw\n  vanguard: rifles.6\n" + field)
    out_file = tmp_path / "o.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(out_file), "--scenario", S, "--game",
                           str(head_before_orders(tmp_path, 1)))
    assert code == 1 and not out_file.exists()
    assert f"{draft}: {said}" in err and "valid tuple" not in err


def test_the_movement_brief_gives_movement_points_and_the_other_armies_on_the_map(tmp_path, capsys):
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(SCRIPT), "--player", "zenith")  # week 3, movement
    assert code == 0, err
    assert "phase: movement" in out
    assert "- Host of the Ember Crown (host) at " in out and " movement points" in out
    assert "## Other armies on the map" in out and "Jibril Second Corps (corps) of Jibril at " in out
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(SCRIPT), "--player", "jibril")
    assert code == 0, err
    assert "Jibril Second Corps (corps) at " in out


def test_import_over_an_older_script_says_where_the_old_one_is_kept(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    target = tmp_path / "next.yaml"
    target.write_text("- {kind: end_turn}\n", encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(head), str(order_file(tmp_path, "zones")), "--out",
                            str(target))
    assert code == 0, err
    assert f"the file it replaced is kept as {target}.bak" in out
    assert (tmp_path / "next.yaml.bak").read_text(encoding="utf-8") == "- {kind: end_turn}\n"


def test_commit_after_orders_of_the_week_are_in_says_the_secret_cannot_draw_them(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    half = tmp_path / "half.yaml"
    assert cli(capsys, "campaign", "import", S, str(head), str(order_file(tmp_path, "zones")), "--out",
               str(half))[0] == 0
    code, out, err, _ = cli(capsys, "campaign", "commit", S, str(half), "--out", str(tmp_path / "late.yaml"))
    assert code == 0, err
    assert (f"note: orders of week 1 are already in {half}: the dice seed goes before the week's first order, so "
            "this secret cannot draw this week's dice") in out
    code, out, err, _ = cli(capsys, "campaign", "commit", S, str(head), "--out", str(tmp_path / "early.yaml"))
    assert code == 0 and "cannot draw" not in out, err


def test_a_report_in_the_declare_phase_is_refused_it_would_show_the_scouting_secret(tmp_path, capsys):
    head = _head(tmp_path, "- {kind: declare")
    secret = tmp_path / "gm-secret-week1.yaml"
    assert cli(capsys, "campaign", "commit", S, str(head), "--out", str(secret))[0] == 0
    scouted = tmp_path / "scouted.yaml"
    assert cli(capsys, "campaign", "import", S, str(head), "--scouting", str(secret), "--out", str(scouted))[0] == 0
    scouting_secret = next(ln.split(": ", 1)[1] for ln in secret.read_text(encoding="utf-8").splitlines()
                           if ln.startswith("scouting_secret:"))
    declared = tmp_path / "declared.yaml"
    declared.write_text(scouted.read_text(encoding="utf-8")
                        + "- {kind: declare, player: zones, hex: [21, 27], fight: false}\n", encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(declared), "--week", "1")
    assert code == 1 and scouting_secret not in out + err and "declines" not in out + err
    assert f"{declared}: week 1 is in its declare combat phase: a report now would show the scouting secret" in err
    code, out, err, _ = cli(capsys, "campaign", "status", S, str(declared))
    assert code == 0 and scouting_secret not in out, err


def test_a_draft_naming_a_rearguard_is_told_to_write_it_as_the_vanguard(tmp_path, capsys):
    # the brief calls a Withdraw's unit its rearguard; the order's field is still vanguard
    draft = _draft(tmp_path, "- battle: B1\n  manoeuvre: withdraw\n  rearguard: rifles.6\n")
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "o.yaml"))
    assert code == 1
    assert (f"{draft}: line 7: orders[0].rearguard: a Withdraw's rearguard is written as its vanguard: "
            "vanguard: UNIT") in err


def test_a_refused_overwrite_says_what_the_file_there_would_lose(tmp_path, capsys):
    sealed = order_file(tmp_path, "zones")
    before = sealed.read_text(encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "brief", S, str(head_before_orders(tmp_path, 1)), "--player", "zones",
                           "--draft", str(sealed))
    assert code == 1 and sealed.read_text(encoding="utf-8") == before
    assert (f"{sealed}: already exists (a sealed order file); not overwriting it (it holds the salt behind a "
            "fingerprint that may be posted already); name another file for the draft") in err
