"""The web: the only part of pitkit that speaks HTTP (FastAPI, Starlette, Pydantic,
uvicorn). One router a concern, each on the `Services` the app is wired with:

- games.py: the games, their options and bots, their judges;
- tables.py: the lobby's tables and the host's powers; matches.py: finished
  matches' logs and replays; tournaments.py: the tournaments' API and pages;
- play.py: play over WebSocket; pages.py: the pages, health and metrics;
- bodies.py: what requests and answers carry; services.py: the `Services`;
- guards.py, limits.py: what uvicorn leaves to the app, and what one client may ask;
- asgi.py: the app built from all of these, and run with uvicorn.
"""
