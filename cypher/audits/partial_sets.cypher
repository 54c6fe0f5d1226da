// Question: Which sets were written only in part: a ratified set without exactly one commit
//   receipt, or whose entries, supersessions and transitions differ from the effects its commit
//   receipt lists, or out of seq order after its NEXT predecessor; a halted or rejected set that
//   holds entries or lacks its receipt; a proposal whose status disagrees with its set's?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: a set is one transaction, so all of it is there or none of it)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (s:Set {boundary_id: b.id})
USING INDEX SEEK s:Set(boundary_id)
WITH s,
     [(r:Receipt)-[:FOR]->(s) | r] AS receipts,
     [(s)-[:CONTAINS]->(e:Entry) | e.id] AS contained,
     [(s)-[:TRANSITIONED]->(t:Entry) | t.id] AS moved,
     [(p:Proposal)-[:IN_SET]->(s) | p.status] AS proposal_statuses,
     [(prev:Set)-[:NEXT]->(s) | prev.seq] AS previous
WITH s, contained, moved, proposal_statuses, previous,
     [r IN receipts WHERE r.kind = 'commit'] AS commits,
     [r IN receipts WHERE r.kind IN ['halt', 'rejection']] AS refusals
WITH s, contained, moved, proposal_statuses, previous, commits, refusals,
     CASE WHEN size(commits) = 1 THEN commits[0].allowed_effects ELSE [] END AS effects
WITH s, contained, moved, proposal_statuses, previous, commits, refusals,
     [x IN effects WHERE x STARTS WITH 'create:' | substring(x, 7)] AS created,
     [x IN effects WHERE x STARTS WITH 'supersede:' | substring(x, 10)] AS superseded,
     // 'transition:<entry id>:<old>-><new>:resident=<bool>' (an entry id may hold ':')
     [x IN effects WHERE x STARTS WITH 'transition:' |
        substring(x, 11, size(x) - 13 - size(split(x, ':')[-1]) - size(split(x, ':')[-2]))
     ] AS declared
WITH s, contained, moved, proposal_statuses, previous, commits, refusals, created, superseded,
     declared,
     CASE s.status WHEN 'ratified' THEN 'committed' WHEN 'halted' THEN 'halted'
          ELSE 'rejected' END AS proposal_status,
     COUNT { MATCH (:Entry)-[r:SUPERSEDES]->(old:Entry)
             WHERE old.id IN superseded AND old.boundary_id = s.boundary_id AND r.seq = s.seq
           } AS supersedes_written
WITH s, [problem IN [
    CASE WHEN s.status = 'ratified' AND size(commits) <> 1
         THEN 'commit receipts: ' + toString(size(commits)) END,
    CASE WHEN s.status = 'ratified' AND size(commits) = 1
              AND (size(contained) <> size(created) OR any(x IN created WHERE NOT x IN contained))
         THEN 'entries differ from the receipt' END,
    CASE WHEN s.status = 'ratified' AND size(commits) = 1 AND supersedes_written < size(superseded)
         THEN 'supersessions missing' END,
    CASE WHEN s.status = 'ratified' AND any(x IN declared WHERE NOT x IN moved)
         THEN 'transitions missing' END,
    CASE WHEN s.status = 'ratified' AND size(previous) = 1 AND previous[0] + 1 <> s.seq
         THEN 'seq does not follow NEXT' END,
    CASE WHEN s.status <> 'ratified' AND size(contained) > 0 THEN 'a refused set holds entries' END,
    CASE WHEN s.status <> 'ratified' AND size(refusals) = 0 THEN 'no halt or rejection receipt' END,
    CASE WHEN any(x IN proposal_statuses WHERE x <> proposal_status)
         THEN 'a proposal disagrees with its set' END
  ] WHERE problem IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN s.boundary_id AS boundary_id, s.id AS set_id, s.status AS status, s.seq AS seq, problems
ORDER BY boundary_id, seq, set_id
