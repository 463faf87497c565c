// assay evidence verify-attestation B --envelope E --pubkey P.pem [--json]
// — verify an attestation offline: every check of docs/attestation.md in its order, each failure named.
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/attest/attest.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace assay_cli {

namespace {

namespace attest = assay::attest;

struct verify_attestation_args {
  bundle_input bundle;
  std::string envelope;
  std::string pubkey;
  bool as_json = false;
};

int run_verify_attestation(const verify_attestation_args& a) {
  constexpr std::string_view command = "evidence verify-attestation";
  auto key_text = input::open(a.pubkey, 1 << 20, input::over_limit::refuse, "");
  if (!key_text)
    return fail(command, key_text.error(), "--pubkey");
  auto key = attest::public_key::from_pem(key_text->bytes());
  if (!key) {
    print_error(command, "--pubkey " + printable(input_name(a.pubkey)) + ": " + printable(key.error().message));
    return exit_usage;
  }
  auto env = input::open(a.envelope, default_max_bytes, input::over_limit::refuse, "");
  if (!env)
    return fail(command, env.error(), "--envelope");
  // The bundle's own pass; a bundle that cannot be read, or limits that are not, end here. One
  // that does not verify is the attestation's failure (BundleInvalid), after its signature.
  const verified_input bundle = verify_input(a.bundle);
  if (!bundle.result && (bundle.usage || !assay::evidence::is_verification_failure(bundle.result.error())))
    return bundle.fail(command);
  const attest::verification v = attest::verify_attestation(bundle.result, env->bytes(), *key);
  if (a.as_json) {
    auto out = attest::result_of(v);
    if (out.message)
      out.message = printable(*out.message);  // always valid UTF-8, one line
    if (auto w = write_report(out, "-"); !w)
      return fail(command, w.error());
  } else if (v.ok()) {
    if (auto w = write_file("-", "verified: signed by " + v.keyid + ", about this bundle\n"); !w)
      return fail(command, w.error());
  }
  if (!v.ok()) {
    print_line(stderr, v.failure + ": " + v.message);
    return exit_failed;
  }
  return exit_ok;
}

}  // namespace

void add_evidence_verify_attestation(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("verify-attestation", "Verify a bundle's attestation offline");
  auto a = std::make_shared<verify_attestation_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_option("--envelope", a->envelope, "The DSSE envelope (JSON)")->required();
  sub->add_option("--pubkey", a->pubkey, "The Ed25519 public key: SubjectPublicKeyInfo PEM")->required();
  sub->add_flag("--json", a->as_json,
                "Print {ok, signature_verified, subject_matched, keyid, failure, message} on every outcome");
  d.on(sub, [a] { return run_verify_attestation(*a); });
}

}  // namespace assay_cli
