// assay evidence verify --contracts: the one verification pass, with each payload of a known type
// held to its contract (docs/contracts.md). Apart from verify.cpp so that the plain pass is compiled as it
// always was (the payload decoders are many, and would change how the compiler inlines it).
#include "evidence.hpp"

#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/verify.hpp"

namespace assay_cli {

verified_input verify_input_with_contracts(const bundle_input& in) {
  assay::evidence::payload_check payloads;
  return verify_input(in, payloads);
}

}  // namespace assay_cli
