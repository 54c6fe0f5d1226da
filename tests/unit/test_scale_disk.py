"""The scale benchmark's disk check: what a size needs, and a refusal before anything is built
when the disk under the server's data directory holds less."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks import scale
from benchmarks._scale_disk import NotEnoughDisk, bytes_needed, check_disk
from kg_context.errors import ConfigurationError


def _free(free: int) -> object:
    def usage(path: Path) -> SimpleNamespace:
        usage.asked = path  # type: ignore[attr-defined]
        return SimpleNamespace(free=free)

    return usage


def test_the_need_is_seven_gb_per_100000_sets() -> None:
    assert bytes_needed(100_000) == 7_000_000_000
    assert bytes_needed(1_000_000) == 70_000_000_000  # docs/benchmarks.md's 1M sets: about 70 GB
    assert bytes_needed(300_000) == 21_000_000_000  # the 300k run took 20.9 GB
    assert bytes_needed(0) == 0
    with pytest.raises(ValueError):
        bytes_needed(-1)


def test_a_disk_with_room_passes_and_says_what_is_free(tmp_path: Path) -> None:
    usage = _free(8_000_000_000)
    check = check_disk(100_000, tmp_path / "data", usage=usage)
    assert (check.needed, check.free) == (7_000_000_000, 8_000_000_000)
    # the data directory does not exist yet (no first start): its nearest existing folder
    assert check.path == tmp_path == usage.asked  # type: ignore[attr-defined]
    assert "100,000 sets need about 7.0 GB" in check.describe()
    assert f"8.0 GB free under {tmp_path}" in check.describe()


def test_a_disk_short_of_the_size_is_refused_with_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(NotEnoughDisk) as refused:
        check_disk(1_000_000, tmp_path, usage=_free(20_900_000_000))
    error = refused.value
    assert isinstance(error, ConfigurationError)
    assert (error.sets, error.needed, error.free, error.path) == (
        1_000_000,
        70_000_000_000,
        20_900_000_000,
        tmp_path,
    )
    assert "1,000,000 sets need about 70.0 GB" in str(error)
    assert "20.9 GB free" in str(error) and "--sets" in str(error)


def test_an_unknown_data_directory_is_not_checked_but_the_need_is_said() -> None:
    check = check_disk(50_000, None, usage=_free(0))
    assert (check.path, check.free, check.needed) == (None, None, 3_500_000_000)
    assert "not checked" in check.describe() and "3.5 GB" in check.describe()


def test_the_scale_run_stops_before_it_builds_when_the_disk_is_short(tmp_path: Path) -> None:
    """``main`` refuses before it connects: nothing is opened or built (no engine is passed and
    no database is reached), and the message says what the size needs."""
    home = tmp_path / "neo4j"
    (home / "data").mkdir(parents=True)
    free = scale.check_disk(0, home / "data").free
    assert free is not None
    sets = 2 * (free // 70_000) + 1  # twice what this disk holds
    with pytest.raises(SystemExit) as stopped:
        scale.main(["--sets", str(sets), "--neo4j-home", str(home)])
    assert "need about" in str(stopped.value.code) and str(home / "data") in str(stopped.value.code)
