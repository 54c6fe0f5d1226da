"""The gate room: the constitution executing at commit, and everything it decides by.

Pure: ``contracts`` (what writers propose), ``constitution`` (the rules), ``status_machine``,
``snapshot`` (what the gate reads), ``set_constructor``, ``predicates``, ``decision`` /
``commit_plan`` / ``batch`` / ``rows`` (the decision in named steps, and the rows it plans).
I/O: ``store`` (the one locked transaction per batch), ``transaction_io``, ``proposal_records``,
``registry`` (recorded constitution versions), ``halts`` (operators), ``boundary`` (the API a
writer holds). ``sink`` is the one protocol through which attention and the cycle reach it.
Imports the base modules, ``text`` and ``db``; nothing above.
"""
