// Compile-time probe (b): a small consumer of the library. It records a run, writes the bundle,
// verifies what it wrote, and encodes a soak report.
#include "assay/contracts/payloads.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"

#include <cstdio>
#include <string>

namespace c = assay::contracts;
namespace ev = assay::evidence;

int main() {
  auto run = ev::recorder::make(
      {.source = "urn:assay:compile-probe", .run_id = "", .producer = {"compile-probe", "0.1.0", std::nullopt}});
  if (!run)
    return 1;
  c::tool_decision read{.tool = "read_file", .decision = "allow", .reason_code = "P_ALLOW_READ"};
  if (!run->append(c::tool_decision::event_type, read))
    return 1;
  if (!run->append(c::profile_finished::event_type,
                   c::profile_finished{
                       .files_count = 1, .network_count = 0, .processes_count = 0, .sandbox_degradation_count = 0}))
    return 1;
  auto gz = run->finish();
  if (!gz)
    return 1;
  auto verified = ev::verify_bundle_bytes(*gz);
  if (!verified)
    return 1;

  c::soak_report report;
  report.iterations = 1;
  report.seed = 1u;
  report.time_budget_secs = 60;
  report.limits = {1, 1, 1, 1, 1, 1, 1, 1};
  report.packs.push_back({std::string("core"), std::string("1.0.0")});
  report.results.runs = 1;
  report.results.passes = 1;
  report.results.pass_rate = 1.0;
  report.results.pass_all = true;
  auto bytes = assay::encode(report);
  if (!bytes)
    return 1;
  std::printf("%s\n", bytes->c_str());
  return 0;
}
