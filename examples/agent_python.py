#!/usr/bin/env python3
"""A whole agent for the move protocol (docs/protocol.md), in Python's standard library only.

Run a seat with it: ``rulebook simulate merchants-of-magick --agents "cmd:python3
examples/agent_python.py",random``. It reads one JSON message per line on stdin and answers
each ``move`` message with one line on stdout: a random legal move (``--first``: the first
listed one; without a list, ``done`` or ``pass`` as the grammar shows them). Everything it
prints on stderr goes to the table's log.
"""

from __future__ import annotations

import json
import random
import sys


def main() -> None:
    first = "--first" in sys.argv[1:]
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng.seed(message["seed"])
            print(f"playing seat {message['seat']} of {message['game']}", file=sys.stderr)
        elif kind == "move":
            moves = message.get("moves")
            if moves:
                answer = moves[0] if first else rng.choice(moves)
            else:  # the table withheld the list: an agent would read message["grammar"]
                answer = "pass" if "'pass'" in message["grammar"] else "done"
            print(answer, flush=True)
        elif kind == "error":
            print(f"refused: {message['reason']}", file=sys.stderr)
        elif kind == "end":
            print(f"scores {message['scores']}, winners {message['winners']}", file=sys.stderr)
            return


if __name__ == "__main__":
    main()
