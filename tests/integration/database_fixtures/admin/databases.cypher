// The standard (user) databases the server serves, and whether each is online (system database).
SHOW DATABASES YIELD name, type, currentStatus
WHERE type = 'standard'
RETURN DISTINCT name, currentStatus = 'online' AS online
