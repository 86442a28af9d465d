#!/usr/bin/env bash
# Installs the Debian packages the tests need, when missing (idempotent):
#   nginx-light  an L4 (stream) load balancer in front of a test fleet
# Uses sudo only when not root.
set -euo pipefail
want=(nginx-light)
check=(nginx)
missing=()
for i in "${!want[@]}"; do
  command -v "${check[$i]}" >/dev/null 2>&1 || [ -x "/usr/sbin/${check[$i]}" ] || missing+=("${want[$i]}")
done
if ((${#missing[@]} == 0)); then
  echo "apt-tools: ${want[*]} already installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "apt-tools: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "apt-tools: installed ${missing[*]}"
