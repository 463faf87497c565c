// Compile-time probe (c): the umbrella header alone.
#include "assay/assay.hpp"
