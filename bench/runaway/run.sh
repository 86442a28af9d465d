#!/usr/bin/env bash
# Other cells' latency beside a runaway handler (issue 29): one node (the packaged gateway.jar) on
# a fresh file:// bucket serving bench/runaway/worker, whose limits.cpu_ms is 2000. Phases of
# --seconds each, on the same warm node, one after another and repeated --rounds times:
#   quiet            the measured traffic alone
#   runaway-do       the same while --spinners clients keep a Durable Object spinning (each request
#                    spins until its 2 s CPU budget stops it, then the next begins)
#   runaway-worker   the same while they keep a stateless handler spinning
# The measured traffic is paced (--conns connections, --pace-ms between requests: a moderate load,
# as read-paced in bench/run.sh) over --names counters, then /hello the same way. A spinner uses a
# whole core of this 2-core box whatever the design, so saturating req/s is not the question; the
# others' p99 is. workerd is not measured beside it: local workerd enforces no CPU limit, so its
# runaway never ends (and every object of its isolate waits behind it).
#
#   bench/runaway/run.sh [--seconds 20] [--rounds 2] [--conns 2] [--pace-ms 10] [--names 1000]
#                        [--spinners 1] [--port 18680] [--warmup 30]
#
# Needs a packaged build (mvn -B -q package -DskipTests), .ci/npm-tools.sh (esbuild, for push)
# and wrk. Writes bench/results/runaway-<timestamp>/{summary.tsv,node.log,wrk/*}.
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
SECONDS_PER=20 ROUNDS=2 CONNS=2 PACE_MS=10 NAMES=1000 SPINNERS=1 PORT=18680 WARMUP=30
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --conns) CONNS=$2; shift 2 ;;
    --pace-ms) PACE_MS=$2; shift 2 ;;
    --names) NAMES=$2; shift 2 ;;
    --spinners) SPINNERS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if ! command -v wrk >/dev/null; then  # as bench/lib/install.sh does: Debian's wrk, sudo only when not root
  echo "runaway: apt-get install wrk" >&2
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else sudo apt-get update -qq && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; fi
fi
[ -f gateway/target/gateway.jar ] || { echo "runaway: no gateway/target/gateway.jar: mvn -B -q package -DskipTests" >&2; exit 2; }
OUT=bench/results/runaway-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT/wrk"
WORK=$(mktemp -d /tmp/runaway-bench.XXXXXX)
deploy-tool/deploy-tool push bench/runaway/worker --bucket "file://$WORK/bucket" >"$OUT/push.log" 2>&1 \
  || { cat "$OUT/push.log" >&2; exit 1; }
CELLD_NODE=bench CELLD_BUCKET="file://$WORK/bucket" CELLD_ADDR="127.0.0.1:$PORT" CELLD_INTERNAL_ADDR="127.0.0.1:$((PORT + 1))" \
  CELLD_WATCH="$WORK/node" CELLD_LOG_FORMAT=text \
  java -Xmx2g -jar gateway/target/gateway.jar >"$OUT/node.log" 2>&1 &
NODE=$!
SPIN_PIDS=()
# a spinner ends after its current request once the stop file exists (killing it would leave its curl running)
stop_spinners() {
  : >"$WORK/stop"
  for p in "${SPIN_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  SPIN_PIDS=()
  rm -f "$WORK/stop"
}
trap '[ -d "$WORK" ] && stop_spinners; kill -TERM $NODE 2>/dev/null || true; wait $NODE 2>/dev/null || true; rm -rf "$WORK"' EXIT
URL="http://127.0.0.1:$PORT"
for _ in $(seq 1 180); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/hello")" = 200 ] && break
  sleep 1
done
[ "$(curl -s "$URL/hello")" = hello ] || { echo "runaway: the node did not serve /hello (see $OUT/node.log)" >&2; exit 1; }

# one spinner: back-to-back requests that each spin until the budget stops them
spinner() {
  local path=$1
  while [ ! -f "$WORK/stop" ]; do
    curl -s -o /dev/null --max-time 60 "$URL$path" || true
  done
}

# measured: paced wrk over the counters, then over /hello; prints the BENCH line's fields
measure() {
  local phase=$1 round=$2 target=$3 file
  file="$OUT/wrk/$phase.$target.$round.txt"
  if [ "$target" = counter ]; then
    BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES BENCH_PACE_MS=$PACE_MS \
      wrk -t"$CONNS" -c"$CONNS" -d"${SECONDS_PER}s" --timeout 30s -s bench/wrk/load.lua "$URL/" >"$file" 2>&1
  else
    BENCH_PACE_MS=$PACE_MS wrk -t"$CONNS" -c"$CONNS" -d"${SECONDS_PER}s" --timeout 30s -s bench/wrk/load.lua "$URL/hello" >"$file" 2>&1
  fi
  local line
  line=$(grep '^BENCH ' "$file" || echo "BENCH requests=0 seconds=1 non2xx=0 sockerr=0 p50_us=0 p90_us=0 p99_us=0 max_us=0")
  printf '%s\t%s\t%s\t%s\n' "$phase" "$target" "$round" "${line#BENCH }" | tee -a "$OUT/summary.tsv"
}

# warm-up: the counters and /hello compiled before anything is measured
BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES wrk -t2 -c8 -d"${WARMUP}s" -s bench/wrk/load.lua "$URL/" >"$OUT/wrk/warmup.txt" 2>&1
wrk -t2 -c8 -d"$((WARMUP / 3 + 1))s" -s bench/wrk/load.lua "$URL/hello" >>"$OUT/wrk/warmup.txt" 2>&1
# and one stopped spin of each kind, so the first measured runaway is not the first interrupt
curl -s -o /dev/null --max-time 60 "$URL/spin/warm" || true
curl -s -o /dev/null --max-time 60 "$URL/spin" || true

printf 'phase\ttarget\tround\tresult\n' >"$OUT/summary.tsv"
for round in $(seq 1 "$ROUNDS"); do
  for phase in quiet runaway-do runaway-worker; do
    case $phase in
      runaway-do) for s in $(seq 1 "$SPINNERS"); do spinner "/spin/runaway$s" & SPIN_PIDS+=($!); done; sleep 1 ;;
      runaway-worker) for _ in $(seq 1 "$SPINNERS"); do spinner "/spin" & SPIN_PIDS+=($!); done; sleep 1 ;;
    esac
    measure "$phase" "$round" counter
    measure "$phase" "$round" hello
    stop_spinners
  done
done
grep -c 'js.event.stopped' "$OUT/node.log" | sed 's/^/stopped spins: /' | tee -a "$OUT/summary.tsv"
echo "runaway: results in $OUT"
