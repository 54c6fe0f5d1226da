"""Local-server bookkeeping that needs no java: config, pid files and stale-pid handling."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from kg_context.db import local_server as neo4j_local
from kg_context.settings import LocalServerSettings


def _settings(tmp_path: Path) -> LocalServerSettings:
    return LocalServerSettings(home_dir=tmp_path / "home", bolt_port=17687, http_port=17474)


def test_config_names_ports_and_project_local_directories(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    conf = (neo4j_local._write_config(settings) / "neo4j.conf").read_text()
    assert "server.bolt.listen_address=127.0.0.1:17687" in conf
    assert "server.http.listen_address=127.0.0.1:17474" in conf
    assert f"server.directories.data={tmp_path / 'home' / 'data'}" in conf


def test_a_dead_pid_is_reported_stale_and_not_running(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    pid_file = tmp_path / "home" / "run" / neo4j_local.PID_FILE
    pid_file.parent.mkdir(parents=True)
    pid_file.write_text("999999999\n")
    state = neo4j_local.status(settings)
    assert not state.running
    assert "stale" in state.detail
    # stop with a stale pid file is harmless and clears it
    assert not neo4j_local.stop(settings).running
    assert not pid_file.exists()


def test_a_live_pid_that_is_not_neo4j_is_not_taken_for_the_server(tmp_path: Path) -> None:
    import os

    settings = _settings(tmp_path)
    pid_file = tmp_path / "home" / "run" / neo4j_local.PID_FILE
    pid_file.parent.mkdir(parents=True)
    pid_file.write_text(f"{os.getpid()}\n")  # pytest itself: alive, but not a Neo4j server
    assert not neo4j_local.status(settings).running


# -- the local server is not a back door ----------------------------------------


def test_provisioning_generates_a_random_password_kept_0600(tmp_path: Path) -> None:
    import stat

    first, second = _settings(tmp_path / "a"), _settings(tmp_path / "b")
    password = neo4j_local.ensure_password(first).get_secret_value()
    assert len(password) >= 32 and password != "kg-context-local"
    assert neo4j_local.ensure_password(first).get_secret_value() == password  # kept, not redone
    assert neo4j_local.local_password(first).get_secret_value() == password  # what clients read
    assert neo4j_local.ensure_password(second).get_secret_value() != password
    mode = stat.S_IMODE(first.password_file.stat().st_mode)
    assert mode == 0o600, oct(mode)


def test_a_generated_password_never_reads_as_an_option(tmp_path: Path) -> None:
    # token_urlsafe starts with "-" once in 64 draws; neo4j-admin then took it for an option
    starts = {
        neo4j_local.ensure_password(_settings(tmp_path / str(i))).get_secret_value()[0]
        for i in range(300)
    }
    assert "-" not in starts


def test_the_environment_overrides_the_password_file_and_writes_none(tmp_path: Path) -> None:
    from pydantic import SecretStr

    settings = LocalServerSettings(home_dir=tmp_path / "home", password=SecretStr("given-one"))
    assert neo4j_local.ensure_password(settings).get_secret_value() == "given-one"
    assert neo4j_local.local_password(settings).get_secret_value() == "given-one"
    assert not settings.password_file.exists()


def test_a_server_without_its_password_is_an_error_saying_what_to_do(tmp_path: Path) -> None:

    from kg_context.errors import LocalServerError

    settings = _settings(tmp_path)
    with pytest.raises(LocalServerError, match="kg-context neo4j start"):
        neo4j_local.local_password(settings)
    # provisioned before the server generated its own password
    (tmp_path / "home" / "data" / "dbms").mkdir(parents=True)
    with pytest.raises(LocalServerError, match="KG_CONTEXT_LOCAL_PASSWORD"):
        neo4j_local.local_password(settings)


def test_the_initial_password_never_reaches_a_command_line(
    tmp_path: Path, monkeypatch: object
) -> None:
    import subprocess

    settings = _settings(tmp_path)
    conf_dir = neo4j_local._write_config(settings)
    seen: dict[str, object] = {}

    def fake_run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        argfile = Path(command[-1].removeprefix("@"))
        seen["command"] = command
        seen["argfile"] = argfile.read_text()
        seen["mode"] = argfile.stat().st_mode & 0o777
        return subprocess.CompletedProcess(command, 0, "", "")

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(neo4j_local, "_java", lambda: "java")
    from kg_context.db import local_password as passwords

    monkeypatch.setattr(passwords.subprocess, "run", fake_run)
    neo4j_local._set_initial_password(settings, tmp_path / "lib", conf_dir)
    password = neo4j_local.local_password(settings).get_secret_value()
    command = seen["command"]
    assert isinstance(command, list) and command[-1].startswith("@")
    assert not any(password in part for part in command)
    assert f'"{password}"' in str(seen["argfile"]) and seen["mode"] == 0o600
    assert not list((tmp_path / "home" / "run").glob("*.args"))  # removed afterwards


def test_the_argfile_quotes_whatever_a_given_password_holds() -> None:
    from kg_context.db.local_password import argfile_quote

    assert argfile_quote('a "b" \\c') == '"a \\"b\\" \\\\c"'


def test_auth_is_on_the_home_is_private_and_http_can_be_turned_off(tmp_path: Path) -> None:
    import stat

    on = _settings(tmp_path / "on")
    conf = (neo4j_local._write_config(on) / "neo4j.conf").read_text()
    assert "dbms.security.auth_enabled=true" in conf
    assert "server.http.enabled=true" in conf
    assert stat.S_IMODE(on.home_dir.stat().st_mode) == 0o700
    off = LocalServerSettings(home_dir=tmp_path / "off", http_enabled=False)
    conf = (neo4j_local._write_config(off) / "neo4j.conf").read_text()
    assert "server.http.enabled=false" in conf
    assert "off" in off.browser_url


def test_the_replan_interval_is_neo4js_unless_set(tmp_path: Path) -> None:

    default = LocalServerSettings(home_dir=tmp_path / "default", cypher_min_replan_interval=None)
    conf = (neo4j_local._write_config(default) / "neo4j.conf").read_text()
    assert "dbms.cypher.min_replan_interval" not in conf
    longer = LocalServerSettings(home_dir=tmp_path / "longer", cypher_min_replan_interval="1h")
    conf = (neo4j_local._write_config(longer) / "neo4j.conf").read_text()
    assert "dbms.cypher.min_replan_interval=1h" in conf
    with pytest.raises(ValidationError):
        LocalServerSettings(cypher_min_replan_interval="an hour")


def test_the_server_plans_once_per_parameter_type_unless_size_hints_are_asked_for(
    tmp_path: Path,
) -> None:
    off = LocalServerSettings(home_dir=tmp_path / "off", cypher_parameter_size_hints=False)
    conf = (neo4j_local._write_config(off) / "neo4j.conf").read_text()
    assert "internal.cypher.use_parameter_size=false" in conf.splitlines()
    on = LocalServerSettings(home_dir=tmp_path / "on", cypher_parameter_size_hints=True)
    conf = (neo4j_local._write_config(on) / "neo4j.conf").read_text()
    assert "use_parameter_size" not in conf  # Neo4j's own default: on
    # the Docker server of docker-compose.yml runs the same way (the image maps the variable)
    compose = (Path(__file__).parents[2] / "docker-compose.yml").read_text()
    assert 'NEO4J_internal_cypher_use__parameter__size: "false"' in compose


def test_the_transaction_logs_are_kept_short_and_checkpointed_by_volume_when_asked(
    tmp_path: Path,
) -> None:
    default = LocalServerSettings(home_dir=tmp_path / "default")
    conf = (neo4j_local._write_config(default) / "neo4j.conf").read_text()
    assert "db.tx_log.rotation.retention_policy=2 files" in conf
    assert "db.checkpoint" not in conf
    kept = LocalServerSettings(
        home_dir=tmp_path / "kept", tx_log_retention="7 days", checkpoint_volume="256m"
    )
    conf = (neo4j_local._write_config(kept) / "neo4j.conf").read_text()
    assert "db.tx_log.rotation.retention_policy=7 days" in conf
    assert "db.checkpoint.interval.volume=256m" in conf
    assert LocalServerSettings(tx_log_retention="keep_all").tx_log_retention == "keep_all"
    for retention in ("forever", "2 weeks", "7 days\ndbms.security.auth_enabled=false"):
        with pytest.raises(ValidationError):
            LocalServerSettings(tx_log_retention=retention)
    with pytest.raises(ValidationError):
        LocalServerSettings(checkpoint_volume="a lot")


def _start_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: Any) -> list[str]:
    """The command ``start`` would run the server with, for ``settings`` (nothing started)."""
    started: list[list[str]] = []

    class _Started(Exception):
        pass

    def popen(command: list[str], **_: object) -> None:
        started.append(command)
        raise _Started

    chosen = LocalServerSettings(
        home_dir=tmp_path / "home",
        cache_dir=tmp_path / "cache",
        password=SecretStr("a-password"),
        **settings,
    )
    (tmp_path / "home" / "data" / "dbms").mkdir(parents=True)
    monkeypatch.setattr(neo4j_local, "provision", lambda _settings: tmp_path / "lib")
    monkeypatch.setattr(neo4j_local, "_port_open", lambda _host, _port: False)
    monkeypatch.setattr(neo4j_local.subprocess, "Popen", popen)
    with pytest.raises(_Started):
        neo4j_local.start(chosen)
    return started[0]


def test_more_jvm_options_follow_kg_contexts_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = _start_command(tmp_path, monkeypatch, jvm_options="-XX:TieredStopAtLevel=1  -Xss2m")
    flags, classpath = command.index(neo4j_local.JVM_FLAGS[-1]), command.index("-cp")
    assert command[classpath - 2 : classpath] == ["-XX:TieredStopAtLevel=1", "-Xss2m"]
    assert flags < classpath - 2  # after kg-context's own, the class archive's included


@pytest.mark.parametrize(
    ("gc", "flag"),
    [(None, "-XX:+UseG1GC"), ("parallel", "-XX:+UseParallelGC"), ("serial", "-XX:+UseSerialGC")],
)
def test_the_garbage_collector_is_g1_unless_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gc: str | None, flag: str
) -> None:
    monkeypatch.delenv("KG_CONTEXT_LOCAL_GC", raising=False)  # the suite's own is parallel
    command = _start_command(tmp_path, monkeypatch, **({} if gc is None else {"gc": gc}))
    collectors = [arg for arg in command if arg.startswith("-XX:+Use") and arg.endswith("GC")]
    assert collectors == [flag]  # one collector: the JVM refuses two
    assert command.index(flag) < command.index("-cp")
    with pytest.raises(ValidationError):
        LocalServerSettings(gc="zgc")


def _sharing(tmp_path: Path, name: str, **more: object) -> LocalServerSettings:
    settings: dict[str, object] = {"class_data_sharing": True, **more}
    return LocalServerSettings(home_dir=tmp_path / name, cache_dir=tmp_path / "cache", **settings)


@pytest.fixture
def java(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    binary = tmp_path / "java"
    binary.write_text("")
    monkeypatch.setattr(neo4j_local, "_java", lambda: str(binary))


@pytest.mark.usefixtures("java")
def test_the_first_server_makes_the_class_archive_at_a_clean_stop_and_the_next_maps_it(
    tmp_path: Path,
) -> None:
    first, second = _sharing(tmp_path, "first"), _sharing(tmp_path, "second")
    archive = neo4j_local._class_archive(first)
    assert archive.parent == first.lib_dir.parent
    making = neo4j_local._class_sharing(first)
    assert making == [f"-XX:ArchiveClassesAtExit={archive.with_suffix('.partial')}"]
    assert neo4j_local._class_sharing(second) == []  # one server makes it
    neo4j_local._keep_class_archive(second, clean_exit=True)  # not its claim: nothing happens
    assert archive.with_suffix(".claim").exists()
    archive.with_suffix(".partial").write_bytes(b"classes")  # what the JVM writes at its exit
    neo4j_local._keep_class_archive(first, clean_exit=True)
    assert archive.read_bytes() == b"classes"
    assert not archive.with_suffix(".claim").exists()
    assert neo4j_local._class_sharing(second) == [f"-XX:SharedArchiveFile={archive}"]
    off = _sharing(tmp_path, "off", class_data_sharing=False)
    assert neo4j_local._class_sharing(off) == []


@pytest.mark.usefixtures("java")
def test_a_killed_servers_class_archive_is_dropped_and_its_stale_claim_taken_over(
    tmp_path: Path,
) -> None:
    first, second = _sharing(tmp_path, "first"), _sharing(tmp_path, "second")
    archive = neo4j_local._class_archive(first)
    assert neo4j_local._class_sharing(first)
    archive.with_suffix(".partial").write_bytes(b"cut sh")
    neo4j_local._keep_class_archive(first, clean_exit=False)
    assert not archive.exists() and not archive.with_suffix(".partial").exists()
    # a claim whose server died without a stop: past its grace, with a dead pid, it is stale
    assert neo4j_local._class_sharing(first)
    pid_file = tmp_path / "first" / "run" / neo4j_local.PID_FILE
    pid_file.parent.mkdir(parents=True)
    pid_file.write_text("999999999\n")
    claim = archive.with_suffix(".claim")
    assert neo4j_local._class_sharing(second) == []  # within its grace: still the first's
    old = claim.stat().st_mtime - neo4j_local.CLAIM_GRACE_S - 1
    os.utime(claim, (old, old))
    making = neo4j_local._class_sharing(second)
    assert making == [f"-XX:ArchiveClassesAtExit={archive.with_suffix('.partial')}"]
    assert claim.read_text().strip() == str(neo4j_local._pid_path(second).resolve())


def test_a_killable_server_restarted_with_the_cli_gets_the_settings_it_was_started_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crash test restarts its server with ``kg-context neo4j start`` under
    ``KillableServer.env()``: that server must come back as it was started (its JVM's options,
    collector, heap, ports), whatever the suite's own environment says."""
    from tests.reliability.servers import KillableServer
    from tests.servers import own_server

    started = own_server(tmp_path / "killable", gc="serial", password=SecretStr("s3cret-pass"))
    monkeypatch.setenv("KG_CONTEXT_LOCAL_JVM_OPTIONS", "-XX:+UseNUMA")
    monkeypatch.setenv("KG_CONTEXT_LOCAL_HEAP_SIZE", "3g")
    monkeypatch.setenv("KG_CONTEXT_LOCAL_CHECKPOINT_VOLUME", "64m")
    env = KillableServer(started).env()
    for key in [k for k in os.environ if k.startswith("KG_CONTEXT_LOCAL_")]:
        monkeypatch.delenv(key)  # the restart's process sees env() and nothing else
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert LocalServerSettings(_env_file=None) == started  # type: ignore[call-arg]
    assert started.jvm_options  # the short-lived servers' quick JIT, which a restart kept
