"""The Neo4j servers a test starts itself, beside the suite's own (a second engine, a server to
kill, one where the schema never ran): small (512 MiB heap, 128 MiB page cache), on free ports,
and with the JVM's first compiler only (``-XX:TieredStopAtLevel=1``). Such a server lives for
seconds to a minute, and most of its CPU went to its start and to compiling Neo4j's planner
with the optimizing compiler for queries it then runs a few times; the quick compiler starts it
in about 7.5 s against 12.9 s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg_context.settings import LocalServerSettings
from tests.ports import free_port

SHORT_LIVED_JVM_OPTIONS = "-XX:TieredStopAtLevel=1"


def own_server(home: Path, **more: Any) -> LocalServerSettings:
    """Settings for a server a test starts in ``home`` (``more``: any other setting, or ports)."""
    settings: dict[str, Any] = {
        "heap_size": "512m",
        "pagecache_size": "128m",
        "jvm_options": SHORT_LIVED_JVM_OPTIONS,
        **more,
    }
    for port in ("bolt_port", "http_port"):
        if port not in settings:
            settings[port] = free_port()
    return LocalServerSettings(home_dir=home, **settings)
