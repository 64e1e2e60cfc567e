"""What behaviours, combiners and users' components are made of: the way into the core.

- ``base``: :class:`~arcade_steering.SteeringComponent` and :class:`~arcade_steering.Combiner`.
- ``params``: declared parameters, checked once and gathered per agent
  (public as :mod:`arcade_steering.params`); ``targets``: what a target parameter can be.
- ``context``: :class:`~arcade_steering.SteeringContext`, what ``steer(ctx)`` reads, and the
  evaluation of a batch's tree; ``frame``: one step's view of the world it reads from.
- ``integrate``: the step: forces to velocities and positions, with the solid step.
- ``registry``: the one list of built-in components.

Beneath it, ``_core`` holds the storage (agents' columns, per-agent state, batches, the
sprite exchange, snapshots) and ``solid`` the solid step; above it, ``behaviors`` and
``combine`` hold the built-in components.
"""
