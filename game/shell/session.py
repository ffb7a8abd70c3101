"""One game as the client holds it, for any rule system: the system, what the game started from,
the history (`game.core.record.Record`: undo, the dice log, saves and replays) and, for games
played on a hex map, the board, its pixel layout and the Tiled map.

The session is the ONLY client module that calls a rule system's `apply`; everything the client
shows about the rules comes from the system's own queries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.core.hexlayout import HexLayout
from game.core.plugin import Plugin
from game.core.record import Record, Step
from game.core.system import Accepted, RuleSystem
from game.shell.seats import Seats


@dataclass
class Session:
    """One game in play: its rule system, its record, its set-up and where it is saved."""
    system: RuleSystem
    record: Record
    game_setup: Any                  # what system.initial_state started from
    setup: Any = None                # the set-up as the scenario file gave it (names, sides, rules)
    board: Any = None                # game.core.board.Board, for games on a hex map
    layout: Any = None               # game.core.hexlayout.HexLayout of that map
    map_data: Any = None             # game.io.tmx MapData when the map came from Tiled
    seed: int = 0
    path: Path | None = None         # the scenario file (saves refer to it)
    loaded: Any = None               # what the system's loader returned (game.table.Plugin.load)
    description: str = ""            # the scenario's briefing text (shown before a fresh game)
    last_rejection: str | None = None
    save_path: Path | None = None    # the save this session was loaded from, if any
    load_warnings: list[str] = field(default_factory=list)
    autosaved_round: int | None = None
    saved_steps: int | None = None    # history length at the last save (None: never saved)
    # a game opened from another one (a campaign battle fought out, docs/scales.md): called with
    # the game's scene to go back (Ctrl+B, or the end-of-game summary's button named return_label)
    return_to: Callable[[Any], None] | None = None
    return_label: str = ""
    seats: Seats = field(default_factory=Seats)  # who plays each side: Human, or the computer at a level
    fresh_dice: bool = False         # its dice were dealt from a fresh seed (`play`): a restart deals fresh ones too
    # the recovery save last written of this game (savegame.write_recovery): (commands, last step, file),
    # so that leaving the same play twice (a terminate signal, then Quit) writes it once
    recovered: tuple[int, Any, Path] | None = field(default=None, repr=False, compare=False)
    _steps_seen: int = field(default=0, init=False, repr=False, compare=False)
    _redo_top: Any = field(default=None, init=False, repr=False, compare=False)  # the step a redo would bring back

    def __post_init__(self) -> None:
        # every change of the history (a command, an undo or redo, a GM branch cutting it) goes
        # through the record, which says so: the seats then move or drop the why lines it concerns
        self._steps_seen = len(self.record.steps)
        then = self.record.on_change
        if then is None:
            self.record.on_change = self._history_changed
        else:
            def both() -> None:
                then()
                self._history_changed()
            self.record.on_change = both

    def _history_changed(self) -> None:
        steps, redo = self.record.steps, self.record.redo_stack
        top = self._redo_top
        if len(steps) == self._steps_seen + 1 and top is not None and steps[-1].command is top.command:
            self.seats.carry(top, steps[-1])  # a redone computer command keeps its why line
        if len(steps) != self._steps_seen + 1 or top is not None:
            self.seats.prune([*steps, *redo])  # the undone keep theirs while they may be redone
        self._redo_top = redo[-1] if redo else None
        self._steps_seen = len(steps)

    # ------------------------------------------------------------------ building
    @classmethod
    def start(cls, system: RuleSystem, game_setup: Any, seed: int, **context: Any) -> Session:
        state = system.initial_state(game_setup, seed)
        return cls(system=system, record=Record(system, state), game_setup=game_setup, seed=seed, **context)

    # ------------------------------------------------------------------ state and history
    @property
    def state(self) -> Any:
        return self.record.state

    @state.setter
    def state(self, state: Any) -> None:
        """Set a position by hand (test set-ups): before any command the game starts from it;
        later it stands in for what the last step left (the history is kept for the dice log)."""
        if self.record.steps:
            self.record.steps[-1] = replace(self.record.steps[-1], after=state)
        else:
            self.record = Record(self.system, state, on_change=self.record.on_change)

    @property
    def history(self) -> list[Step]:
        return self.record.steps

    @property
    def commands(self) -> list[Any]:
        return self.record.commands

    def all_events(self) -> list[Any]:
        return self.record.all_events()

    def view(self, side: str | None) -> Any:
        """The state as `side` may see it (None: everything, for the GM)."""
        return self.system.view(self.state, side)

    # ------------------------------------------------------------------ commands
    def apply(self, command: Any, *, gm: bool = False) -> tuple[bool, tuple[Any, ...], str | None]:
        """Apply a command: (accepted, events, rejection reason)."""
        outcome = self.record.apply(command, gm=gm)
        if not isinstance(outcome, Accepted):
            self.last_rejection = outcome.reason
            return False, (), outcome.reason
        self.last_rejection = None
        return True, tuple(outcome.events), None

    @property
    def can_undo(self) -> bool:
        """A player's undo: what the rule system says may be taken back (no dice, nothing
        revealed), and only a move of a side played at the screen, on its own turn
        (`undo_blocked`)."""
        return self.record.can_undo and self.undo_blocked() is None

    def gm_undo(self) -> str | None:
        """The GM's undo, in every GM mode: anything, dice included (a redo rolls the very same
        dice). What was taken back, in the system's words; None when there was nothing."""
        step = self.record.undo(gm=True)
        return None if step is None else str(self.system.describe_command(step.before, step.command))

    def gm_redo(self) -> tuple[bool, str]:
        """The GM's redo: (played again, what in the system's words) or (False, why not)."""
        record = self.record
        if not record.can_redo:
            return False, "Nothing to redo."
        command = record.redo_stack[-1].command
        outcome = record.redo()
        if outcome is not None and outcome.accepted:
            return True, str(self.system.describe_command(record.steps[-1].before, command))
        return False, f"Cannot redo: {getattr(outcome, 'reason', '')}"

    def undo(self) -> bool:
        if self.undo_blocked() is not None:
            return False
        return self.record.undo() is not None

    def undo_blocked(self) -> str | None:
        """Why the computer seats forbid taking back the last command, or None [decision, docs/
        playing.md]: while a computer side is to move (it is thinking over the position an undo
        would change, and would play the same again), and when the last command was a computer's
        (the players at the screen take back their own moves only; to take back the computer's,
        the GM gives its seat to a person in the players dialog first)."""
        levels = self.seats.levels
        if not levels:
            return None

        def name(side: str) -> str:  # (the summary only for the message: the Undo button asks on every refresh)
            summary = self.system.summary(self.state)
            return str(dict(zip(summary.get("sides", ()), summary.get("side_names", ()), strict=False)).get(side, side))

        busy = [s for s in self.system.to_move(self.state) if s in levels]
        if busy:
            return f"Not undone: the computer is playing {name(busy[0])}; take back a move on your own turn."
        steps = self.record.steps
        if steps and not steps[-1].gm:
            mover = self.system.to_move(steps[-1].before)
            if mover and mover[0] in levels:
                return (f"Not undone: the last command was the computer's ({name(mover[0])}); only your own "
                        "moves can be taken back (the GM may give its seat to a person in the players dialog, "
                        "P, first).")
        return None


