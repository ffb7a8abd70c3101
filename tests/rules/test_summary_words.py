"""No raw ids where a person reads (issue 28 item 8): the mass battle's summary (the save header's
`phase`, the load menu, `run`'s last line) names each stage in words, never its id ("appoint");
`run`'s last line counts in the system's own clock ("week 1" for a campaign, "wave" for a mass
battle, "round" for a tactical battle), as game.core.system.clock_of says."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from game.__main__ import main
from game.systems.mass.rules import commands as mc
from game.systems.mass.rules.state import Stage
from game.systems.mass.rules.system import STAGE_WORDS

from .mass import massfix

ROOT = Path(__file__).resolve().parents[2]


def test_a_prepared_mass_battle_starts_at_the_sealed_appointments_in_words():
    s = massfix.start(massfix.setup(prepared=True))
    assert s.stage == "appoint"
    assert massfix.SYSTEM.summary(s)["phase"] == "sealed appointments"


def test_every_mass_stage_but_the_phases_and_the_end_has_words_that_are_not_its_id():
    for stage in get_args(Stage):
        if stage in ("phases", "ended"):
            continue  # "Phase 3", "ended: ... won" are made from the state
        assert stage in STAGE_WORDS, stage
        assert STAGE_WORDS[stage] != stage and "_" not in STAGE_WORDS[stage]


def test_the_mass_summary_after_strategy_shows_no_stage_id():
    s = massfix.start(massfix.setup(prepared=False))
    assert massfix.SYSTEM.summary(s)["phase"] == "rolling Strategy"
    s, _ = massfix.ok(s, mc.RollWay(force=massfix.SYSTEM.to_move(s)[0], way="strategy"))
    assert s.stage == "initiative"
    assert massfix.SYSTEM.summary(s)["phase"] == "rolling the action dice"


@pytest.mark.parametrize(("scenario", "commands", "clock"), [
    ("maps/campaign/teaching.yaml", "maps/campaign/teaching-commands.yaml", "week"),
    ("maps/mass/borderland-valley.yaml", "maps/mass/borderland-valley-commands.yaml", "wave"),
    ("maps/demo-movement.yaml", "maps/demo-movement-commands.yaml", "round"),
])
def test_run_counts_in_the_systems_own_clock(capsys, scenario, commands, clock):
    main(["run", str(ROOT / scenario), "--commands", str(ROOT / commands)])
    last = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("-- ")][-1]
    assert f"rejected; {clock} " in last, last
    if clock != "round":
        assert "round" not in last, last
    assert "phase appoint" not in last and "phase strategy" not in last
