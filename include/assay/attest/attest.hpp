// assay/attest/attest.hpp — attesting an evidence bundle and verifying an attestation offline
// (docs/attestation.md).
//
//   auto key = assay::attest::private_key::from_pem(pem);
//   auto env = assay::attest::attest_bundle(gz_bytes, *key);            // verifies, then signs
//   std::string json = assay::attest::envelope_json(*env);
//
//   auto pub = assay::attest::public_key::from_pem(pub_pem);
//   assay::attest::verification v = assay::attest::verify_attestation(gz_bytes, envelope_text, *pub);
//   if (v.ok()) ...   // else v.failure: "Signature", "SubjectDigest", ... and a message
//
// The statement is the reference's, byte for byte, unless packs or a closure report digest are
// given: then the predicate also carries artifacts, packs, mappings and closure_report_digest.
// A runtime that has just written a bundle (recorder::finish) passes those bytes: the bundle is
// verified and signed in memory, never read again from a file.
#pragma once

#include "assay/attest/dsse.hpp"
#include "assay/attest/keys.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/value.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::attest {

inline constexpr std::string_view statement_type = "https://in-toto.io/Statement/v1";
inline constexpr std::string_view predicate_type = "https://docs.getassay.dev/attestation/evidence-bundle/v1";
inline constexpr std::string_view legacy_predicate_type = "https://docs.getassay.dev/attestation/evidence-bundle/v0";

struct attest_options {
  evidence::bundle_limits limits{};
  // Given any, the predicate carries the reference's payload v1 too: the packs the bundle was checked
  // with (lint::ref_of each) and their rules' framework mappings (lint::mappings_of, the same list
  // as the manifest's x-assay.mappings).
  std::vector<contracts::intoto_v1::pack_ref> packs{};
  std::vector<contracts::intoto_v1::mapping> mappings{};
  std::optional<std::string> closure_report_digest{};  // "sha256:<hex>" of a closure-v1's JCS bytes
};

// The in-toto Statement v1 of a bundle the pass verified; with the artifacts member when
// `artifacts` (the packs and closure digest of `o` then go with it). The one place the facts of a
// statement are gathered — attesting writes it, verifying an attestation compares against it —
// and all of them come from the pass (the file's digest was computed as the file was read).
inline contracts::intoto_statement statement_of(const evidence::verified_bundle& v, const attest_options& o,
                                                bool artifacts) {
  contracts::intoto_statement st;
  contracts::intoto_v1::subject subject;
  subject.name = v.bundle_id;
  subject.digest.sha256 = std::string_view(v.file_sha256).substr(std::string_view("sha256:").size());
  st.subject.push_back(std::move(subject));
  auto& p = st.predicate;
  p.schema_version = decltype(p.schema_version)(1);
  p.semantic_equivalence.value = v.manifest_fields.run_root;
  p.run.run_id = v.run_id;
  p.run.event_count = decltype(p.run.event_count)(static_cast<std::int64_t>(v.event_count));
  p.run.producer.name = v.producer.name;
  p.run.producer.version = v.producer.version;
  p.run.producer.git = v.producer.git.value_or("");
  p.run.time_window.start = v.time_start;
  p.run.time_window.end = v.time_end;
  if (artifacts) {
    auto& a = p.artifacts.emplace();
    a.manifest = v.manifest_sha256;
    a.events = v.events_sha256;
    p.packs = o.packs;
    p.mappings = o.mappings;
    if (o.closure_report_digest)
      p.closure_report_digest = *o.closure_report_digest;
  }
  return st;
}

