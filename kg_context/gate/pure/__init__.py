"""The gate's decision code: pure functions of a proposal batch, the constitution and the
snapshot the gate read; it imports the base modules and ``text`` only, never the database."""
