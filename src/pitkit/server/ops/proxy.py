"""The proxy in front of several workers: HAProxy, configured for pitkit.

Every request about one table (`/api/tables/<id>...` and its WebSocket
`/ws/tables/<id>`) goes to the worker chosen by a consistent hash of the
table's id, so one worker serves all of a table's clients; everything else
(the lobby, new tables, pages, assets) goes round robin. When a worker stops
answering its health check, only its tables move, to the live workers, which
take them over from the database (owners.py); the clients reconnect by
themselves.

`pitkit proxy` prints this configuration or runs HAProxy with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

__all__ = [
    "exec_haproxy",
    "find_haproxy",
    "haproxy_config",
    "split_address",
    "start_haproxy",
]


def split_address(address: str) -> tuple[str, int]:
    """ "host:port" as (host, port); ValueError says what is wrong."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{address!r} is not host:port (for example 127.0.0.1:8001)")
    return host.strip("[]"), int(port)


def haproxy_config(listen: str, workers: Sequence[str], check_seconds: float = 1.0) -> str:
    """HAProxy's configuration: listen on `listen` ("host:port") and share the
    work between `workers` (each "host:port", a `pitkit serve --port`)."""
    if not workers:
        raise ValueError("give at least one worker (host:port)")
    host, port = split_address(listen)
    servers = []
    for i, worker in enumerate(workers, 1):
        whost, wport = split_address(worker)
        servers.append(f"    server worker{i} {whost}:{wport}")
    servers_text = "\n".join(servers)
    inter = max(100, int(check_seconds * 1000))
    return f"""\
# pitkit behind HAProxy: written by `pitkit proxy` (docs/deploy.md).
global
    # No maxconn: HAProxy sizes it from the open-files limit (`ulimit -n`; raise that).

defaults
    mode http
    option http-keep-alive
    option forwardfor          # the workers need --trusted-proxy for the proxy's address
    option redispatch          # a connection refused by a dead worker goes to a live one
    retries 3
    retry-on conn-failure empty-response   # also a request lost with its worker
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    timeout tunnel 1h          # a WebSocket stays open while a game lasts
    # A dead worker refuses the check at once; a busy one may answer slowly, and must
    # not be marked down for it (its sockets would all be cut): 5 s, three misses.
    timeout check 5s
    default-server check inter {inter}ms fall 3 rise 2 on-marked-down shutdown-sessions

frontend pitkit
    bind {host}:{port}
    # The table a request is about, from its path: /api/tables/<id>/..., /ws/tables/<id>.
    acl about_a_table path_beg /api/tables/ /ws/tables/
    http-request del-header X-Pitkit-Table
    http-request set-header X-Pitkit-Table %[path,field(4,/)] if about_a_table
    use_backend tables if {{ req.hdr(X-Pitkit-Table) -m found }}
    default_backend workers

backend tables
    # One worker per table; when one dies only its tables move (consistent hashing).
    balance hdr(X-Pitkit-Table)
    hash-type consistent
    option httpchk GET /healthz
{servers_text}

backend workers
    balance roundrobin
    option httpchk GET /healthz
{servers_text}
"""


def find_haproxy() -> str:
    """The haproxy program; FileNotFoundError says how to install it."""
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if found is None:
        raise FileNotFoundError("HAProxy is not installed: `apt-get install haproxy` (Debian)")
    return found


def _command(config: str) -> list[str]:
    """HAProxy's command line for `config` (written to a file of its own, and
    checked first: a ValueError carries HAProxy's complaint)."""
    program = find_haproxy()
    path = Path(tempfile.mkdtemp(prefix="pitkit-haproxy-")) / "haproxy.cfg"
    path.write_text(config)
    check = subprocess.run([program, "-c", "-q", "-f", str(path)], capture_output=True, text=True)
    if check.returncode:
        raise ValueError(f"HAProxy refused the configuration: {check.stderr.strip()}")
    return [program, "-db", "-f", str(path)]  # -db: in the foreground


def start_haproxy(config: str, quiet: bool = False) -> subprocess.Popen[bytes]:
    """HAProxy running `config`, as a child process."""
    out = subprocess.DEVNULL if quiet else None
    return subprocess.Popen(_command(config), stdout=out, stderr=out)


def exec_haproxy(config: str) -> NoReturn:
    """Become HAProxy running `config` (so that a service manager's signals reach it)."""
    command = _command(config)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)
