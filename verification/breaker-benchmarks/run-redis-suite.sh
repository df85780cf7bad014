#!/usr/bin/env bash
# Runs the Redis-backed suite once, as recorded in docs/benchmarks.md: the JMH benchmarks (a healthy
# call in memory, through a Redis-backed breaker on a private redis-server, and through resilience4j,
# on 1, 2 and 4 threads, with the gc profiler, plus the clock floor), the round-trip count, the
# retained heap per Redis-backed breaker, and the results table. The load average is sampled every 30 s.
# Build first: ./mvnw -o -q -pl verification/breaker-benchmarks -am package -DskipTests
# Usage (from the repository root): verification/breaker-benchmarks/run-redis-suite.sh [output-dir]
set -euo pipefail

jar=verification/breaker-benchmarks/target/benchmarks.jar
out=${1:-breaker-benchmarks/target/redis-results}
mkdir -p "$out"
[ -f "$jar" ] || { echo "missing $jar: build the module first" >&2; exit 1; }

{
  echo "date: $(date -u +%FT%TZ)"
  echo "redis: $(redis-server --version)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"
( while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > "$out/loadavg.txt" &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT

java -jar "$jar" -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf csv -rff "$out/jmh.csv" \
  'io.breaker.benchmarks.redis' 'io.breaker.benchmarks.engine.FloorOneThread.nanoTime$' | tee "$out/jmh.txt"
echo "load after JMH: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
java -cp "$jar" io.breaker.benchmarks.redis.RoundTrips | tee "$out/round-trips.txt"
java -cp "$jar" io.breaker.benchmarks.redis.SharedFootprint | tee "$out/footprint.txt"
java -cp "$jar" io.breaker.benchmarks.ResultsTable "$out/jmh.csv" | tee "$out/table.md"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
