"""One table of bad arguments over the whole public API (issue #8).

Every row is a call that must be refused: the exception type (``ValueError`` for a bad value,
``TypeError`` for a wrong type, ``KeyError`` for an unknown sprite), a parameter name that must
appear in the message, and after the refusal a world that is exactly as it was (agents, their
state, walls, obstacles, the space's shapes) and, for assignments, the old value kept. The
world is then updated once to show it still runs.

Component rows are generated from the parameters each class *declares* (its ``Param``
descriptors), so a new parameter is covered as soon as it is declared; a test checks that the
builders below know every component in ``arcade_steering.__all__``.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import Any

import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering import formations, tiled
from arcade_steering._core.params import (
    ChoiceParam,
    FlagParam,
    GroupParam,
    NumberParam,
    Param,
    PointParam,
    TargetParam,
)
from arcade_steering._util.validate import check_point
from arcade_steering.behaviors.containment import check_region
from arcade_steering.behaviors.flow import check_field
from arcade_steering.behaviors.group import check_among
from arcade_steering.behaviors.paths import check_direction, check_path
from arcade_steering.behaviors.tactics import check_cover
from arcade_steering.behaviors.waypoints import check_waypoints
from arcade_steering.testing import (
    StubSprite,
    batch_forces,
    forces_one_by_one,
    steering_force,
)

NAN, INF = math.nan, math.inf
P = (100.0, 50.0)
DEMO_LEVEL = FilePath(__file__).parent.parent / "arcade_steering" / "demo" / "level.tmj"


@dataclass(frozen=True, repr=False)
class StubRect:
    """What Containment reads of an ``arcade.Rect``."""

    left: Any
    right: Any
    bottom: Any
    top: Any

    def __repr__(self) -> str:
        return f"LRBT({self.left!r},{self.right!r},{self.bottom!r},{self.top!r})"


# -- the world every row runs against -----------------------------------------------------------


@dataclass
class Env:
    """A small furnished world: three agents, a wall, a polyline, an obstacle, a path."""

    world: steer.SteeringWorld
    leader: StubSprite
    path: steer.Path
    field: steer.FlowField
    wall: pymunk.Segment
    obstacle: pymunk.Circle
    agent: steer.SteeringAgent
    sprites: list[StubSprite] = field(default_factory=list)

    def attach(self, component: steer.SteeringComponent) -> steer.SteeringComponent:
        """Attach ``component`` to a new sprite (so a refused assignment hits a live tree)."""
        sprite = StubSprite(-60.0, 20.0 * len(self.sprites))
        self.sprites.append(sprite)
        self.world.attach(sprite, component)
        return component


def make_env() -> Env:
    world = steer.SteeringWorld(seed=0)
    wall = world.add_wall((-200, -100), (200, -100), thickness=4)
    world.add_walls([(-200, 150), (0, 200), (200, 150)])
    obstacle = world.add_obstacle((60, 60), 15)
    leader = StubSprite(0, 0)
    world.attach(leader, steer.Wander(), velocity=(30, 10))
    path = steer.Path([(0, 0), (150, 0), (150, 100)], radius=15)
    sprite = StubSprite(20, -30)
    agent = world.attach(sprite, steer.FollowPath(path), velocity=(5, 0), max_speed=120)
    field = steer.FlowField(np.ones((3, 4, 2)), origin=(-64, -48), cell_size=32)
    env = Env(world, leader, path, field, wall, obstacle, agent, [leader, sprite])
    world.update(1 / 60)  # agents with a past: heading, force and per-agent state set
    return env


def snapshot(world: steer.SteeringWorld) -> tuple:
    """Everything a refused call must leave as it was."""
    agents = tuple(
        (
            id(a.sprite),
            a.position,
            a.velocity,
            a.heading,
            a.force,
            a.max_speed,
            a.max_force,
            a.mass,
            a.radius,
            a.response_time,
            id(a.behavior),
        )
        for a in world.agents
    )
    shapes = tuple(sorted(id(shape) for shape in world.space.shapes))
    return len(world), agents, len(world.geometry), len(world.space.shapes), shapes


def same(a: Any, b: Any) -> bool:
    """Equality that understands arrays and sequences of them."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a is b or a == b


