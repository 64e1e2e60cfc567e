"""The per-update shortcuts of issue #17: a row plan kept per membership change, rows written
as slices while consecutive, masks tested by counting. They must change nothing a game sees."""

from __future__ import annotations

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering._util.masks import every, finite, some
from arcade_steering._util.vec import span
from arcade_steering.testing import StubSprite


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([0, 1, 2], slice(0, 3)),
        ([4, 5], slice(4, 6)),
        ([7], slice(7, 8)),
        ([0, 2, 3], None),
        ([2, 1, 0], None),
        ([1, 1, 2], None),
        ([], None),
    ],
)
def test_span_is_a_slice_only_for_consecutive_ascending_rows(rows, expected):
    rows = np.array(rows, dtype=np.intp)
    found = span(rows)
    if expected is None:
        assert found is rows
    else:
        assert found == expected
        assert np.arange(10)[found].tolist() == rows.tolist()


@pytest.mark.parametrize("size", [0, 1, 5, 64])
def test_every_and_some_answer_as_all_and_any(size):
    rng = np.random.default_rng(size)
    for share in (0.0, 0.5, 1.0):
        mask = rng.random(size) < share
        assert every(mask) == bool(mask.all())
        assert some(mask) == bool(mask.any())
        assert every(mask.reshape(-1, 1)) == bool(mask.all())


def test_finite_zeroes_only_what_is_not_finite():
    values = np.array([[1.0, np.nan], [np.inf, -2.0]])
    assert finite(values).tolist() == [[1.0, 0.0], [0.0, -2.0]]
    clean = np.array([[1.0, 2.0]])
    assert finite(clean) is clean


def _arrivals(count: int, drop: int | None, updates: int = 40) -> list[tuple[float, float]]:
    """Positions after ``updates`` of agents arriving at a point, the one at ``drop`` (if
    any) detached after the first update, so the rows are no longer consecutive."""
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(10.0 * i, 5.0 * i) for i in range(count)]
    for index, sprite in enumerate(sprites):
        world.attach(
            sprite,
            steer.Arrive((300.0, 100.0 + index)),
            max_speed=80.0 + index,
            rotate=index % 2 == 0,
            solid=index != 1,
        )
    world.update(1 / 60)
    if drop is not None:
        world.detach(sprites[drop])
    for _ in range(updates):
        world.update(1 / 60)
    return [tuple(sprite.position) for i, sprite in enumerate(sprites) if i != drop]


def test_rows_with_a_gap_move_as_consecutive_rows_do():
    """Detaching an agent leaves a gap in the rows: the others move as in a world where it
    was detached from the end (consecutive rows, written as slices)."""
    gap = _arrivals(4, drop=1)
    end = _arrivals(4, drop=3)
    whole = _arrivals(4, drop=None)
    assert gap == [whole[0], whole[2], whole[3]]
    assert end == whole[:3]


def test_an_agent_attached_later_gets_its_own_attach_options():
    """The plan is gathered again after an attach: a late agent with rotate=False keeps its
    sprite's angle while the first one turns."""
    world = steer.SteeringWorld(seed=0)
    first = StubSprite(0.0, 0.0)
    world.attach(first, steer.Seek((0.0, 100.0)), rotate=True)
    for _ in range(5):
        world.update(1 / 60)
    late = StubSprite(0.0, 0.0)
    late.angle = 12.0
    world.attach(late, steer.Seek((0.0, 100.0)), rotate=False)
    for _ in range(5):
        world.update(1 / 60)
    assert late.angle == 12.0
    assert first.angle == pytest.approx(-90.0)
    assert late.position[1] > 0.0
