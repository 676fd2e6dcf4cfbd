"""What a move costs the browser to draw at a table: the page's CPU per click.

A person plays Pitty Pat against three sensible bots (first to three hands) in
Chromium's headless shell (Debian's, as the browser tests use) at a laptop's size,
clicking the simplest move (`tests.browser.helpers.play_until_over`). The CPU of the
page's renderer and of the browser's GPU process (which composites the frames in
software here) is read from /proc over the match and divided by the clicks. Each
comparison has its anchor in the same run and the same browser; the looks take
turns, match by match:

- `felt` (a device that asks for less motion, so no animations): the felt now,
  against the felt as it was drawn until 2026-11-29, darkened toward the rim by a
  blurred inset shadow, with a blurred drop shadow under it (put back by a style
  sheet);
- `flash` (animations on, as on most devices): a seat's flash now, a ring that only
  fades and grows, against the flash as it was until 2026-11-30, a glow of the
  plate's own shadow (put back by a script that turns the one animation into the
  other).

    PYTHONPATH=. python benchmarks/table_drawing.py [--compare flash] [--matches 6]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ServerThread, known_player
from tests.browser.helpers import play_until_over

SHADOWED = (
    ".felt { background: radial-gradient(ellipse at 50% 45%, var(--felt-1), var(--felt-2) 75%)"
    " !important; box-shadow: inset 0 0 40px rgba(0, 0, 0, .45), 0 6px 18px rgba(0, 0, 0, .5)"
    " !important; }"
)
# The flash as it was: the plate's own shadow grew and faded, which the browser paints
# again at every frame. The colour is the felt's --flash-<seat> that the flash now sets.
GLOW = """(() => {
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (options && options.pseudoElement === '::before' && this.matches('.seat')) {
      const felt = document.getElementById('felt');
      const colour = getComputedStyle(felt).getPropertyValue(`--flash-${this.dataset.seat}`);
      return animate.call(this,
        [{boxShadow: `0 0 0 0 ${colour}`}, {boxShadow: `0 0 0 8px ${colour}`},
          {boxShadow: '0 0 0 0 transparent'}],
        {duration: 700, easing: 'ease-out'});
    }
    return animate.call(this, frames, options);
  };
})()"""


@dataclass(frozen=True)
class Look:
    """A way the table is drawn: a style sheet and a script added to the page, and
    whether the device asks for less motion."""

    style: str = ""
    script: str = ""
    reduced_motion: bool = True


COMPARISONS = {
    "felt": {"the felt now": Look(), "shadowed felt (anchor)": Look(style=SHADOWED)},
    "flash": {
        "the flash now": Look(reduced_motion=False),
        "the flash as a glow (anchor)": Look(script=GLOW, reduced_motion=False),
    },
}


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def drawing_cpu() -> float:
    """CPU seconds so far of this process's Chromium renderers and GPU process."""
    me, ticks = os.getpid(), 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if b"--type=renderer" not in command and b"--type=gpu-process" not in command:
            continue
        pid = int(entry)
        while pid > 1 and pid != me:
            pid = _parent(pid)
        if pid == me:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def one_match(browser: Browser, server: ServerThread, look: Look) -> tuple[int, float]:
    """Play one match drawn as `look`: (clicks, drawing CPU seconds)."""
    bots = ["sensible"] * 3
    _, invite = server.create("pitty-pat", [None, *bots], {"target": 3})
    context = known_player(
        browser.new_context(
            viewport={"width": 1366, "height": 900},
            reduced_motion="reduce" if look.reduced_motion else "no-preference",
            bypass_csp=True,
        )
    )
    if look.script:
        context.add_init_script(look.script)
    page = context.new_page()
    page.goto(invite)
    if look.style:
        page.add_style_tag(content=look.style)
    page.wait_for_selector("body[data-state=playing]")
    before = drawing_cpu()
    clicks = play_until_over(page, timeout=300, pause=0.04)
    spent = drawing_cpu() - before
    context.close()
    return clicks, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", choices=COMPARISONS, default="felt", help="which looks")
    parser.add_argument("--matches", type=int, default=6, help="matches of each look")
    args = parser.parse_args()
    looks = COMPARISONS[args.compare]
    per_click: dict[str, list[float]] = {name: [] for name in looks}
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = ServerThread(Path(data))
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for _ in range(args.matches):
                for name, look in looks.items():
                    clicks, spent = one_match(browser, server, look)
                    per_click[name].append(1000 * spent / max(clicks, 1))
                    time.sleep(0.5)  # the last frames drawn, before the next match's count
        finally:
            browser.close()
            server.stop()
    print("| look | matches | renderer and GPU CPU a click, median (range) |")
    print("|---|---:|---:|")
    for name, values in per_click.items():
        middle, low, high = statistics.median(values), min(values), max(values)
        print(f"| {name} | {len(values)} | {middle:.0f} ms ({low:.0f}-{high:.0f}) |")


if __name__ == "__main__":
    main()
