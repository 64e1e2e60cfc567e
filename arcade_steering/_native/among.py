"""Flocking rules ``among=`` groups, for the C to find their neighbours itself: a label per
world agent and the group each agent of the batch asks about, the way numpy's index keeps a
neighbour (``SteeringContext.neighbors``), with no pair lists."""

from __future__ import annotations

import numpy as np

from .._core.gather import Groups
from ..component.frame import StepFrame
from .arrays import INTP

__all__ = ["among_labels"]


def among_labels(frame: StepFrame, groups: Groups) -> tuple[np.ndarray, np.ndarray] | None:
    """Each world agent's group ``(N,)`` (-1 for none, in the neighbour index's order) and
    each batch agent's ``(n,)``, an index into ``groups.values``.

    One group (``among=`` a SpriteList) labels its members 0; several (squads) label each
    agent with its own. None where numpy keeps neighbours otherwise: an agent in two of the
    groups, or a group of every agent beside others; their pairs then come from numpy.
    """
    neighborhood = frame.neighborhood
    if len(groups) == 1:
        mask = neighborhood.mask(groups.values[0])
        if mask is None:  # every agent: no labels to give
            return None
        labels = mask.astype(INTP)
        labels -= 1  # members 0, the others -1
        return labels, groups.index
    found = neighborhood.labels(groups.values)
    return None if found is None else (found, groups.index)
