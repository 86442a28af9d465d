#!/usr/bin/env bash
# Restore time (1, 16, 100 MiB cells) and per-write latency vs a raw PUT for the `wal` replicator.
#
#   bench/restore/run.sh --bucket file:///tmp/bench-bucket
#   bench/restore/run.sh --bucket s3://test-bucket/bench --plugins plugins/store-s3/target   # after start-s3.sh; source its s3.env
#
# Options: --sizes 1,16,100  --writes 300  --rounds 3 (latency rounds; the first warms the JIT)  --repeat 3  --option NAME=VALUE (store option, repeatable)
# The numbers go to bench/RESULTS.md by hand (the lead records them).
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
MVN="mvn -B -q -o"
CP_FILE=plugins/replicator-wal/target/bench-classpath.txt
# One reactor run: package (never install), then each module writes its class path; replicator-wal's comes last.
$MVN -pl plugins/replicator-wal -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile="$PWD/$CP_FILE" -Dmdep.includeScope=test
CP="runtime-core/target/classes:plugins/replicator-wal/target/classes:$(cat "$CP_FILE")"
exec "$JAVA_HOME/bin/java" -Xmx2g --enable-native-access=ALL-UNNAMED -Dlogback.configurationFile=bench/restore/logback.xml \
    -cp "$CP" bench/restore/RestoreBench.java "$@"