# -- a row ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One refused call.

    Attributes:
        label: Test id.
        act: ``act(env, subject)`` makes the call that must be refused.
        error: The exception type expected.
        name: A parameter name the message must contain (as a whole word).
        subject: ``subject(env)`` builds what ``act`` works on, before the snapshot.
        keep: ``keep(subject)`` reads the value a refused assignment must leave alone.
        bug: Reason for a strict xfail: the library does not refuse this call properly yet.
        pure: The call cannot reach a world (a constructor of a component, path, field or
            formation): it runs against one shared world, still snapshotted, to save time.
        says: Text the message must contain besides the name: what to do instead, or which
            part of the value is wrong.
    """

    label: str
    act: Callable[[Env, Any], Any]
    error: type[BaseException]
    name: str
    subject: Callable[[Env], Any] = lambda env: None
    keep: Callable[[Any], Any] | None = None
    bug: str | None = None
    pure: bool = False
    says: str | None = None


def pure(rows: list[Row]) -> list[Row]:
    """``rows`` with every call that is not an assignment marked pure."""
    return [replace(row, pure=row.keep is None) for row in rows]


def call(label, fn, error, name, bug=None, says=None) -> Row:
    """A row calling ``fn(env)``."""
    return Row(label, lambda env, _: fn(env), error, name, bug=bug, says=says)


def assign(label, subject, attr, value, error, bug=None) -> Row:
    """A row assigning ``subject(env).attr = value``; the old value must be kept."""
    return Row(
        label,
        lambda env, obj: setattr(obj, attr, value),
        error,
        attr,
        subject=subject,
        keep=lambda obj: _read(obj, attr),
        bug=bug,
    )


def _read(obj: Any, attr: str) -> Any:
    value = getattr(obj, attr)
    return value.copy() if isinstance(value, np.ndarray) else value


# -- components: builders with valid arguments, bad values by declared parameter -----------------

BUILDERS: dict[str, Callable[..., steer.SteeringComponent]] = {
    "Alignment": lambda env, **kw: steer.Alignment(**{"radius": 50.0, **kw}),
    "Arrive": lambda env, **kw: steer.Arrive(**{"target": P, **kw}),
    "AvoidAgents": lambda env, **kw: steer.AvoidAgents(**kw),
    "AvoidObstacles": lambda env, **kw: steer.AvoidObstacles(**kw),
    "AvoidWalls": lambda env, **kw: steer.AvoidWalls(**kw),
    "Cohesion": lambda env, **kw: steer.Cohesion(**{"radius": 50.0, **kw}),
    "Containment": lambda env, **kw: steer.Containment(
        **{"region": [(0, 0), (300, 0), (300, 300), (150, 100), (0, 300)], **kw}
    ),
    "ContextSteering": lambda env, **kw: steer.ContextSteering(**{"target": P, **kw}),
    "Evade": lambda env, **kw: steer.Evade(**{"threat": env.leader, **kw}),
    "EvadeSightCone": lambda env, **kw: steer.EvadeSightCone(**{"leader": env.leader, **kw}),
    "Face": lambda env, **kw: steer.Face(**{"target": env.leader, **kw}),
    "LookWhereYouAreGoing": lambda env, **kw: steer.LookWhereYouAreGoing(**kw),
    "Scan": lambda env, **kw: steer.Scan(**kw),
    "Flee": lambda env, **kw: steer.Flee(**{"target": P, "panic_distance": 80.0, **kw}),
    "FollowFlowField": lambda env, **kw: steer.FollowFlowField(**{"field": env.field, **kw}),
    "FollowLeader": lambda env, **kw: steer.FollowLeader(**{"leader": env.leader, **kw}),
    "FollowPath": lambda env, **kw: steer.FollowPath(**{"path": env.path, **kw}),
    "FollowWaypoints": lambda env, **kw: steer.FollowWaypoints(
        **{"points": [(0, 0), (80, 0), (80, 80)], **kw}
    ),
    "Hide": lambda env, **kw: steer.Hide(**{"hunter": env.leader, **kw}),
    "Interpose": lambda env, **kw: steer.Interpose(**{"a": env.leader, "b": P, **kw}),
    "Jump": lambda env, **kw: steer.Jump(
        **{"takeoff": (0, 0), "landing": (120, 30), "gravity": 900.0, "jump_speed": 500.0}
        | {"run_speed": 250.0, **kw}
    ),
    "MatchVelocity": lambda env, **kw: steer.MatchVelocity(**{"target": env.leader, **kw}),
    "OffsetPursuit": lambda env, **kw: steer.OffsetPursuit(
        **{"leader": env.leader, "offset": (-20.0, 10.0), **kw}
    ),
    "PriorityBlend": lambda env, **kw: steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(P), **kw),
    "Pursue": lambda env, **kw: steer.Pursue(**{"quarry": env.leader, **kw}),
    "Queue": lambda env, **kw: steer.Queue(**kw),
    "Seek": lambda env, **kw: steer.Seek(**{"target": P, **kw}),
    "Separation": lambda env, **kw: steer.Separation(**{"radius": 30.0, **kw}),
    "StayOnPath": lambda env, **kw: steer.StayOnPath(**{"path": env.path, **kw}),
    "Wander": lambda env, **kw: steer.Wander(**kw),
    "WeightedBlend": lambda env, **kw: steer.WeightedBlend(
        (steer.Seek(P), 1.0), (steer.Separation(30.0), 2.0), **kw
    ),
}

#: Bad values of the ObjectParams, by their check function.
OBJECT_BAD: dict[Callable, list[tuple[Any, type, str | None]]] = {
    check_among: [
        ("sprites", TypeError, None),
        (5, TypeError, None),
        (iter([]), TypeError, None),
        (StubSprite(), TypeError, None),
        ([(1, 2)], TypeError, None),  # points are no sprites: it used to steer by nothing
        ([StubSprite(), None], TypeError, None),
    ],
    check_cover: [
        ("rocks", TypeError, None),
        (5, TypeError, None),
        (iter([]), TypeError, None),
        ({"rock"}, TypeError, None),
        ([StubSprite()], TypeError, None),  # a sprite is no obstacle
        ([(1.0, 2.0)], TypeError, None),
    ],
    check_region: [
        (None, TypeError, None),
        ("ab", TypeError, None),
        (5.0, TypeError, None),
        ((0.0, 0.0, 100.0, 100.0), TypeError, None),  # LRBT or LBWH? refused, with the hint
        ([(0, 0), (100, 0)], ValueError, None),
        ([(0, 0), (50, 50), (100, 100)], ValueError, None),  # no area
        ([(0, 0), (0, 0), (0, 0), (0, 0)], ValueError, None),
        ([(0, 0), (NAN, 0), (0, 100)], ValueError, None),
        ([(0, 0), (1e9, 0), (0, 100)], ValueError, None),
        ([(0, 0), (100, 0, 1), (0, 100)], ValueError, None),
        (StubRect(10.0, 0.0, 0.0, 10.0), ValueError, None),  # left > right
        (StubRect(0.0, 10.0, NAN, 10.0), ValueError, None),
        (StubRect(0.0, "10", 0.0, 10.0), TypeError, None),
    ],
    check_path: [
        ([(0, 0), (10, 0)], TypeError, None),
        (None, TypeError, None),
        ("path", TypeError, None),
    ],
    check_field: [(np.ones((2, 2, 2)), TypeError, None), (None, TypeError, None)],
    check_point: [
        ((NAN, 0.0), ValueError, None),
        ((0.0, INF), ValueError, None),
        ((1.0, 2.0, 3.0), ValueError, None),
        ((1.0,), ValueError, None),
        ("ab", TypeError, None),
        (5.0, TypeError, None),
        (None, TypeError, None),
    ],
    check_waypoints: [
        ([(0, 0)], ValueError, None),
        ([], ValueError, None),
        ([(0, 0), (NAN, 1)], ValueError, None),
        ([(0, 0), (INF, 1)], ValueError, None),
        ([(0, 0, 0), (1, 1, 1)], ValueError, None),
        ("ab", TypeError, None),
        ([(0, 0), (1, 2, 3)], ValueError, None),  # ragged
        ([("a", "b"), (1, 2)], TypeError, None),
        ([(0, 0), (None, 1)], TypeError, None),
        (np.ones((2, 2), dtype=bool), TypeError, None),
        (None, TypeError, None),
        (5, TypeError, None),
    ],
}


def bad_values(param: Param) -> list[tuple[Any, type, str | None]]:
    """``(value, exception, xfail reason or None)`` for a declared parameter."""
    if isinstance(param, TargetParam) and param.moving:  # a leader can't be a fixed point
        return [((1.0, 2.0), TypeError, None), ("leader", TypeError, None), (None, TypeError, None)]
    if isinstance(param, TargetParam):
        return [
            ("x", TypeError, None),
            (None, TypeError, None),
            (5, TypeError, None),
            ((1.0,), ValueError, None),
            ((1, 2, 3), ValueError, None),
            ((NAN, 0.0), ValueError, None),
            ((0.0, -INF), ValueError, None),
        ]
    if isinstance(param, NumberParam) and param.check is check_direction:
        return [
            (0, ValueError, None),
            (2, ValueError, None),
            (NAN, ValueError, None),
            ("1", TypeError, None),
            (True, TypeError, None),
            (None, TypeError, None),
        ]
    if isinstance(param, NumberParam):
        rows: list[tuple[Any, type, str | None]] = [
            (NAN, ValueError, None),
            (INF, ValueError, None),
            (-INF, ValueError, None),
            ("1.0", TypeError, None),
            (True, TypeError, None),
            ([1.0], TypeError, None),
            (10**400, ValueError, None),  # a whole number no float holds (valid JSON)
        ]
        if not param.optional:
            rows.append((None, TypeError, None))
        if param.ge is not None:
            rows.append((param.ge - 1.0, ValueError, None))
        if param.gt is not None:
            rows.extend([(param.gt - 1.0, ValueError, None), (param.gt, ValueError, None)])
        if param.le is not None:
            rows.append((param.le + 1.0, ValueError, None))
        if param.whole:
            rows.append((2.5, ValueError, None))
        return rows
    if isinstance(param, ChoiceParam):
        return [
            ("bogus", ValueError, None),
            ("", ValueError, None),
            (param.options[0].upper(), ValueError, None),
            (1, TypeError, None),
            (None, TypeError, None),
        ]
    if isinstance(param, FlagParam):
        return [(1, TypeError, None), ("yes", TypeError, None), (None, TypeError, None)]
    if isinstance(param, GroupParam):
        return OBJECT_BAD[param.check]
    if isinstance(param, PointParam):
        return OBJECT_BAD[check_point]
    raise AssertionError(f"no bad values for {type(param).__name__} {param.name!r}")


def declared(cls: type) -> dict[str, Param]:
    """The Param descriptors of ``cls`` and its bases, by name."""
    params: dict[str, Param] = {}
    for klass in reversed(cls.__mro__):
        params.update({k: v for k, v in vars(klass).items() if isinstance(v, Param)})
    return params


def _short(value: Any) -> str:
    # No memory addresses: test ids must be the same in every process (pytest-xdist).
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))
    return re.sub(r"\s+", "", text)[:24]


def component_rows() -> list[Row]:
    rows = []
    for name, build in BUILDERS.items():
        for param_name, param in declared(getattr(steer, name)).items():
            if name == "WeightedBlend":  # weights: one per child, rows in blend_rows()
                continue
            for value, error, bug in bad_values(param):
                label = f"{name}.{param_name}={_short(value)}"
                rows.append(
                    call(
                        f"{label}@init",
                        lambda env, b=build, p=param_name, v=value: b(env, **{p: v}),
                        error,
                        param_name,
                        bug,
                    )
                )
                rows.append(
                    assign(
                        f"{label}@set",
                        lambda env, b=build: env.attach(b(env)),
                        param_name,
                        value,
                        error,
                        bug,
                    )
                )
        rows.append(
            call(
                f"{name}(unknown option)",
                lambda env, b=build: b(env, bogus_option=1),
                TypeError,
                "bogus_option",
            )
        )
    return rows


def blend_rows() -> list[Row]:
    seek = steer.Seek(P)

    def weighted(env: Env) -> steer.WeightedBlend:
        return env.attach(BUILDERS["WeightedBlend"](env))

    return [
        call("WeightedBlend()", lambda env: steer.WeightedBlend(), ValueError, "weighted"),
        call("WeightedBlend(seek)", lambda env: steer.WeightedBlend(seek), TypeError, "weighted"),
        call(
            "WeightedBlend((seek,1,2))",
            lambda env: steer.WeightedBlend((seek, 1.0, 2.0)),
            TypeError,
            "weighted",
        ),
        call(
            "WeightedBlend(('seek',1))",
            lambda env: steer.WeightedBlend(("seek", 1.0)),
            TypeError,
            "component",
        ),
        call(
            "WeightedBlend((seek,1),(Seek,1))",
            lambda env: steer.WeightedBlend((seek, 1.0), (steer.Seek, 1.0)),
            TypeError,
            "component",
        ),
        *[
            call(
                f"WeightedBlend((seek,{_short(w)}))",
                lambda env, w=w: steer.WeightedBlend((seek, w)),
                error,
                "weight",
            )
            for w, error in ((NAN, ValueError), (INF, ValueError), ("1", TypeError))
        ],
        *[
            assign(f"WeightedBlend.weights={_short(v)}@set", weighted, "weights", v, error, bug)
            for v, error, bug in (
                ((1.0,), ValueError, None),
                ((1.0, 2.0, 3.0), ValueError, None),
                ((1.0, NAN), ValueError, None),
                ((INF, 1.0), ValueError, None),
                ((1.0, "2"), TypeError, None),
                ((1.0, None), TypeError, None),
                (None, TypeError, None),
                (5.0, TypeError, None),
            )
        ],
        call("PriorityBlend()", lambda env: steer.PriorityBlend(), ValueError, "components"),
        call(
            "PriorityBlend('seek')",
            lambda env: steer.PriorityBlend("seek"),
            TypeError,
            "components",
        ),
        call(
            "PriorityBlend(seek,None)",
            lambda env: steer.PriorityBlend(seek, None),
            TypeError,
            "components",
        ),
        call(
            "PriorityBlend(seek,Seek)",
            lambda env: steer.PriorityBlend(seek, steer.Seek),
            TypeError,
            "components",
        ),
    ]


# -- the world, attach, agents, shapes ---------------------------------------------------------


def world_rows() -> list[Row]:
    rows = [
        *[
            call(
                f"SteeringWorld(seed={_short(v)})",
                lambda env, v=v: steer.SteeringWorld(seed=v),
                e,
                "seed",
                bug,
            )
            for v, e, bug in (
                ("abc", TypeError, None),
                (1.5, TypeError, None),
                (True, TypeError, None),
                ([1], TypeError, None),
                (-1, ValueError, None),
            )
        ],
        *[
            call(
                f"SteeringWorld(space={_short(v)})",
                lambda env, v=v: steer.SteeringWorld(space=v),
                TypeError,
                "space",
            )
            for v in ("space", 5, pymunk.Body(), object())
        ],
        *[
            call(
                f"SteeringWorld(max_step={_short(v)})",
                lambda env, v=v: steer.SteeringWorld(max_step=v),
                e,
                "max_step",
            )
            for v, e in (
                (0, ValueError),
                (0.0, ValueError),
                (-0.1, ValueError),
                (NAN, ValueError),
                (INF, ValueError),
                ("1/30", TypeError),
                (None, TypeError),
            )
        ],
        *[
            call(
                f"SteeringWorld(max_substeps={_short(v)})",
                lambda env, v=v: steer.SteeringWorld(max_substeps=v),
                e,
                "max_substeps",
            )
            for v, e in ((0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError))
        ],
        call(
            "SteeringWorld(unknown option)",
            lambda env: steer.SteeringWorld(fps=60),
            TypeError,
            "fps",
        ),
    ]
    return rows


def update_rows() -> list[Row]:
    return [
        call(f"update({_short(v)})", lambda env, v=v: env.world.update(v), e, "delta_time")
        for v, e in (
            (NAN, ValueError),
            (INF, ValueError),
            (-INF, ValueError),
            ("0.1", TypeError),
            (None, TypeError),
        )
    ]


def _attach(env: Env, **kw: Any) -> steer.SteeringAgent:
    return env.world.attach(StubSprite(30, 30), steer.Seek(P), **kw)


ATTACH_BAD: dict[str, list[tuple[Any, type]]] = {
    **{
        name: [
            (0, ValueError),
            (-1.0, ValueError),
            (NAN, ValueError),
            (INF, ValueError),
            ("1", TypeError),
            (None, TypeError),
            (True, TypeError),
        ]
        for name in ("max_speed", "max_force", "mass", "response_time")
    },
    **{
        name: [
            (0, ValueError),
            (-1.0, ValueError),
            (NAN, ValueError),
            (INF, ValueError),
            ("1", TypeError),
            (True, TypeError),
        ]
        for name in ("max_turn_rate", "max_angular_acceleration")
    },
    "radius": [(-1.0, ValueError), (NAN, ValueError), (INF, ValueError), ("r", TypeError)],
    "velocity": [
        ((NAN, 0.0), ValueError),
        ((0.0, INF), ValueError),
        ((1.0, 2.0, 3.0), ValueError),
        ((1.0,), ValueError),
        (5.0, TypeError),
        ("xy", TypeError),
        (None, TypeError),
        ((1.0, "2"), TypeError),
    ],
    "facing": [
        ("sideways", ValueError),
        ("Up", ValueError),
        (NAN, ValueError),
        (INF, ValueError),
        (None, TypeError),
        ([0.0], TypeError),
    ],
    "rotate": [(1, TypeError), ("yes", TypeError), (None, TypeError)],
    "solid": [(0, TypeError), ("no", TypeError), (None, TypeError)],
}


def attach_rows() -> list[Row]:
    rows = [
        call(
            f"attach({key}={_short(v)})",
            lambda env, key=key, v=v: _attach(env, **{key: v}),
            e,
            key,
        )
        for key, values in ATTACH_BAD.items()
        for v, e in values
    ]
    rows += [
        call(
            "attach(object())",
            lambda env: env.world.attach(object(), steer.Seek(P)),
            TypeError,
            "sprite",
        ),
        call(
            "attach(None)", lambda env: env.world.attach(None, steer.Seek(P)), TypeError, "sprite"
        ),
        call(
            "attach(sprite at NaN)",
            lambda env: env.world.attach(StubSprite(NAN, 0), steer.Seek(P)),
            ValueError,
            "position",
        ),
        call(
            "attach(sprite twice)",
            lambda env: env.world.attach(env.leader, steer.Seek(P)),
            ValueError,
            "sprite",
        ),
        *[
            call(
                f"attach(behavior={_short(b)})",
                lambda env, b=b: env.world.attach(StubSprite(), b),
                TypeError,
                "behavior",
            )
            for b in ("seek", None, 3, steer.Seek, lambda ctx: np.zeros((len(ctx), 2)))
        ],
        call("attach(unknown option)", lambda env: _attach(env, speed=3.0), TypeError, "speed"),
        call("detach(unknown)", lambda env: env.world.detach(StubSprite()), KeyError, "sprite"),
        call("detach(None)", lambda env: env.world.detach(None), KeyError, "sprite"),
        call("agent_of(unknown)", lambda env: env.world.agent_of(StubSprite()), KeyError, "sprite"),
        call("agent_of('x')", lambda env: env.world.agent_of("x"), KeyError, "sprite"),
    ]
    # Detaching twice: the second call must be refused and change nothing.
    rows.append(
        Row(
            "detach(twice)",
            lambda env, sprite: env.world.detach(sprite),
            KeyError,
            "sprite",
            subject=lambda env: _detached_sprite(env),
        )
    )
    return rows


def _detached_sprite(env: Env) -> StubSprite:
    sprite = StubSprite(5, 5)
    env.sprites.append(sprite)
    env.world.attach(sprite, steer.Seek(P))
    env.world.detach(sprite)
    return sprite


AGENT_BAD: dict[str, list[tuple[Any, type]]] = {
    **{name: ATTACH_BAD[name] for name in ("max_speed", "max_force", "mass", "response_time")},
    "radius": [*ATTACH_BAD["radius"], (None, TypeError)],
    "velocity": ATTACH_BAD["velocity"],
    **{name: ATTACH_BAD[name] for name in ("max_turn_rate", "max_angular_acceleration")},
    "look": [*ATTACH_BAD["velocity"], ((0.0, 0.0), ValueError)],
    "behavior": [("seek", TypeError), (None, TypeError), (steer.Seek, TypeError), (3, TypeError)],
}


def agent_rows() -> list[Row]:
    rows = [
        assign(f"agent.{key}={_short(v)}", lambda env: env.agent, key, v, e)
        for key, values in AGENT_BAD.items()
        for v, e in values
    ]
    # Read-only views refuse assignment, naming the property.
    rows += [
        assign(f"agent.{key}=(read-only)", lambda env: env.agent, key, (1.0, 1.0), AttributeError)
        for key in ("position", "heading", "force", "speed", "sprite", "angular_velocity")
    ]
    return rows


POINT_BAD: list[tuple[Any, type]] = [
    ((NAN, 0.0), ValueError),
    ((0.0, INF), ValueError),
    ((1.0, 2.0, 3.0), ValueError),
    ((1.0,), ValueError),
    ("ab", TypeError),
    (None, TypeError),
    (5.0, TypeError),
]
THICKNESS_BAD: list[tuple[Any, type]] = [
    (-1.0, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    ("4", TypeError),
    (None, TypeError),
]


def shape_rows() -> list[Row]:
    return [
        *[
            call(
                f"add_wall(a={_short(v)})",
                lambda env, v=v: env.world.add_wall(v, (10, 10)),
                e,
                "a",
            )
            for v, e in POINT_BAD
        ],
        *[
            call(
                f"add_wall(b={_short(v)})",
                lambda env, v=v: env.world.add_wall((0, 0), v),
                e,
                "b",
            )
            for v, e in POINT_BAD
        ],
        call("add_wall(b=a)", lambda env: env.world.add_wall((3, 4), (3, 4)), ValueError, "b"),
        *[
            call(
                f"add_wall(thickness={_short(v)})",
                lambda env, v=v: env.world.add_wall((0, 0), (10, 0), v),
                e,
                "thickness",
            )
            for v, e in THICKNESS_BAD
        ],
        *[
            call(
                f"add_walls(points={_short(v)})",
                lambda env, v=v: env.world.add_walls(v),
                e,
                "points",
            )
            for v, e in (
                ([], ValueError),
                ([(0, 0)], ValueError),
                ([(1, 1), (1, 1), (1, 1)], ValueError),
                ([(0, 0), (10, 0), (NAN, 5)], ValueError),
                ([(0, 0), (10, 0), (20, INF)], ValueError),
                ([(0, 0, 0), (1, 1, 1)], ValueError),
                ("abcd", TypeError),
                (5, TypeError),
                (None, TypeError),
                ([("a", "b"), (1, 2)], TypeError),
                ([(0, 0), (1, 2, 3)], ValueError),
                ([(0, 0), (None, 1), (5, 5)], TypeError),
            )
        ],
        *[
            call(
                f"add_walls(thickness={_short(v)})",
                lambda env, v=v: env.world.add_walls([(0, 0), (10, 0), (10, 10)], thickness=v),
                e,
                "thickness",
            )
            for v, e in THICKNESS_BAD
        ],
        *[
            call(
                f"add_walls(closed={_short(v)})",
                lambda env, v=v: env.world.add_walls([(0, 0), (10, 0), (10, 10)], closed=v),
                TypeError,
                "closed",
            )
            for v in ("no", None, 3)
        ],
        *[
            call(
                f"add_obstacle(center={_short(v)})",
                lambda env, v=v: env.world.add_obstacle(v, 5),
                e,
                "center",
            )
            for v, e in POINT_BAD
        ],
        *[
            call(
                f"add_obstacle(radius={_short(v)})",
                lambda env, v=v: env.world.add_obstacle((0, 0), v),
                e,
                "radius",
            )
            for v, e in (
                (0, ValueError),
                (0.0, ValueError),
                (-3.0, ValueError),
                (NAN, ValueError),
                (INF, ValueError),
                ("5", TypeError),
                (None, TypeError),
            )
        ],
        *[
            call(
                f"remove_shape({label})",
                lambda env, make=make: env.world.remove_shape(make(env)),
                e,
                "shape",
            )
            for label, make, e in (
                ("None", lambda env: None, TypeError),
                ("'wall'", lambda env: "wall", TypeError),
                ("Body", lambda env: env.wall.body, TypeError),
                ("foreign circle", lambda env: pymunk.Circle(None, 5), ValueError),
                (
                    "foreign wall",
                    lambda env: steer.SteeringWorld().add_wall((0, 0), (5, 0)),
                    ValueError,
                ),
            )
        ],
        Row(
            "remove_shape(twice)",
            lambda env, shape: env.world.remove_shape(shape),
            ValueError,
            "shape",
            subject=_removed_shape,
        ),
    ]


def _tiles(*points: tuple[float, float]) -> list[Any]:
    """Square arcade sprites of 20 px at ``points``, for wall sprites."""
    import arcade

    tiles = []
    for point in points:
        tile = arcade.SpriteSolidColor(20, 20, color=arcade.color.GRAY)
        tile.position = point
        tiles.append(tile)
    return tiles


def wall_sprite_rows() -> list[Row]:
    far = _tiles((0, 0))
    far[0].position = (3e8, 0)
    return [
        *[
            call(
                f"add_wall_sprites(sprites={label})",
                lambda env, make=make: env.world.add_wall_sprites(make()),
                e,
                "sprites",
            )
            for label, make, e in (
                ("5", lambda: 5, TypeError),
                ("None", lambda: None, TypeError),
                ("[StubSprite]", lambda: [*_tiles((0, 0)), StubSprite(0, 0)], TypeError),
                ("[(0, 0)]", lambda: [(0, 0)], TypeError),
                ("[far away]", lambda: [*_tiles((50, 50)), *far], ValueError),
            )
        ],
        *[
            call(
                f"add_wall_sprites(thickness={_short(v)})",
                lambda env, v=v: env.world.add_wall_sprites(_tiles((0, 0)), v),
                e,
                "thickness",
            )
            for v, e in THICKNESS_BAD
        ],
        *[
            call(
                f"remove_wall_sprites({label})",
                lambda env, make=make: env.world.remove_wall_sprites(make()),
                e,
                "walls",
            )
            for label, make, e in (
                ("None", lambda: None, TypeError),
                ("a list", lambda: [], TypeError),
                (
                    "another world's",
                    lambda: steer.SteeringWorld().add_wall_sprites(_tiles((0, 0))),
                    ValueError,
                ),
            )
        ],
    ]


def _removed_shape(env: Env) -> pymunk.Shape:
    shape = env.world.add_obstacle((-100, 100), 5)
    env.world.remove_shape(shape)
    return shape


# -- Path, FlowField, formations, tiled ----------------------------------------------------------

POINTS_BAD: list[tuple[Any, type, str | None]] = [
    ([], ValueError, None),
    ([(0, 0)], ValueError, None),
    ([(0, 0), (NAN, 0)], ValueError, None),
    ([(0, 0), (0, INF)], ValueError, None),
    ([(0, 0, 0), (1, 1, 1)], ValueError, None),
    (np.zeros((2, 2, 2)), ValueError, None),
    ([(0, 0), (1, 2, 3)], ValueError, None),
    (object(), TypeError, None),
    (None, TypeError, None),
    (5, TypeError, None),
    ("abcd", TypeError, None),
    ([("a", "b"), (1, 2)], TypeError, None),
    ([(0, 0), (None, 1)], TypeError, None),
    (np.array([["0", "0"], ["1", "1"]]), TypeError, None),
    (np.ones((2, 2), dtype=bool), TypeError, None),
    (iter([(0, 0), (1, 1)]), TypeError, None),
]
LENGTH_BAD: list[tuple[Any, type]] = [
    (-1.0, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    ("20", TypeError),
    (None, TypeError),
    (True, TypeError),
]
RADII_BAD: list[tuple[Any, type, str | None]] = [
    ([5.0], ValueError, None),  # two segments, one radius
    ([5.0, 5.0, 5.0], ValueError, None),
    ([5.0, -1.0], ValueError, None),
    ([5.0, NAN], ValueError, None),
    ([INF, 5.0], ValueError, None),
    ([[5.0, 5.0]], ValueError, None),
    ([object(), 5.0], TypeError, None),
    (["a", "b"], TypeError, None),
    (5.0, TypeError, None),  # one number, not one per segment
    ([5.0, None], TypeError, None),
]
PATH_POINTS = [(0, 0), (100, 0), (100, 100)]


def _followed_path(env: Env) -> steer.Path:
    return env.path  # the FollowPath agent's path: a refused change must not reach it


def _path_with_radii(env: Env) -> steer.Path:
    env.path.radii = [10.0, 20.0]
    return env.path


def path_rows() -> list[Row]:
    rows = []
    for v, e, bug in POINTS_BAD:
        rows.append(
            call(f"Path(points={_short(v)})", lambda env, v=v: steer.Path(v), e, "points", bug)
        )
        rows.append(assign(f"path.points={_short(v)}", _followed_path, "points", v, e, bug))
        if v is not None:  # from_astar shares the check, but None means "no path" there
            rows.append(
                call(
                    f"Path.from_astar({_short(v)})",
                    lambda env, v=v: steer.Path.from_astar(v),
                    e,
                    "points",
                )
            )
    for v, e in LENGTH_BAD:
        rows.append(
            call(
                f"Path(radius={_short(v)})",
                lambda env, v=v: steer.Path(PATH_POINTS, radius=v),
                e,
                "radius",
            )
        )
        rows.append(assign(f"path.radius={_short(v)}", _followed_path, "radius", v, e))
        rows.append(
            call(
                f"Path.from_astar(radius={_short(v)})",
                lambda env, v=v: steer.Path.from_astar(PATH_POINTS, radius=v),
                e,
                "radius",
            )
        )
        if v is not None:
            rows.append(
                call(
                    f"Path.from_astar(grid_size={_short(v)})",
                    lambda env, v=v: steer.Path.from_astar(PATH_POINTS, grid_size=v),
                    e,
                    "grid_size",
                )
            )
    for v, e, bug in RADII_BAD:
        rows.append(
            call(
                f"Path(radii={_short(v)})",
                lambda env, v=v: steer.Path(PATH_POINTS, radii=v),
                e,
                "radii",
                bug,
            )
        )
        rows.append(assign(f"path.radii={_short(v)}", _followed_path, "radii", v, e, bug))
    rows += [
        *[
            call(
                f"Path(closed={_short(v)})",
                lambda env, v=v: steer.Path(PATH_POINTS, closed=v),
                TypeError,
                "closed",
            )
            for v in ("yes", 1, None)
        ],
        call(
            "Path.from_astar(closed='yes')",
            lambda env: steer.Path.from_astar(PATH_POINTS, closed="yes"),
            TypeError,
            "closed",
        ),
        call(
            "Path.from_astar(None)", lambda env: steer.Path.from_astar(None), ValueError, "points"
        ),
        call(
            "Path.from_astar(one distinct point)",
            lambda env: steer.Path.from_astar([(4, 4), (4, 4), (4, 4)]),
            ValueError,
            "points",
        ),
        call(
            "Path.from_astar(grid_size=0)",
            lambda env: steer.Path.from_astar(PATH_POINTS, grid_size=0),
            ValueError,
            "grid_size",
        ),
        call(
            "Path(unknown option)", lambda env: steer.Path(PATH_POINTS, width=3), TypeError, "width"
        ),
        # With per-segment radii the segment count is fixed until radii is reset.
        assign(
            "path.points=(count changes under radii)",
            _path_with_radii,
            "points",
            [(0, 0), (10, 0), (20, 0), (30, 0)],
            ValueError,
        ),
    ]
    return rows


DIRECTIONS = np.ones((3, 4, 2))
BOUNDS = (0.0, 128.0, 0.0, 96.0)
BOUNDS_BAD: list[tuple[Any, type]] = [
    ((0.0, 0.0, 0.0, 10.0), ValueError),
    ((10.0, 0.0, 0.0, 10.0), ValueError),
    ((0.0, 10.0, 5.0, 5.0), ValueError),
    ((0.0, NAN, 0.0, 10.0), ValueError),
    ((0.0, 10.0, -INF, 10.0), ValueError),
    ((0.0, 10.0, 0.0), TypeError),
    ("abcd", TypeError),
    (None, TypeError),
    ((0.0, "10", 0.0, 10.0), TypeError),
]
CELL_BAD: list[tuple[Any, type]] = [
    (0, ValueError),
    (-32.0, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    ("32", TypeError),
    (None, TypeError),
]


def _east(x: Any, y: Any) -> tuple[Any, Any]:
    return np.ones_like(x), np.zeros_like(y)


def flowfield_rows() -> list[Row]:
    rows = [
        *[
            call(
                f"FlowField(directions={label})",
                lambda env, v=v: steer.FlowField(v),
                e,
                "directions",
            )
            for label, v, e in (
                ("(3,4)", np.ones((3, 4)), ValueError),
                ("(3,4,3)", np.ones((3, 4, 3)), ValueError),
                ("(0,4,2)", np.ones((0, 4, 2)), ValueError),
                ("NaN", np.full((2, 2, 2), NAN), ValueError),
                ("inf", np.full((2, 2, 2), INF), ValueError),
                ("ragged", [[(1, 0), (1, 0)], [(1, 0)]], ValueError),
                ("'abc'", "abc", TypeError),
                ("None", None, TypeError),
                ("5", 5, TypeError),
                ("strings", [[("a", "b")]], TypeError),
            )
        ],
        *[
            call(
                f"FlowField(origin={_short(v)})",
                lambda env, v=v: steer.FlowField(DIRECTIONS, origin=v),
                e,
                "origin",
            )
            for v, e in POINT_BAD
        ],
        *[
            call(
                f"FlowField(cell_size={_short(v)})",
                lambda env, v=v: steer.FlowField(DIRECTIONS, cell_size=v),
                e,
                "cell_size",
            )
            for v, e in CELL_BAD
        ],
        *[
            call(
                f"FlowField(goal={_short(v)})",
                lambda env, v=v: steer.FlowField(DIRECTIONS, goal=v),
                e,
                "goal",
            )
            for v, e in POINT_BAD
            if v is not None  # None means no goal
        ],
        *[
            call(
                f"FlowField(distance={label})",
                lambda env, v=v: steer.FlowField(DIRECTIONS, distance=v),
                e,
                "distance",
            )
            for label, v, e in (
                ("(4,3)", np.zeros((4, 3)), ValueError),
                ("(12,)", np.zeros(12), ValueError),
                ("NaN", np.full((3, 4), NAN), ValueError),
                ("ragged", [[0.0] * 4, [0.0] * 3, [0.0] * 4], ValueError),
                ("'ab'", "ab", TypeError),
                ("5", 5, TypeError),
                ("bools", np.zeros((3, 4), dtype=bool), TypeError),
            )
        ],
        call(
            "FlowField.from_function(fn=3)",
            lambda env: steer.FlowField.from_function(3, BOUNDS),
            TypeError,
            "fn",
        ),
        call(
            "FlowField.from_function(fn -> 3 numbers)",
            lambda env: steer.FlowField.from_function(lambda x, y: (1.0, 0.0, 0.0), BOUNDS),
            ValueError,
            "fn",
        ),
        *[
            call(
                f"FlowField.from_function(bounds={_short(v)})",
                lambda env, v=v: steer.FlowField.from_function(_east, v),
                e,
                "bounds",
            )
            for v, e in BOUNDS_BAD
        ],
        *[
            call(
                f"FlowField.from_function(cell_size={_short(v)})",
                lambda env, v=v: steer.FlowField.from_function(_east, BOUNDS, cell_size=v),
                e,
                "cell_size",
            )
            for v, e in [*CELL_BAD, (1e-3, ValueError)]  # the last: too many cells
        ],
    ]
    return rows


def towards_rows() -> list[Row]:
    return [
        *[
            call(
                f"FlowField.towards(goal={_short(v)})",
                lambda env, v=v: steer.FlowField.towards(v, env.world, BOUNDS),
                e,
                "goal",
            )
            for v, e in [*POINT_BAD, ((500.0, 10.0), ValueError), ((-1.0, 10.0), ValueError)]
        ],
        *[
            call(
                f"FlowField.towards(bounds={_short(v)})",
                lambda env, v=v: steer.FlowField.towards((10, 10), env.world, v),
                e,
                "bounds",
            )
            for v, e in BOUNDS_BAD
        ],
        *[
            call(
                f"FlowField.towards(cell_size={_short(v)})",
                lambda env, v=v: steer.FlowField.towards((10, 10), env.world, BOUNDS, cell_size=v),
                e,
                "cell_size",
            )
            for v, e in CELL_BAD
        ],
        *[
            call(
                f"FlowField.towards(clearance={_short(v)})",
                lambda env, v=v: steer.FlowField.towards((10, 10), env.world, BOUNDS, clearance=v),
                e,
                "clearance",
            )
            for v, e in ((0.0, ValueError), (-1.0, ValueError), (NAN, ValueError), ("4", TypeError))
        ],
        *[
            call(
                f"FlowField.towards(world={_short(v)})",
                lambda env, v=v: steer.FlowField.towards((10, 10), v, BOUNDS),
                TypeError,
                "world",
            )
            for v in (None, "world", 5, pymunk.Body())
        ],
    ]


def formation_rows() -> list[Row]:
    rows = []
    for fn in (formations.line, formations.column, formations.wedge):
        name = fn.__name__
        for v, e in (
            (-1, ValueError),
            (1.5, TypeError),
            ("3", TypeError),
            (True, TypeError),
            (None, TypeError),
        ):
            rows.append(
                call(
                    f"formations.{name}(n={_short(v)})", lambda env, fn=fn, v=v: fn(v, 20.0), e, "n"
                )
            )
        for v, e in CELL_BAD:
            rows.append(
                call(
                    f"formations.{name}(spacing={_short(v)})",
                    lambda env, fn=fn, v=v: fn(3, v),
                    e,
                    "spacing",
                )
            )
    return rows


def tiled_rows() -> list[Row]:
    return [
        *[
            call(
                f"load_level(source={_short(v)})",
                lambda env, v=v: tiled.load_level(v, env.world),
                TypeError,
                "source",
            )
            for v in (5, None, b"level.tmj")
        ],
        *[
            call(
                f"load_level(world={_short(v)})",
                lambda env, v=v: tiled.load_level(DEMO_LEVEL, v),
                TypeError,
                "world",
            )
            for v in (None, "world", pymunk.Space())
        ],
        call(
            "load_level(required=('bogus',))",
            lambda env: tiled.load_level(DEMO_LEVEL, env.world, required=("bogus",)),
            ValueError,
            "bogus",
        ),
        *[
            call(
                f"load_level(scaling={_short(v)})",
                lambda env, v=v: tiled.load_level(DEMO_LEVEL, env.world, scaling=v),
                e,
                "scaling",
            )
            for v, e in (
                (0.0, ValueError),
                (-1.0, ValueError),
                (NAN, ValueError),
                ("x", TypeError),
                (None, TypeError),
            )
        ],
        *[
            call(
                f"load_level(required={_short(v)})",
                lambda env, v=v: tiled.load_level(DEMO_LEVEL, env.world, required=v),
                TypeError,
                "required",
            )
            for v in ("walls", None, 5)
        ],
        *[
            call(
                f"load_level(wall_layers={_short(v)})",
                lambda env, v=v: tiled.load_level(DEMO_LEVEL, env.world, wall_layers=v),
                e,
                "wall_layers",
            )
            for v, e in (("Walls", TypeError), (None, TypeError), (("Walls",), tiled.LevelError))
        ],
        call(
            "load_level(unknown option)",
            lambda env: tiled.load_level(DEMO_LEVEL, env.world, scale=2.0),
            TypeError,
            "scale",
        ),
    ]


# -- messages that say what is wrong and what to do (issue #37) -------------------------------


class Leash(steer.SteeringComponent):
    """A component of the game's own, unknown to ``from_dict`` unless passed in."""

    length: float = steer.params.param(default=30.0, gt=0.0)

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        return np.zeros((len(ctx), 2))


