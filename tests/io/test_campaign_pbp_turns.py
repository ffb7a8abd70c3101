"""Play by post for the whole week (docs/campaign.md, "Play by post"): a player's moves, pick-up
moves, declarations and story posts reach the GM's script as turn files that `campaign brief
--draft` drafts and `campaign import` checks against the player's view and the rules, putting
the commands in the rules' order (movement and pick-up in player order, each turn ended; posts by
battle, each player's posting ended) or refusing the files naming the file, line, field and
reason, with nothing written."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from game import paths
from game.systems.campaign.cli.campaign import replay
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, order_file, scenario_copy
from tests.hostile.hostile import cli

S = str(SCENARIO)
LINES = SCRIPT.read_text(encoding="utf-8").splitlines()

# Week 1 of maps/campaign/teaching-commands.yaml, as the players' files say it (phase -> player -> list)
WEEK1 = {
    "movement": {"zones": "moves: []", "resistance": "moves: []",
                 "zenith": "moves:\n- {army: host, path: [[28, 10], [28, 11]]}",
                 "jibril": "moves:\n- {army: corps, path: [[23, 26], [22, 27], [21, 27]]}"},
    "declare": {"zones": "declarations:\n- {hex: [21, 27], fight: false}",
                "jibril": "declarations:\n- {hex: [21, 27], fight: true}",
                "resistance": "declarations:\n- {hex: [28, 11], fight: true}"},
    "pickup": {p: "pickups: []" for p in ("zones", "resistance", "zenith", "jibril")},
    "narrative": {
        "zones": 'posts:\n- {battle: B1, text: "Colonel Brin orders the rifles back along the Lowmarch road.", '
                 "generals: [brin]}",
        "jibril": 'posts:\n- {battle: B1, text: "Strategos Kiran throws a cordon across the road.", generals: [kiran]}',
        "resistance": 'posts:\n- {battle: B2, text: "Ysolde Varn sends her rangers round the flank.", '
                      "generals: [varn]}",
        "zenith": 'posts:\n- {battle: B2, text: "Prince Aurel plants his banner on the wall.", generals: [aurel]}'},
}


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def turn_file(tmp_path: Path, player: str, phase: str, body: str | None = None, *, week: int = 1,
              campaign: str = NAME, name: str = "") -> Path:
    p = tmp_path / (name or f"{player}-week{week}-{phase}.yaml")
    p.write_text(f"kind: campaign-turn\ncampaign: {campaign}\nweek: {week}\nplayer: {player}\nphase: {phase}\n"
                 f"{WEEK1[phase][player] if body is None else body}\n", encoding="utf-8")
    return p


def head(tmp_path: Path, upto: str | None = None, name: str = "head.yaml") -> Path:
    """The teaching script up to (not including) its first line starting with `upto`; None: no
    command yet (`[]`, as a GM starts a campaign's script)."""
    p = tmp_path / name
    if upto is None:
        p.write_text("# the teaching campaign, by post\n[]\n", encoding="utf-8")
    else:
        cut = next(i for i, ln in enumerate(LINES) if ln.startswith(upto))
        p.write_text("\n".join(LINES[:cut]) + "\n", encoding="utf-8")
    return p


def imported(capsys, tmp_path: Path, script: Path, *files: Path, out: str = "out.yaml") -> tuple[int, str, str, Path]:
    target = tmp_path / out
    code, stdout, err, _ = cli(capsys, "campaign", "import", S, str(script), *map(str, files), "--out", str(target))
    return code, stdout, err, target


def commands_of(path: Path) -> list[str]:
    return [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("- {")]


def test_a_whole_teaching_week_from_player_files_alone_gives_the_teaching_scripts_week(tmp_path, capsys):
    # every file of the week, named in no useful order, in one import with the sealed order files
    files = [turn_file(tmp_path, p, phase) for phase in reversed(list(WEEK1)) for p in reversed(list(WEEK1[phase]))]
    orders = [order_file(tmp_path, p) for p in ("jibril", "zenith", "resistance", "zones")]
    code, out, err, target = imported(capsys, tmp_path, head(tmp_path), *files, *orders)
    assert code == 0, err
    assert "21 commands from 15 turn files added, 4 orders from 4 files added, 0 files refused" in out
    _, want, _ = replay(S, str(SCRIPT))
    week1 = [s for s in want.steps if s.before.week == 1]
    _, got, refusals = replay(S, str(target))
    assert refusals == []
    assert got.state == week1[-1].after  # the same campaign as the GM's hand-written week 1
    assert got.state.week == 2 and got.state.phase == "movement"


def test_week_two_from_player_files_skips_the_declarations_nobody_is_asked_and_ends_the_campaigns_script(
        tmp_path, capsys):
    # armies held in their battles: nothing moves, no two armies newly meet (no declare phase)
    posts = {"zones": "Pinned against the river, Brin forms a square across the Lowmarch road.",
             "jibril": "Kiran's armoured columns gather for one hard blow.",
             "resistance": "Varn's rangers fall back to the crags and harry the host.",
             "zenith": "Aurel waits behind the wall, lance couched."}
    battle = {"zones": "B1", "jibril": "B1", "resistance": "B2", "zenith": "B2"}
    gens = {"zones": "brin", "jibril": "kiran", "resistance": "varn", "zenith": "aurel"}
    files = [turn_file(tmp_path, p, "movement", "moves: []", week=2) for p in posts]
    files += [turn_file(tmp_path, p, "pickup", "pickups: []", week=2) for p in posts]
    files += [turn_file(tmp_path, p, "narrative", f'posts:\n- {{battle: {battle[p]}, text: "{t}", generals: [{gens[p]}]}}',
                        week=2) for p, t in posts.items()]
    orders = [order_file(tmp_path, p, 2) for p in posts]
    code, _out, err, target = imported(capsys, tmp_path, head(tmp_path, "# Week 2"), *files, *orders)
    assert code == 0, err
    _, want, _ = replay(S, str(SCRIPT))
    _, got, refusals = replay(S, str(target))
    assert refusals == [] and got.state == want.state


def test_movement_goes_in_player_order_with_each_turn_ended_whatever_order_the_files_come_in(tmp_path, capsys):
    files = [turn_file(tmp_path, p, "movement") for p in ("jibril", "zenith", "resistance", "zones")]
    code, _out, err, target = imported(capsys, tmp_path, head(tmp_path), *files)
    assert code == 0, err
    assert commands_of(target) == ["- {kind: end_turn}", "- {kind: end_turn}",
                                   "- {kind: move_army, army: host, path: [[28, 10], [28, 11]]}",
                                   "- {kind: end_turn}",
                                   "- {kind: move_army, army: corps, path: [[23, 26], [22, 27], [21, 27]]}",
                                   "- {kind: end_turn}"]
    assert target.read_text(encoding="utf-8").startswith("# the teaching campaign, by post\n")  # comments kept
    assert "ok " + str(files[0]) + ": jibril, movement: 1 move; turn ended" in err


def test_the_files_before_a_missing_players_turn_are_taken_and_the_rest_waits(tmp_path, capsys):
    # the Zones and the Resistance moved; Zenith's file is not in, so the week waits for it
    files = [turn_file(tmp_path, p, "movement") for p in ("resistance", "zones")]
    code, out, err, target = imported(capsys, tmp_path, head(tmp_path), *files)
    assert code == 0, err
    assert commands_of(target) == ["- {kind: end_turn}", "- {kind: end_turn}"]
    assert "(waiting: Zenith Empire)" in out


def test_a_story_post_goes_by_battle_then_player_and_each_player_ends_posting(tmp_path, capsys):
    files = [turn_file(tmp_path, p, "narrative") for p in ("zenith", "jibril", "resistance", "zones")]
    script = head(tmp_path, "- {kind: post")
    code, _out, err, target = imported(capsys, tmp_path, script, *files)
    assert code == 0, err
    added = commands_of(target)[len(commands_of(script)):]
    assert [ln.split(", text")[0] for ln in added] == [
        "- {kind: post, player: zones, battle: B1", "- {kind: post, player: jibril, battle: B1",
        "- {kind: post, player: resistance, battle: B2", "- {kind: post, player: zenith, battle: B2",
        "- {kind: narrative_done, player: zones}", "- {kind: narrative_done, player: resistance}",
        "- {kind: narrative_done, player: zenith}", "- {kind: narrative_done, player: jibril}"]


def test_an_answer_a_fight_already_decided_is_left_out_with_a_note_for_the_gm(tmp_path, capsys):
    # Zenith declines at 28,11, but the Resistance (earlier in player order) fights there
    files = [turn_file(tmp_path, "zenith", "declare", "declarations:\n- {hex: [28, 11], fight: false}"),
             turn_file(tmp_path, "resistance", "declare")]
    script = head(tmp_path, "- {kind: declare")
    code, _out, err, target = imported(capsys, tmp_path, script, *files)
    assert code == 0, err
    assert commands_of(target)[len(commands_of(script)):] == ["- {kind: declare, player: resistance, hex: [28, 11], "
                                                              "fight: true}"]
    assert "the answer for 28,11 is not needed: the other side declared to fight there" in err


def test_declarations_imported_with_the_scouting_secret_come_after_its_seed(tmp_path, capsys):
    script = head(tmp_path, "- {kind: declare")
    secret = tmp_path / "gm-secret.yaml"
    code, _out, err, _ = cli(capsys, "campaign", "commit", S, str(script), "--out", str(secret))
    assert code == 0, err
    files = [turn_file(tmp_path, p, "declare") for p in ("jibril", "resistance", "zones")]
    target = tmp_path / "out.yaml"
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(script), *map(str, files), "--scouting", str(secret),
                            "--out", str(target))
    assert code == 0, err
    assert "(3 commands from 3 turn files added, the week's scouting seed added)" in out
    kinds = [ln.split(",")[0] for ln in commands_of(target)]
    assert kinds[len(commands_of(script)):] == ["- {kind: gm_scouting_seed", "- {kind: declare", "- {kind: declare",
                                                "- {kind: declare"]
    _, rec, refusals = replay(S, str(target))
    assert refusals == [] and rec.state.phase == "pickup"


