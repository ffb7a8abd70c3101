"""One campaign, three scales (game/bridge, docs/scales.md): a campaign battle becomes a tactical
scenario or a mass battle file that load like shipped ones, and a finished battle comes back as a
campaign result the campaign continues (and replays) from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.__main__ import main
from game.bridge import back
from game.bridge.files import cells_of, mass_map_terrain, write_mass
from game.bridge.mass import mass_plan
from game.bridge.sides import BridgeError, sides_of
from game.bridge.tactical import check_complete, tactical_plan
from game.core.system import Accepted, Rejection
from game.systems.campaign.io.files import load_campaign_catalogue
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.battle import unit_capacity
from game.systems.campaign.rules.commands import parse_command
from game.systems.mass.io.files import load_battle
from game.systems.tactical.io.scenario import load_scenario
from game.table import TABLE

from .conftest import TEACHING, TO_ORDERS, campaign_record


def _tplan(campaign: Any, rules: Any, battle: str, out: Path | None = None) -> Any:
    """The plan on the ground generated from the battle's hex (written to `out`, else a scratch folder)."""
    import tempfile

    from game.bridge.tiled import generate_tactical

    if out is not None:
        return generate_tactical(campaign, battle, rules, out, "b").plan
    with tempfile.TemporaryDirectory() as tmp:
        return generate_tactical(campaign, battle, rules, tmp, "b").plan


# --------------------------------------------------------------------------- the rules data

def test_every_campaign_unit_type_has_tactical_units_and_a_mass_kind(scales_rules: Any) -> None:
    cat = load_campaign_catalogue()
    assert check_complete(scales_rules, cat.powers) == []
    types = cat.unit_types()
    assert sorted(t for t in types if t not in scales_rules.mass.unit_kinds) == []


def test_the_tactical_table_names_only_units_of_the_tactical_catalogue(scales_rules: Any) -> None:
    from game.systems.tactical.io.data import load_catalogue

    known = set(load_catalogue().units)
    named = {t for table in scales_rules.tactical.units.values() for ts in table.values() for t in ts}
    assert named <= known


# --------------------------------------------------------------------------- to a tactical battle

@pytest.mark.parametrize("battle", ["B1", "B2"])
def test_a_campaign_battle_becomes_a_tactical_scenario_that_loads_like_a_shipped_one(
        campaign: Any, scales_rules: Any, tmp_path: Path, battle: str) -> None:
    plan = _tplan(campaign, scales_rules, battle, tmp_path)
    path = tmp_path / "b.yaml"
    assert plan.map_name == "b.tmx" and (tmp_path / "b.tmx").is_file()  # the ground beside it
    loaded = load_scenario(path)
    ids = {u.id for u in loaded.setup.units}
    assert ids == set(plan.origin)
    b = campaign.battles[battle]
    assert set(plan.origin.values()) == {u for p in b.sides for u in campaign.force_units(b, p)}
    assert [s.id for s in loaded.setup.sides] == [plan.defender, plan.attacker]


def test_each_campaign_unit_fields_the_tactical_units_its_power_and_type_map_to(campaign: Any,
                                                                                scales_rules: Any) -> None:
    plan = _tplan(campaign, scales_rules, "B1")
    by_id = {u["id"]: u for u in plan.scenario["units"]}
    for tid, cuid in plan.origin.items():
        power = {p.id: p.power for p in campaign.cs.players}[campaign.armies[campaign.units[cuid].army].owner]
        assert by_id[tid]["type"] in scales_rules.tactical.units[power][campaign.units[cuid].type_id]
    # corps.1 is Jibril Armoured Infantry: one armoured_infantry
    assert [by_id[t]["type"] for t, c in plan.origin.items() if c == "corps.1"] == ["armoured_infantry"]


def test_generated_tactical_units_are_named_for_players_not_by_their_ids(campaign: Any, scales_rules: Any) -> None:
    plan = _tplan(campaign, scales_rules, "B1")
    names = [u["name"] for u in plan.scenario["units"]]
    assert len(set(names)) == len(names)  # every unit told apart by its name
    for u in plan.scenario["units"]:
        cuid = plan.origin[u["id"]]
        assert u["id"] not in u["name"] and cuid not in u["name"]
        assert u["name"].startswith(campaign.unit_type(cuid).name + " ")
    assert "python -m" not in plan.scenario["description"]  # the briefing speaks to players