namespace detail {

// The text of member `name` of object `o`, or "?".
inline std::string text_of(const json::value& o, std::string_view name) {
  const json::value* v = o.is_object() ? o.find(name) : nullptr;
  return v != nullptr && v->is_string() ? v->as_string() : std::string("?");
}

// What is in `given` only and in `stamped` only, as a clause naming `what`; empty when they agree.
inline std::string disagreement(std::string_view what, const std::vector<std::string>& given,
                                const std::vector<std::string>& stamped) {
  auto missing = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::string out;
    for (const std::string& x : a)
      if (std::find(b.begin(), b.end(), x) == b.end())
        out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  const std::string only_given = missing(given, stamped), only_stamped = missing(stamped, given);
  if (only_given.empty() && only_stamped.empty())
    return {};
  std::string out = std::string(what) + ":";
  if (!only_given.empty())
    out += " given only " + only_given + (only_stamped.empty() ? "" : ";");
  if (!only_stamped.empty())
    out += " stamped only " + only_stamped;
  return out;
}

}  // namespace detail

// Whether the packs and mappings of `o` agree with the bundle's own stamp: its manifest's x-assay
// packs_applied and mappings (docs/evidence.md), the producer's word, which no digest covers. They
// agree when they name the same packs (name, version, digest) and the same mappings (rule,
// framework, ref), in any order; options naming no pack or mapping, or a bundle without a stamp,
// agree with anything. Otherwise an error (errc::invalid_argument) saying what differs: an
// attestation must not sign mappings the bundle contradicts.
inline result<void> check_stamp(const evidence::verified_bundle& v, const attest_options& o) {
  if (o.packs.empty() && o.mappings.empty())
    return {};
  const auto x = v.manifest_fields.other.find("x-assay");
  if (x == v.manifest_fields.other.end() || !x->second.is_object())
    return {};
  auto list = [&](std::string_view member, auto&& key) {
    std::vector<std::string> out;
    if (const json::value* l = x->second.find(member); l != nullptr && l->is_array())
      for (const json::value& item : l->as_array())
        out.push_back(key(item));
    return out;
  };
  const auto stamped_packs = list("packs_applied", [](const json::value& p) {
    return detail::text_of(p, "name") + "@" + detail::text_of(p, "version") + " (" + detail::text_of(p, "digest") + ")";
  });
  const auto stamped_mappings = list("mappings", [](const json::value& m) {
    return detail::text_of(m, "rule") + " -> " + detail::text_of(m, "framework") + " " + detail::text_of(m, "ref");
  });
  std::vector<std::string> given_packs, given_mappings;
  for (const auto& p : o.packs)
    given_packs.push_back(std::string(p.name) + "@" + std::string(p.version) + " (" + std::string(p.digest) + ")");
  for (const auto& m : o.mappings)
    given_mappings.push_back(std::string(m.rule) + " -> " + std::string(m.framework) + " " + std::string(m.ref));
  std::string why = detail::disagreement("packs", given_packs, stamped_packs);
  const std::string mappings = detail::disagreement("mappings", given_mappings, stamped_mappings);
  if (!mappings.empty())
    why += (why.empty() ? "" : "; ") + mappings;
  if (why.empty())
    return {};
  return make_error(errc::invalid_argument,
                    "the packs given contradict the bundle's own stamp (its manifest's x-assay): " + why);
}

// A visitor of the one verification pass: the statement of the bundle, built when it verified,
// beside any other wing of the same pass (a linter, a closure observer).
//
//   assay::attest::statement_builder attest({.packs = ...});
//   auto v = assay::evidence::verify_bundle_file(path, {}, linter, closure, attest);
//   if (v) auto env = sign_envelope(assay::encode(*attest.statement()).value(), key);  // result
class statement_builder {
 public:
  explicit statement_builder(attest_options o = {}) : o_(std::move(o)) {}
  void on_end(const evidence::verified_bundle& b) {
    if (auto agreed = check_stamp(b, o_); !agreed) {
      refused_ = agreed.error();
      return;
    }
    statement_ = statement_of(b, o_, !o_.packs.empty() || !o_.mappings.empty() || o_.closure_report_digest.has_value());
  }
  // After a pass that verified: the statement; nothing before one, after one that did not, or
  // when the packs of the options contradict the bundle's stamp (refused()).
  const std::optional<contracts::intoto_statement>& statement() const noexcept { return statement_; }
  // After a pass that verified: why no statement was built (check_stamp), if it was not.
  const std::optional<error>& refused() const noexcept { return refused_; }

