// One boundary by id.
MATCH (b:Boundary {id: $boundary_id})
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       b.task_horizon AS task_horizon, toString(b.created_at) AS created_at
