"""The battle report of one week, as Markdown (Discord, GitHub) or phpBB BBCode, ready to paste
into a forum post: map moves, each battle's orders (with the order files' salts and fingerprints
when given), every die, the table rows read, casualties, locks, routs, joins and the moves that
followed, every other result of the week, and every story post. Pure: built from events.

Every name and every post is text, never markup: `escape(text, fmt)` neutralises the format's
markup (Markdown's punctuation, BBCode's tags, links a forum would make by itself) and control
characters, so a unit called `[url=...]` or `](http://...)` shows as those characters."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.models import BAND_NAMES, MANOEUVRE_NAMES, display_name
from game.systems.campaign.rules.state import CampaignState

FORMATS = ("md", "bbcode")
# phpBB 3's default BBCodes: the only tags a report uses ([size=N] is a percentage there).
PHPBB_TAGS = frozenset({"b", "i", "u", "quote", "code", "list", "*", "url", "img", "size", "color", "email"})
_MD_SPECIAL = set("\\`*_[]<|~")  # markup anywhere in a line (`<`: HTML and autolinks)
_MD_LEADING = set("#>+-=")  # markup only at the start of a line: headings, quotes, lists
_ZWSP = "\u200b"


def clean(text: str) -> str:
    """Text with control and format characters (bidirectional overrides, zero-width marks, NUL,
    escape sequences) replaced by U+FFFD; line breaks and tabs kept."""
    out = []
    for ch in str(text):
        if ch in "\n\t":
            out.append(ch)
        elif ch == "\r":
            continue
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _no_autolink(text: str) -> str:
    """Break what forums turn into links by themselves (`http://`, `www.`, `@everyone`)."""
    for a, b in (("://", f":{_ZWSP}//"), ("www.", f"www{_ZWSP}."), ("WWW.", f"WWW{_ZWSP}."), ("@", f"@{_ZWSP}")):
        text = text.replace(a, b)
    return text


def escape(text: str, fmt: str) -> str:
    """One line of plain text made safe for `fmt` ('md' or 'bbcode'): shows as written."""
    t = " ".join(clean(text).replace("\t", " ").splitlines())
    return _escape_line(t, fmt)


def _escape_line(t: str, fmt: str) -> str:
    if fmt == "md":
        t = "".join("\\" + c if c in _MD_SPECIAL else c for c in t)
        lead = len(t) - len(t.lstrip(" "))
        if t[lead:lead + 1] in _MD_LEADING and t[lead:lead + 1]:
            t = t[:lead] + "\\" + t[lead:]
        digits = len(t[lead:]) - len(t[lead:].lstrip("0123456789"))
        if digits and t[lead + digits:lead + digits + 1] in (".", ")"):
            t = t[:lead + digits] + "\\" + t[lead + digits:]  # not a numbered list
    elif fmt == "bbcode":
        t = t.replace("[", "[" + _ZWSP)  # no tag can start: phpBB has no escape character
    else:
        raise ValueError("format is md or bbcode")
    return _no_autolink(t)


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

    def e(self, text: Any) -> str:
        return escape(str(text), self.fmt)

    def h(self, text: str, level: int = 2) -> None:
        """A heading (`text` already escaped)."""
        self.out.append(("#" * level + " " + text) if self.fmt == "md"
                        else f"[size={150 if level == 1 else 120}][b]{text}[/b][/size]")
        self.out.append("")

    def item(self, text: str) -> None:
        """A list item (`text` already escaped)."""
        self.out.append(f"- {text}" if self.fmt == "md" else f"[*]{text}")

    def start_list(self) -> None:
        if self.fmt != "md":
            self.out.append("[list]")

    def end_list(self) -> None:
        if self.fmt != "md":
            self.out.append("[/list]")
        self.out.append("")

    def code(self, text: str) -> str:
        """Literal text such as a fingerprint (escaped here)."""
        if self.fmt == "md":
            t = clean(text).replace("\n", " ")
            fence = "``" if "`" in t else "`"
            return f"{fence} {t} {fence}" if fence == "``" else f"`{t}`"
        # phpBB reads no tag inside [code] but its own end: the text is left as written (the
        # checkable JSON copies and hashes as posted), only a "[/code" in it broken
        t = " ".join(clean(text).replace("\t", " ").splitlines()).replace("[/code", f"[{_ZWSP}/code")
        return f"[code]{t}[/code]"

    def bold(self, text: str) -> str:
        return f"**{text}**" if self.fmt == "md" else f"[b]{text}[/b]"

    def quote(self, who: str, text: str) -> None:
        """A story post: `who` already escaped, `text` raw (several lines kept)."""
        lines = [_escape_line(ln.replace("\t", " "), self.fmt) for ln in clean(text).split("\n")]
        if self.fmt == "md":
            self.out.append(f"> {self.bold(who)}")
            self.out.extend(f"> {ln}" if ln else ">" for ln in lines)
        else:
            self.out.append(f"[quote][b]{who}[/b]")
            self.out.extend(lines)
            self.out.append("[/quote]")
        self.out.append("")


_BATTLE_KINDS = ("battle_started", "army_joined", "pool_built", "dice_rolled", "casualties_placed", "routed",
                 "army_locked", "battle_ended", "army_moved", "army_destroyed", "battle_chosen", "battle_abandoned")
# Events that say nothing a reader needs: whose turn it is, a phase starting, a seal, a post marker.
_QUIET = ("turn_passed", "phase_began", "orders_sealed", "posted", "narrative_finished", "orders_revealed",
          "result_read")


def week_report(before: CampaignState, events: Sequence[Any], week: int, fmt: str = "md",
                seals: Mapping[str, Seal] | None = None, title: str = "", *,
                after: CampaignState | None = None, picture: str = "") -> str:
    """The report of `week` from the events of that week (in order) and the state it began in.
    `after`: the state once the week's commands were applied (its story posts are the week's;
    without it, the posts already in `before`). `picture`: a map picture's file name to mention."""
    if fmt not in FORMATS:
        raise ValueError("format is md or bbcode")
    names = after or before
    if after is not None and set(before.armies) - set(after.armies):
        # an army destroyed this week is gone from `after`: its name is still the week's news
        names = after.model_copy(update={"armies": {**before.armies, **after.armies}})
    d = _Doc(fmt, [])
    e_ = d.e
    d.h(e_(f"{title or before.cs.name}: week {week} battle report"), 1)
    if picture:
        d.out.append(f"Map: {d.code(picture)}")
        d.out.append("")
    printed: set[int] = set()
    moves = [e for e in events if e.kind == "army_moved" and e.reason in ("move", "gm")]
    d.h("Map moves")
    d.start_list()
    # a move's path holds the hexes entered: the hex the army left comes first, or a reader takes
    # the first hex entered for its start (each army's hex followed through the week's moves)
    where = {a.id: a.hex for a in before.armies.values()}
    listed = {id(e) for e in moves}
    for e in events:
        if e.kind != "army_moved":
            continue
        start = where.get(e.army)
        if e.path:
            where[e.army] = e.path[-1]
        if id(e) not in listed:
            continue
        printed.add(id(e))
        hexes = ([start] if start is not None and e.path and start != e.path[0] else []) + list(e.path)
        path = " > ".join(f"{c[0]},{c[1]}" for c in hexes)
        d.item(e_(f"{names.army_name(e.army)}: {path}" + (f" (stopped: {e.stopped_by})" if e.stopped_by else "")))
    if not moves:
        d.item("no army moved")
    d.end_list()
    battles: list[str] = []
    for e in events:
        b = getattr(e, "battle", None)
        if b and b not in battles and e.kind not in ("orders_sealed", "posted"):
            battles.append(b)
    # moves, locks and losses a battle's result makes follow that battle's events: attribute them to it
    owner: list[str | None] = []
    current: str | None = None
    for e in events:
        if getattr(e, "battle", None) and e.kind not in ("orders_sealed", "posted"):
            current = e.battle
        follows = (e.kind == "army_moved" and e.reason not in ("move", "gm")) or e.kind in ("army_destroyed",
                                                                                          "army_locked")
        owner.append(current if ((getattr(e, "battle", None) and e.kind not in ("orders_sealed", "posted"))
                                 or follows) else None)
    for bid in battles:
        bevents = [e for e, o in zip(events, owner, strict=True) if o == bid]
        d.h(e_(f"Battle {bid}"))
        revealed = [e for e in bevents if e.kind == "orders_revealed"]
        if revealed:
            d.out.append(d.bold("Orders"))
            d.start_list()
            for e in revealed:
                printed.add(id(e))
                strat = ", ".join(display_name(s) for s in e.stratagems) or "no stratagems"
                played = f", played as {MANOEUVRE_NAMES[e.plays_as]}" if e.plays_as != e.manoeuvre else ""
                d.item(e_(f"{names.player_name(e.player)}: {MANOEUVRE_NAMES[e.manoeuvre]}{played}; {strat}; "
                          f"vanguard {names.unit_name(e.vanguard) if e.vanguard in names.units else e.vanguard}"
                          + ("; " + " ".join(e.dropped) if e.dropped else "")))
            d.end_list()
            if seals:
                d.out.append(d.bold("Sealed orders, checkable"))
                d.start_list()
                for e in revealed:
                    seal = seals.get(e.player)
                    if seal:
                        d.item(f"{e_(names.player_name(e.player))}: fingerprint {d.code(seal.fingerprint)}, "
                               f"salt {d.code(seal.salt)}, orders {d.code(seal.canonical)}")
                d.end_list()
        d.out.append(d.bold("Dice, tables and results"))
        d.start_list()
        for e in bevents:
            if e.kind in _BATTLE_KINDS:
                printed.add(id(e))
                d.item(e_(event_text(names, e)))
            elif e.kind == "result_read":
                printed.add(id(e))
                who = f" for {names.player_name(e.winner)}" if e.winner else ""
                d.item(e_(f"{BAND_NAMES[e.band]}{who}, margin {e.margin}"))
                for row in e.rows:
                    d.item(e_(f"table: {row}"))
        d.end_list()
    rest = [e for e in events if id(e) not in printed and e.kind not in _QUIET]
    if rest:
        d.h("Other results")
        d.start_list()
        for e in rest:
            d.item(e_(event_text(names, e)))
        d.end_list()
    posts = [p for p in names.posts if p.week == week]
    if posts:
        d.h("Story posts")
        for p in posts:
            d.quote(e_(f"{names.player_name(p.player)} on {p.battle}"), p.text)
    return "\n".join(d.out).rstrip() + "\n"
