"""The gate's I/O: the locked transactions that read the snapshot, call ``gate.pure`` to
decide, and write what it planned; the records of proposals, constitutions and halts, and the
operator acts."""
