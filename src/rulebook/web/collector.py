"""Keeping Python's cyclic garbage collector off the moves' path (``rulebook serve`` only).

A full collection walks every object the process holds: the libraries' hundreds of thousands
and every game in memory. In the load benchmark (``make bench-web``) it ran about every ten
seconds, paused the event loop for 100-500 ms each time (the largest part of the time from a
move to its update at the 99th percentile) and found almost nothing to free (0-420 objects of
about 350,000): the games' states are freed by reference counting, not by the collector.

So the server, once its modules are imported, moves everything it holds then into the
permanent generation (:func:`gc.freeze`: never walked again; still freed by reference counts).
The young collections ran at Python's pace too, every 700 objects allocated (net of those
freed): building a move's payloads allocates thousands, so several ran at every move, and
what they promoted was walked again by the middle ones: 9.6% of a server's CPU under
``make bench-web`` (``perf record`` on one process: ``gc_collect_main`` and the walks it
makes). They now run every :data:`YOUNG` objects, which most of a move's objects do not live
to see (0.7% of the CPU); full collections come after the same count of objects allocated as
before (:data:`YOUNG` x :data:`MIDDLE` x :data:`FULL_EVERY`, 7 million). Cyclic garbage is
still freed, later.
"""

from __future__ import annotations

import gc

#: tracked objects allocated (net of those freed) between two young collections (Python's
#: default: 700)
YOUNG = 50_000
#: young collections between two collections of the middle generation (Python's default: 10)
MIDDLE = 10
#: collections of the middle generation between two full collections (Python's default: 10)
FULL_EVERY = 14


def settle() -> None:
    """Collect once, freeze what survives (the imported modules), space out the collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL_EVERY)
