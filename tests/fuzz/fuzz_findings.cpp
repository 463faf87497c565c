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
//
// The checks run only on ledgers and findings of at most max_checked_cells technique x mutation
// cells and max_checked_framings framings. The bounds allow 1,000,000 cells and 4,096 framings (a
// 16 KiB ledger gives a 164 MB finding), and the code that builds a large table is the code that
// builds a small one; but the dozen passes below over one such finding take minutes under the
// sanitizers, beyond libFuzzer's timeout (an 8 KiB ledger of 180 x 1,000 labels took 167 s, one
// of 3,596 framings 15 s). A larger input is checked for its refusal beyond the bounds only,
// which reads the labels and builds nothing.
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

constexpr std::size_t max_checked_cells = 4096;
constexpr std::size_t max_checked_framings = 256;

// The labels of each kind the finding of `ledger` would have: declared, or carried by its trials.
struct label_counts {
  std::size_t framings, techniques, mutations;
  std::size_t cells() const { return techniques * mutations; }
  // Small enough for every check within libFuzzer's timeout under the sanitizers.
  bool checkable() const { return cells() <= max_checked_cells && framings <= max_checked_framings; }
};
label_counts labels_of(const assay::contracts::trial_ledger& l) {
  using assay::contracts::finding_v1::trial_result;
  namespace d = assay::findings::detail;
  return {size_of(d::labels_of(l.framings, l.trial_results, &trial_result::framing)),
          size_of(d::labels_of(l.techniques, l.trial_results, &trial_result::technique_id)),
          size_of(d::labels_of(l.mutations, l.trial_results, &trial_result::mutation_id))};
}

// A finding from the input: rendered only when it re-derives equal.
void check_finding(std::string_view text) {
  auto f = assay::decode<assay::contracts::finding>(text);
  if (!f || !labels_of(assay::findings::ledger_of(*f)).checkable())
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
  if (auto ledger = assay::decode<assay::contracts::trial_ledger>(text)) {
    const label_counts n = labels_of(*ledger);
    if (!n.checkable()) {
      constexpr std::size_t max_labels = assay::findings::max_labels_per_kind;
      const bool within = n.framings <= max_labels && n.techniques <= max_labels && n.mutations <= max_labels &&
                          n.cells() <= assay::findings::max_matrix_cells;
      if (within != assay::findings::bound_violations(*ledger).empty())
        fail(within ? "a ledger within the bounds was refused for them" : "a ledger beyond the bounds was not refused");
      return 0;
    }
  }
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
