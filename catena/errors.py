"""Exceptions raised at the Python boundary. All are ValueErrors that say what and why."""


class CatenaError(ValueError):
    """Base class of catena's input errors.

    >>> import catena
    >>> issubclass(catena.IllegalMoveError, catena.CatenaError), issubclass(catena.CatenaError, ValueError)
    (True, True)
    """


class CellError(CatenaError):
    """A cell name or index that is malformed or not on the board.

    >>> import catena
    >>> catena.parse_cell("Z1", 6)
    Traceback (most recent call last):
      ...
    catena.errors.CellError: 'Z1' is not on the board of side 6: columns run A to K and rows 1 to 11, and a cell's row is at most 5 away from its column's place in the alphabet (A 1, B 2, ...; here column Z, row 1)
    """  # noqa: E501 (a doctest shows the whole message)


class IllegalMoveError(CatenaError):
    """A move that the rules do not allow in this position (the position is unchanged).

    >>> import catena
    >>> pos = catena.Position(size=2)
    >>> pos.push("B2"); pos.push("B2")
    Traceback (most recent call last):
      ...
    catena.errors.IllegalMoveError: B2 is illegal: the cell is occupied
    """


class SetupError(CatenaError):
    """A setup action (komi, colour choice) out of turn or out of range.

    >>> import catena
    >>> catena.Game(size=2).choose_colour("black")
    Traceback (most recent call last):
      ...
    catena.errors.SetupError: P2 cannot choose a colour now: the game is in the 'komi' phase
    """


class TooMuchWorkError(CatenaError):
    """A computation refused because it would run for hours or more; the message
    gives the estimate and how to run it with a limit (see :mod:`catena.effort`).

    >>> import catena
    >>> catena.solve(catena.Position(size=5))
    Traceback (most recent call last):
      ...
    catena.errors.TooMuchWorkError: solving this position exactly would take at least of the order of 10^16 nodes, more than 103 years at 3 million nodes a second (61 legal cells; the work grows about 1.9 times per legal cell, faster in an even game, docs/side4.md): give max_seconds or max_nodes to search with a limit and get proven bounds
    """  # noqa: E501 (a doctest shows the whole message)


class CheckpointError(CatenaError):
    """A checkpoint file that cannot be used: damaged (its header fails its checksum or a
    check of its values), not a checkpoint, of another game, or a path where none can be
    written.  The message names the file (docs/robustness.md says what checkpoints promise).

    >>> import catena, tempfile, os
    >>> junk = os.path.join(tempfile.mkdtemp(), "junk.ckpt")
    >>> _ = open(junk, "wb").write(b"not a checkpoint\\n")
    >>> catena.solve(catena.Position(size=2), checkpoint=junk)
    Traceback (most recent call last):
      ...
    catena.errors.CheckpointError: ... is not a catena solver checkpoint
    """


class CheckpointWarning(UserWarning):
    """A checkpoint save that failed (a full disk, say): the solve goes on, or returns the
    bounds it proved, and the warning names the operating system's error."""
