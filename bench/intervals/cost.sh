#!/usr/bin/env bash
# Per-close cost of the windows' intervals (issue 32): bench/intervals/IntervalCostBench.java.
#   bench/intervals/cost.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
mvn -o -q -B compile -pl aggregator -am
cpf=$(mktemp)
mvn -o -q -B dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl aggregator -Dmdep.outputFile="$cpf" >/dev/null
cp="schemas/target/classes:aggregator/target/classes:$(cat "$cpf")"
rm -f "$cpf"
java -cp "$cp" bench/intervals/IntervalCostBench.java
