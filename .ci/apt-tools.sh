#!/usr/bin/env bash
# Installs the Debian packages the tests need, when missing (idempotent):
#   nginx-light + libnginx-mod-stream   an L4 (stream) load balancer in front of a test fleet
# Uses sudo only when not root.
set -euo pipefail
want=(nginx-light libnginx-mod-stream)
present=(/usr/sbin/nginx /usr/lib/nginx/modules/ngx_stream_module.so)
missing=()
for i in "${!want[@]}"; do
  [ -e "${present[$i]}" ] || missing+=("${want[$i]}")
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
