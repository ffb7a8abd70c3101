"""The AI:L tactical rules' client: the battle scene and its input modes, panels, dialogs and map
view, the replay view and GM mode. The shell reaches it only through game/table.py:

    open_scene(app, session) -> Scene          # the battle
    open_replay(app, session, start=None, title="")
    open_gm(app, battle_scene)
    terminal_lines(system, step, reveal=, gm=)           # a step of `replay SAVE` as the replay view hides it
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.record import Record
from game.shell.gm_seat import open_gm_mode
from game.shell.session import Session
from game.systems.tactical.client.battle import BattleScene
from game.systems.tactical.client.sealed import terminal_lines
from game.systems.tactical.rules.system import SYSTEM, TacticalSetup

if TYPE_CHECKING:
    from game.shell.app import App
    from game.shell.scene import Scene


def open_scene(app: App, session: Session) -> Scene:
    return BattleScene(app, session)


def open_replay(app: App, session: Session, start: int | None = None, title: str = "") -> None:
    """The replay view of `session`'s history (the live game's, or a save's): a sealed initiative
    choice is shown once the game revealed it, or at once from GM mode (sealed.py)."""
    # import seam: the replay view loads when first opened (F3): it brings the rules' GM commands and events
    from game.systems.tactical.client.replay import ReplayScene

    gm = any(getattr(s, "name", "") == "gm" for s in app.scenes)
    so_far = "" if session.state.phase == "ended" else " (so far)"  # (a battle fought to its end: all of it)
    app.push(ReplayScene(app, session, list(session.history),
                         title=title or f"{session.setup.name}{so_far}", start=start, gm=gm))


def open_gm(app: App, battle: Any) -> None:
    """F2 on the battle: GM mode, once whoever asks has shown they may (game/shell/gm_seat.py: the
    GM passphrase when one is set, the campaign's under a battle fought out from one, the GM's word
    when two or more sides are played at the screen behind the blackout); its opening is kept in
    the game's saves and said in GM mode's panel (the battle's message line is its hint)."""
    # import seam: GM mode loads when first opened: with the rules' queries and GM commands, ~130 ms
    from game.systems.tactical.client.gm import GmScene

    opened: list[GmScene] = []

    def enter() -> None:
        opened.append(GmScene(app, battle))
        app.push(opened[-1])

    def say(text: str) -> None:
        rest = opened[-1].message.removeprefix("GM mode: ")
        opened[-1].say(f"{text}. {rest[:1].upper()}{rest[1:]}")

    open_gm_mode(app, battle, enter, what="the battle (units, Advantage, the next dice)", say=say)


def tactical_session(setup: Any, board: Any, layout: Any, seed: int = 0, *, state: Any = None,
                     map_data: Any = None, path: Any = None, description: str = "") -> Session:
    """A tactical session built in code (tests, benchmarks, shots): from a BattleSetup and a
    board, starting from the rules' initial state or from `state`."""
    game_setup = TacticalSetup(setup, board)
    start = state if state is not None else SYSTEM.initial_state(game_setup, seed)
    return Session(system=SYSTEM, record=Record(SYSTEM, start), game_setup=game_setup, setup=setup, board=board,
                   layout=layout, map_data=map_data, seed=seed, path=path, description=description)


__all__ = ["open_gm", "open_replay", "open_scene", "tactical_session", "terminal_lines"]
