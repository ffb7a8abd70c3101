"""An order file of another kind (a GM's dice secret, anything with a `kind:`) is named as such
before its fields are checked (it said "player: required field is missing")."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.errors import GameFileError
from game.systems.campaign.io.files import read_orders_file


def test_a_file_of_another_kind_given_as_an_order_file_is_named_by_its_kind(tmp_path: Path) -> None:
    p = tmp_path / "gm-secret-week1.yaml"
    p.write_text("kind: campaign-dice-secret\ncampaign: Campaign teaching scenario\nweek: 1\nsecret: abc\n")
    with pytest.raises(GameFileError) as err:
        read_orders_file(p)
    line = err.value.line()
    assert "campaign-dice-secret" in line and "not a sealed order file" in line and "required" not in line
    assert str(p) in line
