#!/usr/bin/env bash
# Usage: scripts/beside.sh LOG BACKGROUND COMMAND...
#
# Runs the shell command BACKGROUND at the lowest priority (nice 19) while COMMAND runs,
# so that it takes only the CPU COMMAND leaves idle; its output goes to LOG and is shown
# once both are done. `make test` makes lint and the compiled wheel this way beside the
# first stage of tests (docs/testing.md, "Lint and the wheel beside the first stage").
#
# When COMMAND ends, what is left of BACKGROUND goes on at the normal priority (this
# script's own). At nice 19 it gets a share of 15 in 1,039 of a core from each process
# of normal priority that wants one: beside other work (a busy machine, `stress-ng`), it
# would hardly move at all.
# Its priority is raised where that is allowed (root, CAP_SYS_NICE); elsewhere it is
# stopped and run again from the start, at the normal priority (make keeps what it had
# finished: the wheel once built, mypy's cache).
#
# Exits non-zero when either failed.
set -u
log=$1
background=$2
shift 2

# Its own session: its process group is its pid, for renice and kill to reach every
# process it starts (make, mypy, pip, gcc).
setsid nice -n 19 bash -c "$background" > "$log" 2>&1 &
group=$!
trap 'kill -- -"$group" 2>/dev/null; exit 130' INT TERM

"$@"
ran=$?

# Raised, or else stopped (a kill that finds nothing: it had just finished) and run again.
if kill -0 "$group" 2>/dev/null && ! renice --priority "$(nice)" -g "$group" > /dev/null 2>&1 \
	&& kill -- -"$group" 2>/dev/null; then
	wait "$group"
	echo "(stopped at nice 19 and made again at the normal priority)" >> "$log"
	bash -c "$background" >> "$log" 2>&1 &
	group=$!
fi
wait "$group"
made=$?

echo "-- made beside: $background (exit $made) --"
cat "$log"
test "$ran" -eq 0 -a "$made" -eq 0
