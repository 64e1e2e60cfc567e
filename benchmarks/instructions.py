"""Instructions per ``world.update(1/60)`` of one scenario, counted by valgrind's callgrind.

Milliseconds on a shared machine move by 1.5x from one minute to the next; instruction counts
do not: the same code on the same inputs gives the same count to a fraction of a percent,
whatever else the machine is doing. So two versions of a change can be compared by running
this on each. A count misses what memory and branches cost (a binary search's mispredicted
branches, say), so confirm a win in milliseconds with ``run.py`` when the machine is quiet.

The scenario is run twice under callgrind, for ``--skip`` updates and for ``--skip`` plus
``--updates``, and the difference is divided by ``--updates``: building the world and importing
everything cancel out. Takes a few minutes (callgrind is ~50x slower).

``--solid-step`` counts the solid step alone (``keep_out``, which keeps solid agents out of
walls and obstacles): a third run calls it twice in each counted update, the second call's
result thrown away so the agents move as before, and the difference from the plain run is the
step's own count (on the native path, plus the copies that put the agents back between the
two calls).

Usage::

    python benchmarks/instructions.py squads 1000
    python benchmarks/instructions.py walls 1000 --updates 20
    python benchmarks/instructions.py solid 1000 --solid-step
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenarios import Scenario, all_scenarios

DT = 1 / 60


def _run(scenario: Scenario, agents: int, updates: int, twice_after: int | None) -> None:
    """Build the scenario and update it ``updates`` times (what callgrind counts); from
    update ``twice_after`` on, if given, the solid step runs twice."""
    world = scenario.build(agents)
    for index in range(updates):
        if index == twice_after:
            _solid_step_twice()
        world.update(DT)


def _solid_step_twice() -> None:
    """Make the integrator call the solid step twice, using the first call's result (on the
    native path, which writes in place, the agents' positions and velocities are put back
    between the two)."""
    import numpy as np

    from arcade_steering._native.solid_step import NativeSolid
    from arcade_steering.component import integrate

    once, native_once = integrate.keep_out, NativeSolid.keep_out

    def twice(*args: Any) -> tuple[Any, Any]:
        once(*args)
        return once(*args)

    def native_twice(self: NativeSolid, agents: Any, *rest: Any) -> int:
        # The agents' columns the as_agents struct points at, which the C writes.
        size = 16 * agents.capacity
        columns = [
            np.frombuffer(self._ffi.buffer(c, size)) for c in (agents.position, agents.velocity)
        ]
        saved = [column.copy() for column in columns]
        native_once(self, agents, *rest)
        for column, values in zip(columns, saved, strict=True):
            column[...] = values
        return native_once(self, agents, *rest)

    integrate.keep_out = twice
    NativeSolid.keep_out = native_twice  # type: ignore[method-assign]


def _count(scenario: str, agents: int, updates: int, twice_after: int | None = None) -> int:
    """Instructions of a whole run of ``updates`` updates, under callgrind."""
    # Address-space randomisation off: numpy's SIMD loops take other paths for other
    # alignments, which moved a 13-agent update's count by 4% from run to run.
    steady = ["setarch", "-R"] if shutil.which("setarch") else []
    command = [
        *steady,
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        os.path.abspath(__file__),
        "--inner",
        scenario,
        str(agents),
        "--updates",
        str(updates),
        *([] if twice_after is None else ["--twice-after", str(twice_after)]),
    ]
    # A fixed hash seed: set and dict orders, and so the work done, repeat from run to run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    scenarios = {scenario.name: scenario for scenario in all_scenarios()}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=sorted(scenarios))
    parser.add_argument("agents", type=int)
    parser.add_argument("--updates", type=int, default=200, help="updates counted (200)")
    parser.add_argument("--skip", type=int, default=10, help="updates left out first (10)")
    parser.add_argument(
        "--solid-step", action="store_true", help="also count the solid step alone (a third run)"
    )
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--twice-after", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        _run(scenarios[args.scenario], args.agents, args.updates, args.twice_after)
        return 0
    if shutil.which("valgrind") is None:
        parser.error("needs valgrind (Debian: apt install valgrind)")
    if args.updates < 1 or args.skip < 0:
        parser.error("--updates must be >= 1 and --skip >= 0")
    before = _count(args.scenario, args.agents, args.skip)
    after = _count(args.scenario, args.agents, args.skip + args.updates)
    per_update = (after - before) / args.updates
    print(f"{args.scenario} N={args.agents}: {per_update:,.0f} instructions per update")
    if args.solid_step:
        doubled = _count(args.scenario, args.agents, args.skip + args.updates, args.skip)
        solid = (doubled - after) / args.updates
        print(f"{args.scenario} N={args.agents}: {solid:,.0f} of them in the solid step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
