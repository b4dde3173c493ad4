#!/usr/bin/env bash
# Every window summary the window topology emits for one fixed set of events, in order (bench/windows/SummariesDump.java,
# TopologyTestDriver, fixed wall clock), to compare two versions' summaries field by field:
#   bench/windows/summaries-dump.sh OUT [runs=12] [requests=3000] [targets=4]
# CLASSES_ROOT=<other checkout> takes that checkout's compiled schemas and aggregator classes (build it first), e.g.
#   bench/windows/summaries-dump.sh /tmp/new.txt && CLASSES_ROOT=../old bench/windows/summaries-dump.sh /tmp/old.txt
#   && cmp /tmp/old.txt /tmp/new.txt
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
root=${CLASSES_ROOT:-$here}
[[ -f aggregator/target/classes/io/capstream/aggregator/window/WindowTopology.class ]] || mvn -o -q -B compile -pl aggregator -am
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.includeScope=test -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
out=$(realpath -m "$1"); shift
java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream \
  -cp "$root/schemas/target/classes:$root/aggregator/target/classes:$cp" bench/windows/SummariesDump.java "$out" "$@"
