#!/usr/bin/env bash
# Builds assay and runs every test. Usage: scripts/test.sh [gcc|clang|sanitize]   (default gcc)
# Installs the Debian packages it needs first. Ends with a line "N passed, N failed".
#
# sanitize: clang++ with AddressSanitizer + UndefinedBehaviorSanitizer, unoptimized (-O0 with line
# tables: the instrumentation is the same, the build takes a third of -O2's time), assertions on,
# and the libFuzzer targets built too, so their corpora and reproducers are replayed under the
# same checks. The tests of suite 'once' (each header compiled alone, the docs' snippets, the
# install) check what sanitizers do not change and are left to the plain builds.
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:-gcc}"
bash scripts/deps.sh
opts=(-Drequire_conformance="${ASSAY_REQUIRE_CONFORMANCE:-false}")
test_opts=()
case "$variant" in
  gcc) export CXX=g++ ;;
  clang) export CXX=clang++ ;;
  sanitize)
    export CXX=clang++
    opts+=(-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=plain -Db_ndebug=false
      "-Dcpp_args=['-O0','-gline-tables-only']" -Dfuzz=true)
    test_opts+=(--no-suite once) ;;
  *) echo "usage: scripts/test.sh [gcc|clang|sanitize]" >&2; exit 2 ;;
esac
dir="build-$variant"
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" "${opts[@]}" >"$dir.setup.txt" 2>&1 || { cat "$dir.setup.txt"; exit 1; }
else
  meson configure "$dir" "${opts[@]}" >/dev/null
fi
# The build shows its progress (ninja's [done/total] lines, also kept in build-output.txt): the
# first build compiles every test, which takes a while on a small machine.
steps=$(ninja -C "$dir" -n 2>/dev/null | grep -c '^\[' || true)
echo "=== building $dir: $steps step(s) to run"
# (every tenth step printed; the pipeline's status is ninja's: tee and awk do not fail)
built=$SECONDS
if ! bash scripts/timed.sh "$dir/build-cost.txt" ninja -C "$dir" 2>&1 | tee "$dir/build-output.txt" |
    awk '/^\[[0-9]+\/[0-9]+\]/ { n++; if (n % 10 == 1) { print "  " $1 " " $NF; fflush() } }'; then
  grep -E -A12 "error|FAILED" "$dir/build-output.txt" | head -n 80 || true
  echo "build failed ($variant): see $dir/build-output.txt"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
[ "$steps" -gt 0 ] && echo "=== $dir built in $((SECONDS - built)) s; $(cat "$dir/build-cost.txt")"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_leaks=1"
status=0
tested=$SECONDS
echo "=== running the tests of $dir"
meson test -C "$dir" --print-errorlogs --num-processes 2 "${test_opts[@]}" >"$dir/test-output.txt" 2>&1 || status=$?
echo "=== the tests of $dir ran in $((SECONDS - tested)) s"
tail -n 25 "$dir/test-output.txt"
python3 scripts/summarize.py "$dir/meson-logs/testlog.json"
exit $status
