// libFuzzer target: trial ledgers (SPEC §14), the input of `assay finding stats`, and the review
// packets rendered from what they give.
//
// The input is a ledger's JSON text. findings::compute_json never crashes; a refused ledger has
// every error with a code and a message. A finding it computes:
//   - is computed again to the same bytes (the same ledger, the same finding);
//   - keeps its own contract: encode succeeds, and decode<finding> of those bytes encodes to them;
//   - renders to Markdown and HTML, the same bytes twice, and the page holds no <script>: it has
//     none of its own, and a ledger's "<script>" must come out escaped.
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/findings/render.hpp"
#include "assay/findings/stats.hpp"
#include "assay/reflect/codec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_findings", what, detail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto f = assay::findings::compute_json(text);
  if (!f) {
    for (const auto& e : f.error())
      if (e.message.empty())
        fail("a refusal without a message", assay::name(e.code));
    return 0;
  }
  auto bytes = assay::encode(*f);
  if (!bytes)
    fail("a computed finding breaks its contract", bytes.error().front().format());
  auto again = assay::findings::compute_json(text);
  if (!again || assay::encode(*again).value() != *bytes)
    fail("the same ledger gave another finding");
  auto back = assay::decode<assay::contracts::finding>(*bytes);
  if (!back)
    fail("a computed finding does not decode", back.error().front().format());
  if (assay::encode(*back).value() != *bytes)
    fail("a computed finding does not re-encode to its bytes");
  const std::string md = assay::findings::render_markdown(*f);
  const std::string html = assay::findings::render_html(*f);
  if (md != assay::findings::render_markdown(*f) || html != assay::findings::render_html(*f))
    fail("rendering twice gave other bytes");
  if (html.find("<script") != std::string::npos)  // the page has none; a ledger's would be escaped
    fail("the page holds a <script>", html);
  return 0;
}
