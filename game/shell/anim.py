"""Animations built from the rules' events: units slide along their paths, shots draw a line,
floating text shows hits, strength lost and new markers.

The queue is a list of *beats*; the parts of one beat play together and the next beat starts
when they are all done. The rules state is already final when the queue starts: the queue only
decides where the moving units are drawn meanwhile and which destroyed units still show.
A speed factor of 0 (instant) builds no beats at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.core.hexgrid import Hex

Point = tuple[float, float]
HexToWorld = Callable[[Hex], Point]

SLIDE_PER_HEX = 0.14
SHOT_TIME = 0.35
TEXT_TIME = 0.9


@dataclass
class Slide:
    """A counter moving along a path."""
    unit_id: str
    points: list[Point]
    duration: float

    def position(self, t: float) -> Point:
        if len(self.points) == 1 or self.duration <= 0:
            return self.points[-1]
        f = min(max(t / self.duration, 0.0), 1.0) * (len(self.points) - 1)
        i = min(int(f), len(self.points) - 2)
        u = f - i
        (x1, y1), (x2, y2) = self.points[i], self.points[i + 1]
        return x1 + (x2 - x1) * u, y1 + (y2 - y1) * u


@dataclass
class Shot:
    """A line drawn from a shooter to its target."""
    start: Point
    end: Point
    colour: tuple[int, int, int]
    duration: float


@dataclass
class FloatText:
    """A short text rising from a point of the map."""
    at: Point
    text: str
    colour: tuple[int, int, int]
    duration: float


@dataclass
class Beat:
    """Animations played together, then the destroyed units they reveal."""
    parts: list[Slide | Shot | FloatText] = field(default_factory=list)
    reveal_destroyed: list[str] = field(default_factory=list)  # ghosts removed when the beat starts

    @property
    def duration(self) -> float:
        return max((p.duration for p in self.parts), default=0.0)


RESULT_KINDS = {"attack_resolved", "strength_lost", "marker_added", "unit_destroyed", "roll_made",
                "advantage_spent", "attack_declared", "stance_changed"}


class AnimQueue:
    def __init__(self) -> None:
        self.beats: list[Beat] = []
        self.t = 0.0
        self.positions: dict[str, Point] = {}   # where moving units stand between beats
        self.ghosts: dict[str, Any] = {}         # destroyed units still drawn (unit state)

    @property
    def busy(self) -> bool:
        return bool(self.beats)

    # ------------------------------------------------------------------ building
    def load(self, events: Sequence[Any], hex_world: HexToWorld, unit_hex: Callable[[str], Hex | None],
             speed: float, before_units: dict[str, Any] | None = None) -> None:
        """Queue the beats of one command's events (speed 0 = nothing to play)."""
        if speed <= 0:
            return
        moves = {e.unit_id: e for e in events if getattr(e, "kind", "") == "unit_moved"}
        progress: dict[str, int] = {}
        deferred: list[str] = []
        beats: list[Beat] = []

        def slide_to(uid: str, end_index: int) -> None:
            ev = moves[uid]
            start = progress.get(uid, 0)
            if end_index <= start:
                return
            pts = [hex_world(h) for h in ev.path[start:end_index + 1]]
            beats.append(Beat([Slide(uid, pts, SLIDE_PER_HEX * (len(pts) - 1) * speed)]))
            progress[uid] = end_index

        def flush_deferred() -> None:
            for uid in deferred:
                slide_to(uid, len(moves[uid].path) - 1)
            deferred.clear()

        def where(uid: str) -> Point | None:
            ev = moves.get(uid)
            if ev is not None:
                return hex_world(ev.path[progress.get(uid, 0)])
            h = unit_hex(uid)
            if h is None and before_units and uid in before_units:
                h = before_units[uid].hex
            return hex_world(h) if h is not None else None

        for i, ev in enumerate(events):
            kind = getattr(ev, "kind", "")
            if deferred and kind not in RESULT_KINDS and kind != "overwatch_fired":
                flush_deferred()
            if kind == "unit_moved":
                later_fire = any(getattr(e, "kind", "") == "overwatch_fired" and e.target_id == ev.unit_id
                                 for e in events[i + 1:])
                if later_fire:
                    deferred.append(ev.unit_id)
                else:
                    slide_to(ev.unit_id, len(ev.path) - 1)
            elif kind == "overwatch_fired":
                if ev.target_id in moves:
                    path = list(moves[ev.target_id].path)
                    if ev.at in path:
                        slide_to(ev.target_id, path.index(ev.at))
                    if ev.target_id not in deferred:
                        deferred.append(ev.target_id)
                a, b = where(ev.watcher_id), where(ev.target_id)
                if a and b:
                    beats.append(Beat([Shot(a, b, (255, 210, 90), SHOT_TIME * speed),
                                       FloatText(a, "Overwatch!", (255, 210, 90), TEXT_TIME * speed)]))
            elif kind == "guard_counter":
                a, b = where(ev.guard_id), where(ev.charger_id)
                if a and b:
                    beats.append(Beat([Shot(a, b, (120, 200, 255), SHOT_TIME * speed),
                                       FloatText(a, "Guard!", (120, 200, 255), TEXT_TIME * speed)]))
            elif kind == "attack_declared":
                a, b = where(ev.attacker_id), where(ev.target_id)
                if a and b:
                    beats.append(Beat([Shot(a, b, (255, 120, 80), SHOT_TIME * speed)]))
            elif kind == "attack_resolved":
                b = where(ev.target_id)
                if b:
                    text = "Miss" if ev.result == "no_hit" else f"{ev.hits} hit{'s' if ev.hits != 1 else ''}"
                    beats.append(Beat([FloatText(b, text, (240, 240, 240), TEXT_TIME * speed)]))
            elif kind == "strength_lost":
                b = where(ev.unit_id)
                if b:
                    _append_text(beats, b, f"-{ev.points} strength", (255, 90, 80), speed)
            elif kind == "marker_added":
                b = where(ev.unit_id)
                if b:
                    _append_text(beats, b, ev.marker.replace("_", " ").upper(), (255, 220, 80), speed)
            elif kind == "unit_destroyed":
                b = where(ev.unit_id)
                if b:
                    text = "ANNIHILATED" if ev.annihilated else "DESTROYED"
                    beat = Beat([FloatText(b, text, (255, 70, 60), TEXT_TIME * speed)])
                    beat.reveal_destroyed.append(ev.unit_id)
                    beats.append(beat)
                    if before_units and ev.unit_id in before_units:
                        self.ghosts[ev.unit_id] = before_units[ev.unit_id]
            elif kind == "dash_failed":
                b = where(ev.unit_id)
                if b:
                    beats.append(Beat([FloatText(b, "Dash failed", (255, 180, 80), TEXT_TIME * speed)]))
            elif kind == "stance_changed" and ev.stance != "none":
                b = where(ev.unit_id)
                if b:
                    beats.append(Beat([FloatText(b, ev.stance.capitalize(), (160, 220, 255), TEXT_TIME * speed)]))
        flush_deferred()
        for uid, ev in moves.items():
            self.positions.setdefault(uid, hex_world(ev.path[0]))
        if beats and not self.beats:
            self.t = 0.0
        self.beats.extend(beats)
        if not self.beats:
            self.positions.clear()
            self.ghosts.clear()

    # ------------------------------------------------------------------ time
    def update(self, dt: float) -> None:
        while self.beats and dt >= 0:
            beat = self.beats[0]
            if self.t == 0.0:
                for uid in beat.reveal_destroyed:
                    self.ghosts.pop(uid, None)
            remaining = beat.duration - self.t
            if dt < remaining:
                self.t += dt
                return
            dt -= max(remaining, 0.0)
            for part in beat.parts:
                if isinstance(part, Slide):
                    self.positions[part.unit_id] = part.points[-1]
            self.beats.pop(0)
            self.t = 0.0
        if not self.beats:
            self.positions.clear()
            self.ghosts.clear()

    def skip(self) -> None:
        self.beats.clear()
        self.t = 0.0
        self.positions.clear()
        self.ghosts.clear()

    # ------------------------------------------------------------------ reading (draw)
    def unit_position(self, unit_id: str) -> Point | None:
        """Where a unit is drawn now, or None to draw it at its hex."""
        if self.beats:
            for part in self.beats[0].parts:
                if isinstance(part, Slide) and part.unit_id == unit_id:
                    return part.position(self.t)
        return self.positions.get(unit_id)

    def current_parts(self) -> list[tuple[Shot | FloatText, float]]:
        """Shots and texts playing now, each with its progress 0..1."""
        if not self.beats:
            return []
        out: list[tuple[Shot | FloatText, float]] = []
        for part in self.beats[0].parts:
            if isinstance(part, Shot | FloatText):
                out.append((part, min(1.0, self.t / part.duration) if part.duration > 0 else 1.0))
        return out


def _append_text(beats: list[Beat], at: Point, text: str, colour: tuple[int, int, int], speed: float) -> None:
    """Stack a text onto the previous text-only beat at the same place (plays together)."""
    part = FloatText(at, text, colour, TEXT_TIME * speed)
    if beats and beats[-1].parts and all(isinstance(p, FloatText) for p in beats[-1].parts) \
            and not beats[-1].reveal_destroyed:
        offset = sum(1 for p in beats[-1].parts if isinstance(p, FloatText) and p.at[0] == at[0])
        part.at = (at[0], at[1] + 18 * offset)
        beats[-1].parts.append(part)
    else:
        beats.append(Beat([part]))
