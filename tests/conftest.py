"""Every test sees a sixth game, War (tests/extra/war.py), registered beside
the five: the generic properties, the server and the browser's generic
drawing are checked on a game that exists only in the tests.

Every deadline a test waits for is scaled by PITKIT_TEST_SLOWDOWN (tests/waiting.py)."""

from hypothesis import HealthCheck, settings

from pitkit import games
from pitkit.server.client import TableClient
from tests.extra import war
from tests.waiting import SLOWDOWN

games.register(war.GAME)
# Every test client's waits for the server, scaled for a busy machine (tests/waiting.py).
TableClient.patience = SLOWDOWN
# Properties are checked for what they claim, not for how fast an example runs: a time
# limit per example (Hypothesis's 200 ms) or its "too slow" check fails on a busy machine.
settings.register_profile("pitkit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pitkit")


def pytest_collection_finish(session: object) -> None:
    """Everything imported and collected by now lives to the end: frozen, the garbage
    collector's full passes no longer walk it (a test's own allocations cost less)."""
    import gc

    gc.collect()
    gc.freeze()