def _segment(env: Env) -> pymunk.Segment:
    return pymunk.Segment(env.world.space.static_body, (0, 0), (50, 0), 1)


def hint_rows() -> list[Row]:
    ready = "add a ready shape with world.space.add(shape)"
    return [
        *[
            call(
                f"add_obstacle(radius={v})@hint",
                lambda env, v=v: env.world.add_obstacle((0, 0), v),
                ValueError,
                "radius",
                says="radius must be finite and > 0",  # the same bound for -5 and 0
            )
            for v in (-5, 0)
        ],
        call(
            "add_wall(pymunk.Segment)",
            lambda env: env.world.add_wall(_segment(env)),
            TypeError,
            "a",
            says=ready,
        ),
        call(
            "add_wall(pymunk.Segment, b)",
            lambda env: env.world.add_wall(_segment(env), (5, 5)),
            TypeError,
            "a",
            says=ready,
        ),
        call(
            "add_walls([pymunk.Segment])",
            lambda env: env.world.add_walls([_segment(env), _segment(env)]),
            TypeError,
            "points",
            says=ready,
        ),
        call(
            "add_obstacle(pymunk.Circle)",
            lambda env: env.world.add_obstacle(pymunk.Circle(env.world.space.static_body, 5)),
            TypeError,
            "center",
            says=ready,
        ),
        call(
            "add_wall(a) without b",
            lambda env: env.world.add_wall((0, 0)),
            TypeError,
            "b",
            says="second end",
        ),
        call(
            "add_obstacle(center) without radius",
            lambda env: env.world.add_obstacle((0, 0)),
            TypeError,
            "radius",
            says="in px",
        ),
        call(
            "can_see() without arguments",  # Python's own message, naming the public class
            lambda env: env.world.can_see(),
            TypeError,
            "observers",
            says="SteeringWorld.can_see()",
        ),
        *[
            call(
                f"can_see(targets={_short(v)})",
                lambda env, v=v: env.world.can_see(env.agent.sprite, v, length=10),
                e,
                "targets",
                says=says,
            )
            for v, e, says in (
                ((1, 2, 3), ValueError, "(x, y) pair of 2 coordinates, got 3"),
                ((1,), ValueError, "(x, y) pair of 2 coordinates, got 1"),
                (("1", "2"), TypeError, "targets[0] (x) must be a number, got str '1'"),
                ([(0, 0), (1, 2, 3)], ValueError, "2 coordinates, got 3"),
            )
        ],
        call(
            "Arrive(('100','200'))",
            lambda env: steer.Arrive(("100", "200")),
            TypeError,
            "target",
            says="target[0] (x) must be a number, got str '100'",
        ),
        call(
            "agent.velocity=(1,'2')@hint",
            lambda env: setattr(env.agent, "velocity", (1.0, "2")),
            TypeError,
            "velocity",
            says="velocity[1] (y) must be a number, got str '2'",
        ),
        call(
            "from_dict(own component)",
            lambda env: steer.from_dict(steer.to_dict(Leash())),
            steer.TreeDataError,
            "components",
            says="from_dict(..., components=[Leash])",
        ),
        call(
            "Separation() without radius",  # the generated __init__ names the class called
            lambda env: steer.Separation(),
            TypeError,
            "radius",
            says="Separation.__init__()",
        ),
        call(
            "testing.StubSprite(x='a')",
            lambda env: StubSprite("a", 1),
            TypeError,
            "x",
            says="got str 'a'",
        ),
        call(
            "testing.steering_force(position='a')",
            lambda env: steering_force(steer.Seek(P), "a"),
            TypeError,
            "position",
        ),
        *[
            call(
                f"testing.{fn.__name__}(None)",
                lambda env, fn=fn: fn(None),
                TypeError,
                "world",
                says="must be a SteeringWorld",
            )
            for fn in (batch_forces, forces_one_by_one)
        ],
        call("Replay.finish(None)", lambda env: steer.Replay().finish(None), TypeError, "world"),
        call(
            "Replay.play(None)",
            lambda env: next(steer.Replay().play(None)),
            TypeError,
            "world",
            says="must be a SteeringWorld",
        ),
        call(
            "testing.steering_force(world=pymunk.Space())",
            lambda env: steering_force(steer.Seek(P), world=pymunk.Space()),
            TypeError,
            "world",
        ),
    ]


