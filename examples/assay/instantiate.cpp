// The library's heavy entry points (verify, write, lint, soak, attest, show, diff), compiled
// once for the whole CLI: every unit is built with ASSAY_SEPARATE_COMPILATION, which declares
// them extern (see assay/separate.hpp).
#include "assay/instantiate.hpp"
