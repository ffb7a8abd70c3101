"""Issue 16 end to end: a campaign week in which battle B1 is fought out as a tactical battle and
B2 as a mass battle, both played by command scripts to their ends (real fights, the battles' own
commands), their results carried back with their sources, the campaign going on into the next
week, and `replay --verify` checking the whole chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.__main__ import main
from game.bridge.files import battle_paths, generate_battle, load_scales_rules, result_of, source_of
from game.core.record import Record
from game.core.system import Accepted
from game.replay import load_game, save_game
from game.systems.campaign.io.files import load_campaign
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import parse_command
from game.table import TABLE

from .conftest import TEACHING, campaign_record
from .players import play_out, write_script


def _ok(rec: Record, data: dict[str, Any]) -> Any:
    outcome = rec.apply(parse_command(data))
    assert isinstance(outcome, Accepted), outcome
    return outcome


def _save(rec: Record, path: Path) -> Path:
    return save_game(path, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)


def _run(argv: list[str], capsys: Any) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_week_with_a_tactical_and_a_mass_battle_fought_out_continues_and_replay_verifies_the_chain(
        tmp_path: Path, capsys: Any) -> None:
    rules = load_scales_rules()
    rec = campaign_record()
    seed = 1
    camp = tmp_path / "campaign.yaml"
    # the GM's choices: recorded in the campaign's log, each naming its battle's save
    files = {}
    for bid, scale in (("B1", "tactical"), ("B2", "mass")):
        battle_file, battle_save = battle_paths(camp, bid, scale)
        generate_battle(rec.state, bid, scale, battle_file.parent, battle_file.stem, rules, seed=seed)
        rel = battle_save.relative_to(camp.parent).as_posix()
        ev = _ok(rec, {"kind": "gm_battle_choice", "battle": bid, "scale": scale, "save": rel})
        assert ev.events[0].kind == "battle_chosen"
        files[bid] = (battle_file, battle_save)
    # while they are fought out the orders phase asks nobody and refuses their orders
    assert rec.state.phase == "orders" and SYSTEM.to_move(rec.state) == []
    refused = rec.apply(parse_command({"kind": "orders", "player": "zones", "battle": "B1",
                                       "manoeuvre": "defend", "vanguard": "rifles.1"}))
    assert "being fought out" in getattr(refused, "reason", "")
    _save(rec, camp)
    # saving in the middle: B1's save holds half a battle; the campaign save refers to it
    b1_file, b1_save = files["B1"]
    half, _ = play_out(b1_file, stop_after=40)
    write_script(b1_file, half, tmp_path / "b1-half.yaml")
    code, out = _run(["run", str(b1_file), "--commands", str(tmp_path / "b1-half.yaml"), "--out", str(b1_save)],
                     capsys)
    assert code == 0, out
    code, out = _run(["replay", "--verify", str(camp)], capsys)
    assert code == 0, out
    assert "B1 is being fought out" in out and "40 commands" in out
    assert "B2 is being fought out as a mass battle; its save" in out and "not written yet" in out
    # both battles played to their ends by command scripts (real fights)
    finals = {}
    for bid, (battle_file, battle_save) in files.items():
        script, final = play_out(battle_file)
        assert len(script) > 5 and not any(c["kind"].startswith("gm_") or c["kind"] == "surrender" for c in script)
        write_script(battle_file, script, tmp_path / f"{bid}-script.yaml")
        code, out = _run(["run", str(battle_file), "--commands", str(tmp_path / f"{bid}-script.yaml"),
                          "--out", str(battle_save)], capsys)
        assert code == 0, out
        finals[bid] = final
    assert finals["B1"].phase == "ended" and finals["B2"].stage == "ended"
    # the results carried back, each with its source; the last one ends the week
    for bid, (_, battle_save) in files.items():
        b = rec.state.battles[bid]
        result = result_of(rec.state, bid, rules, load_game(TABLE, battle_save))
        # every campaign unit of the battle appears once; the battle's winner is the campaign's
        assert sorted(result.casualties) == sorted(u for p in b.sides for u in rec.state.force_units(b, p))
        assert result.winner == finals[bid].winner
        _ok(rec, result.command(source=source_of(battle_save, camp, result.scale)))
    assert rec.state.week == 2 and rec.state.phase == "movement"
    assert all(b.over for b in rec.state.battles.values())
    # the campaign goes on: week 2's movement in player order
    for _ in rec.state.players:
        _ok(rec, {"kind": "end_turn"})
    assert rec.state.week == 2 and rec.state.phase != "movement"
    _save(rec, camp)
    kinds = [s.command.kind for s in rec.steps]
    assert kinds.count("gm_battle_choice") == 2 and kinds.count("gm_battle_result") == 2
    code, out = _run(["replay", "--verify", str(camp)], capsys)
    assert code == 0, out
    assert out.count("translates to the same result") == 2
    # a battle save changed after its result was applied breaks the chain
    b2_save = files["B2"][1]
    b2_save.write_text(b2_save.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    code, out = _run(["replay", "--verify", str(camp)], capsys)
    assert code == 1 and "has changed since its result was applied" in out
