"""A local Neo4j Community server without Docker: jars from Maven Central, run by OpenJDK 17.

``provision`` resolves the server (and Neo4j Browser) named in ``resources/neo4j-server-pom.xml``
with ``mvn -q dependency:copy-dependencies`` into a user cache directory. ``start`` writes a
``neo4j.conf`` under the project-local ``.kg-context/neo4j``, sets the initial password on first
use, runs ``org.neo4j.server.CommunityEntryPoint`` in the background, waits for Bolt to answer and
writes a pid file. ``start`` is idempotent, a stale pid file is handled, and ``stop`` leaves no
java process behind. Data survives a killed server: the next ``start`` recovers it.

The server is not a back door: auth on, 127.0.0.1 only, a random password kept in a 0600 file
(``local_password``), and the HTTP connector can be off (``KG_CONTEXT_LOCAL_HTTP_ENABLED``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import neo4j
from neo4j import exceptions as neo4j_errors

from kg_context.db.local_password import ensure_password, local_password, set_initial_password
from kg_context.errors import LocalServerError
from kg_context.settings import LocalServerSettings, load_settings

__all__ = [
    "ServerStatus",
    "ensure_password",
    "local_password",
    "provision",
    "start",
    "status",
    "stop",
]

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
PID_FILE = "kg-context-neo4j.pid"
CLAIM_GRACE_S = 60.0
# What Neo4j 5 needs opened on Java 17 (the flags its own launcher script passes).
JVM_FLAGS = (
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
)


# The flag of each ``KG_CONTEXT_LOCAL_GC`` (Neo4j's own launcher picks G1).
GC_FLAGS = {"g1": "-XX:+UseG1GC", "parallel": "-XX:+UseParallelGC", "serial": "-XX:+UseSerialGC"}


@dataclass(frozen=True, slots=True)
class ServerStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    home_dir: Path
    detail: str


def _say(message: str) -> None:
    print(f"[kg-context neo4j] {message}", file=sys.stderr, flush=True)


def _home(settings: LocalServerSettings) -> Path:
    return settings.home_dir.resolve()


def _pid_path(settings: LocalServerSettings) -> Path:
    return _home(settings) / "run" / PID_FILE


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").exists():
        return str(Path(java_home) / "bin" / "java")
    java = shutil.which("java")
    if java is None:
        raise LocalServerError(
            "java not found: install OpenJDK 17 (apt-get install openjdk-17-jre-headless) "
            "or point NEO4J_URI at an existing Neo4j"
        )
    return java


def provision(settings: LocalServerSettings | None = None) -> Path:
    """The directory of server jars, resolved from Maven Central on first use."""
    settings = settings or load_settings(LocalServerSettings)
    lib_dir = settings.lib_dir
    if (lib_dir.parent / ".complete").exists():
        return lib_dir
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LocalServerError(
            "Maven (mvn) not found: install it (apt-get install maven) so the Neo4j jars can be "
            "resolved, or point NEO4J_URI at an existing Neo4j"
        )
    lib_dir.parent.mkdir(parents=True, exist_ok=True)
    _say(f"resolving Neo4j {settings.neo4j_version} from Maven Central into {lib_dir} ...")
    pom = resources.files("kg_context") / "resources" / "neo4j-server-pom.xml"
    with (
        resources.as_file(pom) as pom_path,
        tempfile.TemporaryDirectory(dir=lib_dir.parent) as staging,
    ):
        out = Path(staging) / "lib"
        done = subprocess.run(
            [
                mvn,
                "-q",
                "-B",
                "-f",
                str(pom_path),
                "dependency:copy-dependencies",
                f"-DoutputDirectory={out}",
                f"-Dneo4j.version={settings.neo4j_version}",
                f"-Dneo4j.browser.version={settings.browser_version}",
                "-DincludeScope=runtime",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not any(out.glob("neo4j-*.jar")):
            tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
            raise LocalServerError(
                f"mvn could not resolve Neo4j {settings.neo4j_version}: " + " | ".join(tail)
            )
        if lib_dir.exists():
            shutil.rmtree(lib_dir)
        out.rename(lib_dir)
    (lib_dir.parent / ".complete").write_text(settings.neo4j_version + "\n")
    return lib_dir


def _write_config(settings: LocalServerSettings) -> Path:
    home = _home(settings)
    conf_dir = home / "conf"
    home.mkdir(parents=True, exist_ok=True)
    home.chmod(0o700)  # the store, the logs and the password file are the server's alone
    for sub in ("conf", "data", "logs", "run", "plugins", "import"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    lines = [
        "# Written by kg-context neo4j start; edit the KG_CONTEXT_LOCAL_* settings instead.",
        f"server.directories.data={home / 'data'}",
        f"server.directories.logs={home / 'logs'}",
        f"server.directories.run={home / 'run'}",
        f"server.directories.plugins={home / 'plugins'}",
        f"server.directories.import={home / 'import'}",
        f"server.default_listen_address={settings.host}",
        "dbms.security.auth_enabled=true",
        "server.bolt.enabled=true",
        f"server.bolt.listen_address={settings.host}:{settings.bolt_port}",
        f"server.bolt.advertised_address={settings.host}:{settings.bolt_port}",
        f"server.http.enabled={'true' if settings.http_enabled else 'false'}",
        f"server.http.listen_address={settings.host}:{settings.http_port}",
        f"server.http.advertised_address={settings.host}:{settings.http_port}",
        "server.https.enabled=false",
        f"server.memory.heap.initial_size={settings.heap_size}",
        f"server.memory.heap.max_size={settings.heap_size}",
        f"server.memory.pagecache.size={settings.pagecache_size}",
        "dbms.usage_report.enabled=false",
        # The transaction logs are recovery's, not the record's (the store holds every set):
        # files of 32 MiB (the default, 256 MiB, is preallocated in full for each database),
        # as many kept after a checkpoint as the retention says, and a checkpoint after every
        # checkpoint_volume of them (Neo4j's own: every 15 minutes, whatever was written).
        "db.tx_log.rotation.size=32M",
        f"db.tx_log.rotation.retention_policy={settings.tx_log_retention}",
    ]
    if settings.checkpoint_volume is not None:
        lines += [
            "db.checkpoint=VOLUME",
            f"db.checkpoint.interval.volume={settings.checkpoint_volume}",
        ]
    if settings.cypher_min_replan_interval is not None:
        lines.append(f"dbms.cypher.min_replan_interval={settings.cypher_min_replan_interval}")
    if not settings.cypher_parameter_size_hints:
        lines.append("internal.cypher.use_parameter_size=false")
    lines.append("")
    (conf_dir / "neo4j.conf").write_text("\n".join(lines), encoding="utf-8")
    return conf_dir


def _classpath(lib_dir: Path) -> str:
    return str(lib_dir / "*")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    proc = Path(f"/proc/{pid}")
    if proc.exists():
        try:
            stat = (proc / "stat").read_text()
            if stat.rsplit(")", 1)[-1].split()[0] == "Z":  # a zombie is not a server
                return False
            return ENTRY_POINT in (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            return False
    return True


def _read_pid(settings: LocalServerSettings) -> int | None:
    path = _pid_path(settings)
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def _bolt_answers(settings: LocalServerSettings) -> str | None:
    """The server's version if Bolt answers and accepts our credentials, else ``None``."""
    try:
        with neo4j.GraphDatabase.driver(
            settings.bolt_uri,
            auth=("neo4j", local_password(settings).get_secret_value()),
            connection_timeout=3.0,
        ) as driver:
            info = driver.get_server_info()
            return str(info.agent)
    except (neo4j_errors.DriverError, neo4j_errors.Neo4jError, OSError):
        return None


