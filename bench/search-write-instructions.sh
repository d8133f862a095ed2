#!/usr/bin/env bash
# Instructions per write with the search triggers and without them, SQLite in process, 2,000 writes of each kind:
# callgrind counts only the measured writes (instrumentation on at "ready", off at "done"), two sides at a time.
# Needs valgrind and a build (npm run build). Prints one line per kind and side. Use N of 2,000 or more: FTS5 merges its
# segments every so often, so a few hundred writes do not average over the merges. KINDS="identify" counts one kind.
# Node runs --single-threaded (NODE_FLAGS= to change): V8's compiler and GC threads are counted too, and how much they
# do depends on timing; with them, one side's count moved by 5 % from run to run, without them by 0.5 %.
set -euo pipefail
cd "$(dirname "$0")/.."
export FEEDBACK_SECRET_KEY=${FEEDBACK_SECRET_KEY:-8gX3WODrr8t9MmXJxBUCO6q6sa3ULrXjAHZ8Uz1mza0}
N=${N:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
  local sync="$work/$1-$2"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null node ${NODE_FLAGS---single-threaded} bench/search-write-instructions.mjs "$1" "$2" "$N" "$sync" > "$sync.log" 2>&1 &
  local vp=$!
  while [ ! -f "$sync.ready" ]; do kill -0 "$vp" 2> /dev/null || { cat "$sync.log"; exit 1; }; sleep 0.2; done
  callgrind_control -i on "$vp" > /dev/null 2>&1; touch "$sync.go"
  while [ ! -f "$sync.done" ]; do sleep 0.2; done
  callgrind_control -i off "$vp" > /dev/null 2>&1; touch "$sync.stop"
  wait "$vp"
  echo "$2 $1: $(grep 'refs:' "$sync.log" | sed 's/.*refs: *//;s/,//g') instructions for $N writes"
}
for kind in ${KINDS:-existing identify posts}; do
  run with "$kind" & run without "$kind"; wait
done
