#!/usr/bin/env bash
# Interval correctness check (issue 32): bench/intervals/check.py computes the 95% order-statistic intervals
# independently (exact binomial in integer arithmetic) and compares them with capstream's (IntervalDump.java:
# the run report's Distributions and the windows' DDSketch path), then simulates their coverage.
#   bench/intervals/run.sh [--coverage-trials N] [--skip-coverage] [--widths]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
# reactor build (never install): the schemas' and aggregator's own classes first on the class path
mvn -o -q -B compile -pl aggregator -am
cpf=$(mktemp)
mvn -o -q -B dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl aggregator -Dmdep.outputFile="$cpf" >/dev/null
export CAPSTREAM_INTERVALS_CP="schemas/target/classes:aggregator/target/classes:$(cat "$cpf")"
rm -f "$cpf"
python3 bench/intervals/check.py "$@"
