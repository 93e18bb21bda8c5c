#!/usr/bin/env bash
# What one piece of the executor costs, or what a change would gain, before committing to it: applies a patch
# to a temporary worktree of HEAD, builds that tree's bench jar and HEAD's, and runs bench/compare-jars.sh on
# the two (old = HEAD, new = HEAD + the patch). A patch that takes a guarantee out (an ordering, a fence) makes
# a build that is not correct: it prices the guarantee, it is never committed.
#
#   bench/compare-patch.sh my-change.patch [ROUNDS]      (default 4 rounds, ~1.5 min per round)
#
# Benchmarks: ScheduleCancelBenchmark (timewheel, 1M pending) with 1, 2 and 4 producer threads, in Mops/s.
# JAVA picks the JVM that runs the benchmarks; CASES overrides the list, as for compare-jars.sh.
set -euo pipefail
patch=$(realpath "${1:?usage: compare-patch.sh PATCH [ROUNDS]}")
rounds=${2:-4}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
cleanup() {
  git -C "$repo" worktree remove --force "$work/base" 2>/dev/null || true
  git -C "$repo" worktree remove --force "$work/patched" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for which in base patched; do
  git -C "$repo" worktree add --detach -q "$work/$which" HEAD
  if [ "$which" = patched ]; then git -C "$work/patched" apply "$patch"; fi
  (cd "$work/$which" && ./mvnw -B -q -pl bench -am package -DskipTests) >"$work/$which.build.log" 2>&1 \
    || { echo "build of $which failed:"; tail -30 "$work/$which.build.log"; exit 1; }
done

echo "patch: $(basename "$patch") on $(git -C "$repo" rev-parse --short HEAD)"
default_cases='schedule+cancel 1M pending, 1 thread|ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -t 1 -f 1 -wi 2 -w 1s -i 3 -r 1s
schedule+cancel 1M pending, 2 threads|ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -t 2 -f 1 -wi 2 -w 1s -i 3 -r 1s
schedule+cancel 1M pending, 4 threads|ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -t 4 -f 1 -wi 2 -w 1s -i 3 -r 1s'
CASES=${CASES:-$default_cases} "$here/compare-jars.sh" \
  "$work/base/bench/target/timewheel-bench.jar" "$work/patched/bench/target/timewheel-bench.jar" "$rounds"