def _save_of(env: Env, version: int = 1) -> bytes:
    """A save of the env's world, every object named by its id, of ``version``."""
    data = steer.save_world(env.world, names=lambda obj: f"o{id(obj)}")
    return data.replace(b'"version":1', f'"version":{version}'.encode())


def save_rows() -> list[Row]:
    """Save files: bad arguments and bad saves."""
    save, load = steer.save_world, steer.load_world
    bad = steer.SaveFileError
    return [
        call("save_world(world=5)", lambda env: save(5), TypeError, "world"),
        call("save_world(names=5)", lambda env: save(env.world, names=5), TypeError, "names"),
        call("save_world(level=5)", lambda env: save(env.world, level=5), TypeError, "level"),
        call("save_world(unnamed)", lambda env: save(env.world), bad, "names"),
        call("load_world(world=5)", lambda env: load(5, b"{}"), TypeError, "world"),
        call("load_world(file=5)", lambda env: load(env.world, 5), TypeError, "file"),
        call(
            "load_world(resolve=5)",
            lambda env: load(env.world, b"", resolve=5),
            TypeError,
            "resolve",
        ),
        call("load_world(level=5)", lambda env: load(env.world, b"", level=5), TypeError, "level"),
        call(
            "load_world(max_bytes=0)",
            lambda env: load(env.world, b"", max_bytes=0),
            ValueError,
            "max_bytes",
        ),
        call(
            "load_world(max_bytes=x)",
            lambda env: load(env.world, b"", max_bytes="x"),
            TypeError,
            "max_bytes",
        ),
        call("load_world(not json)", lambda env: load(env.world, b"{"), bad, "save"),
        call(
            "load_world(version 2)", lambda env: load(env.world, _save_of(env, 2)), bad, "version"
        ),
        call(
            "load_world(no sprites)",
            lambda env: load(env.world, _save_of(env), resolve={}),
            bad,
            "resolve",
        ),
    ]


