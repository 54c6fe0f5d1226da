"""The database room: how kg-context reaches Neo4j and nothing else.

``executor`` (the ``QueryExecutor`` protocol every store takes, and its Neo4j implementation),
``catalog`` (the Cypher files, one statement each, parameters checked), ``connection`` (the
resolution: ``NEO4J_URI`` → Docker → the local server), ``local_server`` (Neo4j from Maven
Central, without Docker), ``schema`` (constraints and indexes). Imports only the base modules.
"""