 private:
  attest_options o_;
  std::optional<contracts::intoto_statement> statement_;
  std::optional<error> refused_;
};

// The in-toto Statement v1 of a bundle (its .tar.gz bytes), after verifying it (docs/evidence.md).
template <class = void>
result<contracts::intoto_statement> statement_for(std::string_view bundle, const attest_options& o = {}) {
  statement_builder builder(o);
  auto v = evidence::verify_bundle_bytes(bundle, o.limits, builder);
  if (!v)
    return v.error();
  if (builder.refused())
    return *builder.refused();
  return *builder.statement();
}

// The bundle attested: its statement as JCS in a DSSE envelope signed by `key`.
template <class = void>
result<contracts::dsse_envelope> attest_bundle(std::string_view bundle, const private_key& key,
                                               const attest_options& o = {}) {
  auto st = statement_for(bundle, o);
  if (!st)
    return st.error();
  auto payload = encode(*st);
  if (!payload)
    return payload.error().front();
  return sign_envelope(*payload, key);
}

// The envelope as written (docs/attestation.md): JSON with payload, payloadType and signatures, canonical.
template <class = void>
result<std::string> envelope_json(const contracts::dsse_envelope& env) {
  auto out = encode(env);
  if (!out)
    return out.error().front();
  return *out;
}

// --- verification -----------------------------------------------------------------------------

struct verification {
  bool signature_verified = false;  // the envelope is the key's signature of its payload
  bool subject_matched = false;     // the statement is about this bundle, as verified
  std::string failure;              // empty on success; else PayloadType, Encoding, KeyId, ...
  std::string message;
  std::string keyid;  // the key's
  bool ok() const noexcept { return failure.empty(); }
};

// The verification in its contract form (what `assay evidence verify-attestation --json` prints).
inline contracts::attestation_result result_of(const verification& v) {
  contracts::attestation_result out;
  out.ok = v.ok();
  out.signature_verified = v.signature_verified;
  out.subject_matched = v.subject_matched;
  out.keyid = v.keyid;
  if (!v.ok()) {
    out.failure = v.failure;
    out.message = v.message;
  }
  return out;
}

