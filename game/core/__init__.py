"""What every rule system shares and no rule system owns.

- `game.core.system`: the `RuleSystem` interface (what the shell, saves, replays and GM tools
  call), `Accepted` / `Rejection` outcomes and the `Reject` exception handlers raise.
- `game.core.roller`: drawing dice from the state's seeded generator, GM-forced rolls first,
  every die recorded.
- `game.core.record`: one history of a game (initial state, steps, undo / redo) used by the
  client, the GM tools, saves and replays alike.
- `game.core.registry`: the explicit table of rule systems (no import side effects).

Pure: no pygame, pytmx or yaml, no files, no global random, no clock. Imports no rule system.
"""
