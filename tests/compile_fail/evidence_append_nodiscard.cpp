// Must not compile with ASSAY_COMPILE_FAIL (-Werror): the result of recorder::append dropped.
// A refused event is not recorded; a caller that does not look would never know.
// expect-error: ignoring return value
#include "assay/contracts/payloads.hpp"
#include "assay/evidence/recorder.hpp"

int main() {
  auto run = assay::evidence::recorder::make({.source = "urn:assay:example"});
  if (!run)
    return 1;
  const assay::contracts::fs_access hits{.hits = 1};
#ifdef ASSAY_COMPILE_FAIL
  run->append(assay::contracts::fs_access::event_type, hits);
#endif
  return run->append(assay::contracts::fs_access::event_type, hits).has_value() ? 0 : 1;
}
