#!/usr/bin/env bash
# The fleet at scale, as recorded in docs/benchmarks.md: N separate instance JVMs (40 by default) call
# one dependency through one breaker each, first in memory (each instance alone), then sharing it
# through the test's own redis-server. Each run starts the fleet, sends it healthy warm-up traffic,
# then makes R rounds (5 by default) in which the dependency fails, holds open and recovers
# (FleetOfProcessesTest, no Redis faults). The script then prints one table for both stores: per
# round, the calls that reached the failing dependency and the most probes in one wait window; per
# instance, the Redis commands per second (INFO commandstats before and after each period) and the
# memory (VmRSS of each process, heap in use from its actuator).
# Not part of any build or CI run: 40 instances take several minutes and every core of a small machine.
#
# Usage (from the repository root): verification/breaker-fleet/run-scale.sh [instances] [rounds] [output-dir]
# Environment:
#   FLEET_INSTANCES, FLEET_ROUNDS  the same as the arguments
#   FLEET_JVM_ARGS   each instance's JVM options (default: a small heap, the serial GC, C1 only)
#   FLEET_WARM_UP    healthy traffic before the first round (default 15s)
#   FLEET_STORES     the runs to make, in order (default "memory redis")
#   FLEET_LOCK       a file to hold a lock on (flock) during each fleet run, so that fleets started from
#                    other checkouts on the same machine never run at the same time as this one
#   MAVEN_ARGS       more Maven options, such as -o
set -euo pipefail

instances=${1:-${FLEET_INSTANCES:-40}}
rounds=${2:-${FLEET_ROUNDS:-5}}
out=${3:-verification/breaker-fleet/target/scale}
jvm_args=${FLEET_JVM_ARGS:--Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}
warm_up=${FLEET_WARM_UP:-15s}
stores=${FLEET_STORES:-memory redis}
read -r -a maven_args <<< "${MAVEN_ARGS:-}"
target=verification/breaker-fleet/target
mkdir -p "$out"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cores: $(nproc), memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis: $(redis-server --version)"
  echo "fleet: $instances instances, $rounds rounds, warm-up $warm_up, instance JVM options: $jvm_args"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

# Compiled once, before any fleet runs (and before the lock, which only fleets need).
./mvnw -B -q "${maven_args[@]}" -pl verification/breaker-fleet -am test-compile

for store in $stores; do
  run=(./mvnw -B "${maven_args[@]}" -pl verification/breaker-fleet -am test-compile surefire:test
    -Dtest=FleetOfProcessesTest -Dsurefire.failIfNoSpecifiedTests=false
    -Dfleet.instances="$instances" -Dfleet.rounds="$rounds" -Dfleet.store="$store" -Dfleet.faults=none
    -Dfleet.assert=false -Dfleet.warm-up="$warm_up" "-Dfleet.jvm-args=$jvm_args")
  if [ -n "${FLEET_LOCK:-}" ]; then
    run=(flock "$FLEET_LOCK" "${run[@]}")
  fi
  rm -f "$target/fleet-costs-$store.md"
  echo "$(date -u +%T) fleet of $instances, store=$store: ${run[*]}" | tee -a "$out/machine.txt"
  ( while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 10; done ) > "$out/loadavg-$store.txt" &
  sampler=$!
  status=0
  "${run[@]}" > "$out/$store.log" 2>&1 || status=$?
  kill "$sampler" 2>/dev/null || true
  echo "$(date -u +%T) store=$store exited with $status; load after: $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$out/machine.txt"
  if [ -f "$target/fleet-costs-$store.md" ]; then
    cp "$target/fleet-report.md" "$out/report-$store.md"
    cp "$target/fleet-costs-$store.md" "$out/"
  else
    echo "store=$store made no table: see $out/$store.log" >&2
  fi
done

# One table: the first file's header, then every file's rows.
first=1
for store in $stores; do
  file="$out/fleet-costs-$store.md"
  [ -f "$file" ] || continue
  if [ "$first" = 1 ]; then cat "$file"; first=0; else tail -n +3 "$file"; fi
done | tee "$out/table.md"
