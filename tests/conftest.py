"""Every test sees a sixth game, War (tests/extra/war.py), registered beside
the five: the generic properties, the server and the browser's generic
drawing are checked on a game that exists only in the tests."""

from pitkit import games
from tests.extra import war

games.register(war.GAME)
