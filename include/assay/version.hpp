// assay/version.hpp — the library's version. Generated from meson.build by scripts/version.py;
// do not edit (the test version_header fails when the two differ).
#pragma once

#include <string_view>

#define ASSAY_VERSION_MAJOR 0
#define ASSAY_VERSION_MINOR 1
#define ASSAY_VERSION_PATCH 0

namespace assay {

// "MAJOR.MINOR.PATCH": what reports name as the tool's version and the recorder as its producer's.
inline constexpr std::string_view version = "0.1.0";

}  // namespace assay
