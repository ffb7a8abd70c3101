"""The AI:L tactical rules' client: the battle scene and its input modes, panels, dialogs and map
view, the replay view and GM mode. The shell reaches it only through the plugin table
(game/systems.py names `game.client.ail.plugin`, imported by name when a window opens)."""
