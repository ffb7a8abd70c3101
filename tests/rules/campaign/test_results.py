"""Results (design page §5): bands by margin, the matchup shift, the draw table, the generated
victory tables, movement results and mitigation, and the stratagems that change a result."""

from __future__ import annotations

import pytest

from game.systems.campaign.rules.combat import verdict
from game.systems.campaign.rules.models import MANOEUVRES, DrawCell
from game.systems.campaign.rules.tables import generate_victory
from tests.rules.campaign.campfix import facts, plays, rules, utype

BEATS = [("withdraw", "defend"), ("defend", "skirmish"), ("defend", "attack"), ("block", "withdraw"),
         ("block", "skirmish"), ("skirmish", "attack"), ("skirmish", "shock_attack"), ("attack", "shock_attack"),
         ("shock_attack", "block")]


def two(am: str, bm: str, astr: tuple[str, ...] = (), bstr: tuple[str, ...] = (), alevel: int = 0, blevel: int = 0,
        **kw: object):
    a = facts("red", [("a1", utype()), ("a2", utype(line=False))], level=alevel, **kw)  # type: ignore[arg-type]
    b = facts("blue", [("b1", utype()), ("b2", utype(line=False))], level=blevel)
    return plays(a, am, b, bm, astr, bstr)


def test_the_matchup_table_is_the_sources_strong_and_weak_lines() -> None:
    got = sorted((x, y) for x, ys in rules().matchups.items() for y in ys)
    assert got == sorted(BEATS)


