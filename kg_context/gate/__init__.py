"""The gate room: the constitution executing at commit, in two rooms named for what they do.

``gate.pure`` decides: what writers propose (``contracts``), the rules (``constitution``), what the
gate read (``snapshot``), the set a batch forms (``set_constructor``), the predicates, and the
decision in named steps with the rows it plans (``decision``, ``commit_plan``, ``batch``,
``rows``), the ledger's canonical texts (``ledger``); no database, no clock, no I/O.
``gate.io`` runs it: the one locked transaction per batch (``store``, ``transaction_io``), the
recorded proposals, constitutions and halts, operator acts, and ``boundary`` (the API a writer
holds). ``gate.pure.sink`` is the one protocol through which attention and the cycle reach it.
"""
