#!/usr/bin/env bash
# Checks a unit file with systemd-analyze verify, strictly: systemd-analyze only warns about an
# unknown or misspelt key ("Unknown key 'TimeoutStopSecs' ... ignoring") and exits 0, and systemd
# would then run the unit without that setting. Here every line it prints is a failure.
#   verify-unit.sh UNIT...   exit 0: clean; 1: problems (printed); 2: systemd-analyze missing
set -uo pipefail
command -v systemd-analyze >/dev/null || { echo "verify-unit: systemd-analyze not found (Debian package systemd)" >&2; exit 2; }
status=0
for unit in "$@"; do
  out=$(systemd-analyze verify --man=no "$unit" 2>&1); rc=$?
  if [[ $rc -ne 0 || -n "$out" ]]; then
    echo "INVALID $unit (systemd-analyze exit $rc):"
    printf '%s\n' "$out" | sed 's/^/  /'
    status=1
  else
    echo "verify-unit: $unit clean"
  fi
done
exit $status
