"""Mass battles in the roll-and-keep family (docs/mass-battle.md): forces, the Tao of War,
Waves and Phases, Battle Actions, casualties. `SYSTEM` (in `system`) is what `game.table`
registers. Pure: no pygame, no yaml, no files, no clock, no global random."""