@pytest.mark.parametrize(("margin", "band"), [(0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (6, 3), (9, 3)])
def test_bands_by_margin_for_manoeuvres_with_no_matchup(margin: int, band: int) -> None:
    pa, pb = two("attack", "attack")
    assert verdict(rules(), pa, pb, 3 + margin, 3).band == band


@pytest.mark.parametrize(("win", "lose"), BEATS)
def test_a_winner_whose_manoeuvre_beats_the_losers_goes_up_one_band(win: str, lose: str) -> None:
    pa, pb = two(win, lose)
    v = verdict(rules(), pa, pb, 4, 3)
    assert (v.band, v.shift, v.winner) == (2, 1, "red")


@pytest.mark.parametrize(("win", "lose"), [(y, x) for x, y in BEATS])
def test_a_winner_beaten_by_the_losers_manoeuvre_goes_down_one_band_and_minor_becomes_a_draw(win: str, lose: str) -> None:
    pa, pb = two(win, lose)
    assert verdict(rules(), pa, pb, 6, 3).band == 1  # major -> minor
    v = verdict(rules(), pa, pb, 4, 3)
    assert v.band == 0 and v.winner is None


def test_legendary_needs_a_level_three_general_else_it_counts_as_crushing() -> None:
    pa, pb = two("attack", "attack", alevel=2)
    assert verdict(rules(), pa, pb, 12, 0).band == 3
    pa, pb = two("attack", "attack", alevel=3)
    assert verdict(rules(), pa, pb, 12, 0).band == 4


def test_a_draw_reads_the_draw_table_for_both_sides() -> None:
    pa, pb = two("defend", "shock_attack")
    v = verdict(rules(), pa, pb, 3, 3)
    assert (v.taken["blue"].lo, v.taken["blue"].hi) == (1, 1)  # Defend vs Shock Attack: 1 casualty
    assert (v.taken["red"].lo, v.taken["red"].hi) == (0, 1)  # Shock Attack vs Defend: 0-1


def test_the_draw_table_withdraw_row_is_the_sources() -> None:
    row = rules().draw_table["withdraw"]
    assert {c: row[c].withdraw for c in MANOEUVRES} == {
        "withdraw": "arc", "defend": "route", "block": "fail", "skirmish": "arc", "attack": "arc",
        "shock_attack": "arc"}
    assert row["shock_attack"].casualties == (0, 1)


def test_the_shipped_victory_tables_are_generated_from_the_draw_table_by_the_rule() -> None:
    r = rules()
    generated = generate_victory(r.draw_table)  # type: ignore[arg-type]
    for band, parts in generated.items():
        for part, rows in parts.items():
            for row, cols in rows.items():
                for col, rng in cols.items():
                    assert list(getattr(r.victory[band], part)[row][col]) == rng, (band, part, row, col)  # type: ignore[index]


def test_generated_winner_ranges_scale_lo_plus_b_to_hi_plus_2b_and_no_result_counts_as_zero() -> None:
    draw = {r: {c: DrawCell() for c in MANOEUVRES} for r in MANOEUVRES}
    draw["attack"]["attack"] = DrawCell(casualties=(1, 2))
    t = generate_victory(draw)  # type: ignore[arg-type]
    assert [t[b]["winner"]["attack"]["attack"] for b in ("minor", "major", "crushing", "legendary")] == \
        [[2, 4], [3, 6], [4, 8], [5, 10]]
    assert t["major"]["winner"]["defend"]["defend"] == [2, 4]


def test_the_loser_inflicts_its_draw_casualties_minus_one_at_minor_and_nothing_above() -> None:
    pa, pb = two("attack", "shock_attack")  # attack beats shock: margin 1 -> major, loser inflicts nothing
    v = verdict(rules(), pa, pb, 4, 3)
    assert (v.taken["red"].lo, v.taken["red"].hi) == (0, 0)
    pa, pb = two("shock_attack", "shock_attack")
    v = verdict(rules(), pa, pb, 4, 3)  # minor: loser's draw 1-5 becomes 0-4
    assert (v.taken["red"].lo, v.taken["red"].hi) == (0, 4)
    assert (v.taken["blue"].lo, v.taken["blue"].hi) == (2, 7)


def test_a_winning_withdraw_always_gets_away_in_the_arc() -> None:
    for other in MANOEUVRES:
        pa, pb = two("withdraw", other)
        v = verdict(rules(), pa, pb, 9, 0)
        assert v.taken["red"].move == "arc", other


def test_a_losing_withdraw_fails_against_block_at_any_band_and_against_anything_at_major() -> None:
    pa, pb = two("withdraw", "block")
    assert verdict(rules(), pa, pb, 0, 1).taken["red"].move == "fail"
    pa, pb = two("withdraw", "attack")
    assert verdict(rules(), pa, pb, 0, 1).taken["red"].move == "arc"  # minor: the draw row's result
    assert verdict(rules(), pa, pb, 0, 4).taken["red"].move == "fail"


def test_a_losing_withdraw_gets_away_from_a_skirmish_at_any_band_but_takes_one_more_casualty() -> None:
    pa, pb = two("withdraw", "skirmish")
    v = verdict(rules(), pa, pb, 0, 9)
    assert v.taken["red"].move == "arc" and v.taken["red"].extra == 1


def test_continuous_front_lets_a_withdraw_go_only_back_up_its_route() -> None:
    pa, pb = two("withdraw", "defend", bstr=("continuous_front",))
    assert verdict(rules(), pa, pb, 5, 0).taken["red"].move == "route"


def test_a_winning_attack_forces_a_fall_back_at_major_and_a_shock_attack_at_minor() -> None:
    pa, pb = two("attack", "attack")
    assert verdict(rules(), pa, pb, 2, 0).taken["blue"].move == "stay"
    assert verdict(rules(), pa, pb, 3, 0).taken["blue"].move == "fall_back"
    pa, pb = two("shock_attack", "shock_attack")
    assert verdict(rules(), pa, pb, 1, 0).taken["blue"].move == "fall_back"


def test_a_crushing_shock_attack_routs_the_loser() -> None:
    pa, pb = two("shock_attack", "shock_attack")
    t = verdict(rules(), pa, pb, 6, 0).taken["blue"]
    assert t.move == "rout" and t.rout


def test_hold_the_line_cannot_be_forced_back_and_gives_up_mitigation() -> None:
    pa, pb = two("attack", "defend", bstr=("hold_the_line",), blevel=1)
    assert verdict(rules(), pa, pb, 9, 0).taken["blue"].move == "hold"
    pa, pb = two("attack", "defend", bstr=("hold_the_line",), blevel=1)
    assert verdict(rules(), pa, pb, 0, 3).taken["blue"].mitigation == 0
    pa, pb = two("attack", "defend")
    assert verdict(rules(), pa, pb, 0, 3).taken["blue"].mitigation == 3


def test_a_winning_defend_mitigates_only_skirmish_and_attack_casualties() -> None:
    for other, mit in (("skirmish", 2), ("attack", 2), ("shock_attack", 0), ("block", 0)):
        pa, pb = two(other, "defend")
        assert verdict(rules(), pa, pb, 0, 2).taken["blue"].mitigation == mit, other


def test_a_winning_block_locks_the_loser() -> None:
    pa, pb = two("block", "attack")
    assert verdict(rules(), pa, pb, 3, 0).taken["blue"].locked


def test_delay_mitigates_half_its_successes_rounded_down_win_lose_or_draw() -> None:
    for sa, sb in ((5, 0), (0, 5), (5, 5)):
        pa, pb = two("block", "attack", astr=("delay",), alevel=2)
        assert verdict(rules(), pa, pb, sa, sb).taken["red"].mitigation >= sa // 2


def test_encirclement_lapses_unless_its_vanguard_is_faster_and_adds_a_casualty_when_it_holds() -> None:
    fast = facts("red", [("a1", utype(mobility=5))], level=2)
    slow = facts("blue", [("b1", utype(mobility=2))])
    pa, pb = plays(fast, "block", slow, "attack", astr=("encirclement",))
    assert pa.has("encirclement")
    assert verdict(rules(), pa, pb, 5, 0).taken["blue"].extra == 1
    pa, pb = plays(slow, "block", fast, "attack", astr=("encirclement",))
    assert not pa.has("encirclement") and pa.dropped


def test_hammer_and_anvil_reads_the_attack_row_and_can_force_a_fall_back() -> None:
    pa, pb = two("block", "defend", astr=("hammer_and_anvil",), alevel=3)
    v = verdict(rules(), pa, pb, 4, 0)  # major win
    attack_row = rules().victory["major"].winner["attack"]["defend"]
    assert (v.taken["blue"].lo, v.taken["blue"].hi) == tuple(attack_row)
    assert v.taken["blue"].move == "fall_back"


def test_raid_adds_one_casualty_on_a_win_aimed_at_supporting_units() -> None:
    pa, pb = two("skirmish", "skirmish", astr=("raid",), alevel=1)
    t = verdict(rules(), pa, pb, 3, 0).taken["blue"]
    assert t.extra == 1 and t.extra_supporting_first


def test_guerrilla_keeps_a_skirmish_from_losing_a_band_against_defend_or_block() -> None:
    for other in ("defend", "block"):
        pa, pb = two("skirmish", other, astr=("guerrilla",), alevel=2, difficult=True)
        assert verdict(rules(), pa, pb, 4, 3).band == 1
        pa, pb = two("skirmish", other)
        assert verdict(rules(), pa, pb, 4, 3).band == 0


def test_breakthrough_moves_a_winning_attack_on_at_major_or_better() -> None:
    pa, pb = two("attack", "skirmish", astr=("breakthrough",), alevel=1)
    assert verdict(rules(), pa, pb, 9, 0).taken["red"].move == "breakthrough"
    assert verdict(rules(), pa, pb, 4, 0).taken["red"].move == "stay"  # major -1 (skirmish beats attack) = minor


def test_flee_is_read_as_a_losing_withdraw_at_minor() -> None:
    pa, pb = two("attack", "attack", astr=("flee",))
    v = verdict(rules(), pa, pb, 0, 0)
    assert (v.band, v.winner) == (1, "blue") and v.taken["red"].move == "arc"
    pa, pb = two("attack", "block", astr=("flee",))
    assert verdict(rules(), pa, pb, 0, 0).taken["red"].move == "fail"


def test_last_stand_loses_the_rearguard_when_the_withdrawal_succeeds() -> None:
    pa, pb = two("withdraw", "attack", astr=("last_stand",), alevel=1)
    assert verdict(rules(), pa, pb, 5, 0).taken["red"].last_stand_loss
    pa, pb = two("withdraw", "block", astr=("last_stand",), alevel=1)
    assert not verdict(rules(), pa, pb, 0, 3).taken["red"].last_stand_loss