REFUSALS = [
    # (script cut before, player, phase, body, the refusal's place and reason)
    (None, "zones", "movement", "moves:\n- {army: corps, path: [[23, 26]]}",
     "line 7: moves[0].army: corps: an army of Jibril, not yours; The Zones' armies: rifles"),
    (None, "zones", "movement", "moves:\n- {army: rifles, path: [[21, 26], [21, 25], [21, 24]]}",
     "line 7: moves[0].path: refused by the rules: Lowmarch Rifle Corps has 2 movement points; this path costs 3 "
     "by hex 21,24."),
    (None, "zones", "movement", "moves:\n- {army: rifles, path: [[21, 26], [23, 26]]}",
     "line 7: moves[0].path: refused by the rules: Hex 23,26 is not next to 21,26"),
    (None, "resistance", "movement", None,
     "line 4: player: not Resistance Fronts' turn yet: the movement phase goes in player order (The Zones, "
     "Resistance Fronts, Zenith Empire, Jibril) and the file of The Zones comes first"),
    ("- {kind: move_army, army: host", "zones", "movement", None,
     "line 4: player: The Zones' movement turn is over this week (now: Zenith Empire)"),
    ("- {kind: declare", "zones", "declare", "declarations:\n- {hex: [21, 27], fight: false}\n- {hex: [28, 11], "
     "fight: true}", "line 8: declarations[1].hex: 28,11: no declaration of yours is asked there; The Zones' hexes "
                     "to declare at: 21,27"),
    ("- {kind: declare", "zones", "declare", "declarations:\n- {hex: [21, 27], fight: null}",
     "line 7: declarations[0].fight: no answer: write fight: true to fight or fight: false to decline"),
    ("- {kind: declare", "zones", "declare", "declarations: []",
     "line 6: declarations: no answer for 21,27: every hex where your armies meet another player's needs fight"),
    ("- {kind: declare", "zones", "movement", "moves: []",
     "line 5: phase: for the movement phase, but the campaign is in the declare combat phase"),
    ("- {kind: post", "zones", "narrative", 'posts:\n- {battle: B2, text: "Brin rides.", generals: [brin]}',
     "line 7: posts[0].battle: B2: not a battle of yours going on; The Zones' battles: B1"),
    ("- {kind: post", "zones", "narrative", 'posts:\n- {battle: B1, text: "Kiran rides.", generals: [kiran]}',
     "line 7: posts[0].generals: refused by the rules: kiran is not a General of The Zones."),
    ("- {kind: post", "zones", "narrative", "posts:\n- {battle: B1, text: '', generals: [brin]}",
     "line 7: posts[0].text: refused by the rules: A story post needs some text."),
    ("# Generals' pick-up", "zones", "pickup", "pickups:\n- {general: kiran, army: rifles}",
     "line 7: pickups[0].general: kiran: a General of Jibril, not yours; The Zones' Generals: brin"),
    ("# Generals' pick-up", "zones", "pickup", "pickups:\n- {general: brin, army: corps}",
     "line 7: pickups[0].army: refused by the rules: Colonel Brin can only join an army of its own side."),
    (None, "zones", "pickup", "pickups: []", "line 5: phase: for the Generals' pick-up move phase, but the campaign "
                                             "is in the movement phase"),
]


