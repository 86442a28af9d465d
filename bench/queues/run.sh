#!/usr/bin/env bash
# Queue throughput end to end on one node (issue 23 item 2), side by side with miniflare: the Worker
# bench/queues/worker sends --messages messages in sendBatch calls of --batch from one request (each
# call resolves once the messages are in the queue's cell, durable), and its own queue() handler
# consumes them in batches of 100, counting in a Durable Object. A round is timed from the first send
# until the count has them all; produce_ms is the producing request alone.
#
#   bench/queues/run.sh [--messages 2000] [--batch 100] [--rounds 3] [--port 18690]
#
# Needs a packaged build (gateway.jar, deploy-tool.jar), .ci/npm-tools.sh (miniflare, esbuild) or
# CELLGATE_NPM_TOOLS. Take the bench lock: flock /tmp/cellgate-bench.lock bench/queues/run.sh
# Writes bench/results/queues-<timestamp>/{summary.tsv,node.log}.
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
MESSAGES=2000 BATCH=100 ROUNDS=3 PORT=18690
while [ $# -gt 0 ]; do
  case "$1" in
    --messages) MESSAGES=$2; shift 2 ;;
    --batch) BATCH=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
TOOLS=${CELLGATE_NPM_TOOLS:-$PWD/.ci/npm-tools}
MF=$TOOLS/node_modules/miniflare/dist/src/index.js
[ -f "$MF" ] || { echo "queues: no miniflare under $TOOLS (bash .ci/npm-tools.sh)" >&2; exit 2; }
[ -f gateway/target/gateway.jar ] || { echo "queues: no gateway/target/gateway.jar: mvn -B -q package -DskipTests" >&2; exit 2; }
export CELLD_ESBUILD=${CELLD_ESBUILD:-$TOOLS/node_modules/.bin/esbuild}
OUT=bench/results/queues-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/queues-bench.XXXXXX)
deploy-tool/deploy-tool push bench/queues/worker --bucket "file://$WORK/bucket" >"$OUT/push.log" 2>&1 \
  || { cat "$OUT/push.log" >&2; exit 1; }
CELLD_NODE=bench CELLD_BUCKET="file://$WORK/bucket" CELLD_ADDR="127.0.0.1:$PORT" CELLD_INTERNAL_ADDR="127.0.0.1:$((PORT + 1))" \
  CELLD_WATCH="$WORK/node" CELLD_LOG_FORMAT=text \
  java -Xmx2g -jar gateway/target/gateway.jar >"$OUT/node.log" 2>&1 &
NODE=$!
trap 'kill $NODE 2>/dev/null; wait $NODE 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$PORT/__celld/health" >/dev/null 2>&1 && break
  sleep 0.2
done
ms() { date +%s%3N; }
count() { curl -sf "http://127.0.0.1:$PORT/count"; }
printf 'system\tround\tmessages\tproduce_ms\tend_to_end_ms\tmsgs_per_s\n' >"$OUT/summary.tsv"
# one warm-up round on each side (not recorded): the first cells, the first compilations
curl -sf "http://127.0.0.1:$PORT/produce?n=$BATCH&batch=$BATCH" >/dev/null
until [ "$(count)" -ge "$BATCH" ]; do sleep 0.05; done
for r in $(seq 1 "$ROUNDS"); do
  before=$(count)
  t0=$(ms)
  curl -sf "http://127.0.0.1:$PORT/produce?n=$MESSAGES&batch=$BATCH" >/dev/null
  t1=$(ms)
  until [ "$(count)" -ge $((before + MESSAGES)) ]; do sleep 0.02; done
  t2=$(ms)
  printf 'cellgate\t%s\t%s\t%s\t%s\t%s\n' "$r" "$MESSAGES" $((t1 - t0)) $((t2 - t0)) $((MESSAGES * 1000 / (t2 - t0))) >>"$OUT/summary.tsv"
done
node bench/queues/miniflare.mjs "file://$MF" "$PWD/bench/queues/worker" "$MESSAGES" "$BATCH" "$ROUNDS" | nl -w1 | while read -r r p t s; do
  printf 'miniflare\t%s\t%s\t%s\t%s\t%s\n' "$r" "$MESSAGES" "$p" "$t" "$s" >>"$OUT/summary.tsv"
done
column -t "$OUT/summary.tsv"
echo "results: $OUT"
