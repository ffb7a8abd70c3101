"""docs/campaign.md cites only tests that exist, and shows the draw table the rules data holds."""

from __future__ import annotations

import re
from pathlib import Path

from game.systems.campaign.rules.tables import draw_table_rows
from tests.rules.campaign.campfix import rules

ROOT = Path(__file__).resolve().parents[3]


def test_every_test_the_campaign_docs_cite_exists() -> None:
    doc = (ROOT / "docs" / "campaign.md").read_text(encoding="utf-8")
    # (a name followed by .py is a test module, as in tests/client/test_campaign_zoom.py)
    cited = set(re.findall(r"\b(test_[a-z0-9_]+)\b(?!\.py)", doc)) - {"test_combat_strength", "test_results", "test_week",
                                                              "test_planner", "test_campaign_files", "test_campaign_client"}
    source = "".join(p.read_text(encoding="utf-8") for p in [*(ROOT / "tests" / "rules" / "campaign").glob("test_*.py"),
                                                               ROOT / "tests" / "io" / "test_campaign_files.py"])
    defined = set(re.findall(r"def (test_[a-z0-9_]+)", source))
    assert cited and not (cited - defined), sorted(cited - defined)


def test_the_docs_draw_table_is_the_rules_datas() -> None:
    doc = (ROOT / "docs" / "campaign.md").read_text(encoding="utf-8")
    for row in draw_table_rows(rules())[1:]:
        assert "| " + " | ".join(row) + " |" in doc