@pytest.mark.parametrize(("upto", "player", "phase", "body", "reason"), REFUSALS)
def test_a_file_the_rules_or_the_players_view_refuse_is_named_with_its_line_field_and_reason(
        tmp_path, capsys, upto, player, phase, body, reason):
    script = head(tmp_path, upto)
    before = script.read_text(encoding="utf-8")
    bad = turn_file(tmp_path, player, phase, body)
    code, _out, err, target = imported(capsys, tmp_path, script, bad)
    assert code == 1
    assert f"REFUSED {bad}: {reason}" in err, err
    assert "error: nothing imported: 1 turn file refused" in err and "Traceback" not in err
    assert not target.exists() and script.read_text(encoding="utf-8") == before


def with_reserve(tmp_path: Path) -> Path:
    """The teaching scenario with a second army of the Zones, two hexes from the rifles at 21,27
    (a General's pick-up move reaches it), led by a General of its own, Captain Vale."""
    return scenario_copy(tmp_path, (
        "  - {id: brin,", "  - {id: vale, name: Captain Vale, owner: zones, level: 1, army: reserve}\n  - {id: brin,"), (
        "  - id: corps\n", "  - id: reserve\n    name: Lowmarch Reserve\n    owner: zones\n    at: [19, 27]\n"
                           "    units:\n      - zone_hussars\n  - id: corps\n"))


