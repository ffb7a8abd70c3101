"""Play by post (issue 31): a week's report from a command script or a save (the window's kind)
holds every story post and every result; `brief` gives a player their view and a draft that
`seal` takes; `seal` checks a draft against the player's view and refuses each kind of illegal
order with its reason; `status` says whose orders are in."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.report import escape
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, head_before_orders
from tests.hostile.hostile import cli

S = str(SCENARIO)
RESULTS = ("army_locked", "routed", "army_joined", "army_destroyed", "battle_ended", "casualties_placed",
           "result_read", "army_moved", "battle_started")


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> Path:
    """The teaching campaign played to its end and saved as the window saves it."""
    from game.__main__ import main

    out = tmp_path_factory.mktemp("pbp") / "teaching-save.yaml"
    assert main(["run", S, "--commands", str(SCRIPT), "--out", str(out)]) == 0
    return out


def _week_events(week: int) -> tuple[object, list[object]]:
    from game.systems.campaign.cli.campaign import replay

    _, rec, _ = replay(S, str(SCRIPT))
    steps = [s for s in rec.steps if s.before.week == week]
    # an army destroyed in the week is gone at its end, but the report names it (not its id)
    after = steps[-1].after
    named = after.model_copy(update={"armies": {**steps[0].before.armies, **after.armies}})
    return named, [e for s in steps for e in s.events]


@pytest.mark.parametrize("week", [1, 2])
@pytest.mark.parametrize("fmt", ["md", "bbcode"])
def test_the_report_from_a_script_and_from_a_save_holds_every_post_and_every_result(save, capsys, week, fmt):
    after, events = _week_events(week)
    texts = []
    for source in (SCRIPT, save):
        code, out, err, _ = cli(capsys, "campaign", "report", S, str(source), "--week", str(week), "--format", fmt)
        assert code == 0, err
        texts.append(out)
    assert texts[0] == texts[1]  # the save and the script tell the same week
    out = texts[0]
    posts = [p for p in after.posts if p.week == week]  # type: ignore[attr-defined]
    assert len(posts) == 4
    for p in posts:
        assert escape(p.text, fmt) in out
    results = [e for e in events if e.kind in RESULTS and e.kind != "result_read"  # type: ignore[attr-defined]
               and getattr(e, "reason", "") not in ("move", "gm")]  # (map moves are listed as paths)
    assert results
    for e in results:
        assert escape(event_text(after, e), fmt) in out, event_text(after, e)  # type: ignore[arg-type]
    if week == 1:
        assert "is pinned by the Block: no withdrawal in week 2" in out


def test_the_report_names_the_map_picture(capsys):
    code, out, _err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1", "--picture",
                             "/somewhere/week1.png")
    assert code == 0 and "week1.png" in out and "/somewhere" not in out


def test_a_save_of_another_system_is_refused_by_report_with_one_line(capsys):
    demo = Path(__file__).resolve().parents[1] / "fixtures" / "saves" / "v4-demo-overwatch.yaml"
    code, _out, err, _ = cli(capsys, "campaign", "report", S, str(demo), "--week", "1")
    assert code == 1 and "not a campaign save" in err and "Traceback" not in err


# --------------------------------------------------------------------------- brief, seal, status


def test_brief_gives_the_players_armies_units_battles_stratagems_and_a_draft_that_seals(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    draft = tmp_path / "draft.yaml"
    code, out, err, _ = cli(capsys, "campaign", "brief", S, str(head), "--player", "resistance", "--draft", str(draft))
    assert code == 0, err
    assert "Your armies" in out and "front.1: Front" in out and "attack" in out and "mobility" in out
    assert "B2 at 28,11 against Zenith Empire" in out and "flanking" in out
    assert "rifles.1" not in out  # another player's units are not this player's brief
    code, out, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "sealed.yaml"),
                            "--scenario", S, "--game", str(head))
    assert code == 0 and "checked against the campaign" in out, err


def _draft(tmp_path: Path, order: str, *, player: str = "zones", week: int = 1, campaign: str = NAME) -> Path:
    d = tmp_path / "draft.yaml"
    d.write_text(f"campaign: {campaign}\nweek: {week}\nplayer: {player}\norders:\n{order}", encoding="utf-8")
    return d


GOOD = "  - {battle: B1, manoeuvre: withdraw, vanguard: rifles.6, withdraw_to: [20, 27]}\n"


@pytest.mark.parametrize(("kw", "order", "reason"), [
    ({"campaign": "Some other campaign"}, GOOD, "campaign: orders for the campaign 'Some other campaign'"),
    ({"week": 2}, GOOD, "week: orders for week 2, but the campaign is in week 1"),
    ({"player": "nobody"}, GOOD, "player: no player 'nobody'"),
    ({}, "  - {battle: B2, manoeuvre: attack, vanguard: rifles.6}\n", "refused by the rules"),
    ({}, "  - {battle: B9, manoeuvre: attack, vanguard: rifles.6}\n", "refused by the rules"),
    ({}, "  - {battle: B1, manoeuvre: attack, vanguard: corps.1}\n", "refused by the rules"),
    ({}, "  - {battle: B1, manoeuvre: attack, vanguard: rifles.1, stratagems: [flanking, flanking]}\n",
     "named twice"),
    ({}, "  - {battle: B1, manoeuvre: withdraw, vanguard: rifles.6, withdraw_to: [0, 0]}\n", "refused by the rules"),
    ({}, "  - {battle: B1, manoeuvre: hide, vanguard: rifles.6}\n", "manoeuvre"),
    ({}, GOOD + GOOD, "a second order for battle B1"),
    ({}, "  []\n", "no order for battle B1"),
])
def test_seal_refuses_each_kind_of_illegal_draft_with_its_reason(tmp_path, capsys, kw, order, reason):
    head = head_before_orders(tmp_path, 1)
    draft = _draft(tmp_path, order if order != "  []\n" else "", **kw)
    if order == "  []\n":
        draft.write_text(draft.read_text() .replace("orders:\n", "orders: []\n"))
    out = tmp_path / "sealed.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(out), "--scenario", S,
                           "--game", str(head))
    assert code != 0 and reason in err and "Traceback" not in err, err
    assert not out.exists()


def test_seal_takes_a_legal_draft_checked_against_a_save(tmp_path, capsys):
    from game.__main__ import main

    head = head_before_orders(tmp_path, 1)
    save = tmp_path / "save.yaml"
    assert main(["run", S, "--commands", str(head), "--out", str(save)]) == 0
    code, out, err, _ = cli(capsys, "campaign", "seal", str(_draft(tmp_path, GOOD)), "--out",
                            str(tmp_path / "z.yaml"), "--scenario", S, "--game", str(save))
    assert code == 0 and "checked against the campaign" in out, err


def test_status_says_which_battles_are_open_and_whose_orders_are_in(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    lines = head.read_text().splitlines()
    part = tmp_path / "part.yaml"
    part.write_text("\n".join(lines + ["- {kind: orders, player: jibril, battle: B1, manoeuvre: block, "
                                       "vanguard: corps.1}"]) + "\n")
    code, out, err, _ = cli(capsys, "campaign", "status", S, str(part))
    assert code == 0, err
    assert "B1 at 21,27: The Zones: waiting; Jibril: orders in" in out
    assert "B2 at 28,11: Resistance Fronts: waiting; Zenith Empire: waiting" in out
    assert "Orders still to come from: Resistance Fronts, The Zones, Zenith Empire" in out


def test_a_report_written_from_a_save_says_how_to_make_its_map_picture(save, capsys, tmp_path):
    out = tmp_path / "week1.md"
    code, text, err, _ = cli(capsys, "campaign", "report", S, str(save), "--week", "1", "--picture", "week1-map.png",
                             "--out", str(out))
    assert code == 0, err
    assert f"python -m game render {save} --out week1-map.png" in text and "week1-map.png" in out.read_text()
