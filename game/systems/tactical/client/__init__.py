"""The AI:L tactical rules' client: the battle scene and its input modes, panels, dialogs and map
view, the replay view and GM mode. The shell reaches it only through the plugin table
(game/table.py names `game.systems.tactical.client.plugin`, imported by name when a window opens)."""
