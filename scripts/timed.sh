#!/usr/bin/env bash
# timed.sh [--raw] OUT COMMAND...: runs COMMAND (its output and exit status passed through) and
# writes to OUT what it cost: the CPU time (user + sys) of it and every process under it, and the
# peak memory of the largest of those processes (the kernel's rusage of waited-for children, read
# by GNU time, else by Python's getrusage).
#   OUT holds one line: "CPU N s; the largest process N MiB (ninja runs up to N at once)" (a
#   build runs several compilers at once, so its machine needs a multiple of that);
#   with --raw, "SECONDS KIB" ("%.2f %d"), for a benchmark to collect.
set -uo pipefail
raw=0
if [ "${1:-}" = --raw ]; then
  raw=1
  shift
fi
out=$1
shift
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "%U %S %M" -o "$out.raw" "$@"
  status=$?
  # on a failure GNU time writes "Command exited with non-zero status N" first: the last line
  read -r user sys kib < <(tail -n 1 "$out.raw") || true
  rm -f "$out.raw"
else
  python3 - "$out.raw" "$@" <<'EOF'
import resource, subprocess, sys
out, cmd = sys.argv[1], sys.argv[2:]
code = subprocess.run(cmd).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    f.write("%f %f %d\n" % (u.ru_utime, u.ru_stime, u.ru_maxrss))
sys.exit(code if code >= 0 else 128 - code)
EOF
  status=$?
  read -r user sys kib <"$out.raw" || true
  rm -f "$out.raw"
fi
if [ $raw = 1 ]; then
  awk -v u="${user:-0}" -v s="${sys:-0}" -v k="${kib:-0}" 'BEGIN { printf "%.2f %d\n", u + s, k }' >"$out"
else
  # ninja's default parallelism: 2 on one core, 3 on two, else cores + 2
  awk -v u="${user:-0}" -v s="${sys:-0}" -v k="${kib:-0}" -v n="$(nproc)" 'BEGIN {
    j = n <= 1 ? 2 : (n == 2 ? 3 : n + 2)
    printf "CPU %.0f s; the largest process %.0f MiB (ninja runs up to %d at once)\n", u + s, k / 1024, j }' >"$out"
fi
exit $status
