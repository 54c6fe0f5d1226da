"""Free TCP ports on the loopback for servers a test starts, so suites and parallel workers on
one machine never collide on a fixed port."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port the system has just handed out as free (bound and released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
