"""The residency room: what stays in the window, computed from the roots.

``reachability`` (resident = reachable from a live root through valid edges), ``czar`` and
``czar_plan`` (compaction sets proposed through the gate), ``interfaces`` (interface compaction),
``window`` (the resident entries, in prompt order), ``metrics`` (retention ratio), ``recall``
(archived entries proposed back through the gate). Writes only through the gate.
"""
