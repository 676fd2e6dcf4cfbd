"""People's ratings (docs/ratings.md): who a match rates and how (pure, with
hypothesis), a match rated once however often and by however many workers (SQLite
and PostgreSQL), and the player's page and the leaderboard over HTTP: a match two
profiles play shows on both pages with its replay, a guest and bots rate nobody, an
unlisted table's match hides its table from strangers, and a guessed id gives
nothing. The pages in Chromium: tests/browser/test_players.py."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Connection, insert, select

from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.live import ratings
from pitkit.server.store import profiles as profile_rows
from pitkit.server.store import ratings as rows
from pitkit.server.store import storage
from pitkit.server.store.storage import Store, rated_matches_t, ratings_t
from tests.server.conftest import ServerThread, run
from tests.waiting import patience

# -- who a match rates, and how (pure) ----------------------------------------------------

KINDS = st.sampled_from(["player", "player", "bot", "open"])


@st.composite
def finished(draw: st.DrawFn) -> list[rows.SeatResult]:
    """A finished match's seats: people (some of them profiles, each once, some
    rated before), bots and open seats, each with a place."""
    n = draw(st.integers(2, 7))
    seats = []
    for seat in range(n):
        kind = draw(KINDS)
        profile = f"p{seat}" if kind == "player" and draw(st.booleans()) else None
        known = profile is not None and draw(st.booleans())
        mu = draw(st.floats(5, 45)) if known else None
        sigma = draw(st.floats(1, 8.3)) if known else None
        place = draw(st.integers(1, n))
        seats.append(rows.SeatResult(seat, kind, place, profile, mu, sigma))
    return seats


@given(finished())
def test_a_match_rates_its_profiles_when_two_people_played(
    seats: list[rows.SeatResult],
) -> None:
    changed = ratings.rated(seats)
    people = [s for s in seats if s.kind == "player"]
    profiles = {s.seat for s in people if s.profile_id is not None}
    if len(people) >= 2 and profiles:
        assert set(changed) == profiles
    else:
        assert changed == {}
    for seat in seats:
        if seat.seat in changed and seat.mu is not None:
            assert (changed[seat.seat].mu_before, changed[seat.seat].sigma_before) == (
                seat.mu,
                seat.sigma,
            )
        elif seat.seat in changed:
            assert changed[seat.seat].mu_before == ratings.PRIOR.mu


@given(finished(), st.data())
def test_bots_count_not_at_all_and_only_the_order_of_places(
    seats: list[rows.SeatResult], data: st.DataObject
) -> None:
    changed = ratings.rated(seats)
    # Bots and open seats taken away, the people renumbered: the same changes.
    people = [s for s in seats if s.kind == "player"]
    alone = ratings.rated([replace(s, seat=i) for i, s in enumerate(people)])
    assert sorted(changed.values(), key=repr) == sorted(alone.values(), key=repr)
    # Places stretched by any increasing map: the same order, the same changes.
    steps = data.draw(st.lists(st.integers(1, 5), min_size=8, max_size=8))
    stretched = [replace(s, place=sum(steps[: s.place])) for s in seats]
    assert ratings.rated(stretched) == changed


def _seat(seat: int, place: int, profile: str | None) -> rows.SeatResult:
    return rows.SeatResult(seat, "player", place, profile, None, None)


def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer() -> None:
    changed = ratings.rated([_seat(0, 2, "ann"), _seat(1, 1, "bea")])
    ann, bea = changed[0], changed[1]
    assert bea.mu_after > ratings.PRIOR.mu > ann.mu_after
    assert bea.mu_after - bea.mu_before == pytest.approx(ann.mu_before - ann.mu_after)
    assert max(ann.sigma_after, bea.sigma_after) < ratings.PRIOR.sigma


def test_a_guest_plays_as_a_newcomer_and_keeps_nothing() -> None:
    against_guest = ratings.rated([_seat(0, 1, "ann"), _seat(1, 2, None)])
    against_newcomer = ratings.rated([_seat(0, 1, "ann"), _seat(1, 2, "bea")])
    assert list(against_guest) == [0]
    assert against_guest[0] == against_newcomer[0]
    # One profile in two seats plays against itself: nothing is rated.
    assert ratings.rated([_seat(0, 1, "ann"), _seat(1, 2, "ann")]) == {}


def test_a_rating_is_shown_on_the_1500_scale_with_its_range() -> None:
    newcomer = ratings.shown(ratings.PRIOR.mu, ratings.PRIOR.sigma)
    assert (newcomer.rating, newcomer.plus_minus, newcomer.low) == (1500, 1000, 500)
    sure = ratings.shown(26.0, 1.0)
    assert (sure.rating, sure.plus_minus, sure.low) == (1560, 120, 1440)


# -- rated once, in the database ----------------------------------------------------------


def _profile(name: str) -> profile_rows.ProfileRecord:
    return profile_rows.ProfileRecord(f"id-{name}", name, "#123456", time.time())


async def _with_profiles(store: Store, *names: str) -> list[str]:
    """Profiles of these names, stored; their ids."""
    for name in names:
        device = profile_rows.NewDevice(f"hash-{name}", f"dev-{name}", "new")
        assert await store.run(profile_rows.create(_profile(name), f"sk-{name}", device))
    return [_profile(name).id for name in names]


async def _finished_match(
    store: Store, table_id: str, seats: list[str | None], ranks: list[int], number: int = 1
) -> None:
    """A stored table whose match `number` is over with `ranks`: each seat a profile's
    (its id), a bot's ("bot:NAME") or a guest's (None)."""
    if number == 1:
        records = []
        for i, who in enumerate(seats):
            bot = who[4:] if who is not None and who.startswith("bot:") else None
            kind = "bot" if bot else "player"
            records.append(storage.SeatRecord(i, kind, bot, f"Seat {i}", f"{table_id}-{i}"))
        table = storage.TableRecord(
            table_id, "ace-pit", len(seats), {}, {"listed": True}, "host", "waiting", 0, 1.0,
            seats=records,
        )  # fmt: skip
        await store.run(storage.insert_table(table))
        for record, who in zip(records, seats, strict=True):
            if who is not None and record.kind == "player":
                await store.run(profile_rows.sit(table_id, record, who))
    await store.run(storage.start_match(table_id, number, 7, []))
    outcome = {"ranks": ranks, "points": [0] * len(ranks), "summary": "", "detail": {}}
    await store.run(storage.append_step(table_id, number, 1, 0, "x", [], outcome))


def _rows(conn: Connection) -> tuple[list[Any], list[Any]]:
    """Every rating and every rated match's row, in order."""
    held = conn.execute(select(ratings_t).order_by(ratings_t.c.profile_id)).all()
    rated = conn.execute(
        select(rated_matches_t).order_by(
            rated_matches_t.c.table_id, rated_matches_t.c.number, rated_matches_t.c.profile_id
        )
    ).all()
    return [tuple(r) for r in held], [tuple(r) for r in rated]


