"""The database room: how kg-context reaches Neo4j and nothing else.

``executor`` (the ``QueryExecutor`` protocol every store takes, and its Neo4j implementation),
``catalog`` (the Cypher files, one statement each, parameters checked), ``connection`` (the
resolution: ``NEO4J_URI`` → Docker → the local server), ``local_server`` (Neo4j from Maven
Central, without Docker), ``schema`` (constraints and indexes). Imports only the base modules.
"""

import logging as _logging

# The driver logs its warnings (a retried transaction, a dropped connection) under "neo4j". They
# belong to the logging tree, where an application's handlers see them; without a handler of ours
# Python's last-resort handler would print them to stderr in the middle of a CLI's output.
for _name in ("neo4j", "kg_context"):
    _logger = _logging.getLogger(_name)
    if not any(isinstance(h, _logging.NullHandler) for h in _logger.handlers):
        _logger.addHandler(_logging.NullHandler())
