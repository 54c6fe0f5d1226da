// Analyst audit: nodes an injection test would have created if text were ever executed (none).
MATCH (n:Pwned)
RETURN count(n) AS pwned
