"""Forum reports with hostile names (issue 34): unit, army and player names and story posts reach
the Markdown and the BBCode as text, never as markup (no link, no tag, no control character),
and the BBCode stays within phpBB's tags and sizes."""

from __future__ import annotations

import re

import pytest

from game.systems.campaign.rules.report import PHPBB_TAGS, escape
from tests.hostile.campaignfix import SCRIPT, bbcode_tags, scenario_copy
from tests.hostile.hostile import cli

HOSTILE_PLAYER = '"Zones [url=http://evil.example]x[/url] <b> www.evil.example"'
HOSTILE_ARMY = '"](http://evil.example) \\u202e [b]bold[/b] # heading"'


@pytest.fixture
def hostile(tmp_path):
    sc = scenario_copy(tmp_path, ("name: The Zones,", f"name: {HOSTILE_PLAYER},"),
                       ("name: Lowmarch Rifle Corps", f"name: {HOSTILE_ARMY}"))
    script = tmp_path / "script.yaml"
    script.write_text(SCRIPT.read_text(encoding="utf-8").replace(
        '"Colonel Brin orders the rifles back along the Lowmarch road."',
        '"[url=http://evil.example]click[/url]\\n# not a heading\\n](http://evil.example) [quote] \\x07 @everyone"'),
        encoding="utf-8")
    return sc, script


@pytest.mark.parametrize("fmt", ["md", "bbcode"])
def test_hostile_names_and_posts_reach_the_report_as_text_not_markup(hostile, capsys, fmt):
    sc, script = hostile
    code, out, err, _ = cli(capsys, "campaign", "report", str(sc), str(script), "--week", "1", "--format", fmt)
    assert code == 0 and "Traceback" not in err
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", out)  # no control or direction character
    assert "http://evil" not in out and "@everyone" not in out  # nothing a forum links by itself
    if fmt == "bbcode":
        assert bbcode_tags(out, PHPBB_TAGS) == []
        assert "[url" not in out and "[quote]\n" not in out.replace("[quote][b]", "")
    else:
        assert "](" not in out.replace("\\](", "")  # every ] of a name is escaped: no link
        assert not re.search(r"(?<!\\)<b>", out) and "\n# not a heading" not in out and "\\[url=" in out


@pytest.mark.parametrize(("text", "md", "bb"), [
    ("[url=http://x.example]y[/url]", "\\[url=http:\u200b//x.example\\]y\\[/url\\]",
     "[\u200burl=http:\u200b//x.example]y[\u200b/url]"),
    ("# title", "\\# title", "# title"),
    ("1. first", "1\\. first", "1. first"),
    ("a\x00b\x1b[0m", "a\ufffdb\ufffd\\[0m", "a\ufffdb\ufffd[\u200b0m"),
    ("line one\nline two", "line one line two", "line one line two"),
])
def test_escape_neutralises_each_formats_markup(text, md, bb):
    assert escape(text, "md") == md
    assert escape(text, "bbcode") == bb


def test_the_bbcode_report_uses_only_phpbb_tags_and_percentage_sizes(capsys):
    from tests.hostile.campaignfix import SCENARIO

    for week in ("1", "2"):
        code, out, _err, _ = cli(capsys, "campaign", "report", str(SCENARIO), str(SCRIPT), "--week", week,
                                 "--format", "bbcode")
        assert code == 0 and bbcode_tags(out, PHPBB_TAGS) == [] and "[font" not in out
        assert re.findall(r"\[size=(\d+)\]", out) and all(50 <= int(n) <= 200
                                                          for n in re.findall(r"\[size=(\d+)\]", out))


@pytest.mark.parametrize("name", ['"Zo\\0nes"', '"Zones\\e[31m"', '"Zo\\x07nes"'])
@pytest.mark.parametrize("field", ["name: The Zones,", "name: Lowmarch Rifle Corps"])
def test_a_control_character_in_a_player_or_army_name_is_refused_in_one_line_by_every_command(
        tmp_path, capsys, name, field):
    sc = scenario_copy(tmp_path, (field, f"name: {name}" + ("," if field.endswith(",") else "")))
    for argv in (["validate", str(sc)], ["campaign", "play", str(sc), str(SCRIPT), "--quiet"],
                 ["campaign", "report", str(sc), str(SCRIPT), "--week", "1"],
                 ["campaign", "status", str(sc), str(SCRIPT)],
                 ["run", str(sc), "--commands", str(SCRIPT)]):
        code, _o, err, _ = cli(capsys, *argv)
        problems = [ln for ln in err.splitlines() if ln.startswith("error:")]
        assert code != 0 and "Traceback" not in err and len(problems) == 1, (argv, err)
        assert str(sc) in problems[0] and "control character" in problems[0] and "name" in problems[0]


def test_hostile_names_without_control_characters_go_through_every_campaign_command(hostile, capsys, tmp_path):
    sc, script = hostile
    save = tmp_path / "save.yaml"
    for argv in (["validate", str(sc)], ["campaign", "play", str(sc), str(script), "--quiet"],
                 ["run", str(sc), "--commands", str(script), "--out", str(save)],
                 ["campaign", "report", str(sc), str(save), "--week", "2"],
                 ["campaign", "status", str(sc), str(save)],
                 ["campaign", "brief", str(sc), str(save), "--player", "zones"],
                 ["replay", "--verify", str(save)]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code == 0 and "Traceback" not in err, (argv, err)
