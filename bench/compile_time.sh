#!/usr/bin/env bash
# Compile time of the header-only library: CPU seconds (user + sys) and peak memory of
# `$CXX -O2 -std=c++20 -c` on the small programs of bench/compile/, several runs each (min and
# median), printed against the goals.
#
#   bash bench/compile_time.sh [a|b|c|lines]...      (default: all of them)
#
#   (a) soak_assay.cpp: a soak report decoded strictly and encoded canonically, against
#       soak_nlohmann.cpp doing the same with nlohmann-json on plain structs; goal: ratio <= 1.0x
#       (the two are compiled alternately, so load on the machine falls on both alike)
#   (b) consumer.cpp: record a run, write the bundle, verify it, encode a soak report; goal <= 8 s.
#       Measured header-only and with separate compilation (assay/separate.hpp: the library's
#       entry points declared extern, compiled once in assay/instantiate.hpp, which is measured
#       once too; INSTANTIATE=0 skips it)
#   (c) umbrella.cpp: assay/assay.hpp alone; goal <= 6 s; against a baseline compiled alternately
#       with it: the standard and third-party headers the library includes, alone
#   lines: headers under include/ over 900 lines (the house limit)
#
# Environment: CXX (default g++), REPS (runs per program, default 3). CPU time, not wall time:
# a shared machine slows both, but CPU time is what a build farm pays. Exits non-zero only when
# a program fails to compile.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
src=$root/bench/compile
CXX=${CXX:-g++}
REPS=${REPS:-3}
flags=(-O2 -std=c++20 -c -I"$root/include")
goal_a=1.0 goal_b=8 goal_c=6 max_lines=900

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure OUTFILE COMMAND...: appends "cpu_seconds peak_kib" of one run of COMMAND to OUTFILE
# (scripts/timed.sh --raw); a command that fails stops the script with its output.
measure() {
  local out=$1
  shift
  if ! bash "$root/scripts/timed.sh" --raw "$tmp/one" "$@" >"$tmp/log" 2>&1; then
    cat "$tmp/log" >&2
    echo "compile_time.sh: failed: $*" >&2
    exit 1
  fi
  cat "$tmp/one" >>"$out"
}

# stats FILE: "min median peak_mib" over the runs in FILE.
stats() {
  sort -n "$1" | awk '{ t[NR] = $1; if ($2 > m) m = $2 }
    END { med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
          printf "%.2f %.2f %d\n", t[1], med, m / 1024 }'
}

# line LABEL FILE: one result line.
line() {
  read -r min med mib < <(stats "$2")
  printf '  %-50s min %6.2f s  median %6.2f s  peak %5d MiB\n' "$1" "$min" "$med" "$mib"
}

# verdict VALUE GOAL: "met" or "MISSED".
verdict() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "met" : "MISSED" }'; }

deps_flags() { pkg-config --cflags botan-2 libxxhash zlib; }

run_a() {
  echo "(a) soak report: strict decode + canonical encode"
  local have_nlohmann=1
  if ! printf '#include <nlohmann/json.hpp>\n' | "$CXX" -std=c++20 -fsyntax-only -x c++ - 2>/dev/null; then
    have_nlohmann=0
  fi
  : >"$tmp/a_assay" && : >"$tmp/a_nlohmann"
  for _ in $(seq "$REPS"); do
    measure "$tmp/a_assay" "$CXX" "${flags[@]}" "$src/soak_assay.cpp" -o "$tmp/a.o"
    if [ $have_nlohmann = 1 ]; then
      measure "$tmp/a_nlohmann" "$CXX" "${flags[@]}" "$src/soak_nlohmann.cpp" -o "$tmp/n.o"
    fi
  done
  line "assay (bench/compile/soak_assay.cpp)" "$tmp/a_assay"
  if [ $have_nlohmann = 0 ]; then
    echo "  nlohmann-json not found (Debian: nlohmann-json3-dev): no baseline, no ratio"
    return
  fi
  line "nlohmann-json (bench/compile/soak_nlohmann.cpp)" "$tmp/a_nlohmann"
  read -r amin amed _ < <(stats "$tmp/a_assay")
  read -r nmin nmed _ < <(stats "$tmp/a_nlohmann")
  local rmin rmed
  rmin=$(awk -v a="$amin" -v n="$nmin" 'BEGIN { printf "%.2f", a / n }')
  rmed=$(awk -v a="$amed" -v n="$nmed" 'BEGIN { printf "%.2f", a / n }')
  printf '  ratio assay / nlohmann: %sx (of the medians %sx); goal <= %sx: %s\n' "$rmin" "$rmed" "$goal_a" \
    "$(verdict "$rmin" "$goal_a")"
}

