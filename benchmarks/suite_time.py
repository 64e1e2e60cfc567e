"""Time the default test run (``pytest``) and check the figure the README states.

Runs ``python -m pytest`` with the project's default options (``-m 'not slow' -n auto``), its
output passed through, and prints the wall time, the CPU time of pytest and its workers (user
+ system) and the count of tests that passed. With ``--check README.md`` it also reads the
figures the README states and fails if the measured CPU time is more than half as much again
as stated or less than half of it: the README's figure is then stale and must be re-measured.
The CPU time is compared, not the wall time, which depends on the machine's cores and load.

Usage::

    python benchmarks/suite_time.py                    # run and print the figures
    python benchmarks/suite_time.py --check README.md  # and compare them with the README (CI)
    python benchmarks/suite_time.py -- -n 2            # extra options for pytest after --
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

#: The README's sentence: "The default run (`pytest`, 4,123 tests) took 80 s of wall time
#: and 150 CPU-seconds ...".
STATED = re.compile(
    r"default run \(`pytest`, (?P<tests>[\d,]+) tests\) took (?P<wall>\d+) s of wall time"
    r" and (?P<cpu>\d+) CPU-seconds"
)
#: How far the measured CPU time may stray from the stated one before the figure is stale.
TOLERANCE = 1.5


def run_suite(pytest_args: list[str]) -> dict[str, float | int]:
    """Run the default test run; its wall and CPU seconds, passed tests and exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", *pytest_args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
    )
    assert process.stdout is not None
    last_line = ""
    for line in process.stdout:
        sys.stdout.write(line)
        last_line = line if line.strip() else last_line
    returncode = process.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    passed = re.search(r"(\d+) passed", last_line)
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "passed": int(passed[1]) if passed else 0,
        "cores": os.cpu_count() or 1,
        "returncode": returncode,
    }


def stated_figures(readme: Path) -> dict[str, int]:
    """The test count, wall and CPU seconds the README states."""
    match = STATED.search(" ".join(readme.read_text(encoding="utf-8").split()))
    if match is None:
        raise SystemExit(f"{readme}: no sentence matching {STATED.pattern!r}")
    return {key: int(value.replace(",", "")) for key, value in match.groupdict().items()}


def stale(measured: dict[str, float | int], stated: dict[str, int]) -> str | None:
    """Why the stated CPU time no longer describes the measured run, or None if it does."""
    cpu, said = measured["cpu_s"], stated["cpu"]
    if cpu > TOLERANCE * said:
        return f"the run took {cpu} CPU-seconds, more than {TOLERANCE} x the stated {said}"
    if cpu < said / TOLERANCE:
        return f"the run took {cpu} CPU-seconds, less than the stated {said} / {TOLERANCE}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, help="the README whose figures to compare")
    parser.add_argument("pytest_args", nargs="*", help="options for pytest (after --)")
    args = parser.parse_args(argv)
    stated = stated_figures(args.check) if args.check else None  # before a long run
    measured = run_suite(args.pytest_args)
    print(json.dumps(measured))
    if measured["returncode"] != 0:
        return int(measured["returncode"])
    reason = stale(measured, stated) if stated else None
    if reason:
        print(f"{args.check}: {reason}; re-measure and update it", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
