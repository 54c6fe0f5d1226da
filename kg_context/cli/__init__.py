"""The ``kg-context`` command line: the app and its command groups."""

from kg_context.cli.app import app, main

__all__ = ["app", "main"]
