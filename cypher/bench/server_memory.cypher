// Benchmark only: the server's heap (JMX) and the memory of the files it maps (Lucene's indexes,
// the vector index among them), for the scale benchmark's report.
CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes
WITH attributes.HeapMemoryUsage.value.properties AS heap
CALL dbms.queryJmx('java.nio:name=mapped,type=BufferPool') YIELD attributes
RETURN heap.used AS heap_used, heap.committed AS heap_committed, heap.max AS heap_max,
       attributes.MemoryUsed.value AS mapped_bytes
