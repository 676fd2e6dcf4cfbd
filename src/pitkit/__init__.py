"""pitkit: the Pit family of card games, with bots, play and research tools.

Start with `pitkit.games.get(name)` for a game, then `game.new_match(...)`.
"""

__version__ = "0.1.0"
