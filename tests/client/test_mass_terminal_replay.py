"""`python -m game replay SAVE` on a mass battle hides what the replay view (F3) hides from a player:
a sealed appointment is printed only as made until the game announced it (then at its own step),
and the faces the GM queued stay the GM's. `--gm` prints everything, after the save's GM passphrase
when one is set (a wrong one prints nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.__main__ import main
from game.core import gm_lock
from game.io import saves
from game.shell.savegame import with_gm

ROOT = Path(__file__).resolve().parents[2]
BATTLE = ROOT / "maps" / "mass" / "borderland-valley.yaml"
HIDA = {"kind": "appoint", "force": "hida", "heaven": "hida-shugenja", "honor": "hida-teishin"}
AKIRA = {"kind": "appoint", "force": "akira", "heaven": "akira-shugenja", "honor": "akira"}
HIDA_CHOICE = "Kuni Mai (shugenja) reads Heaven, Kuni Taro (teishin) argues Honor"


def _save(tmp_path: Path, name: str, commands: list[dict[str, object]], capsys: pytest.CaptureFixture[str]) -> Path:
    script = tmp_path / f"{name}-commands.yaml"
    lines = [f"  - {{{', '.join(f'{k}: {v}' for k, v in c.items())}}}" for c in commands]
    script.write_text(f"system: mass-battle\nbattle: {BATTLE}\ncommands:\n" + "\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / f"{name}.yaml"
    assert main(["run", str(BATTLE), "--commands", str(script), "--out", str(out)]) == 0
    capsys.readouterr()
    return out


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_a_players_terminal_replay_hides_a_sealed_appointment_until_the_game_announced_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = _save(tmp_path, "one", [HIDA], capsys)
    code, out, _ = _replay(capsys, str(one))
    assert code == 0
    assert "[1] round 1: Hida Jo's army makes its sealed choice" in out
    assert "reads Heaven" not in out and "Kuni Mai" not in out and "Kuni Taro" not in out
    both = _save(tmp_path, "both", [HIDA, AKIRA, {"kind": "roll_way", "force": "hida", "way": "heaven"}], capsys)
    code, out, _ = _replay(capsys, str(both))
    assert code == 0 and f"[1] round 1: Hida Jo's army: {HIDA_CHOICE}" in out  # announced: at its own step


def test_the_gm_flag_prints_the_sealed_appointment_and_without_a_passphrase_asks_for_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    one = _save(tmp_path, "one", [HIDA], capsys)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": pytest.fail("no passphrase is set: none is asked"))
    code, out, _ = _replay(capsys, str(one), "--gm")
    assert code == 0 and f"[1] round 1: Hida Jo's army: {HIDA_CHOICE}" in out


def test_with_a_gm_passphrase_set_the_gm_flag_asks_for_it_and_a_wrong_one_prints_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    one = _save(tmp_path, "one", [HIDA], capsys)
    locked = with_gm(saves.load_save(one), gm_lock.GmKeeping(gm_lock.lock_of("crane wing", iterations=1_000)))
    saves.write_save(one, locked, backup=False)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "tiger claw")
    code, out, err = _replay(capsys, str(one), "--gm")
    assert code == 1 and out == "" and "not this game's GM passphrase" in err
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "crane wing")
    code, out, _ = _replay(capsys, str(one), "--gm")
    assert code == 0 and HIDA_CHOICE in out
    code, out, _ = _replay(capsys, str(one))  # a player, as before
    assert code == 0 and "reads Heaven" not in out


def test_the_faces_the_gm_queued_are_printed_only_to_the_gm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    forced = _save(tmp_path, "forced", [HIDA, AKIRA, {"kind": "gm_force_rolls", "values": "[7, 3, 9]"}], capsys)
    code, out, _ = _replay(capsys, str(forced))
    assert code == 0 and "[3] round 1: GM: sets the next 3 dice" in out and "GM GM" not in out
    assert "will show" not in out and "the faces of the next 3 dice are the GM's" in out
    code, out, _ = _replay(capsys, str(forced), "--gm")
    assert "GM: the next 3 dice will show 7, 3, 9" in out

