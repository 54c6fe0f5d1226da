// Benchmark only: the server process's CPU time so far, in nanoseconds (JMX; a map with
// `value`), so a benchmark can say how much of the machine the server used.
CALL dbms.queryJmx('java.lang:type=OperatingSystem') YIELD attributes
RETURN attributes.ProcessCpuTime AS cpu
