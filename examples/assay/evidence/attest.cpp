// assay evidence attest B --key K.pem --out E.json [--pack P]… [--closure C.json]
// — sign a bundle: an in-toto Statement v1 about it in a DSSE envelope, Ed25519 (docs/attestation.md, docs/cli.md).
#include "../cli.hpp"
#include "../packs.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/attest/attest.hpp"
#include "assay/contracts/closure.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace assay_cli {

namespace {

namespace attest = assay::attest;

struct attest_args {
  bundle_input bundle;
  std::string key;
  std::string out;
  std::vector<std::string> packs;
  std::string closure;
};

int run_attest(const attest_args& a) {
  constexpr std::string_view command = "evidence attest";
  auto key_text = input::open(a.key, 1 << 20, input::over_limit::refuse, "");
  if (!key_text)
    return fail(command, key_text.error(), "--key");
  auto key = attest::private_key::from_pem(key_text->bytes());
  if (!key) {
    print_error(command, "--key " + printable(input_name(a.key)) + ": " + printable(key.error().message));
    return exit_usage;
  }
  attest::attest_options o;
  if (!a.packs.empty()) {
    auto packs = load_stamp_packs(command, a.packs);
    if (!packs)
      return exit_io;  // a pack that does not load, or packs lint refuses together (docs/cli.md)
    o.packs = assay::lint::refs_of<assay::contracts::intoto_v1::pack_ref>(*packs);
    o.mappings = assay::lint::mappings_of<assay::contracts::intoto_v1::mapping>(*packs);
  }
  if (!a.closure.empty()) {
    auto text = input::open(a.closure, default_max_bytes, input::over_limit::refuse, "");
    if (!text)
      return fail(command, text.error(), "--closure");
    auto report = assay::decode<assay::contracts::closure_report>(text->bytes());
    if (!report) {
      for (const auto& e : report.error())
        print_error(command, "--closure " + printable(input_name(a.closure)) + ": " + printable(e.format()));
      return exit_for(report.error().front());
    }
    auto jcs = assay::encode(*report);
    if (!jcs)
      return fail(command, jcs.error().front(), "--closure");
    o.closure_report_digest = "sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(*jcs).hex();
  }
  attest::statement_builder builder(o);
  if (const verified_input v = verify_input(a.bundle, builder); !v.result)
    return v.fail(command);  // a bundle that does not verify is not attested
  if (builder.refused())     // --pack contradicts the bundle's own stamp: not signed
    return fail(command, *builder.refused());
  const auto& st = builder.statement();
  auto payload = assay::encode(*st);
  if (!payload)
    return fail(command, payload.error().front());
  const auto env = attest::sign_envelope(*payload, *key);
  if (!env)
    return fail(command, env.error());
  auto json = attest::envelope_json(*env);
  if (!json)
    return fail(command, json.error());
  if (auto w = write_file(a.out, *json + "\n"); !w)
    return fail(command, w.error());
  return finish(command, write_file("-", printable_lines("attested " + std::string(st->subject[0].name) + " with key " +
                                                         env->signatures[0].keyid + ": " + input_name(a.out))));
}

}  // namespace

void add_evidence_attest(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("attest", "Sign a bundle: a DSSE envelope of its in-toto statement");
  auto a = std::make_shared<attest_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_option("--key", a->key, "The Ed25519 private key: PKCS#8 PEM, unencrypted")->required();
  sub->add_option("--out", a->out, "Write the envelope (JSON) here")->required();
  sub->add_option(
      "--pack", a->packs,
      "Name the packs in the predicate (their digests) and their rules' article_refs (mappings); comma lists allowed");
  sub->add_option("--closure", a->closure, "Name a closure-v1 report in the predicate (its digest)");
  d.on(sub, [a] { return run_attest(*a); });
}

}  // namespace assay_cli
