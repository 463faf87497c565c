// What a bundle_stream writes for some events, for the writer's tests and the bundle fuzz target.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/writer.hpp"

#include <string>
#include <string_view>

namespace assay_test {

// The bundle a bundle_stream writes for `texts` (head + body + tail), or why not: declined
// (needs_write_bundle: by add(), message "declined", or by finish()), or finish()'s own error.
template <class Texts>
assay::result<std::string> streamed(const Texts& texts, const assay::evidence::bundle_options& opt = {}) {
  std::string body;
  assay::evidence::bundle_stream s(
      [&](std::string_view b) {
        body += b;
        return true;
      },
      opt);
  for (std::string_view t : texts) {
    if (!s.add(t))
      return assay::make_error(assay::evidence::needs_write_bundle, "declined");
  }
  auto ends = s.finish();
  if (!ends)
    return ends.error();
  return ends->head + body + ends->tail;
}

}  // namespace assay_test