def status(settings: LocalServerSettings | None = None) -> ServerStatus:
    settings = settings or load_settings(LocalServerSettings)
    pid = _read_pid(settings)
    running = pid is not None and _alive(pid)
    if running:
        detail = f"running (pid {pid})"
    elif pid is not None:
        detail = f"not running (stale pid file for pid {pid})"
    else:
        detail = "not running"
    return ServerStatus(
        running=running,
        pid=pid if running else None,
        bolt_uri=settings.bolt_uri,
        browser_url=settings.browser_url,
        home_dir=_home(settings),
        detail=detail,
    )


def _log_tail(settings: LocalServerSettings, lines: int = 8) -> str:
    for name in ("console.log", "neo4j.log"):
        path = _home(settings) / "logs" / name
        if path.exists():
            text = path.read_text(errors="replace").strip().splitlines()
            if text:
                return " | ".join(text[-lines:])
    return "(no log output)"


def _set_initial_password(settings: LocalServerSettings, lib_dir: Path, conf_dir: Path) -> None:
    env = dict(os.environ, NEO4J_HOME=str(_home(settings)), NEO4J_CONF=str(conf_dir))
    set_initial_password(settings, [_java(), "-cp", _classpath(lib_dir)], ADMIN_TOOL, env)


def _class_archive(settings: LocalServerSettings) -> Path:
    """The server's class-data-sharing archive, beside its jars: the classes one server loaded,
    parsed and verified, which every later JVM of this Java maps instead (a start spends about
    a third less CPU). Named for the Java binary it was made with."""
    java = Path(_java()).resolve()
    made_by = f"{java}:{java.stat().st_mtime_ns}" if java.exists() else str(java)
    return settings.lib_dir.parent / f"classes-{zlib.crc32(made_by.encode()):08x}.jsa"


