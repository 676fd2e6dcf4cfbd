"""The pitkit game server: tables for every game over HTTP and WebSocket.

`create_app` builds the ASGI app; `serve` runs it with uvicorn (this is
`pitkit serve`). See docs/protocol.md for the play protocol.
"""

from __future__ import annotations

from pitkit.server.app import create_app
from pitkit.server.settings import Limits, TableSettings, database_url

__all__ = ["Limits", "TableSettings", "create_app", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data: str = "data",
    database: str | None = None,
    log_level: str = "info",
    limits: Limits | None = None,
) -> None:
    """Run the server until interrupted; SQLite in `data` unless `database` is a URL."""
    import uvicorn

    limits = limits or Limits()
    app = create_app(database_url(data, database), limits)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=limits.frame_bytes,
        lifespan="on",
    )
