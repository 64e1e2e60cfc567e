"""Formation slots: which member takes which slot, for the least total travel.

:func:`assign_slots` solves the assignment problem exactly (the Hungarian method with
shortest augmenting paths, as Jonker and Volgenant run it): the members' straight-line
distances to their slots add up to the least possible, plus a cost for each member whose role
differs from its slot's preferred role (soft roles). With distances alone, no two members'
straight paths cross: two crossing paths could swap ends and both get shorter.

:class:`FormationSlots` keeps a formation's members and re-assigns them whenever one joins or
leaves or the layout changes, giving each member its offset for
:class:`~arcade_steering.OffsetPursuit`.

Example:
    >>> assign_slots([(0, 0), (10, 0)], [(11, 0), (1, 0), (50, 50)]).tolist()
    [1, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from ._util.validate import check_non_negative, check_point, check_points, check_position
from .behaviors.leader import local_to_world

__all__ = ["FormationSlots", "assign_slots"]

Offset = tuple[float, float]
#: A layout: the slot offsets ``(ahead, left)`` px for a number of members, such as
#: ``lambda n: formations.wedge(n, 30)``.
Layout = Callable[[int], Sequence[Offset]]


def assign_slots(
    positions: Any,
    slots: Any,
    roles: Sequence[Hashable | None] | None = None,
    slot_roles: Sequence[Hashable | None] | None = None,
    role_cost: float = 100.0,
) -> np.ndarray:
    """The slot of each member that makes the total cost least.

    A member's cost for a slot is its distance to it (px), plus ``role_cost`` if the slot
    prefers a role and the member's role is another. Runs in ``O(n² m)``: about a millisecond
    for 12 members, tens of milliseconds for 50.

    Args:
        positions: Members' positions ``(n, 2)`` px.
        slots: Slots' positions ``(m, 2)`` px, ``m >= n``; the same frame as ``positions``.
        roles: Each member's role (any hashable; None for none), ``n`` of them, or None.
        slot_roles: Each slot's preferred role (None for no preference), ``m`` of them, or None.
        role_cost: Cost of a member in a slot that prefers another role, px (>= 0).

    Returns:
        The index into ``slots`` of each member's slot, ``(n,)`` ints, all different.

    Raises:
        TypeError: An argument is of the wrong type.
        ValueError: Shapes or lengths do not match, fewer slots than members, or a number is
            not finite or out of range.
    """
    members = check_points("positions", positions)
    places = check_points("slots", slots)
    if len(places) < len(members):
        raise ValueError(
            f"slots must be at least as many as positions ({len(members)}), got {len(places)}"
        )
    member_roles = _check_roles("roles", roles, len(members))
    preferred = _check_roles("slot_roles", slot_roles, len(places))
    penalty = check_non_negative("role_cost", role_cost)
    cost = np.hypot(*(members[:, None, :] - places[None, :, :]).transpose(2, 0, 1))
    if penalty > 0.0:
        mismatch = np.array(
            [[want is not None and role != want for want in preferred] for role in member_roles],
            dtype=bool,
        ).reshape(cost.shape)
        cost += penalty * mismatch
    return _least_cost_assignment(cost)


def _check_roles(name: str, roles: Any, count: int | None) -> list[Hashable | None]:
    """``roles`` as a list, checked to hold ``count`` hashables (any number if None)."""
    if roles is None:
        return [None] * (count or 0)
    if isinstance(roles, (str, bytes)) or not isinstance(roles, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of roles or None, got {type(roles).__name__}")
    if count is not None and len(roles) != count:
        raise ValueError(f"{name} must have {count} entries, got {len(roles)}")
    for role in roles:
        if not isinstance(role, Hashable):
            raise TypeError(f"{name} must hold hashable roles, got {type(role).__name__}")
    return list(roles)


def _least_cost_assignment(cost: np.ndarray) -> np.ndarray:
    """Column of each row of ``cost`` ``(n, m)``, ``n <= m``, for the least total.

    The Hungarian method with potentials ``u``, ``v``: rows join one at a time, each along
    the shortest augmenting path in reduced costs (Dijkstra over columns, vectorised).
    Index 0 of ``v``, ``owner`` and ``via`` is a virtual column holding the joining row.
    """
    rows, columns = cost.shape
    u = np.zeros(rows + 1)
    v = np.zeros(columns + 1)
    owner = np.zeros(columns + 1, dtype=np.intp)  # 1-based row holding each column, 0: free
    via = np.zeros(columns + 1, dtype=np.intp)  # previous column on the augmenting path
    for row in range(1, rows + 1):
        owner[0] = row
        column = 0
        reach = np.full(columns + 1, np.inf)
        done = np.zeros(columns + 1, dtype=bool)
        while owner[column] != 0:
            done[column] = True
            current = owner[column]
            reduced = cost[current - 1] - u[current] - v[1:]
            shorter = ~done[1:] & (reduced < reach[1:])
            reach[1:][shorter] = reduced[shorter]
            via[1:][shorter] = column
            open_reach = np.where(done[1:], np.inf, reach[1:])
            nearest = int(np.argmin(open_reach)) + 1
            delta = open_reach[nearest - 1]
            u[owner[done]] += delta
            v[done] -= delta
            reach[~done] -= delta
            column = nearest
        while column != 0:
            previous = via[column]
            owner[column] = owner[previous]
            column = previous
    assignment = np.empty(rows, dtype=np.intp)
    taken = np.nonzero(owner[1:])[0]
    assignment[owner[1:][taken] - 1] = taken
    return assignment


class FormationSlots:
    """A formation's members and their slots, re-assigned when members join or leave.

    Each change assigns every member the slot that keeps the formation's total travel least
    (:func:`assign_slots`), with the slots placed around the leader as it stands now. Apply
    the offsets with :class:`~arcade_steering.OffsetPursuit`::

        wing = FormationSlots(lambda n: formations.wedge(n, 30), slot_roles=["medic"])
        for sprite in squad:
            offsets = wing.join(sprite, leader.position, heading)
        for member, offset in offsets.items():
            world.attach(member, steer.OffsetPursuit(leader, offset), max_speed=120)

    Args:
        layout: The slot offsets ``(ahead, left)`` px for a number of members (a function of
            ``n``, such as ``formations.wedge`` with a spacing); it may give more than ``n``.
        slot_roles: Preferred role of the layout's first slots, in order (None for none);
            slots beyond have no preference.
        role_cost: Cost of a member in a slot that prefers another role, px (>= 0): a member
            travels up to this much further to take a slot of its role.

    Raises:
        TypeError: ``layout`` is not callable, or ``slot_roles`` not a sequence of hashables.
        ValueError: ``role_cost`` is negative or not finite.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        slot_roles: Sequence[Hashable | None] = (),
        role_cost: float = 100.0,
    ) -> None:
        self._layout = _check_layout(layout)
        self._slot_roles = _check_roles("slot_roles", slot_roles, None)
        self._role_cost = check_non_negative("role_cost", role_cost)
        self._roles: dict[Any, Hashable | None] = {}
        self._offsets: dict[Any, Offset] = {}

    @property
    def members(self) -> list[Any]:
        """The members, in the order they joined."""
        return list(self._roles)

    @property
    def offsets(self) -> dict[Any, Offset]:
        """Each member's slot offset ``(ahead, left)`` px, from the last assignment."""
        return dict(self._offsets)

    def join(
        self,
        member: Any,
        leader_position: Any,
        leader_heading: Any,
        *,
        role: Hashable | None = None,
    ) -> dict[Any, Offset]:
        """Add ``member`` (anything with a ``position``) and re-assign every slot.

        Args:
            member: A sprite, or anything with a ``position`` ``(x, y)`` px.
            leader_position: The leader's position ``(x, y)`` px.
            leader_heading: The way the leader faces ``(x, y)``, any length but zero.
            role: The member's role (hashable), or None.

        Returns:
            Every member's offset, as :attr:`offsets`.

        Raises:
            ValueError: ``member`` is already in the formation, or an argument is invalid.
            TypeError: An argument is of the wrong type.
        """
        if member in self._roles:
            raise ValueError("member is already in the formation")
        if not hasattr(member, "position"):
            raise TypeError(f"member must have a position, got {type(member).__name__}")
        check_position("member", member)
        _check_roles("role", [role], 1)
        roles = {**self._roles, member: role}
        return self._assign(roles, self._layout, leader_position, leader_heading)

    def leave(self, member: Any, leader_position: Any, leader_heading: Any) -> dict[Any, Offset]:
        """Remove ``member`` and re-assign the others' slots.

        Args:
            member: A member of the formation.
            leader_position: The leader's position ``(x, y)`` px.
            leader_heading: The way the leader faces ``(x, y)``, any length but zero.

        Returns:
            Every remaining member's offset, as :attr:`offsets`.

        Raises:
            KeyError: ``member`` is not in the formation.
        """
        if member not in self._roles:
            raise KeyError("member is not in the formation")
        roles = {key: role for key, role in self._roles.items() if key is not member}
        return self._assign(roles, self._layout, leader_position, leader_heading)

    def reassign(
        self, leader_position: Any, leader_heading: Any, *, layout: Layout | None = None
    ) -> dict[Any, Offset]:
        """Re-assign every slot from where the members are now, in a new layout if given.

        Args:
            leader_position: The leader's position ``(x, y)`` px.
            leader_heading: The way the leader faces ``(x, y)``, any length but zero.
            layout: A new layout (as in the constructor), or None to keep the present one.

        Returns:
            Every member's offset, as :attr:`offsets`.
        """
        new_layout = self._layout if layout is None else _check_layout(layout)
        return self._assign(dict(self._roles), new_layout, leader_position, leader_heading)

    def _assign(
        self,
        roles: dict[Any, Hashable | None],
        layout: Layout,
        leader_position: Any,
        leader_heading: Any,
    ) -> dict[Any, Offset]:
        """Assign ``roles``' members to ``layout``'s slots; the state changes only at the end."""
        origin = np.array(check_point("leader_position", leader_position))
        heading = np.array(check_point("leader_heading", leader_heading))
        length = float(np.hypot(*heading))
        if length == 0.0:
            raise ValueError("leader_heading must not be (0, 0)")
        members = list(roles)
        count = len(members)
        offsets = check_points("layout(n)", layout(count))
        if len(offsets) < count:
            raise ValueError(f"layout({count}) gave {len(offsets)} slots, fewer than the members")
        unit = np.broadcast_to(heading / length, offsets.shape)
        slots = origin + local_to_world(unit, offsets)
        positions = [check_position("member", member) for member in members]
        preferred = (self._slot_roles + [None] * len(offsets))[: len(offsets)]
        chosen = assign_slots(
            np.reshape(positions, (count, 2)),
            slots,
            [roles[member] for member in members],
            preferred,
            self._role_cost,
        )
        self._roles = roles
        self._layout = layout
        self._offsets = {
            member: (float(offsets[slot, 0]), float(offsets[slot, 1]))
            for member, slot in zip(members, chosen, strict=True)
        }
        return self.offsets


def _check_layout(layout: Any) -> Layout:
    if not callable(layout):
        raise TypeError(
            f"layout must be a function of n giving offsets, got {type(layout).__name__}"
        )
    return layout