run_b() {
  echo "(b) small consumer: record, write, verify a bundle; encode a soak report"
  local extra
  read -r -a extra < <(deps_flags)
  : >"$tmp/b" && : >"$tmp/b_sep"
  for _ in $(seq "$REPS"); do  # alternated, so load on the machine falls on both alike
    measure "$tmp/b" "$CXX" "${flags[@]}" "${extra[@]}" "$src/consumer.cpp" -o "$tmp/b.o"
    measure "$tmp/b_sep" "$CXX" "${flags[@]}" -DASSAY_SEPARATE_COMPILATION "${extra[@]}" "$src/consumer.cpp" \
      -o "$tmp/b_sep.o"
  done
  line "bench/compile/consumer.cpp, header-only" "$tmp/b"
  line "the same, separate compilation" "$tmp/b_sep"
  read -r min _ < <(stats "$tmp/b")
  read -r min_sep _ < <(stats "$tmp/b_sep")
  printf '  goal <= %s s: header-only %s, separate compilation %s\n' "$goal_b" "$(verdict "$min" "$goal_b")" \
    "$(verdict "$min_sep" "$goal_b")"
  if [ "${INSTANTIATE:-1}" = 1 ]; then
    # What separate compilation moves out of the consumer: assay/instantiate.hpp, compiled once
    # per program (every entry point of the library, not only the consumer's).
    : >"$tmp/b_inst"
    printf '#include "assay/instantiate.hpp"\n' >"$tmp/instantiate.cpp"
    measure "$tmp/b_inst" "$CXX" "${flags[@]}" -DASSAY_SEPARATE_COMPILATION "${extra[@]}" "$tmp/instantiate.cpp" \
      -o "$tmp/b_inst.o"
    line "once per program: assay/instantiate.hpp (1 run)" "$tmp/b_inst"
  fi
}

run_c() {
  echo "(c) the umbrella header alone"
  local extra
  read -r -a extra < <(deps_flags)
  # The baseline, measured in the same run: every standard and third-party header the library
  # includes (read from include/ now, each only if it is there), without the library. The ratio
  # says what assay's own code costs in units of what any program using these headers pays, on
  # whatever machine this runs.
  grep -rhoE '^#include <[^>]+>' include/assay | sort -u |
    sed -E 's/^#include <(.*)>$/#if __has_include(<\1>)\n#include <\1>\n#endif/' >"$tmp/deps.cpp"
  : >"$tmp/c" && : >"$tmp/c_deps"
  for _ in $(seq "$REPS"); do  # alternated, so load on the machine falls on both alike
    measure "$tmp/c" "$CXX" "${flags[@]}" "${extra[@]}" "$src/umbrella.cpp" -o "$tmp/c.o"
    measure "$tmp/c_deps" "$CXX" "${flags[@]}" "${extra[@]}" "$tmp/deps.cpp" -o "$tmp/c_deps.o"
  done
  line "assay/assay.hpp (bench/compile/umbrella.cpp)" "$tmp/c"
  line "baseline: the headers it includes, alone ($(grep -c '^#include' "$tmp/deps.cpp"))" "$tmp/c_deps"
  read -r min med _ < <(stats "$tmp/c")
  read -r dmin dmed _ < <(stats "$tmp/c_deps")
  printf '  ratio umbrella / baseline: %s (of the medians %s)\n' \
    "$(awk -v a="$min" -v b="$dmin" 'BEGIN { printf "%.2f", a / b }')" \
    "$(awk -v a="$med" -v b="$dmed" 'BEGIN { printf "%.2f", a / b }')"
  printf '  goal <= %s s: %s\n' "$goal_c" "$(verdict "$min" "$goal_c")"
}

run_lines() {
  echo "headers over $max_lines lines"
  local over
  over=$(find include -name '*.hpp' -print0 | xargs -0 wc -l | awk -v m="$max_lines" '$2 != "total" && $1 > m' |
    sort -rn)
  if [ -z "$over" ]; then
    echo "  none"
  else
    echo "$over" | sed 's/^ */  /'
  fi
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(a b c lines)
echo "compile time: $("$CXX" --version | head -n 1); ${flags[*]:0:3}; $REPS runs each; CPU s = user + sys"
for p in "${parts[@]}"; do
  case "$p" in
    a) run_a ;;
    b) run_b ;;
    c) run_c ;;
    lines) run_lines ;;
    *)
      echo "usage: bash bench/compile_time.sh [a|b|c|lines]..." >&2
      exit 2
      ;;
  esac
done
