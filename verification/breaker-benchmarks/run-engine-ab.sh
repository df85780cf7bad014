#!/usr/bin/env bash
# An A/B of two builds of the engine benchmarks, as recorded in docs/benchmarks.md: the base jar and
# the experiment's jar run alternately on the same machine, round after round (the first jar of a round
# alternates too), so that the machine's drift falls on both. Build each jar with
# ./mvnw -q -pl verification/breaker-benchmarks -am package -DskipTests and copy
# verification/breaker-benchmarks/target/benchmarks.jar aside before changing the code.
# Each run is: java -jar <jar> -f 1 -wi 3 -i 5 -rf csv -rff <file> '<pattern>'
# Printed per round and jar: every result, then, in each benchmark class whose results hold exactly one
# Failsafe benchmark, each of ours divided by it (the same JVM and run).
# Usage (from the repository root):
#   verification/breaker-benchmarks/run-engine-ab.sh BASE_JAR EXP_JAR 'PATTERN' [rounds] [output-dir]
# for example 'Open(One|Two|Four)Threads?\.(breakerTryAcquirePermission|failsafeTryAcquirePermit)$'.
set -euo pipefail

base=$1
exp=$2
pattern=$3
rounds=${4:-3}
out=${5:-breaker-benchmarks/target/engine-ab}
mkdir -p "$out"
for jar in "$base" "$exp"; do
  [ -f "$jar" ] || { echo "missing $jar" >&2; exit 1; }
done

for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order="base exp"; else order="exp base"; fi
  for which in $order; do
    jar=$base
    [ "$which" = exp ] && jar=$exp
    csv="$out/round-$round-$which.csv"
    echo "== round $round, $which ($jar), $(date -u +%T) UTC, load $(cut -d' ' -f1 /proc/loadavg)"
    java -jar "$jar" -f 1 -wi 3 -i 5 -rf csv -rff "$csv" "$pattern" > "$out/round-$round-$which.txt" 2>&1
    # CSV columns: "Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit"
    awk -F, 'NR > 1 {
        gsub(/"/, "", $1); n = split($1, part, "."); class = part[n - 1]; name = part[n];
        printf "  %-50s %10.1f ± %.1f ns/op\n", class "." name, $5, $6;
        score[class "." name] = $5;
        if (name ~ /^failsafe/) { failsafe[class] = name; count[class]++ }
      }
      END {
        for (key in score) {
          split(key, kn, "."); class = kn[1]; name = kn[2];
          if (name ~ /^breaker/ && count[class] == 1) {
            printf "  %-50s %.2fx of Failsafe (%s)\n", key, score[key] / score[class "." failsafe[class]], failsafe[class];
          }
        }
      }' "$csv"
  done
done