@pytest.fixture
def stores(database: str) -> Iterator[tuple[Store, Store]]:
    """Two workers' stores on one database (SQLite: two writers of one file)."""
    one, two = Store(database), Store(database)
    one.start()
    two.start()
    yield one, two
    one.close()
    two.close()


def test_a_match_is_rated_once_however_often_it_is_asked(stores: tuple[Store, Store]) -> None:
    store, other = stores

    async def main() -> None:
        ann, bea = await _with_profiles(store, "Ann", "Bea")
        await _finished_match(store, "t1", [ann, bea, "bot:greedy", None], [2, 1, 3, 4])
        rate = rows.rate_match("t1", 1, ratings.rated)
        assert await store.run(rate) == 2
        first = await store.run(_rows)
        # Again, and from another worker: nothing changes.
        assert await store.run(rate) == 0
        assert await other.run(rate) == 0
        assert await store.run(_rows) == first
        held, rated = first
        assert [(r[0], r[4]) for r in held] == [(ann, 1), (bea, 1)]
        assert [(r[2], r[4], r[5]) for r in rated] == [(ann, 0, 2), (bea, 1, 1)]
        player = await store.run(rows.player(bea))
        assert player is not None and player.ratings[0].mu > ratings.PRIOR.mu

    run(main())


def test_two_workers_rate_one_match_once_and_two_matches_one_after_the_other(
    stores: tuple[Store, Store],
) -> None:
    one, two = stores

    async def main() -> None:
        ann, bea = await _with_profiles(one, "Ann", "Bea")
        await _finished_match(one, "t1", [ann, bea], [1, 2])
        await _finished_match(one, "t2", [bea, ann], [1, 2])
        same = rows.rate_match("t1", 1, ratings.rated)
        assert sorted(await asyncio.gather(one.run(same), two.run(same))) == [0, 2]
        # Two matches of the same players ending at once on two workers: both count,
        # the second from where the first left each rating.
        await _finished_match(one, "t1", [ann, bea], [2, 1], number=2)
        await asyncio.gather(
            one.run(rows.rate_match("t1", 2, ratings.rated)),
            two.run(rows.rate_match("t2", 1, ratings.rated)),
        )
        held, rated = await one.run(_rows)
        assert [r[4] for r in held] == [3, 3]
        for profile in (ann, bea):
            mine = sorted((r for r in rated if r[2] == profile), key=lambda r: r[10])
            for earlier, later in itertools.pairwise(mine):
                assert (later[6], later[7]) == (earlier[8], earlier[9])
            now = next(r for r in held if r[0] == profile)
            assert (now[2], now[3]) == (mine[-1][8], mine[-1][9])

    run(main())


