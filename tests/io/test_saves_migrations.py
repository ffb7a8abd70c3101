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
    game = load_game(path, verify=False)  # the state validates against today's GameState
    assert game.state.round == header.round


# --------------------------------------------------------------------------- the mechanism


def _pretend_version_2(monkeypatch: pytest.MonkeyPatch, step: migrations.Step) -> None:
    """Today's format is 1; pretend a version 2 exists whose only change is a renamed header key."""
    monkeypatch.setattr(migrations, "CURRENT_VERSION", 2)
    monkeypatch.setattr(saves, "FORMAT_VERSION", 2)
    monkeypatch.setitem(migrations.STEPS, 1, step)


def _rename(header: Any) -> Any:
    h = dict(header)
    h["format"] = 2
    h["title"] = "[v1] " + h.get("title", "")
    return h


def test_an_old_version_is_migrated_step_by_step_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def whole(header: Any, state: Any, log: Any) -> Any:
        seen.append(header["format"])
        return _rename(header), state, log

    _pretend_version_2(monkeypatch, migrations.Step(1, "titles marked", whole, _rename))
    path = FIXTURES / "v1-demo-overwatch.yaml"
    data = saves.load_save(path)
    assert seen == [1] and data.header.format == 2 and data.header.title.startswith("[v1] ")
    assert saves.read_header(path).title.startswith("[v1] ")  # the load menu migrates headers too


def test_a_failing_migration_step_names_the_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(header: Any, state: Any, log: Any) -> Any:
        raise KeyError("units")

    _pretend_version_2(monkeypatch, migrations.Step(1, "units renamed", broken, _rename))
    with pytest.raises(SaveError, match="from format 1 to 2 .units renamed."):
        saves.load_save(FIXTURES / "v1-demo-overwatch.yaml")


def test_a_missing_step_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "CURRENT_VERSION", 3)
    monkeypatch.setattr(saves, "FORMAT_VERSION", 3)
    with pytest.raises(SaveError, match="no migration from format 1 to 2"):
        saves.load_save(FIXTURES / "v1-demo-overwatch.yaml")
