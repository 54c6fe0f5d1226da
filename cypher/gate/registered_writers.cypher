// The writers of $writer_ids registered in the boundary, with the kind each registered with (a
// constitution change reads whether the operators it names can act).
UNWIND $writer_ids AS writer_id
MATCH (w:Writer {boundary_id: $boundary_id, id: writer_id})
  USING INDEX SEEK w:Writer(boundary_id, id)
RETURN w.id AS id, w.kind AS kind
