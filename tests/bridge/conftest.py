from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core.record import Record
from game.systems.campaign.io.files import load_campaign, read_script
from game.systems.campaign.rules import SYSTEM

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
TEACHING = ROOT / "maps" / "campaign" / "teaching.yaml"
TO_ORDERS = HERE / "week1-to-orders.yaml"


def campaign_record() -> Record:
    """The teaching campaign in week 1's orders phase, battles B1 (Lowmarch) and B2 (Stonegate) open."""
    loaded = load_campaign(TEACHING)
    rec = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    for cmd in read_script(TO_ORDERS):
        outcome = rec.apply(cmd)
        assert not hasattr(outcome, "reason"), outcome
    return rec


@pytest.fixture(scope="session")
def campaign() -> Any:
    return campaign_record().state


@pytest.fixture(scope="session")
def scales_rules() -> Any:
    from game.bridge.files import load_scales_rules

    return load_scales_rules()
