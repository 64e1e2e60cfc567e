"""Declaring a component's parameters: one line each, checked, gathered per agent.

Example:
    >>> import arcade_steering as steer
    >>> from arcade_steering.params import param, target
    >>> class Approach(steer.SteeringComponent):
    ...     goal: tuple[float, float] = target()
    ...     speed: float = param(default=80.0, gt=0.0)
    >>> Approach((10, 0), speed=40)
    Approach(goal=(10, 0), speed=40.0)
"""

from ._core.gather import Groups
from .component.params import choice, flag, group, param, point, target
from .component.targets import TargetLike

__all__ = ["Groups", "TargetLike", "choice", "flag", "group", "param", "point", "target"]
