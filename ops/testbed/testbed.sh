#!/usr/bin/env bash
# WarpBus multi-host fault-injection testbed: several hosts on one machine as network namespaces joined by veth
# pairs to a bridge (addresses in 198.18.0.0/15, no route out), the real ./warpbus tools on different hosts, faults
# injected while traffic flows, and a check that every recovering subscriber lost nothing, received nothing twice
# and kept the order. Needs root, iproute2 (ip, tc, ss) and nftables (nft). Docs: docs/testbed.md.
#
#   ops/testbed/testbed.sh            quick mode (a few minutes; what CI runs)
#   ops/testbed/testbed.sh --soak     the fault cycle several times over a longer stream
#   options: --rate MSGS_PER_S  --cycles N  --work DIR (logs; default a fresh temp dir, kept)
#            --without-gateway (no gateway phase: no gateway kill -9, nine faults)
#
# The last line is: testbed: faults F, sent S, received R, repaired P, lost L, duplicated D
# Exit code 0 when L = 0 and D = 0 and every process did what it should; 1 otherwise; 2 for bad usage or a missing
# prerequisite.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
WARPBUS="$ROOT/warpbus"

RATE=20000
CYCLES=1
SIZE=64
WORK=""
WITH_GATEWAY=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --soak) CYCLES=5; shift ;;
        --cycles) CYCLES="${2:?--cycles needs a number}"; shift 2 ;;
        --rate) RATE="${2:?--rate needs a number}"; shift 2 ;;
        --work) WORK="${2:?--work needs a directory}"; shift 2 ;;
        --without-gateway) WITH_GATEWAY=0; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "testbed: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$RATE" =~ ^[1-9][0-9]*$ ]] || { echo "testbed: --rate '$RATE' is not a positive number" >&2; exit 2; }
[[ "$CYCLES" =~ ^[1-9][0-9]*$ ]] || { echo "testbed: --cycles '$CYCLES' is not a positive number" >&2; exit 2; }

if [[ $EUID -ne 0 ]]; then
    echo "testbed: needs root (network namespaces, tc, nftables)" >&2
    exit 2
fi
for tool in ip tc ss nft; do
    command -v "$tool" >/dev/null || { echo "testbed: '$tool' not found (apt-get install iproute2 nftables)" >&2; exit 2; }
done

# Names unique to this run, short enough for interface names (15 characters).
ID=$(( $$ % 100000 ))
NS_PREFIX="wbtb$ID"
SWITCH="${NS_PREFIX}-sw"
HOSTS=(pub rec suba subb subc eng load gw trader)
declare -A ADDR=([pub]=198.18.0.1 [rec]=198.18.0.2 [suba]=198.18.0.3 [subb]=198.18.0.4 [subc]=198.18.0.5
    [eng]=198.18.0.6 [load]=198.18.0.7 [gw]=198.18.0.8 [trader]=198.18.0.9)
declare -A PORT_IF=([pub]=p1 [rec]=p2 [suba]=p3 [subb]=p4 [subc]=p5 [eng]=p6 [load]=p7 [gw]=p8 [trader]=p9)
PUB_ENDPOINT="${ADDR[pub]}:40456"
REPLAY_ENDPOINT="${ADDR[rec]}:40457"
CHANNEL="warp:iwarp?endpoint=$PUB_ENDPOINT|stream=1001"
LIVENESS_S=5

[[ -n "$WORK" ]] || WORK="$(mktemp -d /tmp/warpbus-testbed.XXXXXX)"
mkdir -p "$WORK"
LOG="$WORK/testbed.log"
: >"$LOG"

PIDS=()
JVM_OPTS="-Xmx256m -XX:TieredStopAtLevel=1 -Dwarpbus.dir=$WORK/bus"
declare -A STDIN_FD=()
FAULTS=0
T0=$(date +%s%N)

say() {
    local now
    now=$(date +%s%N)
    printf 'testbed [%6.1fs] %s\n' "$(( (now - T0) / 1000000 ))e-3" "$*" | tee -a "$LOG"
}

ns() { echo "$NS_PREFIX-$1"; }

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    local pid
    for pid in "${PIDS[@]}"; do
        kill -9 "$pid" 2>/dev/null || true
    done
    local name
    for name in "${HOSTS[@]}" sw; do
        if ip netns list | grep -qw "$NS_PREFIX-$name"; then
            # Anything still running in the namespace (a child the launcher started) goes too.
            for pid in $(ip netns pids "$NS_PREFIX-$name" 2>/dev/null); do
                kill -9 "$pid" 2>/dev/null || true
            done
            ip netns del "$NS_PREFIX-$name" 2>/dev/null || true
        fi
    done
    echo "testbed: logs in $WORK" >&2
    exit "$rc"
}
trap cleanup EXIT
trap 'echo "testbed: interrupted" >&2; exit 130' INT TERM

# ---------------------------------------------------------------------------------------------------------------
# Topology: a switch namespace holding the bridge, each host a namespace with eth0 on a veth to the bridge.

