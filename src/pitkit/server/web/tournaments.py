"""The tournaments' HTTP API and pages (docs/tournaments.md), under ``/api/events``
and ``/e/``.

Every call names its link's token as ``Authorization: Bearer``; without one, a
call reads the public view. Links are pages, ``/e/<id>#token=<token>``: the
token stays in the page (a fragment is never sent to the server). A player's or a
judge's token is the code on their slip (`pitkit.server.tournaments.codes`), which
they may type on ``/e/<id>/code`` instead; wrong tokens and codes are limited per
address (`FailedTries`), and refused in words that name nobody.

An entry may carry an ``Idempotency-Key`` header (a random id its page made):
sent again under it, it is answered 200 as the entry it made, and other content
under the same key is refused (409), naming the entry that has it. The pages that
follow an event live keep a stream of its news open (``/api/events/<id>/stream``,
server-sent events): a few per address at once (`Limits.event_streams_per_address`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Header, HTTPException, Request
from fastapi import Path as InPath
from fastapi.responses import FileResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.types import Receive, Scope, Send

from pitkit.server.tournaments import codes
from pitkit.server.tournaments.online import OnlineTables
from pitkit.server.tournaments.service import NewLink, NotALinkError, Running, Slip, Tournaments
from pitkit.server.tournaments.shown import Page
from pitkit.server.web.bodies import Authorization, Body, TournamentId, bearer
from pitkit.server.web.guards import Site
from pitkit.server.web.hall import hall_routes
from pitkit.server.web.limits import Buckets, FailedTries
from pitkit.server.web.services import Wired
from pitkit.tournaments.log import (
    CALL_JUDGE,
    KEY_SHAPE,
    OPEN_TABLE,
    Actor,
    ForbiddenError,
    RefusedError,
)

__all__ = [
    "FAILED_TRIES_BURST",
    "FAILED_TRIES_RATE",
    "PING_SECONDS",
    "STREAM_SECONDS",
    "tournament_routes",
]

STATIC = Path(__file__).parent.parent / "static"
PAGES = ("", "/screen", "/print", "/slips", "/code")
"""The event's pages under ``/e/<id>``: one HTML file, its script draws each."""
FAILED_TRIES_BURST = 30
"""Wrong links or codes one address may try at once (a hall's typos, behind one router)."""
FAILED_TRIES_RATE = 0.1
"""Wrong links or codes one address may try a second once past the burst: one in ten
seconds, so that guessing one of a hundred 50-bit codes takes one address over a
million years."""


STREAM_SECONDS = 25.0
"""How long a stream of an event's news lasts; the page's EventSource opens the next
at once (``retry``), and the server, stopping, waits for none longer than this."""
PING_SECONDS = 10.0
"""How often a stream says it is alive when nothing happens (a proxy keeps it open, and
the big screen knows that what it shows is current)."""


IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        pattern=f"^{KEY_SHAPE.pattern}$",
        description="A random id the client made for this entry (8 to 64 of A-Z a-z 0-9 - _): "
        "sent again, the entry it made is the answer (200), never a second one",
    ),
]


class CreateEvent(Body):
    """A new event: its kind, its name, its options."""

    kind: str = Field(max_length=32, examples=["pits-continuous"])
    name: str = Field(max_length=120, examples=["British Go Congress 2027: Pits"])
    options: dict[Annotated[str, Field(max_length=40)], int | str | bool] = Field(
        default_factory=dict, max_length=16
    )


class NewEntry(Body):
    """An entry: its type and data; `corrects` names an earlier entry it replaces
    (type "void" strikes it)."""

    type: str = Field(max_length=32, examples=["hand"])
    data: dict[Annotated[str, Field(max_length=40)], Any] = Field(
        default_factory=dict, max_length=16, examples=[{"game": 1, "hand": 1, "order": []}]
    )
    corrects: int | None = Field(default=None, ge=1, le=2**31)


