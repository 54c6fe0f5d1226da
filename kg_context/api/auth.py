"""Bearer tokens with scopes, each bound to one writer identity and kind.

Tokens come from a TOML file or JSON in the environment; scopes nest (reader, writer, operator),
and the server stamps every write with the token's identity, never a request body's.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from kg_context.api.problems import ProblemError
from kg_context.errors import ConfigurationError, StateError
from kg_context.settings import ApiSettings
from kg_context.vocabulary import WriterKind

__all__ = ["Principal", "Scope", "TokenSpec", "TokenTable", "bearer", "require"]

_ID = r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$"
bearer = HTTPBearer(auto_error=False, description="A token from the server's token table")


class Scope(StrEnum):
    READER = "reader"
    WRITER = "writer"
    OPERATOR = "operator"

    @property
    def rank(self) -> int:
        return list(Scope).index(self)


class TokenSpec(BaseModel):
    """One configured token."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    token: SecretStr | None = None
    token_sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    scope: Scope
    writer_id: str = Field(pattern=_ID)
    writer_kind: WriterKind
    boundaries: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TokenSpec:
        if (self.token is None) == (self.token_sha256 is None):
            raise ValueError("give exactly one of token and token_sha256")
        if self.token is not None and len(self.token.get_secret_value()) < 24:
            raise ValueError("a token has at least 24 characters")
        operator_kind = self.writer_kind is WriterKind.OPERATOR
        if operator_kind != (self.scope is Scope.OPERATOR):
            raise ValueError("an operator-scope token is of kind operator, and only it is")
        return self

    @property
    def digest(self) -> str:
        if self.token is not None:
            return hashlib.sha256(self.token.get_secret_value().encode("utf-8")).hexdigest()
        assert self.token_sha256 is not None
        return self.token_sha256


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request is: the token's identity, kind, scope and reach."""

    writer_id: str
    writer_kind: WriterKind
    scope: Scope
    boundaries: frozenset[str] | None

    def reaches(self, boundary_id: str) -> bool:
        return self.boundaries is None or boundary_id in self.boundaries


class TokenTable:
    """Token digest -> principal."""

    def __init__(self, specs: Iterable[TokenSpec]) -> None:
        self._by_digest: dict[str, Principal] = {}
        for spec in specs:
            if spec.digest in self._by_digest:
                raise ConfigurationError("the same token is configured twice")
            self._by_digest[spec.digest] = Principal(
                spec.writer_id,
                spec.writer_kind,
                spec.scope,
                frozenset(spec.boundaries) if spec.boundaries is not None else None,
            )

    def __len__(self) -> int:
        return len(self._by_digest)

    @classmethod
    def from_settings(cls, settings: ApiSettings) -> TokenTable:
        raw: list[Any] = []
        if settings.tokens_file is not None:
            try:
                text = settings.tokens_file.read_text(encoding="utf-8")
                raw.extend(tomllib.loads(text).get("tokens", []))
            except OSError as error:
                raise ConfigurationError(
                    f"cannot read the token file {settings.tokens_file}: {error.strerror}"
                ) from None
            except tomllib.TOMLDecodeError as error:
                raise ConfigurationError(f"{settings.tokens_file} is not TOML: {error}") from None
        if settings.tokens is not None:
            try:
                listed = json.loads(settings.tokens.get_secret_value())
            except json.JSONDecodeError as error:
                raise ConfigurationError(f"KG_CONTEXT_API_TOKENS is not JSON: {error}") from None
            raw.extend(listed if isinstance(listed, list) else [listed])
        try:
            specs = [TokenSpec.model_validate(item) for item in raw]
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'token'}: {e['msg']}"
                for e in error.errors(include_url=False)
            )
            raise ConfigurationError(f"unusable API token configuration: {problems}") from None
        table = cls(specs)
        if not table:
            raise ConfigurationError(
                "no API tokens configured: set KG_CONTEXT_API_TOKENS_FILE or KG_CONTEXT_API_TOKENS"
            )
        return table

    def authenticate(self, token: str) -> Principal | None:
        return self._by_digest.get(hashlib.sha256(token.encode("utf-8")).hexdigest())


_CHALLENGE = {"WWW-Authenticate": "Bearer"}


def _revoked(request: Request, boundary_id: str, token: str) -> bool:
    """Whether an operator of the boundary revoked this token (a revocation receipt naming its
    sha256); a boundary that does not exist has revoked nothing."""
    try:
        boundary = request.app.state.engine.boundary(boundary_id, create=False)
    except StateError:
        return False
    revoked: bool = boundary.credential_revoked(hashlib.sha256(token.encode("utf-8")).hexdigest())
    return revoked


def require(scope: Scope) -> Callable[..., Principal]:
    """A dependency: the request's principal, if its token has ``scope`` (or more) and reaches
    the path's boundary and was not revoked there; otherwise a 401 or 403 problem."""

    def dependency(
        request: Request,
        credentials: HTTPAuthorizationCredentials | None = Depends(bearer),  # noqa: B008
    ) -> Principal:
        if credentials is None or credentials.scheme.lower() != "bearer":
            raise ProblemError(
                401, "unauthenticated", "send Authorization: Bearer <token>", _CHALLENGE
            )
        tokens: TokenTable = request.app.state.tokens
        principal = tokens.authenticate(credentials.credentials)
        if principal is None:
            raise ProblemError(401, "unauthenticated", "unknown bearer token", _CHALLENGE)
        boundary_id = request.path_params.get("boundary_id")
        context = {"writer_id": principal.writer_id}
        if isinstance(boundary_id, str):
            context["boundary_id"] = boundary_id
        if principal.scope.rank < scope.rank:
            raise ProblemError(
                403,
                "forbidden",
                f"a {principal.scope} token may not do this; it needs {scope}",
                context=context,
            )
        if isinstance(boundary_id, str) and not principal.reaches(boundary_id):
            raise ProblemError(
                403, "forbidden", f"this token does not reach {boundary_id}", context=context
            )
        if isinstance(boundary_id, str) and _revoked(request, boundary_id, credentials.credentials):
            raise ProblemError(
                403,
                "credential-revoked",
                f"an operator of {boundary_id} revoked this token there; use another credential",
                context=context,
            )
        return principal

    return dependency
