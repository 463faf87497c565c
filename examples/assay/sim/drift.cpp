// assay sim drift BASELINE.json CANDIDATE.json [--report D.json] [--fail-on regressed]
//                 [--allow-pack-change] — two soaks compared (docs/soak.md "Drift"): the difference of
// their pass rates with Newcombe's hybrid score interval, a verdict, the rules that started or
// stopped failing and the infrastructure errors before and after; soak-drift-v1 to --report.
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "sim.hpp"

#include "assay/contracts/soak_report.hpp"
#include "assay/json/number.hpp"
#include "assay/json/time.hpp"
#include "assay/soak/drift.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace assay_cli {

namespace {

struct drift_args {
  std::string baseline, candidate;
  std::string report;
  std::optional<std::string> fail_on;
  bool allow_pack_change = false;
  std::uint64_t max_bytes = default_max_bytes;
};

int run_drift(const drift_args& a) {
  constexpr std::string_view command = "sim drift";
  if (a.fail_on && *a.fail_on != "regressed") {
    return usage_error(command, "--fail-on " + printable(*a.fail_on, echo_cap) + ": expected regressed");
  }
  assay::contracts::soak_report baseline, candidate;
  if (int rc = read_contract(command, a.baseline, a.max_bytes, "soak-report-v1", baseline); rc != exit_ok)
    return rc;
  if (int rc = read_contract(command, a.candidate, a.max_bytes, "soak-report-v1", candidate); rc != exit_ok)
    return rc;
  // Soaks of two decision policies are refused as sim merge refuses them (exit 2), whatever
  // --allow-pack-change says.
  if (const auto policies =
          assay::soak::decision_policies_differ(baseline.decision_policy, candidate.decision_policy)) {
    print_error(command, *policies);
    return exit_usage;
  }
  auto now = assay::json::report_time();
  if (!now)
    return fail(command, now.error());
  auto d = assay::soak::drift(
      baseline, candidate,
      {.allow_pack_change = a.allow_pack_change, .generated_at = *now, .assay_version = std::string(assay::version)});
  if (!d) {
    print_error(command, d.error().message + " (--allow-pack-change compares them anyway)");
    return exit_usage;
  }
  if (!a.report.empty())
    if (auto w = write_report(*d, a.report); !w)
      return fail(command, w.error());
  if (auto w = write_file("-", printable_lines(drift_summary(*d))); !w)
    return fail(command, w.error());
  return a.fail_on && d->verdict == "regressed" ? exit_failed : exit_ok;
}

}  // namespace

void add_sim_drift(CLI::App& sim, dispatcher& d) {
  auto* sub = sim.add_subcommand("drift", "Two soaks compared: the pass rate's difference and what changed");
  auto a = std::make_shared<drift_args>();
  sub->add_option("BASELINE", a->baseline, "The earlier soak's report (soak-report-v1)")->required();
  sub->add_option("CANDIDATE", a->candidate, "The soak compared with it (soak-report-v1)")->required();
  sub->add_option("--report", a->report, "Write the soak-drift-v1 JSON here");
  sub->add_option("--fail-on", a->fail_on, "regressed: exit 1 when the difference's upper bound is below 0");
  sub->add_flag("--allow-pack-change", a->allow_pack_change,
                "Compare soaks whose packs differ by name, version or digest (the report says so)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return run_drift(*a); });
}

}  // namespace assay_cli
