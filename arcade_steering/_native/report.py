"""NativeReport: which path a world's update runs, the native step or numpy, and why."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NativeBatch", "NativeReport"]


@dataclass(frozen=True)
class NativeBatch:
    """One batch of agents (agents whose trees have the same shape) and the path it runs.

    Attributes:
        agents: How many agents the batch holds.
        tree: The first agent's tree, as ``repr`` shows it.
        native: Whether the native step steers the batch.
        reason: Why not (empty when it does).
    """

    agents: int
    tree: str
    native: bool
    reason: str


@dataclass(frozen=True)
class NativeReport:
    """Which path :meth:`SteeringWorld.update` runs, from :meth:`SteeringWorld.native_report`.

    The native step is a compiled extension that steers a batch whose whole tree is made of
    the components it covers, and moves the agents, in one call each; everything else runs
    on numpy, with the same results to rounding.

    Attributes:
        available: Whether the extension is built, loaded and not switched off.
        reason: Why it is not available (empty when it is), e.g. ``ARCADE_STEERING_NATIVE=0``.
        batches: Each batch and its path.
        integration: Why the integrator runs on numpy (empty when it runs natively).
    """

    available: bool
    reason: str
    batches: tuple[NativeBatch, ...]
    integration: str

    @property
    def native(self) -> bool:
        """Whether the whole update runs natively: every batch and the integrator."""
        return self.available and not self.integration and all(b.native for b in self.batches)

    def __str__(self) -> str:
        if not self.available:
            return f"numpy: {self.reason}"
        lines = [f"integration: {'native' if not self.integration else self.integration}"]
        for batch in self.batches:
            path = "native" if batch.native else f"numpy ({batch.reason})"
            lines.append(f"{batch.agents} agents, {batch.tree}: {path}")
        return "\n".join(lines)