def test_a_generals_pick_up_move_is_drafted_and_taken_then_the_turn_ended(tmp_path, capsys):
    scenario = with_reserve(tmp_path)
    script = head(tmp_path, "# Generals' pick-up")
    draft = tmp_path / "zones-pickup.yaml"
    code, out, err, _ = cli(capsys, "campaign", "brief", str(scenario), str(script), "--player", "zones", "--draft",
                            str(draft))
    assert code == 0, err
    assert "# vale (Captain Vale) at 19,27: may join rifles" in out
    assert "# brin (Colonel Brin) at 21,27: may join reserve" in out
    body, _, rest = draft.read_text(encoding="utf-8").rpartition("pickups: []")
    draft.write_text(body + "pickups:\n- {general: vale, army: rifles}" + rest, encoding="utf-8")
    code, _out, err, _ = cli(capsys, "campaign", "import", str(scenario), str(script), str(draft), "--out",
                             str(tmp_path / "out.yaml"))
    assert code == 0, err
    assert commands_of(tmp_path / "out.yaml")[len(commands_of(script)):] == [
        "- {kind: pickup, general: vale, army: rifles}", "- {kind: end_turn}"]


def test_a_general_not_with_the_battle_is_refused_by_the_rules(tmp_path, capsys):
    scenario = with_reserve(tmp_path)
    script = head(tmp_path, "- {kind: post")
    bad = turn_file(tmp_path, "zones", "narrative", 'posts:\n- {battle: B1, text: "Vale rides in.", generals: [vale]}')
    code, _out, err, _ = cli(capsys, "campaign", "import", str(scenario), str(script), str(bad), "--out",
                             str(tmp_path / "out.yaml"))
    assert code == 1
    assert (f"REFUSED {bad}: line 7: posts[0].generals: refused by the rules: Captain Vale is not with the forces "
            "in battle B1, so cannot be written into it.") in err, err
    assert not (tmp_path / "out.yaml").exists()


