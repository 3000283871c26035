#!/usr/bin/env bash
# Makes sure the Debian packages mesogpu builds with are installed. As root it installs
# what is missing with apt-get; otherwise it names the missing packages and stops.
set -euo pipefail
PACKAGES=(g++ make cmake ca-certificates libopenmpi-dev openmpi-bin libgtest-dev libgmock-dev
          libyaml-dev libpng-dev zlib1g-dev gawk python3 python3-numpy python3-scipy)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "[deps] installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "[deps] ERROR: missing Debian packages: ${missing[*]}" >&2
  echo "[deps] install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
