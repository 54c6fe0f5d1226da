"""The world the gate property test generates proposals for (test support, no test here).

Each generated sequence runs in two fresh boundaries, ``A`` (a narrow constitution that allows
cross-boundary references) and ``B`` (the default), seeded through the gate with a root goal, a
decision that requires it, an unreachable fact, a retired and an invalidated entry, an explored
one and a goal no generated proposal names (``ANCHOR``), plus adoption receipts. Proposals are
generated as plain dicts (valid, invalid and hostile) from pools of writer ids, keys, targets and
entry ids; the test runs them through the real gate and checks what the gate and the record say.
The hostile moves against the engine itself are ``fuzz_hostile.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from kg_context.vocabulary import JustificationCase
from tests.factories import DEFAULT_VERSION, constitution_variant

__all__ = [
    "ANCHOR",
    "HOSTILE_MODES",
    "NARROW",
    "Step",
    "World",
    "seed_proposals",
    "sequences",
]

# A narrow constitution: small fan-out and sets (fragmentation and density trip), references to
# other boundaries allowed for both edges (the other boundary's receipt must still cover them).
NARROW = constitution_variant(
    f"{DEFAULT_VERSION}-fuzz-narrow",
    ("max_set_fanout = 64", "max_set_fanout = 6"),
    ("max_entries_per_set = 1000", "max_entries_per_set = 6"),
    ("\nallowed = []", '\nallowed = ["derived_from", "requires"]'),
)

AGENTS = ("w1", "w2", "w3")
HOSTILE = ("mallory", "czar-2", "ops", "operator", "czar")  # the last two are named ids
KEYS = ("db", "api", "cache", "plan", "g")
TARGETS = ("t-db", "t-api", "t-x")
SEEDED = ("goal", "dec", "fact", "old", "bad", "tried")  # see seed_proposals
# A goal no generated proposal names (its id and key are outside the pools), so it stays live: the
# material a hostile move cites across boundaries.
ANCHOR = "anchor"
# The hostile moves (``fuzz_hostile.py``), one act each against the engine.
HOSTILE_MODES = (
    "set_kind",
    "reserved_id",
    "no_operator",
    "fragment_evade",
    "adoption_twice",
    "revoke",
)
CATEGORIES = (
    "valid",
    "valid",
    "valid",
    "dup_ids",
    "forged_kind",
    "czar_case",
    "cycle",
    "non_standing",
    "cross",
    "fragment",
    "adoption",
    "set_reuse",
    "transition",
    "supersede",
    "unplaced",
    "explored_dep",
    "registered_kind",
    "dense",
)


@dataclass
class World:
    """The two boundaries of one sequence and what has been declared so far."""

    a: str
    b: str
    receipts: dict[str, str] = field(default_factory=dict)  # name -> receipt id
    serial: int = 0
    set_ids: list[str] = field(default_factory=list)

    def boundary(self, which: int) -> str:
        return (self.a, self.b)[which]

    def other(self, which: int) -> str:
        return (self.b, self.a)[which]

    def next_id(self, boundary_id: str, what: str) -> str:
        self.serial += 1
        return f"{boundary_id}/{what}{self.serial}"


@dataclass(frozen=True)
class Step:
    """One act of a sequence: proposals into one boundary (``many``: one commit_many; ``each``:
    one commit per proposal; ``close``: submit all, then close), or the czar's run, or an
    operator's resolution of the oldest open halt, or a hostile move (``HOSTILE_MODES``; its
    one spec is ``(mode, a drawn number)``)."""

    which: int
    mode: str
    specs: tuple[tuple[str, int], ...] = ()  # (category, a drawn number) per proposal


def seed_proposals(boundary_id: str) -> list[dict[str, Any]]:
    """The seeded state of a boundary: entries, then an operator's set adding the anchor,
    retiring ``old`` and invalidating ``bad``."""

    def e(name: str, cls: str, key: str, **extra: Any) -> dict[str, Any]:
        return {"id": f"{boundary_id}/{name}", "class": cls, "key": key, "body": name, **extra}

    src = {"attributes": {"source": "seed"}}
    entries = [
        e("goal", "goal", "mission"),
        e("dec", "decision", "db", requires=[{"entry_id": f"{boundary_id}/goal"}]),
        e("fact", "fact", "cache", **src),
        e("old", "fact", "api", **src),
        e("bad", "decision", "plan"),
        e("tried", "scratch", "tmp", attributes={"explored": True}),
    ]
    return [
        {
            "id": f"{boundary_id}/seed",
            "boundary_id": boundary_id,
            "writer_id": "seeder",
            "writer_kind": "agent",
            "set_id": f"{boundary_id}/seed",
            "entries": entries,
        },
        {
            "id": f"{boundary_id}/seed-moves",
            "boundary_id": boundary_id,
            "writer_id": "operator",
            "writer_kind": "operator",
            "set_id": f"{boundary_id}/seed-moves",
            "entries": [e(ANCHOR, "goal", ANCHOR)],
            "transitions": [
                {
                    "entry_id": f"{boundary_id}/old",
                    "to": "retired",
                    "resident": False,
                    "reason": "seed",
                },
                {"entry_id": f"{boundary_id}/bad", "to": "invalidated", "reason": "seed"},
            ],
        },
    ]


def _hostile(which: int, n: int) -> Step:
    """A hostile move: its mode, and the number whose low bits pick its variant, both come from
    ``n`` hashed (Fibonacci hashing), so they spread evenly though hypothesis draws small
    numbers and repeats more often."""
    spread = ((n * 0x9E3779B1) & 0xFFFFFFFF) >> 8
    mode, number = divmod(spread, 2**16)
    return Step(which, HOSTILE_MODES[mode % len(HOSTILE_MODES)], (("hostile", number),))


_step = st.one_of(
    st.builds(
        Step,
        which=st.integers(0, 1),
        mode=st.sampled_from(("many", "many", "each", "close")),
        specs=st.lists(
            st.tuples(st.sampled_from(CATEGORIES), st.integers(0, 2**16)), min_size=1, max_size=4
        ).map(tuple),
    ),
    st.builds(Step, which=st.integers(0, 1), mode=st.sampled_from(("czar", "approve", "reject"))),
    st.builds(_hostile, which=st.integers(0, 1), n=st.integers(0, 2**16)),
)

sequences = st.lists(_step, min_size=1, max_size=5)


class Generator:
    """Turns a drawn (category, number) into a proposal dict, from the world's pools."""

    def __init__(self, world: World, which: int, new_ids: list[str]) -> None:
        self.w = world
        self.which = which
        self.bid = world.boundary(which)
        self.new_ids = new_ids  # entry ids declared so far in this boundary (any outcome)

    def pick(self, n: int, pool: tuple[str, ...] | list[str]) -> str:
        return pool[n % len(pool)]

    def ref(self, n: int) -> str:
        """An entry id of the own boundary: seeded, declared earlier, or a ghost."""
        pool = [f"{self.bid}/{s}" for s in SEEDED] + self.new_ids[-8:] + [f"{self.bid}/ghost"]
        return self.pick(n, pool)

    def base(self, n: int, **fields: Any) -> dict[str, Any]:
        pid = self.w.next_id(self.bid, "p")
        data: dict[str, Any] = {
            "id": pid,
            "boundary_id": self.bid,
            "writer_id": self.pick(n, AGENTS),
            "writer_kind": "agent",
            "targets": [self.pick(n >> 3, TARGETS)],
        }
        data.update(fields)
        return data

    def entry(self, n: int, cls: str = "decision", **extra: Any) -> dict[str, Any]:
        eid = self.w.next_id(self.bid, "e")
        self.new_ids.append(eid)
        data = {"id": eid, "class": cls, "key": self.pick(n, KEYS), "body": f"body {n}"}
        if cls == "fact":
            data["attributes"] = {"source": "fuzz"}
        data.update(extra)
        return data

    def make(self, category: str, n: int) -> list[dict[str, Any]]:
        return getattr(self, f"_{category}")(n)

    def _valid(self, n: int) -> list[dict[str, Any]]:
        entries = [
            self.entry(n >> i, ("decision", "fact", "plan", "goal")[(n >> i) % 4])
            for i in range(1 + n % 3)
        ]
        if n % 5 == 0:
            entries[0]["requires"] = [{"entry_id": f"{self.bid}/goal", "policy": "hard"}]
        if n % 7 == 0:
            entries[0]["derived_from"] = [{"entry_id": f"{self.bid}/dec", "essential": True}]
        if n % 11 == 0:
            entries.append(self.entry(n, "open_question", expires_after=1 + n % 9))
        return [self.base(n, entries=entries)]

    def _dup_ids(self, n: int) -> list[dict[str, Any]]:
        set_id = self.w.next_id(self.bid, "S")
        twice = self.entry(n)
        if n % 2:  # an id already in the record
            return [self.base(n, entries=[{**twice, "id": f"{self.bid}/dec"}])]
        return [
            self.base(n, set_id=set_id, entries=[twice]),
            self.base(n + 1, set_id=set_id, entries=[{**twice, "body": "other"}]),
        ]

    def _forged_kind(self, n: int) -> list[dict[str, Any]]:
        kind = ("czar", "operator", "agent", "tool")[n % 4]
        cls = "scratch" if kind in ("czar", "tool") else "decision"
        writer = self.pick(n >> 2, HOSTILE)
        moves = []
        if kind in ("czar", "operator") and n % 3 == 0:
            moves = [
                {
                    "entry_id": self.ref(n),
                    "to": "retired",
                    "resident": False,
                    "reason": "lie",
                    "case": "UNREACHABLE",
                    "justification": ["UNREACHABLE: lie"],
                }
            ]
        return [
            self.base(
                n,
                writer_id=writer,
                writer_kind=kind,
                entries=[self.entry(n, cls)],
                transitions=moves,
            )
        ]

    def _czar_case(self, n: int) -> list[dict[str, Any]]:
        case = self.pick(n, tuple(c.value for c in JustificationCase))
        to, resident = (("retired", False), (None, True), (None, False))[(n >> 4) % 3]
        move = {
            "entry_id": self.ref(n >> 6),
            "resident": resident,
            "reason": "czar",
            "case": case,
            "justification": [f"{case}: evidence"],
        }
        if to:
            move["to"] = to
        set_id = self.w.next_id(self.bid, "czarset")
        return [
            self.base(
                n,
                writer_id="czar",
                writer_kind="czar",
                set_id=set_id,
                targets=[],
                kind="compaction",
                entries=[],
                transitions=[move],
            )
        ]

    def _cycle(self, n: int) -> list[dict[str, Any]]:
        a, b = self.entry(n), self.entry(n + 1)
        edge = ("derived_from", "requires")[n % 2]
        if n % 3 == 0:  # self
            a[edge] = [{"entry_id": a["id"]}]
            return [self.base(n, entries=[a])]
        a[edge] = [{"entry_id": b["id"]}]
        b[edge] = [{"entry_id": a["id"]}]
        return [self.base(n, entries=[a, b])]

    def _non_standing(self, n: int) -> list[dict[str, Any]]:
        target = f"{self.bid}/{('old', 'bad', 'tried')[n % 3]}"
        edge = ("requires", "derived_from")[(n >> 2) % 2]
        ref: dict[str, Any] = {"entry_id": target}
        if edge == "derived_from":
            ref["essential"] = bool(n & 16)
        return [self.base(n, entries=[self.entry(n, **{edge: [ref]})])]

    def _cross(self, n: int) -> list[dict[str, Any]]:
        other = self.w.other(self.which)
        target = f"{other}/{('dec', 'old', 'goal', 'ghost')[n % 4]}"
        style = (n >> 2) % 4
        ref: dict[str, Any] = {"entry_id": target}
        if style:  # explicit
            ref["boundary_id"] = other
        edge = ("requires", "derived_from", "supersedes")[(n >> 4) % 3]
        if edge == "supersedes":
            ref["reason"] = "across"
        fields: dict[str, Any] = {}
        if style >= 2:
            fields["adoption_receipt_id"] = self.w.receipts[("cross-" + other, "own")[style - 2]]
        return [self.base(n, entries=[self.entry(n, **{edge: [ref]})], **fields)]

    def _fragment(self, n: int) -> list[dict[str, Any]]:
        """Two explicit sets by one writer on one target, 4 edges each (A's fan-out limit: 6)."""
        writer = self.pick(n, AGENTS)
        deps = [{"entry_id": f"{self.bid}/{s}"} for s in ("goal", "dec", "fact", "goal")]
        return [
            self.base(
                n,
                writer_id=writer,
                set_id=self.w.next_id(self.bid, "F"),
                targets=["t-frag"],
                entries=[self.entry(n, requires=deps[: 2 + n % 3])],
            )
            for _ in range(2)
        ]

    def _dense(self, n: int) -> list[dict[str, Any]]:
        """One entry declaring 5 to 8 edges (A's fan-out limit: 6)."""
        deps = [{"entry_id": f"{self.bid}/goal"}] * (5 + n % 4)
        return [self.base(n, entries=[self.entry(n, requires=deps)])]

    def _adoption(self, n: int) -> list[dict[str, Any]]:
        key = ("g", "security", "api")[n % 3]
        receipt = self.pick(n >> 2, [*self.w.receipts.values(), f"{self.bid}/adoption/none"])
        return [
            self.base(
                n, adoption_receipt_id=receipt, entries=[self.entry(n, verse="global", key=key)]
            )
        ]

    def _set_reuse(self, n: int) -> list[dict[str, Any]]:
        # ids of the own boundary (ids shared across boundaries are tested in test_identity.py)
        own = [i for i in self.w.set_ids if i.startswith(f"{self.bid}/")]
        reused = self.pick(n, [*own, f"{self.bid}/seed", f"{self.bid}/seed-moves"])
        return [self.base(n, set_id=reused, entries=[self.entry(n)])]

    def _transition(self, n: int) -> list[dict[str, Any]]:
        to = ("challenged", "invalidated", "retired", "revalidated", "superseded", None)[n % 6]
        kind = ("agent", "operator", "tool")[(n >> 3) % 3]
        writer = {"agent": self.pick(n, AGENTS), "operator": "operator", "tool": "t1"}[kind]
        move: dict[str, Any] = {"entry_id": self.ref(n >> 5), "reason": "fuzz"}
        if to is not None:
            move["to"] = to
        if to is None or n & 64:
            move["resident"] = bool(n & 128)
        extra = {"revalidates": [self.ref(n >> 9)]} if to == "revalidated" and n & 256 else {}
        return [self.base(n, writer_id=writer, writer_kind=kind, transitions=[move], **extra)]

    def _supersede(self, n: int) -> list[dict[str, Any]]:
        old = self.ref(n >> 2)
        key = ("db", "cache", "api", "plan")[n % 4]
        sup = [{"entry_id": old, "reason": "newer"}]
        return [self.base(n, entries=[self.entry(n, key=key, supersedes=sup)])]

    def _unplaced(self, n: int) -> list[dict[str, Any]]:
        return [self.base(n, targets=[], entries=[self.entry(n)])]

    def _explored_dep(self, n: int) -> list[dict[str, Any]]:
        tried = self.entry(n, "scratch", attributes={"explored": True})
        uses = self.entry(n + 1, requires=[{"entry_id": tried["id"]}])
        return [self.base(n, entries=[tried, uses])]

    def _registered_kind(self, n: int) -> list[dict[str, Any]]:
        # seeder registered as agent; w1..w3 as agents once they committed: claim tool
        writer = ("seeder", *AGENTS)[n % 4]
        return [
            self.base(n, writer_id=writer, writer_kind="tool", entries=[self.entry(n, "scratch")])
        ]
