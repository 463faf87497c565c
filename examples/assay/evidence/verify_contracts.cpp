// assay evidence verify --contracts: the one verification pass, with each payload of a known type
// held to its contract (SPEC §8). Apart from verify.cpp so that the plain pass is compiled as it
// always was (the payload decoders are many, and would change how the compiler inlines it).
#include "evidence.hpp"

#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/verify.hpp"

namespace assay_cli {

assay::result<assay::evidence::verified_bundle> verify_with_contracts(std::string_view bytes,
                                                                      const assay::evidence::bundle_limits& limits) {
  assay::evidence::payload_check payloads;
  return assay::evidence::verify_bundle_bytes(bytes, limits, payloads);
}

}  // namespace assay_cli
