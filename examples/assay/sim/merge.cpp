// assay sim merge SHARD.json… --report R [--min-pass-rate P [--gate lower-bound|estimate]
//                 [--min-runs N]] — the shard reports of `sim soak --shard I/N`, run on many
// machines, put back together (docs/soak.md "Past one machine"): the report one machine would have
// written for the same seeds, and the soak's verdict (pass^k, or the tolerance gate).
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "sim.hpp"

#include "assay/contracts/soak_report.hpp"
#include "assay/json/time.hpp"
#include "assay/soak/merge.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace assay_cli {

namespace {

struct merge_args {
  std::vector<std::string> shards;
  std::string report;
  tolerance_args tol;
  std::uint64_t max_bytes = default_max_bytes;
};

int run_merge(const merge_args& a) {
  constexpr std::string_view command = "sim merge";
  std::optional<tolerance> gate;
  if (auto bad = parse_tolerance(a.tol, gate)) {
    return usage_error(command, *bad);
  }
  std::vector<assay::contracts::soak_report> shards(a.shards.size());
  for (std::size_t k = 0; k < a.shards.size(); ++k)
    if (int rc = read_contract(command, a.shards[k], a.max_bytes, "soak-report-v1", shards[k]); rc != exit_ok)
      return rc;
  auto now = assay::json::report_time();
  if (!now)
    return fail(command, now.error());
  std::vector<std::string> names;
  for (const std::string& s : a.shards)
    names.push_back(printable(s));
  auto m = assay::soak::merge(
      shards, {.generated_at = *now, .assay_version = std::string(assay::version), .names = std::move(names)});
  if (!m) {
    print_error(command, printable(m.error().message));
    return exit_usage;
  }
  if (auto w = write_report(m->report, a.report); !w)
    return fail(command, w.error());
  const auto& r = m->report;
  soak_summary_head head{.interval = m->interval, .stopped = m->runs.stop_reason};
  head.first_line = "merge: " + std::to_string(r.results.runs.value()) + " of " + std::to_string(r.iterations.value()) +
                    " run(s) from " + std::to_string(shards.size()) + " shard(s), seeds from " +
                    std::to_string(r.seed.value());
  std::string text = soak_summary(r, head);
  bool passed = r.results.pass_all;
  if (gate)
    text += tolerance_line(r, *gate, passed);
  if (auto w = write_file("-", printable_lines(text)); !w)
    return fail(command, w.error());
  return passed ? exit_ok : exit_failed;
}

}  // namespace

void add_sim_merge(CLI::App& sim, dispatcher& d) {
  auto* sub = sim.add_subcommand(
      "merge", "Shard reports of one soak (sim soak --shard I/N) put back together: one machine's report");
  auto a = std::make_shared<merge_args>();
  sub->add_option("SHARD", a->shards, "The shard reports (soak-report-v1), one per shard, in any order")->required();
  sub->add_option("--report", a->report, "Write the merged soak-report-v1 JSON here")->required();
  add_tolerance_options(sub, a->tol);
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return run_merge(*a); });
}

}  // namespace assay_cli