class Link(BaseModel):
    """A secret link to an event, for one role (and name)."""

    role: str
    name: str | None
    token: str
    url: str


class CreatedEvent(BaseModel):
    """The new event, and the manager's link (keep it: it is shown once)."""

    event: dict[str, Any]
    event_tag: str
    """The event's ETag as a read through the manager's link gets it (see `Entered`)."""
    manager: Link


class OnlineTable(BaseModel):
    """A pitkit table opened for one of the event's games: its page, and the
    host's token (shown once: the host may start it, bot a seat or close it)."""

    id: str
    url: str
    host_token: str


class SlipOut(BaseModel):
    """A player's or a judge's slip: who, where they sit now, their link's code (as
    printed, "ABCDE-FGHJK"), the link itself and its QR code (inline SVG). A link
    made before codes has none: a new link gives one."""

    role: str
    name: str
    where: str | None
    code: str | None
    url: str | None
    qr: str | None


class Slips(BaseModel):
    """Every live player's and judge's slip, with the event's public page and the page
    where a code is typed (``base``: "" when the server does not know its own address,
    so the links are relative: start it with ``--public-url``)."""

    base: str
    page: str
    code_page: str
    slips: list[SlipOut]


class Entered(BaseModel):
    """The entry as stored, the event as it now is, and the link or the table
    it made, if any; `replayed`: it was made before, under the same Idempotency-Key
    (nothing new was made; a link or a table's host token is shown only once)."""

    entry: dict[str, Any]
    event: dict[str, Any]
    event_tag: str
    """The event's ETag as a read through the same link gets it: a page that drew
    `event` asks with it, and hears 304 until the event changes again."""
    link: Link | None = None
    table: OnlineTable | None = None
    replayed: bool = False


def tournament_routes(
    tournaments: Tournaments,
    online: OnlineTables,
    site: Site,
    events_an_hour: int,
) -> APIRouter:
    """The routes of the tournaments' API and pages; `events_an_hour`: the events one
    address may open an hour."""
    router = APIRouter()
    tries = FailedTries(FAILED_TRIES_RATE, FAILED_TRIES_BURST)
    # First: its roster.csv goes before the CSV files' route.
    hall_routes(router, tournaments, lambda r, t, q: _guessing(tournaments, r, t, q, tries))
    _reading(router, tournaments, site, events_an_hour, tries)
    _entering(router, tournaments, online, site, tries)
    _following(router, tournaments)
    _handing_out(router, tournaments, site, tries)
    for page in PAGES:
        router.add_api_route(
            f"/e/{{event_id}}{page}", _page, include_in_schema=False, methods=["GET"]
        )
    return router


@contextmanager
def _guessing(
    tournaments: Tournaments,
    running: Running,
    token: str | None,
    request: Request,
    tries: FailedTries,
) -> Iterator[None]:
    """Check a link's token under the limit of wrong ones an address may try: a token
    this worker does not know waits while the address is over it (429, nothing
    checked), and one found wrong counts against the address (then 403, in words
    that name nobody)."""
    if token is None or tournaments.holds(running, token):
        yield
        return
    address = request.client.host if request.client else "?"
    wait = tries.wait(address)
    if wait > 0:
        raise HTTPException(
            429,
            f"too many wrong links or codes from this address: try again in {math.ceil(wait)} s",
            headers={"Retry-After": str(math.ceil(wait))},
        )
    try:
        yield
    except NotALinkError:
        tries.failed(address)
        raise


