"""The composition root: the rule systems this program has. One line a system; the entry point
(game/__main__.py) hands this table to the command line and the window, and nothing below it
imports it: the shell, the replay and the file formats are given it (game.core.plugin.Table).

A new rule system is one folder under game/systems/ with a `plugin.py` building its Plugin, and
one line in SYSTEMS below; no module of the shell changes for it.
"""

from __future__ import annotations

from dataclasses import replace

from game.bridge import plugin as bridge
from game.core.plugin import Plugin, Table
from game.systems.campaign.plugin import PLUGIN as CAMPAIGN
from game.systems.mass.plugin import PLUGIN as MASS
from game.systems.tactical.plugin import PLUGIN as TACTICAL

SYSTEMS: list[Plugin] = [
    TACTICAL,  # the default: a set-up file that names no system is an AI:L tactical scenario
    # the campaign, with its battles fought out at the other scales (game/bridge)
    replace(CAMPAIGN, client=bridge.campaign_client, verify_links=bridge.campaign_links),
    MASS,
]

TABLE = Table(SYSTEMS, commands={"scales": bridge.scales_command}, files=[bridge.FILES])