def _class_sharing(settings: LocalServerSettings) -> list[str]:
    """The JVM options for the class archive: map it if it exists; else, if no other server is
    making it, make it at this server's exit (a clean stop, ``stop``, keeps it; a killed server
    leaves a claim the next start finds stale). Nothing when ``class_data_sharing`` is off."""
    if not settings.class_data_sharing:
        return []
    archive = _class_archive(settings)
    if archive.exists():
        return [f"-XX:SharedArchiveFile={archive}"]
    claim = archive.with_suffix(".claim")
    if claim.exists() and not _claim_alive(claim):
        with contextlib.suppress(OSError):  # another start took it first
            claim.rename(claim.with_suffix(f".stale-{os.getpid()}"))
            claim.with_suffix(f".stale-{os.getpid()}").unlink()
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError:  # another server is making it (or the cache is read-only)
        return []
    with os.fdopen(handle, "w") as out:
        out.write(f"{_pid_path(settings).resolve()}\n")
    partial = archive.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    return [f"-XX:ArchiveClassesAtExit={partial}"]


def _claim_alive(claim: Path) -> bool:
    """Whether the server that claimed the making of the archive is still running (or has
    just claimed it, and may not have written its pid file yet)."""
    try:
        if time.time() - claim.stat().st_mtime < CLAIM_GRACE_S:
            return True
        pid = int(Path(claim.read_text().strip()).read_text().strip())
    except (OSError, ValueError):
        return False
    return _alive(pid)


def _keep_class_archive(settings: LocalServerSettings, clean_exit: bool) -> None:
    """After this server's exit: if it was making the archive, keep what its JVM wrote on a
    clean exit (a killed JVM's file may be cut short), and give up the claim either way."""
    archive = _class_archive(settings)
    claim = archive.with_suffix(".claim")
    try:
        claimed_by = claim.read_text().strip()
    except OSError:
        return
    if claimed_by != str(_pid_path(settings).resolve()):
        return
    partial = archive.with_suffix(".partial")
    if clean_exit and partial.exists() and partial.stat().st_size > 0:
        partial.replace(archive)
    partial.unlink(missing_ok=True)
    claim.unlink(missing_ok=True)


# The steps of ``start`` on a cold machine, in order (``on_step`` is told each one).
START_STEPS = ("checking ports", "provisioning the jars", "writing neo4j.conf",
               "setting the initial password", "starting the JVM", "waiting for Bolt")  # fmt: skip


