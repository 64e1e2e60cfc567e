"""The batched sprite write-back leaves sprites and sprite lists as arcade's setters would."""

from __future__ import annotations

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np
import pytest

from arcade_steering._arcade.sprite_sync import (
    ListSlots,
    fast_setters,
    read_positions,
    write_sprites,
)
from arcade_steering.testing import StubSprite


def _fast(sprites: np.ndarray, which: int) -> np.ndarray:
    return np.array([fast_setters(sprite)[which] for sprite in sprites], dtype=bool)


def _write(sprites: np.ndarray, positions: np.ndarray | None = None, angles=None) -> None:
    """Write positions and/or angles; a position not given is written unchanged."""
    if positions is None:
        positions = read_positions(sprites)
    turn = np.full(len(sprites), angles is not None)
    angles = np.zeros(len(sprites)) if angles is None else angles
    write_sprites(sprites, positions, _fast(sprites, 0), angles, turn, _fast(sprites, 1))


def _sprites(count: int, spatial_hash: bool = False) -> tuple[arcade.SpriteList, np.ndarray]:
    sprite_list = arcade.SpriteList(use_spatial_hash=spatial_hash)
    sprites = [arcade.SpriteSolidColor(10, 6, i * 3.0, i * 2.0) for i in range(count)]
    sprite_list.extend(sprites)
    return sprite_list, np.array(sprites, dtype=object)


def _state(sprite_list: arcade.SpriteList) -> tuple:
    return (
        [s.position for s in sprite_list],
        [s.angle for s in sprite_list],
        [tuple(map(tuple, s.hit_box.get_adjusted_points())) for s in sprite_list],
        list(sprite_list._sprite_pos_angle_data),
    )


@pytest.mark.parametrize("spatial_hash", [False, True])
def test_batched_write_equals_public_setters(spatial_hash: bool) -> None:
    rng = np.random.default_rng(0)
    positions = rng.uniform(-500, 500, (7, 2))
    angles = rng.uniform(-180, 180, 7)
    batched_list, batched = _sprites(7, spatial_hash)
    public_list, public = _sprites(7, spatial_hash)
    for sprite in public_list:  # cache the hit boxes first, so stale caches would show
        sprite.hit_box.get_adjusted_points()
    for sprite in batched_list:
        sprite.hit_box.get_adjusted_points()

    _write(batched[2:], positions[2:])
    _write(batched[1:], angles=angles[1:])
    for sprite, (x, y) in zip(public[2:], positions[2:].tolist(), strict=True):
        sprite.position = (x, y)
    for sprite, angle in zip(public[1:], angles[1:].tolist(), strict=True):
        sprite.angle = angle

    assert _state(batched_list) == _state(public_list)
    if spatial_hash:
        near = arcade.check_for_collision_with_list(batched[3], batched_list)
        expected = arcade.check_for_collision_with_list(public[3], public_list)
        assert [batched_list.index(s) for s in near] == [public_list.index(s) for s in expected]


