"""The campaign computer power plays to fight where it wins (game/systems/campaign/ai.py,
docs/ai.md "The campaign power"): it closes in on enemy armies it beats, strikes them, keeps
away from those that beat it, declares by the fight's worth, and two computer powers do meet in
battle. Its decisions do not depend on what it weighed before (the value cache)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.core.ai import Budget, choose, play_out
from game.systems.campaign.ai import CampaignPlayer, player
from game.systems.campaign.plugin import PLUGIN
from game.systems.campaign.rules.commands import Declare, MoveArmy
from game.systems.campaign.rules.engine import reach
from game.systems.campaign.rules.hexes import hex_distance

MAPS = Path(__file__).resolve().parents[2] / "maps" / "campaign"


def _teaching(seed: int = 0) -> Any:
    loaded = PLUGIN.load(MAPS / "teaching.yaml")
    return PLUGIN.system.initial_state(PLUGIN.setup_of(loaded), seed)


def _turn_of(state: Any, side: str) -> Any:
    """The movement phase of week 1 with `side` to move (the powers before it moved nothing)."""
    return state.model_copy(update={"turn": state.players.index(side)})


def _with_army_at(state: Any, army: str, at: tuple[int, int]) -> Any:
    armies = dict(state.armies)
    armies[army] = armies[army].model_copy(update={"hex": at})
    generals = {g: (x.model_copy(update={"hex": at}) if x.army == army else x) for g, x in state.generals.items()}
    return state.model_copy(update={"armies": armies, "generals": generals})


def _decide(state: Any, side: str, level: str) -> Any:
    return choose(PLUGIN.system, state, side, player(level, random.Random(1)), Budget(60)).decision


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_an_army_marches_toward_an_enemy_army_it_beats(level: str) -> None:
    # the teaching campaign: the Jibril Second Corps beats the Lowmarch Rifle Corps (armour
    # against plain rifles; the equilibrium's value is about +1.5 casualties a week for Jibril)
    s = _teaching()
    s = _with_army_at(s, "corps", (30, 27))
    rifles = s.armies["rifles"].hex
    d = _decide(_turn_of(s, "jibril"), "jibril", level)
    assert isinstance(d.command, MoveArmy) and d.command.army == "corps"
    m = s.cs.map
    assert hex_distance(m, d.command.path[-1], rifles) < hex_distance(m, (30, 27), rifles)
    assert "toward Lowmarch Rifle Corps" in d.why


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_an_army_keeps_away_from_an_enemy_army_that_beats_it_and_can_reach_it(level: str) -> None:
    s = _teaching()
    corps = s.armies["corps"]
    assert s.armies["rifles"].hex in reach(s, "corps")  # the corps can strike the rifles this week
    d = _decide(_turn_of(s, "zones"), "zones", level)
    assert isinstance(d.command, MoveArmy) and d.command.army == "rifles"
    end = d.command.path[-1]
    m = s.cs.map
    assert hex_distance(m, end, corps.hex) > hex_distance(m, s.armies["rifles"].hex, corps.hex)
    if level == "hard":  # hard knows where the corps can go next: out of its reach
        assert end not in reach(s, "corps")
    assert "away from Jibril Second Corps" in d.why


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_an_army_strikes_an_enemy_army_it_beats_within_reach_and_both_declare_by_the_fights_worth(
        level: str) -> None:
    s = _turn_of(_teaching(), "jibril")
    rifles = s.armies["rifles"].hex
    d = _decide(s, "jibril", level)
    assert isinstance(d.command, MoveArmy) and d.command.path[-1] == rifles
    assert "onto Lowmarch Rifle Corps" in d.why
    system = PLUGIN.system
    after = system.apply(s, d.command).state
    after = system.apply(after, system.parse_command({"kind": "end_turn"})).state
    assert after.phase == "declare"
    zones = _decide(after, "zones", level)  # asked first (player order): it loses, so it declines
    assert isinstance(zones.command, Declare) and zones.command.fight is False
    after = system.apply(after, zones.command).state
    jibril = _decide(after, "jibril", level)
    assert isinstance(jibril.command, Declare) and jibril.command.fight is True
    assert "fight at" in jibril.why


def test_a_weaker_army_does_not_move_onto_an_enemy_army_that_beats_it() -> None:
    # the Stonegate Front loses to the Host of the Ember Crown two hexes away (value about -2.1)
    s = _turn_of(_teaching(), "resistance")
    host = s.armies["host"].hex
    assert host in reach(s, "front")
    for level in ("easy", "hard"):
        d = _decide(s, "resistance", level)
        assert not (isinstance(d.command, MoveArmy) and d.command.path[-1] == host)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_four_computer_powers_fight_battles_in_eight_weeks_of_the_teaching_campaign(level: str) -> None:
    s = _teaching(3)
    seats = {p: player(level, random.Random(f"3{p}")) for p in s.players}
    game = play_out(PLUGIN.system, s, seats, max_rounds=8)
    battles = game.record.state.battles
    assert len(battles) >= 1
    destroyed = sum(1 for u in game.record.state.units.values() if u.destroyed)
    assert destroyed >= 1


def test_a_decision_is_the_same_whatever_the_power_weighed_before() -> None:
    # a power keeps the values it weighed for the game (a cache); each decision spends the work
    # of every fight it weighs, cached or not, so a fresh power decides the same way
    s = _teaching(2)
    seats = {p: player("hard", random.Random(f"2{p}")) for p in s.players}
    game = play_out(PLUGIN.system, s, seats, max_rounds=4, work=900)
    system = PLUGIN.system
    checked = 0
    for step in game.record.steps:
        state = step.before
        if state.phase not in ("movement", "declare", "pickup"):
            continue
        side = system.to_move(state)[0]
        warm = seats[side]
        assert isinstance(warm, CampaignPlayer)
        a = choose(system, state, side, warm, Budget(60, 900)).decision
        b = choose(system, state, side, player("hard", random.Random(0)), Budget(60, 900)).decision
        assert a == b
        checked += 1
    assert checked >= 20