def test_what_is_not_rated(stores: tuple[Store, Store]) -> None:
    store, _ = stores

    async def main() -> None:
        (ann,) = await _with_profiles(store, "Ann")
        await _finished_match(store, "bots", [ann, "bot:greedy", "bot:random"], [1, 2, 3])
        await _finished_match(store, "guests", [None, None], [1, 2])
        # A match still under way: dealt, no outcome.
        await _finished_match(store, "late", [ann, None], [1, 2])
        await store.run(storage.start_match("late", 2, 7, []))
        for table, number in [("bots", 1), ("guests", 1), ("late", 2), ("none", 1)]:
            assert await store.run(rows.rate_match(table, number, ratings.rated)) == 0
        assert await store.run(_rows) == ([], [])

    run(main())


def test_the_leaderboard_ranks_by_the_low_end_of_the_range(
    stores: tuple[Store, Store],
) -> None:
    store, _ = stores
    # (name, mu, sigma, matches): Cy's mean is the highest but least sure.
    board = [("Ann", 30, 2, 9), ("Bea", 28, 1, 5), ("Cy", 40, 8, 6), ("Di", 35, 1, 4)]

    def put(conn: Connection) -> None:
        for name, mu, sigma, matches in board:
            conn.execute(
                insert(ratings_t).values(
                    profile_id=f"id-{name}", game="pitch", mu=mu, sigma=sigma,
                    matches=matches, updated=0.0,
                )
            )  # fmt: skip

    async def main() -> None:
        await _with_profiles(store, *(b[0] for b in board))
        await store.run(put)
        leaders, total = await store.run(rows.leaders("pitch", 5, 2.0, 10))
        # Di has too few matches; Cy's low end, 24, is below Bea's 26 and Ann's 26 (more matches).
        assert [r.name for r in leaders] == ["Ann", "Bea", "Cy"] and total == 3
        second, total = await store.run(rows.leaders("pitch", 5, 2.0, 2, 2))
        assert [r.name for r in second] == ["Cy"] and total == 3
        assert await store.run(rows.leaders("pits", 5, 2.0, 10)) == ([], 0)

    run(main())


# -- over HTTP ----------------------------------------------------------------------------


def _make(server: ServerThread, name: str) -> dict[str, Any]:
    made = server.http.post("/api/profiles", json={"name": name})
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def _as(secret: str) -> dict[str, str]:
    return {"authorization": f"Bearer {secret}"}


