"""Where the database is: one resolution used by the CLI, the tests and the demo.

In order: ``NEO4J_URI`` (Aura, a cluster, any server you point at) → a Docker engine, if one
answers → the local Maven-provisioned server. The chosen source is always reported.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

import neo4j

from kg_context.db.executor import translate_driver_errors
from kg_context.db.local_password import local_password
from kg_context.errors import ConfigurationError
from kg_context.settings import DatabaseSettings, LocalServerSettings, Neo4jSettings, load_settings

__all__ = [
    "COMPOSE_PASSWORD",
    "Source",
    "Target",
    "check_uri",
    "docker_engine_answers",
    "open_driver",
    "resolve_source",
    "target_for",
]

Source = Literal["env", "docker", "local"]

# The password docker-compose.yml sets (NEO4J_AUTH); override with NEO4J_PASSWORD.
COMPOSE_PASSWORD = "kg-context-compose"


@dataclass(frozen=True, slots=True)
class Target:
    """A resolved database: how to reach it and where the answer came from."""

    source: Source
    uri: str
    username: str
    password: str = field(repr=False)  # never in a repr, a log line or a traceback's locals
    database: str

    def describe(self) -> str:
        origin = {
            "env": "NEO4J_URI",
            "docker": "Docker engine (docker compose / testcontainers)",
            "local": "local server (kg-context neo4j start)",
        }[self.source]
        return f"{self.uri} (database {self.database!r}, from {origin})"


def docker_engine_answers(timeout_s: float = 5.0) -> bool:
    """Whether a Docker engine answers; a client with no engine behind it does not count."""
    docker = shutil.which("docker")
    if docker is None:
        return False
    try:
        done = subprocess.run(
            [docker, "version", "--format", "{{.Server.Version}}"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except (subprocess.TimeoutExpired, OSError):
        return False
    return done.returncode == 0 and bool(done.stdout.strip())


def resolve_source(settings: Neo4jSettings | None = None, *, probe_docker: bool = True) -> Source:
    """Which database to use: the environment, else Docker, else the local server."""
    settings = settings or Neo4jSettings()
    if settings.uri:
        return "env"
    if probe_docker and docker_engine_answers():
        return "docker"
    return "local"


def target_for(
    source: Source,
    settings: Neo4jSettings | None = None,
    local: LocalServerSettings | None = None,
    *,
    uri: str | None = None,
) -> Target:
    """Connection details for a source (``uri`` overrides where a container chose the port)."""
    settings = settings or Neo4jSettings()
    local = local or load_settings(LocalServerSettings)
    given_password = settings.password.get_secret_value() if settings.password else None
    if source == "env":
        if not settings.uri:
            raise ConfigurationError("NEO4J_URI is not set")
        if given_password is None:
            raise ConfigurationError(f"NEO4J_URI is {settings.uri} but NEO4J_PASSWORD is not set")
        return Target("env", settings.uri, settings.username, given_password, settings.database)
    if source == "docker":
        return Target(
            "docker",
            uri or "bolt://127.0.0.1:7687",
            settings.username,
            given_password or COMPOSE_PASSWORD,
            settings.database,
        )
    return Target(
        "local",
        uri or local.bolt_uri,
        "neo4j",
        local_password(local).get_secret_value(),
        settings.database,
    )


_SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")


def check_uri(uri: str) -> None:
    """A Bolt URI with a scheme the driver speaks and a host; else a ``ConfigurationError``.

    The driver would read ``bolt://`` (no host) as ``localhost:7687``: a silent fallback to
    whatever server answers there, never what was meant."""
    scheme = uri.split("://", 1)[0] if "://" in uri else ""
    if scheme not in _SCHEMES:
        raise ConfigurationError(
            f"NEO4J_URI {uri!r} is not a Bolt URI; use one of "
            + ", ".join(f"{s}://" for s in _SCHEMES)
        )
    try:
        host = urlsplit(uri).hostname
    except ValueError as err:
        raise ConfigurationError(f"NEO4J_URI {uri!r} does not parse: {err}") from err
    if not host:
        raise ConfigurationError(
            f"NEO4J_URI {uri!r} has an empty host; name the server, e.g. {scheme}://127.0.0.1:7687"
        )


def open_driver(
    target: Target, *, verify: bool = True, database: DatabaseSettings | None = None
) -> neo4j.Driver:
    """A driver for the target; with ``verify`` a wrong URI or password fails here, clearly.
    ``database`` bounds one connection attempt (``connection_timeout_s``)."""
    check_uri(target.uri)
    timeout = (database or load_settings(DatabaseSettings)).connection_timeout_s
    with translate_driver_errors(target.uri, "connection"):
        try:
            driver = neo4j.GraphDatabase.driver(
                target.uri,
                auth=(target.username, target.password),
                connection_acquisition_timeout=max(30.0, timeout),
                connection_timeout=timeout,
                max_transaction_retry_time=30.0,
                notifications_min_severity="OFF",
            )
        except ValueError as err:
            raise ConfigurationError(
                f"NEO4J_URI {target.uri!r} is not a Neo4j URI ({err}); "
                "use neo4j://, neo4j+s://, bolt:// or bolt+s://"
            ) from err
        if verify:
            try:
                driver.verify_connectivity()
            except BaseException:
                driver.close()
                raise
    return driver
