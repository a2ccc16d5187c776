"""Checkpoint files of long solves: where they may go, how they are written, how they are read.

:func:`catena.solve` and :func:`catena.distributed.solve` save what they have proven to a
checkpoint so that a later run resumes instead of starting again.  This module is the one
home of the rules every checkpoint file follows (docs/robustness.md states them as promises):

- The path is checked before any search: the folder exists and a file can be created in it,
  and the path is not a folder (:func:`check_writable`).
- A save writes a temporary file of its own beside the checkpoint (a name no other writer
  uses, created exclusively), flushes it to the disk and renames it over the checkpoint, so
  the file is always the old checkpoint or the new one, and two writers on one path (two
  solves, a solve and a shrink) never take each other's file.  A save that fails removes its
  temporary file (:func:`replacing`).
- The header is one JSON line after a magic line, read with a size limit, and carries a
  SHA-256 checksum of its fields (:func:`header_line`, :func:`read_header`): a damaged header
  (a flipped bit, a missing key, bad JSON, a number out of range) is refused with
  :class:`catena.errors.CheckpointError`, which names the file.

>>> fields = {"lower": -3, "upper": 5}
>>> line = header_line(fields)
>>> verified_fields(line, "x.ckpt") == fields
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from typing import IO, Any, Iterator, Optional

from catena.errors import CheckpointError

HEADER_LIMIT = 1 << 16          # bytes a header line may take (they take about 250)
CHECKSUM = "sha256"             # the header field holding the checksum of the others


def checkpoint_path(value: object) -> Optional[str]:
    """``value`` (a str or path-like object) as a str path; None stays None.

    TypeError for what is not a path, CheckpointError for the empty path.
    """
    return None if value is None else file_path(value)


def file_path(value: object) -> str:
    """``value`` (a str or path-like object) as a str path naming a file: TypeError for what
    is not a path (None included), CheckpointError for the empty path."""
    path = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(path, str):
        raise TypeError(f"checkpoint must be a path, not {value!r}")
    if not path:
        raise CheckpointError("checkpoint must name a file, not ''")
    return path


def check_writable(path: str) -> None:
    """Refuse (CheckpointError) a checkpoint path that a save could not write: a folder, a
    path in a folder that does not exist, or one where no file can be created (a read-only
    disk, no permission).  Creates and removes a file of its own to find out."""
    if os.path.isdir(path):
        raise CheckpointError(f"the checkpoint {path} is a folder: give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CheckpointError(f"cannot write the checkpoint {path}: the folder {folder} does not exist")
    try:
        name, handle = _create_beside(path)
    except OSError as error:
        raise CheckpointError(f"cannot write the checkpoint {path}: {_reason(error)}") from None
    handle.close()
    os.unlink(name)


@contextlib.contextmanager
def replacing(path: str) -> Iterator[tuple[str, IO[bytes]]]:
    """Write ``path`` atomically: yields (name, binary handle) of a new temporary file beside
    it, which replaces ``path`` when the block ends, flushed to the disk.  If the block or
    the rename fails (or is interrupted), the temporary file is removed and the error raised;
    ``path`` is then unchanged."""
    name, handle = _create_beside(path)
    try:
        with handle:
            yield name, handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def header_line(fields: dict[str, Any]) -> bytes:
    """The header line of ``fields`` (JSON-able, without the checksum), with their checksum."""
    return json.dumps(dict(fields, **{CHECKSUM: _checksum(fields)})).encode() + b"\n"


def read_header(path: str, magic: bytes, legacy_magic: Optional[bytes] = None) -> tuple[dict[str, Any], int, bool]:
    """(fields, byte offset after the header, whether the checksum vouches for them) of the
    checkpoint at ``path``, whose first line must be ``magic`` (or ``legacy_magic``, the
    format before checksums: its fields are returned unchecked, with False).

    Reads at most the two lines' worth of bytes (a huge file, or one with no newline, is
    refused at once); raises CheckpointError naming the file for anything but a sound header.
    """
    with open(path, "rb") as handle:
        first = handle.readline(max(len(magic), len(legacy_magic or b"")) + 1)
        if first not in (magic, legacy_magic):
            raise CheckpointError(f"{path} is not a catena solver checkpoint")
        line = handle.readline(HEADER_LIMIT + 1)
        offset = handle.tell()
    if not line.endswith(b"\n"):
        raise CheckpointError(f"{path}: the checkpoint header is damaged (no end of line within "
                              f"{HEADER_LIMIT:,} bytes)")
    if first == legacy_magic:
        return _json_object(line, path), offset, False
    return verified_fields(line, path), offset, True


def checked_bound(fields: dict[str, Any], name: str, limit: int, path: str) -> int:
    """The int field ``name`` of a header, refused (CheckpointError) unless within +-``limit``."""
    value = fields.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckpointError(f"{path}: the checkpoint header is damaged ({name} is {value!r}, not an integer)")
    if not -limit <= value <= limit:
        raise CheckpointError(f"{path}: the checkpoint header is damaged ({name} {value} is beyond +-{limit})")
    return value


def verified_fields(line: bytes, path: str) -> dict[str, Any]:
    """The JSON object ``line`` without its checksum field, refused (CheckpointError) unless
    the checksum matches the other fields."""
    fields = _json_object(line, path)
    checksum = fields.pop(CHECKSUM, None)
    if checksum != _checksum(fields):
        raise CheckpointError(f"{path}: the checkpoint header is damaged (its checksum does not match)")
    return fields


def _json_object(line: bytes, path: str) -> dict[str, Any]:
    try:
        fields = json.loads(line)
    except (ValueError, RecursionError):        # bad JSON, bad UTF-8, nesting too deep
        raise CheckpointError(f"{path}: the checkpoint header is damaged (not JSON)") from None
    if not isinstance(fields, dict):
        raise CheckpointError(f"{path}: the checkpoint header is damaged (not a JSON object)")
    return fields


def _checksum(fields: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _create_beside(path: str) -> tuple[str, IO[bytes]]:
    """A new file beside ``path`` with a name of its own (this process, random), opened for
    writing; created exclusively, so no two writers ever share one."""
    while True:
        name = f"{path}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            return name, open(name, "xb")
        except FileExistsError:                 # a name drawn twice: draw again
            continue


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
