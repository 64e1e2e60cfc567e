"""Behaviour trees as data: every component round-trips through JSON to the same bits, and
malformed data (hand-written, fuzzed) is refused with the field named, nothing built."""

from __future__ import annotations

import json
import time
from typing import Any

import arcade
import numpy as np
import pytest
from conftest import short_and_long
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import COMPONENTS, furnish, make

import arcade_steering as steer
from arcade_steering.params import param, target
from arcade_steering.testing import StubSprite
from arcade_steering.tree_data import BUILT_IN

UPDATES = 300


def _run(tree_for, seed: int = 3, updates: int = UPDATES) -> np.ndarray:
    """Positions and angles after ``updates`` updates of six agents steered by
    ``tree_for(leader)``, beside walls and an obstacle, with a leader circling."""
    world = steer.SteeringWorld(seed=seed)
    furnish(world)
    leader = StubSprite(5.0, 5.0)
    world.attach(leader, steer.Wander(), velocity=(50.0, 0.0), max_speed=60)
    tree = tree_for(leader)
    sprites = [StubSprite(-60.0 + 25 * i, -30.0 + 11 * (i % 3)) for i in range(6)]
    for index, sprite in enumerate(sprites):
        world.attach(sprite, tree, max_speed=120, velocity=(10.0 * index, 5.0), radius=6)
    for _ in range(updates):
        world.update(1 / 60)
    return np.array([(*s.position, s.angle) for s in [leader, *sprites]])


def _through_json(tree: steer.SteeringComponent, leader: Any) -> dict[str, Any]:
    """``tree`` written with every object named, and the names: ``leader`` for the leader."""
    named: dict[str, Any] = {}

    def name(obj: Any) -> str:
        if obj is leader:
            return "leader"
        if isinstance(obj, list) and all(member is leader for member in obj):
            return "squad"
        named[f"object{len(named)}"] = obj
        return f"object{len(named) - 1}"

    data = json.loads(json.dumps(steer.to_dict(tree, names=name), allow_nan=False))
    return {"data": data, "named": named}


def test_every_public_component_can_be_read_by_name() -> None:
    assert sorted(BUILT_IN) == COMPONENTS
    assert all(BUILT_IN[name] is getattr(steer, name) for name in COMPONENTS)


@short_and_long("updates", 100, UPDATES)
@pytest.mark.parametrize("name", COMPONENTS)
def test_every_component_steers_the_same_bits_after_a_round_trip(name: str, updates: int) -> None:
    written: dict[str, Any] = {}

    def original(leader: Any) -> steer.SteeringComponent:
        tree = make(name, leader)
        written.update(_through_json(tree, leader))
        return tree

    def loaded(leader: Any) -> steer.SteeringComponent:
        resolve = {"leader": leader, "squad": [leader], **written["named"]}
        return steer.from_dict(written["data"], resolve=resolve)

    first = _run(original, updates=updates)
    again = _run(loaded, updates=updates)
    assert np.array_equal(first, again)
    assert np.isfinite(first).all()


