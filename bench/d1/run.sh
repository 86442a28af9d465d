#!/usr/bin/env bash
# D1 query latency (issue 23), side by side with miniflare: the Worker bench/d1/worker on one
# cellgate node (file bucket, java -jar) and on miniflare (workerd; bench/tools/miniflare-serve.mjs,
# PROJECT=d1, state on disk), both over HTTP from the same client (bench/tools/probe.py: one
# keep-alive connection, one request at a time). Per system and round: N writes (an upsert of a new
# key each: durable before the answer on cellgate), N reads of those keys, N batches (upsert + select
# in one transaction), N /hello (no D1: the request's own cost). One warm-up round first, not printed.
#
#   bash bench/d1/run.sh [--requests 300] [--rounds 3]
#
# Needs a packaged build (gateway.jar, deploy-tool.jar) and .ci/npm-tools.sh (miniflare, esbuild)
# or CELLGATE_NPM_TOOLS. Take the bench lock: flock /tmp/cellgate-bench.lock bash bench/d1/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
N=300 ROUNDS=3 CG_PORT=18700 MF_PORT=18710
while [ $# -gt 0 ]; do
  case "$1" in
    --requests) N=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "d1 bench: unknown option $1" >&2; exit 2 ;;
  esac
done
TOOLS=${CELLGATE_NPM_TOOLS:-$PWD/.ci/npm-tools}
[ -d "$TOOLS/node_modules/miniflare" ] || { echo "d1 bench: no miniflare under $TOOLS (bash .ci/npm-tools.sh)" >&2; exit 2; }
[ -f gateway/target/gateway.jar ] || { echo "d1 bench: no gateway/target/gateway.jar: mvn -B -q package -DskipTests" >&2; exit 2; }
export CELLD_ESBUILD=${CELLD_ESBUILD:-$TOOLS/node_modules/.bin/esbuild}
WORK=$(mktemp -d /tmp/d1-bench.XXXXXX)
deploy-tool/deploy-tool push bench/d1/worker --bucket "file://$WORK/bucket" --progress off >"$WORK/push.log" 2>&1 \
  || { cat "$WORK/push.log" >&2; exit 1; }
CELLD_NODE=d1bench CELLD_BUCKET="file://$WORK/bucket" CELLD_ADDR="127.0.0.1:$CG_PORT" CELLD_INTERNAL_ADDR="127.0.0.1:$((CG_PORT + 1))" \
  CELLD_WATCH="$WORK/node" CELLD_LOG_FORMAT=json java -Xmx2g -jar gateway/target/gateway.jar >"$WORK/node.log" 2>&1 &
CG=$!
PORT=$MF_PORT PERSIST_DIR="$WORK/mf" WORKER=bench/d1/worker/src/index.js PEERS_DIR="$TOOLS" PROJECT=d1 \
  node bench/tools/miniflare-serve.mjs >"$WORK/miniflare.log" 2>&1 &
MF=$!
trap 'kill $CG $MF 2>/dev/null; wait $CG $MF 2>/dev/null || true' EXIT
python3 bench/tools/probe.py ready "http://127.0.0.1:$CG_PORT/hello" hello "$(date +%s%N)" $CG 300 >/dev/null
python3 bench/tools/probe.py ready "http://127.0.0.1:$MF_PORT/hello" hello "$(date +%s%N)" $MF 120 >/dev/null
echo "d1 bench: $N requests per measure, $ROUNDS rounds, commit $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
paths() {  # file route prefix
  for i in $(seq 0 $((N - 1))); do echo "/$2?k=$3$i"; done >"$1"
}
for sys in cellgate:$CG_PORT miniflare:$MF_PORT; do
  curl -sf "http://127.0.0.1:${sys#*:}/setup" >/dev/null
done
for r in $(seq 0 "$ROUNDS"); do
  for sys in cellgate:$CG_PORT miniflare:$MF_PORT; do
    name=${sys%%:*} base=http://127.0.0.1:${sys#*:}
    for route in write read batch hello; do
      paths "$WORK/$route.paths" "$route" "r$r-"
      line=$(python3 bench/tools/probe.py stats "$base" "$WORK/$route.paths")
      [ "$r" -eq 0 ] || echo "round $r $name $route: $line"
    done
  done
done
echo "logs: $WORK"
