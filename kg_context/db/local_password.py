"""The local server's password: random, generated when the server is provisioned, kept in a file
only its owner reads (``<home_dir>/password``, mode 0600), read by the CLI, the tests and the
engine; ``KG_CONTEXT_LOCAL_PASSWORD`` overrides it. Never on a command line, in a log or output.
"""

from __future__ import annotations

import os
import secrets
import subprocess

from pydantic import SecretStr

from kg_context.errors import LocalServerError
from kg_context.settings import LocalServerSettings

__all__ = ["argfile_quote", "ensure_password", "local_password", "set_initial_password"]


def local_password(settings: LocalServerSettings) -> SecretStr:
    """The local server's password: ``KG_CONTEXT_LOCAL_PASSWORD`` if set, else the one generated
    when the server was provisioned (``<home_dir>/password``)."""
    if settings.password is not None:
        return settings.password
    path = settings.password_file.resolve()
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        home = settings.home_dir.resolve()
        if (home / "data" / "dbms").exists():
            raise LocalServerError(
                f"the local server in {home} has no password file ({path}): it was "
                "provisioned before kg-context generated passwords; set KG_CONTEXT_LOCAL_PASSWORD "
                "to its password (then it was kg-context-local), or move that home away and run "
                "`kg-context neo4j start` to provision a new one"
            ) from None
        raise LocalServerError(
            f"no password for the local server yet ({path}); run `kg-context neo4j start` to "
            "provision it, or set KG_CONTEXT_LOCAL_PASSWORD"
        ) from None
    except OSError as err:
        raise LocalServerError(
            f"cannot read the local server's password file {path}: {err.strerror}"
        ) from None
    if not text:
        raise LocalServerError(f"the local server's password file {path} is empty")
    return SecretStr(text)


def ensure_password(settings: LocalServerSettings) -> SecretStr:
    """The password to provision the server with: the override, the one already kept, or a new
    random one written to ``<home_dir>/password`` (created 0600, never world-readable)."""
    if settings.password is not None:
        return settings.password
    path = settings.password_file.resolve()
    if path.exists():
        return local_password(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Never a leading "-": neo4j-admin would read the password as an option and fail
    # ("Missing required parameter"), once in 64 fresh servers.
    generated = "k" + secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(generated + "\n")
    return SecretStr(generated)


def argfile_quote(value: str) -> str:
    """One argument of a java @file: quoted, backslashes and quotes escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def set_initial_password(
    settings: LocalServerSettings, java: list[str], admin_tool: str, env: dict[str, str]
) -> None:
    """``neo4j-admin dbms set-initial-password`` (``java`` is the launcher and its classpath)
    with the password in a 0600 argument file (``java @file``), never on the command line, where
    any local user could read it in the process table."""
    home = settings.home_dir.resolve()
    password = ensure_password(settings).get_secret_value()
    argfile = home / "run" / "set-initial-password.args"
    argfile.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(argfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"{admin_tool}\ndbms\nset-initial-password\n{argfile_quote(password)}\n")
    try:
        done = subprocess.run(
            [*java, "-Dfile.encoding=UTF-8", f"@{argfile}"],
            env=env,
            cwd=home,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        argfile.unlink(missing_ok=True)
    if done.returncode != 0:
        output = (done.stderr or done.stdout).strip()
        if password:
            output = output.replace(password, "<password>")
        raise LocalServerError("neo4j-admin dbms set-initial-password failed: " + output)
