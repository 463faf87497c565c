// libFuzzer target: trial ledgers (SPEC §14), the input of `assay finding stats`, findings, the
// input of `assay finding render`, and the review packets rendered from them.
//
// The input is JSON text, read both as a ledger and as a finding. findings::compute_json never
// crashes; a refused ledger has every error with a code and a message, and one beyond the bounds
// (4,096 labels of a kind, 1,000,000 matrix cells) is refused, never computed. A finding it
// computes:
//   - keeps the bounds: no kind has more than 4,096 labels, the matrix no more than 1,000,000
//     cells;
//   - is computed again to the same bytes (the same ledger, the same finding);
//   - keeps its own contract: encode succeeds, and decode<finding> of those bytes encodes to them;
//   - re-derives equal from its own trials (findings::disagreements is empty), and so renders to
//     Markdown and HTML, the same bytes twice, and the page holds no <script>: it has none of its
//     own, and a ledger's "<script>" must come out escaped.
// A finding read from the input renders only when it is exactly what its trials give: when
// render succeeds, the finding of ledger_of(finding) has the finding's bytes; when it refuses,
// every refusal has a message.
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

std::size_t size_of(const std::optional<assay::contracts::finding_v1::label_list>& l) {
  return l ? l->size() : 0;
}

// A finding from the input: rendered only when it re-derives equal.
void check_finding(std::string_view text) {
  auto f = assay::decode<assay::contracts::finding>(text);
  if (!f)
    return;
  auto md = assay::findings::render_markdown(*f);
  if (!md) {
    for (const auto& e : md.error())
      if (e.message.empty())
        fail("a render refusal without a message", assay::name(e.code));
    if (assay::findings::render_html(*f).has_value())
      fail("Markdown refused a finding that HTML rendered");
    return;
  }
  auto derived = assay::findings::compute(assay::findings::ledger_of(*f));
  if (!derived)
    fail("a rendered finding's trials give no finding", derived.error().front().format());
  if (assay::encode(*derived).value() != assay::encode(*f).value())
    fail("a rendered finding is not what its trials give");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_finding(text);
  auto f = assay::findings::compute_json(text);
  if (!f) {
    for (const auto& e : f.error())
      if (e.message.empty())
        fail("a refusal without a message", assay::name(e.code));
    return 0;
  }
  const auto& m = f->method;
  if (size_of(m.framings) > assay::findings::max_labels_per_kind ||
      size_of(m.techniques) > assay::findings::max_labels_per_kind ||
      size_of(m.mutations) > assay::findings::max_labels_per_kind ||
      size_of(m.techniques) * size_of(m.mutations) > assay::findings::max_matrix_cells)
    fail("a ledger beyond the bounds was computed");
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
  if (const auto d = assay::findings::disagreements(*back); !d.empty())
    fail("a computed finding does not re-derive from its own trials", d.front().format_pointer_line());
  const auto md = assay::findings::render_markdown(*f);
  const auto html = assay::findings::render_html(*f);
  if (!md || !html)
    fail("a computed finding was refused by render");
  if (*md != assay::findings::render_markdown(*f).value() || *html != assay::findings::render_html(*f).value())
    fail("rendering twice gave other bytes");
  if (html->find("<script") != std::string::npos)  // the page has none; a ledger's would be escaped
    fail("the page holds a <script>", *html);
  return 0;
}
