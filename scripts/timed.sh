#!/usr/bin/env bash
# timed.sh OUT COMMAND...: runs COMMAND (its output and exit status passed through) and writes to
# OUT one line of what it cost: the CPU time of it and every process under it, and the peak
# memory of the largest of those processes (GNU time's figures, from the kernel's rusage of
# waited-for children; a build runs several compilers at once, so its machine needs a multiple).
set -uo pipefail
out=$1
shift
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "%U %S %M" -o "$out.raw" "$@"
  status=$?
  # on a failure GNU time writes "Command exited with non-zero status N" first: the last line
  read -r user sys kib < <(tail -n 1 "$out.raw") || true
  rm -f "$out.raw"
  # ninja's default parallelism: 2 on one core, 3 on two, else cores + 2
  awk -v u="${user:-0}" -v s="${sys:-0}" -v k="${kib:-0}" -v n="$(nproc)" 'BEGIN {
    j = n <= 1 ? 2 : (n == 2 ? 3 : n + 2)
    printf "CPU %.0f s; the largest process %.0f MiB (ninja runs up to %d at once)\n", u + s, k / 1024, j }' >"$out"
else
  "$@"
  status=$?
  echo "CPU time and memory not measured (no GNU time: apt-get install time)" >"$out"
fi
exit $status