# -- the table --------------------------------------------------------------------------------

ROWS: list[Row] = [
    *pure(world_rows()),
    *update_rows(),
    *attach_rows(),
    *agent_rows(),
    *shape_rows(),
    *wall_sprite_rows(),
    *pure(component_rows()),
    *pure(blend_rows()),
    *pure(path_rows()),
    *pure(flowfield_rows()),
    *towards_rows(),
    *pure(formation_rows()),
    *tiled_rows(),
    *hint_rows(),
    *save_rows(),
]


def _params(rows: list[Row]) -> list[Any]:
    out = []
    for row in rows:
        marks = [pytest.mark.xfail(reason=row.bug, strict=True)] if row.bug else []
        out.append(pytest.param(row, id=row.label, marks=marks))
    return out


@pytest.fixture(scope="module")
def shared_env() -> Env:
    """The world pure rows run against (they can't reach it; it is snapshotted all the same)."""
    return make_env()


@pytest.mark.parametrize("row", _params(ROWS))
def test_bad_input_is_refused_and_changes_nothing(row: Row, shared_env: Env) -> None:
    env = shared_env if row.pure else make_env()
    subject = row.subject(env)
    before = snapshot(env.world)
    kept = row.keep(subject) if row.keep else None
    version = subject.version if isinstance(subject, steer.Path) else None

    with pytest.raises(row.error) as info:
        row.act(env, subject)

    message = str(info.value)
    assert re.search(rf"(?<![A-Za-z0-9_]){re.escape(row.name)}(?![A-Za-z0-9_])", message), (
        f"{row.name!r} not named in {message!r}"
    )
    assert row.says is None or row.says in message, f"{row.says!r} not in {message!r}"
    assert snapshot(env.world) == before
    if row.keep is not None:
        assert same(row.keep(subject), kept)
    if version is not None:
        assert subject.version == version
    env.world.update(1 / 60)  # the world still runs
    for agent in env.world.agents:
        assert np.isfinite(agent.position).all() and np.isfinite(agent.velocity).all()


