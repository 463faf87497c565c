#!/usr/bin/env bash
# Installs what assay needs on Debian 12 (all from Debian's packages). Idempotent.
set -euo pipefail
pkgs=(meson ninja-build pkg-config g++ clang-14 libclang-rt-14-dev clang-format-14 python3
      libboost1.81-dev libbotan-2-dev libxxhash-dev zlib1g-dev libyaml-cpp-dev
      libcli11-dev doctest-dev libbenchmark-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
