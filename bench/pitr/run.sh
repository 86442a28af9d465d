#!/usr/bin/env bash
# Point-in-time recovery (issue 25, item 5): restore time of a cell to a point 1 day and 29 days back,
# and bucket bytes kept per GB written per day of retention, over a simulated month (a fake clock
# stamps the commits; the bucket and the data are real).
#
#   bench/pitr/run.sh --bucket file:///tmp/pitr-bench
#   bench/pitr/run.sh --bucket s3://test-bucket/pitr --plugins plugins/store-s3/target   # source the s3.env first
#
# Options: --mb 100 (cell size)  --daily-mb 4 (rewritten per simulated day)  --days 30  --repeat 3
# The numbers go to bench/RESULTS.md by hand (the lead records them).
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
MVN="mvn -B -q -o ${MVN_REPO:+-Dmaven.repo.local=$MVN_REPO}"
CP_FILE=plugins/replicator-wal/target/bench-classpath.txt
$MVN -pl plugins/replicator-wal -am -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile="$PWD/$CP_FILE" -Dmdep.includeScope=test
CP="runtime-core/target/classes:plugins/replicator-wal/target/classes:$(cat "$CP_FILE")"
exec "$JAVA_HOME/bin/java" -Xmx2g --enable-native-access=ALL-UNNAMED -Dlogback.configurationFile=bench/pitr/logback.xml \
    -cp "$CP" bench/pitr/PitrBench.java "$@"
