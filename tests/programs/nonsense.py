"""A move-protocol agent for the tests: answers every move with a line that names no move
(with the argument ``silent``, answers nothing at all), and writes each ``error`` line it is
sent to its stderr (the table's log)."""

import json
import sys

silent = sys.argv[1:] == ["silent"]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "move" and not silent:
        print("I would rather not", flush=True)
    elif message["type"] == "error":
        print(message["reason"], file=sys.stderr, flush=True)
    elif message["type"] == "end":
        break
