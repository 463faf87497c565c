// Must not compile with ASSAY_COMPILE_FAIL (-Werror): the result of recorder::append dropped.
// A refused event is not recorded; a caller that does not look would never know.
// expect-error: ignoring return value
#include "assay/contracts/payloads.hpp"
#include "assay/evidence/recorder.hpp"

int main() {
  auto run = assay::evidence::recorder::make({.source = "urn:assay:example"});
  if (!run)
    return 1;
  namespace c = assay::contracts;
  const c::profile_started started{.profile_name = "p", .profile_version = "1", .total_runs_aggregated = 0};
#ifdef ASSAY_COMPILE_FAIL
  run->append(c::profile_started::event_type, started);
#endif
  return run->append(c::profile_started::event_type, started).has_value() ? 0 : 1;
}
