// What else the gate reads before deciding a batch, besides the entries (load_state): the
// batch's writers registered in this boundary, the adoption receipts it cites (keys, uses and
// validity, the verse of the material they adopt, the uses recorded so far, and the seq of the
// receipt's boundary), the entries of
// other boundaries it references by name, the ratified sets of the fragment window that share
// a declared target with it, and which of its set ids already name a recorded set.
CALL {
  UNWIND $writer_ids AS writer_id
  MATCH (w:Writer {boundary_id: $boundary_id, id: writer_id})
  RETURN collect({id: w.id, kind: w.kind}) AS writers
}
CALL {
  UNWIND $receipt_ids AS receipt_id
  MATCH (r:Receipt {id: receipt_id})
  WHERE r.kind = 'adoption'
  MATCH (rb:Boundary {id: r.boundary_id})
  RETURN collect({id: r.id, boundary_id: r.boundary_id, keys: coalesce(r.keys, []),
                  uses: coalesce(r.uses, 1), valid_until_seq: r.valid_until_seq,
                  material_verse: r.material_verse,
                  used: COUNT { (:Set)-[:USED_ADOPTION]->(r) }, boundary_seq: rb.seq})
         AS adoptions
}
CALL {
  UNWIND $foreign AS ref
  MATCH (e:Entry {boundary_id: ref.boundary_id, id: ref.entry_id})
  RETURN collect({id: e.id, boundary_id: e.boundary_id, key: e.key, status: e.status,
                  class: e.class, writer_id: e.writer_id, resident: e.resident, verse: e.verse,
                  tokens: coalesce(e.tokens, 0)}) AS foreign
}
CALL {
  MATCH (s:Set)
  WHERE s.boundary_id = $boundary_id AND s.seq >= $from_seq AND s.status = 'ratified'
    AND any(t IN coalesce(s.targets, []) WHERE t IN $targets)
  RETURN collect({id: s.id, seq: s.seq, targets: s.targets,
                  writer_ids: coalesce(s.writer_ids, [s.writer_id]),
                  fanout: coalesce(s.fanout, 0), entry_count: coalesce(s.entry_count, 0),
                  lineage: coalesce(s.lineage, [])}) AS recent_sets
}
CALL {
  UNWIND $set_ids AS set_id
  MATCH (s:Set {boundary_id: $boundary_id, id: set_id})
  RETURN collect(s.id) AS taken
}
RETURN writers, adoptions, foreign, recent_sets, taken
