"""The campaign layer's client: `open_scene(app, session) -> Scene`.

`session` is the shell's game.client.session.Session (`.system`, `.record`, `.loaded`, `.state`,
`.apply(cmd) -> (accepted, events, reason)`, `.path`). Everything drawn for a player comes from
`system.view(state, player)`; sealed orders are entered behind the hand-off screen.
"""

from __future__ import annotations

from typing import Any

from game.client.campaign.scene import CampaignScene


def open_scene(app: Any, session: Any) -> CampaignScene:
    return CampaignScene(app, session)


__all__ = ["CampaignScene", "open_scene"]
