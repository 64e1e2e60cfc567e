"""Paths: polylines with a tube radius that agents follow, project onto and walk along."""

from .polyline import WINDOW_BACK_FRACTION, Path, PathProjection

__all__ = ["WINDOW_BACK_FRACTION", "Path", "PathProjection"]
