#!/usr/bin/env bash
# Old build vs new build of timewheel, side by side in one run: interleaved rounds of the same JMH
# benchmarks on two bench jars, then the median of the rounds per benchmark and the ratio new/old.
# The machine is shared and noisy: only ratios from one interleaved run mean anything.
#
#   bench/compare-jars.sh OLD.jar NEW.jar [ROUNDS]          (default 3 rounds, ~2.5 min per round)
#
# Build the old jar from a worktree of the old commit:
#   git worktree add /tmp/old <commit> && (cd /tmp/old && ./mvnw -B -q -pl bench -am package -DskipTests)
#   bench/compare-jars.sh /tmp/old/bench/target/timewheel-bench.jar bench/target/timewheel-bench.jar
#
# Benchmarks: ScheduleCancelBenchmark (timewheel, 1M pending) with 1 and 2 producer threads, in Mops/s
# (higher is better), and ExpiryBenchmark (1M timers due within 1 s) in ms per shot (lower is better).
# JAVA (default: java) picks the JVM. CASES overrides the list (one "name|jmh args" per line).
set -euo pipefail
# shellcheck source=jmh-lib.sh
. "$(dirname "$0")/jmh-lib.sh"
old=${1:?usage: compare-jars.sh OLD.jar NEW.jar [ROUNDS]}
new=${2:?usage: compare-jars.sh OLD.jar NEW.jar [ROUNDS]}
rounds=${3:-3}
java=${JAVA:-java}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

default_cases='schedule+cancel 1M pending, 1 thread|ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -t 1 -f 1 -wi 2 -w 1s -i 3 -r 1s
schedule+cancel 1M pending, 2 threads|ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -t 2 -f 1 -wi 2 -w 1s -i 3 -r 1s
expiry of 1M timers|ExpiryBenchmark -p peer=timewheel -f 1 -wi 1 -i 3'
cases=${CASES:-$default_cases}

"$java" -version 2>&1 | head -1
echo "old: $old"
echo "new: $new"
echo "rounds: $rounds (interleaved: old, new, new, old, ...)"

n=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  n=$((n + 1))
  name[$n]=${line%%|*}
  args[$n]=${line#*|}
done <<< "$cases"


for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
  for i in $(seq 1 $n); do
    for which in $order; do
      jar=$old; [ "$which" = new ] && jar=$new
      out="$work/$which.$i.$r.txt"
      # shellcheck disable=SC2086
      "$java" -jar "$jar" jmh ${args[$i]} > "$out" 2>&1 || { echo "failed: $which ${name[$i]} (see below)"; tail -20 "$out"; exit 1; }
      printf 'round %d  %-4s %-40s %s\n' "$r" "$which" "${name[$i]}" "$(score "$out")"
    done
  done
done


echo
printf '| %-40s | %12s | %12s | %9s |\n' "benchmark (median of $rounds rounds)" old new "new/old"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' $(seq 1 42))" "--------------:" "--------------:" "----------:"
for i in $(seq 1 $n); do
  o=$(for r in $(seq 1 "$rounds"); do score "$work/old.$i.$r.txt"; done | median)
  w=$(for r in $(seq 1 "$rounds"); do score "$work/new.$i.$r.txt"; done | median)
  ratio=$(awk -v a="$w" -v b="$o" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }')
  printf '| %-40s | %12s | %12s | %9s |\n' "${name[$i]}" "$o" "$w" "$ratio"
done
