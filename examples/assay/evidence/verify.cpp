// assay evidence verify B [--limits L.json] [--json] — verify a bundle (docs/evidence.md, docs/cli.md).
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"

#include "assay/evidence/verify.hpp"
#include "evidence.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace assay_cli {

namespace {

struct verify_args {
  bundle_input bundle;
  bool as_json = false;
  bool contracts = false;
};

// What `--json` prints, on every outcome: the evidence floor's verdict (class null for an error
// that is not a verification code: I/O, a bad limits file), its message always valid UTF-8 so
// that the output always parses.
assay::evidence::verify_result to_json(const assay::result<assay::evidence::verified_bundle>& r) {
  auto out = assay::evidence::verify_result_of(r);
  if (out.message)
    out.message = printable(*out.message);
  return out;
}

int verify(const verify_args& a) {
  constexpr std::string_view command = "evidence verify";
  const verified_input v = a.contracts ? verify_input_with_contracts(a.bundle) : verify_input(a.bundle);
  if (a.as_json) {
    if (auto w = write_report(to_json(v.result), "-"); !w)
      return fail(command, w.error());
  }
  if (!v.result)
    return v.fail(command);
  if (a.as_json)
    return exit_ok;
  const auto& b = *v.result;
  const std::string line = "verified " + printable(input_name(a.bundle.path)) + ": " + std::to_string(b.event_count) +
                           " events, run " + printable(b.run_id, echo_cap) + ", bundle_id " +
                           printable(b.bundle_id, echo_cap) + ", file " + b.file_sha256 + ", " +
                           printable(b.time_start, echo_cap) + " .. " + printable(b.time_end, echo_cap) + "\n";
  return finish(command, write_file("-", line));
}

}  // namespace

void add_evidence_verify(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("verify", "Verify a bundle");
  auto a = std::make_shared<verify_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_flag("--json", a->as_json, "Print the result as one JSON object, whatever the outcome");
  sub->add_flag("--contracts", a->contracts,
                "Also hold each payload of a known event type to its contract (ContractInvalidEvent)");
  d.on(sub, [a] { return verify(*a); });
}

}  // namespace assay_cli
