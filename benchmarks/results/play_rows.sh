#!/bin/bash
# Play several strength rows a part at a time, round robin, until a deadline.
#
# usage: bash benchmarks/results/play_rows.sh DEADLINE_EPOCH [STEP] [LAST]
#
# Plays the rows below (the default SamplingBot, 32 worlds a decision and no clock,
# against the heuristic and the classic sampling bot, both games) in parts of STEP
# deals (default 25): part 0 of every row, then part STEP of every row, and so on up
# to LAST deals (default 2000), and starts no part after DEADLINE_EPOCH (seconds
# since 1970, e.g. $(date -d '+50 min' +%s)). Several copies may run at once (one a
# core): a part is claimed by a lock directory made with mkdir, written to
# part-NNNNN.json.tmp and renamed when complete; a stopped run leaves its lock (and
# maybe a .tmp): delete both before playing that part again (each part is played by
# play_row.sh). Run it from the repository's root with the library installed, under
# `nice -n 19` on a shared machine.
set -u
DEADLINE=$1
STEP=${2:-25}
LAST=${3:-2000}
OPTIONS='{"worlds": 32, "time_limit": null}'
ROWS=(
    "cavendish-vs-heuristic-w32 cavendish calabrasella.bots.heuristic:HeuristicBot"
    "calabresella-vs-heuristic-w32 calabresella calabrasella.bots.heuristic:HeuristicBot"
    "cavendish-vs-classic-w32 cavendish calabrasella.bots.sampling_bot:SamplingBot.classic"
    "calabresella-vs-classic-w32 calabresella calabrasella.bots.sampling_bot:SamplingBot.classic"
)
for ((n = 0; n < LAST; n += STEP)); do
    for row in "${ROWS[@]}"; do
        read -r name rules baseline <<< "$row"
        [ "$(date +%s)" -ge "$DEADLINE" ] && exit 0
        # one part of the row: play_row.sh claims it, plays it and writes it
        STEP=$STEP bash benchmarks/results/play_row.sh "$name" "$rules" "$baseline" \
            "$OPTIONS" "$n" "$((n + STEP))"
    done
done
