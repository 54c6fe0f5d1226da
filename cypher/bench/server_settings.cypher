// Benchmark only: the memory settings the server runs with, for the scale benchmark's report,
// and how long it keeps a Cypher plan before it checks whether to plan it again (the commit
// benchmark waits that out before it times anything).
SHOW SETTINGS YIELD name, value
WHERE name IN ['server.memory.heap.initial_size', 'server.memory.heap.max_size',
               'server.memory.pagecache.size', 'dbms.memory.transaction.total.max',
               'db.memory.transaction.total.max', 'db.memory.transaction.max',
               'db.transaction.timeout', 'db.tx_log.rotation.retention_policy',
               'db.tx_log.rotation.size',
               'server.cypher.parallel.worker_limit', 'db.checkpoint.interval.time',
               'dbms.cypher.min_replan_interval']
RETURN name, value
ORDER BY name