def test_each_side_deploys_on_the_edge_it_came_from_and_the_defender_is_placed_first(campaign: Any,
                                                                                     scales_rules: Any) -> None:
    plan = _tplan(campaign, scales_rules, "B1")  # Lowmarch: a town
    assert campaign.cs.map.terrain[campaign.battles["B1"].hex] == "town"
    # the Zones did not move into Lowmarch: they defend; Jibril marched in
    assert plan.defender == "zones" and plan.attacker == "jibril"
    # the rifles' previous hex 20,27 is Lowmarch's north-west neighbour; Jibril came from 22,27, its
    # north-east one: on the map the Zones stand west of Jibril, both at the top
    assert plan.edges == {"rifles": ("north-west", "came from 20,27"), "corps": ("north-east", "came from 22,27")}
    cols = {s: [u["at"][0] for u in plan.scenario["units"] if u["side"] == s] for s in ("zones", "jibril")}
    assert max(cols["zones"]) < min(cols["jibril"])
    assert plan.scenario["units"][0]["side"] == "zones"  # placed first


def test_generals_become_commanders_with_the_stats_of_their_level(campaign: Any, scales_rules: Any) -> None:
    plan = _tplan(campaign, scales_rules, "B1")
    sides = {s["id"]: s for s in plan.scenario["sides"]}
    assert sides["jibril"]["commander"]["name"] == "Strategos Kiran"  # level 2
    assert sides["jibril"]["commander"]["stats"] == scales_rules.tactical.commanders[2].stats
    assert sides["zones"]["commander"]["stats"] == scales_rules.tactical.commanders[1].stats  # Colonel Brin


def test_a_battle_that_is_not_open_is_refused_in_one_line(campaign: Any, scales_rules: Any) -> None:
    with pytest.raises(BridgeError, match="there is no battle B9"):
        tactical_plan(campaign, "B9", scales_rules, cells_of("riverford.tmx"))
    with pytest.raises(BridgeError, match="there is no battle B9"):
        _tplan(campaign, scales_rules, "B9")


# --------------------------------------------------------------------------- to a mass battle

def test_a_campaign_battle_becomes_a_mass_battle_file_that_loads(campaign: Any, scales_rules: Any,
                                                                 tmp_path: Path) -> None:
    plan = mass_plan(campaign, "B1", scales_rules, mass_map_terrain())
    loaded = load_battle(write_mass(plan.battle, tmp_path, "m"))
    forces = {f.id: f for f in loaded.setup.forces}
    assert list(forces) == ["zones", "jibril"]
    # the Zones' masses of unarmoured infantry: 10 rifle divisions (1000) + hussars (400) + 2 artillery
    # (300) + balloons (200), all without armour; Jibril: 3 armoured divisions (1000) + lancers (400), heavy
    zones = {d.armour: d.count for d in forces["zones"].brutes}
    assert zones == {"none": 10 * 1000 + 400 + 2 * 300 + 200}
    jibril = {d.armour: d.count for d in forces["jibril"].brutes}
    assert jibril == {"heavy": 3 * 1000 + 400}
    assert [i.name for i in forces["jibril"].individuals] == ["Strategos Kiran"]
    assert forces["jibril"].individuals[0].skills["battle"] == scales_rules.mass.generals[2].battle
    # Lowmarch is a town -> building -> the mass rules' map_terrain: constricted
    assert loaded.setup.terrain == "constricted"


# --------------------------------------------------------------------------- back to the campaign

def _losses_for(campaign: Any, battle: str, share: float) -> dict[str, back.Loss]:
    b = campaign.battles[battle]
    out = {}
    for p in b.sides:
        for u in campaign.force_units(b, p):
            out[u] = back.Loss(10, round(10 * share) if p == "zones" else 0)
    return out


def test_a_decisive_win_is_a_higher_band_and_moves_the_loser(campaign: Any, scales_rules: Any) -> None:
    r = back.campaign_result(campaign, "B1", scales_rules, _losses_for(campaign, "B1", 0.4), "jibril", "tactical")
    assert r.winner == "jibril" and r.decisiveness == 40 and r.band_name == "crushing victory"
    assert not r.destroyed  # 40% lost of a plain unit: floor(0.4 + 0.5) = 0 casualties
    assert r.moves == {"rifles": ((20, 27), (19, 26))}  # a rout: two hexes back up its route
    assert any(line.startswith("2. winner Jibril") for line in r.steps)
    small = back.campaign_result(campaign, "B1", scales_rules, _losses_for(campaign, "B1", 0.1), "jibril", "mass")
    assert small.band_name == "minor victory" and small.moves == {}


