"""How long the server's worker processes take to start, against spawning them.

The server builds replays and runs search bots in process pools whose workers come
from a fork server (`pitkit.server.live.workers`). The anchor, in the same run, is
``spawn``: a new interpreter for each worker, as the server started them before.
Each round starts a pool of one worker, asks it for its process id, and shuts it
down; the first round of the fork server includes the fork server's own start.
Reports the wall time of each round and the CPU its worker took before answering,
as the worker reads it (`time.process_time`: a forked worker's count starts at its
fork, a spawned one's with its interpreter).

    python benchmarks/worker_start.py [--rounds 4]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import time

from pitkit.server.live.workers import worker_context


def rounds(method: str, count: int) -> list[tuple[float, float]]:
    """(wall seconds, the worker's CPU seconds) of each round."""
    out = []
    for _ in range(count):
        if method == "fork server":
            context = worker_context()
        else:
            context = multiprocessing.get_context(method)
        started = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            cpu = pool.submit(time.process_time).result()
            out.append((time.perf_counter() - started, cpu))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    print("| start method | first worker | each later worker | CPU of each worker |")
    print("|---|---:|---:|---:|")
    for method in ("spawn", "fork server"):
        measured = rounds(method, args.rounds)
        later = [wall for wall, _ in measured[1:]]
        cpus = [cpu for _, cpu in measured]
        print(
            f"| {method} | {measured[0][0]:.2f} s | {min(later):.2f}-{max(later):.2f} s "
            f"| {min(cpus):.2f}-{max(cpus):.2f} s |"
        )


if __name__ == "__main__":
    main()
