"""A move-protocol agent for the tests: answers each move with the number of the first listed
move, and appends every message it reads (its type, and ``over`` for the end) to the file named
by its argument."""

import json
import sys

with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        message = json.loads(line)
        log.write(json.dumps({"type": message["type"], "over": message.get("over")}) + "\n")
        log.flush()
        if message["type"] == "move":
            print("1", flush=True)
        elif message["type"] == "end":
            break
