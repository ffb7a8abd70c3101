"""A fourth rule system defined in the tests (tests/race/: rules and files in racesystem.py, its
window in raceclient.py, its Plugin in plugin.py) plugs in as one folder and one line in a table:
open, play with hand-offs, quick save, load menu, load, replay --verify, undo / redo, with no
change to any shell module."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.plugin import Table  # noqa: E402
from game.io import saves  # noqa: E402
from game.replay import load_game, verify_save  # noqa: E402
from game.shell import launch, savegame  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.scenes.handoff import HandoffScene  # noqa: E402
from game.shell.scenes.load_menu import LoadMenuScene  # noqa: E402
from game.table import SYSTEMS  # noqa: E402
from tests.race import plugin as race  # noqa: E402
from tests.race.racesystem import SYSTEM, load_race  # noqa: E402

RACE = "system: race\nname: The Long Straight\nlength: 12\nsides: [hare, tortoise]\nseed: 11\n"


# the program's table with one more line: the race
TABLE = Table([*SYSTEMS, race.PLUGIN])


def _key(app: App, k: int, mod: int = 0) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
              pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)])
    app.step([])


def _continue(app: App) -> None:
    assert isinstance(app.scenes.top, HandoffScene)
    app.scenes.top._continue()
    app.step([])


def test_a_rule_system_from_the_tests_plays_saves_loads_and_replays_through_the_shell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    path = tmp_path / "race.yaml"
    path.write_text(RACE, encoding="utf-8")
    session = launch.open_game(TABLE, path)
    assert session.system is SYSTEM
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    app.push(launch.scene_for(app, session))
    app.step([])
    _continue(app)                        # the hare is shown the screen first
    _key(app, pygame.K_r)                 # the hare stretches: no dice, nothing revealed
    assert session.can_undo
    _key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.history == [] and session.state.turn == 0
    _key(app, pygame.K_SPACE)             # the hare runs: a die
    assert not session.can_undo           # a roll is never taken back by a player
    assert isinstance(app.scenes.top, HandoffScene)  # the tortoise's turn: the screen is handed over
    _continue(app)
    _key(app, pygame.K_SPACE)
    _continue(app)
    _key(app, pygame.K_F5)                # the shell's quick save works for this system too
    quick = savegame.quick_save_path(session)
    header = saves.read_header(quick)
    assert header.system == "race" and header.round == 2 and header.commands == 2
    assert header.to_move == "hare" and header.side_names == ("Hare", "Tortoise")

    menu = LoadMenuScene(app, quick.parent)
    assert [listing.path for listing in menu.listings] == [quick]

    report = verify_save(TABLE, quick)
    assert report.commands == 2 and report.rolls == 2
    loaded = load_game(TABLE, quick)
    assert loaded.system is SYSTEM and loaded.state == session.state
    record = loaded.record
    first = record.steps[-1]
    assert record.undo(gm=True) is first and record.redo() is not None
    assert record.steps[-1].events == first.events   # the redo rolls the very same die

    problem = launch.load_into(app, quick)
    assert problem is None and app.scenes.top is not None


def test_a_tampered_race_save_names_the_command_whose_die_changed(
        tmp_path: Path) -> None:
    from game.core.record import Record
    from game.replay import ReplayMismatch, save_game

    path = tmp_path / "race.yaml"
    path.write_text(RACE, encoding="utf-8")
    loaded = load_race(path)
    record = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    for side in ("hare", "tortoise", "hare"):
        assert record.apply(SYSTEM.parse_command({"kind": "run", "side": side})).accepted
    save = save_game(tmp_path / "s.yaml", SYSTEM, record.state, record.steps, scenario_path=path, seed=loaded.seed)
    text = save.read_text(encoding="utf-8")
    die = record.steps[1].events[0].die
    swapped = (die % 6) + 1
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if '"tortoise"' in line and '"rolls"' in line)
    before = lines[i]
    lines[i] = lines[i].replace(f'"rolls": [{die}]', f'"rolls": [{swapped}]')
    assert lines[i] != before
    (tmp_path / "bad.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayMismatch, match="command 2 of 3"):
        verify_save(TABLE, tmp_path / "bad.yaml")


def test_the_plugin_table_lists_the_three_shipped_systems_and_refuses_an_unknown_one() -> None:
    from game.table import TABLE as SHIPPED

    assert SHIPPED.names() == ["ail-tactical", "campaign", "mass-battle"]
    assert set(SHIPPED.registry.names()) == {"ail-tactical", "campaign", "mass-battle"}
    with pytest.raises(LookupError, match="this version knows"):
        SHIPPED.plugin_named("no-such-system")
    assert dataclasses.is_dataclass(SHIPPED.plugin_named("campaign"))
    assert TABLE.names()[-1] == "race" and "race" not in SHIPPED
