"""How the engines' frozen values travel between processes.

The wheel compiles the engines with mypyc, and a compiled frozen dataclass has
no ``__dict__``: pickle's default way back (make an empty object, then set its
fields) meets the frozen guard and fails. Such a class returns `frozen_reduce`
from its ``__reduce__``, so that pickle rebuilds it through its constructor.
The server's bot processes and the arena's workers depend on it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["frozen_reduce"]


def frozen_reduce(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass: its class and the fields its constructor
    takes, in order (the others it works out again)."""
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value) if f.init)
