"""The campaign's score (game/systems/campaign/rules/score.py: enemy units destroyed minus own
units lost, read from the history) and the arena judging a campaign stopped by --max-rounds by
it; a system without a score (the tactical battle) keeps the arena's output as it was."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from game.__main__ import main
from game.cli.arena import seating
from game.core.ai import game_summary
from game.core.record import Record
from game.systems.campaign.plugin import PLUGIN
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import GmEditUnit
from game.systems.campaign.rules.events import CasualtiesPlaced, Routed
from game.systems.campaign.rules.score import tally
from game.systems.campaign.rules.state import BattleState
from tests.rules.campaign.campfix import fight, must, to_orders

MAPS = Path(__file__).resolve().parents[2] / "maps"
TEACHING = MAPS / "campaign" / "teaching.yaml"
ALL_HARD = [f"--seat={p}=ai:hard" for p in ("zones", "resistance", "zenith", "jibril")]


def _teaching_state() -> Any:
    loaded = PLUGIN.load(TEACHING)
    return SYSTEM.initial_state(PLUGIN.setup_of(loaded), 1)


def _unit_of(state: Any, owner: str) -> str:
    return str(next(u for a in state.armies.values() if a.owner == owner for u in a.units))


# --------------------------------------------------------------------------- the score


def test_a_unit_destroyed_in_a_battle_counts_for_the_other_side_of_that_battle_and_against_its_owner() -> None:
    """Four powers, two battles: a unit Zenith loses in its battle with the Resistance counts for
    the Resistance, one Jibril loses in a rout against the Zones for the Zones; the powers of the
    other battle neither gain nor lose by it."""
    s = _teaching_state()
    battles = {"B1": BattleState(id="B1", hex=(21, 27), sides=("zones", "jibril"), started_week=1),
               "B2": BattleState(id="B2", hex=(28, 11), sides=("resistance", "zenith"), started_week=1)}
    s = s.model_copy(update={"battles": battles})
    zenith_unit, jibril_unit = _unit_of(s, "zenith"), _unit_of(s, "jibril")
    events = [CasualtiesPlaced(battle="B2", player="zenith", count=3, rolled=3, mitigated=0, extra=0,
                               placed=((zenith_unit, 3),), destroyed=(zenith_unit,)),
              Routed(battle="B1", player="jibril", destroyed=(jibril_unit,))]
    t = tally(s, events)
    assert t.destroyed == {"zones": 1, "resistance": 1, "zenith": 0, "jibril": 0}
    assert t.lost == {"zones": 0, "resistance": 0, "zenith": 1, "jibril": 1}
    assert t.score == {"zones": 1, "resistance": 1, "zenith": -1, "jibril": -1}
    assert t.battles == 2


def test_a_fought_battles_destroyed_units_count_for_their_enemy_and_a_gm_edit_counts_for_nobody() -> None:
    seen = 0
    for seed in range(1, 5):
        s = to_orders(["zone_rifle_division"] * 4, ["zone_rifle_division"], seed=seed)
        s, events = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "attack", "vanguard": "b.1"})
        lost = {p: sum(1 for u in s.units.values() if u.destroyed and u.army == ("r" if p == "red" else "b"))
                for p in ("red", "blue")}
        t = tally(s, events)
        assert t.lost == lost
        assert t.destroyed == {"red": lost["blue"], "blue": lost["red"]}
        assert t.score == {"red": lost["blue"] - lost["red"], "blue": lost["red"] - lost["blue"]}
        seen += lost["red"] + lost["blue"]
        alive = next(u for u in s.units.values() if not u.destroyed)
        s2, gm_events = must(s, GmEditUnit(unit=alive.id, destroyed=True))
        assert s2.units[alive.id].destroyed
        assert tally(s2, (*events, *gm_events)) == t
    assert seen > 0  # the seeds destroy units (else the test shows nothing)


def test_the_campaigns_summary_counts_the_battles_begun_and_the_history_gives_the_score() -> None:
    s = to_orders(["zone_rifle_division"] * 4, ["zone_rifle_division"], seed=1)
    assert SYSTEM.summary(s)["battles_fought"] == 1
    record = Record(SYSTEM, s)
    record.apply(SYSTEM.parse_command({"kind": "orders", "player": "red", "battle": "B1",
                                       "manoeuvre": "attack", "vanguard": "r.1"}))
    record.apply(SYSTEM.parse_command({"kind": "orders", "player": "blue", "battle": "B1",
                                       "manoeuvre": "attack", "vanguard": "b.1"}))
    summary = game_summary(SYSTEM, record.state, record.steps)
    expected = tally(record.state, record.all_events())
    assert summary["score"] == expected.score and sum(summary["score"].values()) == 0
    assert summary["units_destroyed"] == expected.destroyed and summary["units_lost"] == expected.lost
    assert summary["battles_fought"] == 1 and summary["round"] == record.state.week


def test_a_system_without_a_history_summary_keeps_its_summary_as_it_is() -> None:
    class Plain:
        def summary(self, state: Any) -> dict[str, Any]:
            return {"round": 3, "over": False}

    assert game_summary(Plain(), object(), []) == {"round": 3, "over": False}  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the arena

_GAME = re.compile(r"^game (\d+) \(seed \d+\): (.*?): not over after \d+ commands; (\d+) battles?; "
                   r"scores: (.*?): (.*)$")


def _games(out: str) -> list[tuple[dict[str, str], dict[str, int], int, str]]:
    """Each game line: side -> player, side -> score, battles, the verdict."""
    games = []
    for line in out.splitlines():
        m = _GAME.match(line)
        if m:
            who = dict(x.split("=") for x in m.group(2).split(", "))
            scores = {side: int(v) for side, v in (x.split(" ") for x in m.group(4).split(", "))}
            games.append((who, scores, int(m.group(3)), m.group(5)))
    return games


def _results(out: str) -> dict[str, tuple[int, int, int]]:
    res = {}
    for line in out.splitlines():
        m = re.match(r"^  (P\d \w+): (\d+) won, (\d+) drawn, (\d+) lost of \d+ \(\d+ by score\)", line)
        if m:
            res[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return res


def test_the_arena_counts_the_best_score_as_the_win_of_a_campaign_stopped_by_max_rounds(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two teaching campaigns of three weeks, four hard powers, seats rotating: each player's win,
    draw or loss is that of its own seat by the scores its game line prints."""
    assert main(["arena", str(TEACHING), *ALL_HARD, "--games", "2", "--seed", "3", "--max-rounds", "3"]) == 0
    out = capsys.readouterr().out
    games = _games(out)
    assert len(games) == 2
    assert games[0][0] != games[1][0]  # the seats rotated
    expected: dict[str, list[int]] = {}
    for who, scores, _, verdict in games:
        top = max(scores.values())
        best = [side for side, v in scores.items() if v == top]
        assert sum(scores.values()) == 0
        if len(best) == 1:
            assert verdict == f"{who[best[0]]} ({best[0]}) wins by score"
        else:
            assert verdict.startswith("a draw by score between ")
        for side, player in who.items():
            tallies = expected.setdefault(player, [0, 0, 0])
            tallies[0 if side in best and len(best) == 1 else 1 if side in best else 2] += 1
    assert any(len(set(scores.values())) > 1 for _, scores, _, _ in games)  # a game that scored
    assert _results(out) == {player: tuple(t) for player, t in expected.items()}
    assert "results (2 games not over, judged by score" in out
    assert re.search(r"P1 hard: .*; mean score [+-]\d+\.\d\d \(destroyed \d+\.\d\d, lost \d+\.\d\d a game\)", out)
    total = sum(b for _, _, b, _ in games)
    assert f"battles: {total} in 2 games" in out and total > 0


