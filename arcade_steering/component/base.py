"""SteeringComponent: the base every behaviour and combiner extends."""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from .._core.tree import Listener
from .params import (
    Param,
    choice,
    declare,
    flag,
    group,
    make_init,
    param,
    point,
    target,
)

__all__ = ["Combiner", "SteeringComponent", "check_component"]

if TYPE_CHECKING:
    import numpy as np

    from .context import SteeringContext

if TYPE_CHECKING:  # type checkers read typing_extensions' (its stubs come with them)
    from typing_extensions import dataclass_transform
elif sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10: only type checkers need it

    def dataclass_transform(**_: Any) -> Any:
        return lambda cls: cls


#: Attributes the base class keeps on an instance that are not its state.
_INTERNAL = frozenset({"_children", "_watchers"})


#: The ``__init__`` functions made from declared parameters, to tell them from written ones.
_MADE_INITS: set[Callable[..., None]] = set()


@dataclass_transform(field_specifiers=(param, point, target, group, choice, flag))
class SteeringComponent:
    """A steering behaviour: computes one force per agent for a whole batch of agents.

    Override :meth:`steer`. It receives a :class:`~arcade_steering.SteeringContext` for ``n``
    agents and returns their forces as an array ``(n, 2)`` in px/s² times mass. Reynolds' form
    is ``(desired_velocity - ctx.velocity) / ctx.response_time[:, None]``.

    Parameters are declared once, as class attributes in the style of a dataclass, and the
    class gets its ``__init__``, ``repr`` and checks from them::

        class Drift(SteeringComponent):
            speed: float = param(default=50.0, gt=0.0)

    (``param``, ``target``, ``group``, ``choice`` and ``flag`` come from
    :mod:`arcade_steering.params`; a plain ``speed: float = 50.0`` is a parameter too, with no
    check.) In :meth:`steer`, ``ctx.params(self)`` gives each parameter for every agent of the
    batch, ``(n,)`` arrays for numbers.

    Batching: agents whose behaviour trees have the same *shape* (the same component classes
    arranged the same way, with equal structural parameters) are evaluated together. Agents
    with *different* instances of a class share a batch exactly when every attribute of the
    instances is a declared parameter; an instance with other attributes (set in a hand-written
    ``__init__``, say) is batched with the agents sharing that instance only, so ``steer`` may
    read its attributes from ``self``. Both are always correct.

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

    #: The declared parameters, by name, in declaration order (bases' first).
    params: ClassVar[dict[str, Param]] = {}
    #: Whether the component turns where agents look: true for a class defining
    #: :meth:`turn` (and its subclasses); combiners set it False, their children decide.
    steers_look: ClassVar[bool] = False

    _children: tuple[SteeringComponent, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = dict(vars(cls))
        cls.params = declare(cls, own)
        if "steers_look" not in own:
            cls.steers_look = cls.steers_look or "turn" in own
        declares = any(isinstance(value, Param) for value in vars(cls).values())
        # A subclass of a class with a made __init__ gets its own, so that Python's errors
        # ("Separation.__init__() missing ...") name the class the user called.
        if "__init__" not in own and (declares or cls.__init__ in _MADE_INITS):
            cls.__init__ = make_init(cls, cls.params)  # type: ignore[method-assign]
            _MADE_INITS.add(cls.__init__)

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

    def turn(self, ctx: SteeringContext) -> np.ndarray | None:
        """Angular accelerations of where the batch's agents look, or None for no opinion.

        Override it to steer the look direction apart from the heading (as Face and Scan
        do); the world limits it by each agent's ``max_angular_acceleration`` and the turn
        rate by ``max_turn_rate``. While no component of its tree turns, an agent looks
        where it goes.

        Args:
            ctx: The agents of the batch; ``ctx.look`` and ``ctx.angular_velocity`` are where
                they look and how fast that turns.

        Returns:
            ``(len(ctx),)`` degrees per second², counter-clockwise; or None.
        """
        return None

    def identity_state(self, name: str) -> float | None:
        """What this component's per-agent state ``name`` holds when it notes an identity of
        this process (which path the agent follows, that path's version), or None for a
        state of plain numbers.

        Save files write such a state as whether it matched, and reading one gives back this
        process's value. Override it for a state that holds ``id(...)`` or a counter.
        """
        return None

    def shape_key(self) -> Hashable:
        """What decides which agents share a batch: class, structure and children."""
        cls = type(self)
        identity = id(self) if self.has_undeclared_state() else None
        structural = tuple(
            (name, self.__dict__.get(name)) for name, p in cls.params.items() if p.structural
        )
        return (cls, identity, structural, tuple(child.shape_key() for child in self._children))

    def has_undeclared_state(self) -> bool:
        """Whether the instance holds attributes other than its declared parameters: then
        only the agents sharing this very instance share its batch."""
        params = type(self).params
        return any(name not in params and name not in _INTERNAL for name in self.__dict__)

    def iter_tree(self) -> Iterable[SteeringComponent]:
        """This component and its descendants, depth first (pre-order)."""
        yield self
        for child in self._children:
            yield from child.iter_tree()

    def watch(self, listener: Listener) -> None:
        """Tell ``listener`` after each change (held weakly; the batches of every world
        holding this component watch it, and drop what they gathered from it)."""
        watchers = self.__dict__.get("_watchers")
        if watchers is None:
            watchers = []
            object.__setattr__(self, "_watchers", watchers)
        elif len(watchers) >= 8:  # batches come and go: forget the dead ones now and then
            watchers[:] = [ref for ref in watchers if ref() is not None]
        watchers.append(weakref.ref(listener))

    def changed(self, structural: bool = False) -> None:
        """Tell the batches holding this component that it changed.

        Assigning a parameter calls it; call it yourself after changing a parameter's value in
        place. ``structural``: the change may move the component to another batch.
        """
        for ref in self.__dict__.get("_watchers", ()):
            listener = ref()
            if listener is not None:
                listener.invalidate(structural)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in type(self).params or name in _INTERNAL:
            object.__setattr__(self, name, value)  # a parameter's descriptor tells the batches
            return
        had_undeclared = self.has_undeclared_state()
        object.__setattr__(self, name, value)
        # The first attribute that is no parameter changes which agents may share a batch.
        self.changed(structural=not had_undeclared)

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in type(self).params if name in self.__dict__
        )
        return f"{type(self).__name__}({shown})"


def check_component(name: str, value: Any) -> SteeringComponent:
    """Return ``value`` if it is a :class:`SteeringComponent`, else raise ``TypeError``."""
    if not isinstance(value, SteeringComponent):
        raise TypeError(f"{name} must be a SteeringComponent, got {type(value).__name__}")
    return value


class Combiner(SteeringComponent):
    """A component that blends the forces of child components; combiners nest.

    Write ``__init__`` taking the children, pass them to :meth:`adopt`, and set the declared
    parameters; in :meth:`~SteeringComponent.steer`, ``ctx.child(index)`` is child
    ``index``'s force for every agent of the batch (and ``ctx.child_turn(index)`` its turn).
    Tree data writes the children under ``"children"`` and builds the combiner back with
    :meth:`from_children`. See "Writing a combiner" on the page "Writing components".
    """

    steers_look = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = "steers_look" in vars(cls)
        super().__init_subclass__(**kwargs)
        if not own:
            cls.steers_look = False  # its turn counts only where its children turn

    def adopt(self, name: str, children: Iterable[Any]) -> None:
        """Take ``children`` as this combiner's children, checked; ``name`` names the argument
        in errors (``components[2] must be a SteeringComponent``).

        Raises:
            TypeError: A child is not a component.
            ValueError: There is no child.
        """
        checked = tuple(
            check_component(f"{name}[{index}]", child) for index, child in enumerate(children)
        )
        if not checked:
            raise ValueError(f"{name} needs at least one component")
        self._children = checked

    @classmethod
    def from_children(
        cls, children: list[SteeringComponent], values: dict[str, Any]
    ) -> SteeringComponent:
        """The combiner of ``children`` with the declared parameters ``values``, as tree data
        reads it: ``cls(*children, **values)`` unless a combiner says otherwise."""
        return cls(*children, **values)

    def __repr__(self) -> str:
        children = ", ".join(repr(child) for child in self._children)
        shown = "".join(
            f", {name}={getattr(self, name)!r}"
            for name in type(self).params
            if name in self.__dict__
        )
        return f"{type(self).__name__}({children}{shown})"
