"""The hand-written peer of ``benchmarks/small_worlds.py`` behaves like the library.

The benchmark times the library against a per-agent pure-Python loop; the comparison is fair
only while the two do the same thing. Both run the same scenario, each with its own sprites,
and the figures are measured from the sprites alone: arrivals, the leader's progress along its
route, the followers' distance to it, the time they spend in its sight cone, wall crossings
and penetrations (none for either), and how far apart the same agent is in the two runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "benchmarks"))

import small_worlds


def test_arrive_every_agent_stops_on_the_target_on_the_same_paths() -> None:
    result = small_worlds.check("arrive", 30, 2700)  # 45 s: the farthest need about 42
    library, peer = result["library"], result["peer"]
    assert library["arrived_fraction"] == peer["arrived_fraction"] == 1.0
    assert library["max_distance_px"] <= small_worlds.ARRIVE_TOLERANCE
    assert peer["max_distance_px"] <= small_worlds.ARRIVE_TOLERANCE
    assert abs(library["all_arrived_s"] - peer["all_arrived_s"]) <= 0.1
    assert result["apart_px_max"] < 1.0


def assert_alike(library: dict, peer: dict) -> None:
    """The demo's figures agree: progress, distance, sight cone; no wall for either."""
    assert library["leader_progress_px_s"] > 60  # it patrols (80 px/s top speed)
    assert peer["leader_progress_px_s"] == pytest.approx(library["leader_progress_px_s"], rel=0.03)
    assert peer["follower_distance_px"] == pytest.approx(library["follower_distance_px"], rel=0.1)
    assert abs(peer["sight_cone_fraction"] - library["sight_cone_fraction"]) < 0.02
    for side in (library, peer):
        assert side["sight_cone_fraction"] < 0.05
        assert side["wall_crossings"] == 0
        assert side["wall_penetrations"] == 0
        assert side["obstacle_penetrations"] == 0


def test_demo_squad_follows_its_leader_like_the_library() -> None:
    result = small_worlds.check("demo", 13, 600)  # the demo's leader and 12 followers, 10 s
    assert_alike(result["library"], result["peer"])
    assert result["apart_px_mean"] < 1.0  # at the demo's density, the same paths


def test_demo_copies_of_the_level_behave_alike() -> None:
    result = small_worlds.check("demo", 30, 300)  # three copies of the level, 5 s
    assert result["library"]["wall_crossings"] == result["peer"]["wall_crossings"] == 0
    assert result["apart_px_mean"] < 1.0


@pytest.mark.slow
def test_crowded_squad_behaves_alike_where_the_paths_part() -> None:
    # 59 followers in the demo's level, 60 s: pressed into walls and obstacles, where the two
    # solid steps differ, so paths part; the figures stay alike and nobody crosses a wall.
    result = small_worlds.check("demo", 60, 3600, squad=60)
    assert_alike(result["library"], result["peer"])


def test_numpy_floor_takes_the_library_s_paths() -> None:
    """``numpy_floor.py`` times a hand-fused ``Arrive`` against the library: fair only while
    it does what the library does, to the last bits, on the way and at the stop."""
    import numpy_floor

    assert numpy_floor.same_paths(30, updates=120) < 1e-9  # on the way
    assert numpy_floor.same_paths(5, updates=2700) < 1e-9  # after every agent stopped
