#!/usr/bin/env bash
# Runs every figure of the speed table (docs/speed.md) on this machine and prints the table:
#
#   1  json::document strict parse vs simdjson's DOM parse, in one process (bench/json_compare):
#      throughput ratio assay/simdjson on the mixed, numbers and strings documents
#   2  `assay jcs FILE > /dev/null` vs bench/simdjson_minify (parse + simdjson::minify), whole
#      process, on the same three documents (hyperfine): time ratio assay/simdjson, min and median
#   3  `assay jcs` vs npm canonicalize 5.1.0 (bench/jcs_vs_canonicalize.sh): canonicalize/assay
#   4  `assay evidence verify` of a 90,000-event bundle vs `pigz -dc` (bench/bundle_bench.py --pigz)
#   5  `assay evidence bundle` of 90,000 events vs `pigz -9 -p2` of the same tar (same), + peak RSS
#
#   bench/speed_table.sh [BUILD_DIR]      default: build (configured with -Dbench=true, with
#                                         examples/assay, bench/json_compare, bench/simdjson_minify
#                                         and bench/gen_doc built)
# Environment: REPS (runs of each side, default 5; every figure is the least, or also the median
# where said, of REPS runs, both sides measured in the same run), EVENTS (default 90000).
# A row whose tools are missing says "skipped" and why. The load (`uptime`) is printed first:
# the figures mean little on a busy machine.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "speed_table: no build directory ${1:-build}" >&2; exit 2; }
reps=${REPS:-5}
events=${EVENTS:-90000}
assay=$build/examples/assay
compare=$build/bench/json_compare
minify=$build/bench/simdjson_minify

echo "load: $(uptime)"
echo "cpu:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores; REPS=$reps"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/assay-speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
declare -a rows

row() { rows+=("$(printf '| %s | %s | %s |' "$1" "$2" "$3")"); }

# --- 1: in-process parse -----------------------------------------------------------------------
if [[ ! -x $compare ]]; then
  row "json::document parse / simdjson DOM (throughput)" "skipped" "no $compare (configure with -Dbench=true)"
else
  echo; echo "== 1: json_compare --reps $reps"
  "$compare" --reps "$reps" | tee "$tmp/compare.out"
  if grep -q '^RATIO .* simdjson ' "$tmp/compare.out"; then
    r=$(awk '$1 == "RATIO" && $3 == "simdjson" { printf "%s%.2fx", sep, $4; sep = " / " }' "$tmp/compare.out")
    row "json::document parse / simdjson DOM (throughput; mixed / numbers / strings)" "$r" "goal >= 0.8x"
  else
    row "json::document parse / simdjson DOM" "skipped" "json_compare was built without simdjson"
  fi
fi

# --- 2: whole-process jcs vs simdjson minify -----------------------------------------------------
if [[ ! -x $assay || ! -x $minify || ! -x $compare ]]; then
  row "assay jcs / simdjson minify (time)" "skipped" "needs $assay, $minify (simdjson) and $compare"
elif ! command -v hyperfine >/dev/null; then
  row "assay jcs / simdjson minify (time)" "skipped" "hyperfine is not installed"
else
  echo; echo "== 2: assay jcs vs simdjson_minify (hyperfine, $reps runs)"
  "$compare" --write-docs "$tmp" >/dev/null
  mins=() meds=()
  for d in mixed numbers strings; do
    f=$tmp/$d.json
    if ! "$assay" jcs "$f" >/dev/null || ! "$minify" "$f" >/dev/null; then
      echo "!! a program refused $d.json"
      mins+=("refused") meds+=("refused")
      continue
    fi
    hyperfine --warmup 1 --runs "$reps" --style basic --export-json "$tmp/$d.hf.json" \
      -n "assay jcs $d" "\"$assay\" jcs \"$f\"" -n "simdjson_minify $d" "\"$minify\" \"$f\""
    read -r mn md < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("%.2f %.2f" % (r[0]["min"] / r[1]["min"], r[0]["median"] / r[1]["median"]))' "$tmp/$d.hf.json")
    mins+=("${mn}x") meds+=("${md}x")
  done
  joined_min=$(IFS=/; echo "${mins[*]}") joined_med=$(IFS=/; echo "${meds[*]}")
  row "assay jcs / simdjson minify, whole process (time; mixed / numbers / strings)" \
    "min ${joined_min//\// / }; median ${joined_med//\// / }" "goal <= 1.0x"
fi

# --- 3: jcs vs npm canonicalize ----------------------------------------------------------------
if [[ ! -x $assay ]]; then
  row "npm canonicalize / assay jcs (time)" "skipped" "no $assay"
else
  echo; echo "== 3: bench/jcs_vs_canonicalize.sh (RUNS=$reps)"
  RUNS=$reps GOAL=25 "$here/jcs_vs_canonicalize.sh" "$assay" 2>&1 | tee "$tmp/canon.out"
  status=${PIPESTATUS[0]}
  r=$(sed -n 's/^ratio (canonicalize \/ assay): \([0-9.]*x\) by mean, \([0-9.]*x\) by min.*/\2 by min, \1 by mean/p' "$tmp/canon.out")
  if [[ $status -eq 0 && -n $r ]]; then
    row "npm canonicalize 5.1.0 / assay jcs (time, 25 MiB mixed)" "$r" "goal >= 25x"
  else
    row "npm canonicalize / assay jcs" "skipped" "$(tail -1 "$tmp/canon.out")"
  fi
fi

# --- 4, 5: evidence verify and bundle vs pigz ---------------------------------------------------
if [[ ! -x $assay ]]; then
  row "evidence verify / pigz -dc; bundle / pigz -9 -p2" "skipped" "no $assay"
elif ! command -v pigz >/dev/null; then
  row "evidence verify / pigz -dc; bundle / pigz -9 -p2" "skipped" "pigz is not installed"
else
  echo; echo "== 4, 5: bench/bundle_bench.py --pigz --events $events --repeat $reps"
  python3 "$here/bundle_bench.py" "$assay" --pigz --events "$events" --repeat "$reps" | tee "$tmp/bundle.out"
  while read -r _ name t tb ratio rss rssb; do
    if [[ $name == verify ]]; then
      row "assay evidence verify / pigz -dc, $events events (time)" "${ratio}x ($t s vs $tb s)" \
        "goal <= 1.0x; peak RSS $((rss / 1024)) MiB (pigz $((rssb / 1024)) MiB)"
    else
      row "assay evidence bundle / pigz -9 -p2, $events events (time)" "${ratio}x ($t s vs $tb s)" \
        "goal <= 1.0x; peak RSS $((rss / 1024)) MiB, goal <= 64 (pigz $((rssb / 1024)) MiB)"
    fi
  done < <(grep '^ROW ' "$tmp/bundle.out")
  grep -q '^ROW ' "$tmp/bundle.out" || row "evidence verify / bundle vs pigz" "skipped" "bundle_bench.py failed"
fi

echo
echo "load: $(uptime)"
echo "| workload | measured | note |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
