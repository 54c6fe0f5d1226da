"""The benchmark triangle: retention ratio, useful horizon and correctness of the
governed engine against a transcript baseline and a retrieval baseline fed the identical event
stream.

Run it with ``python -m benchmarks.triangle`` (``make triangle``) or ``--quick``. The design (the
generator's parameters, the reader's rules, every metric) is documented in ``DESIGN.md`` beside
this file; the latest full run is in ``RESULTS.md``.
"""
