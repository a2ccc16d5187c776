"""Checks of the arguments the public API takes: one home for what counts as a number,
a flag or a choice.

An integer is an int or another ``numbers.Integral`` (a NumPy integer), never a
bool.  A real number is any ``numbers.Real`` (int, float, Fraction, a NumPy
float), never a bool, a str or bytes, and never NaN.  A flag is True or False.
A choice is one of a few values of the same type.  A wrong type raises
TypeError, a value out of range ValueError; both name the argument.

>>> integer(3, "depth", minimum=0)
3
>>> integer(True, "depth")
Traceback (most recent call last):
  ...
TypeError: depth must be an int, not bool
>>> real("1", "seconds")
Traceback (most recent call last):
  ...
TypeError: seconds must be a number, not str
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Optional, Sequence


def integer(value: object, what: str, minimum: Optional[int] = None,
            maximum: Optional[int] = None) -> int:
    """``value`` as an int if it is an integer in [minimum, maximum], else raise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    number = int(value)
    _check_range(number, value, what, minimum, maximum)
    return number


def optional_integer(value: object, what: str, minimum: Optional[int] = None,
                     maximum: Optional[int] = None) -> Optional[int]:
    """:func:`integer`, letting None (no limit, no seed) through."""
    return None if value is None else integer(value, what, minimum, maximum)


def real(value: object, what: str, minimum: Optional[float] = None, maximum: Optional[float] = None,
         *, positive: bool = False, finite: bool = False) -> float:
    """``value`` as a float if it is a real number (not NaN) in range, else raise.

    ``positive`` refuses zero as well as negative numbers; ``finite`` refuses infinities.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, not {type(value).__name__}")
    try:
        number = float(value)
    except (OverflowError, ValueError):        # an int beyond the range of a float
        raise ValueError(f"{what} is too large: {value!r}") from None
    if math.isnan(number):
        raise ValueError(f"{what} must be a number, not NaN")
    if positive and not number > 0:
        raise ValueError(f"{what} must be positive, not {value}")
    if finite and math.isinf(number):
        raise ValueError(f"{what} must be finite, not {value}")
    _check_range(number, value, what, minimum, maximum)
    return number


def optional_real(value: object, what: str, minimum: Optional[float] = None,
                  maximum: Optional[float] = None, *, positive: bool = False,
                  finite: bool = False) -> Optional[float]:
    """:func:`real`, letting None (no limit) through."""
    return None if value is None else real(value, what, minimum, maximum, positive=positive, finite=finite)


def seed(value: object) -> Optional[int]:
    """A random seed: None (fresh randomness) or an int >= 0, kept to its low 64 bits."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"seed must be an int or None, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"seed must be at least 0, not {value}")
    return int(value) & 0xFFFFFFFFFFFFFFFF


def boolean(value: object, what: str, *, optional: bool = False) -> Optional[bool]:
    """``value`` if it is True or False (or None, when ``optional``), else TypeError.

    >>> boolean(None, "exact", optional=True) is None
    True
    """
    if isinstance(value, bool) or (optional and value is None):
        return value
    allowed = "True, False or None" if optional else "True or False"
    raise TypeError(f"{what} must be {allowed}, not {type(value).__name__}")


def choice(value: object, what: str, choices: Sequence[object]) -> object:
    """``value`` if it is one of ``choices`` (compared by type and value, so 1 is not
    True and an array is never compared element-wise), else raise: a TypeError when no
    choice has its type, a ValueError otherwise.

    >>> choice("ansi", "render_mode", (None, "ansi"))
    'ansi'
    >>> choice("human", "render_mode", (None, "ansi"))
    Traceback (most recent call last):
      ...
    ValueError: render_mode must be None or 'ansi', not 'human'
    """
    if any(type(value) is type(option) and value == option for option in choices):
        return value
    *rest, last = map(repr, choices)
    allowed = f"{', '.join(rest)} or {last}" if rest else last
    if not any(type(value) is type(option) for option in choices):
        raise TypeError(f"{what} must be {allowed}, not {type(value).__name__}")
    raise ValueError(f"{what} must be {allowed}, not {value!r}")


def renamed(new_value: object, new_name: str, default: object, old_value: object, old_name: str,
            where: str) -> object:
    """The value of an argument that was renamed: ``old_value`` (with a DeprecationWarning)
    when the caller still gives the old name, else ``new_value``; both at once is a TypeError.

    >>> renamed(5, "tree_nodes", 9, None, "max_nodes", "MCTS")
    5
    """
    if old_value is None:
        return new_value
    if new_value != default:
        raise TypeError(f"{where}: give {new_name}, not both {new_name} and {old_name} (its old name)")
    warnings.warn(f"{where}({old_name}=...) is now {new_name}=...; the old name will go",
                  DeprecationWarning, stacklevel=2)     # the caller's caller: compiled code has no frame
    return old_value


def _check_range(number: float, value: object, what: str, minimum: Optional[float],
                 maximum: Optional[float]) -> None:
    if minimum is not None and maximum is not None and not minimum <= number <= maximum:
        raise ValueError(f"{what} must be {minimum} to {maximum}, not {value}")
    if minimum is not None and not number >= minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and not number <= maximum:
        raise ValueError(f"{what} must be at most {maximum}, not {value}")