namespace detail {

inline verification failed(verification v, std::string code, std::string message) {
  v.failure = std::move(code);
  v.message = std::move(message);
  return v;
}

inline const json::value* member(const json::value& v, std::string_view name) {
  return v.find(name);
}

// The value at `pointer` under `v`, or nullptr.
inline const json::value* at(const json::value* v, std::string_view pointer) {
  if (v == nullptr)
    return nullptr;
  auto r = json::find(*v, pointer);
  return r ? *r : nullptr;
}

inline std::string shown(const json::value* v) {
  if (v == nullptr)
    return "absent";
  auto c = json::to_canonical(*v);
  std::string s = c ? *c : std::string("?");
  return s.size() > 120 ? s.substr(0, 120) + "..." : s;
}

// Every check of docs/attestation.md, in its order; the first that fails is the result's failure.
// `verified()` gives the bundle's verification, asked for only once the signature holds.
template <class F>
verification check_attestation(F&& verified, std::string_view envelope_text, const public_key& key) {
  using detail::failed;
  verification out;
  out.keyid = key.keyid();
  auto env = json::parse(envelope_text);
  if (!env || !env->is_object())
    return failed(out, "Encoding",
                  env ? "the envelope is not a JSON object" : "the envelope is not JSON: " + env.error().format());
  const json::value* type = detail::member(*env, "payloadType");
  if (type == nullptr || !type->is_string() || type->as_string() != intoto_payload_type)
    return failed(out, "PayloadType",
                  "payloadType is " + detail::shown(type) + ", not \"" + std::string(intoto_payload_type) + "\"");
  const json::value* payload_b64 = detail::member(*env, "payload");
  std::optional<std::string> payload;
  if (payload_b64 != nullptr && payload_b64->is_string())
    payload = base64_decode(payload_b64->as_string());
  if (!payload)
    return failed(out, "Encoding", "the payload is not base64");
  const json::value* sigs = detail::member(*env, "signatures");
  if (sigs == nullptr || !sigs->is_array() || sigs->as_array().empty())
    return failed(out, "Encoding", "the envelope has no signature");
  // The first signature decides, as in the reference (its verifier reads signatures[0] and nothing
  // after it): one Ed25519 verification whatever the envelope holds, so an envelope of 100 000
  // signatures costs no more than one of one, and a bad signature first fails even when a good one
  // follows.
  const json::value& s = sigs->as_array().front();
  const json::value* sig_b64 = s.is_object() ? detail::member(s, "sig") : nullptr;
  std::optional<std::string> sig;
  if (sig_b64 != nullptr && sig_b64->is_string())
    sig = base64_decode(sig_b64->as_string());
  if (!sig)
    return failed(out, "Encoding", "a signature is not base64");
  if (sig->size() != 64)
    return failed(out, "Encoding", "a signature is " + std::to_string(sig->size()) + " bytes, not the 64 of Ed25519");
  const json::value* keyid = detail::member(s, "keyid");
  if (keyid != nullptr && keyid->is_string() && !keyid->as_string().empty() && keyid->as_string() != out.keyid)
    return failed(
        out, "KeyId",
        "the signature's keyid " + json::printable(keyid->as_string(), 120) + " is not the key's (" + out.keyid + ")");
  out.signature_verified = verify_signature(pae(intoto_payload_type, *payload), *sig, key);
  if (!out.signature_verified)
    return failed(out, "Signature", "the Ed25519 signature over the PAE does not verify with the key");

  if (!json::is_valid_utf8(*payload))
    return failed(out, "Payload", "the payload is not UTF-8");
  auto st = json::parse(*payload);
  if (!st)
    return failed(out, "Payload", "the payload is not strict JSON: " + st.error().format());
  const json::value* t = st->is_object() ? detail::member(*st, "_type") : nullptr;
  if (t == nullptr || !t->is_string() || t->as_string() != statement_type)
    return failed(out, "Payload", "the payload is not an in-toto Statement v1 (_type is " + detail::shown(t) + ")");
  const json::value* pt = detail::member(*st, "predicateType");
  if (pt == nullptr || !pt->is_string() || pt->as_string() != predicate_type) {
    if (pt != nullptr && pt->is_string() && pt->as_string() == legacy_predicate_type)
      return failed(out, "PredicateType", "the predicate type is the legacy evidence-bundle/v0, not v1");
    return failed(out, "PredicateType",
                  "predicateType is " + detail::shown(pt) + ", not \"" + std::string(predicate_type) + "\"");
  }
  const json::value* subjects = detail::member(*st, "subject");
  if (subjects == nullptr || !subjects->is_array() || subjects->as_array().size() != 1)
    return failed(out, "Subject", "the statement must have exactly one subject");
  const json::value& subject = subjects->as_array()[0];
  const json::value* digest = subject.is_object() ? detail::member(subject, "digest") : nullptr;
  const json::value* sha = digest != nullptr && digest->is_object() ? detail::member(*digest, "sha256") : nullptr;
  if (sha == nullptr || !sha->is_string() || digest->as_object().size() != 1)
    return failed(out, "Subject", "the subject must have exactly one digest, sha256");
  const json::value* name = detail::member(subject, "name");

  // What the bundle's own statement says, gathered as attesting gathers it.
  const result<evidence::verified_bundle>& bundle = verified();
  if (!bundle)
    return failed(out, "BundleInvalid", std::string(assay::name(bundle.error().code)) + ": " + bundle.error().message);
  const contracts::intoto_statement expected = statement_of(*bundle, {}, true);
  const auto& own = expected.subject.front();
  const std::string file_sha = own.digest.sha256;
  if (sha->as_string() != file_sha)
    return failed(out, "SubjectDigest",
                  "the subject's sha256 is " + detail::shown(sha) + ", the bundle file's is \"" + file_sha + "\"");
  if (name == nullptr || !name->is_string() || name->as_string() != std::string_view(own.name))
    return failed(
        out, "SubjectName",
        "the subject's name is " + detail::shown(name) + ", the bundle's id is \"" + std::string(own.name) + "\"");
  out.subject_matched = true;

  // The predicate against the bundle's own, member by member: every member the bundle fixes, and
  // the artifacts when the envelope has them (packs, mappings and the closure digest are the
  // attester's to give).
  auto own_predicate = encode(expected.predicate);
  if (!own_predicate)
    return failed(out, "BundleInvalid", own_predicate.error().front().format());
  const json::value want_predicate = json::parse(*own_predicate).value();
  const json::value* pred = detail::member(*st, "predicate");
  std::vector<std::string_view> pointers = {"/schema_version",
                                            "/semantic_equivalence/algorithm",
                                            "/semantic_equivalence/value",
                                            "/run/run_id",
                                            "/run/event_count",
                                            "/run/producer/name",
                                            "/run/producer/version",
                                            "/run/producer/git",
                                            "/run/time_window/start",
                                            "/run/time_window/end"};
  if (detail::at(pred, "/artifacts") != nullptr)
    pointers.insert(pointers.end(), {"/artifacts/manifest", "/artifacts/events"});
  for (const std::string_view pointer : pointers) {
    const json::value* want = detail::at(&want_predicate, pointer);
    const json::value* got = detail::at(pred, pointer);
    if (got == nullptr || want == nullptr || *got != *want) {
      out.subject_matched = false;
      return failed(out, "Predicate",
                    "predicate" + std::string(pointer) + " is " + detail::shown(got) + ", the bundle says " +
                        detail::shown(want));
    }
  }
  return out;
}

}  // namespace detail

