"""Save -> load round trips of games reached by playing (mid-phase, mid-interrupt): the loaded
state equals the saved one, the history is rebuilt, and continuing from the loaded game gives
the same events as continuing from the original. Bad saves of real games get clear messages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

import game.replay as replay
from game.io import saves
from game.io.saves import SaveError
from game.replay import Record, load_game, save_game
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.test_replay import FakeScenario, battle, pick, play, start


@pytest.fixture
def scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeScenario:
    """A scenario 'file' in tmp_path whose loading returns the in-memory test battle."""
    sc = battle()
    sc.path = tmp_path / "scenario.yaml"
    sc.path.write_text("# stands for the test battle\n", encoding="utf-8")
    import dataclasses

    # this module's table: the tactical system whose loader returns the test battle
    plugin = TABLE.plugin_named("ail-tactical")
    monkeypatch.setitem(globals(), "TABLE", TABLE.with_plugin(dataclasses.replace(plugin, load=lambda path: sc)))
    return sc


def _save(path: Path, rec: Record, sc: FakeScenario) -> Path:
    assert sc.path is not None
    return save_game(path, SYSTEM, rec.state, rec.steps, scenario_path=sc.path, seed=sc.seed)


def _continue(rec: Record, seed: int, n: int = 40) -> list[Any]:
    rnd = random.Random(seed)
    events = []
    for _ in range(n):
        if rec.state.phase == "ended":
            break
        rec.apply(pick(rec.state, rnd))
        events.append(rec.steps[-1].events)
    return events


@pytest.mark.parametrize("seed,length", [(1, 5), (2, 17), (3, 33), (4, 61), (5, 90)])
def test_save_and_load_mid_game_gives_an_equal_state_and_the_same_future(
        tmp_path: Path, scenario: FakeScenario, seed: int, length: int) -> None:
    rec = play(Record(SYSTEM, start(scenario)), length, random.Random(seed))
    path = _save(tmp_path / "mid.yaml", rec, scenario)
    loaded = load_game(TABLE, path)
    assert loaded.state == rec.state
    assert loaded.header.to_move == SYSTEM.summary(rec.state)["to_move"]
    assert [s.events for s in loaded.record.steps] == [s.events for s in rec.steps]
    assert _continue(loaded.record, seed + 100) == _continue(rec, seed + 100)


def test_round_trip_while_a_defensive_action_is_awaited(tmp_path: Path, scenario: FakeScenario) -> None:
    def waiting(state: Any) -> bool:
        return state.pending is not None and state.pending.kind == "defensive_action"

    rec = play(Record(SYSTEM, start(scenario)), 300, random.Random(9), stop=waiting)
    assert waiting(rec.state), "the random game never reached a defensive-action prompt"
    path = _save(tmp_path / "interrupt.yaml", rec, scenario)
    header = saves.read_header(path)
    assert "defensive action" in header.phase and header.to_move == rec.state.pending.sides[0]
    loaded = load_game(TABLE, path)
    assert loaded.state == rec.state and loaded.state.pending == rec.state.pending
    assert _continue(loaded.record, 77) == _continue(rec, 77)


def test_round_trip_in_the_initiative_phase_with_a_gm_forced_roll_queued(
        tmp_path: Path, scenario: FakeScenario) -> None:
    from game.systems.tactical.rules.gm import SetNextRoll

    rec = Record(SYSTEM, start(scenario))
    rec.apply(SetNextRoll(values=(10, 2, 7)))
    path = _save(tmp_path / "gm.yaml", rec, scenario)
    loaded = load_game(TABLE, path)
    assert loaded.state.forced_rolls == (10, 2, 7) and loaded.save.log[0].gm
    assert _continue(loaded.record, 5, 10) == _continue(rec, 5, 10)


def test_a_save_is_readable_text_with_the_commands_and_their_dice(tmp_path: Path, scenario: FakeScenario) -> None:
    rec = play(Record(SYSTEM, start(scenario)), 25, random.Random(10))
    text = _save(tmp_path / "read.yaml", rec, scenario).read_text(encoding="utf-8")
    docs = list(yaml.safe_load_all(text))
    assert docs[0]["round"] == rec.state.round and docs[0]["commands"] == 25
    assert '\n- {"command": {"kind": "choose_initiative"' in text  # one command a line
    assert "units:" in text and "rng:" in text


# --------------------------------------------------------------------------- bad saves of real games


def _played(tmp_path: Path, scenario: FakeScenario, n: int = 30) -> tuple[Path, str]:
    rec = play(Record(SYSTEM, start(scenario)), n, random.Random(12))
    path = _save(tmp_path / "game.yaml", rec, scenario)
    return path, path.read_text(encoding="utf-8")


def _rewrite_state(text: str, change: Any) -> str:
    """Edit document 2 and fix the checksums, as a careful hand-editor (or a buggy tool) would."""
    header, state, log = list(yaml.safe_load_all(text))
    change(state)
    check = saves.state_checksum(state)
    header["state_checksum"] = check
    if log:
        log[-1]["after"] = check
    data = saves.SaveData(saves.SaveHeader.model_validate(header), state,
                          tuple(saves.LogEntry.model_validate(e) for e in log))
    return saves.dump_save(data)


def _refused(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SaveError) as info:
        load_game(TABLE, path)
    assert path.read_bytes() == before and not saves.backup_path(path).exists()
    return str(info.value)


def test_state_with_a_wrong_type_names_line_and_field(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    bad = _rewrite_state(text, lambda s: s["units"]["r1"].__setitem__("strength", "lots"))
    msg = _refused(path, bad)
    line = next(i for i, ln in enumerate(bad.splitlines(), 1) if "strength: lots" in ln)
    assert f"line {line}: state.units.r1.strength" in msg and "integer" in msg


def test_state_with_an_unknown_key_is_refused(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    msg = _refused(path, _rewrite_state(text, lambda s: s["units"]["m1"].__setitem__("morale_boost", 3)))
    assert "state.units.m1.morale_boost" in msg and "unknown key" in msg


def test_state_with_a_missing_unit_is_caught_by_the_log(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    msg = _refused(path, _rewrite_state(text, lambda s: s["units"].pop("k1")))
    assert "units.k1" in msg and "missing" in msg


def test_state_with_a_unit_of_an_unknown_type_is_refused(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    msg = _refused(path, _rewrite_state(text, lambda s: s["units"]["k1"].__setitem__("type_id", "dragon")))
    assert "state.units.k1.type_id" in msg and "'dragon'" in msg


def test_log_that_does_not_match_the_state_is_refused(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    header, state, log = list(yaml.safe_load_all(text))
    # a log from another game with the same length: every checksum in the header still agrees
    other = play(Record(SYSTEM, start(scenario)), len(log), random.Random(999))
    other_save = replay.make_save(SYSTEM, other.state, other.steps, scenario_path=scenario.path, seed=scenario.seed)
    mixed = saves.SaveData(saves.SaveHeader.model_validate(header), state, other_save.log)
    mixed = saves.SaveData(mixed.header, mixed.state, mixed.log[:-1] + (mixed.log[-1].model_copy(
        update={"after": header["state_checksum"]}),))
    msg = _refused(path, saves.dump_save(mixed))
    assert ("does not lead to the saved state" in msg or "refused when replayed" in msg
            or "recorded rolls" in msg or "leaves state" in msg), msg


def test_future_version_of_a_real_save_is_refused_without_touching_it(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    msg = _refused(path, text.replace(f"format: {saves.FORMAT_VERSION}", "format: 7", 1))
    assert "newer version" in msg


def test_truncated_real_save_is_refused(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    msg = _refused(path, text[: len(text) * 2 // 3])
    assert "ends early" in msg or "not valid YAML" in msg


def test_missing_scenario_file_is_named(tmp_path: Path, scenario: FakeScenario) -> None:
    path, _ = _played(tmp_path, scenario)
    assert scenario.path is not None
    scenario.path.unlink()
    with pytest.raises(SaveError, match="scenario file .* was not found"):
        load_game(TABLE, path)


def _as_saved_by_an_older_game(rec: Record, scenario: FakeScenario) -> saves.SaveData:
    """The save an older version would have written, before GameState had `custom_types`."""
    def old(state: Any) -> dict[str, Any]:
        d = state.to_dict()
        d.pop("custom_types")
        return d

    data = replay.make_save(SYSTEM, rec.state, rec.steps, scenario_path=scenario.path, seed=scenario.seed)
    state = old(rec.state)
    log = tuple(e.model_copy(update={"after": saves.state_checksum(old(s.after))}) for e, s in zip(data.log, rec.steps,
                                                                                                  strict=True))
    header = data.header.model_copy(update={"state_checksum": saves.state_checksum(state)})
    return saves.SaveData(header, state, log)


def test_a_save_from_before_a_new_state_field_still_loads_and_verifies(tmp_path: Path,
                                                                        scenario: FakeScenario) -> None:
    rec = play(Record(SYSTEM, start(scenario)), 40, random.Random(21))
    path = tmp_path / "older.yaml"
    path.write_text(saves.dump_save(_as_saved_by_an_older_game(rec, scenario)), encoding="utf-8")
    loaded = load_game(TABLE, path)
    assert loaded.state == rec.state and len(loaded.record.steps) == 40


def test_a_tampered_die_is_still_caught_in_a_save_from_before_a_new_state_field(
        tmp_path: Path, scenario: FakeScenario) -> None:
    rec = play(Record(SYSTEM, start(scenario)), 40, random.Random(22))
    data = _as_saved_by_an_older_game(rec, scenario)
    i = next(i for i, e in enumerate(data.log) if e.rolls)
    log = list(data.log)
    log[i] = log[i].model_copy(update={"rolls": (log[i].rolls[0] % 6 + 1, *log[i].rolls[1:])})
    path = tmp_path / "older.yaml"
    path.write_text(saves.dump_save(saves.SaveData(data.header, data.state, tuple(log))), encoding="utf-8")
    with pytest.raises(SaveError, match=f"log\\[{i}\\].rolls: command {i + 1} "):
        load_game(TABLE, path)


def test_a_hand_edited_state_is_named_down_to_the_field(tmp_path: Path, scenario: FakeScenario) -> None:
    path, text = _played(tmp_path, scenario)
    lines = text.splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.strip() == "r2:")
    strength = next(i for i in range(at, len(lines)) if lines[i].strip().startswith("strength:"))
    lines[strength] = lines[strength].replace("strength:", "strength: 1", 1).replace(": 1 ", ": 1", 1)
    edited = "".join(lines)
    assert edited != text
    msg = _refused(path, edited)
    assert f"line {strength + 1}: state.units.r2.strength" in msg and "edited by hand" in msg, msg
