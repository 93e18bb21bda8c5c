#!/usr/bin/env bash
# Runs one probe of bench/probes/ in a fresh JVM, against the executor's classes as built in this tree.
#
#   bench/probe.sh NAME [ARGS...]                  e.g. bench/probe.sh TickWakeups 1000 1000 8
#
# A probe is one Java file that answers one question about the executor or the wheel; its header says which,
# what it prints and how to run it, and bench/README.md lists them. It is compiled with javac into
# bench/target/probes/NAME and run with java, not with the source launcher: that one compiles inside the JVM it
# runs in, which warms up the JVM a cold-path probe measures cold, and loads the probe apart from the
# executor's classes, which keeps a probe in io.timewheel.wheel from the wheel's package-private ones.
#
# Build the executor first: ./mvnw -B -q -pl executor -am package -DskipTests
# JAVA picks the JVM (default: java; the javac beside it compiles); JAVA_OPTS adds JVM options, e.g.
# JAVA_OPTS="-Xms1g -Xmx4g" or JAVA_OPTS=-XX:+UseParallelGC.
set -euo pipefail
name=${1:?usage: probe.sh NAME [ARGS...]  (NAME: a file of bench/probes/ without .java)}
shift
here=$(cd "$(dirname "$0")" && pwd)
src="$here/probes/$name.java"
if [ ! -f "$src" ]; then
  echo "no probe $name; the probes: $(cd "$here/probes" && ls -- *.java | sed 's/\.java$//' | tr '\n' ' ')" >&2
  exit 2
fi
classes="$(cd "$here/.." && pwd)/executor/target/classes"
if [ ! -d "$classes/io" ]; then
  echo "the executor is not built: ./mvnw -B -q -pl executor -am package -DskipTests" >&2
  exit 2
fi
java=${JAVA:-java}
javac="$(dirname "$(readlink -f "$(command -v "$java")")")/javac"
out="$here/target/probes/$name"
rm -rf "$out"
mkdir -p "$out"
"$javac" -nowarn -d "$out" -cp "$classes" "$src"
package=$(sed -n 's/^package \([A-Za-z0-9_.]*\);.*/\1./p' "$src" | head -1)
# shellcheck disable=SC2086
exec "$java" ${JAVA_OPTS:-} -cp "$classes:$out" "$package$name" "$@"
