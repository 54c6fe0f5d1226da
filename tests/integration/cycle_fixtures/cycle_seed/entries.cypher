// TEST FIXTURE ONLY (not in the product catalog): plain :Entry :Fact nodes of one boundary, for
// the cycle's read tests until they seed through the gate.
UNWIND $entries AS row
CREATE (e:Entry:Fact {id: row.id, boundary_id: $boundary_id, class: 'fact', key: row.key,
                      body: row.body, status: row.status, resident: true, tokens: 0})
RETURN count(e) AS created
