"""Save-format versions: every old-version save kept in tests/fixtures/saves/ still loads, and the
migration chain (one step per version) works, is applied to headers read alone, and reports a
step that fails with the versions involved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.io import migrations, saves
from game.io.saves import SaveError
from game.replay import load_game
from game.table import TABLE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saves"


def _fixture_versions() -> dict[int, list[Path]]:
    found: dict[int, list[Path]] = {}
    for p in sorted(FIXTURES.glob("v*-*.yaml")):
        found.setdefault(int(p.name[1:].split("-")[0]), []).append(p)
    return found


def test_there_is_a_fixture_save_of_every_format_version() -> None:
    versions = _fixture_versions()
    assert sorted(versions) == list(range(1, migrations.CURRENT_VERSION + 1))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("v*-*.yaml")), ids=lambda p: p.name)
def test_every_fixture_save_loads_with_todays_code(path: Path) -> None:
    header = saves.read_header(path)
    data = saves.load_save(path)
    assert header.format == saves.FORMAT_VERSION == data.header.format  # migrated on the way in
    game = load_game(TABLE, path, verify=False)  # the state validates against today's GameState
    assert game.state.round == header.round
    assert header.system == "ail-tactical"  # `game:` before format 4, and nothing in format 1


# --------------------------------------------------------------------------- real steps


def test_format_1_to_2_fills_side_names_with_the_side_ids() -> None:
    path = FIXTURES / "v1-demo-overwatch.yaml"
    assert "side_names" not in path.read_text(encoding="utf-8")
    header = saves.read_header(path)
    assert header.format == migrations.CURRENT_VERSION and header.side_names == header.sides == ("garrison", "jibril")
    assert saves.side_name(header, "jibril") == "jibril"


def test_format_2_saves_carry_the_side_names() -> None:
    header = saves.read_header(FIXTURES / "v2-demo-overwatch.yaml")
    assert saves.side_name(header, "jibril") == "Jibril Assault Group"


# --------------------------------------------------------------------------- the mechanism

CURRENT = migrations.CURRENT_VERSION


def _pretend_next_version(monkeypatch: pytest.MonkeyPatch, step: migrations.Step) -> None:
    """Pretend a format CURRENT+1 exists whose only change is a marked title."""
    monkeypatch.setattr(migrations, "CURRENT_VERSION", CURRENT + 1)
    monkeypatch.setattr(saves, "FORMAT_VERSION", CURRENT + 1)
    monkeypatch.setitem(migrations.STEPS, CURRENT, step)


def _mark(header: Any) -> Any:
    h = dict(header)
    h["format"] = CURRENT + 1
    h["title"] = "[old] " + h.get("title", "")
    return h


def test_an_old_version_is_migrated_step_by_step_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def whole(header: Any, state: Any, log: Any) -> Any:
        seen.append(header["format"])
        return _mark(header), state, log

    _pretend_next_version(monkeypatch, migrations.Step(CURRENT, "titles marked", whole, _mark))
    path = FIXTURES / "v1-demo-overwatch.yaml"
    data = saves.load_save(path)
    assert seen == [CURRENT]  # the real steps ran first, then this one
    assert data.header.format == CURRENT + 1 and data.header.title.startswith("[old] ")
    assert data.header.side_names == ("garrison", "jibril")
    assert saves.read_header(path).title.startswith("[old] ")  # the load menu migrates headers too


def test_a_failing_migration_step_names_the_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(header: Any, state: Any, log: Any) -> Any:
        raise KeyError("units")

    _pretend_next_version(monkeypatch, migrations.Step(CURRENT, "units renamed", broken, _mark))
    with pytest.raises(SaveError, match=f"from format {CURRENT} to {CURRENT + 1} .units renamed."):
        saves.load_save(FIXTURES / "v1-demo-overwatch.yaml")


def test_a_missing_step_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "CURRENT_VERSION", CURRENT + 2)
    monkeypatch.setattr(saves, "FORMAT_VERSION", CURRENT + 2)
    with pytest.raises(SaveError, match=f"no migration from format {CURRENT} to {CURRENT + 1}"):
        saves.load_save(FIXTURES / "v1-demo-overwatch.yaml")
