#!/usr/bin/env bash
# Checks that can fail: applies a mutant patch (a deliberately broken build: tck/mutants/*.patch, each says what
# it breaks and which check must catch it) to a worktree of HEAD and runs the named tests there, expecting them to
# FAIL. Exit 0 if they failed (the check caught the mutant), 1 if they passed (a hole in the safety net).
# Never shipped: a mutant is a defect on purpose.
#
#   tck/mutants/run.sh tck/mutants/tick-throws-after-filing.patch [MODULES] [TESTS]
#
# MODULES and TESTS default to the patch's own "modules:" and "tests:" header lines.
set -euo pipefail
patch=$(realpath "${1:?usage: run.sh PATCH [MODULES] [TESTS]}")
modules=${2:-$(sed -n 's/^# modules: //p' "$patch" | head -1)}
tests=${3:-$(sed -n 's/^# tests: //p' "$patch" | head -1)}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
cleanup() {
  git -C "$repo" worktree remove --force "$work/mutant" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$repo" worktree add --detach -q "$work/mutant" HEAD
git -C "$work/mutant" apply "$patch"
echo "mutant: $(basename "$patch") on $(git -C "$repo" rev-parse --short HEAD); modules $modules; tests $tests"
if (cd "$work/mutant" && ./mvnw -B -pl "$modules" -am verify -DskipITs -Dtest="$tests" \
      -Dsurefire.failIfNoSpecifiedTests=false -Djacoco.skip=true) >"$work/log" 2>&1; then
  echo "NOT CAUGHT: the tests passed on the mutant"
  grep -E "Tests run: [0-9]+, F" "$work/log" | grep -v " -- in" || true
  exit 1
fi
echo "caught: the tests failed on the mutant"
grep -E "Tests run:.*(Failures|Errors): [1-9]|unexpected report|FORBIDDEN|AssertionError" "$work/log" | head -8 || true