def _play(
    server: ServerThread, seats: list[str | None], secrets: list[str | None], **settings: Any
) -> str:
    """An Ace Pit table of one hand whose open seats are taken in order, each by the
    profile of its secret (None: a guest), and played to the end by random moves."""
    created = server.create(
        game="ace-pit", seats=seats, rules={"hands": 1}, settings=dict(settings)
    )
    tid: str = created["table"]["id"]
    invites = [s["token"] for s in created["seats"] if s["kind"] == "open"]
    tokens = []
    for i, (invite, secret) in enumerate(zip(invites, secrets, strict=True)):
        if secret is None:
            joined = server.http.post(
                f"/api/tables/{tid}/join", json={"token": invite, "name": f"Guest {i}"}
            )
        else:
            joined = server.http.post(
                f"/api/tables/{tid}/profile-seat", json={"token": invite}, headers=_as(secret)
            )
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])

    async def main() -> None:
        clients = [TableClient(server.base, tid, token) for token in tokens]
        for client in clients:
            await client.connect()
        until = time.monotonic() + patience(30)
        await asyncio.gather(*(RandomPlayer(c, seed=i).run(until) for i, c in enumerate(clients)))
        for client in clients:
            await client.close()

    run(main())
    server.wait_for(tid, "over")
    return tid


def _player(server: ServerThread, profile: str, secret: str | None = None) -> dict[str, Any]:
    answer = server.http.get(f"/api/players/{profile}", headers=_as(secret) if secret else {})
    assert answer.status_code == 200, answer.text
    page: dict[str, Any] = answer.json()
    return page


def test_two_profiles_see_their_ratings_history_and_each_other(server: ServerThread) -> None:
    ann, bea = _make(server, "Ann"), _make(server, "Bea")
    ann_id, bea_id = ann["profile"]["id"], bea["profile"]["id"]
    tid = _play(server, [None, None], [ann["secret"], bea["secret"]])
    seen = {who: _player(server, who) for who in (ann_id, bea_id)}
    places = {}
    for who, other in [(ann_id, bea_id), (bea_id, ann_id)]:
        page = seen[who]
        assert not page["mine"] and page["opponents"] == [] and not page["more"]
        (rating,) = page["ratings"]
        assert rating["game"] == "ace-pit" and rating["matches"] == 1
        (match,) = page["matches"]
        assert match["replay"] == f"/t/{tid}#replay=1&as=all"
        assert [o["profile"] for o in match["others"]] == [other]
        assert match["rating"] == rating["rating"] == 1500 + match["change"]
        places[who] = match["place"]
    # The winner gained (a tie: nobody moved far), the loser lost.
    if places[ann_id] != places[bea_id]:
        winner, loser = sorted(places, key=lambda who: places[who])
        assert seen[winner]["matches"][0]["change"] > 0 > seen[loser]["matches"][0]["change"]
    # The replay is there to watch.
    assert server.http.get(f"/api/tables/{tid}/matches/1/replay").status_code == 200
    # Ann's own page lists Bea, with the table to play again.
    mine = _player(server, ann_id, ann["secret"])
    assert mine["mine"]
    (met,) = mine["opponents"]
    assert (met["id"], met["name"], met["game"]) == (bea_id, "Bea", "ace-pit")
    again = met["again"]
    assert again["seats"] == [None, None] and again["rules"] == {"hands": 1}
    made = server.http.post("/api/tables", json=again)
    assert made.status_code == 201, made.text
    assert made.json()["table"]["settings"]["listed"] is False
    # The leaderboard lists nobody with one match.
    board = server.http.get("/api/leaderboard/ace-pit").json()
    assert board["least"] == ratings.LEAST_MATCHES and board["total"] == 0


