"""Screenshots of each phase for the docs: `python -m game.systems.tactical.client.shots [--out docs/images]`.

Plays the default scenario headless with real commands through the same App the window uses.
Where a picture needs a later situation (units in contact, a watcher on overwatch) the state is
set up directly, as a GM would with the GM tools; the captions in docs/playing.md say so.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402

import game.systems.tactical.rules as ail  # noqa: E402
from game.core.hexgrid import distance, hex_range  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.systems.tactical.client.battle import BattleScene  # noqa: E402
from game.systems.tactical.plugin import alone  # noqa: E402


class Shooter:
    def __init__(self, out: Path, size: tuple[int, int] = (1280, 800), prefix: str = "play-") -> None:
        self.out = out
        self.prefix = prefix
        out.mkdir(parents=True, exist_ok=True)
        self.app = App.for_scenario(alone(), None, size=size, headless=True, settings=Settings(animation="instant"))
        self.scene = next(s for s in self.app.scenes if isinstance(s, BattleScene))
        self.frames(2)

    # -------------------------------------------------------------- helpers
    @property
    def session(self) -> Any:
        return self.scene.session

    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            self.app.step()

    def save(self, name: str) -> None:
        self.app.render()
        path = self.out / f"{self.prefix}{name}.png"
        pygame.image.save(self.app.screen, str(path))
        print("wrote", path)

    def top(self) -> str:
        t = self.app.scenes.top
        return getattr(t, "name", "") if t is not None else ""

    def through_handoff(self) -> None:
        while self.top() == "handoff":
            self.key(pygame.K_SPACE)

    def key(self, k: int, mod: int = 0) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
        self.frames(3)

    def hex_screen(self, h: Any) -> tuple[int, int]:
        cam = self.scene.camera
        cam.ensure_visible(*self.scene.layout.hex_center(h), margin=220)
        x, y = cam.world_to_screen(*self.scene.layout.hex_center(h))
        return round(x), round(y)

    def mouse(self, pos: tuple[int, int]) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        self.frames(2)

    def click(self, pos: tuple[int, int]) -> None:
        self.mouse(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        self.frames(3)

    def click_hex(self, h: Any) -> None:
        self.click(self.hex_screen(h))

    def hover_hex(self, h: Any) -> None:
        self.mouse(self.hex_screen(h))

    def button(self, label: str) -> None:
        ui = getattr(self.app.scenes.top, "ui", None)
        assert ui is not None
        for el in ui.get_sprite_group().sprites():
            if isinstance(el, pygame_gui.elements.UIButton) and el.text == label:
                self.click(el.rect.center)
                return
        raise KeyError(label)

    def edit(self, **units: dict[str, Any]) -> None:
        """Set unit fields directly (what the GM tools do)."""
        st = self.session.state
        new = dict(st.units)
        for uid, changes in units.items():
            new[uid] = new[uid].model_copy(update=changes)
        self.session.state = st.model_copy(update={"units": new})
        self.scene.after_change()
        self.frames(2)

    def at(self, col: int, row: int) -> Any:
        return self.session.board.hex_at(col, row)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="docs/images")
    args = ap.parse_args(argv)
    s = Shooter(Path(args.out))

    if s.top() == "briefing":
        s.save("briefing")
        s.key(pygame.K_RETURN)
    s.save("handoff")
    s.through_handoff()
    s.save("initiative")
    s.button("Tactics")
    s.through_handoff()
    s.button("Leadership")
    s.through_handoff()
    if s.top() == "turn_place":
        s.save("initiative-won")
        s.button("Go first")
    s.through_handoff()
    st = s.session.state
    side = st.active_side
    # movement: the 1st Rifles on the road by the farm
    rifles = next(u for u in st.live_units(side) if u.type_id == "rifle_section")
    s.click_hex(rifles.hex)
    s.hover_hex(s.at(rifles.hex and s.session.board.offset_of(rifles.hex)[0] + 3, s.session.board.offset_of(rifles.hex)[1]))
    s.save("movement")

    # a later moment: Zone scouts near the bridge, a militia band on overwatch across the river
    knight = next(u for u in st.live_units() if u.side != side and u.type_id == "battlemage_knight")
    kcol, krow = s.session.board.offset_of(knight.hex)
    s.edit(**{knight.id: {"stance": "overwatch", "stance_weapon": "spell bolt"},
              rifles.id: {"hex": s.at(kcol - 9, krow + 1), "move_done": True, "moved": True}})
    enemy = knight
    s.click_hex(s.session.state.units[rifles.id].hex)
    reach = ail.dash_reach(s.session.state, rifles.id)
    best, chance = None, -1.0
    for h in sorted(reach.costs):
        ex = ail.overwatch_exposure(s.session.state, rifles.id, reach.path_to(h), "dash")
        if ex and ex[0].step > 1 and float(ex[0].odds.hit_chance) > chance:
            best, chance = h, float(ex[0].odds.hit_chance)
    if best is not None:
        a = s.scene.layout.hex_center(enemy.hex)
        b = s.scene.layout.hex_center(best)
        s.scene.camera.centre_on((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        s.mouse(tuple(round(v) for v in s.scene.camera.world_to_screen(*b)))  # type: ignore[arg-type]
    s.save("dash-overwatch")

    # the same watcher hovered with nothing selected: its danger zone (range and line of sight)
    s.key(pygame.K_ESCAPE)
    s.key(pygame.K_ESCAPE)
    s.mouse(tuple(round(v) for v in s.scene.camera.world_to_screen(*s.scene.layout.hex_center(enemy.hex))))  # type: ignore[arg-type]
    s.save("danger-zone")

    # attack phase: Advantage spent, odds and the AC in parts
    s.key(pygame.K_ESCAPE)
    s.session.state = s.session.state.model_copy(update={"phase": "attack"})
    board = s.session.board
    best_spot: tuple[float, Any, Any] | None = None
    for foe in [u for u in st.live_units() if u.side != side and u.type_id == "militia_band"]:
        for h in hex_range(foe.hex, 5):
            if board.terrain.get(h) != "clear" or s.session.state.unit_at(h) is not None:
                continue
            s.edit(**{rifles.id: {"hex": h, "move_done": True, "moved": False}})
            p = ail.attack_preview(s.session.state, rifles.id, foe.id, "bolt rifles")
            if isinstance(p, ail.Rejection):
                continue
            score = float(p.odds.hit_chance)
            if best_spot is None or score > best_spot[0]:
                best_spot = (score, h, foe)
    assert best_spot is not None, "no firing position found"
    _, spot, enemy = best_spot
    s.edit(**{rifles.id: {"hex": spot, "move_done": True, "moved": False}})
    a = s.scene.layout.hex_center(enemy.hex)
    b = s.scene.layout.hex_center(spot)
    s.scene.camera.centre_on((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    s.click_hex(s.session.state.units[rifles.id].hex)
    s.hover_hex(enemy.hex)
    labels = [b.label for b in s.scene.mode.buttons(s.scene)]
    plus = next((x for x in labels if x.startswith("+1 Advantage")), None)
    if plus:
        s.button(plus)
        s.hover_hex(enemy.hex)
    s.save("attack-odds")
    # the target holds Leadership points: the defensive-action question offers them for its casualty rolls
    s.edit(**{enemy.id: {"leadership": 2}})
    s.click_hex(enemy.hex)
    s.through_handoff()
    if s.top() == "defensive":
        s.save("defensive-action")
        s.button("No")
    s.through_handoff()
    s.save("after-attack")

    # the replay view: the pointer picks the hex under it (the hex panel names it)
    s.key(pygame.K_F3)
    s.key(pygame.K_LEFT)
    view = s.app.scenes.top.view  # type: ignore[union-attr]
    cam = view.camera
    target = next(u for u in view.state.live_units() if u.side != side)
    cam.ensure_visible(*view.layout.hex_center(target.hex), margin=160)
    tx, ty = cam.world_to_screen(*view.layout.hex_center(target.hex))
    s.mouse((round(tx), round(ty)))
    s.save("replay")
    s.key(pygame.K_ESCAPE)

    # GM mode: the GM panel narrows the view; a unit moved by the GM lands on the clicked hex
    s.key(pygame.K_F2)
    if getattr(s.app.scenes.top, "name", "") == "gm_ask":  # a hotseat game: the GM says so first
        s.key(pygame.K_g)
    mover = next(u for u in s.session.state.live_units(side) if u.type_id == "rifle_section")
    s.click_hex(mover.hex)
    s.button("Move")
    to = next(h for h in (s.at(c, r) for c in range(2, 30) for r in range(2, 20))
              if h in s.session.board.terrain and s.session.state.unit_at(h) is None
              and s.session.board.terrain[h] == "clear" and 2 <= distance(h, mover.hex) <= 3)
    s.click_hex(to)
    s.mouse(s.hex_screen(to))
    s.save("gm-move")
    s.key(pygame.K_F2)

    # a small window (960 x 600): the side panel laid out from the space it has
    s.app.resize((960, 600))
    s.frames(2)
    s.click_hex(s.session.state.units[mover.id].hex)
    s.save("small-window")
    s.app.resize((1280, 800))
    s.frames(2)

    # the end of the battle
    s.session.state = s.session.state.model_copy(update={
        "phase": "ended", "winner": side, "end_reason": "Zone holds the town square at the end of round 8",
        "pending": None})
    s.scene.after_change()
    s.frames(3)
    s.save("end")
    s.key(pygame.K_q)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
