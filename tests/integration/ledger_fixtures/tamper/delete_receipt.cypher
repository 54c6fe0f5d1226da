// An intruder deletes a receipt around the gate.
MATCH (r:Receipt {id: $receipt_id})
DETACH DELETE r
RETURN count(*) AS deleted
