"""Hostile and careless play-by-post turn files (docs/campaign.md, "Play by post"): files that are
not YAML, binary, empty or of the wrong shape, wrong types and huge values in every field, a
path of 10,000 hexes, another player's army, entries and files given twice, files for another
week, a turn file where an order file is expected and the reverse, a script written as a mapping
with `commands:`, and a symbolic link as --out. Each refusal names the file, the line and what was
expected, writes nothing and shows no traceback; a story post's markup reaches the week's report
neutralised."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import paths
from game.core.errors import GameFileError
from game.systems.campaign.cli.turns import read_turn_file, sort_file
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, order_file
from tests.hostile.hostile import cli

S = str(SCENARIO)
LINES = SCRIPT.read_text(encoding="utf-8").splitlines()
HEAD = f"kind: campaign-turn\ncampaign: {NAME}\nweek: 1\nplayer: zones\nphase: movement\n"


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def script(tmp_path: Path, upto: str | None = None, name: str = "head.yaml") -> Path:
    """The teaching script before its first line starting with `upto` (None: no command yet)."""
    p = tmp_path / name
    if upto is None:
        p.write_text("# by post\n[]\n", encoding="utf-8")
    else:
        cut = next(i for i, ln in enumerate(LINES) if ln.startswith(upto))
        p.write_text("\n".join(LINES[:cut]) + "\n", encoding="utf-8")
    return p


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def import_refused(capsys, tmp_path: Path, head: Path, *files: Path) -> str:
    """`campaign import` of the files exits 1, writes no script, shows no traceback: its stderr."""
    out = tmp_path / "out.yaml"
    before = head.read_text(encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *map(str, files), "--out", str(out))
    assert code == 1, err
    assert not out.exists() and head.read_text(encoding="utf-8") == before
    assert "Traceback" not in err
    return err


def refusal_of(err: str, path: Path) -> str:
    line = next((ln for ln in err.splitlines() if ln.startswith(f"REFUSED {path}:")), None)
    assert line is not None, err
    return line


# --------------------------------------------------------------------------- not a turn file at all


@pytest.mark.parametrize(("text", "where", "expect"), [
    (HEAD + "moves: [ {army: rifles\n", "line 7, column 1", "not valid YAML"),
    (HEAD + "moves:\n\t- {army: rifles, path: [[20, 27]]}\n", "line 7, column 1", "not valid YAML"),
    (HEAD + "moves: []\nmoves: []\n", "line 7, column 1", "key 'moves' appears twice"),
    (HEAD.replace("week: 1", "week: " + "9" * 5000) + "moves: []\n", "line 3, column 7", "whole number"),
])
def test_a_turn_file_that_is_not_valid_yaml_is_refused_as_one_naming_its_line_not_as_an_order_file(
        tmp_path, capsys, text, where, expect):
    p = write(tmp_path, "zones-moves.yaml", text)
    err = import_refused(capsys, tmp_path, script(tmp_path), p)
    line = refusal_of(err, p)
    assert line.startswith(f"REFUSED {p}: {where}: ") and expect in line
    assert "looks like a player's turn file" in line
    assert "order file was refused" not in err and "nothing imported" in err


def test_an_order_file_that_is_not_valid_yaml_is_refused_as_an_order_file_and_the_others_imported(tmp_path, capsys):
    head = script(tmp_path, "- {kind: orders")
    good = order_file(tmp_path, "jibril")
    broken = order_file(tmp_path, "zones")
    broken.write_text(broken.read_text(encoding="utf-8").replace("orders:", "orders: [", 1), encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(good), str(broken), "--out", str(out))
    assert code == 1 and "Traceback" not in err
    line = refusal_of(err, broken)
    assert re.match(rf"REFUSED {re.escape(str(broken))}: line \d+, column \d+: not valid YAML", line)
    assert "looks like a sealed order file" in line and f"ok {good}" in err


@pytest.mark.parametrize(("text", "expect"), [
    (b"", "line 1: not an order file or a turn file: expected a sealed order file or a player's turn file "
          "(a mapping: kind, campaign, week, player, ...); an empty file"),
    (b"# only a comment\n", "line 1: not an order file or a turn file: expected a sealed order file or a "
                            "player's turn file (a mapping: kind, campaign, week, player, ...); an empty file"),
    (bytes(range(256)) * 4, "line 1: a NUL byte: binary data, not UTF-8 text; expected a sealed order file (YAML) "
                            "or a player's turn file"),
    (b"\xff\xfe\x00k\x00i\x00n\x00d", "line 1:"),
    (b"- 1\n- 2\n", "line 1: not an order file or a turn file: expected a sealed order file or a player's turn file"
                    " (a mapping: kind, campaign, week, player, ...); got a list of 2 items"),
    (b"just words\n", "line 1: not an order file or a turn file: expected a sealed order file or a player's turn "
                      "file (a mapping: kind, campaign, week, player, ...); got a string 'just words'"),
    (b"{[}\n", "line 1, column 3: not valid YAML: did not find expected node content; expected a sealed order "
              "file or a player's turn file"),
])
def test_a_file_neither_turn_nor_order_is_refused_naming_its_line_and_what_was_expected(tmp_path, capsys, text,
                                                                                       expect):
    p = write(tmp_path, "mail-attachment.yaml", text)
    err = import_refused(capsys, tmp_path, script(tmp_path), p)
    assert refusal_of(err, p).startswith(f"REFUSED {p}: {expect}")
    assert "order file was refused" not in err and "nothing imported" in err


# --------------------------------------------------------------------------- wrong types and values


@pytest.mark.parametrize(("old", "new", "where", "expect"), [
    ("kind: campaign-turn", "kind: campaign-turnx", "line 1: kind", "expected kind: campaign-turn"),
    ("kind: campaign-turn", "kind: [campaign-turn]", "line 1: kind", "expected kind: campaign-turn"),
    (f"campaign: {NAME}", "campaign: 5", "line 2: campaign", "expected a name in plain text; got a number, 5"),
    (f"campaign: {NAME}", "campaign:", "line 2: campaign", "expected a name in plain text; got nothing"),
    ("week: 1", "week: one", "line 3: week", "expected a week number; got a string 'one'"),
    ("week: 1", "week: 1.0", "line 3: week", "expected a week number; got a number, 1.0"),
    ("week: 1", "week: 99999999999", "line 3: week", "expected a week number"),
    ("week: 1", "week: true", "line 3: week", "expected a week number; got true"),
    ("player: zones", "player: [zones]", "line 4: player", "expected a name in plain text; got a list"),
    ("player: zones", 'player: "zones\\e]0;pwned\\a"', "line 4: player", "expected a name in plain text"),
    ("phase: movement", "phase: [movement]", "line 5: phase", "expected one of movement, pickup, declare"),
    ("phase: movement", "phase: {a: 1}", "line 5: phase", "expected one of movement, pickup, declare"),
    ("phase: movement", "phase: 3", "line 5: phase", "expected one of movement, pickup, declare"),
])
def test_a_wrong_type_in_a_turn_files_heading_is_refused_naming_the_line_and_what_was_expected(
        tmp_path, capsys, old, new, where, expect):
    p = write(tmp_path, "zones-moves.yaml", HEAD.replace(old, new) + "moves: []\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p), p)
    assert line.startswith(f"REFUSED {p}: {where}: ") and expect in line
    assert "\x1b" not in line and "\x07" not in line


@pytest.mark.parametrize(("body", "where", "expect"), [
    ("moves: rifles", "line 6: moves", "expected a list of moves; got a string 'rifles'"),
    ("moves: [rifles]", "line 6: moves[0]", "expected a move, a mapping such as {army: corps, path:"),
    ("moves: [[20, 27]]", "line 6: moves[0]", "expected a move, a mapping"),
    ("moves: [{army: 5, path: [[20, 27]]}]", "line 6: moves[0].army", "valid string"),
    ("moves: [{army: rifles, path: north}]", "line 6: moves[0].path", "valid tuple"),
    ("moves: [{army: rifles, path: []}]", "line 6: moves[0].path", "at least 1"),
    ('moves: [{army: rifles, path: ["20,27"]}]', "line 6: moves[0].path[0]", "expected a hex as [column, row]"),
    ("moves: [{army: rifles, path: [[true, false]]}]", "line 6: moves[0].path[0]",
     "expected a hex as [column, row], e.g. [23, 26]; got [True, False]"),
    ("moves: [{army: rifles, path: [[1.5, 2]]}]", "line 6: moves[0].path[0]", "expected a hex as [column, row]"),
    ("moves: [{army: rifles, path: [[20, 27, 1]]}]", "line 6: moves[0].path[0]", "expected a hex as [column, row]"),
    ("moves: [{army: rifles, path: [[-1, -1]]}]", "line 6: moves[0].path", "off the map"),
    ("moves: [{army: rifles, path: [[999999999, 27]]}]", "line 6: moves[0].path", "off the map"),
    ("moves: [{army: rifles, path: [[20, 27]], speed: 9}]", "line 6: moves[0].speed", "unknown key"),
    ("moves: []\norders: []", "line 7: orders", "unexpected field; a movement file holds moves"),
    ("pickups: []", "line 6: pickups", "pickups belong to the pickup phase"),
    ("", "after line 5: moves", "required field is missing: the list of moves (moves: [] for none)"),
])
def test_a_wrong_move_is_refused_naming_its_line_and_field(tmp_path, capsys, body, where, expect):
    p = write(tmp_path, "zones-moves.yaml", HEAD + body + "\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p), p)
    assert line.startswith(f"REFUSED {p}: {where}"), line
    assert expect in line


def test_a_path_of_ten_thousand_hexes_is_refused_by_its_length_quickly(tmp_path, capsys):
    path = ", ".join("[20, 27]" if i % 2 else "[21, 27]" for i in range(10_000))
    p = write(tmp_path, "zones-moves.yaml", HEAD + f"moves: [{{army: rifles, path: [{path}]}}]\n")
    out = tmp_path / "out.yaml"
    code, _o, err, took = cli(capsys, "campaign", "import", S, str(script(tmp_path)), str(p), "--out", str(out))
    assert code == 1 and not out.exists() and took < 10
    assert refusal_of(err, p).startswith(f"REFUSED {p}: line 6: moves[0].path: a path of 10000 hexes; a move's "
                                         "path holds at most 200")


def test_thousands_of_moves_are_refused_by_their_number(tmp_path, capsys):
    p = write(tmp_path, "zones-moves.yaml", HEAD + "moves:\n" + "- {army: rifles, path: [[20, 27]]}\n" * 5000)
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p), p)
    assert "line 6: moves: 5000 moves; a turn file holds at most 200" in line


def test_a_declaration_answered_with_a_truth_value_for_a_hex_is_refused(tmp_path, capsys):
    p = write(tmp_path, "zones-declare.yaml", HEAD.replace("phase: movement", "phase: declare")
              + "declarations: [{hex: [true, 27], fight: false}]\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path, "- {kind: declare"), p), p)
    assert line.startswith(f"REFUSED {p}: line 6: declarations[0].hex: expected a hex as [column, row]")


# --------------------------------------------------------------------------- cheats and slips


def test_a_move_for_another_players_army_is_refused_listing_the_players_own(tmp_path, capsys):
    p = write(tmp_path, "zones-moves.yaml", HEAD + "moves: [{army: corps, path: [[22, 27]]}]\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p), p)
    assert "line 6: moves[0].army: corps: an army of Jibril, not yours; The Zones' armies: rifles" in line


def test_a_file_claiming_to_be_another_player_still_moves_only_that_players_turn(tmp_path, capsys):
    # a cheat writes Jibril's name on a file moving Jibril's army before Jibril's turn has come
    p = write(tmp_path, "x.yaml", HEAD.replace("player: zones", "player: jibril")
              + "moves: [{army: corps, path: [[23, 26], [22, 27], [21, 27]]}]\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p), p)
    assert "line 4: player: not Jibril's turn yet" in line


def test_the_same_move_twice_in_a_file_is_refused_naming_the_first(tmp_path, capsys):
    head = script(tmp_path)
    files = [write(tmp_path, f"{p}.yaml", HEAD.replace("player: zones", f"player: {p}") + "moves: []\n")
             for p in ("zones", "resistance")]
    zen = write(tmp_path, "zenith.yaml", HEAD.replace("player: zones", "player: zenith")
                + "moves:\n- {army: host, path: [[28, 10], [28, 11]]}\n- {army: host, path: [[28, 10], [28, 11]]}\n")
    line = refusal_of(import_refused(capsys, tmp_path, head, *files, zen), zen)
    assert "line 8: moves[1]: a second move for host (the first is moves[0]); one each" in line


def test_the_same_file_given_twice_is_refused_saying_so(tmp_path, capsys):
    p = write(tmp_path, "zones.yaml", HEAD + "moves: []\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), p, p), p)
    assert "line 4: player: the same file given twice" in line


def test_a_second_file_of_a_player_for_a_phase_is_refused_naming_the_first(tmp_path, capsys):
    a = write(tmp_path, "zones.yaml", HEAD + "moves: []\n")
    b = write(tmp_path, "zones-again.yaml", HEAD + "moves: []\n")
    line = refusal_of(import_refused(capsys, tmp_path, script(tmp_path), a, b), b)
    assert f"line 4: player: a second movement file of zones for week 1 (the first is {a})" in line


def test_the_same_story_post_twice_is_refused_but_two_different_posts_on_a_battle_are_taken(tmp_path, capsys):
    head = script(tmp_path, "- {kind: post")
    post = '- {battle: B1, text: "Brin holds the road.", generals: [brin]}\n'
    narrative = HEAD.replace("phase: movement", "phase: narrative") + "posts:\n"
    twice = write(tmp_path, "twice.yaml", narrative + post + post)
    line = refusal_of(import_refused(capsys, tmp_path, head, twice), twice)
    assert "line 8: posts[1]: the same story post as posts[0]" in line
    two = write(tmp_path, "two.yaml", narrative + post + post.replace("holds", "leaves"))
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(two), "--out", str(tmp_path / "o.yaml"))
    assert code == 0 and "zones, narrative: 2 story posts; done posting" in err


@pytest.mark.parametrize(("upto", "week", "expect"), [
    ("# Week 2", 1, "line 3: week: for week 1, but the campaign is in week 2"),  # a past week's file sent late
    (None, 2, "line 3: week: for week 2, but the campaign is in week 1"),  # next week's, sent early
])
def test_a_file_for_a_past_or_future_week_is_refused(tmp_path, capsys, upto, week, expect):
    p = write(tmp_path, "zones.yaml", HEAD.replace("week: 1", f"week: {week}") + "moves: []\n")
    assert expect in refusal_of(import_refused(capsys, tmp_path, script(tmp_path, upto), p), p)


# --------------------------------------------------------------------------- the wrong kind of file


def test_a_turn_file_where_an_order_file_is_expected_says_what_it_is_with_its_line(tmp_path, capsys):
    p = write(tmp_path, "zones.yaml", HEAD + "moves: []\n")
    for argv in (["campaign", "verify", str(p)],
                 ["campaign", "seal", str(p), "--out", str(tmp_path / "sealed.yaml")],
                 ["campaign", "report", S, str(SCRIPT), "--week", "1", "--orders", str(p)]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code == 1 and "Traceback" not in err, (argv, err)
        assert f"{p}: line 1: kind: a player's turn file" in err, (argv, err)
    assert not (tmp_path / "sealed.yaml").exists()


def test_an_order_file_sent_in_a_phase_of_turn_files_says_the_campaign_waits_for_turn_files(tmp_path, capsys):
    orders = order_file(tmp_path, "zones")
    err = import_refused(capsys, tmp_path, script(tmp_path), orders)
    line = refusal_of(err, orders)
    assert re.search(r": line \d+: orders: the campaign is in the movement phase of week 1; orders are given in "
                     r"the battle orders phase \(it waits for the players' turn files", line), line


# --------------------------------------------------------------------------- story posts in the report


HOSTILE_POST = ("[url=http://evil.example]click[/url] **bold** [link](http://evil.example) "
                "<script>alert(1)</script> @everyone \\e[31mred\\u202e")


@pytest.mark.parametrize("fmt", ["md", "bbcode"])
def test_a_story_posts_markup_and_control_characters_reach_the_report_neutralised(tmp_path, capsys, fmt):
    head = script(tmp_path, "- {kind: post")
    who = {"zones": ("B1", "brin"), "jibril": ("B1", "kiran"), "resistance": ("B2", "varn"),
           "zenith": ("B2", "aurel")}
    files = [write(tmp_path, f"{p}.yaml", HEAD.replace("player: zones", f"player: {p}")
                   .replace("phase: movement", "phase: narrative")
                   + f'posts:\n- {{battle: {b}, text: "{HOSTILE_POST if p == "zones" else "Plain words."}", '
                     f"generals: [{g}]}}\n") for p, (b, g) in who.items()]
    posted = tmp_path / "posted.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *map(str, files), "--out", str(posted))
    assert code == 0, err
    rest = LINES[LINES.index("- {kind: narrative_done, player: jibril}") + 1:]
    week = write(tmp_path, "week1.yaml", posted.read_text(encoding="utf-8") + "\n".join(rest) + "\n")
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(week), "--week", "1", "--format", fmt)
    assert code == 0, err
    post = next(ln for ln in out.splitlines() if "click" in ln)
    assert "://" not in post and "@everyone" not in post  # no live link, no mass mention
    assert "\x1b" not in out and "\u202e" not in out  # no terminal escape, no text turned around
    if fmt == "md":
        assert "\\[url=" in post and "\\*\\*bold\\*\\*" in post and "\\<script>" in post
    else:
        assert not re.search(r"\[[/*A-Za-z0-9]", post)  # no tag opens: [url=, [/url], [31m are broken
        assert "[\u200burl=" in post


# --------------------------------------------------------------------------- the script written to


@pytest.mark.parametrize("text", ["commands:\n", "commands: []\n", "commands:\n- {kind: end_turn}\n",
                                  "commands:\n  - {kind: end_turn}\n",
                                  "# mine\ncommands:\n    - {kind: end_turn}\n# trailing note\n",
                                  "commands:\n- {kind: end_turn}\ncoordinates: axial\n",
                                  "coordinates: axial\ncommands:\n  - kind: end_turn\n"])
def test_turn_files_are_added_to_a_script_written_as_a_mapping_with_commands(tmp_path, capsys, text):
    head = write(tmp_path, "head.yaml", text)
    players = ["zones", "resistance", "zenith"][("end_turn" in text):]
    files = [write(tmp_path, f"{p}.yaml", HEAD.replace("player: zones", f"player: {p}") + "moves: []\n")
             for p in players[:2]]
    out = tmp_path / "out.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *map(str, files), "--out", str(out))
    assert code == 0, err
    n = 3 if "end_turn" in text else 2
    code, o, err, _ = cli(capsys, "campaign", "play", S, str(out), "--quiet")
    assert code == 0 and f"{n} commands applied, 0 refused" in o, (o, err)
    assert out.read_text(encoding="utf-8").count("end_turn") == n
    for keep in ("# mine", "# trailing note", "coordinates: axial"):
        assert (keep in text) == (keep in out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", ["[{kind: end_turn}]\n", "commands: [{kind: end_turn}]\n"])
def test_a_script_whose_commands_are_a_flow_list_is_refused_before_any_file_naming_its_line(tmp_path, capsys, text):
    head = write(tmp_path, "head.yaml", "# started by hand\n" + text)
    p = write(tmp_path, "resistance.yaml", HEAD.replace("player: zones", "player: resistance") + "moves: []\n")
    out = tmp_path / "out.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(p), "--out", str(out))
    assert code == 1 and not out.exists() and "Traceback" not in err
    assert f"{head}: line 2: the commands are a flow list ([...]); write one '- ' line per command" in err
    assert f"ok {p}" not in err  # refused before the files are taken


def test_import_writes_no_script_through_a_symbolic_link_and_brief_no_draft(tmp_path, capsys):
    victim = write(tmp_path, "victim.txt", "precious\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(victim)
    head = script(tmp_path)
    p = write(tmp_path, "zones.yaml", HEAD + "moves: []\n")
    for argv in (["campaign", "import", S, str(head), str(p), "--out", str(link)],
                 ["campaign", "brief", S, str(head), "--player", "zones", "--draft", str(link)]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code == 1 and "symbolic link" in err and "Traceback" not in err, (argv, err)
    assert victim.read_text() == "precious\n" and link.is_symlink()


# --------------------------------------------------------------------------- generated input


def _value() -> st.SearchStrategy:
    scalars = (st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True)
               | st.text(max_size=30))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(string.ascii_lowercase, max_size=8), inner, max_size=4),
                        max_leaves=12)


PHASES = st.sampled_from(["movement", "pickup", "declare", "narrative"])
KEYS = ["kind", "campaign", "week", "player", "phase", "moves", "pickups", "declarations", "posts"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(KEYS), _value(), max_size=9), PHASES)
def test_any_turn_file_is_read_or_refused_naming_the_file_never_crashing(tmp_path, data, phase):
    import yaml
    base = {"kind": "campaign-turn", "campaign": NAME, "week": 1, "player": "zones", "phase": phase}
    p = tmp_path / "fuzz.yaml"
    p.write_text(yaml.safe_dump({**base, **data}, allow_unicode=True), encoding="utf-8")
    kind, err = sort_file(str(p))
    assert err is None or err.line().startswith(f"{p}: line ")
    if kind != "turn":
        return
    try:
        read_turn_file(str(p))
    except GameFileError as exc:
        assert exc.line().startswith(f"{p}: ") and "\n" not in exc.line()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_are_sorted_or_refused_naming_the_file_and_a_line(tmp_path, raw):
    p = tmp_path / "fuzz.yaml"
    p.write_bytes(raw)
    kind, err = sort_file(str(p))
    assert kind in ("turn", "order", "")
    if err is not None:
        assert err.line().startswith(f"{p}: line "), err.line()
