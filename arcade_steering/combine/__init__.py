"""Combiners: blend the forces of child components. They nest freely.

Each combiner is a module of this package and registers itself as a built-in component.
"""

from .blends import PriorityBlend, WeightedBlend

__all__ = ["PriorityBlend", "WeightedBlend"]
