// Benchmark only: the server's garbage collections so far, all collectors together (JMX): how
// many and their summed time in milliseconds, so a benchmark can say how much of a measured
// window the server spent collecting.
CALL dbms.queryJmx('java.lang:type=GarbageCollector,*') YIELD attributes
RETURN sum(attributes.CollectionCount.value) AS collections,
       sum(attributes.CollectionTime.value) AS ms
