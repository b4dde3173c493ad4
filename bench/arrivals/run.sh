#!/usr/bin/env bash
# bench/arrivals: the arrival shapes of issue 30 on the built-in sim, run by hand (a few minutes).
#  1. gamma arrivals (--arrival gamma --burstiness B) for B = 0.25, 0.5, 1, 4: the achieved inter-arrival coefficient
#     of variation (actual request starts, from --csv) against the configured 1/sqrt(B), and the scheduled one
#     (the seeded draw itself, start - client queue);
#  2. a --rate-schedule run: offered against achieved rate per 5 s bucket.
# The report's capstream.load.interarrival_cv is printed too when the aggregator computes it.
# Knobs: RATE (40), REQUESTS (400), BS ("0.25 0.5 1 4"), SCHEDULE, DURATION, OUT (/tmp/capstream-bench-arrivals).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
RATE=${RATE:-40}
REQUESTS=${REQUESTS:-400}
BS=${BS:-"0.25 0.5 1 4"}
SCHEDULE=${SCHEDULE:-"0s:2,10s:20,20s:20,30s:2"}
DURATION=${DURATION:-30s}
OUT=${OUT:-/tmp/capstream-bench-arrivals}
mkdir -p "$OUT"
# a light request (short prompt, 16 tokens out) so that the sim and the client keep up with the bursts
light=(--ctx-tokens 256 --max-tokens 16 --client-warmup 2s)
report_cv() {
  python3 -c 'import json,sys; l=json.load(open(sys.argv[1])).get("capstream",{}).get("load",{}); print("report: interarrival_cv", l.get("interarrival_cv"), "configured", l.get("configured_interarrival_cv"))' "$1" || true
}
for b in $BS; do
  echo "== gamma B=$b: configured CV $(python3 -c "print(round(1/$b**0.5, 3))") at $RATE req/s, $REQUESTS requests"
  "$root/capstream" run --arrival gamma --burstiness "$b" --rate "$RATE" --requests "$REQUESTS" \
    --max-in-flight "$REQUESTS" "${light[@]}" --csv "$OUT/gamma-$b.csv" --output "$OUT/gamma-$b.json" \
    > "$OUT/gamma-$b.log" 2>&1 || { echo "run failed: $OUT/gamma-$b.log"; continue; }
  python3 "$here/interarrival_cv.py" "$OUT/gamma-$b.csv"
  grep '^load ' "$OUT/gamma-$b.log" || true
  report_cv "$OUT/gamma-$b.json"
done
echo "== poisson on --rate-schedule $SCHEDULE for $DURATION"
"$root/capstream" run --arrival poisson --rate-schedule "$SCHEDULE" --duration "$DURATION" --max-in-flight 1000 \
  "${light[@]}" --csv "$OUT/schedule.csv" --output "$OUT/schedule.json" > "$OUT/schedule.log" 2>&1 \
  || echo "run failed: $OUT/schedule.log"
python3 "$here/interarrival_cv.py" "$OUT/schedule.csv" 5 "$SCHEDULE"
grep '^load \|^requests ' "$OUT/schedule.log" || true
