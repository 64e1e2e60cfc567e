"""Replays: record what a session's frames were given, play it back to the same bits.

A world is deterministic per seed: given the same ``delta_time`` sequence and the same moves
by the game, it computes the same positions, bit for bit. A :class:`Replay` records those
inputs frame by frame, with a digest of the world at the start of each frame, and plays them
back, checking the digests as it goes: a game that drifts from its recording (an input not
recorded, code reading the wall clock) is told at the first frame that differs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ._util.validate import check_real, finite_float
from .world import SteeringWorld, check_world

__all__ = ["Replay", "ReplayFrame", "ReplayMismatchError"]

#: The version of :meth:`Replay.to_dict`'s format.
REPLAY_VERSION = 1


class ReplayMismatchError(RuntimeError):
    """Playing back, the world differs from what was recorded at a frame."""


@dataclass(frozen=True)
class ReplayFrame:
    """One recorded frame.

    Attributes:
        delta_time: The frame's ``delta_time``, s.
        inputs: What the game recorded for the frame (key presses, clicks...), JSON data.
        moves: Where the game had put its own sprites (by name) when the frame began.
        digest: The world's digest when the frame began.
    """

    delta_time: float
    inputs: tuple[Any, ...]
    moves: Mapping[str, tuple[float, float]]
    digest: str


class Replay:
    """The frames of a session: record them as it runs, play them back later.

    Example:
        Recording, in ``on_update``, before the game's own update::

            replay.record(world, delta_time, inputs=pressed_this_frame, moved={"player": player})

        Playing back into a world set up as the recorded one was::

            for frame in replay.play(world, moved={"player": player}):
                game.apply(frame.inputs)
                game.update(frame.delta_time)
    """

    def __init__(self) -> None:
        self.frames: list[ReplayFrame] = []
        #: The world's digest after the last frame (see :meth:`finish`), or None.
        self.end: str | None = None

    def __len__(self) -> int:
        return len(self.frames)

    def record(
        self,
        world: SteeringWorld,
        delta_time: float,
        inputs: tuple[Any, ...] | list[Any] = (),
        *,
        moved: Mapping[str, Any] | None = None,
    ) -> None:
        """Record a frame, before the game updates it.

        Args:
            world: The world the frame updates.
            delta_time: The frame's ``delta_time``, s, finite and >= 0.
            inputs: What the game will do this frame besides updating (JSON data: numbers,
                strings, lists, dictionaries), handed back by :meth:`play`.
            moved: The sprites the game moves itself (a player), by name: their positions
                now are put back at this frame when playing.

        Raises:
            TypeError / ValueError: A bad argument (named), nothing recorded.
        """
        check_world(world)
        delta_time = check_real("delta_time", delta_time)
        if delta_time < 0:
            raise ValueError(f"delta_time must be >= 0, got {delta_time}")
        if isinstance(inputs, (str, bytes)) or not isinstance(inputs, (tuple, list)):
            raise TypeError(f"inputs must be a list of JSON data, got {type(inputs).__name__}")
        try:
            inputs = tuple(json.loads(json.dumps(list(inputs), allow_nan=False)))
        except (TypeError, ValueError) as error:
            raise ValueError(f"inputs must be JSON data (finite numbers): {error}") from None
        moves = {name: _position(name, sprite) for name, sprite in _named(moved).items()}
        self.frames.append(ReplayFrame(delta_time, inputs, moves, world.snapshot().digest()))
        self.end = None

    def finish(self, world: SteeringWorld) -> None:
        """Record the world after the last frame, so that playing checks that frame too."""
        self.end = check_world(world).snapshot().digest()

    def play(
        self, world: SteeringWorld, *, moved: Mapping[str, Any] | None = None
    ) -> Iterator[ReplayFrame]:
        """The recorded frames, in order, for the game to run each as it did.

        Before giving each frame it puts the ``moved`` sprites where they were and checks
        the world is as recorded; after the last it checks the end (if :meth:`finish` was
        called).

        Args:
            world: A world in the state the recording began from (the same level and seed,
                or a snapshot restored).
            moved: The sprites recorded by name with ``moved=``.

        Raises:
            ReplayMismatchError: The world differs from the recording; the message names the frame.
            KeyError: A recorded sprite name is missing from ``moved``.
            TypeError: ``world`` is not a world or ``moved`` not a mapping of sprites.
        """
        check_world(world)
        sprites = _named(moved)
        for index, frame in enumerate(self.frames):
            for name, position in frame.moves.items():
                if name not in sprites:
                    raise KeyError(f"moved has no sprite named {name!r} (frame {index} moves it)")
                sprites[name].position = position
            if world.snapshot().digest() != frame.digest:
                raise ReplayMismatchError(f"frame {index}: the world differs from the recording")
            yield frame
        if self.end is not None and world.snapshot().digest() != self.end:
            raise ReplayMismatchError(f"after frame {len(self.frames) - 1}: the world differs")

    def to_dict(self) -> dict[str, Any]:
        """The replay as JSON-safe data (``json.dumps`` takes it)."""
        return {
            "version": REPLAY_VERSION,
            "frames": [
                {
                    "delta_time": frame.delta_time,
                    "inputs": list(frame.inputs),
                    "moves": {name: list(xy) for name, xy in frame.moves.items()},
                    "digest": frame.digest,
                }
                for frame in self.frames
            ],
            "end": self.end,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Replay:
        """A replay from what :meth:`to_dict` wrote.

        Raises:
            ValueError: The data is malformed; the message names the field.
        """
        if not isinstance(data, Mapping) or data.get("version") != REPLAY_VERSION:
            raise ValueError(f"replay.version must be {REPLAY_VERSION}")
        frames = data.get("frames")
        if not isinstance(frames, list):
            raise ValueError("replay.frames must be a list")
        replay = cls()
        replay.frames = [_frame(item, f"replay.frames[{i}]") for i, item in enumerate(frames)]
        end = data.get("end")
        if end is not None and not isinstance(end, str):
            raise ValueError("replay.end must be a digest (a string) or null")
        replay.end = end
        return replay


def _named(moved: Mapping[str, Any] | None) -> dict[str, Any]:
    if moved is None:
        return {}
    if not isinstance(moved, Mapping) or not all(isinstance(name, str) for name in moved):
        raise TypeError("moved must be a mapping of names to sprites")
    return dict(moved)


def _position(name: str, sprite: Any) -> tuple[float, float]:
    x, y = getattr(sprite, "position", (math.nan, math.nan))
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"moved[{name!r}] must be a sprite at a finite position")
    return float(x), float(y)


def _frame(item: Any, where: str) -> ReplayFrame:
    if not isinstance(item, Mapping):
        raise ValueError(f"{where} must be a dictionary")
    delta_time = finite_float(item.get("delta_time"))
    if delta_time is None or delta_time < 0:
        raise ValueError(f"{where}.delta_time must be a finite number >= 0")
    inputs, moves, digest = item.get("inputs"), item.get("moves"), item.get("digest")
    if not isinstance(inputs, list):
        raise ValueError(f"{where}.inputs must be a list")
    if not isinstance(digest, str):
        raise ValueError(f"{where}.digest must be a string")
    if not isinstance(moves, Mapping):
        raise ValueError(f"{where}.moves must be a dictionary")
    checked = {}
    for name, xy in moves.items():
        x, y = (
            (finite_float(xy[0]), finite_float(xy[1]))
            if isinstance(xy, list) and len(xy) == 2
            else (None, None)
        )
        if x is None or y is None:
            raise ValueError(f"{where}.moves[{name!r}] must be [x, y], finite")
        checked[name] = (x, y)
    return ReplayFrame(delta_time, tuple(inputs), checked, digest)
