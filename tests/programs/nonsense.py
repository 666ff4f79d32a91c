"""A move-protocol agent for the tests: answers every move with a line that names no move,
and writes each ``error`` line it is sent to its stderr (the table's log). With the argument
``silent`` it answers nothing at all, and exits once it has waited 3 s for its next message
(so that a table that would wait longer plays on without it, quickly)."""

import json
import queue
import sys
import threading

silent = sys.argv[1:] == ["silent"]
lines: queue.Queue[str | None] = queue.Queue()


def read() -> None:
    for line in sys.stdin:
        lines.put(line)
    lines.put(None)


threading.Thread(target=read, daemon=True).start()
asked = False
while True:
    try:
        line = lines.get(timeout=3 if asked else None)
    except queue.Empty:
        sys.exit(0)
    if line is None:
        break
    message = json.loads(line)
    if message["type"] == "move":
        asked = silent
        if not silent:
            print("I would rather not", flush=True)
    elif message["type"] == "error":
        print(message["reason"], file=sys.stderr, flush=True)
    elif message["type"] == "end":
        break
