#!/usr/bin/env bash
# The images' contents exercised without a Docker engine: builds the images' jars with docker/Dockerfile's own Maven
# command in a clean export of the checkout, then starts the services the way the images do (the launcher with
# WARPBUS_CLASSPATH and config/jvm.args) with the commands and environment of docker/compose.yaml, the hosts mapped
# to 127.0.0.1 and one gateway (one host has one port 40500), checks each health check, and has a real Prometheus
# (Debian's) scrape them with ops/prometheus/prometheus.yml and its rules. Exit 0 when everything is healthy and
# every target is up. Not in CI (five JVMs and a build); run it after changing docker/ or the launcher:
#   docker/smoke-without-docker.sh [WORK_DIR]
# Uses ports 8080 8081 9101 9102 19090 40300 40400 40500 40600 on 127.0.0.1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
WORK="${1:-$(mktemp -d /tmp/warpbus-smoke.XXXXXX)}"
SRC="$WORK/src"
R="$WORK/run"
PIDS=()
FAILED=0

cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 3
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    exec 7>&- 2>/dev/null || true
}
trap cleanup EXIT INT TERM

check() {  # check WHAT COMMAND...: retry for 90 s
    local what="$1" i
    shift
    for i in $(seq 1 90); do
        if "$@" >/dev/null 2>&1; then echo "OK   $what after ${i}s"; return 0; fi
        sleep 1
    done
    echo "FAIL $what"
    FAILED=1
}

# 1. Each image's build stage: its RUN command, in a clean export of the checkout.
rm -rf "$SRC" "$R"
mkdir -p "$SRC" "$R"
git -C "$ROOT" archive HEAD | tar -x -C "$SRC"
modules="$(grep -o -- '-pl [a-z,-]* ' "$SRC/docker/Dockerfile" | awk '{print $2}')"
echo "building $modules as docker/Dockerfile's build stage does (once, for every image)..."
(cd "$SRC" && ./mvnw -B -q -DskipTests -Dcheckstyle.skip -pl "$modules" -am package)
for image in engine gateway recorder tools; do
    # The module whose lib the image's target takes from the build stage: COPY --from=build /opt/warpbus/MODULE/lib.
    module="$(awk -v target="$image" '$1 == "FROM" && $NF == target { inside = 1; next }
        $1 == "FROM" { inside = 0 } inside && $1 == "COPY" && $2 == "--from=build" { split($3, p, "/"); print p[4] }' \
        "$SRC/docker/Dockerfile")"
    [[ -n "$module" ]] || { echo "docker/Dockerfile: no target $image taking a module's lib"; exit 1; }
    echo "image $image: the jars and runtime class path of $module"
    mkdir -p "$WORK/$image/lib"
    tr ':' '\n' <"$SRC/$module/target/classpath.txt" | xargs -r cp -t "$WORK/$image/lib/"
    cp "$SRC/$module/target/$module"-*.jar "$WORK/$image/lib/"
    # 2. The run stage's files: /opt/warpbus/{warpbus,config/jvm.args,healthcheck.sh,lib}.
    mkdir -p "$WORK/$image/config"
    cp "$SRC/warpbus" "$WORK/$image/warpbus"
    cp "$SRC/config/jvm.args" "$WORK/$image/config/jvm.args"
    cp "$SRC/docker/healthcheck.sh" "$WORK/$image/healthcheck.sh"
done
HC="$WORK/engine/healthcheck.sh"
mkdir -p "$R"/{engine-journal,gw1-journal,credentials,recorder-journal,shm-engine,shm-gw1,shm-recorder,shm-load}
# The engine and the load generator stop at the end of their standard input (compose: stdin_open): a FIFO this
# script holds open.
mkfifo "$R/stdin"
exec 7<>"$R/stdin"

start() {  # start NAME IMAGE JAVA_OPTS ARGS...: the image's entry point, in the background
    local name="$1" image="$2" opts="$3"
    shift 3
    ( export WARPBUS_CLASSPATH="$WORK/$image/lib/*" JAVA_OPTS="$opts"; exec "$WORK/$image/warpbus" "$@" \
        <"$R/stdin" >"$R/$name.log" 2>&1 ) &
    PIDS+=($!)
}

WARPBUS_CLASSPATH="$WORK/gateway/lib/*" WARPBUS_PASSWORD=smoke-test-password "$WORK/gateway/warpbus" gateway-user \
    --file "$R/credentials/credentials.json" add demo --accounts 9001,9002

start engine engine "-Dwarpbus.dir=$R/shm-engine -Xms256m -Xmx512m" engine --dir "$R/shm-engine" --name engine \
    --journal "$R/engine-journal" --metrics 0.0.0.0:9101 --idle backoff --instruments 10 \
    --order-entry 'warp:iwarp?endpoint=127.0.0.1:40300|stream=1001|name=engine-orders' \
    --execution-reports 'warp:iwarp?endpoint=0.0.0.0:40400|stream=1002' \
    --market-data 'warp:iwarp?endpoint=0.0.0.0:40400|stream=1003' \
    --snapshots 'warp:iwarp?endpoint=0.0.0.0:40400|stream=1004' \
    --route '1;warp:iwarp?endpoint=127.0.0.1:40500|stream=1011|name=gw1-orders;warp:iwarp?endpoint=0.0.0.0:40400|stream=1012|name=gw1-reports' \
    --account 9001:100000:1000000000000:10000000 --account 9002:100000:1000000000000:10000000
