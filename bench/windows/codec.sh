#!/usr/bin/env bash
# Encode/decode cost of one window aggregate (bench/windows/AggregateCodecBench.java), this checkout against another,
# alternating JVMs, each pinned to one CPU:
#   bench/windows/codec.sh OTHER_CHECKOUT [alternations=3] [rounds=5] [cpu=1]
# Both checkouts compiled first (mvn -o -q compile -pl schemas,aggregator in each). JAVA_OPTS: extra JVM options, e.g.
# -XX:TieredStopAtLevel=1 as ./capstream aggregate runs (C1 only).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
other=$(realpath "$1"); alternations=${2:-3}; rounds=${3:-5}; cpu=${4:-1}
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.includeScope=test -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
for ((k = 1; k <= alternations; k++)); do
  for root in "$other" "$here"; do
    echo "== $root (alternation $k)"
    taskset -c "$cpu" java -Xmx512m -XX:+UseSerialGC ${JAVA_OPTS:-} -cp "$root/schemas/target/classes:$root/aggregator/target/classes:$cp" \
      bench/windows/AggregateCodecBench.java "$rounds"
  done
done
