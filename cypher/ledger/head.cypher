// A boundary's ledger head (kg_context/gate/pure/ledger.py): the position and digest of its last
// record, and the seq its chain began after (null: no record yet, or a boundary from before the
// ledger existed), with its seq.
MATCH (b:Boundary {id: $boundary_id})
RETURN b.seq AS seq, coalesce(b.ledger_pos, 0) AS ledger_pos, b.ledger_head AS ledger_head,
       b.ledger_since_seq AS ledger_since_seq
