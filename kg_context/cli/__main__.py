"""``python -m kg_context.cli``: the same as the ``kg-context`` command."""

from kg_context.cli.app import main

main()