def test_the_arena_calls_a_campaign_where_every_score_is_equal_a_draw_for_every_seat(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", str(TEACHING), "--games", "1", "--seed", "1", "--max-rounds", "1"]) == 0
    out = capsys.readouterr().out
    (who, scores, battles, verdict), = _games(out)
    assert set(scores.values()) == {0} and battles == 0
    assert verdict == "a draw by score between " + ", ".join(f"{p} ({s})" for s, p in who.items())
    assert _results(out) == {p: (0, 1, 0) for p in who.values()}


def test_a_tactical_arena_run_prints_as_before_without_scores(capsys: pytest.CaptureFixture[str]) -> None:
    """The tactical battle has no score: a game stopped by --max-rounds stays "not over" and the
    lines keep their format (no scores, no battles, no mean score)."""
    assert main(["arena", str(MAPS / "demo-movement.yaml"), "--games", "2", "--seed", "5",
                 "--max-rounds", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("arena: demo-movement.yaml (") and lines[0].endswith("per decision")
    games = [ln for ln in lines if ln.startswith("game ")]
    assert len(games) == 2
    for ln in games:
        assert re.fullmatch(r"game \d \(seed \d\): \w+=P\d \w+, \w+=P\d \w+: not over after \d+ commands", ln)
    assert lines[3] == "results:"
    players = lines[4:6]
    for ln in players:
        assert re.fullmatch(r"  P\d random: 0 won, 0 drawn, 0 lost, 2 not over of 2: win rate 0\.0% "
                            r"\(95% CI 0\.0%-65\.8%\)", ln)
    assert lines[6] == "decision time:"
    assert "score" not in out and "battles" not in out


def test_the_arena_seats_every_order_in_turn_so_each_player_meets_each_side_and_each_neighbour() -> None:
    sides, labels = ["a", "b", "c", "d"], ["P1 hard", "P2 hard", "P3 easy", "P4 easy"]
    games = [seating(sides, labels, g) for g in range(24)]
    assert len({tuple(sorted(who.items())) for who in games}) == 24  # every order once
    for lab in labels:
        assert all(sum(who[s] == lab for who in games) == 6 for s in sides)  # each side 6 times in 24
    hard_pairs = {frozenset(s for s, lab in who.items() if lab.endswith("hard")) for who in games}
    assert hard_pairs == {frozenset(p) for p in combinations(sides, 2)}  # the two hard seats on every pair
    assert [seating(["x", "y"], ["P1", "P2"], g) for g in range(3)] == [
        {"x": "P1", "y": "P2"}, {"x": "P2", "y": "P1"}, {"x": "P1", "y": "P2"}]  # two sides: swapped in turn
