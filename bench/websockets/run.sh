#!/usr/bin/env bash
# Open hibernated WebSockets per GB: one node (the packaged gateway.jar) serving examples/chat on
# a fresh file:// bucket, N sockets over R rooms (filled one room after another), rooms
# hibernated, live heap and RSS measured. The per-socket cost includes each room's share of its
# resident cell (database, replica): fewer rooms give a number closer to the socket alone.
#
#   bench/websockets/run.sh [--sockets 5000] [--rooms 50] [--port 18580]
#
# Needs a packaged build (mvn -B -q package -DskipTests) and .ci/npm-tools.sh (esbuild, for push).
# Fan-out messages/s for one room comes from ChatFleetIT (it prints "chat fan-out: ..."):
#   mvn -B verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ChatFleetIT \
#       -Dws.clients=1000 -Dws.senders=50 -Dws.messages=10
# (deliveries/s = room messages x members / time; the IT's defaults are 20 senders x 5 messages.)
# The numbers go to bench/websockets/RESULTS.md, then bench/RESULTS.md (the lead records them).
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
SOCKETS=5000 ROOMS=50 PORT=18580
while [ $# -gt 0 ]; do
  case "$1" in
    --sockets) SOCKETS=$2; shift 2 ;;
    --rooms) ROOMS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
WORK=$(mktemp -d /tmp/ws-bench.XXXXXX)
deploy-tool/deploy-tool push examples/chat --bucket "file://$WORK/bucket" >/dev/null
CELLD_NODE=bench CELLD_BUCKET="file://$WORK/bucket" CELLD_ADDR="127.0.0.1:$PORT" CELLD_INTERNAL_ADDR="127.0.0.1:$((PORT + 1))" \
  CELLD_WATCH="$WORK/node" CELLD_IDLE_EVICT_MS=2000 CELLD_LOG_FORMAT=text \
  java -Xmx2g -jar gateway/target/gateway.jar >"$WORK/node.log" 2>&1 &
LAUNCHER=$!
trap 'kill -TERM $LAUNCHER 2>/dev/null || true; wait $LAUNCHER 2>/dev/null || true' EXIT
for _ in $(seq 1 180); do
  curl -sf "127.0.0.1:$PORT/__celld/health" >/dev/null && break
  sleep 1
done
# The JIT relaunch runs the node in a child JVM: measure that one.
CHILD=$(pgrep -P "$LAUNCHER" java || echo "$LAUNCHER")
python3 bench/websockets/hibernated_sockets.py --public "127.0.0.1:$PORT" --internal "127.0.0.1:$((PORT + 1))" \
  --pid "$CHILD" --sockets "$SOCKETS" --rooms "$ROOMS"
