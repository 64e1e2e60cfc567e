"""RunningSum: the children's forces added in order of priority until a force budget is spent
(Buckland's prioritised truncated running sum)."""

from __future__ import annotations

import numpy as np

from .._util.vec import lengths, scale_rows
from ..behaviors.avoid import AvoidWalls
from ..behaviors.group import Separation
from ..behaviors.seek import Seek
from ..component.base import Combiner, SteeringComponent
from ..component.context import SteeringContext
from ..component.params import param
from ..component.registry import Arguments, built_in


@built_in(lambda the: Arguments(AvoidWalls(), Separation(30.0), Seek(the.point), budget=300.0))
class RunningSum(Combiner):
    """Add the children's forces in order of priority until the force budget is spent.

    Each child's force is added whole while its magnitude fits in what is left of the budget,
    and cut down to what is left once it does not; what a child gets is spent. The children
    first in line get what they ask for, the later ones what remains, and the sum never
    exceeds the budget. Unlike :class:`PriorityBlend`,
    which hands the agent to one child, the later children still steer while the first ones
    ask for little (a Separation nudge and a Seek together).

    Every child is evaluated for every agent, so per-agent state keeps advancing.

    Args:
        *components: Children in order of priority.
        budget: The most force the sum may reach, px/s² times mass; None (the default) for
            each agent's ``max_force``. A budget above ``max_force`` counts as ``max_force``.

    Example:
        ``RunningSum(AvoidWalls(), Separation(30), Arrive(flag))``
    """

    #: The force budget; None for each agent's ``max_force``.
    budget: float | None = param(default=None, gt=0.0, kw_only=True)

    def __init__(self, *components: SteeringComponent, budget: float | None = None) -> None:
        self.adopt("components", components)
        self.budget = budget

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        budget = np.minimum(ctx.params(self).budget, ctx.max_force)
        left = budget.copy()
        total = np.zeros((len(ctx), 2))
        for index in range(len(self.children)):
            force = ctx.child(index)  # every child steers: its per-agent state advances
            asked = lengths(force)
            # The share of the force that fits: 1 while it fits whole, less once it does not.
            share = np.divide(left, asked, out=np.ones_like(asked), where=asked > left)
            total += scale_rows(force, share)
            left = np.maximum(left - asked * share, 0.0)
        return total

    def turn(self, ctx: SteeringContext) -> np.ndarray | None:
        """The sum of the turns of the children that turn (None if none does)."""
        total = None
        for index in range(len(self.children)):
            turn = ctx.child_turn(index)
            if turn is not None:
                total = turn if total is None else total + turn
        return total