VARIANTS = {
    "path with radii, reversing": lambda leader: steer.FollowPath(
        steer.Path([(0, 0), (90, 10), (60, 80)], radius=12.0, radii=[5.0, 30.0]),
        at_end="reverse",
        direction=-1,
        always=True,
    ),
    "waypoints as points": lambda leader: steer.FollowWaypoints(
        np.array([(0.0, 0.0), (80.0, 0.0), (40.0, 70.0)]), mode="pingpong", arrive_radius=9.0
    ),
    "group among a squad": lambda leader: steer.WeightedBlend(
        (steer.Separation(30.0, among=[leader], fov=270.0), 2.0),
        (steer.Cohesion(80.0, among=[leader]), -0.5),
        (steer.Pursue(leader, max_prediction=0.5), 1.0),
    ),
    "nested priorities": lambda leader: steer.PriorityBlend(
        steer.AvoidAgents(max_neighbors=None),
        steer.Flee((0.0, 0.0), panic_distance=25.0),
        steer.PriorityBlend(steer.EvadeSightCone(leader, half_angle=15.0), steer.Wander()),
        threshold=0.5,
    ),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_parameters_away_from_their_defaults_round_trip(variant: str) -> None:
    written: dict[str, Any] = {}

    def original(leader: Any) -> steer.SteeringComponent:
        tree = VARIANTS[variant](leader)
        written.update(_through_json(tree, leader))
        return tree

    def loaded(leader: Any) -> steer.SteeringComponent:
        resolve = {"leader": leader, "squad": [leader], **written["named"]}
        return steer.from_dict(written["data"], resolve=resolve)

    assert np.array_equal(_run(original), _run(loaded))


@pytest.mark.parametrize(
    "region",
    [arcade.LRBT(-120.0, 140.0, -90.0, 110.0), [(-120, -90), (140, -90), (40, 40), (-100, 110)]],
    ids=["rect", "vertices"],
)
def test_a_containment_given_a_rect_or_vertices_round_trips_unnamed(region: Any) -> None:
    tree = steer.PriorityBlend(steer.Containment(region), steer.Wander())
    text = json.dumps(steer.to_dict(tree))
    assert json.loads(text)["children"][0]["region"][1][0] == 140.0  # vertices, by value
    again = steer.from_dict(json.loads(text))
    assert np.array_equal(_run(lambda leader: tree), _run(lambda leader: again))


def test_the_written_tree_reads_as_a_level_designer_would_write_it() -> None:
    flag = StubSprite(0, 0)
    tree = steer.PriorityBlend(steer.AvoidWalls(), steer.Arrive(flag, slowing_radius=60.0))
    data = steer.to_dict(tree, names={"flag": flag})
    assert data["version"] == 1
    assert data["type"] == "PriorityBlend"
    arrive = data["children"][1]
    assert arrive == {
        "type": "Arrive",
        "target": {"ref": "flag"},
        "slowing_radius": 60.0,
        "tolerance": 2.0,
    }
    # Defaults may be left out; a point target is a list.
    short = {"version": 1, "type": "Arrive", "target": [10, 20]}
    built = steer.from_dict(short)
    assert isinstance(built, steer.Arrive)
    assert built.target == (10, 20)
    assert built.slowing_radius == 100.0


class Orbit(steer.SteeringComponent):
    center: Any = target()
    radius: float = param(default=100.0, gt=0.0)

    def steer(self, ctx):
        return np.zeros((len(ctx), 2))


def test_a_games_own_components_are_read_by_class_name() -> None:
    data = steer.to_dict(Orbit((1.0, 2.0), radius=40.0))
    assert data == {"version": 1, "type": "Orbit", "center": [1.0, 2.0], "radius": 40.0}
    with pytest.raises(steer.TreeDataError, match=r"tree.type: unknown component 'Orbit'"):
        steer.from_dict(data)
    built = steer.from_dict(data, components=[Orbit])
    assert isinstance(built, Orbit)
    assert built.radius == 40.0


KEPT = StubSprite(1, 2)


def test_a_target_that_is_gone_is_refused() -> None:
    seek = steer.Seek(StubSprite(1, 2))  # held weakly: collected at once
    with pytest.raises(steer.TreeDataError, match=r"tree.target: the target is gone"):
        steer.to_dict(seek)


class Holder(steer.SteeringComponent):
    def __init__(self) -> None:
        self.memory = []

    def steer(self, ctx):
        return np.zeros((len(ctx), 2))


class Twice(steer.SteeringComponent):
    def __init__(self, child: steer.SteeringComponent) -> None:
        self._children = (child, child)


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        (steer.Seek(KEPT), r"tree.target: a StubSprite is written by name"),
        (
            steer.WeightedBlend((steer.Arrive(lambda: (1, 2)), 1.0)),
            r"tree.children\[0\].target: a function is written by name",
        ),
        (
            steer.Separation(10.0, among=[StubSprite(0, 0)]),
            r"tree.among: a list is written by name",
        ),
        (Holder(), r"tree: Holder holds attributes that are not declared parameters"),
        (Twice(steer.Seek((1, 1))), r"tree: Twice has children"),
    ],
)
def test_what_cannot_be_written_is_refused_naming_the_field(tree, message) -> None:
    with pytest.raises(steer.TreeDataError, match=message):
        steer.to_dict(tree)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="component must be a SteeringComponent"):
        steer.to_dict({"type": "Seek"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="names must be a mapping or a function"):
        steer.to_dict(steer.Seek((0, 0)), names=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="resolve must be a mapping or a function"):
        steer.from_dict({"version": 1, "type": "Seek", "target": [0, 0]}, resolve=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="components must be SteeringComponent classes"):
        steer.from_dict({"version": 1}, components=[dict])  # type: ignore[list-item]


SEEK = {"version": 1, "type": "Seek", "target": [0, 0]}
CHILD = {"type": "Seek", "target": [0, 0]}
MALFORMED = [
    ([SEEK], r"^tree must be a dictionary, got list"),
    ({"type": "Seek", "target": [0, 0]}, r"^tree.version must be 1, missing"),
    ({**SEEK, "version": 2}, r"^tree.version must be 1, got 2"),
    ({**SEEK, "version": True}, r"^tree.version must be 1"),
    ({**SEEK, "type": "Seeker"}, r"^tree.type: unknown component 'Seeker'"),
    ({**SEEK, "type": 3}, r"^tree.type: unknown component 3"),
    ({"version": 1}, r"^tree.type: unknown component None"),
    ({**SEEK, "speed": 3}, r"^tree: Seek has no field 'speed'"),
    ({"version": 1, "type": "Seek"}, r"^tree.target: missing \(required by Seek\)"),
    ({**SEEK, "target": [0, float("nan")]}, r"^tree.target\[1\] must be finite, got nan"),
    ({**SEEK, "target": [0, "a"]}, r"^tree.target"),
    ({**SEEK, "target": [0, 1, 2]}, r"^tree.target"),
    ({**SEEK, "target": "player"}, r"^tree.target"),
    ({**SEEK, "target": {"ref": "player"}}, r"^tree.target: resolve= gives nothing named"),
    ({**SEEK, "target": {"ref": 7}}, r"^tree.target.ref must be a name"),
    ({**SEEK, "target": {"ref": "a", "x": 1}}, r"^tree.target: a dictionary value must be"),
    (
        {"version": 1, "type": "Arrive", "target": [0, 0], "slowing_radius": -1},
        r"^tree.slowing_radius must be > 0",
    ),
    (
        {"version": 1, "type": "Arrive", "target": [0, 0], "tolerance": True},
        r"^tree.tolerance",
    ),
    (
        {"version": 1, "type": "Arrive", "target": [0, 0], "tolerance": float("inf")},
        r"^tree.tolerance must be finite",
    ),
    (
        {"version": 1, "type": "PriorityBlend", "children": []},
        r"^tree.children must be a non-empty list",
    ),
    (
        {"version": 1, "type": "PriorityBlend", "children": [3]},
        r"^tree.children\[0\] must be a dictionary, got int",
    ),
    (
        {"version": 1, "type": "WeightedBlend", "weights": [1.0], "children": [CHILD, CHILD]},
        r"^tree.weights must be a list of 2 numbers",
    ),
    (
        {"version": 1, "type": "WeightedBlend", "weights": [float("nan")], "children": [CHILD]},
        r"^tree.weights\[0\] must be finite",
    ),
    (
        {"version": 1, "type": "WeightedBlend", "weights": ["a"], "children": [CHILD]},
        r"^tree.weighted\[0\] weight must be a number",
    ),
    (
        {"version": 1, "type": "FollowPath", "path": {"path": {"points": [[0, 0]]}}},
        r"^tree.path.path.points must be at least 2",
    ),
    (
        {"version": 1, "type": "FollowPath", "path": {"path": {"radius": 3}}},
        r"^tree.path.path.points: missing",
    ),
    (
        {
            "version": 1,
            "type": "FollowPath",
            "path": {"path": {"points": [[0, 0], [1, 1]], "width": 3}},
        },
        r"^tree.path.path: a path has no field 'width'",
    ),
    (
        {"version": 1, "type": "FollowPath", "path": [[0, 0], [1, 1]]},
        r"^tree.path must be an arcade_steering.Path",
    ),
    (
        {
            "version": 1,
            "type": "FollowPath",
            "path": {"path": {"points": [[0, 0], [1, 1]]}},
            "at_end": "bounce",
        },
        r"^tree.at_end must be one of",
    ),
    (
        {"version": 1, "type": "Separation", "radius": 10, "among": {"ref": "squad"}},
        r"^tree.among: resolve= gives nothing named 'squad'",
    ),
    ({**SEEK, "target": [[[[[[[[0]]]]]]]]}, r"^tree.target"),
    # Whole numbers too large for a float are valid JSON (json.loads reads 10**400).
    ({**SEEK, "target": [10**400, 0]}, r"^tree.target\[0\] \(x\) is too large: a whole number"),
    (
        {"version": 1, "type": "Arrive", "target": [0, 0], "slowing_radius": -(10**400)},
        r"^tree.slowing_radius is too large",
    ),
    (
        {"version": 1, "type": "WeightedBlend", "weights": [10**400], "children": [CHILD]},
        r"^tree.weighted\[0\] weight is too large",
    ),
    ({"version": 1, "type": "AvoidAgents", "max_neighbors": 10**400}, r"^tree.max_neighbors"),
    (
        {"version": 1, "type": "AvoidAgents", "max_neighbors": 1e19},
        r"^tree.max_neighbors must be <= 1000000, got 1e\+19",
    ),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_malformed_data_is_refused_naming_the_field(data, message) -> None:
    with pytest.raises(steer.TreeDataError, match=message):
        steer.from_dict(data)


def test_nesting_beyond_the_limit_is_refused_not_a_recursion_error() -> None:
    tree: dict[str, Any] = dict(CHILD)
    for _ in range(10_000):
        tree = {"type": "PriorityBlend", "children": [tree]}
    with pytest.raises(steer.TreeDataError, match="nested deeper than 64"):
        steer.from_dict({**tree, "version": 1})
    deep: Any = 0
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(steer.TreeDataError, match="nested deeper than 64"):
        steer.from_dict({**SEEK, "target": deep})


def test_shared_dictionaries_are_counted_each_time_and_refused_quickly() -> None:
    # 41 dictionaries, each the two children of the one above (what YAML anchors give):
    # 2**41 components once expanded, which used to build forever.
    tree: dict[str, Any] = dict(CHILD)
    for _ in range(40):
        tree = {"type": "PriorityBlend", "children": [tree, tree]}
    started = time.perf_counter()
    with pytest.raises(steer.TreeDataError, match=r"more than 128 components \(max_nodes"):
        steer.from_dict({**tree, "version": 1})
    assert time.perf_counter() - started < 1.0
    shared: Any = [0.0, 0.0]
    for _ in range(40):
        shared = [shared, shared]
    with pytest.raises(steer.TreeDataError, match=r"^tree.target.*more than 100,000 values"):
        steer.from_dict({**SEEK, "target": shared})


def test_a_file_of_5000_seeks_is_refused_and_max_nodes_raises_the_limit() -> None:
    seeks = [{"type": "Seek", "target": [i, 0]} for i in range(5000)]
    text = json.dumps({"version": 1, "type": "PriorityBlend", "children": seeks})
    assert len(text) > 180_000
    with pytest.raises(steer.TreeDataError, match=r"^tree.children\[127\]: .*128 components"):
        steer.from_dict(json.loads(text))
    tree = steer.from_dict(json.loads(text), max_nodes=5001)
    assert len(tree.children) == 5000
    just = {"version": 1, "type": "PriorityBlend", "children": seeks[:127]}
    assert len(steer.from_dict(just).children) == 127  # 128 with the blend: at the limit
    with pytest.raises(ValueError, match="max_nodes"):
        steer.from_dict(just, max_nodes=0)


def test_a_refused_name_from_the_resolver_is_named() -> None:
    def resolve(name: str) -> Any:
        raise KeyError(name)

    with pytest.raises(steer.TreeDataError, match=r"tree.target: resolve= gives nothing named 'p'"):
        steer.from_dict({**SEEK, "target": {"ref": "p"}}, resolve=resolve)
    with pytest.raises(steer.TreeDataError, match="resolve gave None for 'p'"):
        steer.from_dict({**SEEK, "target": {"ref": "p"}}, resolve=lambda name: None)


# -- fuzzing --------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["Seek", "Arrive", "ref", "path", "loop", "leader"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["type", "ref", "path", "points", "children", "weights", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
VALID = [steer.to_dict(make(name, KEPT), names=lambda obj: "leader") for name in COMPONENTS]


def _fields(tree: Any, trail: tuple = ()) -> list[tuple]:
    """Every place in ``tree`` (dictionary keys and list indices), as key paths."""
    places = [trail]
    if isinstance(tree, dict):
        for key, value in tree.items():
            places += _fields(value, (*trail, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            places += _fields(value, (*trail, index))
    return places


@short_and_long("examples", 80, 400)
def test_fuzzed_trees_build_or_are_refused_with_a_tree_data_error(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def check(data) -> None:
        tree = json.loads(json.dumps(data.draw(st.sampled_from(VALID))))
        for _ in range(data.draw(st.integers(1, 3))):
            places = _fields(tree)
            place = data.draw(st.sampled_from(places))
            value = data.draw(json_values)
            if not place:
                tree = value
                continue
            holder = tree
            for key in place[:-1]:
                holder = holder[key]
            if data.draw(st.booleans()) and isinstance(holder, dict):
                holder.pop(place[-1], None)
            else:
                holder[place[-1]] = value
        leader = StubSprite(0, 0)
        try:
            built = steer.from_dict(tree, resolve={"leader": leader, "squad": [leader]})
        except steer.TreeDataError as error:
            assert str(error).startswith("tree")
        else:
            assert isinstance(built, steer.SteeringComponent)

    check()


@short_and_long("examples", 40, 200)
def test_arbitrary_json_is_refused_with_a_tree_data_error(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(value=json_values)
    def check(value) -> None:
        with pytest.raises(steer.TreeDataError):
            steer.from_dict(value)

    check()
