// assay finding stats LEDGER.json [--out F] — the finding (finding-v1) computed from a trial
// ledger (docs/findings.md), canonical JSON. A ledger that breaks its contract: every violation on
// stderr as "<json pointer>: <reason>", exit 1; not JSON: exit 2.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "../report.hpp"

#include "assay/findings/stats.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace assay_cli {

namespace {

struct stats_args {
  std::string ledger;
  std::string out = "-";
  std::uint64_t max_bytes = default_max_bytes;
};

int stats(const stats_args& a) {
  constexpr std::string_view command = "finding stats";
  auto text = input::open(a.ledger, a.max_bytes);
  if (!text)
    return fail(command, text.error());
  auto f = assay::findings::compute_json(text->bytes());
  if (!f)
    return report_violations(command, a.ledger, "trial ledger", f.error());
  // Streamed to the output as it is encoded: a finding at the bounds (a 1,000 x 1,000 matrix) is
  // some 165 MB of text, never held whole. The output is committed only when all of it is written.
  auto out = output_file::open(a.out);
  if (!out)
    return fail(command, out.error());
  struct buffered {
    output_file* file;
    std::string pending;
    void write(const char* p, std::size_t n) {
      pending.append(p, n);
      if (pending.size() >= (std::size_t{1} << 16))
        flush();
    }
    void flush() {
      file->write(pending);
      pending.clear();
    }
  } sink{&*out, {}};
  if (auto encoded = assay::reflect::encode_to(sink, *f); !encoded)  // a computed finding meets its contract:
    return fail(command, encoded.error(), "the computed finding breaks its contract");  // a bug, said as such
  sink.pending.push_back('\n');
  sink.flush();
  return finish(command, out->commit());
}

}  // namespace

void add_finding_stats(CLI::App& finding, dispatcher& d) {
  auto* sub = finding.add_subcommand("stats", "The finding (finding-v1) computed from a trial ledger");
  auto a = std::make_shared<stats_args>();
  sub->add_option("LEDGER", a->ledger, "Trial ledger, JSON (standard input when -)")->required();
  sub->add_option("--out", a->out, "Write the finding here, atomically (default: standard output)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return stats(*a); });
}

}  // namespace assay_cli
