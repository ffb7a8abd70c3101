"""The campaign layer's client: `open_scene(app, session) -> Scene`.

`session` is the shell's game.shell.session.Session (`.system`, `.record`, `.loaded`, `.state`,
`.apply(cmd) -> (accepted, events, reason)`, `.path`). Everything drawn for a player comes from
`system.view(state, player)`; sealed orders are entered behind the hand-off screen.

On its own the campaign resolves every battle by its tables; `with_fight_out(factory)` is the
client with the GM's Battle panel of another package (the bridge between the scales wires in its
FightOut: game/bridge/plugin.py), so this package imports no other scale.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.systems.campaign.client.replay import open_replay
from game.systems.campaign.client.scene import CampaignScene, TablesOnly


def open_scene(app: Any, session: Any) -> CampaignScene:
    return CampaignScene(app, session)


def open_gm(app: Any, scene: Any) -> None:
    """The shell's GM key (F2): the GM's seat, as G (the GM view needs the GM's passphrase)."""
    if isinstance(scene, CampaignScene):
        scene.open_gm()


@dataclass(frozen=True)
class WithFightOut:
    """The campaign's client with the Battle panel `fight_out(scene)` builds."""

    fight_out: Callable[[CampaignScene], Any]

    def open_scene(self, app: Any, session: Any) -> CampaignScene:
        return CampaignScene(app, session, self.fight_out)

    def open_gm(self, app: Any, scene: Any) -> None:
        open_gm(app, scene)

    def open_replay(self, app: Any, session: Any, start: int | None = None, title: str = "") -> None:
        open_replay(app, session, start, title)


def with_fight_out(fight_out: Callable[[CampaignScene], Any]) -> WithFightOut:
    return WithFightOut(fight_out)


__all__ = ["CampaignScene", "TablesOnly", "WithFightOut", "open_gm", "open_replay", "open_scene", "with_fight_out"]
