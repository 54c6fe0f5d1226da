// The state of one boundary's own vector index ($name), if it exists: ONLINE, POPULATING or
// FAILED, and how far its population has come.
SHOW VECTOR INDEXES
YIELD name, state, populationPercent, labelsOrTypes
WHERE name = $name
RETURN state, populationPercent AS population_percent, labelsOrTypes AS labels