def _reading(
    router: APIRouter, tournaments: Tournaments, site: Site, an_hour: int, tries: FailedTries
) -> None:
    """The routes that make a tournament and read it: its kinds, its view, its CSV files."""
    opened = Buckets(an_hour / 3600, an_hour)

    @router.get("/api/events/kinds", tags=["events"])
    async def kinds() -> list[dict[str, str]]:
        """The kinds of event the server runs."""
        return [{"kind": k.name, "title": k.title} for k in tournaments.kinds.values()]

    @router.post("/api/events", status_code=201, tags=["events"], response_model=CreatedEvent)
    async def create(body: CreateEvent, request: Request) -> Response:
        """Open an event; the answer holds the manager's secret link, once."""
        if not opened.take(request.client.host if request.client else "?"):
            raise HTTPException(
                429, f"at most {an_hour} events an hour may be opened from one address"
            )
        try:
            running, token = await tournaments.create(body.kind, body.name, body.options)
        except RefusedError as exc:
            raise HTTPException(422, str(exc)) from None
        shown = await tournaments.shown(running, Actor("manager"))
        link = _link(site, request, running, "manager", None, token)
        return _with_event(shown, 201, request, manager=link.model_dump())

    @router.get("/api/events/{event_id}", tags=["events"], response_model=dict[str, Any])
    async def read(
        event_id: TournamentId, request: Request, authorization: Authorization = None
    ) -> Response:
        """The event as the link's role sees it (no link: the public view), with its log."""
        running = await _running_or_404(tournaments, event_id)
        token = bearer(authorization)
        try:
            with _guessing(tournaments, running, token, request, tries):
                actor = await tournaments.read(running, token)
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        page = await tournaments.shown(running, actor)
        # Asked only after the link is checked: a wrong one learns nothing, not even "unchanged".
        tag = page.tag()
        if _unchanged(request, tag):
            return Response(status_code=304, headers={"ETag": tag, "Vary": "Accept-Encoding"})
        return _sent(page, request, "application/json", {"ETag": tag})

    @router.get("/api/events/{event_id}/{file}.csv", tags=["events"])
    async def csv_file(
        event_id: TournamentId, file: Annotated[str, InPath(max_length=40)], request: Request
    ) -> Response:
        """A sheet or the standings as CSV (`sheets`, `standings`; public)."""
        running = await _running_or_404(tournaments, event_id)
        await tournaments.read(running, None)
        files = await tournaments.csv(running)
        page = files.get(f"{file}.csv")
        if page is None:
            raise HTTPException(404, f"this event has {', '.join(sorted(files))}")
        saved = {"Content-Disposition": f'attachment; filename="{running.id}-{file}.csv"'}
        return _sent(page, request, "text/csv; charset=utf-8", saved)


def _sent(
    page: Page,
    request: Request,
    media_type: str,
    headers: Mapping[str, str] | None = None,
    *,
    status: int = 200,
    around: tuple[bytes, bytes] = (b"", b""),
) -> Response:
    """A kept page as sent (between the bytes `around` it, in an answer that holds it):
    gzipped to a client that takes gzip (only the page's own end and what is around it
    are gzipped now: its start was once, for everyone), plain to any other."""
    before, after = around
    headers = {**(headers or {}), "Vary": "Accept-Encoding"}
    if "gzip" not in request.headers.get("accept-encoding", ""):
        body = before + page.plain() + after
    else:
        body, headers["Content-Encoding"] = page.gzipped(before, after), "gzip"
    return Response(body, status_code=status, headers=headers, media_type=media_type)


