"""The hostile moves of the gate property test (test support, no test here): acts a writer, or
someone posing as an operator, tries against the engine in one step, each with the typed refusal
the gate must give and nothing changed but the record of it.

- ``set_kind``: a writer declares a set of kind ``compaction`` or ``constitution`` (``SET_KIND``);
- ``reserved_id``: a proposal or set id in the czar's or the constitution changes' namespace, the
  czar's next plan id included (``ReservedIdError``, ``RESERVED_ID``, nothing recorded);
- ``no_operator``: a constitution change leaving no operator who can act (``NO_OPERATOR``), or
  proposed by a non-operator (``AuthorizationError``); the constitution stays;
- ``fragment_evade``: a change split in two halves, the second under a second writer id or with
  no target (``FRAGMENTATION`` where the fan-out limit is 6, both commit where it is 64);
- ``adoption_twice``: a one-use adoption receipt cited by two sets (the second: ``ADOPTION_SCOPE``
  in its own boundary, ``CROSS_BOUNDARY`` from another; ``adoption_overuse`` stays empty);
- ``revoke``: an operator revokes a writer or an adoption receipt (the revoked party's next set:
  ``WRITER_REVOKED`` / ``ADOPTION_REVOKED``), a non-operator tries (``NOT_OPERATOR``), or an
  operator tries a named id (``NOT_AUTHORIZED``); a second revocation is a ``StateError``.

Each move asserts its outcomes and returns the decisions the gate made, so the test's step check
(only committed sets changed anything) holds for it as for every other step.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kg_context.engine import Engine
from kg_context.errors import (
    AuthorizationError,
    OperatorActRefused,
    ReservedIdError,
    StateError,
)
from kg_context.residency.czar_plan import plan_compaction
from tests.integration.fuzz_world import ANCHOR, World

__all__ = ["HostileMoves"]

_NAMED = ("czar", "operator")  # the ids the constitutions name


def _outcome(decision: Any) -> str:
    return f"{decision.outcome}:{decision.reason_code or 'COMMIT'}"


class HostileMoves:
    """One sequence's hostile moves against its two boundaries (``handles``, in ``world`` order);
    ``tally(mode, what)`` counts what each move saw."""

    def __init__(
        self,
        engine: Engine,
        world: World,
        handles: list[Any],
        tally: Callable[[str, str], None],
    ) -> None:
        self.engine = engine
        self.w = world
        self.handles = handles
        self.tally = tally
        self.revoked: Counter[tuple[str, str]] = Counter()  # (boundary, writer or receipt)

    def act(self, mode: str, which: int, n: int) -> list[Any]:
        """Run one move; the decisions the gate made (in the order made)."""
        boundary = self.handles[which]
        decisions: list[Any] = getattr(self, f"_{mode}")(boundary, which, n)
        for d in decisions:
            self.tally(mode, _outcome(d))
        return decisions

    # -- helpers ---------------------------------------------------------------------------------
    def _fresh(self, what: str) -> str:
        self.w.serial += 1
        return f"{what}-{self.w.serial}"

    def _plain(
        self, bid: str, writer: str, writer_kind: str = "agent", **fields: Any
    ) -> dict[str, Any]:
        """A well-formed proposal of one decision under a fresh key and target."""
        key = self._fresh("k")
        data: dict[str, Any] = {
            "id": self.w.next_id(bid, "h"),
            "boundary_id": bid,
            "writer_id": writer,
            "writer_kind": writer_kind,
            "targets": [f"t-{key}"],
            "entries": [{"class": "decision", "key": key, "body": f"hostile {key}"}],
        }
        data.update(fields)
        return data

    def _registered_kind(self, bid: str, writer: str) -> str:
        rows = self.engine.run_audit("writers", boundary_id=bid).rows
        return next((str(r["kind"]) for r in rows if r["id"] == writer), "agent")

    def _expect(self, decisions: list[Any], *wanted: str) -> list[Any]:
        assert [_outcome(d) for d in decisions] == list(wanted), decisions
        return decisions

    # -- the moves -------------------------------------------------------------------------------
    def _set_kind(self, boundary: Any, _: int, n: int) -> list[Any]:
        """A writer declares the gate's set kinds: an agent or the operator a compaction set,
        an agent, the operator or the czar a constitution set."""
        kind = ("compaction", "constitution")[n % 2]
        writer, writer_kind = (
            (self._fresh("agent"), "agent"),
            ("operator", "operator"),
            ("czar", "czar"),
        )[(n >> 1) % (3 if kind == "constitution" else 2)]
        body = self._plain(boundary.id, writer, writer_kind, kind=kind)
        if writer_kind == "czar":
            body["entries"][0]["class"] = "scratch"
        elif kind == "constitution":
            body["entries"] = [{"class": "pin", "key": "constitution", "body": 'version = "x"'}]
        before = boundary.state().constitution_version
        decisions = self._expect([boundary.commit(body)], "reject:SET_KIND")
        assert boundary.state().constitution_version == before
        return decisions

    def _reserved_id(self, boundary: Any, _: int, n: int) -> list[Any]:
        """A proposal or set id in a namespace the gate reserves: refused before anything is
        recorded, sent alone or with a well-formed companion (neither is recorded)."""
        bid = boundary.id
        fresh = uuid.uuid4().hex[:12]
        variant = n % 5
        squatted = ("czar_id", "czar_set_id", "constitution_id", "other_czar", "czar_next_plan")
        name = squatted[variant]
        writer, kind, fields = self._fresh("squatter"), "agent", {}
        if variant == 0:
            fields = {"id": f"{bid}/czar/czar/{fresh}"}
        elif variant == 1:
            fields = {"set_id": f"{bid}/czar/czar/{fresh}"}
        elif variant == 2:
            writer, kind = "operator", "operator"
            fields = {"id": f"{bid}/constitution/{fresh}"}
        elif variant == 3:  # a czar, in another czar's namespace
            writer, kind = "czar", "czar"
            fields = {"id": f"{bid}/czar/czar-2/{fresh}", "kind": "compaction"}
        else:  # the id the czar's next run would use, where it plans one (as run_czar does)
            plan = plan_compaction(
                boundary.executor,
                bid,
                boundary.constitution(),
                settings=boundary.settings.residency,
            )
            unclear = plan.unclear_proposal()
            planned = [
                *plan.proposals(boundary.constitution().density.max_set_fanout),
                *([unclear] if unclear is not None else []),
            ]
            taken = planned[0].id if planned else f"{bid}/czar/czar/{fresh}"
            name += "" if planned else "_none_planned"
            fields = {"id": taken, "set_id": taken}
        squat = self._plain(bid, writer, kind, **fields)
        if kind == "czar":
            squat["entries"][0]["class"] = "scratch"
        companion = self._plain(bid, self._fresh("honest"))
        send: Callable[[], Any] = (
            lambda: boundary.commit(squat),
            lambda: boundary.commit_many([companion, squat]),
            lambda: boundary.submit([companion, squat]),
        )[(n >> 3) % 3]
        with pytest.raises(ReservedIdError, match="reserved") as refused:
            send()
        assert refused.value.reason_code == "RESERVED_ID"
        assert boundary.decision(companion["id"]) is None
        self.tally("reserved_id", "refused:RESERVED_ID")
        self.tally("reserved_id", f"squatted:{name}")
        self.tally("reserved_id", f"sent:{('commit', 'commit_many', 'submit')[(n >> 3) % 3]}")
        return []

    def _no_operator(self, boundary: Any, _: int, n: int) -> list[Any]:
        """A constitution change that names no operator who can act (none, an id nobody holds,
        writers registered with another kind), or one proposed by a non-operator."""
        current = boundary.constitution()
        version = f"{current.version}-{uuid.uuid4().hex[:8]}"
        operators = ("[]", f'["nobody-{n}"]', '["w1", "mallory"]', '["operator"]')[n % 4]
        text = current.text.replace(f'version = "{current.version}"', f'version = "{version}"')
        assert 'operators = ["operator"]' in text
        text = text.replace('operators = ["operator"]', f"operators = {operators}")
        if n % 4 == 3:  # keeps the operator, proposed by someone else
            proposer = ("w1", "mallory", "czar")[(n >> 2) % 3]
            with pytest.raises(AuthorizationError, match="operator"):
                boundary.propose_constitution(text, writer_id=proposer, reason="take over")
            self.tally("no_operator", "refused:AuthorizationError")
            decisions: list[Any] = []
        else:
            decided = boundary.propose_constitution(text, writer_id="operator", reason="lock out")
            decisions = self._expect([decided], "reject:NO_OPERATOR")
        assert boundary.state().constitution_version == current.version
        return decisions

    def _fragment_evade(self, boundary: Any, which: int, n: int) -> list[Any]:
        """A fresh base of 4 entries, then a change of 8 edges on it in two halves of 4: the
        second half under a second writer id, or with no target. Boundary A's fan-out limit (6)
        halts the second half; B's (64) commits both."""
        bid = boundary.id
        tag = self._fresh("frag")
        base = [f"{bid}/{tag}-base{i}" for i in range(4)]
        entries = [
            {"id": b, "class": "decision", "key": f"{tag}b{i}", "body": tag}
            for i, b in enumerate(base)
        ]
        made = self._expect(
            [boundary.commit(self._plain(bid, f"{tag}-w", entries=entries))], "commit:COMMIT"
        )
        shadow = n % 2 == 0
        halves = [
            self._plain(
                bid,
                f"{tag}-w" + ("-shadow" if shadow and h else ""),
                set_id=self.w.next_id(bid, "FE"),
                targets=[] if h and not shadow else [f"t-{tag}"],
                entries=[
                    {
                        "class": "decision",
                        "key": f"{tag}h{h}",
                        "body": tag,
                        "requires": [{"entry_id": b} for b in base],
                    }
                ],
            )
            for h in range(2)
        ]
        split = (
            boundary.commit_many(halves) if (n >> 1) % 2 else [boundary.commit(h) for h in halves]
        )
        second = "halt:FRAGMENTATION" if which == 0 else "commit:COMMIT"
        self.tally("fragment_evade", "shadow_writer" if shadow else "no_target")
        return [*made, *self._expect(split, "commit:COMMIT", second)]

    def _adoption_twice(self, boundary: Any, which: int, n: int) -> list[Any]:
        """An operator issues a one-use receipt; two sets cite it. In the own boundary (global
        material of a fresh key) the second halts ``ADOPTION_SCOPE``; across (A's sets deriving
        from B's anchor, B allowing no cross-boundary edge at all) the second, or both, are
        rejected ``CROSS_BOUNDARY``. The issuing boundary's ``adoption_overuse`` stays empty."""
        bid, other = boundary.id, self.w.other(which)
        across = n % 2 == 1
        issuer = other if across else bid
        key = ANCHOR if across else self._fresh("adopted")
        receipt = self.engine.adopt(issuer, operator_id="operator", reason="once", keys=[key])
        writer = self._fresh("citer")
        bodies = []
        for _ in range(2):
            body = self._plain(
                bid, writer, adoption_receipt_id=receipt, set_id=self.w.next_id(bid, "AT")
            )
            if across:
                ref = {"entry_id": f"{other}/{ANCHOR}", "boundary_id": other, "essential": True}
                body["entries"][0]["derived_from"] = [ref]
            else:
                body["entries"][0].update(verse="global", key=key)
            bodies.append(body)
        decided = (
            boundary.commit_many(bodies) if (n >> 1) % 2 else [boundary.commit(b) for b in bodies]
        )
        if not across:
            wanted = ("commit:COMMIT", "halt:ADOPTION_SCOPE")
        elif which == 0:
            wanted = ("commit:COMMIT", "reject:CROSS_BOUNDARY")
        else:
            wanted = ("reject:CROSS_BOUNDARY",) * 2
        self._expect(decided, *wanted)
        assert self.engine.executor.read("audits/adoption_overuse", boundary_id=issuer) == []
        return decided

    def _revoke(self, boundary: Any, which: int, n: int) -> list[Any]:
        """An operator's revocation, or an attempt at one by someone who may not make it."""
        bid = boundary.id
        variant = n % 6
        if variant == 4:  # not an operator
            with pytest.raises(OperatorActRefused) as refused:
                boundary.revoke(
                    "writer",
                    "w1",
                    operator_id=("w1", "mallory", "czar")[(n >> 3) % 3],
                    reason="grudge",
                )
            assert refused.value.code == "NOT_OPERATOR"
            self.tally("revoke", "refused:NOT_OPERATOR")
            return []
        if variant == 5:  # a named id: the constitution's to change
            with pytest.raises(OperatorActRefused) as refused:
                boundary.revoke("writer", _NAMED[(n >> 3) % 2], operator_id="operator", reason="r")
            assert refused.value.code == "NOT_AUTHORIZED"
            self.tally("revoke", "refused:NOT_AUTHORIZED")
            return []
        if variant == 3:
            return self._revoke_receipt(boundary, which, n)
        decisions: list[Any] = []
        if variant == 2:  # a fresh writer, registered by a set of its own first
            writer = self._fresh("rogue")
            decisions += self._expect([boundary.commit(self._plain(bid, writer))], "commit:COMMIT")
        else:
            writer = ("mallory", "w3")[variant]
        self._revoke_once(boundary, "writer", writer)
        kind = self._registered_kind(bid, writer)
        probe = self._plain(bid, writer, kind)
        if kind == "tool":
            probe["entries"] = [{"class": "scratch", "key": "probe", "body": "probe"}]
        return decisions + self._expect([boundary.commit(probe)], "reject:WRITER_REVOKED")

    def _revoke_receipt(self, boundary: Any, which: int, n: int) -> list[Any]:
        """A receipt this boundary issued (A: ``own`` and ``cross-A``; B: ``cross-B``) revoked;
        a set citing it afterwards is rejected ``ADOPTION_REVOKED``."""
        bid = boundary.id
        names = ("own", f"cross-{bid}") if which == 0 else (f"cross-{bid}",)
        receipt = self.w.receipts[names[(n >> 3) % len(names)]]
        self._revoke_once(boundary, "adoption", receipt)
        probe = self._plain(bid, self._fresh("citer"), adoption_receipt_id=receipt)
        probe["entries"][0].update(verse="global", key="g")
        return self._expect([boundary.commit(probe)], "reject:ADOPTION_REVOKED")

    def _revoke_once(self, boundary: Any, subject: str, subject_id: str) -> None:
        """Revoke; a second revocation of the same subject is refused, nothing written."""
        if self.revoked[(boundary.id, subject_id)]:
            with pytest.raises(StateError, match="revoked already"):
                boundary.revoke(subject, subject_id, operator_id="operator", reason="again")
            self.tally("revoke", f"refused:{subject}_revoked_already")
            return
        done = boundary.revoke(subject, subject_id, operator_id="operator", reason="withdrawn")
        assert (done.subject.value, done.subject_id) == (subject, subject_id)
        self.revoked[(boundary.id, subject_id)] += 1
        self.tally("revoke", f"revoked:{subject}")
