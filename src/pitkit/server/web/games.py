"""The games the server runs, for the lobby: their players, options and bots, and
their rules judges."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from fastapi import Path as InPath

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.core.game import Game
from pitkit.core.narrate import plain
from pitkit.core.views import json_schema
from pitkit.server.web.bodies import JudgeQuestion, Verdict
from pitkit.server.web.pages import STATIC

__all__ = ["router"]

router = APIRouter()


@router.get("/api/games", tags=["lobby"])
async def list_games() -> list[dict[str, Any]]:
    """Every game: players, rule options and bots."""
    return [_described(g) for g in games.all_games()]


@router.post("/api/games/{name}/judge", tags=["lobby"])
async def judge(name: Annotated[str, InPath(max_length=32)], body: JudgeQuestion) -> Verdict:
    """The game's rules judge: `{"args": ["8H", "7H 9H"]}` as in `pitkit judge`.

    Pages use it to explain a selection (Pits: its readings and whether it
    beats the table; Ace Pit: a response's score). 400 gives the reason
    the cards cannot be judged.
    """
    game = games.get(name) if name in games.names() else None
    if game is None or game.judge is None:
        raise HTTPException(404, f"there is no judge for {name[:40]!r}")
    try:
        # Off the event loop: the judge is plain CPU work.
        verdict = await asyncio.to_thread(game.judge, body.args)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return Verdict(verdict=verdict)


def _described(g: Game) -> dict[str, Any]:
    """A game as the lobby shows it."""
    return {
        "name": g.name,
        "title": g.title,
        "summary": g.summary,
        "min_players": g.min_players,
        "max_players": g.max_players,
        "default_players": g.default_players,
        "realtime": g.realtime,
        "rules": [
            {
                "name": o.name,
                "label": o.label,
                "type": o.type,
                "default": o.default,
                "doc": plain(o.doc),
                "choices": list(o.choices),
            }
            for o in g.rules.options()
        ],
        "bots": {name: info.description for name, info in bot_registry.available(g).items()},
        "heuristic": g.heuristic,
        "opponent": g.opponent,
        "module": _module_url(g.name),
        "view_schema": json_schema(g.view_type) if g.view_type is not None else None,
    }


def _module_url(game: str) -> str | None:
    """Where the browser finds a game's own drawing, found by its registry name
    (None: the page draws the game from its declared view alone)."""
    path = STATIC / "js" / "games" / f"{game}.js"
    return f"/static/js/games/{game}.js" if path.is_file() else None
