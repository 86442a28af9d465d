#!/usr/bin/env bash
# Runs cellgate on its embedded default: a local directory bucket (./cellgate-data/bucket),
# the examples/hello Worker deployed to it, one node on 127.0.0.1:8080. Builds first if needed.
#   bash examples/start.sh            # then: curl 127.0.0.1:8080/hello
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ ! -f gateway/target/gateway.jar ] || [ ! -f deploy-tool/target/deploy-tool.jar ]; then
  echo "[start] building cellgate (first run: downloads dependencies, a few minutes)" >&2
  mvn -B -q -Dstyle.color=never package -DskipTests
fi
echo "[start] deploying examples/hello to file://./cellgate-data/bucket" >&2
deploy-tool/deploy-tool push examples/hello --bucket file://./cellgate-data/bucket
export CELLD_LOG_FORMAT=${CELLD_LOG_FORMAT:-text}
# The internal listener (peers + operator API) gets a fixed port here so it can be found.
export CELLD_INTERNAL_ADDR=${CELLD_INTERNAL_ADDR:-127.0.0.1:8081}
echo "[start] starting a node on 127.0.0.1:8080 (Ctrl-C stops it)" >&2
echo "[start] operator API on http://$CELLD_INTERNAL_ADDR: /dashboard, /state, /metrics (docs/operations.md)" >&2
exec "$JAVA_HOME/bin/java" -jar gateway/target/gateway.jar "$@"