def test_no_winner_is_a_draw_and_nobody_moves(campaign: Any, scales_rules: Any) -> None:
    r = back.campaign_result(campaign, "B1", scales_rules, _losses_for(campaign, "B1", 0.3), None, "tactical")
    assert r.band == 0 and r.moves == {} and r.command()["winner"] is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_way_back_conserves_units_and_never_exceeds_strength(campaign: Any, scales_rules: Any,
                                                                 data: Any) -> None:
    battle = data.draw(st.sampled_from(["B1", "B2"]))
    b = campaign.battles[battle]
    units = [u for p in b.sides for u in campaign.force_units(b, p)]
    losses = {}
    for u in units:
        start = data.draw(st.integers(0, 20))
        losses[u] = back.Loss(start, data.draw(st.integers(0, 25)))  # even a nonsense "lost more than it had"
    winner = data.draw(st.sampled_from([None, *b.sides]))
    r = back.campaign_result(campaign, battle, scales_rules, losses, winner, "tactical")
    assert sorted(r.casualties) == sorted(units)  # every unit once, no other
    for u, n in r.casualties.items():
        assert 0 <= n <= unit_capacity(campaign.unit_type(u), campaign.units[u])
    outcome = SYSTEM.apply(campaign, parse_command(r.command()))
    assert isinstance(outcome, Accepted), getattr(outcome, "reason", "")
    after = outcome.state
    assert set(after.units) == set(campaign.units)  # nothing lost or duplicated
    destroyed = {u for u in units if after.units[u].destroyed}
    assert destroyed == set(r.destroyed)
    assert after.battles[battle].over


def test_the_campaign_refuses_a_result_giving_a_unit_more_casualties_than_it_can_take(campaign: Any) -> None:
    cmd = parse_command({"kind": "gm_battle_result", "battle": "B1", "winner": "jibril", "band": 1,
                         "casualties": {"corps.1": 3}})  # Armour 2
    outcome = SYSTEM.apply(campaign, cmd)
    assert isinstance(outcome, Rejection) and "at most 2 casualties" in outcome.reason
    stray = parse_command({"kind": "gm_battle_result", "battle": "B1", "casualties": {"front.1": 1}})
    outcome = SYSTEM.apply(campaign, stray)
    assert isinstance(outcome, Rejection) and "not a unit in battle B1" in outcome.reason


# --------------------------------------------------------------------------- the whole chain

def _run(argv: list[str], capsys: Any) -> str:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err + out.out
    return str(out.out)


def test_a_campaign_week_with_one_tactical_and_one_mass_battle_continues_and_replays(
        tmp_path: Path, capsys: Any) -> None:
    from game.replay import load_game, verify_save

    camp = tmp_path / "campaign.yaml"
    _run(["run", str(TEACHING), "--commands", str(TO_ORDERS), "--out", str(camp)], capsys)
    # B1 as a tactical battle, played by a command script to its end
    out = _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    assert "The Zones defend" in out  # a plural power (the scenario's plural: true)
    scenario = tmp_path / "battle-B1-tactical.yaml"
    loaded = load_scenario(scenario)
    script = []
    for u in loaded.setup.units:
        if u.side == "zones":
            script.append({"kind": "gm_edit_unit", "unit_id": u.id, "destroyed": True})
        else:
            script.append({"kind": "gm_edit_unit", "unit_id": u.id, "strength": 2})
    # the zones' first units fall last so the battle ends on the last command
    (tmp_path / "t-commands.yaml").write_text(yaml.safe_dump(script[::-1]), encoding="utf-8")
    tsave = tmp_path / "b1-save.yaml"
    out = _run(["run", str(scenario), "--commands", str(tmp_path / "t-commands.yaml"), "--out", str(tsave)], capsys)
    jibril = next(s.name for s in loaded.setup.sides if s.id == "jibril")
    assert f"winner {jibril}" in out  # the side's name, not its id
    after_b1 = tmp_path / "campaign-b1.yaml"
    out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(tsave), "--apply", str(after_b1)],
               capsys)
    assert "1. casualties of The Zones:" in out and "legendary victory" not in out.split("result:")[1]
    assert "result: crushing victory for Jibril" in out
    # B2 as a mass battle, played by a command script to its end
    _run(["scales", "mass", str(after_b1), "--battle", "B2", "--out", str(tmp_path)], capsys)
    mfile = tmp_path / "battle-B2-mass.yaml"
    mscript = {"system": "mass-battle", "battle": mfile.name, "commands": [
        {"kind": "appoint", "force": "resistance", "heaven": "resistance-varn", "honor": "resistance-varn"},
        {"kind": "appoint", "force": "zenith", "heaven": "zenith-aurel", "honor": "zenith-aurel"},
        {"kind": "surrender", "force": "zenith", "to": "resistance"},
        {"kind": "resolve_wave", "force": "resistance"}]}
    (tmp_path / "m-commands.yaml").write_text(yaml.safe_dump(mscript), encoding="utf-8")
    msave = tmp_path / "b2-save.yaml"
    _run(["run", str(mfile), "--commands", str(tmp_path / "m-commands.yaml"), "--out", str(msave)], capsys)
    final = tmp_path / "campaign-week2.yaml"
    out = _run(["scales", "back", str(after_b1), "--battle", "B2", "--result", str(msave), "--apply", str(final)],
               capsys)
    assert "for Resistance Fronts" in out
    # the saves written on the way back keep the campaign's title (the load menu lists them by it)
    assert load_game(TABLE, after_b1).header.title == load_game(TABLE, camp).header.title != ""
    assert load_game(TABLE, final).header.title == load_game(TABLE, camp).header.title
    # both battles are over, nobody had orders left to give: the week ended
    assert "week 2, movement phase" in out
    game = load_game(TABLE, final)
    assert game.state.week == 2 and all(b.over for b in game.state.battles.values())
    assert [s.command.kind for s in game.record.steps][-2:] == ["gm_battle_result", "gm_battle_result"]
    report = verify_save(TABLE, final)  # replay re-applies the whole log bit for bit
    assert report.commands == 21 + 2 and report.gm_actions == 2  # (week1-to-orders.yaml: 21 commands)
    # the way back shows the Zones' losses on the campaign map: every rifle division destroyed
    assert all(game.state.units[f"rifles.{i}"].destroyed for i in range(1, 11))


