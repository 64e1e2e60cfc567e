"""Agents sorted by the cell of a uniform grid: the table every neighbour query scans."""

from __future__ import annotations

import numpy as np

__all__ = ["CELL_MARGIN", "CELL_PAD", "MAX_CELLS_PER_AXIS", "CellGrid"]

# Cells are made this much larger than asked, so that a radius equal to the cell size still
# scans 3 x 3 cells despite the safety margin below.
CELL_PAD = 1.0 + 1e-4
# Cell coordinates are kept below 2**30 per axis, so cell keys fit int64 and the float error
# of a cell coordinate stays below ~4e-7 cells; CELL_MARGIN covers that error twice over.
MAX_CELLS_PER_AXIS = 2.0**30
CELL_MARGIN = 1e-6
# Below this many cells per agent a dense cell table beats binary search: filling a cell
# costs well under a nanosecond, where each agent's six binary searches (3 x 3 cells) cost
# ~0.25 us, mostly mispredicted branches. Squads, each in a grid of its own, need ~80 cells
# per agent (20 squads of 50 on a 2,000 px field: 3% fewer instructions per update).
_DENSE_CELLS_PER_AGENT = 128
# ... and below this many cells whatever the agents.
_DENSE_CELLS = 2**15 - 2
_RADIX_CELLS = 2**16


class CellGrid:
    """Agents sorted by the cell of a uniform grid.

    Cell ``(ix, iy)`` has key ``ix * ny + iy``. The occupied cells are framed by one empty
    cell on every side, so that the 3 x 3 cells around any agent exist and need no clipping.

    With ``labels`` (``(n,)`` int >= 0, all below ``groups``), each label has a grid of its
    own: cell keys of label ``g`` are offset by ``g * nx * ny``, so the cells around an agent in
    one label's grid hold only that label's agents.

    The agents' ``positions`` ``(n, 2)`` come with their columns ``x`` and ``y`` (contiguous).
    """

    def __init__(
        self,
        positions: np.ndarray,
        x: np.ndarray,
        y: np.ndarray,
        lower: np.ndarray,
        cell_size: float,
        labels: np.ndarray | None = None,
        groups: int = 0,
    ) -> None:
        self.cell_size = cell_size
        self.cx = np.floor((x - lower[0]) / cell_size).astype(np.intp) + 1
        self.cy = np.floor((y - lower[1]) / cell_size).astype(np.intp) + 1
        self.nx = int(self.cx.max()) + 2
        self.ny = int(self.cy.max()) + 2
        keys = self.cx * self.ny + self.cy
        n_cells = self.cells_per_label = self.nx * self.ny
        if labels is not None:
            keys += labels * n_cells
            n_cells *= groups
        if n_cells <= _RADIX_CELLS:
            # numpy radix-sorts 16-bit keys: about 6x faster than sorting int64.
            self.order = keys.astype(np.uint16).argsort(kind="stable")
        else:
            self.order = keys.argsort(kind="stable")
        self.sorted_keys = keys.take(self.order)
        self.sorted_positions = positions.take(self.order, axis=0)
        # Where each agent is in sorted order.
        self.rank = np.empty_like(self.order)
        self.rank[self.order] = np.arange(len(self.order))
        self.starts: np.ndarray | None = None
        if n_cells <= max(_DENSE_CELLS_PER_AGENT * len(x), _DENSE_CELLS):
            # starts[c] = how many agents have a key below c: agent i's count repeated once
            # for each cell after the previous agent's, up to its own. int32 and no temporary
            # as large as the table.
            steps = np.empty(len(keys) + 1, dtype=np.intp)
            steps[0] = self.sorted_keys[0] + 1 if len(keys) else n_cells + 1
            np.subtract(self.sorted_keys[1:], self.sorted_keys[:-1], out=steps[1:-1])
            steps[-1] = n_cells - self.sorted_keys[-1] if len(keys) else 0
            self.starts = np.repeat(np.arange(len(keys) + 1, dtype=np.int32), steps)

    def _slices(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bounds in sorted order of the agents whose cell keys are in ``[lo, hi)``."""
        if self.starts is not None:
            return self.starts.take(lo), self.starts.take(hi)
        return np.searchsorted(self.sorted_keys, lo), np.searchsorted(self.sorted_keys, hi)

    def cell_ranges(
        self, rows: np.ndarray, reach: int, label: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Where, in sorted order, the agents around each asking agent lie.

        Each asking agent scans 2 reach + 1 columns of 2 reach + 1 cells; the cells of one
        column have consecutive keys, so they are one slice of the sorted agents. With
        ``label`` (``(q,)`` int), each scans the cells of that label's grid.

        Returns:
            (q, 2 reach + 1) int slice starts and (q, 2 reach + 1) int slice lengths.
        """
        cx = self.cx.take(rows)
        cy = self.cy.take(rows)
        if reach == 1:
            lo = cx * self.ny + cy - (self.ny + 1)
            if label is not None:
                lo += label * self.cells_per_label
            lo = lo[:, None] + np.array([0, self.ny, 2 * self.ny])
            start, stop = self._slices(lo, lo + 3)
            stop -= start
            return start, stop
        columns = cx[:, None] + np.arange(-reach, reach + 1)
        inside = (columns >= 0) & (columns < self.nx)
        columns = np.where(inside, columns, 0) * self.ny
        if label is not None:
            columns += (label * self.cells_per_label)[:, None]
        lo = columns + np.maximum(cy - reach, 0)[:, None]
        hi = columns + np.minimum(cy + reach + 1, self.ny)[:, None]
        start, stop = self._slices(lo, hi)
        return start, np.where(inside, stop - start, 0)

    def ragged_ranges(
        self, rows: np.ndarray, reach: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Like :meth:`cell_ranges`, each asking agent scanning its own ``reach`` cells.

        Args:
            rows: (q,) int asking agents.
            reach: (q,) int >= 1, cells each side.

        Returns:
            Flat slice starts and lengths, ``2 reach[i] + 1`` of them for row ``i`` (rows in
            order), and the (q + 1,) offsets of each row's first slice.
        """
        cx = self.cx.take(rows)
        cy = self.cy.take(rows)
        width = 2 * reach + 1
        first = np.zeros(len(rows) + 1, dtype=np.intp)
        np.cumsum(width, out=first[1:])
        # Ragged arange: columns cx - reach .. cx + reach of every row, concatenated.
        column = np.repeat(cx - reach - first[:-1], width)
        column += np.arange(first[-1])
        inside = (column >= 0) & (column < self.nx)
        base = np.where(inside, column, 0) * self.ny
        lo = base + np.repeat(np.maximum(cy - reach, 0), width)
        hi = base + np.repeat(np.minimum(cy + reach + 1, self.ny), width)
        start, stop = self._slices(lo, hi)
        stop -= start
        stop[~inside] = 0
        return start, stop, first
