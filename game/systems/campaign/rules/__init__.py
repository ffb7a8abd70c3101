"""The Ascension Isle campaign layer (operational combat): armies on an island map, weeks of
movement, sealed battle orders, dice and result tables. `SYSTEM` implements
`game.core.system.RuleSystem`; `planner.plan` is the exact battle planner; `engine.reach` the
movement query. Pure: no pygame, pytmx or yaml, no files, no global random, no clock.
"""

from __future__ import annotations

from game.systems.campaign.rules.system import SYSTEM, CampaignSystem

__all__ = ["SYSTEM", "CampaignSystem"]
