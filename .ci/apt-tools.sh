#!/usr/bin/env bash
# Installs the Debian packages the tests need. Idempotent: a package already installed is not
# fetched again, and `apt-get update` runs only when something is missing. Uses sudo only when
# not root. Prints what it found or installed.
#
#   chromium  headless browser driven by playwright-core (.ci/npm-tools.sh) in DashboardIT;
#             tests launch /usr/bin/chromium
#   fonts-dejavu-core  so the page renders text in screenshots
#   nginx-light, libnginx-mod-stream  an L4 (stream) load balancer in front of a test fleet
#   libfaketime  runs one node of ClockSkewIT with its clock 8 s ahead or behind (LD_PRELOAD)
#   wabt      wat2wasm: the WebAssembly modules of the js-graal tests are built from .wat text
#   clang, lld  clang --target=wasm32 and wasm-ld: one of those modules is compiled from C
#   openjdk-17-jre-headless  an older Java: JavaVersionGateIT checks gateway.jar refuses it in one line
#   systemd   systemd-analyze verify checks gateway/packaging/systemd/cellgate.service (PackagingTest);
#             only the tool is used, nothing is started
#   umoci     gateway/packaging/oci/build-image.sh builds the OCI image without a container daemon
#   jq, curl, python3  gateway/packaging/oci/smoke-test.sh reads the image's config, enters it, asks the node
set -euo pipefail

PACKAGES=(chromium fonts-dejavu-core nginx-light libnginx-mod-stream libfaketime wabt clang lld openjdk-17-jre-headless systemd umoci jq curl python3)

if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null; then
  SUDO=(sudo -n)
else
  echo "apt-tools: not root and no sudo: cannot install ${PACKAGES[*]}" >&2
  exit 1
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for p in "${PACKAGES[@]}"; do
  if installed "$p"; then
    echo "apt-tools: $p $(dpkg-query -W -f='${Version}' "$p") already installed"
  else
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "apt-tools: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for p in "${PACKAGES[@]}"; do
  installed "$p" || { echo "apt-tools: $p did not install" >&2; exit 1; }
done
[[ -x /usr/bin/chromium ]] || { echo "apt-tools: /usr/bin/chromium is missing after install" >&2; exit 1; }
echo "apt-tools: chromium at /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
