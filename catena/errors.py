"""Exceptions raised at the Python boundary. All are ValueErrors that say what and why."""


class CatenaError(ValueError):
    """Base class of catena's input errors."""


class CellError(CatenaError):
    """A cell name or index that is malformed or not on the board."""


class IllegalMoveError(CatenaError):
    """A move that the rules do not allow in this position (the position is unchanged)."""


class SetupError(CatenaError):
    """A setup action (komi, colour choice) out of turn or out of range."""
