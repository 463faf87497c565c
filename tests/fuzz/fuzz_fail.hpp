// How a fuzz target reports a broken property: "<who>: <what>: <detail>" on stderr, the detail
// cut at `cap` bytes, then abort() so that libFuzzer keeps the input as a reproducer.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fuzz {

[[noreturn]] inline void fail(std::string_view who, const char* what, std::string_view detail = {},
                              std::size_t cap = 400) {
  std::fprintf(stderr, "%.*s: %s", static_cast<int>(who.size()), who.data(), what);
  if (!detail.empty())
    std::fprintf(stderr, ": %.*s", static_cast<int>(detail.size() > cap ? cap : detail.size()), detail.data());
  std::fprintf(stderr, "\n");
  std::abort();
}

}  // namespace fuzz
