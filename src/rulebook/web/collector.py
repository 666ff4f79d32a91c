"""Keeping Python's cyclic garbage collector off the moves' path (``rulebook serve`` only).

A full collection walks every object the process holds: the libraries' hundreds of thousands
and every game in memory. In the load benchmark (``make bench-web``) it ran about every ten
seconds, paused the event loop for 100-500 ms each time (the largest part of the time from a
move to its update at the 99th percentile) and found almost nothing to free (0-420 objects of
about 350,000): the games' states are freed by reference counting, not by the collector.

So the server, once its modules are imported, moves everything it holds then into the
permanent generation (:func:`gc.freeze`: never walked again; still freed by reference counts)
and runs a full collection only after :data:`FULL_EVERY` collections of the middle generation
instead of Python's 10. Young collections (a few thousand objects) run as usual, so cyclic
garbage is still freed; what reaches the oldest generation waits longer for it.
"""

from __future__ import annotations

import gc

#: collections of the middle generation between two full collections (Python's default: 10)
FULL_EVERY = 1000


def settle() -> None:
    """Collect once, freeze what survives (the imported modules), space out full collections."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)