def test_the_table_covers_every_component_and_parameter() -> None:
    components = {
        name
        for name in steer.__all__
        if inspect.isclass(getattr(steer, name))
        and issubclass(getattr(steer, name), steer.SteeringComponent)
        and name != "SteeringComponent"
    }
    assert set(BUILDERS) == components
    labels = {row.label for row in ROWS}
    assert len(labels) == len(ROWS), "duplicate row ids"
    for name in components:
        for param in declared(getattr(steer, name)):
            assert any(
                label.startswith(f"{name}.{param}=") and label.endswith("@set") for label in labels
            )
            assert name == "WeightedBlend" or any(  # weights come with the (child, weight) pairs
                label.startswith(f"{name}.{param}=") and label.endswith("@init") for label in labels
            )
    for key in (
        "velocity",
        "behavior",
        "max_speed",
        "max_force",
        "mass",
        "radius",
        "response_time",
    ):
        assert any(label.startswith(f"agent.{key}=") for label in labels)
    for key in ATTACH_BAD:
        assert any(label.startswith(f"attach({key}=") for label in labels)


def test_builders_make_valid_components() -> None:
    env = make_env()
    for build in BUILDERS.values():
        env.attach(build(env))
    for _ in range(5):
        env.world.update(1 / 60)
    assert all(np.isfinite(agent.position).all() for agent in env.world.agents)
