"""The scale benchmark's disk check: what a requested size needs on the server's disk, checked
before anything is built.

The store takes about 7 GB per 100,000 sets of the scale build's mix (five embedded entries, half
an entry of history and ten ProposalNodes a set, with their edges, indexes and transaction logs:
20.9 GB at 300,000 sets, the largest run in docs/benchmarks.md), so ``bytes_needed`` is the
requested sets at that rate. ``check_disk`` reads the free space of the file system holding the
server's data directory (a local server's ``<home>/data``; the nearest folder that exists, before
a first start) and raises ``NotEnoughDisk`` when it holds less: the run stops before it builds,
saying what the size needs and what is free. A server whose disk cannot be read from here
(Docker, a remote one) is not checked; the run says so and what the size needs.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg_context.errors import ConfigurationError

__all__ = ["BYTES_PER_SET", "DiskCheck", "NotEnoughDisk", "bytes_needed", "check_disk"]

BYTES_PER_SET = 70_000  # about 7 GB per 100,000 sets
GB = 1_000_000_000


def bytes_needed(sets: int) -> int:
    """The bytes ``sets`` committed sets of the scale build's mix take on disk."""
    if sets < 0:
        raise ValueError(f"sets cannot be negative: {sets}")
    return sets * BYTES_PER_SET


class NotEnoughDisk(ConfigurationError):
    """The disk under the server's data directory holds less than the requested size needs."""

    def __init__(self, path: Path, sets: int, needed: int, free: int) -> None:
        self.path, self.sets, self.needed, self.free = path, sets, needed, free
        super().__init__(
            f"{sets:,} sets need about {needed / GB:.1f} GB on the server's disk "
            f"({BYTES_PER_SET * 100_000 / GB:.0f} GB per 100,000 sets), but {path} has "
            f"{free / GB:.1f} GB free: free some space or ask for fewer sets (--sets)"
        )


@dataclass(frozen=True, slots=True)
class DiskCheck:
    """What the size needs, and (when the data directory is known) what its disk has free."""

    sets: int
    needed: int
    path: Path | None
    free: int | None

    def describe(self) -> str:
        need = f"# scale: {self.sets:,} sets need about {self.needed / GB:.1f} GB of disk"
        if self.path is None or self.free is None:
            return f"{need}; the server's disk was not checked (pass --neo4j-home to check it)"
        return f"{need}; {self.free / GB:.1f} GB free under {self.path}"


def _existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists (a data directory before a first start)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path("/")


def check_disk(
    sets: int,
    data_dir: Path | None,
    usage: Callable[[Path], Any] = shutil.disk_usage,
) -> DiskCheck:
    """The check for ``sets`` against the disk holding ``data_dir`` (None: not checked).
    Raises ``NotEnoughDisk`` when that disk has less free than the size needs."""
    needed = bytes_needed(sets)
    if data_dir is None:
        return DiskCheck(sets, needed, None, None)
    path = _existing(data_dir)
    free = int(usage(path).free)
    if free < needed:
        raise NotEnoughDisk(path, sets, needed, free)
    return DiskCheck(sets, needed, path, free)
