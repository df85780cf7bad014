#!/usr/bin/env bash
# Runs the annotation benchmarks once, as recorded in docs/benchmarks.md ("The annotation"):
# @CircuitProtected against resilience4j-spring-boot3's @CircuitBreaker, CLOSED and OPEN, and the floors,
# with the gc profiler. About 3 minutes. Warm-up is long (15 x 1 s) because resilience4j's path takes
# 6-10 s to reach compiled code on a loaded 2-core machine; with 5 warm-up seconds it was still falling.
# Build first: ./mvnw -o -q -pl breaker-benchmarks package -DskipTests
# Usage (from the repository root): breaker-benchmarks/run-annotation-suite.sh [output-dir]
set -euo pipefail

jar=breaker-benchmarks/target/benchmarks.jar
out=${1:-breaker-benchmarks/target/annotation-results}
mkdir -p "$out"
[ -f "$jar" ] || { echo "missing $jar: build the module first" >&2; exit 1; }

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs available"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

java -jar "$jar" -f 1 -wi 15 -w 1s -i 5 -r 1s -prof gc -rf csv -rff "$out/jmh.csv" \
  'io.breaker.benchmarks.spring.AnnotatedCall' | tee "$out/jmh.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