def test_one_refused_file_means_nothing_is_written_not_even_the_good_ones(tmp_path, capsys):
    good = turn_file(tmp_path, "zones", "movement")
    bad = turn_file(tmp_path, "resistance", "movement", "moves:\n- {army: front, path: [[99, 99]]}")
    code, out, err, target = imported(capsys, tmp_path, head(tmp_path), good, bad)
    assert code == 1 and not target.exists() and out == ""
    assert f"REFUSED {bad}: line 7: moves[0].path: refused by the rules: Hex 99,99 is off the map." in err


@pytest.mark.parametrize(("field", "text", "reason"), [
    ("week", "week: 2", "line 3: week: for week 2, but the campaign is in week 1"),
    ("campaign", "campaign: Another war", "line 2: campaign: a file for the campaign 'Another war', but this is "
                                          "'Campaign teaching scenario'"),
    ("player", "player: zorro", "line 4: player: no player 'zorro'; players are zones, resistance, zenith, jibril"),
])
def test_a_file_for_another_week_campaign_or_player_is_refused(tmp_path, capsys, field, text, reason):
    bad = turn_file(tmp_path, "zones", "movement")
    lines = [text if ln.startswith(field + ":") else ln for ln in bad.read_text(encoding="utf-8").splitlines()]
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _out, err, target = imported(capsys, tmp_path, head(tmp_path), bad)
    assert code == 1 and f"REFUSED {bad}: {reason}" in err, err
    assert not target.exists()


def test_a_turn_file_with_hundreds_of_entries_is_refused_before_any_is_applied(tmp_path, capsys):
    posts = "posts:\n" + "".join(f"- {{battle: B1, text: post {n}}}\n" for n in range(201))
    bad = turn_file(tmp_path, "zones", "narrative", posts)
    code, _out, err, target = imported(capsys, tmp_path, head(tmp_path, "- {kind: post"), bad)
    assert code == 1 and not target.exists()
    assert f"REFUSED {bad}: line 6: posts: 201 story posts; a turn file holds at most 200" in err


def test_a_second_file_of_a_player_for_the_same_phase_is_refused_naming_the_first(tmp_path, capsys):
    first = turn_file(tmp_path, "zones", "movement")
    second = turn_file(tmp_path, "zones", "movement", name="zones-again.yaml")
    code, _out, err, target = imported(capsys, tmp_path, head(tmp_path), first, second)
    assert code == 1 and not target.exists()
    assert f"REFUSED {second}: line 4: player: a second movement file of zones for week 1 (the first is {first})" in err


# --------------------------------------------------------------------------- the brief's drafts


