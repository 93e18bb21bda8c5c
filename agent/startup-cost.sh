#!/usr/bin/env bash
# Start-up cost of the agent: wall time of a hello-world JVM without the agent, with the agent
# disabled (enabled=false: the JVM's own -javaagent machinery and opening the jar) and with the agent
# active. Runs the three interleaved, ROUNDS times each, and prints the median and the minimum.
#
#   ./mvnw -B -pl agent -am package -DskipTests
#   agent/startup-cost.sh [java] [rounds]        # default: java on the PATH, 20 rounds
#
# Uses hyperfine's measurements when it is installed (apt-get install hyperfine) for the same three
# commands (NO_HYPERFINE=1 to skip it); otherwise times each run with date +%s%N.
set -euo pipefail
cd "$(dirname "$0")"
JAVA="${1:-java}"
ROUNDS="${2:-20}"
JAR=target/timewheel-agent.jar
CP=target/test-classes
[ -f "$JAR" ] && [ -f "$CP/sampleapp/HelloApp.class" ] || { echo "build first: ./mvnw -B -pl agent -am package" >&2; exit 1; }

declare -A CMD=(
  [1_bare]="$JAVA -Xshare:auto -cp $CP sampleapp.HelloApp"
  [2_disabled]="$JAVA -Xshare:auto -javaagent:$JAR=enabled=false -cp $CP sampleapp.HelloApp"
  [3_active]="$JAVA -Xshare:auto -javaagent:$JAR -cp $CP sampleapp.HelloApp"
)
"$JAVA" -version 2>&1 | head -1

if [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine > /dev/null; then
  hyperfine -N -w 3 -r "$ROUNDS" "${CMD[1_bare]}" "${CMD[2_disabled]}" "${CMD[3_active]}" --export-json /tmp/startup-cost.json > /dev/null
  python3 - <<'PY'
import json
for r, name in zip(json.load(open('/tmp/startup-cost.json'))['results'], ['bare', 'agent disabled', 'agent active']):
    print('%-15s median %6.1f ms   min %6.1f ms' % (name, r['median'] * 1000, r['min'] * 1000))
PY
  exit 0
fi

declare -A TIMES
for key in "${!CMD[@]}"; do ${CMD[$key]} > /dev/null 2>&1; done   # warm the file cache
for ((i = 0; i < ROUNDS; i++)); do
  for key in 1_bare 2_disabled 3_active; do
    start=$(date +%s%N); ${CMD[$key]} > /dev/null 2>&1; end=$(date +%s%N)
    TIMES[$key]+="$(( (end - start) / 1000 )) "
  done
done
for key in 1_bare 2_disabled 3_active; do
  sorted=$(tr ' ' '\n' <<< "${TIMES[$key]}" | grep -v '^$' | sort -n)
  n=$(wc -l <<< "$sorted")
  median=$(sed -n "$(( (n + 1) / 2 ))p" <<< "$sorted"); min=$(head -1 <<< "$sorted")
  name=${key#*_}; [ "$name" = bare ] || name="agent $name"
  printf '%-15s median %6.1f ms   min %6.1f ms\n' "$name" "$(bc -l <<< "$median / 1000")" "$(bc -l <<< "$min / 1000")"
done
