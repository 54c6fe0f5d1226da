// Benchmark only: the memory settings the server runs with, for the scale benchmark's report.
SHOW SETTINGS YIELD name, value
WHERE name IN ['server.memory.heap.initial_size', 'server.memory.heap.max_size',
               'server.memory.pagecache.size', 'dbms.memory.transaction.total.max',
               'db.memory.transaction.total.max', 'db.memory.transaction.max',
               'db.transaction.timeout', 'db.tx_log.rotation.retention_policy',
               'db.tx_log.rotation.size',
               'server.cypher.parallel.worker_limit', 'db.checkpoint.interval.time']
RETURN name, value
ORDER BY name
