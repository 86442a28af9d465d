# Installs what the bench needs and builds cellgate (sourced by run.sh after common.sh).
#   wrk (Debian apt), miniflare $MINIFLARE_VERSION (npm, under bench/.peers: it carries the
#   workerd binary we run raw), cellgate (mvn package, never install).

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

install_apt_tools() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v curl >/dev/null || missing+=(curl)
  command -v python3 >/dev/null || missing+=(python3)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_peers() {
  command -v npm >/dev/null || die "node and npm are required (Node 20+) to install miniflare"
  local have tools=${CELLGATE_NPM_TOOLS:-}
  have=$(node -p "try{require('$PEERS_DIR/node_modules/miniflare/package.json').version}catch(e){''}")
  # The repo's own npm tools (.ci/npm-tools.sh, CELLGATE_NPM_TOOLS) carry the same miniflare:
  # use them rather than a second install when bench/.peers has none.
  if [ "$have" != "$MINIFLARE_VERSION" ] && [ -n "$tools" ] \
    && [ "$(node -p "try{require('$tools/node_modules/miniflare/package.json').version}catch(e){''}")" = "$MINIFLARE_VERSION" ]; then
    log "using miniflare $MINIFLARE_VERSION from CELLGATE_NPM_TOOLS ($tools)"
    PEERS_DIR=$tools
    WORKERD_BIN=$PEERS_DIR/node_modules/@cloudflare/workerd-linux-64/bin/workerd
    have=$MINIFLARE_VERSION
  fi
  if [ "$have" != "$MINIFLARE_VERSION" ]; then
    log "npm install miniflare@$MINIFLARE_VERSION into $PEERS_DIR"
    mkdir -p "$PEERS_DIR"
    # A manifest of our own keeps npm from walking up into another project.
    [ -f "$PEERS_DIR/package.json" ] || echo '{"name":"cellgate-bench-peers","private":true,"type":"module"}' >"$PEERS_DIR/package.json"
    # miniflare declares engines node>=22 but runs on Node 20: npm only warns (EBADENGINE).
    (cd "$PEERS_DIR" && npm install --no-audit --no-fund --save-exact --loglevel=error "miniflare@$MINIFLARE_VERSION") >&2
  fi
  [ -x "$WORKERD_BIN" ] || die "workerd binary missing after npm install: $WORKERD_BIN"
}

build_cellgate() {
  [ -x "$JAVA" ] || die "JDK not found at $JAVA_HOME (set JAVA_HOME to a Temurin 25 JDK)"
  log "building cellgate in $CELLGATE_SRC (mvn package -DskipTests)"
  (cd "$CELLGATE_SRC" && mvn -B -q ${MVN_OPTS:-} package -DskipTests) >&2 || die "cellgate build failed"
  [ -f "$CELLGATE_SRC/gateway/target/gateway.jar" ] || die "gateway.jar missing after the build"
}

install_all() {
  install_apt_tools
  # deploy-tool bundles bench/site with esbuild: the repo's npm tools carry it (and the same miniflare)
  if [ -z "${CELLGATE_NPM_TOOLS:-}" ]; then
    bash "$BENCH_DIR/../.ci/npm-tools.sh" >&2 || die "installing the repo's npm tools (.ci/npm-tools.sh) failed"
    export CELLGATE_NPM_TOOLS=$BENCH_DIR/../.ci/npm-tools
  fi
  install_peers
  if [ "${SKIP_BUILD:-0}" = 1 ] && [ -f "$CELLGATE_SRC/gateway/target/gateway.jar" ]; then
    log "SKIP_BUILD=1: using the existing $CELLGATE_SRC/gateway/target/gateway.jar"
  else
    build_cellgate
  fi
}

versions_line() {
  local mf wd wrkv
  mf=$(node -p "require('$PEERS_DIR/node_modules/miniflare/package.json').version")
  wd=$(node -p "require('$PEERS_DIR/node_modules/@cloudflare/workerd-linux-64/package.json').version")
  wrkv=$({ wrk -v 2>&1 || true; } | head -1 | awk '{print $2}')
  echo "workerd $wd (from miniflare $mf), node $(node -v), $("$JAVA" -version 2>&1 | head -1 | tr -d '"'), wrk $wrkv"
}
