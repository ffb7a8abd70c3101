"""Linked battle saves (issue 34): a campaign save names the save of each battle fought out; that
link is trusted only inside the campaign save's folder, through no symbolic link, for a file of a
save's size at most, of the scale's system (never a campaign: no cycle), fought by the battle's
sides. `replay --verify` and `scales verify` say so in one line and never hang; the client does
not open (or write) a battle save outside the folder; `scales back --apply X --result X` is
refused before anything is read, and the battle save survives."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.core.errors import GameFileError
from game.io import safe_read
from tests.hostile.hostile import cli

ROOT = Path(__file__).resolve().parents[2]
TEACHING = ROOT / "maps" / "campaign" / "teaching.yaml"
TO_ORDERS = ROOT / "tests" / "bridge" / "week1-to-orders.yaml"


def _campaign(folder: Path, capsys: Any, scale: str = "mass", save: str = "battles/b1-save.yaml",
              name: str = "campaign.yaml") -> Path:
    """The teaching campaign up to week 1's orders with battle B1 being fought out at `scale`,
    its save linked as `save`."""
    folder.mkdir(parents=True, exist_ok=True)
    script = yaml.safe_load(TO_ORDERS.read_text(encoding="utf-8"))
    script.append({"kind": "gm_battle_choice", "battle": "B1", "scale": scale, "save": save})
    (folder / "script.yaml").write_text(yaml.safe_dump(script), encoding="utf-8")
    camp = folder / name
    code, _o, err, _ = cli(capsys, "run", str(TEACHING), "--commands", str(folder / "script.yaml"), "--out", str(camp))
    assert code == 0, err
    return camp


def _tactical_save(folder: Path, capsys: Any, camp: Path) -> Path:
    code, _o, err, _ = cli(capsys, "scales", "tactical", str(camp), "--battle", "B1", "--out", str(folder))
    assert code == 0, err
    (folder / "none.yaml").write_text("[]\n", encoding="utf-8")
    out = folder / "b1-tactical-save.yaml"
    code, _o, err, _ = cli(capsys, "run", str(folder / "battle-B1-tactical.yaml"), "--commands",
                           str(folder / "none.yaml"), "--out", str(out))
    assert code == 0, err
    return out


def _verify(capsys: Any, camp: Path) -> tuple[int, str]:
    t0 = time.monotonic()
    code, out, err, _ = cli(capsys, "replay", "--verify", str(camp))
    assert time.monotonic() - t0 < 20 and "Traceback" not in err
    return code, out + err


def test_a_battle_save_that_is_the_campaign_save_itself_fails_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys, save="campaign.yaml")
    code, text = _verify(capsys, camp)
    assert code != 0 and "the campaign save itself" in text


def test_a_campaign_save_linking_back_is_a_cycle_and_fails_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys)
    other = _campaign(tmp_path / "elsewhere", capsys, save="b.yaml")
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "b1-save.yaml").write_bytes(other.read_bytes())
    code, text = _verify(capsys, camp)
    assert code != 0 and "a campaign save" in text and "cycle" in text


def test_a_tactical_save_given_for_a_mass_battle_fails_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys, scale="mass")
    tsave = _tactical_save(tmp_path / "t", capsys, camp)
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "b1-save.yaml").write_bytes(tsave.read_bytes())
    code, text = _verify(capsys, camp)
    assert code != 0 and "a ail-tactical save; a mass battle's save is a mass-battle save" in text


def test_a_tactical_save_of_other_sides_fails_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys, scale="tactical")
    demo = ROOT / "tests" / "fixtures" / "saves" / "v4-demo-overwatch.yaml"
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "b1-save.yaml").write_bytes(demo.read_bytes())
    code, text = _verify(capsys, camp)
    assert code != 0 and "not this campaign battle's sides" in text


def test_a_genuine_tactical_battle_save_in_progress_passes_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys, scale="tactical")
    tsave = _tactical_save(tmp_path / "t", capsys, camp)
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "b1-save.yaml").write_bytes(tsave.read_bytes())
    code, text = _verify(capsys, camp)
    assert code == 0, text


def test_a_link_to_a_huge_sparse_file_is_refused_by_its_size_before_any_hashing(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys)
    (tmp_path / "battles").mkdir()
    with open(tmp_path / "battles" / "b1-save.yaml", "wb") as fh:
        fh.truncate(safe_read.MAX_LARGE_FILE_BYTES * 64)  # 4 GiB of nothing, instantly
    code, text = _verify(capsys, camp)
    assert code != 0 and "too large" in text


@pytest.mark.parametrize("rel", ["../elsewhere/b1-save.yaml", "/tmp/b1-save.yaml", "battles/../../x.yaml"])
def test_a_link_out_of_the_campaign_folder_fails_verify(tmp_path, capsys, rel):
    camp = _campaign(tmp_path / "c", capsys, save=rel)
    code, text = _verify(capsys, camp)
    assert code != 0 and ("goes up out of its folder" in text or "an absolute path" in text)


def test_a_link_through_a_symbolic_link_fails_verify(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys)
    (tmp_path / "real").mkdir()
    (tmp_path / "battles").symlink_to(tmp_path / "real")
    code, text = _verify(capsys, camp)
    assert code != 0 and "symbolic link" in text


def test_linked_save_keeps_a_battle_save_inside_the_campaign_folder(tmp_path):
    from game.bridge.files import linked_save

    camp = tmp_path / "c.yaml"
    assert linked_save(camp, "battles/b.yaml", "B1") == tmp_path / "battles" / "b.yaml"
    for rel in ("../x.yaml", "/etc/passwd", "", "a/../../x", "x\0y"):
        with pytest.raises(GameFileError):
            linked_save(camp, rel, "B1")


def test_scales_back_never_writes_the_campaign_save_over_the_battle_save(tmp_path, capsys):
    camp = _campaign(tmp_path, capsys, scale="tactical", save="")
    tsave = _tactical_save(tmp_path, capsys, camp)
    keep = tsave.read_bytes()
    for target in (tsave, camp):
        code, out, err, _ = cli(capsys, "scales", "back", str(camp), "--battle", "B1", "--result", str(tsave),
                                "--apply", str(target))
        assert code != 0 and "also an input" in err and out == ""
    assert tsave.read_bytes() == keep and not Path(str(tsave) + ".bak").exists()


def test_scales_tactical_does_not_write_through_a_symbolic_link(tmp_path, capsys):
    camp = _campaign(tmp_path / "c", capsys, scale="tactical", save="")
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    os.symlink(victim, out / "battle-B1-tactical.yaml")
    code, _o, err, _ = cli(capsys, "scales", "tactical", str(camp), "--battle", "B1", "--out", str(out))
    assert code != 0 and "symbolic link" in err and victim.read_text() == "precious"


@pytest.mark.parametrize("bad", ["", "/dev/null", "{tmp}/file.txt", "{tmp}/file.txt/sub", "/proc/no-such-dir",
                                 "{tmp}/" + "n" * 300, "x\0y"])
def test_bad_out_folders_and_files_on_the_scales_commands_are_one_line_not_a_traceback(tmp_path, capsys,
                                                                                       monkeypatch, bad):
    camp = _campaign(tmp_path / "c", capsys, scale="tactical", save="")
    (tmp_path / "file.txt").write_text("x")
    monkeypatch.chdir(tmp_path / "c")
    out = bad.replace("{tmp}", str(tmp_path))
    for argv in (["scales", "tactical", str(camp), "--battle", "B1", "--out", out],
                 ["scales", "mass", str(camp), "--battle", "B1", "--out", out],
                 ["scales", "back", str(camp), "--battle", "B1", "--result", str(camp), "--apply", out]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code != 0 and "Traceback" not in err and err.count("\n") == 1, (argv, err)
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["campaign.yaml", "script.yaml"]  # nothing written


def test_the_client_does_not_resume_a_battle_whose_save_is_outside_the_campaign_folder(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from game.bridge.client.fight import FightOut

    opened: list[Any] = []
    monkeypatch.setattr(FightOut, "_open", lambda self, *a: opened.append(a) or True)
    battle = SimpleNamespace(fought_as="tactical", battle_save="../elsewhere/b1-save.yaml")
    session = SimpleNamespace(state=SimpleNamespace(battles={"B1": battle}), save_path=tmp_path / "c" / "camp.yaml")
    scene = SimpleNamespace(app=None, session=session, message="")
    fight = FightOut(scene)
    assert fight.resume("B1") is False and opened == []
    assert "goes up out of its folder" in scene.message
    battle.battle_save = "battles/b1-save.yaml"
    assert fight.resume("B1") is True and opened[0][3] == tmp_path / "c" / "battles" / "b1-save.yaml"


def test_scales_back_refuses_to_link_a_battle_save_outside_the_new_campaign_saves_folder(tmp_path, capsys):
    camp = _campaign(tmp_path / "c", capsys, scale="tactical", save="")
    tsave = _tactical_save(tmp_path / "elsewhere", capsys, camp)
    after = tmp_path / "c" / "after.yaml"
    code, _o, err, _ = cli(capsys, "scales", "back", str(camp), "--battle", "B1", "--result", str(tsave),
                           "--apply", str(after))
    assert code == 1 and "goes up out of its folder" in err and not after.exists()
