"""`python -m game scales mass` reports the battle file it wrote in one line that says the number
of combatants once (the mass rules' note carries it: "6002 combatants: a battle ...")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.__main__ import main
from tests.bridge.conftest import TEACHING, TO_ORDERS


def test_scales_mass_says_the_combatants_once(tmp_path: Path, capsys: Any) -> None:
    camp = tmp_path / "camp.yaml"
    assert main(["run", str(TEACHING), "--commands", str(TO_ORDERS), "--out", str(camp)]) == 0
    capsys.readouterr()
    assert main(["scales", "mass", str(camp), "--battle", "B2", "--out", str(tmp_path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{tmp_path / 'battle-B2-mass.yaml'}: Battle B2 at Stonegate")
    assert first.count("combatants") == 1, first
    assert "terrain stalemated; 6002 combatants: a battle (the mass rules start at 50)." in first
