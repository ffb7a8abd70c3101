"""The cyclic garbage collector during start-up.

Opening the game imports some 350 modules, builds about a hundred model classes, the map and the
scene: long-lived objects, hardly any garbage. The collector still runs over them again and again
as they are made (measured: 110 young, 10 middle and one full collection, 80-90 ms of a 0.7 s
start). `python -m game` pauses it while it starts (`pause`); once the first frame is on screen
(`settle`, called by the window's loop) everything made so far is moved out of the collector's
sight for good (`gc.freeze`: those objects live as long as the game anyway, and later full
collections during play no longer go over them) and collecting resumes.

Why freeze rather than just collect again: while the collector is off every new object waits in
its youngest generation, so the first collection after the pause would go over all of start-up's
objects (twice, as they move up the generations): two pauses of some 40 ms in the first frames of
play. The price: a reference cycle made during start-up that becomes garbage later is never
collected (the first scene's UI widgets, if that scene is replaced: a few megabytes, once).

Only a pause made here is undone here: code that runs a window without `pause` (the tests, which
call `main` with their own arguments) keeps its collector exactly as it was. A command that opens
no window resumes collecting as soon as its arguments are read (`resume`).
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop cyclic collection until `settle` (the start of the process)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def settle() -> None:
    """Freeze what start-up made and collect again, if `pause` stopped the collector."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def resume() -> None:
    """Collect again without freezing anything (a command that opens no window), if `pause`
    stopped the collector."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def paused() -> bool:
    """Whether start-up's pause is still on."""
    return _paused
