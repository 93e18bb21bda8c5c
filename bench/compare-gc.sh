#!/usr/bin/env bash
# One benchmark under G1 (the default) and under ParallelGC, side by side in one run: interleaved rounds,
# each peer and collector in its own JMH fork, then the median per (peer, collector) and Parallel/G1. It
# answers whether G1's post-write barrier costs the producer path a fence (a young task stored into the
# inbox's old stripe array); a peer that stores no young object into an old one should not move. Parallel
# runs with -XX:+UseCondCardMark: without it every reference store into an old object writes its card byte,
# and two producers whose inbox stripes share a 512-byte card contend for that line (a cost G1's filtered
# barrier does not have, which would hide the one asked about).
#
#   bench/compare-gc.sh [ROUNDS]                 (default 3 rounds; ~15 s per run)
#
# PEERS (default: timewheel netty-1ms), THREADS (default: 1 2), JAR, JAVA as in compare-peers.sh.
set -euo pipefail
# shellcheck source=jmh-lib.sh
. "$(dirname "$0")/jmh-lib.sh"
rounds=${1:-3}
java=${JAVA:-java}
jar=${JAR:-bench/target/timewheel-bench.jar}
peers=${PEERS:-timewheel netty-1ms}
threads=${THREADS:-1 2}
gc_args() { if [ "$1" = Parallel ]; then echo "-XX:+UseParallelGC -XX:+UseCondCardMark"; else echo "-XX:+UseG1GC"; fi; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java" -version 2>&1 | head -1
echo "ScheduleCancelBenchmark, 1M pending, Mops/s; rounds: $rounds (collectors alternate first)"
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then gcs="G1 Parallel"; else gcs="Parallel G1"; fi
  for p in $peers; do
    for t in $threads; do
      for gc in $gcs; do
        out="$work/$p.$t.$gc.$r.txt"
        "$java" -jar "$jar" jmh ScheduleCancelBenchmark -p peer="$p" -p pending=1000000 -t "$t" -f 1 -wi 2 -w 1s -i 3 -r 1s \
          -jvmArgsAppend "$(gc_args "$gc")" > "$out" 2>&1 || { echo "failed: $p $t $gc"; tail -20 "$out"; exit 1; }
        printf 'round %d  %-10s %d thread(s) %-9s %s\n' "$r" "$p" "$t" "$gc" "$(score "$out")"
      done
    done
  done
done
echo
printf '| %-10s | %7s | %10s | %10s | %11s |\n' peer threads G1 Parallel "Parallel/G1"
printf '|%s|%s|%s|%s|%s|\n' "------------" "--------:" "-----------:" "-----------:" "------------:"
for p in $peers; do
  for t in $threads; do
    g=$(for r in $(seq 1 "$rounds"); do score "$work/$p.$t.G1.$r.txt"; done | median)
    q=$(for r in $(seq 1 "$rounds"); do score "$work/$p.$t.Parallel.$r.txt"; done | median)
    printf '| %-10s | %7s | %10s | %10s | %11s |\n' "$p" "$t" "$g" "$q" "$(awk -v a="$q" -v b="$g" 'BEGIN {printf "%.2f", a / b}')"
  done
done
