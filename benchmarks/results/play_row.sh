#!/bin/bash
# Play a strength row's missing parts, STEP deals each (default 50), into
# benchmarks/results/ROW/.
#
# usage: bash benchmarks/results/play_row.sh ROW RULES BASELINE [OPTIONS_JSON] [FIRST] [LAST]
#   e.g. bash benchmarks/results/play_row.sh cavendish-vs-heuristic-40k cavendish \
#            calabrasella.bots.heuristic:HeuristicBot
#
# Run it from the repository's root with the library installed (or PYTHONPATH at a
# checkout's src). Several copies may run at once: each takes the next part that has
# neither a file nor a lock (a directory made with mkdir, which fails if it exists);
# a part is written to part-NNNNN.json.tmp and renamed only when complete. A stopped
# run leaves its lock (and maybe a .tmp): delete both before playing that part again.
set -u
ROW=$1
RULES=$2
BASELINE=$3
OPTIONS=${4:-'{"nodes": 40000, "time_limit": null, "worlds": 200}'}
FIRST=${5:-0}
LAST=${6:-2000}
STEP=${STEP:-50}
DIR=benchmarks/results/$ROW
mkdir -p "$DIR"
for ((n = FIRST; n < LAST; n += STEP)); do
    part=$DIR/part-$(printf %05d "$n").json
    [ -e "$part" ] && continue
    mkdir "$part.lock" 2>/dev/null || continue
    rm -f "$part.tmp"
    if python benchmarks/strength.py --deals $STEP --first "$n" --seed 1 --workers 0 \
        --rules "$RULES" \
        --candidate calabrasella.bots.sampling_bot:SamplingBot \
        --candidate-options "$OPTIONS" \
        --baseline "$BASELINE" \
        --save "$part.tmp" > "$DIR/log-$n.txt" 2>&1; then
        mv "$part.tmp" "$part"
    fi
    rmdir "$part.lock"
done
