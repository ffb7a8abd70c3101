"""The battle report of one week, as Markdown or BBCode, ready to paste into a forum post: map
moves, each battle's orders (with the order files' salts and fingerprints when given), every
die, the table rows read, casualties and the moves that followed. Pure: built from events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.models import BAND_NAMES, MANOEUVRE_NAMES
from game.systems.campaign.rules.state import CampaignState


@dataclass(frozen=True)
class Seal:
    """What a player's order file proves: its fingerprint and the salt revealed with it."""

    player: str
    fingerprint: str
    salt: str
    canonical: str


@dataclass
class _Doc:
    fmt: str
    out: list[str]

    def h(self, text: str, level: int = 2) -> None:
        self.out.append(("#" * level + " " + text) if self.fmt == "md" else f"[size={6 - level}][b]{text}[/b][/size]")
        self.out.append("")

    def item(self, text: str) -> None:
        self.out.append(f"- {text}" if self.fmt == "md" else f"[*]{text}")

    def start_list(self) -> None:
        if self.fmt != "md":
            self.out.append("[list]")

    def end_list(self) -> None:
        if self.fmt != "md":
            self.out.append("[/list]")
        self.out.append("")

    def code(self, text: str) -> str:
        return f"`{text}`" if self.fmt == "md" else f"[font=monospace]{text}[/font]"

    def bold(self, text: str) -> str:
        return f"**{text}**" if self.fmt == "md" else f"[b]{text}[/b]"


def week_report(before: CampaignState, events: Sequence[Any], week: int, fmt: str = "md",
                seals: Mapping[str, Seal] | None = None, title: str = "") -> str:
    """The report of `week` from the events of that week (in order) and the state it began in."""
    if fmt not in ("md", "bbcode"):
        raise ValueError("format is md or bbcode")
    d = _Doc(fmt, [])
    d.h(f"{title or before.cs.name}: week {week} battle report", 1)
    moves = [e for e in events if e.kind == "army_moved" and e.reason in ("move", "gm")]
    d.h("Map moves")
    d.start_list()
    for e in moves:
        path = " > ".join(f"{c[0]},{c[1]}" for c in e.path)
        d.item(f"{before.army_name(e.army)}: {path}" + (f" (stopped: {e.stopped_by})" if e.stopped_by else ""))
    if not moves:
        d.item("no army moved")
    d.end_list()
    battles: list[str] = []
    for e in events:
        b = getattr(e, "battle", None)
        if b and b not in battles and e.kind not in ("orders_sealed", "posted"):
            battles.append(b)
    # moves made by a battle's result follow that battle's events: attribute them to it
    owner: list[str | None] = []
    current: str | None = None
    for e in events:
        if getattr(e, "battle", None):
            current = e.battle
        owner.append(current if (getattr(e, "battle", None) or (e.kind == "army_moved" and e.reason not in ("move", "gm"))
                                 or e.kind == "army_destroyed") else None)
    for bid in battles:
        bevents = [e for e, o in zip(events, owner, strict=True) if o == bid]
        d.h(f"Battle {bid}")
        revealed = [e for e in bevents if e.kind == "orders_revealed"]
        if revealed:
            d.out.append(d.bold("Orders"))
            d.start_list()
            for e in revealed:
                strat = ", ".join(s.replace("_", " ").title() for s in e.stratagems) or "no stratagems"
                played = f", played as {MANOEUVRE_NAMES[e.plays_as]}" if e.plays_as != e.manoeuvre else ""
                d.item(f"{before.player_name(e.player)}: {MANOEUVRE_NAMES[e.manoeuvre]}{played}; {strat}; "
                       f"vanguard {before.unit_name(e.vanguard) if e.vanguard in before.units else e.vanguard}"
                       + ("; " + " ".join(e.dropped) if e.dropped else ""))
            d.end_list()
            if seals:
                d.out.append(d.bold("Sealed orders, checkable"))
                d.start_list()
                for e in revealed:
                    seal = seals.get(e.player)
                    if seal:
                        d.item(f"{before.player_name(e.player)}: fingerprint {d.code(seal.fingerprint)}, "
                               f"salt {d.code(seal.salt)}, orders {d.code(seal.canonical)}")
                d.end_list()
        d.out.append(d.bold("Dice and tables"))
        d.start_list()
        for e in bevents:
            if e.kind in ("battle_started", "pool_built", "dice_rolled", "casualties_placed", "routed",
                          "army_locked", "battle_ended", "army_moved", "army_destroyed", "battle_chosen",
                          "battle_abandoned"):
                d.item(event_text(before, e))
            elif e.kind == "result_read":
                who = f" for {before.player_name(e.winner)}" if e.winner else ""
                d.item(f"{BAND_NAMES[e.band]}{who}, margin {e.margin}")
                for row in e.rows:
                    d.item(f"table: {row}")
        d.end_list()
    posts = [p for p in before.posts if p.week == week]
    if posts:
        d.h("Story posts")
        d.start_list()
        for p in posts:
            d.item(f"{before.player_name(p.player)} on {p.battle}: {p.text}")
        d.end_list()
    return "\n".join(d.out).rstrip() + "\n"

