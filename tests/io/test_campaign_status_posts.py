"""`campaign status` in the narrative phase names who still owes a story post by the rules' own
query (game.systems.campaign.rules.queries.waiting_for, the one that ends the phase): only the
players with a battle who have not finished posting, never a player with no battle to write about."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.systems.campaign.cli.campaign import replay
from game.systems.campaign.rules.queries import waiting_for
from tests.hostile.campaignfix import SCENARIO, SCRIPT
from tests.hostile.hostile import cli

S = str(SCENARIO)


def _script(tmp_path: Path, *tail: str) -> Path:
    """The teaching script's week 1 to Jibril's declaration at Lowmarch (B1), then `tail`."""
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, ln in enumerate(lines) if ln.startswith("- {kind: declare, player: resistance"))
    p = tmp_path / "script.yaml"
    p.write_text("\n".join([*lines[:cut], *tail]) + "\n", encoding="utf-8")
    return p


def _posts_line(capsys: Any, script: Path) -> str:
    code, out, err, _ = cli(capsys, "campaign", "status", S, str(script))
    assert code == 0, err
    return next(ln for ln in out.splitlines() if ln.startswith("Story posts still to come from: "))


def test_a_player_who_posted_and_finished_is_not_waited_for_and_one_with_no_battle_never_is(
        tmp_path: Path, capsys: Any) -> None:
    # Stonegate is declined by both sides: only B1 (The Zones against Jibril) is fought this week
    script = _script(tmp_path,
                     "- {kind: declare, player: resistance, hex: [28, 11], fight: false}",
                     "- {kind: declare, player: zenith, hex: [28, 11], fight: false}",
                     *["- {kind: end_turn}"] * 4,
                     '- {kind: post, player: zones, battle: B1, text: "Brin holds the road.", generals: [brin]}',
                     "- {kind: narrative_done, player: zones}")
    _, rec, _ = replay(S, str(script))
    state = rec.state
    assert state.phase == "narrative" and waiting_for(state) == ["jibril"]
    # (the CLI once listed every player not finished: Resistance Fronts and Zenith Empire too)
    assert _posts_line(capsys, script) == "Story posts still to come from: Jibril"


def test_with_every_player_in_a_battle_the_line_names_those_still_to_finish(tmp_path: Path, capsys: Any) -> None:
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    cut = lines.index("- {kind: narrative_done, player: zones}") + 1
    script = tmp_path / "head.yaml"
    script.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    _, rec, _ = replay(S, str(script))
    assert waiting_for(rec.state) == ["resistance", "zenith", "jibril"]
    assert _posts_line(capsys, script) == "Story posts still to come from: Resistance Fronts, Zenith Empire, Jibril"
