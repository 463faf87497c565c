#!/usr/bin/env bash
# Times `assay jcs DOC` against the npm package `canonicalize` (Node.js) on the same ~25 MiB
# evidence document, checks that both print the same bytes, and prints both times and the ratio.
#
#   bench/jcs_vs_canonicalize.sh [ASSAY_BINARY]        default: build/examples/assay
#
# Environment:
#   GEN_DOC        the gen_doc program (default: bench/gen_doc in the build directory of
#                  ASSAY_BINARY, i.e. ASSAY_BINARY/../../bench/gen_doc, present when that build
#                  was configured with -Dbench=true; else bench/gen_doc.cpp is compiled with $CXX)
#   DOC_BYTES      document size (default: gen_doc's, 25 MiB)
#   RUNS           timed runs of each command (default 10), after one warm-up run
#   CANONICALIZE   npm package spec (default canonicalize@5.1.0)
#   GOAL           the ratio the project aims at (default 20); reported, not enforced
#   KEEP_TMP=1     keep the temporary directory (document, outputs, timings)
#
# Times the two commands alternately with `date +%s%N`. Needs node and npm (the
# package is installed with `npm install --no-save --prefix` into a temporary directory).
# Exit status: 0 when the outputs are byte-identical, 1 when they differ, 2 on setup errors.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
assay=${1:-$root/build/examples/assay}
runs=${RUNS:-10}
package=${CANONICALIZE:-canonicalize@5.1.0}
goal=${GOAL:-20}

die() { echo "jcs_vs_canonicalize: $*" >&2; exit 2; }

