"""The battle-over summary of a mass battle: the winner and how it ended, each Wave's Advantage,
casualties by armour, the ledger of Virtue and Vice with Glory. Read from the state and the
rules' own events (nothing recomputed); the board draws it in its lower half with its buttons
(back to the campaign when the battle came from one, save, new battle, quit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from game.shell.fonts import text, wrap_px
from game.systems.mass.io.picture import BAD, DIM, GOLD, GOOD, INK, PANEL
from game.systems.mass.rules.choices import person_label
from game.systems.mass.rules.pools import level_name

BUTTON_H = 38
BUTTON_MIN_W = 170  # "Back to the campaign" whole


@dataclass
class Summary:
    title: str
    how: str
    waves: list[str] = field(default_factory=list)
    # (force, armour, began, wounded, killed, fighting on)
    casualties: list[tuple[str, str, int, int, int, int]] = field(default_factory=list)
    individuals: list[str] = field(default_factory=list)
    # (name, force, Acts of Virtue, Acts of Vice, Glory)
    ledger: list[tuple[str, str, int, int, int]] = field(default_factory=list)


# how a force left the field, for the summary's "How it ended" ("it is the last force on the field"
# said nothing of the other force's surrender)
_LEFT = {"fled": "fled", "withdrawn": "withdrew", "surrendered": "surrendered", "ceded": "ceded the field",
         "obliterated": "was wiped out", "defeated": "was defeated"}


def summary(session: Any) -> Summary:
    s = session.state
    title = f"{s.says(s.winner, 'wins')} the battle" if s.winner else "The battle ends without a victor"
    gone = [s.says(f.id, _LEFT[f.status]) for f in s.forces.values() if f.status in _LEFT and f.id != s.winner]
    why = f"{s.end_reason} ({'; '.join(gone)})" if s.end_reason and gone else s.end_reason  # (who left, and how)
    out = Summary(title, f"How it ended: {why}" if why else "")
    events = list(session.all_events())
    out.waves = [str(e.text) for e in events if getattr(e, "what", "") == "wave_end"]
    lost: dict[tuple[str, str], list[int]] = {}
    for e in events:
        if getattr(e, "what", "") == "casualties" and str(e.data.get("who", "")).startswith("brutes:"):
            key = (str(e.force), str(e.data["who"]).split(":", 1)[1])
            acc = lost.setdefault(key, [0, 0])
            acc[0] += int(e.data.get("wounded", 0))
            acc[1] += int(e.data.get("killed", 0))
    for fs in s.setup.forces:
        f = s.forces[fs.id]
        for d in fs.brutes:
            wounded, killed = lost.get((fs.id, d.armour), [0, 0])
            now = next((x.count for x in f.brutes if x.armour == d.armour), 0)
            out.casualties.append((f.name, d.armour, d.count, wounded, killed, now))
        hurt = [f"{person_label(p)} {'fled' if p.fled else level_name(s.rules, p)} ({p.wounds} Wounds)"
                for p in f.people.values() if p.wounds or p.fled]
        if hurt:
            out.individuals.append(f"{f.name}: " + "; ".join(hurt))
    rows: dict[str, list[Any]] = {}
    for entry in s.ledger:
        f = s.forces[entry.force]
        row = rows.setdefault(entry.person, [person_label(f.people[entry.person]), f.name, 0, 0, 0])
        row[2 if entry.act == "virtue" else 3] += 1
        row[4] += entry.glory
    order = {fid: i for i, fid in enumerate(s.order)}
    people = {pid: f.id for f in s.forces.values() for pid in f.people}
    out.ledger = [tuple(rows[pid]) for pid in sorted(rows, key=lambda pid: order.get(people.get(pid, ""), 99))]
    return out


def button_rects(rect: pygame.Rect, n: int, reserve: int = 0) -> list[pygame.Rect]:
    """The summary's `n` buttons in a row along its bottom, leaving up to `reserve` pixels on the
    right: a button gives up width for it down to `BUTTON_MIN_W` (its label whole)."""
    gap = 10
    most = (rect.w - 24 - gap * (n - 1)) // max(1, n)
    w = min(200, max(min(BUTTON_MIN_W, most), (rect.w - 24 - reserve - gap * (n - 1)) // max(1, n)))
    y = rect.bottom - BUTTON_H - 10
    return [pygame.Rect(rect.x + 12 + k * (w + gap), y, w, BUTTON_H) for k in range(n)]


def _wrap(line: str, size: int, width: int, bold: bool = False) -> list[str]:
    return wrap_px(line, size, width, bold)


def draw_summary(surface: pygame.Surface, rect: pygame.Rect, session: Any, system: Any) -> bool:
    """Draw the summary in `rect`; False when something did not fit (and was left out)."""
    box = rect.inflate(-8, -8)
    pygame.draw.rect(surface, PANEL, box, border_radius=6)
    sm = summary(session)
    bottom = box.bottom - BUTTON_H - 16
    half = (box.w - 30) // 2
    left = pygame.Rect(box.x + 10, box.y + 8, half, bottom - box.y - 8)
    right = pygame.Rect(left.right + 10, box.y + 8, box.w - half - 30, bottom - box.y - 8)
    y = left.y
    fitted = True

    def put(area: pygame.Rect, line: str, size: int, colour: tuple[int, int, int], bold: bool = False) -> None:
        nonlocal y, fitted
        for chunk in _wrap(line, size, area.w, bold):
            if y + size + 2 > area.bottom:
                fitted = False
                return
            surface.blit(text(chunk, size, colour, bold), (area.x, y))
            y += size + 4

    put(left, sm.title, 17, GOOD if session.state.winner else GOLD, True)
    put(left, sm.how, 13, INK)
    y += 4
    put(left, "Advantage at the end of each Wave", 13, GOLD, True)
    for line in sm.waves:
        put(left, line, 12, INK)
    y += 4
    put(left, "Casualties by armour (Brutes: began -> fight on)", 13, GOLD, True)
    by_force: dict[str, list[str]] = {}
    for name, armour, began, wounded, killed, now in sm.casualties:
        by_force.setdefault(name, []).append(f"{armour} {began} -> {now} ({wounded} wounded, {killed} killed)")
    for name, parts in by_force.items():
        put(left, f"{name}: " + "; ".join(parts), 12, INK)
    for line in sm.individuals:
        put(left, line, 12, DIM)
    y = right.y
    put(right, "Ledger of Virtue and Vice", 13, GOLD, True)
    cols = (0, int(right.w * 0.58), int(right.w * 0.72), int(right.w * 0.86))
    if y + 16 <= right.bottom:
        for x, head in zip(cols, ("who", "Virtue", "Vice", "Glory"), strict=True):
            surface.blit(text(head, 12, DIM, True), (right.x + x, y))
        y += 17
    shown_force = None
    for name, force, virtue, vice, glory in sm.ledger:
        if force != shown_force:  # the ledger is grouped by force
            shown_force = force
            put(right, force, 12, DIM, True)
        lines = _wrap(name, 12, cols[1] - 8)
        if y + 16 * len(lines) > right.bottom:
            fitted = False
            break
        for k, who in enumerate(lines):
            surface.blit(text(who, 12, INK), (right.x + 8, y + 16 * k))
        for x, v, colour in ((cols[1], str(virtue), GOOD), (cols[2], str(vice), BAD),
                             (cols[3], f"{glory:+d}", GOOD if glory > 0 else BAD if glory < 0 else INK)):
            surface.blit(text(v, 12, colour), (right.x + x, y))
        y += 16 * len(lines)
    if not sm.ledger:
        put(right, "no Acts of Virtue or Vice were recorded", 12, DIM)
    return fitted

