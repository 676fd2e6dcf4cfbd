"""How long a test waits for something to happen: never a fixed sleep, always a
condition polled until a deadline, and every deadline scaled by one setting.

`PITKIT_TEST_SLOWDOWN` (default 1) multiplies every deadline of the suite: these
helpers', the test clients' (`TableClient.patience`), the browser's (Playwright's
default timeouts) and the test servers' start. A busy machine runs the suite with 3
(docs/testing.md). It never makes a passing test slower: a deadline is only how long
a test waits before it calls a wait failed.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

SLOWDOWN = float(os.environ.get("PITKIT_TEST_SLOWDOWN") or 1)
"""The factor on every deadline (PITKIT_TEST_SLOWDOWN)."""
if SLOWDOWN < 1:
    raise ValueError(f"PITKIT_TEST_SLOWDOWN must be 1 or more, not {SLOWDOWN}")


def patience(seconds: float) -> float:
    """`seconds` of waiting on a quiet machine, scaled for this one."""
    return seconds * SLOWDOWN


def wait_until(
    check: Callable[[], T], seconds: float = 10, what: str = "", every: float = 0.02
) -> T:
    """Call `check` until it returns something true, and return that; fail after
    `seconds` (scaled) saying `what` was awaited."""
    deadline = time.monotonic() + patience(seconds)
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience(seconds):.1f} s for {what or check}")
        time.sleep(every)


async def until(
    check: Callable[[], T | Awaitable[T]],
    seconds: float = 10,
    what: str = "",
    every: float = 0.01,
) -> T:
    """`wait_until` inside an event loop: `check` may be a coroutine function."""
    deadline = time.monotonic() + patience(seconds)
    while True:
        value = check()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience(seconds):.1f} s for {what or check}")
        await asyncio.sleep(every)
