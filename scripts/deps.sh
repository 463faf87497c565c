#!/usr/bin/env bash
# Installs what assay needs on Debian 12 (all from Debian's packages; and, when npm is there, the
# SARIF validator of one optional test). Idempotent.
set -euo pipefail
pkgs=(meson ninja-build pkg-config g++ clang-14 libclang-rt-14-dev clang-format-14 python3
      libboost1.81-dev libbotan-2-dev libxxhash-dev zlib1g-dev libyaml-dev
      libcli11-dev doctest-dev libbenchmark-dev openssl libisal-dev parallel
      python3-jsonschema python3-yaml time groff-base)
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

# Optional: the SARIF 2.1.0 validator the sarif_schema test uses (npm @microsoft/sarif-multitool and
# the OASIS schema as @microsoft/jest-sarif ships it), into build-tools/sarif, and only when that
# test can run: it validates what lint writes for the reference's bundles and packs, so without
# the conformance data (../shared/conformance beside the checkout, or ASSAY_CONFORMANCE_DIR) it is
# skipped and the 107 MB are not fetched. Without npm, or when the install fails, it is skipped too.
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/build-tools/sarif"
conformance="${ASSAY_CONFORMANCE_DIR:-$root/../shared/conformance}"
if command -v npm >/dev/null 2>&1 && [ -d "$conformance/assay-upstream/packs" ] &&
    [ ! -d "$tools/node_modules/@microsoft/jest-sarif" ]; then
  npm install --prefix "$tools" --no-audit --no-fund --no-save \
    @microsoft/sarif-multitool@5.7.0 @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1 ||
    echo "npm could not install the SARIF validator: the sarif_schema test will be skipped" >&2
fi
