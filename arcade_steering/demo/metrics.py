"""What the headless demo measures about the squad, frame by frame."""

from __future__ import annotations

import numpy as np

from .scene import Scene


def crossings(start: np.ndarray, end: np.ndarray, walls: np.ndarray) -> int:
    """How many moves ``start -> end`` ``(n, 2)`` cross a wall's centre line ``(m, 4)``."""
    if not len(start) or not len(walls):
        return 0
    p, r = start[:, None, :], (end - start)[:, None, :]
    q, s = walls[None, :, :2], (walls[:, 2:] - walls[:, :2])[None, :, :]
    denominator = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denominator
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denominator
    crossed = (denominator != 0) & (t > 0) & (t <= 1) & (u >= 0) & (u <= 1)
    return int(crossed.any(axis=1).sum())


class SquadMetrics:
    """Accumulates sight-cone time, distance to the leader, wall crossings, penetrations."""

    def __init__(self) -> None:
        self.follower_frames = 0
        self.in_cone = 0
        self.distance_sum = 0.0
        self.wall_crossings = 0
        self.obstacle_penetrations = 0

    @staticmethod
    def positions(scene: Scene) -> np.ndarray:
        """Follower positions ``(k, 2)`` from the world."""
        world = scene.world
        return np.array([world.agent_of(s).position for s in scene.squad]).reshape(-1, 2)

    def record(self, scene: Scene, before: np.ndarray) -> None:
        """Add one frame; ``before`` are the followers' positions before it."""
        world = scene.world
        after = self.positions(scene)
        if len(after) != len(before):  # the squad changed this frame
            return
        offset = after - np.array(world.agent_of(scene.leader).position)
        self.follower_frames += len(after)
        self.in_cone += int(scene.in_cone(after).sum())
        self.distance_sum += float(np.hypot(offset[:, 0], offset[:, 1]).sum())
        self.wall_crossings += crossings(before, after, scene.wall_segments)
        radii = np.array([world.agent_of(s).radius for s in scene.squad])
        centers = world.geometry.circle_center
        if len(centers):
            gaps = np.linalg.norm(after[:, None, :] - centers[None], axis=2)
            overlap = radii[:, None] + world.geometry.circle_radius[None] - gaps
            self.obstacle_penetrations += int((overlap > 1.0).any(axis=1).sum())

    def summary(self) -> dict[str, float]:
        frames = max(self.follower_frames, 1)
        return {
            "in_sight_cone_fraction": round(self.in_cone / frames, 4),
            "mean_distance_to_leader": round(self.distance_sum / frames, 2),
            "wall_crossings": self.wall_crossings,
            "obstacle_penetrations": self.obstacle_penetrations,
        }
