"""The scale benchmark's settle step: it waits for the indexes, then for the server's own CPU to
stay idle for two windows in a row, and gives up (saying so) after its bound."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks._scale_settle import gc_during, is_idle, settle


class _Server:
    """A fake executor: the server's CPU seconds advance by ``busy[i]`` cores in window i."""

    def __init__(self, busy: list[float], window: float = 2.0) -> None:
        self.busy = busy
        self.window = window
        self.cpu = 100.0
        self.reads = 0
        self.writes: list[tuple[str, dict[str, Any]]] = []
        self.gc = [(10, 500), (13, 620)]

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == "bench/server_gc":
            collections, ms = self.gc.pop(0)
            return [{"collections": collections, "ms": ms}]
        assert name == "bench/server_cpu"
        if self.reads:
            share = self.busy[min(self.reads - 1, len(self.busy) - 1)]
            self.cpu += share * self.window
        self.reads += 1
        return [{"cpu": {"value": int(self.cpu * 1e9)}}]

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.writes.append((name, params))
        return []


class _Engine:
    def __init__(self, server: _Server) -> None:
        self.executor = server


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def test_idle_needs_the_last_two_windows_under_the_share() -> None:
    assert not is_idle([])
    assert not is_idle([0.01])
    assert not is_idle([0.01, 0.5])
    assert is_idle([0.9, 0.01, 0.05])


def test_settle_waits_for_the_indexes_then_two_idle_windows() -> None:
    server = _Server([1.0, 0.8, 0.02, 0.5, 0.03, 0.01])
    clock = _Clock()
    took = settle(_Engine(server), sleep=clock.sleep, clock=clock)  # type: ignore[arg-type]
    assert server.writes == [("admin/await_indexes", {"timeout_s": 600})]
    assert took == pytest.approx(12.0)  # six windows: the last two idle
    assert server.reads == 7


def test_settle_gives_up_after_its_bound(capsys: pytest.CaptureFixture[str]) -> None:
    server = _Server([1.0])
    clock = _Clock()
    took = settle(_Engine(server), timeout_s=10.0, sleep=clock.sleep, clock=clock)  # type: ignore[arg-type]
    assert 10.0 < took <= 12.0
    assert "still busy after 10 s" in capsys.readouterr().err


def test_gc_during_reports_the_collections_of_the_window(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = _Server([0.0])
    assert gc_during(_Engine(server), "commit at 1pct", lambda: 42) == 42  # type: ignore[arg-type]
    assert (
        "commit at 1pct: the server ran 3 garbage collections (120 ms)" in capsys.readouterr().err
    )
