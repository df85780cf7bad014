#!/usr/bin/env bash
# Walks the bookshop's story against a running sample app and prints what happens:
# healthy -> failing -> the breaker opens (fast answers, the wholesaler sees nothing) -> wait ->
# one probe (still failing: open again) -> wholesaler healthy -> one probe -> closed ->
# an operator forces OPEN -> releases it.
#
#   ./mvnw -pl sample-app -am spring-boot:run      # in one terminal (Spring Boot 3; -pl sample-app-boot4 ... -Pboot4: Boot 4)
#   sample-app/demo.sh                             # in another
#
# Settings (environment): BASE (default http://localhost:8080), OPERATOR_USER (operator),
# OPERATOR_PASSWORD (the demo default, or BOOKSHOP_OPERATOR_PASSWORD when set).
# Needs bash and curl only.
set -euo pipefail

BASE="${BASE:-http://localhost:8080}"
OPERATOR_USER="${OPERATOR_USER:-operator}"
OPERATOR_PASSWORD="${OPERATOR_PASSWORD:-${BOOKSHOP_OPERATOR_PASSWORD:-demo-operator}}"
BOOK="9780134685991"            # Effective Java: the wholesaler delivers it in 2 days
BOOK_ISBN10="0-201-63361-2"     # Design Patterns, as an ISBN-10: 5 days
UNKNOWN_BOOK="9781234567897"    # a valid ISBN the wholesaler does not know
MAX_WAIT_SECONDS=120
BODY_FILE=$(mktemp)
trap 'rm -f "$BODY_FILE"' EXIT

if [[ -t 1 ]]; then BOLD=$'\033[1m' PLAIN=$'\033[0m'; else BOLD='' PLAIN=''; fi
step() { printf '\n%s== %s%s\n' "$BOLD" "$*" "$PLAIN"; }
say() { printf '   %s\n' "$*"; }

# First "key":value of a JSON body (enough for this demo's flat fields; no jq needed); null when absent
# (the actuator leaves out a field that does not apply).
json_field() {
    local body="$1" pattern="\"$2\":(\"[^\"]*\"|[^,}]*)"
    if [[ "$body" =~ $pattern ]]; then
        local value="${BASH_REMATCH[1]}"
        echo "${value//\"/}"
    else
        echo "null"
    fi
}

