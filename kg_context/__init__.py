"""kg-context: a governed-context engine on Neo4j.

The public surface is what ``__all__`` lists; everything else is internal.
"""

from kg_context.catalog import Catalog, Query, default_catalog
from kg_context.connection import Target, resolve_source, target_for
from kg_context.engine import Engine
from kg_context.errors import (
    AuthenticationError,
    CatalogError,
    ConfigurationError,
    DatabaseError,
    DatabaseUnavailableError,
    EmbeddingError,
    InputValidationError,
    KgContextError,
    LocalServerError,
    QueryError,
    StateError,
)
from kg_context.executor import Neo4jExecutor, QueryExecutor, Transaction
from kg_context.settings import EmbeddingSettings, LocalServerSettings, Neo4jSettings

__version__ = "0.1.0"

__all__ = [
    "AuthenticationError",
    "Catalog",
    "CatalogError",
    "ConfigurationError",
    "DatabaseError",
    "DatabaseUnavailableError",
    "EmbeddingError",
    "EmbeddingSettings",
    "Engine",
    "InputValidationError",
    "KgContextError",
    "LocalServerError",
    "LocalServerSettings",
    "Neo4jExecutor",
    "Neo4jSettings",
    "Query",
    "QueryError",
    "QueryExecutor",
    "StateError",
    "Target",
    "Transaction",
    "__version__",
    "default_catalog",
    "resolve_source",
    "target_for",
]
