#!/bin/sh
# An agent for the move protocol (docs/protocol.md) in POSIX sh, sed and awk: no Python.
#
#   rulebook simulate battle-merchants --agents "cmd:sh examples/agent.sh",random
#
# It reads one JSON message per line on stdin and answers each "move" message with one line
# on stdout: one of the listed legal moves at random, written as the list writes it (a JSON
# string, quotes included, which the table reads as that move). It ignores "start" and
# "error" messages and stops at "end". The seed of its random choices comes from "start".

seed=1
turn=0
while IFS= read -r line; do
    case $line in
    '{"type":"start"'*)
        seed=$(printf '%s\n' "$line" | sed -n 's/.*"seed":\([0-9]*\).*/\1/p')
        ;;
    '{"type":"move"'*)
        turn=$((turn + 1))
        # the legal moves: the last "moves":[...] of the line (the message's own list; the
        # quotes inside the observation and text strings are escaped, \", so never match)
        moves=$(printf '%s\n' "$line" | sed -n 's/.*[^\\]"moves":\[\([^]]*\)\].*/\1/p')
        if [ -z "$moves" ]; then
            echo "done"  # no list (the table withheld it): a move most games know
            continue
        fi
        printf '%s\n' "$moves" | awk -v seed="${seed:-1}" -v turn="$turn" '{
            n = split($0, parts, /","/)
            srand(seed + turn)
            pick = int(rand() * n) + 1
            move = parts[pick]
            if (substr(move, 1, 1) != "\"") move = "\"" move
            if (substr(move, length(move), 1) != "\"" || length(move) == 1) move = move "\""
            print move
        }'
        ;;
    '{"type":"end"'*)
        exit 0
        ;;
    esac
done
