#!/usr/bin/env bash
# Installs the npm packages the tests need into .ci/npm-tools/node_modules (git-ignored through
# the repository's node_modules/ rule). Idempotent: a package already at the pinned version is
# not fetched again. Prints what it installed and where.
#
#   miniflare  runs workerd, the reference for the js-graal differential conformance harness
#   esbuild    bundles Wrangler projects (deploy-tool push DIR, examples)
#   playwright-core  drives Debian's /usr/bin/chromium (.ci/apt-tools.sh) for the dashboard test;
#              playwright-core downloads no browser of its own
#   ignore     the gitignore matcher Wrangler applies to .assetsignore: deploy-tool's differential
#              test asks it which asset files Wrangler would leave out
#   kubernetes-models  the Kubernetes API schemas with their validators: gateway/packaging/k8s-validate/validate-manifests.mjs
#              checks k8s/*.yaml offline (kubectl needs an API server even for a client dry run)
#   yaml       parses those manifests (multi-document YAML) for that validator
#
# Tests find the tools through CELLGATE_NPM_TOOLS (default: <repo>/.ci/npm-tools).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${CELLGATE_NPM_TOOLS:-$ROOT/.ci/npm-tools}"
PACKAGES=("miniflare@4.20260730.0" "esbuild@0.28.2" "playwright-core@1.65.1" "ignore@5.3.1" "kubernetes-models@5.1.0" "yaml@2.9.1")

command -v node >/dev/null || { echo "npm-tools: node is not installed (need Node 20+)" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm-tools: npm is not installed" >&2; exit 1; }

installed_version() {
  local pkg_json="$PREFIX/node_modules/$1/package.json"
  [[ -f "$pkg_json" ]] && node -p "require('$pkg_json').version" 2>/dev/null || true
}

missing=()
for spec in "${PACKAGES[@]}"; do
  name="${spec%@*}"; want="${spec##*@}"
  have="$(installed_version "$name")"
  if [[ "$have" == "$want" ]]; then
    echo "npm-tools: $name $have already installed"
  else
    missing+=("$spec")
  fi
done

if ((${#missing[@]})); then
  mkdir -p "$PREFIX"
  # A private package.json keeps npm from walking up to another project's manifest.
  [[ -f "$PREFIX/package.json" ]] || echo '{"name":"cellgate-npm-tools","private":true}' > "$PREFIX/package.json"
  echo "npm-tools: installing ${missing[*]} into $PREFIX"
  # Name EVERY package, not only the missing ones: with no manifest listing them, npm prunes the
  # packages it was not asked for as extraneous.
  (cd "$PREFIX" && npm install --no-audit --no-fund --no-save --no-package-lock --loglevel=error "${PACKAGES[@]}")
  # Leave only node_modules/ behind, which git ignores.
  rm -f "$PREFIX/package.json"
fi

for spec in "${PACKAGES[@]}"; do
  name="${spec%@*}"; want="${spec##*@}"
  have="$(installed_version "$name")"
  if [[ "$have" != "$want" ]]; then
    echo "npm-tools: $name is at '${have:-absent}', expected $want" >&2
    exit 1
  fi
  echo "npm-tools: $name $have at $PREFIX/node_modules/$name"
done