// Every check of docs/attestation.md, in its order; the first that fails is the result's failure. The bundle
// (its .tar.gz bytes) is verified once the signature holds.
template <class = void>
verification verify_attestation(std::string_view bundle, std::string_view envelope_text, const public_key& key,
                                const evidence::bundle_limits& limits = {}) {
  std::optional<result<evidence::verified_bundle>> verified;
  return detail::check_attestation(
      [&]() -> const result<evidence::verified_bundle>& {
        return verified.emplace(evidence::verify_bundle_bytes(bundle, limits));
      },
      envelope_text, key);
}

// The same against a bundle already verified (or refused) by a pass of the caller's, where other
// wings looked at it too: the bundle is not read again.
template <class = void>
verification verify_attestation(const result<evidence::verified_bundle>& verified, std::string_view envelope_text,
                                const public_key& key) {
  return detail::check_attestation([&]() -> const result<evidence::verified_bundle>& { return verified; },
                                   envelope_text, key);
}

}  // namespace assay::attest

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::attest {
ASSAY_EXTERN_TEMPLATE result<contracts::intoto_statement> statement_for<void>(std::string_view, const attest_options&);
ASSAY_EXTERN_TEMPLATE result<contracts::dsse_envelope> attest_bundle<void>(std::string_view, const private_key&,
                                                                           const attest_options&);
ASSAY_EXTERN_TEMPLATE result<std::string> envelope_json<void>(const contracts::dsse_envelope&);
ASSAY_EXTERN_TEMPLATE verification verify_attestation<void>(std::string_view, std::string_view, const public_key&,
                                                            const evidence::bundle_limits&);
ASSAY_EXTERN_TEMPLATE verification verify_attestation<void>(const result<evidence::verified_bundle>&, std::string_view,
                                                            const public_key&);
}  // namespace assay::attest
#endif