def test_sprite_in_two_lists_updates_both() -> None:
    first, sprites = _sprites(3)
    second = arcade.SpriteList()
    second.append(sprites[1])
    _write(sprites, np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    data = np.array(second._sprite_pos_angle_data).reshape(-1, 4)
    assert tuple(data[second.sprite_slot[sprites[1]], :2]) == (3.0, 4.0)
    assert sprites[1].position == (3.0, 4.0)
    assert list(first)[2].position == (5.0, 6.0)


def test_other_objects_use_their_own_setters() -> None:
    class Tracked(arcade.Sprite):
        moves = 0

        @property
        def position(self):
            return super().position

        @position.setter
        def position(self, value):
            Tracked.moves += 1
            arcade.Sprite.position.fset(self, value)

    sprites = np.array([StubSprite(0, 0), Tracked(), StubSprite(1, 1)], dtype=object)
    assert _fast(sprites, 0).tolist() == [False, False, False]
    assert _fast(sprites, 1).tolist() == [False, True, False]  # Tracked keeps Sprite.angle
    _write(sprites, np.array([[5.0, 5.0], [6.0, 6.0], [7.0, 7.0]]), np.array([10.0, 20.0, 30.0]))
    assert Tracked.moves == 1
    assert read_positions(sprites).tolist() == [[5.0, 5.0], [6.0, 6.0], [7.0, 7.0]]
    assert [s.angle for s in sprites] == [10.0, 20.0, 30.0]


def test_read_positions_of_none() -> None:
    assert read_positions(np.array([], dtype=object)).shape == (0, 2)


def test_read_positions_of_plain_sprites_reads_the_stored_position() -> None:
    _, sprites = _sprites(3)
    fast = _fast(sprites, 0)
    assert fast.all()
    assert read_positions(sprites, fast).tolist() == [[0, 0], [3, 2], [6, 4]]


def test_put_rows_equals_fancy_assignment() -> None:
    from arcade_steering._util.vec import put_rows

    rng = np.random.default_rng(0)
    expected = rng.random((10, 2))
    actual = expected.copy()
    rows = np.array([7, 2, 9])
    values = rng.random((6, 2))[::2]  # not contiguous
    expected[rows] = values
    put_rows(actual, rows, values)
    assert np.array_equal(actual, expected)


def test_one_pass_with_some_sprites_turning_equals_public_setters() -> None:
    rng = np.random.default_rng(1)
    positions = rng.uniform(-300, 300, (6, 2))
    angles = rng.uniform(-180, 180, 6)
    turn = np.array([True, False, True, True, False, False])
    batched_list, batched = _sprites(6)
    public_list, public = _sprites(6)
    write_sprites(batched, positions, _fast(batched, 0), angles, turn, _fast(batched, 1))
    for index, sprite in enumerate(public):
        sprite.position = tuple(positions[index])
        if turn[index]:
            sprite.angle = float(angles[index])
    assert _state(batched_list) == _state(public_list)


class _OwnSetter(arcade.SpriteSolidColor):
    """A sprite whose position setter is its own: written through it, never in bulk."""

    @arcade.SpriteSolidColor.position.setter
    def position(self, value) -> None:
        arcade.SpriteSolidColor.position.fset(self, value)


def _squads(own_setters: set[int]) -> tuple[list[arcade.SpriteList], list]:
    """Nine sprites in four lists: three squads and one list of every other sprite; the
    sprites at ``own_setters`` have their own position setter."""
    sprites = [
        (_OwnSetter if i in own_setters else arcade.SpriteSolidColor)(10, 6, i * 3.0, i * 2.0)
        for i in range(9)
    ]
    squads = [arcade.SpriteList() for _ in range(3)]
    for index, sprite in enumerate(sprites):
        squads[index // 3].append(sprite)
    every_other = arcade.SpriteList()
    every_other.extend(sprites[::2])
    return [*squads, every_other], sprites


def test_many_lists_with_some_sprites_turning_or_own_setters_equal_public_setters() -> None:
    rng = np.random.default_rng(2)
    positions = rng.uniform(-300, 300, (9, 2))
    angles = rng.uniform(-180, 180, 9)
    turn = rng.random(9) < 0.5
    batched_lists, batched = _squads({1, 5})
    public_lists, public = _squads({1, 5})
    write_sprites(
        batched,
        positions,
        _fast(np.array(batched), 0),
        angles,
        turn,
        _fast(np.array(batched), 1),
        ListSlots.of(batched),
    )
    for index, sprite in enumerate(public):
        sprite.position = tuple(positions[index])
        if turn[index]:
            sprite.angle = float(angles[index])
    for batched_list, public_list in zip(batched_lists, public_lists, strict=True):
        assert _state(batched_list) == _state(public_list)


# -- a game's moves between updates are read, however the sprite is held ------------------------


def _moving_world(sprites: list[arcade.Sprite]):
    import arcade_steering as steer

    world = steer.SteeringWorld(seed=0)
    for sprite in sprites:
        world.attach(sprite, steer.Seek((5000.0, 5000.0)), max_speed=100.0)
    world.update(1 / 60)
    return world


def _in_one_list(sprite, lists) -> None:
    sprite.position = (-300.0, 250.0)


def _in_two_lists(sprite, lists) -> None:
    extra = arcade.SpriteList()
    extra.append(sprite)
    lists.append(extra)
    sprite.position = (-300.0, 250.0)


def _removed_then_moved(sprite, lists) -> None:
    sprite.remove_from_sprite_lists()
    sprite.position = (-300.0, 250.0)


def _moved_then_added(sprite, lists) -> None:
    sprite.remove_from_sprite_lists()
    sprite.position = (-300.0, 250.0)
    lists[0].append(sprite)


def _moved_by_center_x(sprite, lists) -> None:
    sprite.center_x = -300.0
    sprite.center_y = 250.0


@pytest.mark.parametrize(
    "move",
    [_in_one_list, _in_two_lists, _removed_then_moved, _moved_then_added, _moved_by_center_x],
)
@pytest.mark.usefixtures("exchange")
def test_a_sprite_the_game_moves_between_updates_carries_on_from_there(move) -> None:
    sprite_list, sprites = _sprites(4)
    lists = [sprite_list]
    world = _moving_world(sprites.tolist())
    move(sprites[2], lists)
    world.update(1e-6)
    assert sprites[2].position == pytest.approx((-300.0, 250.0), abs=1e-3)
    assert world.agent_of(sprites[2]).position == pytest.approx((-300.0, 250.0), abs=1e-3)
    others = [world.agent_of(s).position for s in sprites[[0, 1, 3]]]
    assert all(abs(x + 300.0) > 1.0 for x, _ in others)  # nobody else was teleported


@pytest.mark.usefixtures("exchange")
def test_a_sprite_in_no_list_is_read_every_update() -> None:
    sprite = arcade.SpriteSolidColor(10, 6, 0.0, 0.0)
    world = _moving_world([sprite])
    sprite.position = (40.0, -40.0)
    world.update(1e-6)
    assert world.agent_of(sprite).position == pytest.approx((40.0, -40.0), abs=1e-3)


@pytest.mark.usefixtures("exchange")
def test_list_buffers_show_exactly_the_sprites_moved() -> None:
    from arcade_steering._arcade.sprite_sync import ListSlots

    rng = np.random.default_rng(5)
    _sprite_list, sprites = _sprites(50)  # the list the sprites' buffers live in
    extra = arcade.SpriteList()
    extra.extend(sprites[::3].tolist())
    written = read_positions(sprites)
    moved = rng.random(50) < 0.3
    for index in np.flatnonzero(moved):
        sprites[index].position = tuple(rng.uniform(-100, 100, 2))
    shown = ListSlots.of(sprites.tolist()).moved(written)
    assert shown.tolist() == moved.tolist()


def _buffer_positions(sprite_list: arcade.SpriteList) -> dict[int, tuple[float, float]]:
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    return {id(s): tuple(data[sprite_list.sprite_slot[s], :2].tolist()) for s in sprite_list}


def _assert_buffers_match(sprite_list: arcade.SpriteList) -> None:
    expected = {id(s): tuple(np.float32(s.position).tolist()) for s in sprite_list}
    assert _buffer_positions(sprite_list) == expected


@pytest.mark.usefixtures("exchange")
def test_sprites_that_change_lists_between_updates_keep_every_buffer_right() -> None:
    first, sprites = _sprites(5)
    world = _moving_world(sprites.tolist())
    second = arcade.SpriteList()
    second.extend(sprites[:2].tolist())  # joins a list the world has not seen
    world.update(1 / 60)
    _assert_buffers_match(first)
    _assert_buffers_match(second)
    sprites[3].remove_from_sprite_lists()
    stranger = arcade.SpriteSolidColor(4, 4, -50.0, -50.0)
    first.append(stranger)  # takes the slot the agent left
    world.update(1 / 60)
    _assert_buffers_match(first)
    _assert_buffers_match(second)
    assert stranger.position == (-50.0, -50.0)


@pytest.mark.usefixtures("exchange")
def test_every_moving_rotating_sprite_faces_its_way_and_the_others_keep_their_angle() -> None:
    """Straight walkers, turning ones, one standing still and one that must not rotate, in one
    list: sprites, hit boxes and the list's buffer all end up as arcade's setters leave them."""
    import arcade_steering as steer

    sprite_list, sprites = _sprites(4)
    for sprite in sprites:
        sprite.angle = 33.0
    world = steer.SteeringWorld(seed=0)
    world.attach(sprites[0], steer.Seek((5000.0, 0.0)), velocity=(100.0, 0.0))  # straight
    world.attach(sprites[1], steer.Seek((0.0, -5000.0)), velocity=(100.0, 0.0))  # turning
    world.attach(sprites[2], steer.Arrive(tuple(sprites[2].position)))  # standing still
    world.attach(sprites[3], steer.Seek((0.0, 5000.0)), rotate=False)
    for _ in range(5):
        world.update(1 / 60)
    sprites[0].angle = 33.0  # the game turns a walker the world rotates: it faces its way again
    world.update(1 / 60)
    assert sprites[0].angle == pytest.approx(0.0, abs=1e-9)  # east, drawn facing right
    assert angle_of(world.agent_of(sprites[1]).velocity) == pytest.approx(sprites[1].angle)
    assert sprites[2].angle == 33.0
    assert sprites[3].angle == 33.0
    public_list, public = _sprites(4)
    for mine, theirs in zip(sprites, public, strict=True):
        theirs.position, theirs.angle = mine.position, mine.angle
    assert _state(sprite_list) == _state(public_list)


def angle_of(velocity: tuple[float, float]) -> float:
    """Arcade's clockwise angle of art drawn facing right that points along ``velocity``."""
    return -float(np.degrees(np.arctan2(velocity[1], velocity[0])))


# -- squads whose lists change between updates: last update's places must not be reused ------


def _swap_two_in_a_list(squads, sprites, spare) -> None:
    squads[0].swap(0, 2)  # only the drawing order changes: every slot stays


def _exchange_two_between_lists(squads, sprites, spare) -> None:
    first, second = squads[0][1], squads[1][1]
    squads[0].remove(first)
    squads[1].remove(second)
    squads[0].append(second)  # each takes the slot the other left
    squads[1].append(first)


def _replace_in_place_and_move_away(squads, sprites, spare) -> None:
    moved = squads[0][3]
    squads[0][3] = spare  # the stranger takes its slot, in its place in the list
    extra = arcade.SpriteList()
    extra.append(moved)  # and it is still in one list
    spare.extra = extra  # kept alive by the test


def _leave_and_rejoin(squads, sprites, spare) -> None:
    last = squads[1][-1]
    squads[1].remove(last)
    squads[1].append(last)  # same order, but in the free slot its list had before


def _clear_and_refill_reversed(squads, sprites, spare) -> None:
    members = list(squads[2])
    squads[2].clear()
    squads[2].extend(members[::-1])


@pytest.mark.parametrize(
    "change",
    [
        _swap_two_in_a_list,
        _exchange_two_between_lists,
        _replace_in_place_and_move_away,
        _leave_and_rejoin,
        _clear_and_refill_reversed,
    ],
)
@pytest.mark.usefixtures("exchange")
def test_squads_whose_lists_change_between_updates_keep_every_buffer_right(change) -> None:
    import arcade_steering as steer

    world = steer.SteeringWorld(seed=0)
    squads = [arcade.SpriteList() for _ in range(3)]
    sprites = []
    for squad_index, squad in enumerate(squads):
        for index in range(4):
            sprite = arcade.SpriteSolidColor(8, 8, 20.0 * index, 30.0 * squad_index)
            squad.append(sprite)
            sprites.append(sprite)
            world.attach(sprite, steer.Seek((5000.0, 3000.0)), max_speed=100.0)
    spare = arcade.SpriteSolidColor(4, 4, -50.0, -50.0)
    squads[1].insert(0, spare)
    squads[1].remove(spare)  # its slot is free
    for _ in range(3):  # the same lists for a while: the places found are reused
        world.update(1 / 60)
    change(squads, sprites, spare)
    lists = [*squads, *([spare.extra] if hasattr(spare, "extra") else [])]
    for _ in range(2):
        world.update(1 / 60)
        for sprite_list in lists:
            _assert_buffers_match(sprite_list)
    assert spare.position == (-50.0, -50.0)
    assert all(world.agent_of(s).position == pytest.approx(s.position) for s in sprites)