def start(
    settings: LocalServerSettings | None = None,
    *,
    on_step: Callable[[str], None] | None = None,
) -> ServerStatus:
    """Start the server (or find it running) and wait until Bolt answers. ``on_step`` is told
    each of ``START_STEPS`` as it begins (a progress bar's hook)."""
    settings = settings or load_settings(LocalServerSettings)
    step = on_step or (lambda _name: None)
    current = status(settings)
    if current.running:
        _say(f"already running (pid {current.pid}); nothing to do")
        return current
    grace_s = 0.0
    step(START_STEPS[0])
    if current.detail.startswith("not running (stale"):
        _say(f"removing {current.detail}")
        _pid_path(settings).unlink(missing_ok=True)
        grace_s = 30.0  # a server that just died may still be releasing its ports
    ports = (
        (settings.bolt_port, settings.http_port) if settings.http_enabled else (settings.bolt_port,)
    )
    for port in ports:
        deadline = time.monotonic() + grace_s
        while _port_open(settings.host, port) and time.monotonic() < deadline:
            time.sleep(0.5)
        if _port_open(settings.host, port):
            raise LocalServerError(
                f"port {settings.host}:{port} is taken by another process; stop it or set "
                "KG_CONTEXT_LOCAL_BOLT_PORT / KG_CONTEXT_LOCAL_HTTP_PORT"
            )
    step(START_STEPS[1])
    lib_dir = provision(settings)
    step(START_STEPS[2])
    conf_dir = _write_config(settings)
    home = _home(settings)
    step(START_STEPS[3])
    if not (home / "data" / "dbms").exists():
        _set_initial_password(settings, lib_dir, conf_dir)
    else:
        local_password(settings)  # fail before starting a server nobody could log into
    step(START_STEPS[4])
    console = (home / "logs" / "console.log").open("ab")
    command = [
        _java(),
        f"-Xms{settings.heap_size}",
        f"-Xmx{settings.heap_size}",
        GC_FLAGS[settings.gc],
        *JVM_FLAGS,
        *_class_sharing(settings),
        *settings.jvm_options.split(),
        "-cp",
        _classpath(lib_dir),
        ENTRY_POINT,
        f"--home-dir={home}",
        f"--config-dir={conf_dir}",
    ]
    env = dict(os.environ, NEO4J_HOME=str(home), NEO4J_CONF=str(conf_dir))
    process = subprocess.Popen(
        command,
        cwd=home,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=console,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    console.close()
    _pid_path(settings).write_text(f"{process.pid}\n")
    _say(f"started Neo4j {settings.neo4j_version} (pid {process.pid}); waiting for Bolt ...")
    step(START_STEPS[5])
    deadline = time.monotonic() + settings.start_timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _pid_path(settings).unlink(missing_ok=True)
            raise LocalServerError(
                f"Neo4j exited with code {process.returncode} while starting: {_log_tail(settings)}"
            )
        version = _bolt_answers(settings)
        if version is not None:
            _say(f"{version} is up: Bolt {settings.bolt_uri}, Browser {settings.browser_url}")
            return status(settings)
        time.sleep(1.0)
    _terminate(process.pid, settings.stop_timeout_s)
    _pid_path(settings).unlink(missing_ok=True)
    raise LocalServerError(
        f"Neo4j did not answer on {settings.bolt_uri} within {settings.start_timeout_s:.0f}s: "
        f"{_log_tail(settings)}"
    )


def _terminate(pid: int, timeout_s: float) -> bool:
    """End the server's process group: SIGTERM, then SIGKILL after ``timeout_s``. Whether it
    ended on SIGTERM (a clean exit)."""
    for sig, wait_s in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return sig == signal.SIGTERM
        except PermissionError:
            os.kill(pid, sig)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                reaped, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                reaped = 0
            if reaped == pid or not _alive(pid):
                return sig == signal.SIGTERM
            time.sleep(0.2)
    if _alive(pid):
        raise LocalServerError(f"Neo4j (pid {pid}) survived SIGKILL")
    return False


def stop(settings: LocalServerSettings | None = None) -> ServerStatus:
    """Stop the server; afterwards no java process of ours is left."""
    settings = settings or load_settings(LocalServerSettings)
    current = status(settings)
    if current.running and current.pid is not None:
        _say(f"stopping Neo4j (pid {current.pid}) ...")
        clean = _terminate(current.pid, settings.stop_timeout_s)
        _keep_class_archive(settings, clean)
        _say("stopped")
    else:
        _say(f"{current.detail}; nothing to stop")
    _pid_path(settings).unlink(missing_ok=True)
    return status(settings)
