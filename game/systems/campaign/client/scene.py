"""The campaign map view: the island, army counters (stacked, units at a glance), battles
marked, the selected army's units, General and route, movement reach with path cost, and one
panel per phase (declare, pick-up, posts, sealed orders with the planner, the reveal log).

Who is looking: the first player the rules wait for (`system.to_move`); a change of player goes
through the hand-off screen, and everything drawn comes from `system.view(state, viewer)` (G
toggles the GM's view of everything). Every string drawn is kept in `drawn_strings` (tests).

Keys: click an army to select it, click a highlighted hex to move there (pick-up: click a friendly
army); Enter = the phase's main action (narrative: done posting, asking first while a General of the
player's is named in no post; Enter in the text box posts it); 1-6 pick a manoeuvre, V the next vanguard, S the next
stratagem; E toggles the planner (on the sealed-orders screen; elsewhere it says so); R the history
of the battles; G the GM view; P the players (who plays each power); H a hint. In the GM view: N
forces the next dice rolls (gm_rolls.py; the queue is in the panel), K sets the week's scouting seed
(gm_scouting.py; the panel says whether the scouting dice are protected), Ctrl+Z takes back the last
GM command. F3 (the shell's) opens the replay (replay.py), behind the GM's seat as the GM view.

Computer powers (game/shell/seats.py): a power the players dialog (P) or `play --seat` hands to
the computer plays its own turns when the rules wait for it (moves, declarations, pick-ups,
posts, sealed orders), asked through `game.core.ai.choose` in a thread (its own view only, never
another power's sealed orders), and its commands go through the session like a person's, their
log lines followed by the why line. The screen stays with the people: it goes to the first
person the rules wait for, or stays with the one at it while the computer plays; the hand-off
comes up only between two people. A computer's sealed orders say why once revealed.

In the GM view an open battle has a Battle panel (fight.py): the forecast and the choice to resolve
it by the tables or fight it out as a tactical or a mass battle (B shows the next battle).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from game.core.hexgrid import Stagger
from game.core.hexlayout import HexLayout
from game.core.palette import rgb
from game.shell import actions
from game.shell.fonts import font, wrap_px
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.scenes.seats import seats_dialog
from game.shell.seats import PACE, SeatRule, Seats, Thinker, hint_level, levels_of, said, why_line
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.manager import ThemedManager
from game.shell.toolkit.richtext import styled
from game.systems.campaign.client.gm_lock import GmLockScene, GmSeat
from game.systems.campaign.client.gm_rolls import ForceRollsScene, command_text, queue_text, week_seed_step
from game.systems.campaign.client.gm_scouting import ScoutingSeedScene, can_seed, log_line, status_lines
from game.systems.campaign.client.orders_panel import OrdersPanel
from game.systems.campaign.client.results import ResultsScene, pages_of
from game.systems.campaign.rules import orders as orders_q
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GmBattleChoice,
    GmSetLock,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.engine import pending_declarations, reach
from game.systems.campaign.rules.gm_lock import GmLock
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES, Coord
from game.systems.campaign.rules.orders import battles_to_order
from game.systems.campaign.rules.queries import sealed_by
from game.systems.campaign.rules.results import week_pages
from game.systems.campaign.rules.state import PHASE_NAMES, PHASES, CampaignState, key_hex

PANEL_W = 400
HINT_GOLD = (255, 210, 80)  # the hint's mark on the map
INDENT = "    "  # a wrapped line's later lines in the side panel
POST_TEXT = "Our forces take the field."  # the post box's first text (not typed by anyone)
# the GM commands Ctrl+Z takes back in the GM view, and why the others stay [decision]
# (the scouting seed only while it is the last command: nothing played since could have used it)
GM_UNDOABLE = ("gm_force_rolls", "gm_move_army", "gm_edit_unit", "gm_set_general", "gm_battle_dice",
               "gm_scouting_seed")
GM_KEPT = {"gm_lock": "the GM's passphrase holds for the whole campaign.",
           "gm_dice_seed": "the week's dice seed stays (the commitment protocol's check, verify-dice, reads it).",
           "gm_battle_choice": "how a battle is resolved goes with its battle save (fought out) or its dice "
                               "(tables); abandon a battle fought out instead.",
           "gm_battle_abandon": "a battle set aside for the tables stays so (its save is kept).",
           "gm_battle_result": "a battle's result came from its battle fought out."}
STEP_NAMES = {"movement": "Move", "declare": "Declare", "pickup": "Pick-up", "narrative": "Posts",
              "orders": "Sealed orders"}  # the week's steps along the top of the map
ZOOM_STEP = 1.25   # one wheel notch or one +/- press
MAX_ZOOM = 8.0     # times the scale that shows the whole map
PAN_STEP = 80      # pixels an arrow key moves the map
KEEP_IN_VIEW = 80  # pixels of the map that stay in the view however far it is dragged
LEGEND_ROW = 14    # the height of one line of the legend band at the map's foot
MAP_CONTROLS = "Wheel or +/-: zoom · right-drag or arrows: move the map · Home: the whole map"
TERRAIN_COLOURS = {
    "plains": (150, 170, 100), "road": (176, 160, 120), "town": (190, 150, 120), "fortress": (130, 120, 120),
    "forest": (60, 110, 60), "hills": (150, 140, 90), "river": (90, 140, 190), "marsh": (100, 130, 110),
    "mountains": (120, 110, 105), "sea": (40, 70, 120),
}


def player_colour(state: CampaignState, player: str) -> tuple[int, int, int]:
    """The player's colour: the scenario's (or the palette's), the same as in its battles and hand-offs."""
    return rgb(state.cs.colour_of(player))



# what the side on screen does in each phase, while no army is selected (a player opening the map
# saw an empty panel)
_PHASE_HINTS = {
    "movement": "Click one of your armies to see it; the hexes it can reach are shaded: click one to "
                "move there. Enter ends your turn.",
    "pickup": "Each of your Generals may make one pick-up move to another of your armies within reach: "
              "click the army the General is with, then the army to join. Enter ends your turn.",
    "narrative": "Write about your battle, then Post (or Enter in the text box): the post names your Generals "
                 "with the battle's armies. A General not named in a post this week does not fight (and allows "
                 "no stratagem that needs a General). Then Done posting (Enter; it asks first while a General "
                 "of yours is named in no post).",
    "declare": "An enemy army is in reach of a fight: Fight or Decline.",
    "orders": "R: the history of every battle so far.",
}


class TablesOnly:
    """The GM's Battle panel when no other scale is wired in: every battle by the tables (the
    bridge's FightOut, game/bridge/client/fight.py, offers the tactical and mass scales too)."""

    scales = ("tables",)

    def __init__(self, scene: CampaignScene) -> None:
        self.scene = scene

    def battles(self) -> list[Any]:
        return list(self.scene.state.open_games())

    def choose(self, battle_id: str, scale: str, note: str = "") -> bool:
        if scale != "tables":
            self.scene.message = f"This program cannot fight a battle out as a {scale} battle"
            return False
        return bool(self.scene.gm_do(GmBattleChoice(battle=battle_id, scale="tables", note=note)))

    def lines(self, battle_id: str) -> list[tuple[str, int, bool]]:
        return [(f"Battle {battle_id}", 15, True), ("Resolved by the campaign's tables.", 12, False)]

    def resume(self, battle_id: str) -> None:
        return None

    def abandon(self, battle_id: str) -> None:
        return None

    def propose(self, battle_id: str, player: str, scale: str, colour: Any) -> None:
        return None

    def came_back(self) -> None:
        return None

    def update(self) -> None:
        return None


class Lent:
    """The screen lent to the other side of a battle to answer a proposal to fight it out: the
    scene draws nothing of the proposer's while it is lent, and gives it back through a hand-off."""

    def __init__(self, battle: str) -> None:
        self.battle = battle
        self.answered = False  # the question's dialog has closed
        self.enters = 0  # times the map came back on top since the answer
        self.fought = False  # the battle was fought out meanwhile (both sides were at the screen)
        self.handed = False  # the map pushed a hand-off of its own since the answer


class CampaignScene(Scene):
    name = "campaign"
    game_scene = True  # a live game: the shell's save / load / quit, undo / redo and F1 help act on it
    # the map's own keys, for the F1 help (handle_event handles them); Esc, Ctrl+Z / Ctrl+Y are
    # the shell's (quit asking first, undo / redo)
    KEYS = (Binding((pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN), "Arrows", "move the map"),
            Binding((pygame.K_PLUS, pygame.K_MINUS), "+ / -", "zoom in / out (or the mouse wheel)"),
            Binding((pygame.K_HOME,), "Home", "the whole map"),
            Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "the main action of the phase (end the turn, "
                    "send the orders...)"),
            Binding((pygame.K_g,), "G", "the GM's seat: the GM view with the GM's passphrase (again: leave it)"),
            Binding((pygame.K_b,), "B", "GM: the next open battle in the Battle panel"),
            Binding((pygame.K_e,), "E", "the planner and its equilibrium on/off"),
            Binding((pygame.K_r,), "R", "the history of every battle (results of each week)"),
            Binding((pygame.K_p,), "P", "players: who plays each power (Human, or the computer at a level); once "
                    "play has begun only the GM changes it (the GM's passphrase)"),
            Binding((pygame.K_h,), "H", "hint: what the computer would do for the power at the screen, and why"),
            Binding((pygame.K_l,), "L", "the map's legend on/off"),
            Binding(tuple(range(pygame.K_1, pygame.K_7)), "1-6", "orders: choose the manoeuvre"),
            Binding((pygame.K_v,), "V", "orders: the next vanguard"),
            Binding((pygame.K_s,), "S", "orders: add the next stratagem that may be added (none left: clear)"),
            Binding((pygame.K_n,), "N", "GM view: force the next dice rolls (the queue of forced values is shown in "
                    "the GM's panel)"),
            Binding((pygame.K_k,), "K", "GM view: the scouting seed of the week (its scouting dice drawn from a secret "
                    "of the GM's; the commitment to post is shown)"))
    # claimed only while the GM view is open (else the shell's undo for the players)
    GM_UNDO = Binding((pygame.K_z,), "Ctrl+Z", "GM view: take back the GM's last forced rolls, army move, unit, "
                      "General or battle-dice edit (Ctrl+Y plays it again); a player's command: the rules' undo as "
                      "for the players", ctrl=True)

    # claimed only while something typed or chosen is not sent (else the shell's Esc: quit)
    ESC = Binding((pygame.K_ESCAPE,), "Esc", "leave the post box (its text kept) or stop picking a hex (the orders "
                  "kept); with a post typed or orders chosen and not sent, quitting asks first")

    def key_map(self) -> tuple[Binding, ...]:
        keys = (*self.KEYS, self.GM_UNDO) if self.gm else tuple(self.KEYS)
        if self.typing() or self.unsent() or (self.orders_panel is not None and self.orders_panel.picking):
            keys += (self.ESC,)
        return keys

    def __init__(self, app: Any, session: Any, fight_out: Callable[[CampaignScene], Any] | None = None) -> None:
        super().__init__(app)
        self.session = session
        self.system = session.system
        m = session.state.cs.map
        self.layout = HexLayout(74, 64, 36, Stagger(m.stagger_axis, m.stagger_index), m.width, m.height)
        self.viewer: str | None = None
        self.gm = False
        self.selected: str | None = None
        self.hover: Coord | None = None
        self.message = ""
        self.message_ok = False  # the message is a confirmation (normal colour), not a refusal
        self.log: list[str] = []
        self.orders_panel: OrdersPanel | None = None  # the sealed-orders panel of the player at the screen
        # the GM view opens only with the GM's passphrase (gm_lock.py), kept in the campaign's
        # state as a salted digest once set (the `gm_lock` command): saves and loads keep it
        self.gm_seat = GmSeat(lambda: self.session.state.gm_lock, self._keep_gm_lock)
        self.show_planner = True
        self.hint_mark: tuple[Coord, ...] | None = None  # H: the hint's hexes on the map
        self.planner_fits: bool | None = None  # the orders panel's last drawing had room for the planner
        self.show_legend = True  # L hides the map's legend
        self.drawn_strings: list[str] = []
        # the GM's Battle panel: fighting a battle out at another scale when the bridge is wired
        # in (game/bridge/plugin.py), else the tables alone
        self.fight: Any = fight_out(self) if fight_out is not None else TablesOnly(self)
        self.battle_shown = 0  # which open battle the GM's Battle panel shows (B: the next)
        # computer powers (game/shell/seats.py): their decisions and the hint's, in a thread
        self.players = app.table.plugin_named(session.system.name).players
        self.thinker = Thinker(self.players, session.seed, seconds=lambda: app.settings.think_seconds)
        self._hint_for: str | None = None  # the power a hint is being thought for
        self.thinking: str | None = None  # the computer power whose decision is awaited (the panel says so)
        self.pace = PACE  # seconds at least between two computer commands (the people follow them)
        self._next_computer = 0.0  # (time.monotonic) when the next computer command may be played
        self.ui = app.make_ui()
        self.zoom = 1.0  # 1: the whole map fits the view
        self._mouse = (0, 0)  # where the pointer was last seen (the wheel zooms around it)
        self._pointer_seen = False  # the pointer has moved over this screen (so `_mouse` is where it is)
        self._legend_cache: tuple[Any, tuple[int, int, int]] | None = None  # (key, the legend band's layout)
        self._drag_from: tuple[int, int] | None = None  # a right or middle drag moving the map
        self._dragging = False  # (the window draws every frame while it is True)
        self._terrain: tuple[Any, pygame.Surface] | None = None  # (view, map), its terrain picture
        # after a hand-off the widgets take no hover (no highlight, no tooltip) until the pointer
        # moves: it is where the last player left it, over what that player chose
        self._pointer_left = False
        # the screen is blank while the computer plays before the game's first hand-off (on_enter)
        self._curtain = False
        # the screen lent to the other side of a battle for its answer to a proposal (see lend_screen)
        self._lent: Lent | None = None
        # what the players typed or chose and have not sent yet, kept while the panel and its
        # widgets are rebuilt (a resize, E, the GM view, an undo, the computer playing): each
        # power's story post typed in the box, and each power's orders being chosen, by (week,
        # power, battle). Esc and Ctrl+Q ask before quitting while any is there (`unsent`)
        self.text_entry: pygame_gui.elements.UITextEntryLine | None = None
        self._post_box_for: str | None = None  # the power the post box was built for
        self.post_drafts: dict[str, str] = {}
        self.order_drafts: dict[tuple[int, str, str], OrdersPanel] = {}
        self._layout_geometry()
        self._log_history()
        self._build()
        self._sync_viewer(handoff=False)
        self._opened = False  # the first time on screen: behind the hand-off (on_enter)

    # ------------------------------------------------------------------ geometry
    def toast(self, text: str, seconds: float = 3.0) -> None:
        """A message from the shell (saved, loaded, refused), shown where refusals are."""
        self.message = text
        self.message_ok = False

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A shell message in its tone: a confirmation ("Saved to ...") in the panel's normal
        colour, a problem in the refusals' red."""
        self.message = text
        self.message_ok = not problem
        return True

    def after_change(self) -> None:
        """The shell's undo / redo changed the state: the map, the panel and the log follow it."""
        self.orders_panel = None
        self._log_history()
        self._sync_viewer()

    def _log_history(self) -> None:
        """The log of every step in the session's history (a loaded save's too)."""
        self.log = []
        fresh = True  # the step starts a player's turn (the one before passed the turn or began the phase)
        for step in self.session.history:
            skipped = self._no_choice(step.before) if (fresh and step.command.kind == "end_turn") else None
            fresh = any(e.kind in ("turn_passed", "phase_began") for e in step.events)
            if skipped is not None:
                self.log.append(skipped)
            why = self.session.seats.why_of(step)  # a computer power's command: why it chose it
            for e in step.events:
                if why is not None and e.kind in ("week_ended", "phase_began"):
                    self.log.append(why)
                    why = None
                if e.kind not in ("orders_sealed", "turn_passed"):
                    self.log.append(self._event_line(step.command, step.before, e))
            if why is not None:
                self.log.append(why)
        self.log = self.log[-400:]

    def _layout_geometry(self) -> None:
        """The scale that shows the whole map, and the map shown whole (zoom 1)."""
        w, h = self.app.screen.get_size()
        self._size = (w, h)
        view = self._map_view_for((w, h))
        mw, mh = self.layout.map_pixel_size
        self.fit_scale = min((view.w - 20) / mw, (view.h - 20) / mh)
        self.zoom = 1.0
        self.scale = self.fit_scale
        self.origin = (10.0, 10.0)
        self._map_moved()

    def map_view(self) -> pygame.Rect:
        """The part of the window the map is drawn in: left of the side panel, above the legend
        band (when shown). The map is panned, picked and clipped inside it, so the legend never
        covers a hex: a hex below the view's foot is off the view, as one past its edge."""
        return self._map_view_for(self.app.screen.get_size())

    def _map_view_for(self, size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        return pygame.Rect(0, 0, max(1, w - PANEL_W), max(1, h - self._legend_height(size)))

    def legend_rect(self) -> pygame.Rect:
        """The legend band: the whole width of the map's part of the window, at its foot, fixed
        on the screen whatever the map's zoom and position (empty while L hides the legend)."""
        w, h = self.app.screen.get_size()
        bh = self._legend_height((w, h))
        return pygame.Rect(0, h - bh, max(1, w - PANEL_W), bh)

    def _legend_height(self, size: tuple[int, int]) -> int:
        if not self.show_legend:
            return 0
        _cols, rows, _col_w = self._legend_layout(size[0])
        return rows * LEGEND_ROW + 8

    def _legend_entries(self, st: CampaignState) -> list[tuple[tuple[int, int, int], str]]:
        """The legend's lines: each power's colour and armies, each terrain's colour and cost."""
        entries: list[tuple[tuple[int, int, int], str]] = []
        for p in st.players:
            n = sum(1 for a in st.armies.values() if a.owner == p)
            entries.append((player_colour(st, p), f"{st.player_name(p)}: {n} arm{'y' if n == 1 else 'ies'}"))
        for t in sorted(set(st.cs.map.terrain.values())):
            rule = st.cs.rules.terrain.get(t)
            cost = "impassable" if rule is None or rule.cost is None else f"cost {rule.cost}"
            entries.append((TERRAIN_COLOURS.get(t, (90, 90, 90)), f"{(rule.name if rule and rule.name else t)}: {cost}"))
        return entries

    def _legend_layout(self, width: int) -> tuple[int, int, int]:
        """(columns, rows, column width) of the legend band for a window `width` wide: as many
        columns as fit beside each other, each wide enough for its longest line with two-digit army
        counts (so the band does not change size, nor the map move, when an army is lost)."""
        st = self.session.state
        key = (width, tuple(st.players))
        kept = self._legend_cache
        if kept is not None and kept[0] == key:
            return kept[1]
        f = font(11)
        texts = [f"{st.player_name(p)}: 00 armies" for p in st.players]
        texts += [text for _, text in self._legend_entries(st)]
        col_w = max(f.size(text)[0] for text in texts) + 24
        n = len(texts) - len(st.players)  # (the entries: each power once, each terrain)
        cols = max(1, min(n, (max(1, width - PANEL_W) - 8) // col_w))
        rows = -(-n // cols)
        self._legend_cache = (key, (cols, rows, col_w))
        return cols, rows, col_w

    def toggle_legend(self) -> None:
        """L: the legend band on or off; the map view gives its room back or takes it (the whole
        map is fitted to it again; a zoomed map stays where it was on the screen)."""
        self.show_legend = not self.show_legend
        if self.zoom == 1.0:
            self._layout_geometry()  # (the whole map, fitted to the view as it is now)
        else:
            self._keep_in_view()
            self._map_moved()

    def zoom_at(self, pos: tuple[float, float], factor: float) -> None:
        """Zoom by `factor` keeping the map point under `pos` where it is (between the whole map
        and MAX_ZOOM times closer)."""
        zoom = max(1.0, min(MAX_ZOOM, self.zoom * factor))
        if zoom == self.zoom:
            return
        mx = (pos[0] - self.origin[0]) / self.scale
        my = (pos[1] - self.origin[1]) / self.scale
        self.zoom = zoom
        self.scale = self.fit_scale * zoom
        self.origin = (pos[0] - mx * self.scale, pos[1] - my * self.scale)
        self._keep_in_view()
        self._map_moved()

    def pan(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) pixels on the screen (some of it always stays in view)."""
        self.origin = (self.origin[0] + dx, self.origin[1] + dy)
        self._keep_in_view()
        self._map_moved()

    def _map_moved(self) -> None:
        """The map moved or zoomed under a pointer that stayed where it was (the arrow keys, +/-,
        Home, a resize, L): the hovered hex is the one under the pointer now, as if it had moved
        (its panel described the hex that was under it before). Before the pointer has moved over
        this screen, or after a hand-off until it moves, there is none."""
        if self._pointer_seen and not self._pointer_left:
            self.hover = self.hex_at(self._mouse)

    def _keep_in_view(self) -> None:
        view = self.map_view()
        mw, mh = self.layout.map_pixel_size
        w, h = mw * self.scale, mh * self.scale
        keep_x, keep_y = min(KEEP_IN_VIEW, w), min(KEEP_IN_VIEW, h)
        x = max(view.left + keep_x - w, min(view.right - keep_x, self.origin[0]))
        y = max(view.top + keep_y - h, min(view.bottom - keep_y, self.origin[1]))
        self.origin = (x, y)

    def hex_centre(self, c: Coord) -> tuple[float, float]:
        x, y = self.layout.tile_center(c[0], c[1])
        return self.origin[0] + x * self.scale, self.origin[1] + y * self.scale

    def hex_at(self, pos: tuple[int, int]) -> Coord | None:
        x = (pos[0] - self.origin[0]) / self.scale
        y = (pos[1] - self.origin[1]) / self.scale
        c = self.layout.pixel_to_tile(x, y)
        m = self.state.cs.map
        return c if 0 <= c[0] < m.width and 0 <= c[1] < m.height else None

    # ------------------------------------------------------------------ state as the viewer sees it
    @property
    def state(self) -> CampaignState:
        s: CampaignState = self.session.state
        return s

    @property
    def seen(self) -> CampaignState:
        s: CampaignState = self.system.view(self.state, None if self.gm else self.viewer)
        return s

    def humans(self) -> list[str]:
        """The powers played at the screen (the others by the computer)."""
        seats: Seats = self.session.seats
        return seats.humans(self.state.players)

    def screen_player(self) -> str | None:
        """Whose screen it is: the first person the rules wait for; while a computer power is
        awaited too, the person already at it keeps it until the computer has played (what the
        computer plays may change what the next person does: a declaration by one side settles
        the hex for both, and the hand-off names the step the next person will meet); while
        only computer powers are awaited, the person already at it (else the first person;
        None: no person plays, the GM watches everything)."""
        humans = self.humans()
        waiting: list[str] = self.system.to_move(self.state)
        person = next((p for p in waiting if p in humans), None)
        computer = any(p not in humans for p in waiting)
        if computer and self.viewer in humans:
            return self.viewer
        if person is not None:
            return person
        return self.viewer if self.viewer in humans else (humans[0] if humans else None)

    def _computer_awaited(self) -> bool:
        seats: Seats = self.session.seats
        return any(seats.is_computer(p) for p in self.system.to_move(self.state))

    def my_move(self) -> bool:
        """Whether the power at the screen is one the rules wait for (its buttons and clicks act)."""
        return self.viewer is not None and self.viewer in self.system.to_move(self.state) \
            and not self.session.seats.is_computer(self.viewer)

    def _sync_viewer(self, handoff: bool = True) -> None:
        nxt = self.screen_player()
        if nxt != self.viewer:
            was = self.viewer
            self.viewer = nxt
            self.selected = None
            self.orders_panel = None
            self.hint_mark = None  # (a hint is its power's: never left on the next one's map)
            if self.gm and handoff:
                self.gm = False  # the GM's command moved the game on: the next player takes the screen
            # the screen hides the map only between two people (nothing to hide from the computer)
            if handoff and nxt is not None and was is not None and self.app.settings.blackout and not self.gm:
                self._push_handoff(nxt)
        self._build()

    def _panel_for_orders(self) -> OrdersPanel | None:
        """The orders panel of the player at the screen, for the first battle they owe orders in."""
        if self.gm or self.viewer is None or self.state.phase != "orders":
            self.orders_panel = None
            return None
        owed = battles_to_order(self.seen, self.viewer)
        if not owed:
            self.orders_panel = None
            return None
        p = self.orders_panel
        if p is None or p.battle_id != owed[0].id or p.player != self.viewer:
            # the orders this power was choosing for this battle, if any (kept through the GM view,
            # an undo, a hand-off), brought up to date; else the rules' first choice
            week = self.state.week
            self.order_drafts = {k: v for k, v in self.order_drafts.items() if k[0] == week}
            key = (week, self.viewer, owed[0].id)
            p = self.order_drafts.get(key)
            if p is None:
                p = self.order_drafts[key] = OrdersPanel(self, owed[0].id, self.viewer)
            else:
                p.refresh()
            self.orders_panel = p
        return self.orders_panel

    def open_gm(self) -> None:
        """G: the GM's seat (gm_lock.py) covers the screen; the passphrase opens the GM view."""
        if self.gm:
            self.leave_gm()
            return
        sealed = any(b.orders for b in self.state.open_games())
        self.app.push(GmLockScene(self.app, self.gm_seat, sealed, self._gm_opened))

    def _keep_gm_lock(self, lock: GmLock) -> str | None:
        """The GM's seat set the passphrase: its digest goes into the campaign by the GM command
        `gm_lock` (in the log and the state: every save keeps it). None, or why it was refused."""
        if self.gm_do(GmSetLock(salt=lock.salt, iterations=lock.iterations, digest=lock.digest)):
            return None
        return self.message or "The GM's passphrase was refused."

    def _gm_opened(self) -> None:
        self.gm = True
        self.selected = None
        self._build()

    def leave_gm(self) -> None:
        """Leaving the GM view always hands the screen to the player the rules wait for."""
        self.close_gm()
        if self.viewer is not None and self.app.settings.blackout:
            self._push_handoff(self.viewer)

    def close_gm(self) -> None:
        """The GM view closed, the screen not yet handed on: a battle fought out takes it, and
        the way back from it hands it on (on_enter)."""
        self.gm = False
        self.selected = None
        self.orders_panel = None
        self.message = ""  # (the GM's last word is not left on the next player's screen)
        self._build()

    def open_history(self) -> None:
        """R: every battle week so far (from the session's history: also after a load)."""
        weeks = pages_of(self.session)
        self.app.push(ResultsScene(self.app, weeks, "History of the battles (Left / Right: pages)",
                                   start_at_week=weeks[-1].week if weeks else None,
                                   under_way=self.state.week))  # (a week ends as the next begins)

    def toggle_planner(self) -> None:
        """E: the planner of the sealed-orders screen on or off, and a line saying so. Where the
        planner is not on the screen (every other phase, the GM view) E used to turn it off or on
        for the orders to come without a word; the line now says what changed and where it shows
        (and, on a movement or pick-up turn, that Enter ends the turn: E ends the phase in the
        tactical game)."""
        self.show_planner = not self.show_planner
        self.message_ok = True
        if self._panel_for_orders() is None:
            phase = self.state.phase
            where = "in the GM view" if self.gm else f"in the {PHASE_NAMES.get(phase, phase)} phase"
            self.message = (f"Planner {'on' if self.show_planner else 'off'} for the sealed-orders screen (step 5 "
                            f"of the week; E turns it {'off' if self.show_planner else 'on'} again): there is no "
                            f"planner {where}.")
            if not self.gm and self.my_move() and phase in ("movement", "pickup"):
                self.message += " Enter (or the End turn button) ends your turn."
        elif self.show_planner:
            self.message = "Planner shown (E hides it)."
            if self.planner_fits is False:
                self.message = ("Planner shown over the map: this window is too short for it beside these "
                                "orders (E hides it).")
        else:
            self.message = "Planner hidden (E shows it)."
        self._build()

    def force_rolls(self) -> None:
        """N: the GM's forced rolls (gm_rolls.py), in the GM view only."""
        if not self.gm:
            self.message = ("Forcing the next rolls is the GM's: open the GM view first (G, with the GM's "
                            "passphrase), then N.")
            self.message_ok = False
            return
        self.app.push(ForceRollsScene(self.app, self))

    def scouting_seed(self) -> None:
        """K: the week's scouting seed (gm_scouting.py), in the GM view only, while the rules take it."""
        if not self.gm:
            self.message = ("The scouting seed is the GM's: open the GM view first (G, with the GM's passphrase), "
                            "then K.")
            self.message_ok = False
            return
        st = self.session.state
        if not can_seed(self.session.history, st):
            self.message = "No scouting seed now: " + " ".join(t for t, _ in status_lines(self.session.history, st))
            self.message_ok = False
            return
        self.app.push(ScoutingSeedScene(self.app, self))

    def gm_undo(self) -> None:
        """Ctrl+Z in the GM view: the last GM command taken back (a player's: the players' undo)."""
        steps = self.session.history
        if not steps or not steps[-1].gm:
            actions.undo_action(self)
            return
        last = steps[-1]
        kind = getattr(last.command, "kind", "")
        if kind not in GM_UNDOABLE:
            self.message = "Not undone: " + GM_KEPT.get(kind, "the window takes back only the GM's forced rolls, "
                                                        "moves, unit and General edits and battle dice.")
            self.message_ok = False
            return
        what = command_text(self.system, last.before, last.command)
        self.session.record.undo(gm=True)
        self.after_change()
        self.message = f"Taken back: {what} (Ctrl+Y plays it again)."
        if kind == "gm_scouting_seed":
            self.message += " The commitment posted for it no longer holds: post the new seed's."
        self.message_ok = True

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        focused = self.typing()
        self._keep_post_text()  # (the box is made afresh below: its text is not lost with it)
        self.ui.clear_and_reset()
        w, h = self.app.screen.get_size()
        x = w - PANEL_W + 10
        self.buttons: dict[Any, str] = {}
        self.text_entry = None
        was_for, self._post_box_for = self._post_box_for, None
        y = h - 50
        phase = self.state.phase if self.my_move() else ""  # (no buttons while others decide)
        labels: list[tuple[str, str]] = []
        if phase in ("movement", "pickup"):
            labels.append(("end_turn", "End turn (Enter)"))
        elif phase == "declare":
            labels += [("fight", "Fight (Enter)"), ("decline", "Decline")]
        elif phase == "narrative":
            labels += [("post", "Post"), ("done", "Done posting (Enter)")]
            self.text_entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(x, y - 100, PANEL_W - 20, 32), self.ui)
            self.text_entry.set_text(self.post_drafts.get(self.viewer or "", POST_TEXT))
            self._post_box_for = self.viewer
            if focused and was_for == self.viewer:
                self.text_entry.focus()  # type: ignore[no-untyped-call]  # (typing goes on where it was)
        elif phase == "orders" and self._panel_for_orders() is not None:
            labels.append(("seal", "Seal orders (Enter)"))
        panel = self._panel_for_orders()
        if panel is not None:
            panel.build(self.ui, pygame.Rect(x, 58, PANEL_W - 20, h - 58))
        for i, (key, text) in enumerate(labels):
            bw = (PANEL_W - 20 - 10 * (len(labels) - 1)) // len(labels)
            tip = ("Posts the text and names your Generals with the battle's armies: only a General named "
                   "in a post this week fights (and counts for stratagems).") if key == "post" else None
            b = Button(pygame.Rect(x + i * (bw + 10), y, bw, 40), text, self.ui, tool_tip_text=tip)
            self.buttons[b] = key
        fb = self.fight_battle()
        if self.gm and fb is not None:
            if fb.fought_as == "tables":
                row = [("fight_tables", "By the tables")]
                row += [(f"fight_{scale}", f"Fight: {scale}") for scale in self.fight.scales if scale != "tables"]
            else:
                row = [("fight_resume", f"Resume {fb.fought_as} battle"), ("fight_abandon", "Abandon to tables")]
        elif (not self.gm and self.state.phase == "orders" and self._my_battle() is not None
              and len(self.fight.scales) > 1):
            row = [("propose_tactical", "Propose: tactical"), ("propose_mass", "Propose: mass")]
        elif not self.gm and self.state.phase == "orders" and self._fought_out():
            # the players resume a battle fought out themselves (the GM view may be closed until the
            # week's orders are revealed, and they wait for this battle's result: docs/scales.md)
            row = [(f"resume_{b.id}", f"Resume {b.id} ({b.fought_as})") for b in self._fought_out()[:2]]
        else:
            row = []
        gm_row = [("gm_force", "GM: force next rolls (N)"), ("gm_scouting", "GM: scouting seed (K)")] if self.gm else []
        top = y
        for r in (row, gm_row):  # stacked upwards above the phase's buttons
            if not r:
                continue
            top -= 48
            bw = (PANEL_W - 20 - 10 * (len(r) - 1)) // len(r)
            for i, (key, text) in enumerate(r):
                tips = {"gm_force": "The next dice the campaign rolls take the values typed (logged as a GM "
                                    "command; Ctrl+Z takes it back)",
                        "gm_scouting": "The week's scouting dice drawn from a secret of yours: its commitment "
                                       "to post before the first move (logged; Ctrl+Z takes it back)"}
                tip = tips.get(key)
                b = Button(pygame.Rect(x + i * (bw + 10), top, bw, 40), text, self.ui, tool_tip_text=tip)
                self.buttons[b] = key
        self.widgets_top = top  # the panel's text stays above the buttons

    def _keep_post_text(self) -> None:
        """The post box's text, kept as its power's draft (the box is about to be made afresh)."""
        if self.text_entry is not None and self._post_box_for is not None:
            self.post_drafts[self._post_box_for] = self.text_entry.get_text()

    def unsent(self) -> list[str]:
        """What quitting now would throw away that is not in the game yet: each story post typed
        and not posted, each power's orders chosen in part and not sealed (one line each, naming
        the power, never what was typed or chosen, and how to send it). Empty: nothing. The shell
        asks it before any quit (contracts.HoldsUnsent), from whatever screen is on top."""
        self._keep_post_text()
        st = self.state
        out: list[str] = []
        for power, text in self.post_drafts.items():
            if st.phase == "narrative" and power not in st.narrative_done and text.strip() \
                    and text != POST_TEXT and power in st.players:
                out.append(f"{st.player_name(power)}: a story post typed, not posted (Post, or Enter in its box, sends it)")
        for (week, power, battle), panel in self.order_drafts.items():
            b = st.battles.get(battle)
            if week == st.week and st.phase == "orders" and b is not None and power not in b.orders \
                    and panel.half_chosen():
                out.append(f"{st.player_name(power)}: orders for battle {battle} chosen in part, not sealed "
                           "(Seal orders sends them)")
        return out

    def escape(self) -> None:
        """Esc on the map while something is typed or chosen and not sent (the shell's Esc quits
        at once when there is no unsaved play): a hex being picked for the orders stops being
        picked, the orders kept; else quitting asks first (the text box lets go of the keyboard
        before: handle_event)."""
        panel = self.orders_panel
        if panel is not None and panel.picking is not None and not self.gm:
            panel.picking = None
            self.message = "Stopped picking the hex (the orders chosen so far are kept; Esc again asks before quitting)."
            self.message_ok = True
            self._build()
            return
        self._shell_escape()

    def _shell_escape(self) -> None:
        """What the shell's Esc does on a game screen: back to the game this one was opened from
        (asking first when something would be lost: `_ask_before`), else quit, which the shell
        asks about (what every scene holds `unsent`, then unsaved play: actions.request_quit)."""
        if self.session.return_to is not None:
            self._ask_before(lambda: actions.return_action(self), "Leave")
        else:
            actions.request_quit(self.app)

    def _ask_before(self, then: Callable[[], object], verb: str) -> None:
        """`then` at once when nothing typed or chosen would be lost; else the shell's question
        first (actions.ask_unsent)."""
        lost = self.unsent()
        if not lost:
            then()
            return
        actions.ask_unsent(self.app, lost, then, verb)

    def take_shell_key(self, binding: Binding, act: Callable[[], object]) -> bool | str:
        """F9 would load the quick save over what is typed or chosen and not sent: asked first
        (`unsent`). The others are the shell's (False); Ctrl+Q's question is the shell's, which
        asks every scene on the stack (actions.request_quit)."""
        if binding.label == "F9" and self.unsent():
            self._ask_before(act, "Load")
            return True
        return False

    def _fought_out(self) -> list[Any]:
        """The open battles being fought out at another scale."""
        return [b for b in self.fight.battles() if b.fought_as != "tables"]

    def fight_battle(self) -> Any:
        """The open battle the GM's Battle panel shows (None: no battle is open)."""
        open_ = self.fight.battles()
        return open_[self.battle_shown % len(open_)] if open_ else None

    def _fight(self, key: str) -> None:
        b = self.fight_battle()
        if b is None:
            return
        what = key.removeprefix("fight_")
        if what in ("tables", "tactical", "mass"):
            self.fight.choose(b.id, what)
        elif what == "resume":
            self.fight.resume(b.id)
        elif what == "abandon":
            self.fight.abandon(b.id)

    def on_enter(self) -> None:
        if not self._opened:
            # a game opened (or resumed from a save) in hotseat starts behind the hand-off, like
            # every later change of player: whoever opened it may not be the player to move
            self._opened = True
            if self.viewer is not None and self.app.settings.blackout and not self.gm and len(self.humans()) > 1:
                if self._computer_awaited() and self.viewer in self.system.to_move(self.state):
                    # the computer plays first (a declaration of its may settle the person's, a post
                    # end the posts): the hand-off then names the step the person meets
                    self._curtain = True
                else:
                    self._push_handoff(self.viewer)
                return
        self._lent_on_enter()
        self.fight.came_back()  # back from a battle fought out: confirm its result
        back = self.fight.pending
        if back is not None and self.viewer is not None and self.app.settings.blackout and not self.gm \
                and len(self.humans()) > 1:
            # the people at the screen are the battle's sides, not always the power to move next: the
            # map shows nothing of anyone's under the battle's question, then passes the screen on
            # through a hand-off (as a lent screen gives it back)
            self._lent = Lent(back[0])
            self._lent.fought = True
            self.hover = None
        self._build()

    def lend_screen(self, battle_id: str, scale: str) -> None:
        """The player at the screen proposes to fight `battle_id` out at `scale`: the other side
        answers at this screen (the Battle panel asks it behind a hand-off). While it does, the
        map and the side panel are not drawn (the proposer's orders are not sealed yet: nothing
        of them may show under the question), and the screen comes back to the proposer through
        a hand-off (`_give_back`)."""
        assert self.viewer is not None
        top = self.app.scenes.top
        self.fight.propose(battle_id, self.viewer, scale, player_colour(self.state, self.viewer))
        if self.app.scenes.top is not top:  # (the question is up)
            self._lent = Lent(battle_id)
            self.hover = None

    def _proposal_open(self) -> bool:
        """A question about a battle fought out is up: the proposal, or its result on the way back."""
        return any(getattr(s, "name", "") in ("battle_proposal", "battle_return") for s in self.app.scenes)

    def _lent_on_enter(self) -> None:
        """The map is on top again while it is lent: the question answered, or what came after
        the answer (the hand-off back after a refusal, the battle fought out) gone."""
        lent = self._lent
        if lent is None or self._proposal_open():
            return
        if lent.answered:
            lent.enters += 1
        lent.answered = True
        b = self.state.battles.get(lent.battle)
        lent.fought = lent.fought or (b is not None and b.fought_as != "tables")

    def _give_back(self) -> None:
        """The screen, lent for an answer, goes back to the proposer: at once if the answer's own
        hand-off (after a refusal) has already passed it back, else through a hand-off now (the
        answer changed nothing, or the battle was fought out with both sides at the screen)."""
        lent = self._lent
        if lent is None or not lent.answered or self._proposal_open():
            return
        self._lent = None
        if (lent.enters == 0 or lent.fought) and not lent.handed and self.viewer is not None:
            self._push_handoff(self.viewer)

    def _push_handoff(self, player: str) -> None:
        st = self.state
        if self._lent is not None and self._lent.answered:
            self._lent.handed = True
        self._pointer_left = True
        self.hover = None
        self.app.push(HandoffScene(self.app, st.player_name(player), player_colour(st, player),
                                   f"Week {st.week}: {PHASE_NAMES.get(st.phase, st.phase)}. "
                                   f"Pass the screen to {st.player_name(player)}."))

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        # the same zoom, and the map point that was at the view's centre at the new one's
        old = self._map_view_for(self._size)
        mx = (old.centerx - self.origin[0]) / self.scale
        my = (old.centery - self.origin[1]) / self.scale
        zoom = self.zoom
        self._layout_geometry()
        if zoom != 1.0:
            self.zoom = zoom
            self.scale = self.fit_scale * zoom
            view = self.map_view()
            self.origin = (view.centerx - mx * self.scale, view.centery - my * self.scale)
            self._keep_in_view()
        self._map_moved()
        self._build()

    # ------------------------------------------------------------------ acting
    def gm_do(self, cmd: Any) -> bool:
        """A GM command (the Battle panel's choices and results)."""
        return self._do(cmd, gm=True)

    def _event_line(self, cmd: Any, before: CampaignState, e: Any) -> str:
        """An event in the map's log, every player's: the rules' words, but a scouting seed named by
        its commitment alone (the rules' line holds its secret, which would let the players foresee
        the week's scouting dice)."""
        if getattr(cmd, "kind", "") == "gm_scouting_seed" and e.kind == "gm_did":
            return log_line(before, cmd)
        return str(self.system.describe_event(before, e))

    def _do(self, cmd: Any, gm: bool = False, why: str | None = None, sealed: bool = False) -> bool:
        """Apply a command through the session; log its events. `why`: a computer power's why
        line, logged after them (`sealed`: orders, whose why waits for the reveal)."""
        before = self.state
        at = len(self.session.history)
        ok, events, reason = self.session.apply(cmd, gm=gm)
        if not ok:
            self.message = reason or "refused"
            self.message_ok = False
            return False
        self.message = ""
        self.hint_mark = None  # (the move the hint was for has been played, or another)
        revealed = any(e.kind == "result_read" for e in events)
        whys: list[str] = []
        if revealed:  # every order is public now: the computer's why lines with them
            whys += self.session.seats.unseal()
        if why is not None:
            held = sealed and not revealed  # (the last orders sealed: revealed at once)
            self.session.seats.note_why(self.session.history[at], why, sealed=held)
            whys += [] if held else [why]
        for e in events:
            if e.kind in ("orders_sealed", "turn_passed"):
                continue
            if e.kind in ("week_ended", "phase_began"):  # the why lines close the command's own lines
                self.log += whys
                whys = []
            self.log.append(self._event_line(cmd, before, e))
        self.log += whys
        if any(e.kind in ("turn_passed", "phase_began") for e in events):
            self._skip_without_choice()
        self.log = self.log[-400:]
        self._sync_viewer()
        actions.after_change(self)  # the autosave at each new week
        if revealed:
            # the reveal: the results, then the next player's hand-off (no person plays: the log
            # has them, R shows them)
            if self.humans():
                weeks = week_pages([(before, events, self.state)])
                self.app.push(ResultsScene(self.app, weeks, f"The reveal: week {before.week}'s battles"))
            else:
                self.log.append(f"Week {before.week}'s battles are resolved: R shows their results.")
        return True

    # ------------------------------------------------------------------ computer powers
    def _computer_turn(self) -> None:
        """A computer power the rules wait for decides (a thread: nothing until it has), then its
        command plays through the session as a person's would, and its why line follows."""
        seats = self.session.seats
        waiting = [p for p in self.system.to_move(self.state) if seats.is_computer(p)]
        self.thinking = waiting[0] if waiting else None
        if not waiting:
            return
        power = waiting[0]
        level = seats.level(power) or ""
        st = self.state
        if time.monotonic() < self._next_computer:
            return
        try:
            timed = self.thinker.poll(self.system, st, power, level)
        except Exception as exc:  # a player's bug must not take the window down: the power goes back to a person
            seats.set(power, None)
            self.message, self.message_ok = (f"The computer player of {st.player_name(power)} failed ({exc}); "
                                             "the power is played at the screen again."), False
            self._sync_viewer()
            return
        if timed is None:
            return
        cmd, why = timed.decision.command, timed.decision.why
        sealed = getattr(cmd, "kind", "") == "orders"  # what it ordered, and why, wait for the reveal
        name = st.player_name(power)
        what = self.system.describe_command(st, cmd)
        if not self._do(cmd, why=why_line(level, name, why), sealed=sealed):
            # the rules refused it (a bug in the player): the power goes back to a person
            seats.set(power, None)
            self.message = (f"The computer's command for {name} was refused ({self.message}); "
                            f"{st.player_agrees(power, 'it')} {st.player_agrees(power, 'is')} played at the screen again.")
            self._sync_viewer()
            return
        self.message, self.message_ok = said(level, name, what, why, sealed=sealed and self.state.phase == "orders"), True
        self._next_computer = time.monotonic() + self.pace

    def players_dialog(self) -> None:
        """P: who plays each power, Human or the computer at a level. Anyone before play has
        begun; after, the GM (the GM's passphrase, unless the GM view is open)."""
        if not self.players:
            self.message, self.message_ok = "These rules have no computer players.", False
            return
        st = self.state
        sides = [(p, st.player_name(p)) for p in st.players]
        # (the GM's passphrase set before the first move does not begin play)
        started = any(getattr(s.command, "kind", "") != "gm_lock" for s in self.session.history)
        rule = SeatRule(started=started, gm=self.gm, unlock=self._gm_unlock)
        self.app.push(seats_dialog(self.app, self.session.seats, sides, levels_of(self.players),
                                   self._seats_changed, rule))

    def _gm_unlock(self, then: Callable[[], None]) -> None:
        """The GM's seat for the players dialog: the passphrase (no GM view opened)."""
        sealed = any(b.orders for b in self.state.open_games())
        self.app.push(GmLockScene(self.app, self.gm_seat, sealed, then, purpose="seats"))

    def _seats_changed(self) -> None:
        """The players dialog closed: the screen goes to whom it now belongs."""
        self.thinker.forget()
        self._sync_viewer()

    def hint(self) -> None:
        """H: what the computer would do for the power at the screen, and why."""
        level = hint_level(self.players)
        if level is None or not self.my_move() or self.gm:
            self.message, self.message_ok = "No hint: it is not your move.", False
            return
        self._hint_for = self.viewer
        self.message, self.message_ok = "Thinking of a hint...", True

    def _poll_hint(self) -> None:
        power = self._hint_for
        if power is None:
            return
        if power != self.viewer or not self.my_move():
            self._hint_for = None  # the move it was for has passed
            return
        level = hint_level(self.players) or ""
        try:
            timed = self.thinker.poll(self.system, self.state, power, level, slot="hint")
        except Exception as exc:
            self._hint_for = None
            self.message, self.message_ok = f"No hint: the computer player failed ({exc}).", False
            return
        if timed is None:
            return
        self._hint_for = None
        self.message = f"Hint ({level}): {self._hint_text(timed.decision.command)}. Why: {timed.decision.why}"
        self.message_ok = True
        self.hint_mark = self._hint_hexes(timed.decision.command)

    def _hint_hexes(self, cmd: Any) -> tuple[Coord, ...] | None:
        """Where a hint acts on the map, marked until the next command (as the tactical hint marks
        its move): an army's move (from its hex along its path), a declaration's hex, a General's
        pick-up (the army it joins); None for a hint with no place (orders, a post, ending a turn)."""
        st = self.state
        kind = getattr(cmd, "kind", "")
        if kind == "move_army" and cmd.army in st.armies and cmd.path:
            return (st.armies[cmd.army].hex, *cmd.path)
        if kind == "declare":
            return (cmd.hex,)
        if kind == "pickup" and cmd.army in st.armies:
            return (st.armies[cmd.army].hex,)
        return None

    def _hint_text(self, cmd: Any) -> str:
        """A command as a hint says it (orders in full: they are the power's own)."""
        st = self.state
        if getattr(cmd, "kind", "") == "orders":
            # (units and stratagems by the names the orders panel shows, not their ids)
            parts = [f"{MANOEUVRE_NAMES.get(cmd.manoeuvre, cmd.manoeuvre)} in {cmd.battle}",
                     f"vanguard {st.unit_type(cmd.vanguard).name}"]
            if cmd.stratagems:
                parts.append("stratagems " + ", ".join(orders_q.title(x) for x in cmd.stratagems))
            return ", ".join(parts)
        return str(self.system.describe_command(st, cmd))

    def wants_frames(self) -> bool:
        return super().wants_frames() or self.thinker.busy() or self.thinker.busy("hint") \
            or any(self.session.seats.is_computer(p) for p in self.system.to_move(self.state))

    def _skip_without_choice(self) -> None:
        """A movement or pick-up turn in which the rules offer the player nothing but ending it is
        ended here (no hand-off for nothing to hide), and the log says why."""
        for _ in range(2 * len(self.state.players) + 2):
            st = self.state
            line = self._no_choice(st)
            if line is None:
                return
            ok, events, _reason = self.session.apply(EndTurn())
            if not ok:
                return
            self.log.append(line)
            self.log += [self.system.describe_event(st, e) for e in events
                         if e.kind not in ("orders_sealed", "turn_passed")]

    def _no_choice(self, st: CampaignState) -> str | None:
        """The log line for a movement or pick-up turn the rules offer nothing in but ending it
        (None: the player to move has a choice)."""
        if st.phase not in ("movement", "pickup"):
            return None
        waiting = self.system.to_move(st)
        if not waiting or any(c.kind != "end_turn" for c in self.system.legal_commands(st)):
            return None
        why = ("no army of theirs can move" if st.phase == "movement"
               else "no General of theirs is in reach of another of their armies")
        return f"{PHASE_NAMES.get(st.phase, st.phase)}: {st.player_name(waiting[0])} skipped, {why}."

    def _main_action(self, which: str | None = None) -> None:
        st, p = self.state, self.viewer
        if p is None or not self.my_move():
            return
        phase = st.phase
        if phase in ("movement", "pickup"):
            self._do(EndTurn())
        elif phase == "declare":
            for k, left in pending_declarations(st).items():
                if p in left:
                    self._do(Declare(player=p, hex=key_hex(k), fight=which != "decline"))
                    return
        elif phase == "narrative":
            # Post (the button, or Enter in the text box) posts; Enter and Done posting are done,
            # asking first while a General of the player's would miss a fight for want of a post
            if which == "post":
                self._post()
            elif which == "done_anyway" or not (self._unnamed_generals() or self._typed_post()):
                if self._do(NarrativeDone(player=p)):
                    self.post_drafts.pop(p, None)  # (the player chose to be done without it)
            else:
                self._ask_done()
        elif phase == "orders":
            panel = self._panel_for_orders()
            if panel is not None and panel.picking is None:
                self._do(panel.orders)

    def _post(self) -> bool:
        """Post the text box's text about the player's first battle, naming its Generals there."""
        st, p = self.state, self.viewer
        b = next((b for b in st.open_games() if p in b.sides), None)
        if b is None or p is None:
            return False
        present = {a.id for a in st.forces(b, p)}
        gens = tuple(g.id for g in st.generals.values() if g.owner == p and g.army in present)
        text = self.text_entry.get_text() if self.text_entry else "Onwards."
        if not self._do(WritePost(player=p, battle=b.id, text=text or "Onwards.", generals=gens)):
            return False  # (refused: the text stays in the box)
        self.post_drafts.pop(p, None)  # posted: the box starts afresh
        if self.text_entry is not None and self._post_box_for == p:
            self.text_entry.set_text(POST_TEXT)
        return True

    def _unnamed_generals(self) -> list[str]:
        """The player's Generals with a battle's forces whom no post of theirs names this week
        (the rules' `fighting_generals`: these would not fight), as "General (battle)"."""
        st, p = self.state, self.viewer
        out: list[str] = []
        if p is None:
            return out
        for b in st.open_games():
            if p not in b.sides:
                continue
            fighting = {g.id for g in st.fighting_generals(b, p)}
            out += [f"{g.name} (battle {b.id})" for a in st.forces(b, p) for g in st.generals_of_army(a.id)
                    if g.owner == p and g.id not in fighting]
        return out

    def _typed_post(self) -> bool:
        """The post box holds text the player typed (not the box's first text) and has not posted."""
        self._keep_post_text()
        text = self.post_drafts.get(self.viewer or "", "")
        return bool(text.strip()) and text != POST_TEXT

    def _ask_done(self) -> None:
        """Done posting while a General would miss the fight, or with a post typed and not posted:
        post first, done anyway (the typed text dropped: the player chose it), or back."""
        names = ", ".join(self._unnamed_generals())
        if names:
            body = styled(f"No post of yours names {names} this week. A General not named in a post does not fight "
                          "(and allows no stratagem that needs a General).\n\nPost, then done: posts the text in the "
                          "box, naming your Generals with the battle's armies."
                          + (" Done without also drops the text typed in the box." if self._typed_post() else ""))
            title = "Done posting without naming your Generals?"
        else:
            body = styled("The text in the post box is not posted: Done without drops it.\n\nPost, then done: posts "
                          "it, naming your Generals with the battle's armies.")
            title = "Done posting without your typed post?"

        def post_then_done() -> None:
            if self._post():
                self._main_action("done_anyway")

        w, h = self.app.screen.get_size()
        self.app.push(DialogScene(self.app, title, body,
                                  [Choice("Post, then done", post_then_done, pygame.K_RETURN, primary=True),
                                   Choice("Done without", lambda: self._main_action("done_anyway"), pygame.K_d),
                                   Choice("Back", None)],
                                  size=(min(620, w - 40), min(300, h - 40)), cancel=Choice("Back", None),
                                  name="done_posting"))

    def _my_battle(self) -> Any:
        st, p = self.seen, self.viewer
        return next((b for b in st.open_games() if p in b.sides and p not in b.orders and b.fought_as == "tables"),
                    None)

    def _click(self, pos: tuple[int, int]) -> None:
        c = self.hex_at(pos)
        if c is None:
            return
        st = self.state
        panel = self.orders_panel
        if panel is not None and panel.picking is not None and not self.gm:
            panel.pick(c)
            self._build()
            return
        mine = [a for a in st.armies_at(c) if a.owner == self.viewer]
        if not self.my_move():
            pass  # another power (a computer) is to play: a click only selects
        elif (st.phase == "movement" and self.selected and self.selected in st.armies
                and st.armies[self.selected].owner == self.viewer and not st.armies[self.selected].moved):
            r = reach(st, self.selected)
            if c in r and not mine:
                self._do(MoveArmy(army=self.selected, path=r[c].path))
                return
        elif st.phase == "pickup" and self.selected and mine and mine[0].id != self.selected:
            g = next((g for g in st.generals.values() if g.army == self.selected and g.owner == self.viewer), None)
            if g is not None:
                self._do(Pickup(general=g.id, army=mine[0].id))
                return
        here = st.armies_at(c)
        self.selected = here[0].id if here else None

    def typing(self) -> bool:
        """The narrative post's text box has the keyboard (the shell leaves Esc to it)."""
        return self.text_entry is not None and bool(self.text_entry.is_focused)

    def handle_event(self, event: pygame.event.Event) -> None:
        if self._lent is not None or self._curtain:
            return  # (nothing of the viewer's is on screen: nothing of it may be played either)
        self.ui.process_events(event)
        if self.orders_panel is not None and self.orders_panel.handle(event):
            if self.orders_panel.picking is not None and 36 * self.scale < 22:
                # picking a hex next to the battle: close enough that each is easy to hit
                b = self.state.battles[self.orders_panel.battle_id]
                self.zoom_at(self.hex_centre(b.hex), 26 / (36 * self.scale))
            self._build()
            return
        if (event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and self.text_entry is not None
                and event.ui_element is self.text_entry):
            self._main_action("post")  # Enter in the text box posts it
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            key = self.buttons[event.ui_element]
            if key == "gm_force":
                self.force_rolls()
            elif key == "gm_scouting":
                self.scouting_seed()
            elif key.startswith("fight_"):
                self._fight(key)
            elif key.startswith("resume_"):
                self.fight.resume(key.removeprefix("resume_"))
            elif key.startswith("propose_"):
                b = self._my_battle()
                if b is not None and self.viewer is not None:
                    self.lend_screen(b.id, key.removeprefix("propose_"))
            else:
                self._main_action(key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.map_view().collidepoint(event.pos):
                self._click(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3):
            if self.map_view().collidepoint(event.pos):
                self._drag_from = event.pos
                self._dragging = True
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self._drag_from = None
            self._dragging = False
        elif event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            self._pointer_left = False
            self._pointer_seen = True
            if self._drag_from is not None:
                self.pan(event.pos[0] - self._drag_from[0], event.pos[1] - self._drag_from[1])
                self._drag_from = event.pos
            self.hover = self.hex_at(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            if self.map_view().collidepoint(self._mouse) and event.y:
                self.zoom_at(self._mouse, ZOOM_STEP ** max(-3, min(3, event.y)))
                self.hover = self.hex_at(self._mouse)
        elif event.type == pygame.KEYDOWN:
            if self.typing():
                if event.key == pygame.K_ESCAPE:
                    self.text_entry.unfocus()  # type: ignore[union-attr]  # Esc lets go of the text box
                    self._keep_post_text()
                    if self.unsent():
                        self.message = "Post not sent: its text is kept in the box (Esc again asks before quitting)."
                        self.message_ok = True
                return
            if event.key == pygame.K_ESCAPE:
                self.escape()
                return
            view = self.map_view()
            arrows = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
                      pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP)}
            if event.key in arrows:
                self.pan(*arrows[event.key])
            elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.zoom_at(view.center, ZOOM_STEP)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.zoom_at(view.center, 1 / ZOOM_STEP)
            elif event.key == pygame.K_HOME:
                self._layout_geometry()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._main_action()
            elif event.key == pygame.K_g:
                self.open_gm()
            elif event.key == pygame.K_r:
                self.open_history()
            elif event.key == pygame.K_h:
                self.hint()
            elif event.key == pygame.K_l:
                self.toggle_legend()
            elif event.key == pygame.K_b and not (event.mod & pygame.KMOD_CTRL):
                if not self.gm:  # (the Battle panel is the GM's: a player's B says so, and shows nothing)
                    self.message = ("B shows the next open battle in the GM's Battle panel: it is the GM's, in the "
                                    "GM view (G, with the GM's passphrase).")
                    self.message_ok = False
                    return
                self.battle_shown += 1
                self._build()
            elif event.key == pygame.K_e:
                self.toggle_planner()
            elif event.key == pygame.K_n:
                self.force_rolls()
            elif event.key == pygame.K_k:
                self.scouting_seed()
            elif event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL and self.gm:
                self.gm_undo()
            elif event.key == pygame.K_p:
                self.players_dialog()
            elif pygame.K_1 <= event.key <= pygame.K_6 and self.orders_panel is not None:
                self.orders_panel.set_manoeuvre(MANOEUVRES[event.key - pygame.K_1])
                self._build()
            elif event.key == pygame.K_v and self.orders_panel is not None:
                self.orders_panel.next_vanguard()
                self._build()
            elif event.key == pygame.K_s and self.orders_panel is not None:
                self.orders_panel.next_stratagem()
                self._build()

    def update(self, dt: float) -> None:
        self.fight.update()  # the way back from a battle fought out: its confirmation
        if self.app.scenes.top is self:
            self._give_back()  # (a lent screen: back to the proposer)
        if self.screen_player() != self.viewer:  # the seats changed (the dialog, --seat, a load)
            self._sync_viewer()
        if self.app.scenes.top is self:  # (a dialog, the hand-off or the results over the map: wait)
            self._computer_turn()
        if self._curtain and not self._computer_awaited():
            self._curtain = False  # the computer has played: the first hand-off (unless one is up)
            if self.app.scenes.top is self and self.viewer is not None:
                self._push_handoff(self.viewer)
        self._poll_hint()
        if self._pointer_left and isinstance(self.ui, ThemedManager):
            self.ui.update_pointer_away(dt)  # no widget hovered until the pointer moves
        else:
            self.ui.update(dt)

    def update_covered(self, dt: float) -> None:
        self._poll_hint()

    # ------------------------------------------------------------------ drawing
    def _text(self, surface: pygame.Surface, text: str, pos: tuple[float, float], size: int = 14,
              colour: tuple[int, int, int] = (230, 230, 230), bold: bool = False) -> int:
        self.drawn_strings.append(text)
        img = font(size, bold).render(text, True, colour)
        self.drawn_rects.append((text, surface.blit(img, (int(pos[0]), int(pos[1])))))
        return int(img.get_height())

    def _para(self, surface: pygame.Surface, text: str, pos: tuple[float, float], size: int = 14,
              colour: tuple[int, int, int] = (230, 230, 230), bold: bool = False) -> int:
        """`text` wrapped to the side panel's width (later lines indented); returns its height."""
        y0 = y = pos[1]
        for i, part in enumerate(self._wrap(text, size, bold, PANEL_W - 24)):
            y += self._text(surface, part if i == 0 else INDENT + part, (pos[0], y), size, colour, bold)
        return int(y - y0)

    @staticmethod
    def _wrap(text: str, size: int, bold: bool, width: int) -> list[str]:
        """The text broken at spaces into lines no wider than `width` pixels, the lines after the
        first measured with the indent they are drawn with (returned without it); a word wider
        than that, a file's path ("save battles/...", "Cannot open the battle: /home/..."), is
        cut between letters (fonts.wrap_px), so nothing runs past the panel."""
        return [part.removeprefix(INDENT) if i else part
                for i, part in enumerate(wrap_px(text, size, width, bold, indent=INDENT))]

    def draw(self, surface: pygame.Surface) -> None:
        self.drawn_strings = []
        self.drawn_rects: list[tuple[str, pygame.Rect]] = []  # every text and where it landed (tests)
        if self._lent is not None or self._curtain:  # nothing of the viewer's (see lend_screen, on_enter)
            surface.fill((8, 9, 11))
            if self._curtain:
                waiting = ", ".join(self.state.player_name(p) for p in self.system.to_move(self.state)
                                    if self.session.seats.is_computer(p))
                text = f"The computer plays first: {waiting}."
                w, h = surface.get_size()
                self._text(surface, text, ((w - font(15).size(text)[0]) // 2, h // 2 - 10), 15, (200, 200, 210))
            return
        st = self.seen
        self.draw_map(surface, st)
        self._draw_panel(surface, st)
        self.ui.draw_ui(surface)

    def label_bounds(self) -> pygame.Rect:
        """Where a town's name may be drawn: on the map as drawn, inside the map's view (clear of
        the week's steps along its top and the controls along its bottom)."""
        view = self.map_view()
        inner = pygame.Rect(view.x + 2, view.y + 20, view.w - 4, view.h - 40)
        mw, mh = self.layout.map_pixel_size
        drawn = pygame.Rect(int(self.origin[0]), int(self.origin[1]), int(mw * self.scale), int(mh * self.scale))
        return inner.clip(drawn) if inner.colliderect(drawn) else inner

    def draw_map(self, surface: pygame.Surface, st: CampaignState) -> None:
        """The map view: terrain, reach, battles, counters, town names, marks, the legend, the
        hovered hex, the week's steps and the controls line (the replay draws it too)."""
        m = st.cs.map
        r = max(2, int(36 * self.scale))
        surface.blit(self._terrain_picture(m), (0, 0))
        sel = self.selected
        reach_map = reach(st, sel) if (sel is not None and st.phase == "movement" and sel in st.armies and self.my_move()
                                       and st.armies[sel].owner == self.viewer and not st.armies[sel].moved) else {}
        for c in reach_map:
            x, y = self.hex_centre(c)
            pygame.draw.circle(surface, (250, 250, 200), (int(x), int(y)), r, 2)
        for b in st.open_games():
            x, y = self.hex_centre(b.hex)
            pygame.draw.circle(surface, (255, 40, 40), (int(x), int(y)), r + 5, 3)
        mark = self.hint_mark if (self.hint_mark is not None and self.my_move() and not self.gm) else None
        if mark is not None:  # H: the hint's move, a gold line to a double ring (the tactical hint's colour)
            pts = [self.hex_centre(c) for c in mark]
            if len(pts) > 1:
                pygame.draw.lines(surface, HINT_GOLD, False, [(int(x), int(y)) for x, y in pts], 3)
            x, y = pts[-1]
            for k in (r + 2, r + 7):
                pygame.draw.circle(surface, HINT_GOLD, (int(x), int(y)), k, 2)
        # counters: a stack's armies side by side (never hiding one another), at least 18 px
        half = max(9, min(18, int(r * 0.6)))  # legible when small, never wider than its hex when close
        counters: list[pygame.Rect] = []
        self.counter_rects: list[tuple[str, pygame.Rect]] = []  # where each army was drawn (tests)
        self.name_rects: list[tuple[str, pygame.Rect]] = []
        self.boxes: list[pygame.Rect] = []  # the hovered hex's box
        self.legend_box: pygame.Rect | None = None  # where the legend band was drawn (tests)
        stacks: dict[Coord, list[Any]] = {}
        for a in st.armies.values():
            stacks.setdefault(a.hex, []).append(a)
        for at, group in stacks.items():
            cx, cy = self.hex_centre(at)
            n = len(group)
            size = max(9, min(half, int(r / n)))  # a stack stays inside its hex when the map is close
            for k, a in enumerate(group):
                x = cx + (k - (n - 1) / 2) * (2 * size + 2)
                colour = player_colour(st, a.owner)
                rect = pygame.Rect(int(x - size), int(cy - size), 2 * size, 2 * size)
                pygame.draw.rect(surface, colour, rect)
                pygame.draw.rect(surface, (255, 255, 255) if a.id == self.selected else (20, 20, 20), rect, 2)
                self._text(surface, str(len(st.alive_units(a.id))), (rect.x + 3, rect.y + 1), 12, bold=True)
                counters.append(rect)
                self.counter_rects.append((a.id, rect))
        # town names where they cover no counter and no other name (right, left, below, above), and
        # inside the map as drawn: a name by an edge goes to the side that fits, else is moved in
        taken = list(counters)
        f = font(11)
        bounds = self.label_bounds()
        for pos, name in m.names.items():
            x, y = self.hex_centre(pos)
            tw, th = f.size(name)
            cands = [pygame.Rect(int(cx), int(cy), tw, th) for cx, cy in
                     ((x + half + 4, y - th // 2), (x - half - 4 - tw, y - th // 2),
                      (x - tw // 2, y + half + 2), (x - tw // 2, y - half - 2 - th))]
            if bounds.collidepoint(int(x), int(y)):  # (a town out of the view keeps its place off it)
                inside = [c for c in cands if bounds.contains(c)]
                cands = inside + [c.clamp(bounds) for c in cands]
            free = next((c for c in cands if c.collidelist(taken) < 0), None)
            rect = free if free is not None else pygame.Rect(int(x - tw // 2), int(y + half + 2 + th), tw, th)
            if free is None and bounds.collidepoint(int(x), int(y)):
                rect = rect.clamp(bounds)
            spot = (rect.x, rect.y)
            taken.append(rect)
            self.name_rects.append((name, rect))
            surface.fill((18, 20, 24), rect.inflate(4, 0))
            self._text(surface, name, spot, 11, (250, 240, 220))
        # (over the counters: the hexes next to a battle are where its counters stand)
        panel = self.orders_panel if not self.gm else None
        if panel is not None:  # the hexes a withdrawal or a breakthrough may aim at, and the ones chosen
            pick, w_to, b_to = panel.marked_hexes()
            for c in pick:
                x, y = self.hex_centre(c)
                pygame.draw.circle(surface, (255, 255, 120), (int(x), int(y)), max(5, r // 2), 3)
            for chosen, letter in ((w_to, "W"), (b_to, "B")):
                if chosen is not None:
                    x, y = self.hex_centre(chosen)
                    pygame.draw.circle(surface, (255, 200, 60), (int(x), int(y)), max(5, r // 2), 3)
                    self._text(surface, letter, (x - 4, y - 8), 13, (255, 230, 120), True)
        if self.hover is not None and self.hover in reach_map:
            x, y = self.hex_centre(self.hover)
            self._text(surface, f"cost {reach_map[self.hover].cost}", (x + half + 2, y + half), 13,
                       (255, 255, 160), True)
        self._draw_legend(surface, st)
        self._draw_hover(surface, st)
        self._draw_steps(surface, st)
        view = self.map_view()
        strip = pygame.Rect(view.x, view.bottom - 20, view.w, 20)
        surface.fill((18, 20, 24), strip)
        self._text(surface, MAP_CONTROLS, (strip.x + 10, strip.y + 3), 11, (160, 160, 170))

    def _draw_legend(self, surface: pygame.Surface, st: CampaignState) -> None:
        """The powers' colours and the terrains' movement costs in a band at the foot of the map's
        part of the window, below the map view (L hides it): fixed on the screen, never over a hex
        (it used to be a box in a corner of the map, which jumped from corner to corner as the map
        moved and, with every corner taken, covered counters and towns)."""
        if not self.show_legend:
            return
        box = self.legend_rect()
        self.legend_box = box
        surface.fill((18, 20, 24), box)
        pygame.draw.line(surface, (60, 64, 72), box.topleft, (box.right - 1, box.top))
        entries = self._legend_entries(st)
        _cols, rows, col_w = self._legend_layout(surface.get_width())
        for i, (colour, text) in enumerate(entries):
            x = box.x + 8 + (i // rows) * col_w
            y = box.y + 5 + (i % rows) * LEGEND_ROW
            pygame.draw.rect(surface, colour, pygame.Rect(x, y + 2, 10, 10))
            self._text(surface, text, (x + 14, y), 11, (220, 220, 220))

    def _draw_steps(self, surface: pygame.Surface, st: CampaignState) -> None:
        """The week's steps along the top of the map, the current one lit (the teaching aid)."""
        view = self.map_view()
        f = font(11, True)
        texts = [(p, f"{i + 1}. {STEP_NAMES.get(p, p)}") for i, p in enumerate(PHASES)]
        width = sum(f.size(t)[0] + 14 for _, t in texts)
        x, y = view.x + 6, view.y + 4
        surface.fill((18, 20, 24), pygame.Rect(x - 4, y - 2, min(width + 4, view.w - 6), 18))
        for phase, text in texts:
            tw = f.size(text)[0]
            if x + tw > view.right - 6:
                break
            now = phase == st.phase
            self._text(surface, text, (x, y), 11, (255, 230, 150) if now else (140, 140, 150), True)
            x += tw + 14

    def _free_box(self, w: int, h: int, corners: tuple[str, ...]) -> pygame.Rect:
        """A box in the first corner of the map view where it covers no counter, no town name and
        no box already placed (else the first corner)."""
        view = self.map_view()
        inner = pygame.Rect(view.x + 6, view.y + 22, view.w - 12, view.h - 48)  # (the steps, the controls)
        avoid = [r for _, r in self.counter_rects] + [r for _, r in self.name_rects] + self.boxes
        first = None
        for corner in corners:
            box = pygame.Rect(0, 0, w, h)
            setattr(box, corner, getattr(inner, corner))
            first = first or box
            if box.collidelist(avoid) < 0:
                self.boxes.append(box)
                return box
        assert first is not None
        self.boxes.append(first)
        return first

    def _draw_hover(self, surface: pygame.Surface, st: CampaignState) -> None:
        """The hovered hex: its terrain and cost, its town, the armies there, its battle."""
        c = self.hover
        if c is None or not self.map_view().collidepoint(self._mouse):
            return
        t = st.cs.map.terrain.get(c, "?")
        rule = st.cs.rules.terrain.get(t)
        cost = "impassable" if rule is None or rule.cost is None else f"cost {rule.cost}"
        lines = [f"{c[0]},{c[1]}: {t} ({cost})" + (f", {st.cs.map.names[c]}" if c in st.cs.map.names else "")]
        for a in st.armies_at(c):
            lines.append(f"{a.name} ({st.player_name(a.owner)}): {len(st.alive_units(a.id))} units")
        b = st.battle_at(c)
        if b is not None:
            lines.append(f"Battle {b.id}: " + " vs ".join(st.player_name(p) for p in b.sides))
        view = self.map_view()
        f = font(11)
        w = min(view.w - 12, max(f.size(s)[0] for s in lines) + 12)
        box = self._free_box(w, len(lines) * 14 + 6, ("bottomright", "bottomleft", "topright", "topleft"))
        surface.fill((18, 20, 24), box)
        for i, line in enumerate(lines):
            self._text(surface, line, (box.x + 6, box.y + 3 + 14 * i), 11, (230, 230, 230))

    def _terrain_picture(self, m: Any) -> pygame.Surface:
        """The window's picture of the map's terrain (each hex filled in its terrain's colour and
        edged a shade darker), kept until the view moves, zooms or the window changes size."""
        w, h = self.app.screen.get_size()
        key = (self.scale, self.origin, (w, h), m)
        kept = self._terrain
        if kept is not None and kept[0] == key:
            return kept[1]
        pic = pygame.Surface((w, h))
        pic.fill((18, 20, 24))
        ox, oy, sc = self.origin[0], self.origin[1], self.scale
        edged = 36 * sc >= 5  # (hexes too small to show an edge are only filled)
        corners = self.layout.tile_corners
        for (col, row), t in m.terrain.items():
            pts = [(ox + x * sc, oy + y * sc) for x, y in corners(col, row)]
            colour = TERRAIN_COLOURS.get(t, (90, 90, 90))
            pygame.draw.polygon(pic, colour, pts)
            if edged:
                pygame.draw.polygon(pic, (colour[0] * 3 // 4, colour[1] * 3 // 4, colour[2] * 3 // 4), pts, 1)
        self._terrain = (key, pic)
        return pic

    @staticmethod
    def _heading(st: CampaignState, who: str) -> tuple[str, int]:
        """The panel's first line ("Week 3: movement · The Zones"), its place and size: at 15
        points, else 13 (a long name), else the name cut at a word with an ellipsis: never run past
        the window's edge."""
        head = f"Week {st.week}: {PHASE_NAMES.get(st.phase, st.phase)}"
        room = PANEL_W - 20
        for size in (15, 13):
            if font(size, True).size(f"{head} · {who}" if who else head)[0] <= room:
                break
        words = who.split()
        while len(words) > 1 and font(size, True).size(f"{head} · {' '.join(words)}\u2026")[0] > room:
            words.pop()
        shown = who if font(size, True).size(f"{head} · {who}")[0] <= room else " ".join(words) + "\u2026"
        return (f"{head} · {shown}" if who else head), size

    def _draw_panel(self, surface: pygame.Surface, st: CampaignState) -> None:
        w, h = surface.get_size()
        x0 = w - PANEL_W
        pygame.draw.rect(surface, (30, 32, 38), pygame.Rect(x0, 0, PANEL_W, h))
        x, y = x0 + 10, 8
        who = "GM" if self.gm else (st.player_name(self.viewer) if self.viewer else "")
        if not who and not self.humans():
            who = "computer only"  # (every power played by the computer: the GM watches the whole board)
        head, size = self._heading(st, who)
        y += self._text(surface, head, (x, y), size, bold=True) + 4 + (15 - size)  # (the lines below stay put)
        if self.gm:  # the GM's forced rolls still queued (gm_rolls.py), and whether the week is seeded
            y += self._para(surface, queue_text(st), (x, y), 12, (224, 184, 100)) + 2
            if week_seed_step(self.session.history, st) is not None:
                y += self._para(surface, f"Week {st.week}'s dice are seeded (commitment protocol): forcing a "
                                "roll now fails its verify-dice.", (x, y), 12, (255, 150, 110)) + 2
            for text, colour in status_lines(self.session.history, self.session.state):  # the scouting dice
                y += self._para(surface, text, (x, y), 12, colour)
            y += 2
            if self.message:  # (up here: the Battle panel's lines may fill the rest of a short window)
                y += self._para(surface, self.message, (x, y), 13,
                                (228, 224, 214) if self.message_ok else (255, 120, 100)) + 2
            y += 4
        panel = self.orders_panel if (st.phase == "orders" and not self.gm) else None
        if panel is not None:
            # the message (a refusal, a hint, the shell's toasts) stays above the buttons: the
            # orders and the planner give up its room
            room = 0
            if self.message:
                room = len(self._wrap(self.message, 13, False, PANEL_W - 24)) * font(13).get_height() + 4
            y = self._draw_orders(surface, st, x, y, self.widgets_top - 4 - room)
            if self.message:
                self._para(surface, self.message, (x, self.widgets_top - 4 - room), 13,
                           (228, 224, 214) if self.message_ok else (255, 120, 100))
                y = self.widgets_top
        elif self.selected in st.armies:
            a = st.armies[self.selected]
            y += self._text(surface, f"{a.name} ({st.player_name(a.owner)}) at {a.hex[0]},{a.hex[1]}", (x, y), 14, bold=True)
            route = f"{a.route[0]},{a.route[1]}" if a.route else "none"
            y += self._text(surface, f"route: came from {route}" + (f"; in battle {a.battle}" if a.battle else ""), (x, y))
            for g in st.generals_of_army(a.id):
                y += self._text(surface, f"General {g.name}, level {g.level}", (x, y), 13, (240, 210, 120))
            for uid in a.units[:14]:
                u, t = st.units[uid], st.unit_type(uid)
                if u.destroyed:
                    continue
                dmg = f" dmg {u.armour_damage or u.large_damage}" if (u.armour_damage or u.large_damage) else ""
                y += self._text(surface, f"  {t.name}  A{t.attack} D{t.defense} M{t.mobility} {t.durability}{dmg}",
                                (x, y), 12)
            y += 6
        elif not self.gm and self.viewer is not None and not self.my_move() and st.phase != "ended":
            waiting = self.system.to_move(self.state)
            who = ", ".join(f"{st.player_name(p)}" + (f" (computer, {self.session.seats.level(p)})"
                                                      if self.session.seats.is_computer(p) else "") for p in waiting)
            fought = [b.id for b in st.open_games() if b.fought_as != "tables"]
            many = len(fought) > 1
            idle = (f"Nobody is to play: the week waits for the result{'s' if many else ''} of battle"
                    f"{'s' if many else ''} {' and '.join(fought)}, being fought out: Resume "
                    f"{'them' if many else 'it'} below." if fought else "Nobody is to play.")
            y += self._para(surface, f"Waiting for {who}." if who else idle, (x, y), 13, (190, 190, 200)) + 6
            if st.phase in ("movement", "pickup"):
                y = self._draw_army_list(surface, st, x, y, h - 170)
        elif not self.gm and self.viewer is not None:
            hint = _PHASE_HINTS.get(st.phase)
            if hint:
                y += self._para(surface, hint, (x, y), 13, (190, 190, 200)) + 6
            if st.week == 1 and st.phase == "movement" and st.cs.description:
                y += self._para(surface, "Briefing: " + st.cs.description, (x, y), 12, (220, 210, 170)) + 6
            if st.phase in ("movement", "pickup"):
                y = self._draw_army_list(surface, st, x, y, h - 170)
        fb = self.fight_battle() if self.gm else None
        if fb is not None:
            for line, size, bold in self.fight.lines(fb.id):
                y += self._para(surface, line, (x, y), size, (240, 220, 160) if bold else (225, 225, 225), bold)
            y += 6
        elif st.phase == "orders" and self.viewer is not None and not self.gm and panel is None:
            mine = [b for b in st.open_games() if self.viewer in b.sides]
            sealed = ("No orders to give: your battle is being fought out." if mine and all(b.fought_as != "tables"
                                                                                       for b in mine)
                      else "Orders sealed; waiting for the others.")
            y += self._para(surface, sealed, (x, y))
        elif st.phase == "declare" and self.viewer:
            pend = [k for k, left in pending_declarations(st).items() if self.viewer in left]
            if pend:
                c = key_hex(pend[0])
                there = "; ".join(f"{a.name} ({st.player_name(a.owner)}, {len(st.alive_units(a.id))} units)"
                                  for a in st.armies_at(c))
                y += self._para(surface, f"Declare combat at {c[0]},{c[1]}: {there}. Fight or decline?", (x, y))
        limit = self.widgets_top - 4  # nothing drawn under the buttons
        # who has sealed is public (the log says so), what never: the rules' `sealed_by` of the whole
        # state, not the view's orders (which hold only the viewer's own: another battle read 'no one yet')
        who_sealed = sealed_by(self.state)
        lines = [(f"Battle {b.id} at {b.hex[0]},{b.hex[1]}: " + " vs ".join(st.player_name(p) for p in b.sides)
                  + (f" · being fought out as a {b.fought_as} battle" if b.fought_as != "tables" else
                     " · orders sealed by: " + (", ".join(st.player_name(p) for p in who_sealed.get(b.id, []))
                                               or "no one yet")),
                  (230, 230, 230)) for b in (st.open_games() if panel is None else [])]
        lines += [(f"{st.player_name(p.player)} on {p.battle}: {p.text}", (200, 200, 250))
                  for p in ([p for p in st.posts if p.week == st.week][-3:] if panel is None else [])]
        for text, colour in lines:
            if y + len(self._wrap(text, 12, False, PANEL_W - 24)) * font(12).get_height() > limit:
                break
            y += self._para(surface, text, (x, y), 12, colour)
        if self.message and panel is None and not self.gm:
            y += self._para(surface, self.message, (x, y), 13, (228, 224, 214) if self.message_ok else (255, 120, 100))
        bottom = h - 160
        # the newest log lines that fit above the buttons, each wrapped (never cut)
        shown: list[str] = []
        room = (bottom - y) // 14
        for line in reversed(self.log):
            parts = self._wrap(line, 11, False, PANEL_W - 24)
            if len(shown) + len(parts) > room:
                break
            shown[:0] = [parts[0]] + [INDENT + q for q in parts[1:]]
        for line in shown:
            self._text(surface, line, (x, y), 11, (190, 190, 190))
            y += 14

    def _draw_army_list(self, surface: pygame.Surface, st: CampaignState, x: int, y: int, bottom: int) -> int:
        """Every power's armies (the player's own first): name, hex, units, moved or in battle."""
        order = sorted(st.players, key=lambda p: p != self.viewer)
        for p in order:
            if y + 30 > bottom:
                break
            y += self._text(surface, st.player_name(p), (x, y), 13, player_colour(st, p), True)
            for a in (a for a in st.armies.values() if a.owner == p):
                if y + 14 > bottom:
                    break
                state = " (moved)" if a.moved else (f" (battle {a.battle})" if a.battle else "")
                y += self._text(surface, f"  {a.name} at {a.hex[0]},{a.hex[1]}: {len(st.alive_units(a.id))} units"
                                + state, (x, y), 12, (215, 215, 215))
        return y + 4

    def _draw_orders(self, surface: pygame.Surface, st: CampaignState, x: int, y: int, bottom: int) -> int:
        panel = self.orders_panel
        if panel is None:
            return y + self._para(surface, "Orders sealed; waiting for the others.", (x, y))
        b = st.battles[panel.battle_id]
        foe = b.sides[1] if b.sides[0] == panel.player else b.sides[0]
        self._text(surface, f"Orders for battle {b.id} at {b.hex[0]},{b.hex[1]} against {st.player_name(foe)}",
                   (x, 34), 13, bold=True)
        return panel.draw(surface, x, bottom)