[[ -x $assay ]] || die "no assay binary at $assay (build it: meson setup build -Dbench=true && ninja -C build)"
assay=$(cd "$(dirname "$assay")" && pwd)/$(basename "$assay")
gen_doc=${GEN_DOC:-$(dirname "$(dirname "$assay")")/bench/gen_doc}
command -v node >/dev/null || die "node is not installed"
command -v npm >/dev/null || die "npm is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/assay-jcs-bench.XXXXXX")
cleanup() { if [[ ${KEEP_TMP:-0} == 1 ]]; then echo "kept $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT

if [[ ! -x $gen_doc ]]; then
  # No -Dbench=true build: gen_doc is one standard-library file, compile it here.
  echo "== no gen_doc at $gen_doc; compiling bench/gen_doc.cpp"
  gen_doc=$tmp/gen_doc
  "${CXX:-c++}" -std=c++20 -O2 -o "$gen_doc" "$here/gen_doc.cpp" || die "cannot compile gen_doc (set GEN_DOC)"
fi

echo "== installing $package"
npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$tmp/npm" "$package" >/dev/null \
  || die "npm install $package failed"
# The package's entry point as a file URL; works for the CommonJS (<= 2.x) and ESM (>= 3) releases.
CANON_URL=$(cd "$tmp/npm" && node --input-type=module -e "
  import { createRequire } from 'node:module';
  import { pathToFileURL } from 'node:url';
  import { readFileSync } from 'node:fs';
  import { join, dirname } from 'node:path';
  const dir = join(process.cwd(), 'node_modules', 'canonicalize');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  let entry = pkg.main || 'index.js';
  const e = pkg.exports && (pkg.exports['.'] ?? pkg.exports);
  if (e && typeof e === 'object') entry = e.import ?? e.default ?? e.require ?? entry;
  else if (typeof e === 'string') entry = e;
  console.log(pathToFileURL(join(dir, entry)).href);
  console.error('canonicalize ' + pkg.version + ' (' + (pkg.type || 'commonjs') + '), node ' + process.version);
") || die "cannot locate the canonicalize entry point"
export CANON_URL

# Read the file, JSON.parse, canonicalize, write the string to stdout.
# (A plain string, exported: the timed commands expand it themselves.)
# shellcheck disable=SC2089,SC2090
NODE_JCS="
  const m = await import(process.env.CANON_URL);
  const canonicalize = typeof m.default === 'function' ? m.default : m.default.default;
  const text = (await import('node:fs')).readFileSync(process.argv[1], 'utf8');
  process.stdout.write(canonicalize(JSON.parse(text)));
"
# shellcheck disable=SC2090
export NODE_JCS

doc=$tmp/evidence.json
echo "== generating the document"
gen_args=("$doc")
if [[ -n ${DOC_BYTES:-} ]]; then gen_args+=("$DOC_BYTES"); fi
"$gen_doc" "${gen_args[@]}" || die "gen_doc failed"
doc_bytes=$(stat -c %s "$doc")

assay_cmd="\"$assay\" jcs \"$doc\""
node_cmd="node --input-type=module -e \"\$NODE_JCS\" \"$doc\""

echo "== checking the outputs"
"$assay" jcs "$doc" >"$tmp/assay.out" || die "assay jcs failed"
node --input-type=module -e "$NODE_JCS" "$doc" >"$tmp/node.out" || die "the node script failed"
same=1
if ! cmp "$tmp/assay.out" "$tmp/node.out"; then
  same=0
  echo "!! OUTPUTS DIFFER (assay $(stat -c %s "$tmp/assay.out") bytes, canonicalize $(stat -c %s "$tmp/node.out") bytes)" >&2
  KEEP_TMP=1
fi

# Mean and least wall time in seconds of each command, RUNS timed runs each: a run of one is
# followed by a run of the other, the order swapped each time, so that a slow spell of a shared
# machine falls on both alike (timing one command's runs, then the other's, turned the ratio
# around from one run of this script to the next on a busy virtual machine). Each timed run
# comes straight after an untimed run of the same command: on a virtual machine a process that
# starts after the other command (or after a pause) ran up to half again as long as one that
# starts after itself.
alternate() {
  local a=$1 b=$2 i t0 t1
  : >"$tmp/a.times"
  : >"$tmp/b.times"
  for ((i = 0; i < runs; i++)); do
    for which in $([[ $((i % 2)) -eq 0 ]] && echo "a b" || echo "b a"); do
      local cmd=$a
      [[ $which == b ]] && cmd=$b
      sh -c "$cmd" >/dev/null
      t0=$(date +%s%N)
      sh -c "$cmd" >/dev/null
      t1=$(date +%s%N)
      echo $((t1 - t0)) >>"$tmp/$which.times"
    done
  done
  for which in a b; do
    awk '{ s += $1; if (min == "" || $1 < min) min = $1 } END { printf "%.6f %.6f ", s / NR / 1e9, min / 1e9 }' \
      "$tmp/$which.times"
  done
  echo
}

echo "== timing ($runs runs each, alternating, document $doc_bytes bytes)"
read -r assay_mean assay_min node_mean node_min < <(alternate "$assay_cmd" "$node_cmd")

awk -v am="$assay_mean" -v an="$assay_min" -v nm="$node_mean" -v nn="$node_min" -v b="$doc_bytes" -v goal="$goal" '
  BEGIN {
    printf "\n%-22s %10s %10s %10s\n", "", "mean s", "min s", "MB/s"
    printf "%-22s %10.3f %10.3f %10.1f\n", "assay jcs", am, an, b / am / 1e6
    printf "%-22s %10.3f %10.3f %10.1f\n", "canonicalize (node)", nm, nn, b / nm / 1e6
    printf "ratio (canonicalize / assay): %.2fx by mean, %.2fx by min; goal %sx: %s\n",
      nm / am, nn / an, goal, (nm / am >= goal ? "met" : "NOT met")
  }'

if [[ $same -ne 1 ]]; then
  echo "outputs differ: see $tmp/assay.out and $tmp/node.out" >&2
  exit 1
fi
echo "outputs identical ($(stat -c %s "$tmp/assay.out") bytes)"