build_topology() {
    ip netns add "$SWITCH"
    ip -n "$SWITCH" link add br0 type bridge
    ip -n "$SWITCH" link set br0 up
    ip -n "$SWITCH" link set lo up
    local host
    for host in "${HOSTS[@]}"; do
        local n
        n=$(ns "$host")
        ip netns add "$n"
        ip link add "${NS_PREFIX}${PORT_IF[$host]}" type veth peer name "${NS_PREFIX}h"
        ip link set "${NS_PREFIX}h" netns "$n"
        ip link set "${NS_PREFIX}${PORT_IF[$host]}" netns "$SWITCH"
        ip -n "$SWITCH" link set "${NS_PREFIX}${PORT_IF[$host]}" name "${PORT_IF[$host]}"
        ip -n "$SWITCH" link set "${PORT_IF[$host]}" master br0 up
        ip -n "$n" link set "${NS_PREFIX}h" name eth0
        ip -n "$n" addr add "${ADDR[$host]}/24" dev eth0
        ip -n "$n" link set eth0 up
        ip -n "$n" link set lo up
    done
    # No default route anywhere: only 198.18.0.0/24 is reachable.
    for host in "${HOSTS[@]}"; do
        if ip -n "$(ns "$host")" route show default | grep -q .; then
            echo "testbed: host $host has a default route" >&2
            exit 1
        fi
    done
    # Reachability without ping: a connection to a closed port is refused at once across the bridge.
    local probe
    probe=$(ip netns exec "$(ns suba)" timeout 5 bash -c "exec 3<>/dev/tcp/${ADDR[pub]}/9" 2>&1 || true)
    if [[ "$probe" != *refused* ]]; then
        echo "testbed: suba cannot reach pub over the bridge: ${probe:-no answer}" >&2
        exit 1
    fi
    say "topology: ${#HOSTS[@]} hosts on bridge br0 in $SWITCH: $(for h in "${HOSTS[@]}"; do printf '%s=%s ' "$h" "${ADDR[$h]}"; done)"
}

# Run a warpbus command on a host, in the background; its pid (the JVM: the launcher and ip netns exec exec it)
# goes into the named variable.
start_on() {
    local host="$1" logname="$2" var="$3"
    shift 3
    (
        close_held_stdins
        exec ip netns exec "$(ns "$host")" env JAVA_OPTS="$JVM_OPTS" "$WARPBUS" "$@" >"$WORK/$logname.log" 2>&1
    ) &
    local pid=$!
    PIDS+=("$pid")
    printf -v "$var" '%s' "$pid"
}

# A child must not hold the write end of another process's standard input, or that process never sees its end.
close_held_stdins() {
    local held
    for held in "${STDIN_FD[@]}"; do
        exec {held}>&-
    done
}

# The same, with standard input from a FIFO this script holds open: the engine and the load client stop at the end
# of their input, so they get one that ends only when the script does.
start_on_held_stdin() {
    local host="$1" logname="$2" var="$3"
    shift 3
    local fifo="$WORK/$logname.stdin"
    mkfifo "$fifo"
    local fd
    exec {fd}<>"$fifo"
    STDIN_FD[$logname]=$fd
    (
        close_held_stdins
        exec ip netns exec "$(ns "$host")" env JAVA_OPTS="$JVM_OPTS" "$WARPBUS" "$@" <"$fifo" >"$WORK/$logname.log" 2>&1
    ) &
    local pid=$!
    PIDS+=("$pid")
    printf -v "$var" '%s' "$pid"
}

# Wait until a log has a line matching a pattern; print the ms it took, or fail.
await_line() {
    local logname="$1" pattern="$2" since_ms="$3" limit_s="$4"
    local deadline=$(( $(now_ms) + limit_s * 1000 ))
    while (( $(now_ms) < deadline )); do
        if grep -qE "$pattern" "$WORK/$logname.log" 2>/dev/null; then
            echo $(( $(now_ms) - since_ms ))
            return 0
        fi
        sleep 0.1
    done
    echo "timeout"
    return 1
}

# Seconds (with ms) since T0.
now_ms() { echo $(( ($(date +%s%N) - T0) / 1000000 )); }

# Wait until a host has an established connection to the publisher; print how long it took (ms), or fail.
await_connected() {
    local host="$1" since_ms="$2" limit_s="$3" not_port="${4:-}"
    local deadline=$(( $(now_ms) + limit_s * 1000 ))
    while (( $(now_ms) < deadline )); do
        local ports
        ports=$(local_port "$host")
        if [[ -n "$ports" && ( -z "$not_port" || "$ports" != "$not_port" ) ]]; then
            echo $(( $(now_ms) - since_ms ))
            return 0
        fi
        sleep 0.1
    done
    echo "timeout"
    return 1
}