@pytest.mark.parametrize(("upto", "player", "phase", "shown", "fill"), [
    (None, "zones", "movement", "# rifles (Lowmarch Rifle Corps) at 21,27, 2 movement points; first steps:",
     None),
    ("- {kind: move_army, army: corps", "jibril", "movement",
     "#   meets an enemy army at [21, 27] by path [[23, 26], [22, 27], [21, 27]]",
     ("moves: []", "moves:\n- {army: corps, path: [[23, 26], [22, 27], [21, 27]]}")),
    ("- {kind: declare", "jibril", "declare", "# 21,27: your army meets Lowmarch Rifle Corps of The Zones",
     ("fight: null", "fight: true")),
    ("- {kind: post", "zenith", "narrative", "# B2 at 28,11: Generals that may be named: aurel (Prince Aurel, level 2)",
     ("text: ''", "text: Aurel rides.")),
])
def test_the_brief_drafts_the_phases_file_which_the_import_takes_once_filled_in(
        tmp_path, capsys, upto, player, phase, shown, fill):
    script = head(tmp_path, upto)
    draft = tmp_path / f"{player}-draft.yaml"
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(script), "--player", player, "--draft", str(draft))
    assert code == 0, err
    assert shown in out and f"wrote the draft to {draft}" in out
    text = draft.read_text(encoding="utf-8")
    assert f"kind: campaign-turn\ncampaign: {NAME}\nweek: 1\nplayer: {player}\nphase: {phase}\n" in text
    assert f"#   python -m game campaign import SCENARIO SCRIPT {draft.name} --out NEW_SCRIPT\n" in text
    if fill is not None:
        assert fill[0] in text
        body, _, rest = text.rpartition(fill[0])  # (the comments above may say it too)
        draft.write_text(body + fill[1] + rest, encoding="utf-8")
    code, _out, err, target = imported(capsys, tmp_path, script, draft)
    assert code == 0 and f"ok {draft}: {player}, {phase}" in err, err
    assert len(commands_of(target)) > len(commands_of(script))


def test_the_declare_draft_names_the_players_hexes_whatever_the_other_side_answered(tmp_path, capsys):
    # Jibril declared to fight at 21,27 first: the Zones are not asked any more, but their draft
    # still asks them (it would tell them how Jibril declared otherwise)
    script = head(tmp_path, "- {kind: declare")
    script.write_text(script.read_text(encoding="utf-8") + "- {kind: declare, player: jibril, hex: [21, 27], "
                                                           "fight: true}\n", encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(script), "--player", "zones")
    assert code == 0, err
    assert "declarations:\n- hex: [21, 27]\n  fight: null\n" in out


