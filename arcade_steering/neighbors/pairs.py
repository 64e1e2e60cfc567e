"""NeighborPairs: the answer of a neighbour query, as flat pair arrays reduced per agent."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["NeighborPairs"]


@dataclass(frozen=True)
class NeighborPairs:
    """Neighbour pairs found by :meth:`NeighborIndex.query`, as flat arrays.

    Pair ``i`` says that agent ``other[i]`` is a neighbour of the asking agent in batch position
    ``query[i]``. Pairs are grouped by ``query`` (non-decreasing); their order inside a group is
    deterministic but otherwise unspecified. An agent is never its own neighbour; coincident
    agents are neighbours at distance 0.

    Attributes:
        query: (p,) int, position of the asking agent in the query's ``rows`` (0..q-1).
        other: (p,) int, index of the neighbour in the index's positions.
        offset: (p, 2) float, px: ``positions[other] - positions[rows[query]]``.
        distance: (p,) float, px: length of ``offset``.
        n_queries: q, the number of asking agents; reductions return q rows.
    """

    query: np.ndarray
    other: np.ndarray
    offset: np.ndarray
    distance: np.ndarray
    n_queries: int

    def __len__(self) -> int:
        """Number of pairs p."""
        return len(self.query)

    def count(self) -> np.ndarray:
        """Number of neighbours of each asking agent.

        Returns:
            (q,) int.
        """
        return np.bincount(self.query, minlength=self.n_queries)

    def sum(self, values: np.ndarray) -> np.ndarray:
        """Sum per-pair values over each asking agent's neighbours.

        Args:
            values: (p,) or (p, k) numbers, one row per pair.

        Returns:
            (q,) or (q, k) float; 0 for an agent without neighbours.
        """
        values = np.asarray(values, dtype=np.float64)
        if values.shape[:1] != (len(self),) or values.ndim not in (1, 2):
            raise ValueError(f"values must have shape (p,) or (p, k) with p={len(self)}")
        if values.ndim == 1:
            return np.bincount(self.query, weights=values, minlength=self.n_queries)
        if values.shape[1] == 2:  # vectors: one bincount over the flat (p, 2) values
            flat = np.ascontiguousarray(values).ravel()
            return np.bincount(self._query2, weights=flat, minlength=2 * self.n_queries).reshape(
                self.n_queries, 2
            )
        out = np.empty((self.n_queries, values.shape[1]))
        for column in range(values.shape[1]):  # k is small
            out[:, column] = np.bincount(
                self.query, weights=values[:, column], minlength=self.n_queries
            )
        return out

    @cached_property
    def _query2(self) -> np.ndarray:
        """(2p,) int: the bin of each element of flat (p, 2) values, ``2 query + column``;
        built once, shared by every rule summing vectors over these pairs."""
        bins = np.repeat(2 * self.query, 2)
        bins[1::2] += 1
        return bins

    def mean(self, values: np.ndarray, empty: float = 0.0) -> np.ndarray:
        """Average per-pair values over each asking agent's neighbours.

        For cohesion, ``mean(offset)`` is the way from an agent to its neighbours' centre; for
        alignment, ``mean(velocity[other])`` is the neighbours' mean velocity.

        Args:
            values: (p,) or (p, k) numbers, one row per pair.
            empty: value given to agents without neighbours.

        Returns:
            (q,) or (q, k) float.
        """
        total = self.sum(values)
        count = self.count()
        scale = 1.0 / np.maximum(count, 1)
        out = total * (scale if total.ndim == 1 else scale[:, None])
        out[count == 0] = empty
        return out

    def argmin(self, keys: np.ndarray) -> np.ndarray:
        """For each asking agent, the pair with the smallest key (e.g. time to collision).

        Args:
            keys: (p,) float per pair. NaN keys are skipped; ties go to the earlier pair.

        Returns:
            (q,) int index into the pair arrays (use ``other[i]``, ``keys[i]``), -1 for an
            agent with no pair (or only NaN keys).
        """
        keys = np.asarray(keys, dtype=np.float64)
        if keys.shape != (len(self),):
            raise ValueError(f"keys must have shape (p,) with p={len(self)}")
        valid = np.flatnonzero(~np.isnan(keys))
        rows = self.query[valid]
        row_min = np.full(self.n_queries, np.inf)
        np.minimum.at(row_min, rows, keys[valid])
        hits = valid[keys[valid] == row_min[rows]]
        first = np.full(self.n_queries, len(self), dtype=np.intp)
        np.minimum.at(first, self.query[hits], hits)
        first[first == len(self)] = -1
        return first

    def renumbered(self, numbers: np.ndarray) -> NeighborPairs:
        """The same pairs, each ``other`` replaced by ``numbers[other]`` (slots for rows, say)."""
        return NeighborPairs(
            self.query, numbers.take(self.other), self.offset, self.distance, self.n_queries
        )

    def select(self, mask: np.ndarray) -> NeighborPairs:
        """Keep the pairs where ``mask`` is true.

        Args:
            mask: (p,) bool.

        Returns:
            NeighborPairs with the same ``n_queries``.
        """
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (len(self),):
            raise ValueError(f"mask must have shape (p,) with p={len(self)}")
        return NeighborPairs(
            self.query[mask],
            self.other[mask],
            self.offset[mask],
            self.distance[mask],
            self.n_queries,
        )

    def within_fov(self, headings: np.ndarray, fov_degrees: float | np.ndarray) -> NeighborPairs:
        """Keep the neighbours inside each asking agent's field of view.

        A neighbour is seen when the angle between the agent's heading and the offset to the
        neighbour is at most ``fov_degrees / 2``. Coincident neighbours (distance 0) are kept.

        Args:
            headings: (q,) radians, counter-clockwise from +x (``atan2(vy, vx)``).
            fov_degrees: full view angle in degrees (0..360, 360 sees all), scalar or (q,).

        Returns:
            NeighborPairs with the same ``n_queries``.
        """
        headings = np.asarray(headings, dtype=np.float64)
        if headings.shape != (self.n_queries,):
            raise ValueError(f"headings must have shape (q,) with q={self.n_queries}")
        fov = np.broadcast_to(np.asarray(fov_degrees, dtype=np.float64), (self.n_queries,))
        if np.any(np.isnan(fov)) or np.any(fov < 0.0):
            raise ValueError("fov_degrees must be >= 0")
        cos_half = np.cos(np.radians(np.minimum(fov, 360.0) / 2.0))[self.query]
        angle = headings[self.query]
        dot = self.offset[:, 0] * np.cos(angle) + self.offset[:, 1] * np.sin(angle)
        keep = (
            (dot >= self.distance * cos_half) | (self.distance == 0.0) | (fov >= 360.0)[self.query]
        )
        return self.select(keep)

    @classmethod
    def empty(cls, n_queries: int = 0) -> NeighborPairs:
        """Pairs for ``n_queries`` asking agents none of which has a neighbour."""
        return cls(
            np.empty(0, np.intp), np.empty(0, np.intp), np.empty((0, 2)), np.empty(0), n_queries
        )
