#!/usr/bin/env bash
# Runs bench/append_bench REPS times (default 5) and prints, for each row, the minimum and the
# median over the runs of its median, 99th-percentile and mean cost, and of its ratio to spdlog's
# buffered logger; then the peak RSS of a run of RSS_EVENTS events (default 1,000,000). spdlog's
# rows need Debian's libspdlog-dev where BUILD_DIR was configured.
#
#   bash bench/append_runs.sh BUILD_DIR [DIR]      # BUILD_DIR configured with -Dbench=true
#
# Measure on a quiet machine (uptime below 1): the script prints the load before and after.
set -euo pipefail
build=${1:?usage: append_runs.sh BUILD_DIR [DIR]}
dir=${2:-.}
reps=${REPS:-5}
exe="$build/bench/append_bench"
ninja -C "$build" bench/append_bench >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
outs=()
for i in $(seq "$reps"); do
  f=$(mktemp)
  "$exe" "$dir" >"$f"
  outs+=("$f")
done
head -n 1 "${outs[0]}"
python3 - "${outs[@]}" <<'PY'
import re
import statistics
import sys

rows = {}
order = []
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"^(\S.*?\(\d threads?\))\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if not m:
            continue
        name = m.group(1)
        if name not in rows:
            rows[name] = []
            order.append(name)
        ratio = float(m.group(6)) if m.group(6) != "(no" else float("nan")
        rows[name].append((int(m.group(3)), int(m.group(4)), int(m.group(5)), ratio))
if not any(name.startswith("spdlog") for name in order):
    print("no spdlog rows: install libspdlog-dev and configure the build again (meson setup --reconfigure)")
print(f"{len(sys.argv) - 1} runs; min / median over the runs")
print(f"{'':58} {'median ns':>17} {'p99 ns':>19} {'mean ns':>19} {'median / spdlog':>17}")
for name in order:
    med = [r[0] for r in rows[name]]
    p99 = [r[1] for r in rows[name]]
    mean = [r[2] for r in rows[name]]
    rat = [r[3] for r in rows[name]]
    print(f"{name:58} {min(med):>8} / {statistics.median(med):<7.0f} {min(p99):>9} / {statistics.median(p99):<8.0f}"
          f" {min(mean):>9} / {statistics.median(mean):<8.0f} {min(rat):>7.2f} / {statistics.median(rat):.2f}")
PY
rm -f "${outs[@]}"
"$exe" --rss "${RSS_EVENTS:-1000000}" "$dir"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