check "engine /health" "$HC" 9101 /health

# gateway-1: the image's ENV, then compose's environment
(
    export SERVER_PORT=8080 WARPBUS_GATEWAY_TRADING_PORT=8081 WARPBUS_GATEWAY_BUSDIRECTORY="$R/shm-gw1" \
        WARPBUS_GATEWAY_JOURNAL_DIRECTORY="$R/gw1-journal" MANAGEMENT_METRICS_SYSTEM_DISKSPACE_PATHS="$R/gw1-journal" \
        WARPBUS_GATEWAY_NAME=gateway-1 WARPBUS_GATEWAY_ORIGIN=1 \
        WARPBUS_GATEWAY_CREDENTIALSFILE="$R/credentials/credentials.json" \
        WARPBUS_GATEWAY_CHANNELS_ORDERENTRY='warp:iwarp?endpoint=0.0.0.0:40500|stream=1011|name=gw1-orders' \
        WARPBUS_GATEWAY_CHANNELS_EXECUTIONREPORTS='warp:iwarp?endpoint=127.0.0.1:40400|stream=1012|name=gw1-reports' \
        WARPBUS_GATEWAY_CHANNELS_MARKETDATA='warp:iwarp?endpoint=127.0.0.1:40400|stream=1003|name=gw1-md' \
        WARPBUS_GATEWAY_CHANNELS_SNAPSHOTS='warp:iwarp?endpoint=127.0.0.1:40400|stream=1004|name=gw1-snapshots' \
        WARPBUS_GATEWAY_IDLESTRATEGY=backoff WARPBUS_CLASSPATH="$WORK/gateway/lib/*" \
        JAVA_OPTS="-Dwarpbus.dir=$R/shm-gw1 -Xms256m -Xmx512m"
    cd "$R"
    exec "$WORK/gateway/warpbus" gateway >"$R/gateway-1.log" 2>&1
) &
PIDS+=($!)
start recorder recorder "-Dwarpbus.dir=$R/shm-recorder -Xmx256m" record \
    --channel 'warp:iwarp?endpoint=127.0.0.1:40400|stream=1003' --dir "$R/recorder-journal" \
    --replay-endpoint 127.0.0.1:40600
start recorder-metrics recorder "-Xmx64m" metrics --root "$R/shm-recorder" --disk "$R/recorder-journal" \
    --listen 0.0.0.0:9102 --application warpbus-recorder
start loadgen tools "-Dwarpbus.dir=$R/shm-load -Xmx256m" load \
    --order-entry 'warp:iwarp?endpoint=0.0.0.0:40300|stream=1001|name=engine-orders' \
    --execution-reports 'warp:iwarp?endpoint=127.0.0.1:40400|stream=1002' --dir "$R/shm-load" --name load \
    --rate 200 --instruments 10 --idle backoff

check "gateway-1 /actuator/health/readiness" "$HC" 8080 /actuator/health/readiness
check "recorder (its metrics container's /health)" "$HC" 9102 /health
check "loadgen (stat --alive)" env WARPBUS_CLASSPATH="$WORK/tools/lib/*" "$WORK/tools/warpbus" stat \
    --dir "$R/shm-load/load" --alive

# Prometheus on the compose scrape configuration and rules, targets on loopback.
mkdir -p "$R/prometheus/rules"
cp "$SRC/ops/prometheus/rules/warpbus-alerts.yml" "$R/prometheus/rules/"
sed -e "s/'engine:9101'/'127.0.0.1:9101'/; s/'gateway-1:8080', 'gateway-2:8080'/'127.0.0.1:8080'/" \
    -e "s/'recorder:9102'/'127.0.0.1:9102'/; s/'localhost:9090'/'127.0.0.1:19090'/" \
    "$SRC/ops/prometheus/prometheus.yml" >"$R/prometheus/prometheus.yml"
( exec prometheus --config.file="$R/prometheus/prometheus.yml" --storage.tsdb.path="$R/prometheus/data" \
    --web.listen-address=127.0.0.1:19090 >"$R/prometheus.log" 2>&1 ) &
PIDS+=($!)
targets_up() {
    curl -fsS http://127.0.0.1:19090/api/v1/targets | python3 -c '
import json, sys
targets = json.load(sys.stdin)["data"]["activeTargets"]
sys.exit(0 if len(targets) == 4 and all(t["health"] == "up" for t in targets) else 1)'
}
check "Prometheus: every target up" targets_up
curl -fsS http://127.0.0.1:19090/api/v1/targets | python3 -c '
import json, sys
for t in json.load(sys.stdin)["data"]["activeTargets"]:
    print("  target", t["labels"]["job"], t["scrapeUrl"], t["health"], t.get("lastError", ""))'
grep -h "^READY\|^RECOVERED\|^recording\|Started GatewayApplication" "$R"/*.log | cut -c1-160 || true
if [[ "$FAILED" != 0 ]]; then
    echo "smoke: FAILED (logs in $R)"
    exit 1
fi
echo "smoke: every service healthy and scraped (logs in $R)"
