"""Where a server's CPU goes: py-spy's samples of a running process, summed by function.

`record` samples a process (every thread) with py-spy while it holds the GIL,
which is the CPU its Python uses (waiting on a socket, a lock or fsync is left
out); `summary` sums the samples by function, as the share of all samples
that were in it (inclusive, pitkit's functions) and that were in it and not
in a function it called (self, every function). A thread that holds the GIL
while the machine runs something else is still sampled: on a busy machine
the functions that make system calls (waking another thread, writing to a
socket) look dearer than their CPU. `benchmarks/load.py --profile FILE` records the server over
its measured window.

py-spy is not one of pitkit's dependencies: install it on its own
(`pip install py-spy==0.4.3`; it reads another process's memory, so as root or
with ptrace allowed).

    python benchmarks/spy.py FILE [--top 30]      # a summary of a recording
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
from pathlib import Path

__all__ = ["record", "summary"]

_FRAME = re.compile(r"(?P<name>.*) \((?P<file>.*?)(?::\d+)?\)$")


def record(pid: int, seconds: float, out: Path, rate: int = 250) -> subprocess.Popen[bytes]:
    """Start py-spy sampling process `pid` for `seconds` into `out` (its raw format: a
    line a distinct stack, its frames separated by ";", then its count of samples)."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--profile needs py-spy on the PATH (pip install py-spy==0.4.3)")
    command = [spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds)))]
    command += ["--rate", str(rate), "--gil", "--threads", "--format", "raw"]
    command += ["--output", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _function(frame: str) -> str:
    """A frame as "name (file)", the file from the package down (`pitkit/...`)."""
    found = _FRAME.match(frame)
    if found is None:
        return frame  # a thread's name
    path = found["file"].split("site-packages/")[-1].split("src/")[-1]
    return f"{found['name']} ({path})"


def summary(path: Path, top: int = 30) -> str:
    """The `top` functions of a recording by inclusive and by self share, as markdown."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        total += n
        functions = [_function(f) for f in stack.split(";")[1:]]  # the thread's name first
        for name in set(functions):
            inclusive[name] += n
        if functions:
            own[functions[-1]] += n
    if not total:
        return "no samples (was the process idle, or py-spy refused?)"
    lines = [f"{total:,} samples holding the GIL", "", "| inclusive | self | function |"]
    lines.append("|---:|---:|---|")
    # Inclusive: pitkit's own functions (the frameworks' wrap whole sockets), less those
    # every sample has (the server's start).
    common = {name for name, n in inclusive.items() if n >= 0.85 * total}
    ours = [name for name, _ in inclusive.most_common() if "(pitkit/" in name]
    shown = [name for name in ours if name not in common][:top]
    for name in shown:
        lines.append(f"| {inclusive[name] / total:.1%} | {own[name] / total:.1%} | `{name}` |")
    lines += ["", "| self | function |", "|---:|---|"]
    for name, n in own.most_common(top):
        lines.append(f"| {n / total:.1%} | `{name}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="a recording (py-spy's raw format)")
    parser.add_argument("--top", type=int, default=30, help="functions listed in each table")
    args = parser.parse_args()
    print(summary(args.file, args.top))
