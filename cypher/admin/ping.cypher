// The smallest round trip: a baseline for latency figures.
RETURN 1 AS ok
