"""The soak benchmark (``make soak``, ``python -m benchmarks.soak``): a mixed workload for a set
time, throughput, latencies, RSS and store size over time, and the audit at the end."""