def _entering(
    router: APIRouter,
    tournaments: Tournaments,
    online: OnlineTables,
    site: Site,
    tries: FailedTries,
) -> None:
    """The route that makes entries (and opens online tables)."""

    @router.post(
        "/api/events/{event_id}/entries",
        status_code=201,
        tags=["events"],
        response_model=Entered,
        responses={200: {"model": Entered, "description": "Made before, under this key"}},
    )
    async def enter(
        event_id: TournamentId,
        body: NewEntry,
        request: Request,
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response:
        """Make an entry through a link. 403: the link's role may not; 409: the event
        refuses it (the reason says why); either way nothing changed. An
        ``open_table`` entry opens a pitkit table for a game (`table` in the answer).
        With an ``Idempotency-Key`` made before: 200 and that entry, nothing new (409
        if the key was sent with other content, naming its entry)."""
        running = await _running_or_404(tournaments, event_id)
        token, key, table = bearer(authorization), idempotency_key, None
        if body.type == CALL_JUDGE:  # bounded: made only there
            raise HTTPException(409, f"call the judge with POST /api/events/{running.id}/calls")
        try:
            with _guessing(tournaments, running, token, request, tries):
                if body.type == OPEN_TABLE and body.corrects is None:
                    made, opened, host = await online.open(running, token, body.data, key)
                    if opened is not None and host is not None:
                        url = f"{site.base_url(request.scope)}/t/{opened.id}#watch"
                        table = OnlineTable(id=opened.id, url=url, host_token=host)
                else:
                    made = await tournaments.enter(
                        running, token, body.type, body.data, body.corrects, key=key
                    )
                    if not made.replayed:
                        await online.vacate(running, made)
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        except RefusedError as exc:
            raise HTTPException(409, str(exc)) from None
        link = None if made.link is None else _new_link(site, request, running, made.link)
        shown = await tournaments.shown(running, made.actor)
        return _with_event(
            shown,
            200 if made.replayed else 201,
            request,
            entry=made.entry.to_json(),
            link=link,
            table=None if table is None else table.model_dump(),
            replayed=made.replayed,
        )


def _new_link(site: Site, request: Request, running: Running, new: NewLink) -> dict[str, Any]:
    """A link an entry made (a player added, a link replaced), as the answer gives it."""
    return _link(site, request, running, new.role, new.name, new.token).model_dump()


def _following(router: APIRouter, tournaments: Tournaments) -> None:
    """The stream of an event's news, for the pages that follow it live."""
    streams: Counter[str] = Counter()

    @router.get(
        "/api/events/{event_id}/stream",
        tags=["events"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    async def stream(event_id: TournamentId, request: Request, services: Wired) -> Response:
        """The event's news as server-sent events: ``entry`` with ``{"seq": n, "now": t}``,
        the number of its last entry and the server's time, at once and after each new
        entry (fetch the event then), and ``ping`` (the same) every 10 s when nothing
        happens. Public (it
        says only what the public log says); a stream lasts 25 s, and EventSource
        opens the next by itself. 429 beyond the streams an address may hold."""
        running = await _running_or_404(tournaments, event_id)
        await tournaments.read(running, None)  # its first news as stored now, by any worker
        address = request.client.host if request.client else "?"
        most = services.limits.event_streams_per_address
        if streams[address] >= most:
            raise HTTPException(
                429,
                f"at most {most} streams of events' news from one address: this page asks "
                "for the event every few seconds instead",
                headers={"Retry-After": "60"},
            )
        streams[address] += 1

        def closed() -> None:
            streams[address] -= 1
            if streams[address] <= 0:
                del streams[address]

        return _NewsStream(_news(tournaments, running), closed)


class _NewsStream(StreamingResponse):
    """A stream of news that gives back its place under the cap, and lets go of its
    tournament's bell, however it ends (the client gone, the stream's time up)."""

    def __init__(self, news: AsyncIterator[bytes], closed: Callable[[], None]) -> None:
        super().__init__(
            news,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self.news = news
        self.closed = closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()
            aclose = getattr(self.news, "aclose", None)
            if aclose is not None:
                await aclose()


async def _news(tournaments: Tournaments, running: Running) -> AsyncIterator[bytes]:
    """An event's news, as server-sent events (`_following`)."""
    yield b"retry: 1000\n\n"
    loop = asyncio.get_running_loop()
    until = loop.time() + STREAM_SECONDS
    async with tournaments.listening(running) as bell:
        sent = -1
        while True:
            ring = bell.next_ring()
            kind = "entry" if bell.last != sent else "ping"
            sent = bell.last
            now = round(time.time(), 3)  # the server's time: pages set their clocks by it
            yield f'event: {kind}\ndata: {{"seq": {sent}, "now": {now}}}\n\n'.encode()
            left = until - loop.time()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ring.wait(), min(PING_SECONDS, left))


def _handing_out(
    router: APIRouter, tournaments: Tournaments, site: Site, tries: FailedTries
) -> None:
    """The routes that hand the event out in the hall: the slips, the public page's QR code."""

    @router.get("/api/events/{event_id}/slips", tags=["events"], response_model=Slips)
    async def slips(
        event_id: TournamentId, request: Request, authorization: Authorization = None
    ) -> Slips:
        """Every live player's and judge's slip, to print: their code, their link and its
        QR code. The manager's link only (the codes are made again from it)."""
        running = await _running_or_404(tournaments, event_id)
        token = bearer(authorization)
        try:
            with _guessing(tournaments, running, token, request, tries):
                made = await tournaments.slips(running, token)
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        base = site.base_url(request.scope)
        page = f"{base}/e/{running.id}"
        out = await asyncio.to_thread(lambda: [_slip(page, slip) for slip in made])
        return Slips(base=base, page=page, code_page=f"{page}/code", slips=out)

    @router.get("/api/events/{event_id}/qr.svg", tags=["events"])
    async def public_qr(event_id: TournamentId, request: Request) -> Response:
        """The QR code of the event's public page, for the big screen (SVG)."""
        running = await _running_or_404(tournaments, event_id)
        svg = _qr_svg(f"{site.base_url(request.scope)}/e/{running.id}")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=300"})


def _qr_svg(url: str) -> str:
    """`url`'s QR code as SVG, black on white, sized by whoever shows it (segno)."""
    out = io.BytesIO()
    qr = segno.make(url, error="m", micro=False)
    qr.save(out, kind="svg", xmldecl=False, svgns=True, omitsize=True, dark="#000", light="#fff")
    return out.getvalue().decode()


def _slip(page: str, slip: Slip) -> SlipOut:
    """A slip as sent: its link and the link's QR code, made from its code."""
    if slip.code is None:
        return SlipOut(
            role=slip.role, name=slip.name, where=slip.where, code=None, url=None, qr=None
        )
    url = f"{page}#token={slip.code}"
    return SlipOut(
        role=slip.role,
        name=slip.name,
        where=slip.where,
        code=codes.grouped(slip.code),
        url=url,
        qr=_qr_svg(url),
    )


def _unchanged(request: Request, tag: str) -> bool:
    """Whether the reader has this page already: its If-None-Match names `tag`, compared
    weakly as RFC 9110 asks of that header, or is ``*``."""
    named = {
        each.strip().removeprefix("W/")
        for each in request.headers.get("if-none-match", "").split(",")
    }
    return "*" in named or tag.removeprefix("W/") in named


def _with_event(event: Page, status: int, request: Request, **rest: Any) -> Response:
    """An answer of `rest`, the event's page (``event``) and its ETag (``event_tag``),
    as JSON: the page goes in as the bytes it was kept as, not read back into Python to
    be written again. Sent gzipped as a read is (`_sent`): a big event's answer is
    megabytes, and a scorer's phone in a hall gets one at every entry."""
    head = json.dumps({"event_tag": event.tag(), **rest}, separators=(",", ":")).encode()
    around = (b'{"event":', b"," + head[1:])
    return _sent(event, request, "application/json", status=status, around=around)


def _link(
    site: Site, request: Request, running: Running, role: str, name: str | None, token: str
) -> Link:
    """A link's page: ``/e/<id>#token=<token>``."""
    url = f"{site.base_url(request.scope)}/e/{running.id}#token={token}"
    return Link(role=role, name=name, token=token, url=url)


async def _running_or_404(tournaments: Tournaments, tournament_id: str) -> Running:
    running = await tournaments.get(tournament_id)
    if running is None:
        raise HTTPException(404, f"there is no event {tournament_id[:40]!r}")
    return running


async def _page() -> FileResponse:
    """Every event page is one HTML file; its script reads the path and the link."""
    return FileResponse(STATIC / "event.html")