# Established TCP connections of a host to an endpoint (IPv4, or IPv4-mapped IPv6 as a dual-stack socket shows it).
connections_to() {
    local host="$1" endpoint="$2"
    local address="${endpoint%:*}" port="${endpoint##*:}"
    ip netns exec "$(ns "$host")" ss -Htn state established 2>/dev/null |
        awk -v peer="$address" -v port="$port" '{ p = $4; sub(/^\[::ffff:/, "", p); sub(/\]/, "", p);
            if (p == peer ":" port) print $3 }'
}

local_port() {
    connections_to "$1" "$PUB_ENDPOINT" | sed 's/.*://' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

RECOVERY=()
recovered() {
    # fault description, host, since (ms), old local port(s) or empty
    local what="$1" host="$2" since="$3" old="${4:-}"
    local ms
    if ms=$(await_connected "$host" "$since" 60 "$old"); then
        say "  $host reconnected to the publisher ${ms} ms after $what"
        RECOVERY+=("$what: $host reconnected in ${ms} ms")
    else
        say "  $host did NOT reconnect within 60 s after $what"
        RECOVERY+=("$what: $host did not reconnect")
        FAILED=1
    fi
}

# ---------------------------------------------------------------------------------------------------------------
# Faults

fault_rate_limit() {
    local host="$1" secs="$2"
    FAULTS=$((FAULTS + 1))
    say "fault $FAULTS: tc tbf 4mbit on the link to $host for ${secs}s"
    ip netns exec "$SWITCH" tc qdisc add dev "${PORT_IF[$host]}" root tbf rate 4mbit burst 32kbit latency 400ms
    sleep "$secs"
    ip netns exec "$SWITCH" tc qdisc del dev "${PORT_IF[$host]}" root
    RECOVERY+=("rate limit on $host: connection kept ($(local_port "$host"))")
}

fault_random_drops() {
    local host="$1" percent="$2" secs="$3"
    FAULTS=$((FAULTS + 1))
    say "fault $FAULTS: nftables drops ${percent}% of packets arriving at $host for ${secs}s"
    ip netns exec "$(ns "$host")" nft -f - <<NFT
table inet warpbus_testbed {
    chain input {
        type filter hook input priority 0; policy accept;
        ip saddr 198.18.0.0/24 numgen random mod 100 < $percent counter drop
    }
}
NFT
    sleep "$secs"
    local dropped
    dropped=$(ip netns exec "$(ns "$host")" nft list table inet warpbus_testbed | grep -o 'packets [0-9]*' | head -1 || true)
    ip netns exec "$(ns "$host")" nft delete table inet warpbus_testbed
    say "  nftables counted: ${dropped:-no counter}"
    RECOVERY+=("${percent}% drops on $host: connection kept ($(local_port "$host"))")
}

fault_link_down() {
    local host="$1" secs="$2"
    FAULTS=$((FAULTS + 1))
    local old
    old=$(local_port "$host")
    say "fault $FAULTS: link of $host down for ${secs}s ($( ((secs > LIVENESS_S)) && echo longer || echo shorter) than the ${LIVENESS_S}s liveness timeout)"
    ip -n "$SWITCH" link set "${PORT_IF[$host]}" down
    sleep "$secs"
    ip -n "$SWITCH" link set "${PORT_IF[$host]}" up
    if ((secs > LIVENESS_S)); then
        recovered "link down ${secs}s" "$host" "$(now_ms)" "$old"
    else
        sleep 1
        local now
        now=$(local_port "$host")
        say "  $host kept its connection (port $old -> ${now:-none})"
        RECOVERY+=("link down ${secs}s on $host: connection $( [[ "$now" == "$old" ]] && echo kept || echo "re-established ($old -> $now)")")
    fi
}

fault_reset() {
    local host="$1"
    FAULTS=$((FAULTS + 1))
    local old
    old=$(local_port "$host")
    say "fault $FAULTS: ss -K resets $host's connections to the publisher"
    # ss -K may refuse one socket with "Invalid argument"; whether the connection was reset is checked below.
    ip netns exec "$(ns "$host")" ss -K state established dst "$PUB_ENDPOINT" >/dev/null 2>&1 || true
    recovered "ss -K" "$host" "$(now_ms)" "$old"
}

# ---------------------------------------------------------------------------------------------------------------
# The run

check_pub_alive() {
    kill -0 "$PUB" 2>/dev/null || { say "publisher exited early: $(tail -3 "$WORK/pub.log")"; FAILED=1; return 1; }
}

FAILED=0
build_topology

say "building the tools (first use only)"
"$WARPBUS" stat --dir "$WORK/none" >/dev/null 2>&1 || true
"$WARPBUS" load --help >/dev/null 2>&1 || true
# The gateway's user (its password generated for the run), written with the gateway's own tool; this also builds the
# gateway module for the gateway phase.
mkdir -p "$WORK/gateway"
GW_USER=tbtrader
GW_PASSWORD_FILE="$WORK/gateway/$GW_USER.password"
(umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$GW_PASSWORD_FILE")
WARPBUS_PASSWORD="$(cat "$GW_PASSWORD_FILE")" JAVA_OPTS="-Xmx256m -XX:TieredStopAtLevel=1" "$WARPBUS" gateway-user \
    --file "$WORK/gateway/credentials.json" add "$GW_USER" --accounts 7001,7002 >"$WORK/gateway-user.log" 2>&1 ||
    { say "could not write the gateway's credentials: $(tail -3 "$WORK/gateway-user.log" | tr '\n' ' ')"; exit 1; }

# Long enough for the fault schedule at the given rate (each cycle about 60 s of faults).
CYCLE_S=62
COUNT=$(( RATE * (CYCLE_S * CYCLES + 8) ))
say "stream: $COUNT messages of $SIZE bytes at $RATE/s on $CHANNEL; $CYCLES fault cycle(s)"

start_on rec record-1 REC record --channel "$CHANNEL" --dir "$WORK/journal" --replay-endpoint "$REPLAY_ENDPOINT"
start_on suba suba SUBA sub --channel "$CHANNEL" --from 0 --count "$COUNT" --timeout 900
start_on subb subb-1 SUBB sub --channel "$CHANNEL" --from 0 --count "$COUNT" --timeout 900
start_on pub pub PUB pub --channel "$CHANNEL" --count "$COUNT" --rate "$RATE" --size "$SIZE" \
    --wait-subscribers 3 --timeout 600 --return-timeout 120
for host in rec suba subb; do
    ms=$(await_connected "$host" "$(now_ms)" 120) || { say "$host never connected: see $WORK"; exit 1; }
done
say "publisher, recorder and subscribers a, b connected; faults start"

SUBB_LOGS=(subb-1)
RECORDER_LOGS=(record-1)
for ((cycle = 1; cycle <= CYCLES; cycle++)); do
    say "cycle $cycle of $CYCLES"
    sleep 3; check_pub_alive
    fault_rate_limit suba 4
    sleep 3; check_pub_alive
    fault_random_drops suba 5 5
    sleep 3; check_pub_alive
    fault_link_down suba 2
    sleep 3; check_pub_alive

    FAULTS=$((FAULTS + 1))
    say "fault $FAULTS: kill -9 the recorder (pid $REC), restart it a second later (the CLI recorder-crash scenario)"
    kill -9 "$REC"
    wait "$REC" 2>/dev/null || true
    sleep 1
    RECORDER_LOGS+=("record-$((${#RECORDER_LOGS[@]} + 1))")
    since=$(now_ms)
    start_on rec "${RECORDER_LOGS[-1]}" REC record --channel "$CHANNEL" --dir "$WORK/journal" \
        --replay-endpoint "$REPLAY_ENDPOINT"
    recovered "recorder kill -9 and restart" rec "$since"
    sleep 2; check_pub_alive

    fault_reset suba
    sleep 3; check_pub_alive
    fault_link_down suba $((LIVENESS_S + 3))
    sleep 3; check_pub_alive

    FAULTS=$((FAULTS + 1))
    say "fault $FAULTS: kill -9 subscriber b (pid $SUBB), restart it a second later with --from 0"
    kill -9 "$SUBB"
    wait "$SUBB" 2>/dev/null || true
    sleep 1
    SUBB_LOGS+=("subb-$((${#SUBB_LOGS[@]} + 1))")
    since=$(now_ms)
    start_on subb "${SUBB_LOGS[-1]}" SUBB sub --channel "$CHANNEL" --from 0 --count "$COUNT" --timeout 900
    recovered "subscriber kill -9 and restart" subb "$since"
    sleep 2; check_pub_alive

    fault_random_drops rec 10 4
    sleep 2; check_pub_alive || break
done

say "a late subscriber c joins with --from 0 (history from the recorder, merged into live)"
start_on subc subc SUBC sub --channel "$CHANNEL" --from 0 --count "$COUNT" --timeout 900

say "waiting for the publisher to finish"
for ((i = 0; i < 1200; i++)); do
    kill -0 "$PUB" 2>/dev/null || break
    sleep 0.5
done
PUB_RC=0
wait "$PUB" || PUB_RC=$?
for pid in "$SUBA" "$SUBB" "$SUBC"; do
    for ((i = 0; i < 600; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
done
kill -TERM "$REC" 2>/dev/null || true
for ((i = 0; i < 40; i++)); do
    kill -0 "$REC" 2>/dev/null || break
    sleep 0.25
done

# ---------------------------------------------------------------------------------------------------------------
# The matching engine on its own host, a load client on another sending orders; the engine is killed with kill -9
# while orders flow and restarted on its journal. The client must end with every execution report exactly once.

ENGINE_SENT=0 ENGINE_REPORTS=0 ENGINE_GAPS=0 ENGINE_RESENT=0
engine_phase() {
    local orders="warp:iwarp?endpoint=${ADDR[load]}:41001|stream=1001"
    local reports="warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1002"
    local engine_args=(engine --order-entry "$orders" --execution-reports "$reports"
        --market-data "warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1003"
        --snapshots "warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1004"
        --dir "$WORK/bus" --name engine --journal "$WORK/engine-journal" --metrics off
        --recovery-snapshot-interval-ms 2000
        --route "$GW_ORIGIN;$GW_ORDERS;$GW_REPORTS"
        --account 7001:100000:100000000000:100000000 --account 7002:100000:100000000000:100000000)
    local commands=$(( ENGINE_RATE * 16 * CYCLES ))
    say "engine phase: matching engine on eng, load client on load: $commands orders at $ENGINE_RATE/s"
    start_on_held_stdin eng engine-1 ENG "${engine_args[@]}"
    await_line engine-1 '^READY engine' "$(now_ms)" 120 >/dev/null ||
        { say "the engine did not start: $(tail -3 "$WORK/engine-1.log" | tr '\n' ' ')"; FAILED=1; return; }
    start_on_held_stdin load load LOAD load --order-entry "$orders" --execution-reports "$reports" \
        --dir "$WORK/bus" --name load --rate "$ENGINE_RATE" --count "$commands"
    await_line load '^READY client' "$(now_ms)" 120 >/dev/null ||
        { say "the load client did not start: $(tail -3 "$WORK/load.log" | tr '\n' ' ')"; FAILED=1; return; }
    local cycle
    for ((cycle = 1; cycle <= CYCLES; cycle++)); do
        sleep 5
        FAULTS=$((FAULTS + 1))
        say "fault $FAULTS: kill -9 the matching engine (pid $ENG) while orders flow, restart it on its journal 1 s later"
        kill -9 "$ENG"
        wait "$ENG" 2>/dev/null || true
        sleep 1
        local log="engine-$((cycle + 1))" since ms
        since=$(now_ms)
        start_on_held_stdin eng "$log" ENG "${engine_args[@]}"
        if ms=$(await_line "$log" '^READY engine' "$since" 120); then
            say "  $(grep -m1 -oE '^RECOVERED engine .*' "$WORK/$log.log" | cut -c1-160)"
            RECOVERY+=("engine kill -9 and restart: READY on its journal in ${ms} ms")
        else
            say "  the engine did not come back: $(tail -3 "$WORK/$log.log" | tr '\n' ' ')"
            RECOVERY+=("engine kill -9 and restart: did not come back")
            FAILED=1
            return
        fi
        if ms=$(await_connected_to load "${ADDR[eng]}:40400" "$since" 60); then
            RECOVERY+=("engine kill -9 and restart: load client reconnected to its reports in ${ms} ms")
        else
            RECOVERY+=("engine kill -9 and restart: load client did not reconnect")
            FAILED=1
        fi
        sleep 4
    done
    # The gateway phase's gateway starts now, its JVM's start overlapping the load client's last seconds.
    if ((WITH_GATEWAY)); then
        start_gateway
    fi
    # The client stops sending after its count; orders that died with the engine are never answered, so it is told
    # to stop (the end of its input) once it sends no more, and then prints its last stats.
    local i
    for ((i = 0; i < 240; i++)); do
        local last sent_now rate_now
        last=$(grep -E '^STATS client ' "$WORK/load.log" | tail -1 || true)
        sent_now=$(grep -oE '(^| )sent=[0-9]+' <<<"$last" | sed 's/.*=//' || true)
        rate_now=$(grep -oE 'orders_per_s=[0-9.]+' <<<"$last" | sed 's/.*=//' || true)
        if [[ -n "$sent_now" ]] && ((sent_now >= commands)) && [[ "$rate_now" == 0.0 ]]; then
            break
        fi
        sleep 0.5
    done
    local fd=${STDIN_FD[load]}
    exec {fd}>&-
    for ((i = 0; i < 60; i++)); do
        kill -0 "$LOAD" 2>/dev/null || break
        sleep 0.5
    done
    local stats
    stats=$(grep -E '^STATS client ' "$WORK/load.log" | tail -1 || true)
    field() { grep -oE "(^| )$1=[0-9]+" <<<"$stats" | head -1 | sed 's/.*=//'; }
    if [[ -z "$stats" ]] || kill -0 "$LOAD" 2>/dev/null; then
        say "the load client did not finish: $(tail -3 "$WORK/load.log" | tr '\n' ' ')"
        FAILED=1
        return
    fi
    ENGINE_SENT=$(field sent)
    ENGINE_REPORTS=$(field reports)
    ENGINE_GAPS=$(field exec_id_gaps)
    ENGINE_RESENT=$(field resent_reports)
    local acked duplicates
    acked=$(field acked)
    duplicates=$(field duplicate_reports)
    say "load client: sent $ENGINE_SENT orders, $acked answered ($((ENGINE_SENT - acked)) in flight when the engine died, never journaled), $ENGINE_REPORTS execution reports, exec id gaps $ENGINE_GAPS, resent by the engine $ENGINE_RESENT, duplicate reports ignored $duplicates; $(grep -m1 -oE '^STOPPED client .*' "$WORK/load.log" || echo 'no STOPPED line')"
}

await_connected_to() {
    local host="$1" endpoint="$2" since_ms="$3" limit_s="$4"
    local deadline=$(( $(now_ms) + limit_s * 1000 ))
    while (( $(now_ms) < deadline )); do
        if [[ -n "$(connections_to "$host" "$endpoint")" ]]; then
            echo $(( $(now_ms) - since_ms ))
            return 0
        fi
        sleep 0.1
    done
    echo "timeout"
    return 1
}

# ---------------------------------------------------------------------------------------------------------------
# The gateway on its own host, in front of the same engine; a trading client on another host logs on over WebSocket
# and trades at a fixed rate. The gateway is killed with kill -9 while orders flow and restarted on its journal a
# second later; the client's sessions reconnect and resume, and it checks that every sequence number and every
# execution report arrived exactly once and in order.

GW_SENT=0 GW_REPORTS_RECEIVED=0 GW_RESENT=0 GW_LOST=0 GW_DUPLICATED=0

start_gateway() {
    GATEWAY_LOGS+=("gateway-$((${#GATEWAY_LOGS[@]} + 1))")
    start_on gw "${GATEWAY_LOGS[-1]}" GW gateway --server.port=8080 --warpbus.gateway.trading.port=8081 \
        --warpbus.gateway.name=tbgw --warpbus.gateway.origin="$GW_ORIGIN" \
        --warpbus.gateway.credentials-file="$WORK/gateway/credentials.json" \
        --warpbus.gateway.journal.directory="$WORK/gateway/journal" \
        --warpbus.gateway.bus-directory="$WORK/bus" \
        --warpbus.gateway.sessions.max-sessions=16 \
        --warpbus.gateway.channels.order-entry="$GW_ORDERS" \
        --warpbus.gateway.channels.execution-reports="$GW_REPORTS" \
        --warpbus.gateway.channels.market-data="warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1003|name=tbgw-md" \
        --warpbus.gateway.channels.snapshots="warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1004|name=tbgw-snapshots" \
        --logging.level.root=WARN
}

# Is the gateway ready (its readiness health answers 200: engine connected both ways, caught up, journal ok)? Asked
# from the trader's host over the bridge, with bash's /dev/tcp (no curl needed).
gateway_ready() {
    ip netns exec "$(ns trader)" timeout 2 bash -c "exec 3<>/dev/tcp/${ADDR[gw]}/8080 &&
        printf 'GET /actuator/health/readiness HTTP/1.0\r\nHost: ${ADDR[gw]}\r\n\r\n' >&3 && head -1 <&3" \
        2>/dev/null | grep -q ' 200 '
}

await_gateway_ready() {
    local since_ms="$1" limit_s="$2"
    local deadline=$(( $(now_ms) + limit_s * 1000 ))
    while (( $(now_ms) < deadline )); do
        if gateway_ready; then
            echo $(( $(now_ms) - since_ms ))
            return 0
        fi
        kill -0 "$GW" 2>/dev/null || break
        sleep 0.2
    done
    echo "timeout"
    return 1
}

gateway_phase() {
    if ((${#GATEWAY_LOGS[@]} == 0)) || ! kill -0 "$ENG" 2>/dev/null; then
        say "gateway phase: not run (the engine phase did not get that far)"
        FAILED=1
        return
    fi
    local ms since
    if ! ms=$(await_gateway_ready "$(now_ms)" 120); then
        say "the gateway did not become ready: $(tail -5 "$WORK/${GATEWAY_LOGS[-1]}.log" | tr '\n' ' ')"
        FAILED=1
        return
    fi
    say "gateway phase: gateway on gw ready (ws://${ADDR[gw]}:8081/ws); trading client on trader: 2 sessions, $GW_RATE orders/s on LOAD1"
    start_on_held_stdin trader trader TRADER trader --url "ws://${ADDR[gw]}:8081/ws" --user "$GW_USER" \
        --password-file "$GW_PASSWORD_FILE" --accounts 7001,7002 --instrument LOAD1 --reference 100.00 \
        --sessions 2 --rate "$GW_RATE" --settle-ms 8000 --reconnect-timeout 90
    if ! await_line trader '^READY trader' "$(now_ms)" 90 >/dev/null; then
        say "the trading client did not start: $(tail -3 "$WORK/trader.log" | tr '\n' ' ')"
        FAILED=1
        return
    fi
    local cycle
    for ((cycle = 1; cycle <= CYCLES; cycle++)); do
        sleep 4
        FAULTS=$((FAULTS + 1))
        say "fault $FAULTS: kill -9 the gateway (pid $GW) while orders flow, restart it on its journal 1 s later"
        kill -9 "$GW"
        wait "$GW" 2>/dev/null || true
        sleep 1
        since=$(now_ms)
        start_gateway
        if ms=$(await_gateway_ready "$since" 120); then
            RECOVERY+=("gateway kill -9 and restart: gateway ready on its journal in ${ms} ms")
            say "  gateway ready ${ms} ms after its restart"
        else
            RECOVERY+=("gateway kill -9 and restart: gateway not ready within 120 s")
            say "  the gateway did not come back: $(tail -5 "$WORK/${GATEWAY_LOGS[-1]}.log" | tr '\n' ' ')"
            FAILED=1
            break
        fi
        # Both sessions resumed: a RESUMED line each per kill.
        local deadline=$(( $(now_ms) + 60000 )) resumed=0
        while (( $(now_ms) < deadline )); do
            resumed=$(grep -c '^RESUMED trader ' "$WORK/trader.log" || true)
            ((resumed >= 2 * cycle)) && break
            sleep 0.1
        done
        if ((resumed >= 2 * cycle)); then
            ms=$(( $(now_ms) - since ))
            RECOVERY+=("gateway kill -9 and restart: both trading sessions resumed ${ms} ms after the restart")
            say "  both trading sessions resumed ${ms} ms after the restart: $(grep '^RESUMED trader ' "$WORK/trader.log" | tail -2 | cut -d' ' -f3- | tr '\n' ';')"
        else
            RECOVERY+=("gateway kill -9 and restart: the trading sessions did not resume within 60 s")
            say "  the trading sessions did not resume within 60 s: $(tail -3 "$WORK/trader.log" | tr '\n' ' ')"
            FAILED=1
        fi
    done
    sleep 4
    # The end of its input stops the client: it waits for its answers, cancels its resting orders, logs out and
    # prints its verdict.
    local fd=${STDIN_FD[trader]} i
    exec {fd}>&-
    for ((i = 0; i < 120; i++)); do
        kill -0 "$TRADER" 2>/dev/null || break
        sleep 0.5
    done
    local rc=0
    wait "$TRADER" 2>/dev/null || rc=$?
    kill -TERM "$GW" 2>/dev/null || true
    local result
    result=$(grep -E '^RESULT trader ' "$WORK/trader.log" | tail -1 || true)
    if [[ -z "$result" ]]; then
        say "the trading client printed no result (exit $rc): $(tail -5 "$WORK/trader.log" | tr '\n' ' ')"
        FAILED=1
        return
    fi
    trader_field() { grep -oE "(^| )$1=[0-9]+" <<<"$result" | head -1 | sed 's/.*=//'; }
    GW_SENT=$(trader_field sent)
    GW_REPORTS_RECEIVED=$(trader_field reports)
    GW_RESENT=$(trader_field resent)
    GW_LOST=$(trader_field lost)
    GW_DUPLICATED=$(trader_field duplicated)
    grep -E '^trader: ' "$WORK/trader.log" | head -20 | sed 's/^/  /' | tee -a "$LOG" || true
    say "trading client: sent $GW_SENT requests, $(trader_field answered) answered, $GW_REPORTS_RECEIVED execution reports ($(trader_field fills) fills, $(trader_field rejects_505) rejected 505 by the restarted gateway), $GW_RESENT messages resent after resumes, $(trader_field gap_filled) numbers gap-filled; sequence numbers missing $(trader_field seq_missing), twice $(trader_field seq_duplicates); exec id gaps $(trader_field exec_id_gaps) up to $(trader_field max_exec_id); unanswered $(trader_field unanswered), in doubt (in flight when the gateway died, never answered) $(trader_field in_doubt); not sent while down $(trader_field not_sent_down); lost $GW_LOST, duplicated $GW_DUPLICATED (exit $rc)"
    if ((rc != 0)); then
        FAILED=1
    fi
}

ENGINE_RATE=2000
# The gateway phase's route at the engine: the gateway publishes its orders at its own host, the engine answers on
# a report stream of the route at its endpoint.
GW_ORIGIN=1
GW_ORDERS="warp:iwarp?endpoint=${ADDR[gw]}:40500|stream=1011|name=tbgw-orders"
GW_REPORTS="warp:iwarp?endpoint=${ADDR[eng]}:40400|stream=1012|name=tbgw-reports"
GATEWAY_LOGS=()
GW_RATE=100
engine_phase
if ((WITH_GATEWAY)); then
    gateway_phase
else
    say "gateway phase: not run (--without-gateway)"
fi
# The engine stops at the end of its input.
if [[ -n "${STDIN_FD[engine-$((CYCLES + 1))]:-}" ]]; then
    fd=${STDIN_FD[engine-$((CYCLES + 1))]}
    exec {fd}>&-
fi

# ---------------------------------------------------------------------------------------------------------------
# The verdict

SENT_LINE=$(grep -E '^sent [0-9]+ messages, checksum [0-9a-f]+$' "$WORK/pub.log" || true)
if [[ -z "$SENT_LINE" || $PUB_RC -ne 0 ]]; then
    say "publisher failed (exit $PUB_RC): $(tail -5 "$WORK/pub.log" | tr '\n' ' ')"
    FAILED=1
fi
SENT=$(awk '{print $2}' <<<"$SENT_LINE")
SENT=${SENT:-0}
CHECKSUM=$(awk '{print $5}' <<<"$SENT_LINE")
grep -E '^warpbus pub: ' "$WORK/pub.log" | sed 's/^/  pub said: /' | tee -a "$LOG" || true

RECEIVED=0 REPAIRED=0 LOST=0 DUPLICATED=0
check_subscriber() {
    local name="$1" log="$WORK/$1.log"
    local line
    line=$(grep -E '^received [0-9]+ messages, gaps [0-9]+, duplicates [0-9]+, checksum [0-9a-f]+$' "$log" | tail -1 || true)
    if [[ -z "$line" ]]; then
        say "subscriber $name printed no result: $(tail -3 "$log" | tr '\n' ' ')"
        LOST=$((LOST + COUNT))
        return
    fi
    local got gaps resends sum repaired
    got=$(awk '{print $2}' <<<"$line" | tr -d ,)
    gaps=$(awk '{print $5}' <<<"$line" | tr -d ,)
    resends=$(awk '{print $7}' <<<"$line" | tr -d ,)
    sum=$(awk '{print $9}' <<<"$line")
    repaired=$(grep -oE 'repaired [0-9]+ messages' "$log" | tail -1 | awk '{print $2}')
    repaired=${repaired:-0}
    RECEIVED=$((RECEIVED + got))
    REPAIRED=$((REPAIRED + repaired))
    local lost=$(( COUNT > got ? COUNT - got : 0 ))
    lost=$((lost + gaps))
    local dup=0
    # Every message, once, in order: the count, no gap and the publisher's chained CRC32C over the payloads.
    if ((got == COUNT)) && [[ "$sum" != "$CHECKSUM" ]]; then
        dup=1
    fi
    LOST=$((LOST + lost))
    DUPLICATED=$((DUPLICATED + dup))
    say "subscriber $name: received $got of $COUNT, unrepaired gaps $gaps, resent frames skipped $resends, repaired from the recorder $repaired, checksum $sum ($( [[ "$sum" == "$CHECKSUM" ]] && echo "matches the publisher's" || echo "DIFFERS from the publisher's $CHECKSUM"))"
}
check_subscriber suba
check_subscriber "${SUBB_LOGS[-1]}"
check_subscriber subc

# The recorder's journal: every sequence 0..COUNT-1 exactly once (it refuses a sequence not after the last, so a
# count of COUNT over the range 0..COUNT-1 means no hole and no duplicate).
STATS=$("$WARPBUS" journal stats "$WORK/journal" 2>/dev/null | grep -E '^stream 1001: ' || true)
RECORDS=$(sed -nE 's/^stream 1001: ([0-9]+) records, sequences ([0-9]+)\.\.([0-9]+).*/\1 \2 \3/p' <<<"$STATS")
read -r JCOUNT JFIRST JLAST <<<"${RECORDS:-0 -1 -1}"
RECEIVED=$((RECEIVED + JCOUNT))
JLOST=$(( COUNT > JCOUNT ? COUNT - JCOUNT : 0 ))
LOST=$((LOST + JLOST))
if [[ "$JFIRST" != 0 || "$JLAST" != $((COUNT - 1)) ]] && ((JLOST == 0)); then
    DUPLICATED=$((DUPLICATED + 1))
fi
say "recorder journal: $JCOUNT records, sequences $JFIRST..$JLAST over ${#RECORDER_LOGS[@]} recorder runs"
for log in "${RECORDER_LOGS[@]}"; do
    grep -E '^recorded |^recording ' "$WORK/$log.log" | sed "s/^/  $log: /" | tee -a "$LOG" || true
done

say "recovery:"
for r in "${RECOVERY[@]}"; do
    say "  $r"
done
if ((SENT != COUNT)); then
    LOST=$((LOST + COUNT - SENT))
fi
# The engine's stream: orders sent, reports received, reports the engine sent again on the client's resend request
# (repaired), exec ids missing for good (lost).
SENT=$((SENT + ${ENGINE_SENT:-0}))
RECEIVED=$((RECEIVED + ${ENGINE_REPORTS:-0}))
REPAIRED=$((REPAIRED + ${ENGINE_RESENT:-0}))
LOST=$((LOST + ${ENGINE_GAPS:-0}))
# The gateway's trading client: requests sent, execution reports received, messages the resumed sessions got again
# from the gateway's journal (repaired), and its own lost and duplicated counts.
SENT=$((SENT + ${GW_SENT:-0}))
RECEIVED=$((RECEIVED + ${GW_REPORTS_RECEIVED:-0}))
REPAIRED=$((REPAIRED + ${GW_RESENT:-0}))
LOST=$((LOST + ${GW_LOST:-0}))
DUPLICATED=$((DUPLICATED + ${GW_DUPLICATED:-0}))
LINE="testbed: faults $FAULTS, sent $SENT, received $RECEIVED, repaired $REPAIRED, lost $LOST, duplicated $DUPLICATED"
echo "$LINE" | tee -a "$LOG"
if ((LOST > 0 || DUPLICATED > 0 || FAILED != 0)); then
    exit 1
fi
exit 0