def test_the_import_never_replaces_a_turn_file_and_keeps_the_script_it_replaces(tmp_path, capsys):
    script = head(tmp_path)
    f = turn_file(tmp_path, "zones", "movement")
    other = turn_file(tmp_path, "resistance", "movement")
    code, _out, err, _ = cli(capsys, "campaign", "import", S, str(script), str(f), "--out", str(other))
    assert code == 1 and "is a player's turn file; never overwritten by the script" in err
    target = tmp_path / "next.yaml"
    target.write_text("# an older script\n[]\n", encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "import", S, str(script), str(f), "--out", str(target))
    assert code == 0, err
    assert f"the file it replaced is kept as {target}.bak" in out
    assert (tmp_path / "next.yaml.bak").read_text(encoding="utf-8") == "# an older script\n[]\n"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_the_import_refuses_to_write_through_a_symbolic_link(tmp_path, capsys):
    real = tmp_path / "real.yaml"
    real.write_text("[]\n", encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    code, _out, err, _ = cli(capsys, "campaign", "import", S, str(head(tmp_path)),
                             str(turn_file(tmp_path, "zones", "movement")), "--out", str(link))
    assert code == 1 and "symbolic link" in err
    assert real.read_text(encoding="utf-8") == "[]\n"


def test_seal_refuses_a_turn_file_saying_only_orders_are_sealed(tmp_path, capsys):
    f = turn_file(tmp_path, "zones", "movement")
    code, _out, err, _ = cli(capsys, "campaign", "seal", str(f), "--out", str(tmp_path / "sealed.yaml"))
    assert code == 1
    assert "a player's turn file for the movement phase, not a draft of orders: it is not sealed" in err
    assert not (tmp_path / "sealed.yaml").exists()


# --------------------------------------------------------------------------- the docs' worked example


def _doc_commands() -> list[tuple[list[str], str]]:
    """docs/campaign.md's "A week's moves, declarations and posts by post": each command shown
    (its arguments) and the output under it."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "campaign.md").read_text(encoding="utf-8")
    part = doc.split("### A week's moves, declarations and posts by post", 1)[1].split("\n### ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in part.split("```text\n")[1:]]
    out: list[tuple[list[str], str]] = []
    for block in blocks:
        for chunk in block.split("$ python -m game ")[1:]:
            line, _, shown = chunk.partition("\n")
            out.append((shlex.split(line), shown))
    return out


def test_the_docs_transcript_is_the_tools_output(tmp_path, capsys, monkeypatch):
    scenario_copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    Path("week1-start.yaml").write_text("# Campaign teaching scenario, played by post\n[]\n", encoding="utf-8")
    shown = iter(_doc_commands())

    def drafts(script: str, suffix: str, *players: str) -> None:
        for p in players:
            code, _out, err, _ = cli(capsys, "campaign", "brief", "teaching.yaml", script, "--player", p, "--draft",
                                     f"{p}-{suffix}.yaml")
            assert code == 0, err

    def edit(name: str, old: str, new: str) -> None:
        body, _, rest = Path(name).read_text(encoding="utf-8").rpartition(old)
        Path(name).write_text(body + new + rest, encoding="utf-8")

    def same() -> None:
        argv, want = next(shown)
        code, out, err, _ = cli(capsys, *argv)
        if want.startswith("...\n"):  # a brief: the draft and what follows it
            assert code == 0 and out.endswith(want[4:]), out
        else:
            assert err + out == want

    drafts("week1-start.yaml", "moves", "zones", "resistance", "zenith")
    same()
    edit("jibril-moves.yaml", "moves: []", "moves:\n- {army: corps, path: [[23, 26], [22, 27], [21, 27]]}")
    edit("zenith-moves.yaml", "moves: []", "moves:\n- {army: host, path: [[28, 10], [28, 11], [27, 11]]}")
    same()  # refused: Zenith's path runs on past an enemy army
    edit("zenith-moves.yaml", ", [27, 11]]", "]")
    same()
    drafts("week1-moved.yaml", "declare", "jibril", "resistance", "zenith")
    same()
    for p, fight in (("zones", "false"), ("zenith", "false"), ("jibril", "true"), ("resistance", "true")):
        edit(f"{p}-declare.yaml", "fight: null", f"fight: {fight}")
    same()
    drafts("week1-declared.yaml", "pickup", "zones", "resistance", "zenith", "jibril")
    same()
    drafts("week1-picked.yaml", "posts", "zones", "resistance", "jibril")
    same()
    for p, text in (("zones", "Colonel Brin orders the rifles back along the Lowmarch road."),
                    ("jibril", "Strategos Kiran throws a cordon across the road."),
                    ("resistance", "Ysolde Varn sends her rangers round the flank."),
                    ("zenith", "Prince Aurel plants his banner on the wall.")):
        edit(f"{p}-posts.yaml", "text: ''", f"text: {text}")
    same()
    assert next(shown, None) is None  # every command of the transcript was run
    _, want, _ = replay(S, str(SCRIPT))
    orders = next(s for s in want.steps if s.command.kind == "orders")
    _, got, _ = replay("teaching.yaml", "week1.yaml")
    assert got.state.model_dump(exclude={"setup"}) == orders.before.model_dump(exclude={"setup"})
