#!/bin/sh
# Times `isowatch check`'s two phases (load, check) before and after a change, interleaved, in a
# fresh JVM per run, and prints the minimum of RUNS runs of each, wall clock and the main thread's
# CPU time (issue 20's reader work).
# Usage: load-check-timing.sh BEFORE_CP AFTER_CP FILE FORMAT LEVEL RUNS [JVM options...]
#   BEFORE_CP, AFTER_CP: classpaths holding io.isowatch.bench.load.LoadCheckTiming and the checker
#   FILE: e.g. the serial-N.plume, .awdit, .jsonl or .edn written by `LoadCheckTiming write DIR N`
set -eu
before=$1 after=$2 file=$3 format=$4 level=$5 runs=$6
shift 6
main=io.isowatch.bench.load.LoadCheckTiming
best() { sort -n | head -1; }
: > /tmp/lct.$$.before
: > /tmp/lct.$$.after
i=0
while [ "$i" -lt "$runs" ]; do
  java "$@" -cp "$before" $main run "$file" "$format" "$level" >> /tmp/lct.$$.before
  java "$@" -cp "$after" $main run "$file" "$format" "$level" >> /tmp/lct.$$.after
  i=$((i + 1))
done
for side in before after; do
  load=$(cut -d' ' -f1 /tmp/lct.$$.$side | best)
  check=$(cut -d' ' -f2 /tmp/lct.$$.$side | best)
  loadcpu=$(cut -d' ' -f5 /tmp/lct.$$.$side | best)
  checkcpu=$(cut -d' ' -f6 /tmp/lct.$$.$side | best)
  echo "$side: load ${load} ms (cpu ${loadcpu}), check ${check} ms (cpu ${checkcpu}); min of $runs; $(head -1 /tmp/lct.$$.$side | cut -d' ' -f3-4) txns ops"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f /tmp/lct.$$.before /tmp/lct.$$.after