def test_the_way_back_refuses_a_battle_that_is_not_over(tmp_path: Path, capsys: Any) -> None:
    camp = tmp_path / "campaign.yaml"
    _run(["run", str(TEACHING), "--commands", str(TO_ORDERS), "--out", str(camp)], capsys)
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    (tmp_path / "none.yaml").write_text("[]\n", encoding="utf-8")
    tsave = tmp_path / "b1.yaml"
    _run(["run", str(tmp_path / "battle-B1-tactical.yaml"), "--commands", str(tmp_path / "none.yaml"),
          "--out", str(tsave)], capsys)
    code = main(["scales", "back", str(camp), "--battle", "B1", "--result", str(tsave)])
    err = capsys.readouterr().err
    assert code == 1 and "the tactical battle is not over" in err


def test_the_defender_is_the_side_that_did_not_move_in(campaign: Any) -> None:
    d, a = sides_of(campaign, campaign.battles["B2"])
    assert (d.player, a.player) == ("resistance", "zenith")
    assert campaign_record().state.to_dict() == campaign.to_dict()


def test_verify_replays_the_campaign_and_each_linked_battle_save_and_catches_a_change(
        tmp_path: Path, capsys: Any) -> None:
    camp = tmp_path / "campaign.yaml"
    _run(["run", str(TEACHING), "--commands", str(TO_ORDERS), "--out", str(camp)], capsys)
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    scenario = tmp_path / "battle-B1-tactical.yaml"
    script = [{"kind": "gm_edit_unit", "unit_id": u.id, "destroyed": True}
              for u in load_scenario(scenario).setup.units if u.side == "jibril"]
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(script), encoding="utf-8")
    tsave = tmp_path / "saves" / "b1.yaml"
    tsave.parent.mkdir()
    _run(["run", str(scenario), "--commands", str(tmp_path / "t.yaml"), "--out", str(tsave)], capsys)
    after = tmp_path / "after.yaml"
    out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(tsave), "--apply", str(after)], capsys)
    # Jibril lost everything, the Zones nothing: 100 points, legendary, but Colonel Brin is level 1
    assert "a legendary victory needs a General of level 3; the best is level 1" in out
    assert "result: crushing victory for The Zones" in out
    out = _run(["scales", "verify", str(after)], capsys)
    assert "B1 <- saves/b1.yaml: replays, unchanged, translates to the same result" in out
    assert "-- 1 linked battle save, 0 problems" in out
    tsave.write_text(tsave.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert main(["scales", "verify", str(after)]) == 1
    assert "has changed since its result was applied" in capsys.readouterr().out


def test_validate_recognises_and_checks_the_scales_rules_file(tmp_path: Path, capsys: Any) -> None:
    from .conftest import ROOT

    out = _run(["validate", str(ROOT / "assets" / "rules" / "scales.yaml")], capsys)
    assert "scales translation rules" in out
    bad = tmp_path / "scales.yaml"
    text = (ROOT / "assets" / "rules" / "scales.yaml").read_text(encoding="utf-8")
    bad.write_text(text.replace("major: 20", "major: 90"), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    assert "back.bands must increase" in capsys.readouterr().err


def test_the_armour_classes_follow_the_sources_descriptions_of_the_powers(scales_rules: Any) -> None:
    """docs/scales.md: the Zones' masses of unarmoured infantry and the Zenith levies fight without
    armour; every Jibril unit fights in heavy armour (armoured suits, energy shields, war machines)."""
    m = scales_rules.mass

    def armour(t: str) -> str:
        return str(m.kinds[m.unit_kinds[t]].armour)

    assert armour("zone_rifle_division") == armour("zenith_militia") == "none"
    assert {armour(t) for t in m.unit_kinds if t.startswith("jibril_")} == {"heavy"}
    assert m.kinds[m.unit_kinds["zenith_knights"]].heads == 100  # a hundred can match an army
