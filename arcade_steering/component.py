"""The base every behaviour and combiner extends."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ._core.params import Param

if TYPE_CHECKING:
    from .context import SteeringContext


class SteeringComponent:
    """A steering behaviour: computes one force per agent for a whole batch of agents.

    Override :meth:`steer`. It receives a :class:`~arcade_steering.SteeringContext` for ``n``
    agents and returns their forces as an array ``(n, 2)`` in px/s² times mass. Reynolds' form
    is ``(desired_velocity - ctx.velocity) / ctx.response_time[:, None]``.

    Batching: agents whose behaviour trees have the same *shape* (the same component classes
    arranged the same way) are evaluated together. A component instance shared by many agents
    is always batched. Different instances of one class share a batch only when the class sets
    ``batch_instances = True`` and declares all its parameters as :mod:`Param
    <arcade_steering._params>` descriptors, which :meth:`SteeringContext.param` gathers into
    per-agent arrays; every built-in component does. A user component that keeps plain
    attributes is batched per instance, which is always correct.

    Per-agent state (a wander angle, progress along a path) lives in the world's arrays, read
    and written with :meth:`SteeringContext.state` and :meth:`SteeringContext.set_state`, never
    on the component, which many agents may share.

    Example:
        >>> import numpy as np
        >>> class Drift(SteeringComponent):
        ...     '''Steer every agent east at 50 px/s.'''
        ...     def steer(self, ctx):
        ...         desired = np.zeros((len(ctx), 2))
        ...         desired[:, 0] = 50.0
        ...         return (desired - ctx.velocity) / ctx.response_time[:, None]
    """

    #: Whether different instances of this class may share a batch (see the class docstring).
    #: Not inherited: a subclass shares batches across instances only if it sets it too.
    batch_instances: ClassVar[bool] = False

    #: Bumped whenever any component parameter is assigned: batches re-gather after it.
    param_epoch: ClassVar[int] = 0
    #: Bumped when a structural parameter changes: worlds regroup their batches after it.
    shape_epoch: ClassVar[int] = 0

    _children: tuple[SteeringComponent, ...] = ()

    @property
    def children(self) -> tuple[SteeringComponent, ...]:
        """The child components, for combiners; empty for a behaviour."""
        return self._children

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        """Forces for the batch in ``ctx``.

        Args:
            ctx: The agents of the batch and what they can see.

        Returns:
            Forces ``(len(ctx), 2)``, px/s² times mass.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement steer(ctx)")

    def shape_key(self) -> Hashable:
        """What decides which agents share a batch: class, structure and children."""
        cls = type(self)
        # Each class opts in itself: a subclass may add plain attributes the batch can't see.
        identity = None if cls.__dict__.get("batch_instances", False) else id(self)
        structural = tuple(
            (param.name, self.__dict__.get(param.name)) for param in _structural_params(cls)
        )
        return (cls, identity, structural, tuple(child.shape_key() for child in self._children))

    def iter_tree(self) -> Iterable[SteeringComponent]:
        """This component and its descendants, depth first (pre-order)."""
        yield self
        for child in self._children:
            yield from child.iter_tree()

    def _parameter_changed(self, param: Param) -> None:
        SteeringComponent.param_epoch += 1
        if param.structural:
            SteeringComponent.shape_epoch += 1

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if not isinstance(getattr(type(self), name, None), Param):
            SteeringComponent.param_epoch += 1

    def __repr__(self) -> str:
        params = ", ".join(
            f"{param.name}={getattr(self, param.name)!r}"
            for param in _declared_params(type(self))
            if param.name in self.__dict__
        )
        return f"{type(self).__name__}({params})"


@functools.cache
def _declared_params(cls: type) -> tuple[Param, ...]:
    """The parameters a component class declares, its bases' included (read once per class:
    shape keys ask for them for every agent)."""
    seen: dict[str, Param] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Param):
                seen[name] = value
    return tuple(seen.values())


@functools.cache
def _structural_params(cls: type) -> tuple[Param, ...]:
    return tuple(param for param in _declared_params(cls) if param.structural)


def check_component(name: str, value: Any) -> SteeringComponent:
    """Return ``value`` if it is a :class:`SteeringComponent`, else raise ``TypeError``."""
    if not isinstance(value, SteeringComponent):
        raise TypeError(f"{name} must be a SteeringComponent, got {type(value).__name__}")
    return value
