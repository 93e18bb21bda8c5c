#!/usr/bin/env bash
# timewheel against its scaling peers, side by side in one run: interleaved rounds of ScheduleCancelBenchmark
# (a 30 s timer scheduled and cancelled, 1M far timers pending) for each producer-thread count, each peer in
# its own JMH fork, the peers' order reversed every other round; then the median of the rounds per (peer,
# threads) and timewheel's ratio to the best other peer. Steadier than one JMH run per peer on a shared
# machine, where one disturbed iteration moves a figure by half: every round falls on every peer alike.
#
#   bench/compare-peers.sh [ROUNDS]            (default 5 rounds; ~25 s per peer and thread count per round)
#
# PEERS (default: timewheel netty-1ms fjp; fjp only on Java 25+), THREADS (default: 1 2 4), JAR (default:
# bench/target/timewheel-bench.jar) and JAVA (default: java) change what runs. Build the jar first:
#   ./mvnw -B -q -pl bench -am package -DskipTests
set -euo pipefail
# shellcheck source=jmh-lib.sh
. "$(dirname "$0")/jmh-lib.sh"
rounds=${1:-5}
java=${JAVA:-java}
jar=${JAR:-bench/target/timewheel-bench.jar}
threads=${THREADS:-1 2 4}
feature=$("$java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
if [ -z "${PEERS:-}" ]; then
  peers="timewheel netty-1ms"
  [ "${feature%%.*}" -ge 25 ] 2>/dev/null && peers="$peers fjp"
else
  peers=$PEERS
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$java" -version 2>&1 | head -1
echo "jar: $jar"
echo "peers: $peers; producer threads: $threads; rounds: $rounds (peer order reversed every other round)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"


for r in $(seq 1 "$rounds"); do
  order=$peers
  if [ $((r % 2)) -eq 0 ]; then order=$(echo "$peers" | tr ' ' '\n' | tac | tr '\n' ' '); fi
  for t in $threads; do
    for p in $order; do
      out="$work/$p.$t.$r.txt"
      "$java" -jar "$jar" jmh ScheduleCancelBenchmark -p peer="$p" -p pending=1000000 -t "$t" -f 1 -wi 2 -w 1s -i 3 -r 1s \
        > "$out" 2>&1 || { echo "failed: $p, $t threads (see below)"; tail -20 "$out"; exit 1; }
      printf 'round %d  %-10s %d thread(s)  %s Mops/s\n' "$r" "$p" "$t" "$(score "$out")"
    done
  done
done


echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '| %-10s |' "threads"
for p in $peers; do printf ' %12s |' "$p"; done
printf ' %22s |\n' "timewheel / best other"
printf '|%s|' "------------"
for p in $peers; do printf '%s|' "--------------:"; done
printf '%s|\n' "------------------------:"
for t in $threads; do
  printf '| %-10s |' "$t"
  ours=""; best=""; bestp=""
  for p in $peers; do
    m=$(for r in $(seq 1 "$rounds"); do score "$work/$p.$t.$r.txt"; done | median)
    printf ' %12s |' "$m"
    if [ "$p" = timewheel ]; then ours=$m
    elif [ -z "$best" ] || awk -v a="$m" -v b="$best" 'BEGIN { exit !(a > b) }'; then best=$m; bestp=$p; fi
  done
  ratio=$(awk -v a="$ours" -v b="$best" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2fx (%s)", a / b, "'"$bestp"'" }')
  printf ' %22s |\n' "$ratio"
done
echo "Mops/s (one schedule plus one cancel), median of $rounds rounds; each round's figure is JMH's mean of 3 x 1 s."
