#!/usr/bin/env bash
# The Web Platform Tests subset (plugins/js-graal/README.md, "Web Platform Tests subset").
#
#   WPT_DIR=/path/to/wpt plugins/js-graal/wpt/run.sh [area...]
#
# area: url, encoding, streams, fetch, WebCryptoAPI (or any path prefix of subset.txt lines);
# none: all of subset.txt. Runs the files on cellgate (WptSubsetRun, through Maven, offline:
# the other modules come from ~/.m2), then, when miniflare is at hand, the very same generated
# modules on workerd (miniflare-run.mjs; CELLGATE_NPM_TOOLS names a folder whose node_modules
# holds miniflare; WPT_WORKERD=0 skips it). Results: plugins/js-graal/target/wpt/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${WPT_DIR:?set WPT_DIR to a checkout of https://github.com/web-platform-tests/wpt}"
wpt_dir=$(cd "$WPT_DIR" && pwd)
areas=$(IFS=,; echo "$*")
out="$repo/plugins/js-graal/target/wpt"
rm -rf "$out"
(cd "$repo" && mvn -o -q -pl plugins/js-graal test -Dtest=WptSubsetRun -Dsurefire.failIfNoSpecifiedTests=false \
    -Dwpt.dir="$wpt_dir" -Dwpt.areas="$areas" ${WPT_ONLY:+-Dwpt.only="$WPT_ONLY"})
echo "== cellgate"
cat "$out/summary.md"
if [ "${WPT_WORKERD:-1}" != 0 ]; then
  tools="${CELLGATE_NPM_TOOLS:-$repo/.ci/npm-tools}"
  if [ -d "$tools/node_modules/miniflare" ]; then
    NODE_PATH="$tools/node_modules" node "$here/miniflare-run.mjs" "$out" "$tools/node_modules"
  else
    echo "(no miniflare under $tools/node_modules: workerd reference skipped)"
  fi
fi
