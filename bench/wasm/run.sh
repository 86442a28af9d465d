#!/usr/bin/env bash
# Chicory's interpreter against its compiler on cellgate's linear memory (WasmModes.java).
#   bash bench/wasm/run.sh [rounds]      (needs wat2wasm: .ci/apt-tools.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -pl plugins/js-graal -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/wasm-cp.txt -Dmdep.includeScope=test
"${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java" -cp "plugins/js-graal/target/test-classes:plugins/js-graal/target/classes:$(cat /tmp/wasm-cp.txt)" \
  dev.cellgate.js.graal.bench.WasmModes "${1:-20}" bench/wasm/work.wat
