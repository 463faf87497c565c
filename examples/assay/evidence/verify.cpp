// assay evidence verify B [--limits L.json] [--json] — verify a bundle (SPEC §7, §17).
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
  std::string bundle;
  std::string limits;
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
  bool bad_limits = false;  // a limits file that is not one: a usage error
  auto r = [&]() -> assay::result<assay::evidence::verified_bundle> {
    assay::evidence::bundle_limits limits;
    if (!a.limits.empty()) {
      auto text = input::open(a.limits, default_max_bytes, input::over_limit::refuse, "");
      if (!text)
        return text.error();
      auto l = assay::evidence::bundle_limits::from_json(text->bytes());
      if (!l) {
        bad_limits = true;
        auto e = l.error();
        e.message = input_name(a.limits) + ": " + e.format();
        e.offset = assay::error::npos;
        e.pointer.clear();
        return e;
      }
      limits = *l;
    }
    // Opened once (a FIFO can be read only once); an input larger than max_bundle_bytes is left
    // to the verifier, which refuses it by its size (LimitBundleBytes) before reading it.
    auto in = input::open(a.bundle, limits.max_bundle_bytes, input::over_limit::pass);
    if (!in)
      return in.error();
    if (a.contracts)
      return verify_with_contracts(in->bytes(), limits);
    return assay::evidence::verify_bundle_bytes(in->bytes(), limits);
  }();
  if (a.as_json) {
    if (auto w = write_report(to_json(r), "-"); !w)
      return fail(command, w.error());
  }
  if (r) {
    if (!a.as_json) {
      const auto& v = *r;
      const std::string line = "verified " + printable(input_name(a.bundle)) + ": " + std::to_string(v.event_count) +
                               " events, run " + printable(v.run_id, echo_cap) + ", bundle " +
                               printable(v.bundle_id, echo_cap) + ", " + printable(v.time_start, echo_cap) + " .. " +
                               printable(v.time_end, echo_cap) + "\n";
      return finish(command, write_file("-", line));
    }
    return exit_ok;
  }
  const auto& e = r.error();
  if (bad_limits) {
    print_error(command, e.message);
    return exit_usage;
  }
  return fail_bundle(command, e);
}

}  // namespace

void add_evidence_verify(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("verify", "Verify a bundle (SPEC §7)");
  auto a = std::make_shared<verify_args>();
  sub->add_option("BUNDLE", a->bundle, "The bundle (.tar.gz; - for standard input)")->required();
  sub->add_option("--limits", a->limits,
                  "A JSON object with any of the eight reader limits (the others keep their defaults)");
  sub->add_flag("--json", a->as_json, "Print the result as one JSON object, whatever the outcome");
  sub->add_flag("--contracts", a->contracts,
                "Also hold each payload of a known event type to its contract (ContractInvalidEvent; SPEC §8)");
  d.on(sub, [a] { return verify(*a); });
}

}  // namespace assay_cli
