// assay finding stats LEDGER.json [--out F] — the finding (finding-v1) computed from a trial
// ledger (SPEC §14), canonical JSON. A ledger that breaks its contract: every violation on
// stderr as "<json pointer>: <reason>", exit 1; not JSON: exit 2.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "finding.hpp"

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
  auto bytes = assay::encode(*f);
  if (!bytes)  // a computed finding meets its contract: this would be a bug, said as such
    return fail(command, bytes.error().front(), "the computed finding breaks its contract");
  bytes->push_back('\n');  // in place: a finding at the bounds is some 150 MB, not to be copied
  return finish(command, write_file(a.out, *bytes));
}

}  // namespace

void add_finding_stats(CLI::App& finding, dispatcher& d) {
  auto* sub = finding.add_subcommand("stats", "The finding (finding-v1) computed from a trial ledger (SPEC §14)");
  auto a = std::make_shared<stats_args>();
  sub->add_option("LEDGER", a->ledger, "Trial ledger, JSON (standard input when -)")->required();
  sub->add_option("--out", a->out, "Write the finding here, atomically (default: standard output)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return stats(*a); });
}

}  // namespace assay_cli
