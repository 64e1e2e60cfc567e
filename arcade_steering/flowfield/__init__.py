"""Flow fields: a grid of directions over a rectangle that any number of agents follow."""

from .field import FlowField

__all__ = ["FlowField"]
