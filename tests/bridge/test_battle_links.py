"""A battle fought out gets dice nobody could know, and its save counts only for the campaign
battle it was generated for (docs/scales.md "The dice", "The link to the battle's save"): the
command line's side (scales tactical|mass|back|verify)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.__main__ import main
from game.bridge.files import (
    CampaignBattle,
    battle_paths,
    generate_battle,
    link_of,
    load_scales_rules,
    result_of,
    source_of,
)
from game.core.system import Accepted
from game.replay import load_game, save_game
from game.systems.campaign.io.files import load_campaign
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import parse_command
from game.systems.tactical.io.scenario import load_scenario
from game.table import TABLE

from .conftest import TEACHING, TO_ORDERS, campaign_record


def _run(argv: list[str], capsys: Any) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def _camp(tmp_path: Path, capsys: Any) -> Path:
    camp = tmp_path / "campaign.yaml"
    code, out = _run(["run", str(TEACHING), "--commands", str(TO_ORDERS), "--out", str(camp)], capsys)
    assert code == 0, out
    return camp


def _finish(scenario: Path, out: Path, capsys: Any, side: str = "jibril") -> Path:
    """Play the tactical battle to its end quickly: the GM destroys every unit of `side`."""
    script = [{"kind": "gm_edit_unit", "unit_id": u.id, "destroyed": True}
              for u in load_scenario(scenario).setup.units if u.side == side]
    cmds = out.with_name(out.stem + "-commands.yaml")
    cmds.write_text(yaml.safe_dump(script), encoding="utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    code, text = _run(["run", str(scenario), "--commands", str(cmds), "--out", str(out)], capsys)
    assert code == 0, text
    return out


def _seed(path: Path) -> int:
    return int(yaml.safe_load(path.read_text(encoding="utf-8"))["seed"])


# --------------------------------------------------------------------------- the dice


def test_each_battle_file_written_gets_fresh_dice_not_the_campaigns_seed(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    campaign_seed = load_game(TABLE, camp).header.seed
    seeds = []
    for n in range(3):
        for scale in ("tactical", "mass"):
            code, out = _run(["scales", scale, str(camp), "--battle", "B1", "--out", str(tmp_path / f"o{n}")], capsys)
            assert code == 0, out
            assert "a fresh seed drawn now" in out
            seeds.append(_seed(tmp_path / f"o{n}" / f"battle-B1-{scale}.yaml"))
    assert campaign_seed not in seeds
    assert len(set(seeds)) == len(seeds)  # six files, six seeds
    # the saves keep it: the battle's save replays (and verifies) every die from the file's seed
    scenario = tmp_path / "o0" / "battle-B1-tactical.yaml"
    save = _finish(scenario, tmp_path / "b1-save.yaml", capsys)
    assert load_game(TABLE, save).header.seed == _seed(scenario)


# --------------------------------------------------------------------------- the link to the campaign battle


def test_the_battle_file_names_its_campaign_battle_and_week(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    game = load_game(TABLE, camp)
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    data = yaml.safe_load((tmp_path / "battle-B1-tactical.yaml").read_text(encoding="utf-8"))
    assert data["campaign"] == link_of(game.header, game.state, "B1").data()
    assert data["campaign"]["battle"] == "B1" and data["campaign"]["week"] == 1
    assert str(game.header.seed) in data["campaign"]["id"] and game.header.scenario_checksum in data["campaign"]["id"]


def _foreign(tmp_path: Path, capsys: Any, link: CampaignBattle, name: str) -> Path:
    """A finished B1 tactical save whose battle file was generated for `link`."""
    rec = campaign_record()
    folder = tmp_path / name
    path = generate_battle(rec.state, "B1", "tactical", folder, "battle-B1-tactical", load_scales_rules(), seed=1,
                           link=link)
    return _finish(path, folder / "b1-save.yaml", capsys)


def test_the_way_back_refuses_a_save_of_another_campaign_battle_or_week(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    game = load_game(TABLE, camp)
    mine = link_of(game.header, game.state, "B1")
    cases = {
        "other-campaign": (CampaignBattle("0123456789abcdef/99", "B1", 1), "another campaign's battle"),
        "other-battle": (CampaignBattle(mine.campaign, "B3", 1), "a save of battle B3 of week 1 of this campaign"),
        "other-week": (CampaignBattle(mine.campaign, "B1", 2), "a save of battle B1 of week 2 of this campaign"),
    }
    for name, (link, says) in cases.items():
        save = _foreign(tmp_path, capsys, link, name)
        code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(save),
                          "--apply", str(tmp_path / f"{name}-after.yaml")], capsys)
        assert code == 1, out
        line = next(ln for ln in out.splitlines() if ln.startswith("error:"))
        assert str(save) in line and says in line and "expected battle B1 of week 1" in line, line
        assert not (tmp_path / f"{name}-after.yaml").exists()
    # its own battle's save is taken
    save = _foreign(tmp_path, capsys, mine, "mine")
    code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(save)], capsys)
    assert code == 0 and "warning" not in out, out


def test_an_older_battle_file_without_its_campaign_battle_is_taken_with_a_warning(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    rec = campaign_record()
    path = generate_battle(rec.state, "B1", "tactical", tmp_path / "old", "battle-B1-tactical", load_scales_rules())
    save = _finish(path, tmp_path / "old" / "b1-save.yaml", capsys)
    code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(save)], capsys)
    assert code == 0, out
    assert "warning: its battle file battle-B1-tactical.yaml does not say which campaign battle it is for" in out


def test_replay_verify_refuses_a_result_whose_save_is_of_another_campaign_battle(tmp_path: Path, capsys: Any) -> None:
    """The result applied, its save unchanged and translating to the same result: but the save is
    of battle B1 of another campaign (or week) -- verify says so."""
    rec = campaign_record()
    rules = load_scales_rules()
    camp = tmp_path / "campaign.yaml"
    save = _foreign(tmp_path, capsys, CampaignBattle("0123456789abcdef/99", "B1", 1), "saves")
    result = result_of(rec.state, "B1", rules, load_game(TABLE, save))
    outcome = rec.apply(parse_command(result.command(source=source_of(save, camp, "tactical"))))
    assert isinstance(outcome, Accepted), outcome
    save_game(camp, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)
    code, out = _run(["replay", "--verify", str(camp)], capsys)
    assert code == 1, out
    assert "a save of another campaign's battle (battle B1 of week 1" in out and str(save) in out


def test_replay_verify_refuses_a_battle_being_fought_out_whose_save_is_of_another_battle(
        tmp_path: Path, capsys: Any) -> None:
    rec = campaign_record()
    camp = tmp_path / "campaign.yaml"
    _file, battle_save = battle_paths(camp, "B1", "tactical")
    rel = battle_save.relative_to(camp.parent).as_posix()
    assert isinstance(rec.apply(parse_command({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical",
                                               "save": rel})), Accepted)
    save_game(camp, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)
    game = load_game(TABLE, camp)
    other = CampaignBattle(link_of(game.header, game.state, "B1").campaign, "B1", 2)
    path = generate_battle(campaign_record().state, "B1", "tactical", battle_save.parent, "other", seed=1, link=other)
    _finish(path, battle_save, capsys)
    code, out = _run(["replay", "--verify", str(camp)], capsys)
    assert code == 1, out
    assert "a save of battle B1 of week 2 of this campaign; expected battle B1 of week 1" in out


# --------------------------------------------------------------------------- the messages


def test_a_battle_file_given_for_a_save_is_named_as_one(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path / "battles")], capsys)
    battle = tmp_path / "battles" / "battle-B1-tactical.yaml"
    code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(battle)], capsys)
    assert code == 1
    assert f"{battle}: this is a battle file, not a save: play it first" in out
    assert "cut short" not in out


def test_the_way_backs_refusals_name_the_file(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    # a campaign save given as the battle's
    code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(camp)], capsys)
    assert code == 1 and f"{camp}: a campaign save is not a tactical or mass battle" in out
    # a battle not over yet
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    (tmp_path / "none.yaml").write_text("[]\n", encoding="utf-8")
    tsave = tmp_path / "b1.yaml"
    _run(["run", str(tmp_path / "battle-B1-tactical.yaml"), "--commands", str(tmp_path / "none.yaml"),
          "--out", str(tsave)], capsys)
    code, out = _run(["scales", "back", str(camp), "--battle", "B1", "--result", str(tsave)], capsys)
    assert code == 1 and f"{tsave}: the tactical battle is not over" in out
    # a battle save where a campaign save is expected: "an ail-tactical save"
    code, out = _run(["scales", "back", str(tsave), "--battle", "B1", "--result", str(tsave)], capsys)
    assert code == 1 and "expected a campaign save, got an ail-tactical save" in out


def test_a_mass_save_for_a_battle_chosen_as_tactical_says_so(tmp_path: Path, capsys: Any) -> None:
    rec = campaign_record()
    camp = tmp_path / "campaign.yaml"
    assert isinstance(rec.apply(parse_command({"kind": "gm_battle_choice", "battle": "B2", "scale": "tactical",
                                               "save": "battles/b2-save.yaml"})), Accepted)
    save_game(camp, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)
    code, out = _run(["scales", "mass", str(camp), "--battle", "B2", "--out", str(tmp_path)], capsys)
    assert code == 0, out
    (tmp_path / "none.yaml").write_text(yaml.safe_dump({"system": "mass-battle", "battle": "battle-B2-mass.yaml",
                                                        "commands": []}), encoding="utf-8")
    msave = tmp_path / "b2-mass-save.yaml"
    code, out = _run(["run", str(tmp_path / "battle-B2-mass.yaml"), "--commands", str(tmp_path / "none.yaml"),
                      "--out", str(msave)], capsys)
    assert code == 0, out
    code, out = _run(["scales", "back", str(camp), "--battle", "B2", "--result", str(msave)], capsys)
    assert code == 1
    assert f"{msave}: a mass battle save, but battle B2 is being fought out as a tactical battle" in out


def test_a_failed_scales_tactical_leaves_no_empty_out_folder(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    for scale in ("tactical", "mass"):
        out = tmp_path / f"x-{scale}"
        code, text = _run(["scales", scale, str(camp), "--battle", "B9", "--out", str(out)], capsys)
        assert code == 1, text
        assert not out.exists()
    kept = tmp_path / "there"
    kept.mkdir()
    assert main(["scales", "tactical", str(camp), "--battle", "B9", "--out", str(kept)]) == 1
    assert kept.is_dir()  # a folder that was there stays


# --------------------------------------------------------------------------- the GM's edits kept


def test_writing_a_battle_file_again_keeps_the_previous_one_as_bak_and_says_so(tmp_path: Path, capsys: Any) -> None:
    camp = _camp(tmp_path, capsys)
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    tmx = tmp_path / "battle-B1-tactical.tmx"
    scenario = tmp_path / "battle-B1-tactical.yaml"
    edited = tmx.read_text(encoding="utf-8").replace("<map ", "<map ", 1) + "<!-- the GM's edit -->\n"
    tmx.write_text(edited, encoding="utf-8")
    first = scenario.read_text(encoding="utf-8")
    code, out = _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    assert code == 0, out
    assert (tmp_path / "battle-B1-tactical.tmx.bak").read_text(encoding="utf-8") == edited
    assert (tmp_path / "battle-B1-tactical.yaml.bak").read_text(encoding="utf-8") == first
    assert "the previous battle-B1-tactical.yaml is kept as battle-B1-tactical.yaml.bak" in out
    assert "battle-B1-tactical.tmx is kept as battle-B1-tactical.tmx.bak" in out
    # a map that comes out the same is not written again: its .bak (the GM's edit) stays
    _run(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(tmp_path)], capsys)
    assert (tmp_path / "battle-B1-tactical.tmx.bak").read_text(encoding="utf-8") == edited
