#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for DURATION_SECONDS.
#
#   tests/fuzz/run.sh 300                  # 5 minutes per target
#   BUILD_DIR=/tmp/bf tests/fuzz/run.sh 60
#   TARGETS=fuzz_reader tests/fuzz/run.sh 60
#
# The seed corpus is copied to a temporary directory first, so the repository is never
# modified; new crash reproducers are written to $ARTIFACT_DIR (default: a temporary
# directory, kept and printed when a target fails). Exits non-zero if any target crashes,
# leaks, times out or runs out of memory. Extra libFuzzer flags can be given in FUZZ_FLAGS;
# KEEP_WORK=1 keeps the temporary directory (the grown corpora) even on success; REGRESSIONS=0
# leaves the reproducers in regressions/ out of the corpus (to fuzz on while one is still open).
# PACK_SEEDS=DIR adds the *.yaml and *.json packs of DIR to fuzz_pack's corpus (the reference's
# packs, say), each behind the selector byte that makes the target read it as YAML or JSON; a
# DIR that does not exist is ignored. ASSAY_FUZZ_REF=PATH-TO-assay-ref turns on fuzz_pack's
# differential mode (every YAML input also read by the reference; one process per input).
set -euo pipefail

usage() { echo "usage: $0 DURATION_SECONDS" >&2; exit 2; }
[[ $# -eq 1 && $1 =~ ^[0-9]+$ && $1 -gt 0 ]] || usage
duration=$1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
targets=${TARGETS:-"fuzz_reader fuzz_decode fuzz_pattern fuzz_bundle fuzz_pack fuzz_attest fuzz_findings fuzz_glob fuzz_journal fuzz_merge fuzz_mcp_policy fuzz_mcp_gate"}

if [[ ! -f $build/build.ninja ]]; then
  CXX=${CXX:-clang++} meson setup "$build" "$root" -Dfuzz=true -Dtests=false -Dexamples=false
fi
read -r -a target_list <<<"$targets"
ninja -C "$build" "${target_list[@]/#/tests/fuzz/}"

work=$(mktemp -d "${TMPDIR:-/tmp}/assay-fuzz.XXXXXX")
artifacts=${ARTIFACT_DIR:-$work/artifacts}
mkdir -p "$artifacts"
status=0
for t in "${target_list[@]}"; do
  corpus_name=${t#fuzz_}
  corpus=$work/corpus-$corpus_name
  mkdir -p "$corpus"
  if [[ -d $here/corpus/$corpus_name ]]; then cp -R "$here/corpus/$corpus_name/." "$corpus/"; fi
  if [[ ${REGRESSIONS:-1} == 1 && -d $here/regressions ]]; then
    # Known reproducers of this target seed the run too (and must no longer crash).
    find "$here/regressions" -maxdepth 1 -type f -name "$corpus_name-*" -exec cp {} "$corpus/" \;
  fi
  if [[ $t == fuzz_pack && -n ${PACK_SEEDS:-} && -d ${PACK_SEEDS:-} ]]; then
    # fuzz_pack reads an input whose first byte is odd as YAML, even as JSON.
    for f in "$PACK_SEEDS"/*.yaml "$PACK_SEEDS"/*.yml "$PACK_SEEDS"/*.json; do
      [[ -f $f ]] || continue
      case $f in *.json) sel=j ;; *) sel=y ;; esac
      { printf '%s' "$sel"; cat "$f"; } >"$corpus/seed-$(basename "$f").bin"
    done
  fi
  dict=()
  if [[ -f $here/$corpus_name.dict ]]; then dict=(-dict="$here/$corpus_name.dict"); fi
  echo "== $t: ${duration}s, corpus $corpus"
  log=$work/$t.log
  set +e
  # shellcheck disable=SC2086
  "$build/tests/fuzz/$t" "$corpus" \
    -max_total_time="$duration" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "${dict[@]}" ${FUZZ_FLAGS:-} >"$log" 2>&1
  rc=$?
  set -e
  # Print the last status line and the final statistics.
  grep -E '^#[0-9]+' "$log" | tail -n 1 || true
  grep -E '^(stat::|Done)' "$log" || true
  echo "corpus entries: $(find "$corpus" -type f | wc -l)"
  if [[ $rc -ne 0 ]]; then
    echo "!! $t failed (exit $rc); log: $log" >&2
    grep -E 'ERROR|fuzz_[a-z]+|SUMMARY|Test unit written' "$log" | head -n 20 >&2 || true
    status=1
  fi
done

if [[ $status -ne 0 ]]; then
  echo "reproducers in $artifacts (minimize with: TARGET -minimize_crash=1 -runs=100000 FILE)" >&2
  exit 1
fi
if [[ ${KEEP_WORK:-0} == 1 ]]; then echo "kept $work"; else rm -rf "$work"; fi