# --------------------------------------------------------------------------- building from files


def layout_of(map_data: Any) -> HexLayout:
    """The pixel layout of a loaded Tiled map."""
    layout = getattr(map_data, "layout", None)
    if isinstance(layout, HexLayout):
        return layout
    return HexLayout(map_data.tilewidth, map_data.tileheight, map_data.hexsidelength, map_data.stagger,
                     map_data.width, map_data.height)


def _layout_for(loaded: Any) -> HexLayout | None:
    map_data = getattr(loaded, "map", None)
    if map_data is not None:
        return layout_of(map_data)
    board = getattr(loaded, "board", None)
    if board is None:
        return None
    return HexLayout(64, 74, 37, board.stagger, board.width, board.height)


def session_for(plugin: Plugin, loaded: Any, *, record: Record | None = None,
                seed: int | None = None) -> Session:
    """A session of `loaded` (what plugin.load returned): fresh, or resuming `record`."""
    game_setup = plugin.setup_of(loaded)
    use_seed = int(loaded.seed if seed is None else seed)
    if record is None:
        record = Record(plugin.system, plugin.system.initial_state(game_setup, use_seed))
    path = getattr(loaded, "path", None)
    return Session(system=plugin.system, record=record, game_setup=game_setup, setup=getattr(loaded, "setup", None),
                   board=getattr(loaded, "board", None), layout=_layout_for(loaded),
                   map_data=getattr(loaded, "map", None), seed=use_seed,
                   path=Path(path) if path is not None else None, loaded=loaded,
                   description=str(getattr(loaded, "description", "") or ""))
