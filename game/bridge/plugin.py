"""The bridge between the scales as the table wires it in (game/table.py): its command
(`scales`), its kind of data file (the translation rules) and the campaign's check of the battle
saves a campaign save refers to (Plugin.verify_links).

The imports inside the functions below are a warm-up seam: the bridge's files and command are
imported only when used (start-up).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.core.plugin import FileKinds, SystemClient, Table


def scales_command() -> Callable[[Any], None]:
    # import seam: the `scales` command loads only when it runs
    from game.bridge.cli.scales import register

    return register


def campaign_client() -> SystemClient:
    """The campaign's window with the GM's Battle panel that fights a battle out at the tactical
    or the mass scale (game/bridge/client/fight.py)."""
    # import seam: the GM's Battle panel and the campaign window load when a campaign opens in the window
    from game.bridge.client.fight import FightOut
    from game.systems.campaign.client import with_fight_out

    return with_fight_out(FightOut)


def campaign_links(table: Table, campaign_save: Path, record: Any) -> list[tuple[bool, str]]:
    # import seam: the bridge's files (and the battle formats they read) load only to check a save's links
    from game.bridge.files import replay_links

    return replay_links(table, campaign_save, record)


def _sniff(data: Any) -> str:
    return "scales-rules" if isinstance(data, dict) and data.get("system") == "scales" else ""


def _check(path: Path, kind: str) -> str:
    # import seam: the bridge's files load only to check a translation rules file
    from game.bridge.files import load_scales_rules

    sr = load_scales_rules(path)
    n = sum(len(t) for t in sr.tactical.units.values())
    return (f"scales translation rules, {n} campaign unit types mapped to tactical units, "
            f"{len(sr.tactical.ground.terrain)} campaign terrains to tactical ground, {len(sr.mass.kinds)} mass unit kinds")


FILES = FileKinds(("scales-rules",), _sniff, _check)
