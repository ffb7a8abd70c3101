"""The campaign layer's client: `open_scene(app, session) -> Scene`.

`session` has `.system`, `.record` (game.core.record.Record), `.loaded`, `.state`, `.apply(cmd)
-> (accepted, events, reason)` and `.path`; `CampaignSession.start(loaded)` makes one (the shell's
generic session offers the same). Everything drawn for a player comes from
`system.view(state, player)`; sealed orders are entered behind the hand-off screen.
"""

from __future__ import annotations

from typing import Any

from game.client.campaign.scene import CampaignScene
from game.client.campaign.session import CampaignSession


def open_scene(app: Any, session: Any) -> CampaignScene:
    return CampaignScene(app, session)


__all__ = ["CampaignScene", "CampaignSession", "open_scene"]
