#!/usr/bin/env bash
# Punctuality of two builds of timewheel next to STPE, runs alternating (old, new, new, old, ...) so that the
# machine's drift falls on both: bursts under load (lateness-burst's default row, --bursts per run, with the
# per-burst figures kept as CSV), warm rounds and cold launches (punctuality). Per build, over all its runs:
# bursts whose own p99 exceeded 1 ms and 2 ms, and the p95 over bursts of the per-burst p99, for STPE and
# timewheel (each build's STPE is its own control: same JVM, same slots); the warm and cold tables as printed.
#
#   bench/compare-punctuality.sh OLD.jar NEW.jar [RUNS] [BURSTS]      (defaults: 2 runs of each, 150 bursts)
#
# JAVA picks the JVM; BURST_ARGS adds lateness-burst options (e.g. "--load 2" or "--executors 3"); MODES
# picks what runs (default "burst warm cold"; e.g. MODES=burst for a burst variant alone).
set -euo pipefail
old=${1:?usage: compare-punctuality.sh OLD.jar NEW.jar [RUNS] [BURSTS]}
new=${2:?usage: compare-punctuality.sh OLD.jar NEW.jar [RUNS] [BURSTS]}
runs=${3:-2}
bursts=${4:-150}
java=${JAVA:-java}
modes=" ${MODES:-burst warm cold} "
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "compare-punctuality: old=$old new=$new, $runs run(s) each, $bursts bursts per run; $("$java" -version 2>&1 | head -1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
  if ((i % 2 == 0)); then order="old new"; else order="new old"; fi
  for which in $order; do
    jar=$old; [ "$which" = new ] && jar=$new
    case $modes in *" burst "*)
      "$java" -jar "$jar" lateness-burst --bursts "$bursts" ${BURST_ARGS:-} --csv "$work/$which-burst-$i.csv" >"$work/$which-burst-$i.txt" ;;
    esac
    case $modes in *" warm "*) "$java" -jar "$jar" punctuality warm --rounds 12 >"$work/$which-warm-$i.txt" ;; esac
    case $modes in *" cold "*) "$java" -jar "$jar" punctuality cold --launches 3 >"$work/$which-cold-$i.txt" ;; esac
  done
done
for which in old new; do
  echo
  if [[ $modes == *" burst "* ]]; then
  echo "== $which: bursts (${BURST_ARGS:-default row}), all runs"
  cat "$work"/$which-burst-*.csv | awk -F, '$1 != "variant" {
      k = $2; n[k]++; p99 = $7 / 1e6; v[k, n[k]] = p99
      if (p99 > 1) over1[k]++
      if (p99 > 2) over2[k]++
      if ($6 / 1e6 > 1) p50over1[k]++
      early[k] += $9; missing[k] += $10
    }
    END {
      printf "  %-10s %7s %14s %14s %14s %18s %6s %8s\n", "kind", "bursts", "p99 > 1 ms", "p99 > 2 ms", "p50 > 1 ms", "p95 of p99s (ms)", "early", "missing"
      for (k in n) {
        m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
        for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
        r = int(0.95 * m + 0.999999); if (r < 1) r = 1
        printf "  %-10s %7d %8d %4.1f%% %8d %4.1f%% %8d %4.1f%% %18.3f %6d %8d\n", k, m, over1[k], 100 * over1[k] / m, over2[k], 100 * over2[k] / m, p50over1[k], 100 * p50over1[k] / m, a[r], early[k], missing[k]
      }
    }'
  fi
  case $modes in *" warm "*)
    echo "== $which: warm (punctuality warm --rounds 12), per run: peer, rounds counted, median p50, median p99, worst max, early, missing, median construction ms"
    for f in "$work"/$which-warm-*.txt; do awk '/median p50/ {s = 1; next} s && NF >= 7 && $1 != "new" {print "  " $0}' "$f"; done ;;
  esac
  case $modes in *" cold "*)
    echo "== $which: cold (punctuality cold --launches 3), per run: peer, launches, median p50, median p99, worst max, early, missing, median construction ms"
    for f in "$work"/$which-cold-*.txt; do awk '/median p50/ {s = 1; next} s && NF >= 7 && $1 != "new" {print "  " $0}' "$f"; done ;;
  esac
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