def test_guests_bots_and_unlisted_tables(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bea = _make(server, "Ann"), _make(server, "Bea")
    ann_id = ann["profile"]["id"]
    _play(server, [None, "greedy"], [ann["secret"]])  # one person: not rated
    assert _player(server, ann_id)["ratings"] == []
    _play(server, [None, None], [ann["secret"], None])  # a guest: Ann is rated
    hidden = _play(server, [None, None], [ann["secret"], bea["secret"]], listed=False)
    page = _player(server, ann_id)
    assert page["ratings"][0]["matches"] == 2
    private, public = page["matches"]
    assert private["table"] is None and private["replay"] is None and private["others"] == []
    assert [o["kind"] for o in public["others"]] == ["guest"]
    assert public["others"][0]["name"] == "Guest 1"
    # Ann herself sees the unlisted table, and Bea among those she met; the guest is nobody's.
    mine = _player(server, ann_id, ann["secret"])
    assert mine["matches"][0]["table"] == hidden
    assert [o["name"] for o in mine["opponents"]] == ["Bea"]
    # With one match enough, the leaderboard lists both, in order of the range's low end.
    monkeypatch.setattr(ratings, "LEAST_MATCHES", 1)
    board = server.http.get("/api/leaderboard/ace-pit").json()
    assert {row["name"] for row in board["leaders"]} == {"Ann", "Bea"}
    lows = [row["low"] for row in board["leaders"]]
    assert lows == sorted(lows, reverse=True) and board["total"] == 2
    assert [row["place"] for row in board["leaders"]] == [1, 2]


def test_a_guessed_id_gives_nothing_and_a_page_holds_no_secret(server: ServerThread) -> None:
    ann = _make(server, "Ann")
    ann_id = ann["profile"]["id"]
    assert server.http.get("/api/players/AAAAAAAAAAAA").status_code == 404
    assert server.http.get("/api/players/" + "x" * 40).status_code == 422
    wrong = server.http.get(f"/api/players/{ann_id}", headers=_as("not-a-secret"))
    assert wrong.status_code == 401
    # Another profile's secret sees Ann's page as anyone does.
    bea = _make(server, "Bea")
    assert not _player(server, ann_id, bea["secret"])["mine"]
    raw = json.dumps(_player(server, ann_id, ann["secret"]))
    for secret in (ann["secret"], ann["device"], bea["secret"]):
        assert secret not in raw
    assert server.http.get("/api/leaderboard/chess").status_code == 404
    assert server.http.get("/api/leaderboard/pitch?page=-1").status_code == 422
    for page in ("/p/" + ann_id, "/leaders", "/leaders/pitch"):
        assert server.http.get(page).status_code == 200
    assert server.http.get("/leaders/chess").status_code == 404
    # Ratings are read, never written, over HTTP: a client has nothing to claim with.
    spec = server.http.get("/openapi.json").json()["paths"]
    ours = [p for p in spec if p.startswith(("/api/players", "/api/leaderboard"))]
    assert ours and all(set(spec[p]) == {"get"} for p in ours)


def test_a_missed_rating_is_caught_up_once(stores: tuple[Store, Store]) -> None:
    store, other = stores

    async def main() -> None:
        ann, bea = await _with_profiles(store, "Ann", "Bea")
        # Finished, but the server stopped before rating them.
        await _finished_match(store, "t1", [ann, bea], [1, 2])
        await _finished_match(store, "t2", [ann, None, "bot:greedy"], [2, 1, 3])
        await _finished_match(store, "solo", [ann, "bot:greedy"], [1, 2])
        await _finished_match(store, "guests", [None, None], [1, 2])
        assert await store.run(rows.unrated(0)) == [("t1", 1), ("t2", 1)]
        assert await store.run(rows.unrated(time.time() + 60)) == []
        # Two workers start at once: each profile's rating moves once a match.
        done = await asyncio.gather(ratings.rate_missed(store, 0), ratings.rate_missed(other, 0))
        assert sum(done) == 3
        held, rated = await store.run(_rows)
        assert [(r[0], r[4]) for r in held] == [(ann, 2), (bea, 1)]
        assert len(rated) == 3
        assert await store.run(rows.unrated(0)) == []

    run(main())
