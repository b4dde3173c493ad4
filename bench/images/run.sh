#!/usr/bin/env bash
# The generator's own cost of images (issue 30), by hand: client-added TTFT on the oracle target
# (/work/shared/peers/oracle/Oracle.java) side by side without and with --images 4 --image-size 1024x1024, the
# encode time per image, and the client's heap.
#
#   bench/images/run.sh                      # scenarios c1x20 and c16 (64 requests at concurrency 16), 2 rounds
#   SCENARIOS="c16" ROUNDS=3 bench/images/run.sh
#
# Each round runs bench/fidelity/oracle.sh (fresh oracle per scenario, pinned cores, client_added.py joins the client's
# TTFT with the oracle's own body-read-to-first-chunk time) once without images and once with them, alternating, so a
# busy machine hits both alike. The client runs with HEAP (default -Xmx1g) and a GC log; the script prints the most
# heap the client used (ZGC's "before" sizes), and the client's own line on how long the pictures took before T0.
# Env: SCENARIOS, ROUNDS, IMAGES (default "--images 4 --image-size 1024x1024"), HEAP, JAR, OUT (default a new
# /tmp/capstream-images.* directory); the rest as bench/fidelity/oracle.sh (PORT, CLIENT_CPU, ORACLE_CPU, WARMUP).
# Every process is started by the scripts and stopped by PID; everything listens on 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
JAR=${JAR:-$repo/cli/target/capstream.jar}
SCENARIOS=${SCENARIOS:-"c1x20 c16"}
ROUNDS=${ROUNDS:-2}
IMAGES=${IMAGES:-"--images 4 --image-size 1024x1024"}
HEAP=${HEAP:--Xmx1g}
OUT=${OUT:-$(mktemp -d /tmp/capstream-images.XXXXXX)}
[[ -f $JAR ]] || { echo "no jar at $JAR (build it: mvn -B -q -DskipTests package -pl cli -am)" >&2; exit 2; }
mkdir -p "$OUT"

echo "== encode time per image (this JVM, C1 only as ./capstream run)"
java -XX:TieredStopAtLevel=1 -cp "$JAR" "$here/EncodeBench.java" 1024x1024 8

max_heap() {  # the most heap any GC log line of the directory saw before a collection, MB
  cat "$1"/gc-*.log 2>/dev/null | grep -o '[0-9]*M([0-9]*%)->' | sed 's/M.*//' | sort -n | tail -1
}
for round in $(seq 1 "$ROUNDS"); do
  for variant in plain images; do
    dir=$OUT/round$round-$variant
    mkdir -p "$dir"
    extra=""
    [[ $variant == images ]] && extra=$IMAGES
    echo
    echo "######## round $round: $variant ${extra:+($extra)}"
    OUT=$dir JAR=$JAR SCENARIOS=$SCENARIOS EXTRA_ARGS="$extra" \
      CAPSTREAM_JAVA_OPTS="-XX:+UseZGC -XX:TieredStopAtLevel=1 $HEAP -Xlog:gc:file=$dir/gc-%p.log" \
      "$repo/bench/fidelity/oracle.sh" | grep -E '^==|client-added|^  [a-z0-9]+ +[0-9]' || true
    grep -h 'images:' "$dir"/*.out 2>/dev/null | sed 's/^/  client: /' || true
    echo "  most heap used before a GC (MB): $(max_heap "$dir")"
  done
done
echo "files: $OUT"