# GET /books/{isbn}/delivery-time; prints status, X-Served-By, time taken and the gist of the body.
ask() {
    local isbn="$1" out line status="" served="<none>" seconds=0 ms body gist
    out=$(curl -s -D - -o "$BODY_FILE" -w 'TIME %{time_total}\n' "$BASE/books/$isbn/delivery-time")
    while IFS= read -r line; do
        line="${line%$'\r'}"
        case "$line" in
            HTTP/*) [[ -z "$status" ]] && { status="${line#* }"; status="${status%% *}"; } ;;
            [Xx]-[Ss]erved-[Bb]y:*) served="${line#*: }" ;;
            "TIME "*) seconds="${line#TIME }" ;;
        esac
    done <<< "$out"
    ms=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1000 }')
    body=$(cat "$BODY_FILE")
    if [[ "$status" == 200 ]]; then
        gist="days=$(json_field "$body" days)"
        [[ "$body" == *'"note"'* ]] && gist="$gist, with a note: we will email you"
    else
        gist="$(json_field "$body" detail)"
    fi
    LAST_SERVED_BY="$served"
    printf '   GET /books/%s/delivery-time -> %s  X-Served-By: %-15s %5s ms  %s\n' \
        "$isbn" "$status" "$served" "$ms" "$gist"
}

wholesaler() {   # wholesaler MODE: switch the simulated wholesaler
    local body
    body=$(curl -s -X PUT "$BASE/wholesaler/mode/$1")
    say "wholesaler switched to $(json_field "$body" mode)"
}

requests() { json_field "$(curl -s "$BASE/wholesaler")" requestsReceived; }

breaker() {      # prints the wholesaler breaker's state and numbers
    local body
    body=$(curl -s "$BASE/actuator/breakers/wholesaler")
    say "breaker: state=$(json_field "$body" state) failedCalls=$(json_field "$body" failedCalls)" \
        "callsInWindow=$(json_field "$body" callsInWindow) rejectedCalls=$(json_field "$body" rejectedCalls)" \
        "nextProbeAt=$(json_field "$body" nextProbeAt) | wholesaler requests received: $(requests)"
}

operator() {     # operator STATE [PASSWORD|-]: POST /actuator/breakers/wholesaler ("-": no credentials)
    local password="${2:-$OPERATOR_PASSWORD}" who status
    local -a auth=(-u "$OPERATOR_USER:$password")
    who="as $OPERATOR_USER"
    [[ "$password" != "$OPERATOR_PASSWORD" ]] && who="as $OPERATOR_USER with a wrong password"
    [[ "$password" == "-" ]] && { auth=(); who="without credentials"; }
    status=$(curl -s -o /dev/null -w '%{http_code}' ${auth[@]+"${auth[@]}"} -X POST \
        -H 'Content-Type: application/json' -d "{\"state\":\"$1\"}" "$BASE/actuator/breakers/wholesaler")
    say "POST /actuator/breakers/wholesaler {\"state\":\"$1\"} $who -> $status"
}

# Calls once a second until an answer is not "fallback-open": that call was the probe.
until_probe() {
    local waited=0
    LAST_SERVED_BY="fallback-open"
    while [[ "$LAST_SERVED_BY" == "fallback-open" ]]; do
        if (( waited >= MAX_WAIT_SECONDS )); then
            say "no probe after ${MAX_WAIT_SECONDS}s: is wait-duration-in-open-state longer?"; exit 1
        fi
        sleep 1; waited=$((waited + 1))
        ask "$BOOK"
    done
}

if ! curl -s -o /dev/null "$BASE/actuator/health"; then
    echo "No app at $BASE. Start it first: ./mvnw -pl sample-app -am spring-boot:run" \
        "(on Spring Boot 4: -pl sample-app-boot4 ... -Pboot4)" >&2
    exit 1
fi

step "Start clean: wholesaler healthy, breaker released to automatic operation"
wholesaler healthy
curl -s -o /dev/null "$BASE/books/$BOOK/delivery-time"   # warms up the app's HTTP client
operator CLOSED >/dev/null; operator AUTO
breaker

step "1. Healthy: answers are live (an ISBN-10 is accepted too)"
ask "$BOOK"; ask "$BOOK_ISBN10"; ask "$BOOK"
breaker

step "2. Answers that are not outages: the breaker does not count them"
ask "$UNKNOWN_BOOK"
say "(404 from the wholesaler: a business answer, passed on, no fallback)"
ask "978-0-13-468599-2"
say "(400: not a valid ISBN; the wholesaler is not even asked)"
breaker

step "3. The wholesaler hangs: each call waits for the 800 ms read timeout, fails, and the fallback answers"
wholesaler slow
for _ in 1 2 3 4 5 6; do ask "$BOOK"; done
breaker
say "3 failures out of 6 calls reached the 50% threshold: the breaker is OPEN and answers at once."

step "4. While OPEN: answers come back in milliseconds and the wholesaler sees nothing"
before=$(requests)
for _ in 1 2 3 4 5; do ask "$BOOK"; done
say "wholesaler requests received: $before before, $(requests) after"

step "5. Wait for the probe (the wholesaler still hangs): one call goes through, fails, OPEN again"
until_probe
breaker

step "6. The wholesaler recovers; after the next wait one probe succeeds: CLOSED"
wholesaler healthy
until_probe
breaker

step "7. What else counts: 503, 429 and a dead wholesaler (connection refused)"
wholesaler failing; ask "$BOOK"
wholesaler throttling; ask "$BOOK"
wholesaler down; ask "$BOOK"
wholesaler healthy
breaker
say "(3 failures, but fewer than minimum-number-of-calls in the window: no verdict yet, still CLOSED)"

step "8. An operator forces the breaker OPEN during an incident"
operator OPEN -
operator OPEN wrong-password
say "(401: a missing or wrong password changes nothing)"
operator OPEN
before=$(requests)
ask "$BOOK"; ask "$BOOK"
say "wholesaler requests received: $before before, $(requests) after (healthy, but not asked)"
breaker

step "9. ... and releases it: CLOSED, live again"
operator AUTO
ask "$BOOK"
breaker

printf '\nMore: curl %s/actuator/breakers | curl %s/actuator/health | curl %s/actuator/prometheus\n' \
    "$BASE" "$BASE" "$BASE"
