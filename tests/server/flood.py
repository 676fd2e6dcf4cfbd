"""A junk client at the socket level: a raw WebSocket from a chosen loopback address
that sends frames as fast as the server takes them and never reads, as the probe of
issue 36 did (benchmarks/hostile.py's `junk`)."""

from __future__ import annotations

import base64
import os
import socket
import time
from dataclasses import dataclass

from tests.waiting import patience

JUNK = '{"type":"act","action":"\\u0000","version":1e400}'
"""A malformed action (a NUL, and a version beyond any float)."""


def raw_socket(port: int, table: str, source: str = "127.0.0.1") -> socket.socket:
    """A WebSocket to `table`, opened by hand from `source` (no library reads for it),
    with a small send buffer of its own: what the server takes is what it reads, or
    what its own buffers hold."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    sock.settimeout(patience(5))  # the handshake's deadline
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        got = sock.recv(4096)
        assert got, "the server closed the socket during the handshake"
        head += got
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def frame(text: str) -> bytes:
    """One client text frame (masked, with a zero key: the payload goes as is)."""
    payload = text.encode()
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


@dataclass
class Flood:
    """What a flood came to."""

    sent: int = 0
    """Bytes the server took (read, or let its buffers take)."""
    dropped: float | None = None
    """Seconds until the server dropped the socket (None: it held it throughout)."""


def flood(sock: socket.socket, within: float, text: str = JUNK) -> Flood:
    """Send `text` as fast as the server takes it until the server drops the socket,
    or for `within` seconds (not scaled: a caller waiting for the drop passes a
    deadline, `patience`). Frames are never cut: a broken frame would close the
    socket for a reason of its own."""
    chunk = memoryview(frame(text) * 256)
    sock.settimeout(0.05)
    start = time.monotonic()
    out = Flood()
    while time.monotonic() - start < within:
        try:
            sent = sock.send(chunk[out.sent % len(chunk) :])
        except TimeoutError:
            continue  # not read for now (back-pressure): the socket is still open
        except OSError:  # reset or broken: the server dropped it
            out.dropped = time.monotonic() - start
            break
        out.sent += sent
    return out


def dropped_within() -> float:
    """The most seconds a flood may last before the server drops it: 3 (at a public
    site's limits, 100 refusals read at most 200 a second: half a second on a quiet
    machine, 1.9 s once at load 10, and slack), scaled as a whole, since a busy
    machine's server reads the flood, as it does everything, slower. Still short of
    any other end (a 10 s closing handshake)."""
    return patience(3.0)
