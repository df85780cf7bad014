#!/usr/bin/env bash
# What one redis-server on this machine holds, for the load model in docs/benchmarks.md: simple
# commands (SET, GET), then the two commands of a shared breaker's refresh as an instance sends them,
# each alone: report.lua as BreakerScripts composes it (the outcome bits, common.lua, the script), here
# with nothing to report, and the HGETALL of the breaker's settings hash. redis-benchmark sends each
# from 50 connections without pipelining to a private redis-server on a free loopback port (persistence
# off); then INFO commandstats gives Redis's own time per command (without reading the request and
# writing the answer). Needs redis-server, redis-cli, redis-benchmark and python3 (for a free port).
# Usage (from the repository root): verification/breaker-fleet/redis-capacity.sh [requests]
set -euo pipefail

requests=${1:-200000}
lua=breaker-redis/src/main/resources/io/breaker/redis/lua
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" > "$dir/redis.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done

echo "date: $(date -u +%FT%TZ), cores: $(nproc), $(redis-server --version | cut -d' ' -f1-3)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
script="$(printf 'local CALL, FAILED, SLOW = 1, 2, 4\n'; cat "$lua/common.lua"; printf '\n'; cat "$lua/report.lua")"
sha=$(redis-cli -p "$port" script load "$script")
tag='{breaker:capacity}'
# KEYS: state, window, ring, this instance's ack; ARGV: instance, count window of 10, minimum 5 calls,
# 50% failures, 100% slow calls, 3 s wait, 60 s probe lease, 7 days key expiry, then 0 reports.
refresh=(evalsha "$sha" 4 "$tag:state" "$tag:window" "$tag:ring" "$tag:ack:capacity"
  capacity C 10 5 50.0 100.0 3000 60000 604800000 0)
redis-cli -p "$port" "${refresh[@]}" > /dev/null # creates the breaker's state and window
redis-cli -p "$port" hset "$tag:settings" epoch capacity version 1 p:slow-call-rate-threshold 90 > /dev/null
redis-cli -p "$port" config resetstat > /dev/null

# redis-benchmark -q still rewrites a progress line; only the result lines are kept.
results() { tr '\r' '\n' | grep 'requests per second'; }
redis-benchmark -p "$port" -q -n "$requests" -t set,get | results
redis-benchmark -p "$port" -q -n "$requests" "${refresh[@]}" | results
redis-benchmark -p "$port" -q -n "$requests" hgetall "$tag:settings" | results
redis-cli -p "$port" info commandstats | grep -E '^cmdstat_(set|get|evalsha|hgetall|hmget|pexpire):'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
