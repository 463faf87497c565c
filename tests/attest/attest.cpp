// Attestation (SPEC §15): base64 and PAE, Ed25519 keys, the reference's statement and envelope
// byte for byte, OpenSSL as an outside verifier, and every named failure of the offline check.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/attest/attest.hpp"
#include "assay/closure/observer.hpp"
#include "assay/json/value.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/resolve.hpp"
#include "assay/reflect/schema.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <sys/wait.h>

#include <unistd.h>

namespace attest = assay::attest;
namespace fs = std::filesystem;
namespace json = assay::json;

namespace {

std::string hex_of(std::string_view b) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (char c : b) {
    out += digits[static_cast<unsigned char>(c) >> 4];
    out += digits[static_cast<unsigned char>(c) & 15];
  }
  return out;
}

std::string unhex(std::string_view h) {
  std::string out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out += static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16));
  return out;
}

const std::string seed1 = std::string(31, '\0') + '\1';
const std::string pub1_hex = "4cb5abf6ad79fbf5abbccafcc269d85cd2651ed4b885b5869f241aedf0a5ba29";
const std::string keyid1 = "sha256:1300ab5783848215efd5623772c6750e429f26a6f9f0388b3cad7eb67976f774";

std::string pem(std::string_view label, std::string_view der) {
  return "-----BEGIN " + std::string(label) + "-----\n" + attest::base64_encode(der) + "\n-----END " +
         std::string(label) + "-----\n";
}

attest::private_key key1() {
  return attest::private_key::from_seed(seed1).value();
}

// A small bundle that verifies.
std::string small_bundle(const std::string& run = "run-1") {
  std::vector<json::value> events;
  for (std::uint64_t i = 0; i < 3; ++i)
    events.push_back(assay_test::make_event(i, run));
  return assay_test::bundle(assay_test::lines_of(std::move(events)));
}

// An envelope of `statement` (any JSON text) signed by `key`.
std::string envelope_of(std::string_view statement, const attest::private_key& key) {
  return attest::envelope_json(attest::sign_envelope(statement, key).value()).value();
}

std::string statement_text(const std::string& bundle) {
  return assay::encode(attest::statement_for(bundle).value()).value();
}

// `text` with the JSON value at `pointer` replaced by `with` (JSON text; empty: removed).
std::string edited(const std::string& text, const std::string& pointer, const std::string& with) {
  json::value v = json::parse(text).value();
  const std::size_t slash = pointer.rfind('/');
  json::value* parent = &v;
  if (slash > 0)
    parent = const_cast<json::value*>(json::find(v, pointer.substr(0, slash)).value());
  const std::string last = pointer.substr(slash + 1);
  if (with.empty())
    parent->as_object().erase(std::remove_if(parent->as_object().begin(), parent->as_object().end(),
                                             [&](const auto& m) { return m.name == last; }),
                              parent->as_object().end());
  else
    parent->set(last, json::parse(with).value());
  return json::to_canonical(v).value();
}

bool have_openssl() {
  return std::system("openssl version >/dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("base64: standard out; standard and URL-safe in, padded or not, nothing else") {
  CHECK(attest::base64_encode("") == "");
  CHECK(attest::base64_encode("f") == "Zg==");
  CHECK(attest::base64_encode("fo") == "Zm8=");
  CHECK(attest::base64_encode("foo") == "Zm9v");
  CHECK(attest::base64_encode("\xfb\xff") == "+/8=");
  CHECK(attest::base64_decode("+/8=").value() == "\xfb\xff");
  CHECK(attest::base64_decode("-_8=").value() == "\xfb\xff");  // URL-safe
  CHECK(attest::base64_decode("-_8").value() == "\xfb\xff");   // unpadded
  CHECK(attest::base64_decode("Zm9v").value() == "foo");
  CHECK_FALSE(attest::base64_decode("+_8=").has_value());  // two alphabets
  CHECK(attest::base64_decode("Zm8").value() == "fo");
  CHECK_FALSE(attest::base64_decode("Zm9").has_value());   // "fo" with a bit set past its end
  CHECK_FALSE(attest::base64_decode("Z").has_value());     // no encoding has this length
  CHECK_FALSE(attest::base64_decode("Zh==").has_value());  // bits past the last byte
  CHECK_FALSE(attest::base64_decode("Zm 9v").has_value());
  CHECK_FALSE(attest::base64_decode("Zm9v=").has_value());
}

TEST_CASE("PAE: the DSSE pre-authentication encoding") {
  CHECK(attest::pae("", "") == "DSSEv1 0  0 ");
  CHECK(attest::pae("http://example.com/HelloWorld", "hello world") ==
        "DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  CHECK(attest::pae("t", "\xc3\xa9") == "DSSEv1 1 t 2 \xc3\xa9");  // lengths in bytes
}

TEST_CASE("sign_envelope refuses an empty payload or type, with the reason, and signs a byte") {
  const attest::private_key key = key1();
  const auto empty = attest::sign_envelope("", key);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == assay::errc::invalid_argument);
  CHECK(empty.error().message == "the payload to sign is empty: a DSSE envelope carries a statement");
  const auto untyped = attest::sign_envelope("{}", key, "");
  REQUIRE_FALSE(untyped);
  CHECK(untyped.error().message == "the payload type is empty: name the payload's media type");
  const auto one = attest::sign_envelope("x", key).value();
  CHECK(std::string(one.payload) == "eA==");
  CHECK(std::string(one.payloadType) == "application/vnd.in-toto+json");
  REQUIRE(one.signatures.size() == 1);
  CHECK(attest::verify_signature(attest::pae(one.payloadType, "x"),
                                 attest::base64_decode(one.signatures[0].sig).value(), key.public_part()));
}

TEST_CASE("PAE: the DSSE project's vectors" * doctest::test_suite("conformance")) {
  const fs::path p = fs::path(std::getenv("ASSAY_CONFORMANCE_DIR")) / "dsse" / "pae-vectors.json";
  const json::value v = json::parse(assay_test::read_file(p)).value();
  std::size_t n = 0;
  for (const json::value& c : v.find("pae")->as_array()) {
    CAPTURE(c.find("payloadType")->as_string());
    CHECK(attest::pae(c.find("payloadType")->as_string(), unhex(c.find("body_hex")->as_string())) ==
          unhex(c.find("pae_hex")->as_string()));
    ++n;
  }
  CHECK(n >= 2);
}

TEST_CASE("keys: PKCS#8 v1 and v2, SPKI, keyid; what is refused and why") {
  const std::string v1 = unhex("302e020100300506032b657004220420") + seed1;
  const std::string v2 = unhex("3051020101300506032b657004220420") + seed1 + unhex("812100") + unhex(pub1_hex);
  for (const std::string& der : {v1, v2}) {
    auto k = attest::private_key::from_pem(pem("PRIVATE KEY", der));
    REQUIRE(k.has_value());
    CHECK(hex_of(std::string(reinterpret_cast<const char*>(k->public_part().raw().data()), 32)) == pub1_hex);
    CHECK(k->public_part().keyid() == keyid1);
  }
  const attest::public_key pub = key1().public_part();
  CHECK(pub.pem() ==
        "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEATLWr9q15+/WrvMr8wmnYXNJlHtS4hbWGnyQa7fCluik=\n"
        "-----END PUBLIC KEY-----\n");
  CHECK(attest::public_key::from_pem(pub.pem()).value().keyid() == keyid1);

  auto refused = [](auto r) { return r ? std::string("loaded") : r.error().message; };
  std::string bad_pub = v2;
  bad_pub.back() = static_cast<char>(bad_pub.back() ^ 1);
  CHECK(refused(attest::private_key::from_pem(pem("PRIVATE KEY", bad_pub))) ==
        "the PKCS#8 v2 key's public key does not match its private key");
  CHECK(refused(attest::private_key::from_pem("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED "
                                              "PRIVATE KEY-----\n")) ==
        "the private key is encrypted: give an unencrypted PKCS#8 key");
  CHECK(refused(attest::private_key::from_pem(pub.pem())) ==
        "expected a PEM block \"PRIVATE KEY\", found \"PUBLIC KEY\"");
  CHECK(refused(attest::private_key::from_pem("hello")) == "not PEM: no \"-----BEGIN PRIVATE KEY-----\" line");
  // Two keys in one file: which was meant is not guessed (the first was taken silently before).
  const attest::public_key other_pub = attest::private_key::from_seed(std::string(32, '\7')).value().public_part();
  CHECK(refused(attest::public_key::from_pem(pub.pem() + other_pub.pem())) ==
        "the PEM text holds 2 \"PUBLIC KEY\" blocks: give exactly one");
  CHECK(refused(attest::public_key::from_pem(pub.pem() + pub.pem() + pub.pem())) ==
        "the PEM text holds 3 \"PUBLIC KEY\" blocks: give exactly one");
  CHECK(refused(attest::private_key::from_pem(pem("PRIVATE KEY", v1) + pem("PRIVATE KEY", v1))) ==
        "the PEM text holds 2 \"PRIVATE KEY\" blocks: give exactly one");
  // An X25519 key (OID 1.3.101.110): another algorithm.
  CHECK(refused(attest::private_key::from_pem(pem("PRIVATE KEY", unhex("302e020100300506032b656e04220420") + seed1))) ==
        "not an Ed25519 private key (its algorithm is not 1.3.101.112)");
  CHECK(refused(attest::private_key::from_pem(pem("PRIVATE KEY", v1 + "x"))) ==
        "not a PKCS#8 private key (DER SEQUENCE)");
  CHECK(refused(attest::public_key::from_pem(pem("PUBLIC KEY", unhex("302a300506032b656e032100") + unhex(pub1_hex)))) ==
        "not an Ed25519 public key (its algorithm is not 1.3.101.112)");
}

TEST_CASE("attest and verify a bundle in memory; OpenSSL verifies the signature and agrees on the keyid") {
  const std::string bundle = small_bundle();
  const attest::private_key key = key1();
  auto env = attest::attest_bundle(bundle, key);
  REQUIRE(env.has_value());
  const std::string text = attest::envelope_json(*env).value();
  const attest::verification v = attest::verify_attestation(bundle, text, key.public_part());
  CHECK(v.ok());
  CHECK(v.signature_verified);
  CHECK(v.subject_matched);
  CHECK(v.keyid == keyid1);
  CHECK(env->signatures[0].keyid == keyid1);
  // The statement: the reference's shape, nothing more.
  const json::value st = json::parse(attest::base64_decode(env->payload).value()).value();
  CHECK(st.find("predicate")->find("artifacts") == nullptr);
  CHECK(st.find("predicate")->find("packs") == nullptr);
  CHECK(st.find("subject")->as_array()[0].find("digest")->find("sha256")->as_string() ==
        assay::hash::digest_bytes<assay::hash::sha256>(bundle).hex());

  if (!have_openssl()) {
    MESSAGE("openssl absent: the outside verification is left out");
    return;
  }
  const fs::path dir = fs::temp_directory_path() / ("assay-attest-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string payload = attest::base64_decode(env->payload).value();
  std::ofstream(dir / "pae.bin", std::ios::binary) << attest::pae(attest::intoto_payload_type, payload);
  std::ofstream(dir / "sig.bin", std::ios::binary) << attest::base64_decode(env->signatures[0].sig).value();
  std::ofstream(dir / "pub.pem", std::ios::binary) << key.public_part().pem();
  const std::string d = dir.string();
  CHECK(std::system(("openssl pkeyutl -verify -pubin -inkey " + d + "/pub.pem -rawin -in " + d + "/pae.bin -sigfile " +
                     d + "/sig.bin >/dev/null 2>&1")
                        .c_str()) == 0);
  CHECK(std::system(("openssl pkey -pubin -in " + d + "/pub.pem -outform DER -out " + d + "/pub.der").c_str()) == 0);
  CHECK("sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(assay_test::read_file(dir / "pub.der")).hex() ==
        keyid1);
  // A key OpenSSL made loads, and signs what OpenSSL then verifies.
  REQUIRE(std::system(("openssl genpkey -algorithm ed25519 -out " + d + "/k.pem 2>/dev/null").c_str()) == 0);
  auto k2 = attest::private_key::from_pem(assay_test::read_file(dir / "k.pem"));
  REQUIRE(k2.has_value());
  std::ofstream(dir / "sig2.bin", std::ios::binary) << attest::sign("hello", *k2);
  std::ofstream(dir / "msg.bin", std::ios::binary) << "hello";
  CHECK(std::system(("openssl pkey -in " + d + "/k.pem -pubout -out " + d +
                     "/k.pub && openssl pkeyutl -verify -pubin "
                     "-inkey " +
                     d + "/k.pub -rawin -in " + d + "/msg.bin -sigfile " + d + "/sig2.bin >/dev/null 2>&1")
                        .c_str()) == 0);
  fs::remove_all(dir);
}

TEST_CASE("verify-attestation: each named failure, in its order") {
  const std::string bundle = small_bundle();
  const attest::private_key key = key1();
  const attest::public_key pub = key.public_part();
  const std::string good = envelope_of(statement_text(bundle), key);
  auto check = [&](const std::string& envelope, const std::string& failure, const std::string& message,
                   const std::string& b = {}) {
    const attest::verification v = attest::verify_attestation(b.empty() ? bundle : b, envelope, pub);
    CHECK(v.failure == failure);
    CHECK(v.message == message);
    return v;
  };
  CHECK(attest::verify_attestation(bundle, good, pub).ok());

  check(edited(good, "/payloadType", R"("text/plain")"), "PayloadType",
        "payloadType is \"text/plain\", not \"application/vnd.in-toto+json\"");
  check(edited(good, "/payload", R"("%%%")"), "Encoding", "the payload is not base64");
  check(edited(good, "/signatures", "[]"), "Encoding", "the envelope has no signature");
  check(edited(good, "/signatures/0/sig", R"("AAAA")"), "Encoding", "a signature is 3 bytes, not the 64 of Ed25519");
  // Another key: its keyid differs; without a keyid, the signature fails.
  const attest::public_key other = attest::private_key::from_seed(std::string(32, '\7')).value().public_part();
  const attest::verification wrong = attest::verify_attestation(bundle, good, other);
  CHECK(wrong.failure == "KeyId");
  CHECK(wrong.message == "the signature's keyid " + keyid1 + " is not the key's (" + other.keyid() + ")");
  CHECK(attest::verify_attestation(bundle, edited(good, "/signatures/0/keyid", R"("")"), other).failure == "Signature");
  // A payload changed after signing.
  const std::string changed = attest::base64_encode(edited(statement_text(bundle), "/predicate/run/run_id", R"("x")"));
  check(edited(good, "/payload", "\"" + changed + "\""), "Signature",
        "the Ed25519 signature over the PAE does not verify with the key");
  // URL-safe base64: accepted.
  std::string url = good;
  for (char& c : url)
    c = c == '+' ? '-' : c == '/' ? '_' : c;
  url = edited(edited(url, "/payloadType", R"("application/vnd.in-toto+json")"), "/signatures/0/keyid",
               "\"" + keyid1 + "\"");
  CHECK(attest::verify_attestation(bundle, url, pub).ok());

  const std::string st = statement_text(bundle);
  check(envelope_of("not json", key), "Payload",
        "the payload is not strict JSON: line 1, column 1 (byte 0): invalid literal (expected null)");
  check(envelope_of(edited(st, "/_type", R"("https://in-toto.io/Statement/v0.1")"), key), "Payload",
        "the payload is not an in-toto Statement v1 (_type is \"https://in-toto.io/Statement/v0.1\")");
  check(envelope_of(edited(st, "/predicateType", "\"" + std::string(attest::legacy_predicate_type) + "\""), key),
        "PredicateType", "the predicate type is the legacy evidence-bundle/v0, not v1");
  const std::string subject = json::to_canonical(*json::find(json::parse(st).value(), "/subject/0").value()).value();
  check(envelope_of(edited(st, "/subject", "[" + subject + "," + subject + "]"), key), "Subject",
        "the statement must have exactly one subject");
  check(envelope_of(edited(st, "/subject/0/digest/sha512", R"("ab")"), key), "Subject",
        "the subject must have exactly one digest, sha256");
  // The bundle itself fails verification.
  check(good, "BundleInvalid",
        "IntegrityGzip: the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b", "not a bundle");
  // Another bundle, which verifies.
  const std::string another = small_bundle("run-2");
  check(good, "SubjectDigest",
        "the subject's sha256 is \"" + assay::hash::digest_bytes<assay::hash::sha256>(bundle).hex() +
            "\", the bundle file's is \"" + assay::hash::digest_bytes<assay::hash::sha256>(another).hex() + "\"",
        another);
  // Same file, another name.
  check(envelope_of(edited(st, "/subject/0/name", R"("sha256:00")"), key), "SubjectName",
        "the subject's name is \"sha256:00\", the bundle's id is \"" +
            json::find(json::parse(st).value(), "/subject/0/name").value()->as_string() + "\"");
  // A predicate member that disagrees with the bundle, signed anyway.
  const attest::verification p = check(envelope_of(edited(st, "/predicate/run/event_count", "4"), key), "Predicate",
                                       "predicate/run/event_count is 4, the bundle says 3");
  CHECK(p.signature_verified);
  CHECK_FALSE(p.subject_matched);
}

namespace {

// `good` (an envelope) with its signatures replaced by `sigs` (each a base64 signature), every one
// under `keyid`.
std::string with_signatures(const std::string& good, const std::vector<std::string>& sigs, const std::string& keyid) {
  std::string list = "[";
  for (std::size_t i = 0; i < sigs.size(); ++i)
    list += (i == 0 ? "" : ",") + std::string("{\"keyid\":\"") + keyid + "\",\"sig\":\"" + sigs[i] + "\"}";
  return edited(good, "/signatures", list + "]");
}

// The base64 signature of envelope `env` and one of the same length that does not verify.
std::pair<std::string, std::string> good_and_bad_signature(const std::string& env) {
  const std::string good_sig =
      std::string(json::parse(env).value().find("signatures")->as_array().at(0).find("sig")->as_string());
  std::string raw = attest::base64_decode(good_sig).value();
  raw[0] = static_cast<char>(raw[0] ^ 1);
  return {good_sig, attest::base64_encode(raw)};
}

}  // namespace

TEST_CASE("verify-attestation: the first signature decides; the signatures after it are never read") {
  const std::string bundle = small_bundle();
  const attest::private_key key = key1();
  const attest::public_key pub = key.public_part();
  const std::string good = envelope_of(statement_text(bundle), key);
  const auto [good_sig, bad_sig] = good_and_bad_signature(good);
  // As the reference: signatures[0] is the one checked, whatever follows it.
  const auto bad_first = attest::verify_attestation(bundle, with_signatures(good, {bad_sig, good_sig}, keyid1), pub);
  CHECK(bad_first.failure == "Signature");
  CHECK(bad_first.message == "the Ed25519 signature over the PAE does not verify with the key");
  CHECK(attest::verify_attestation(bundle, with_signatures(good, {good_sig, bad_sig}, keyid1), pub).ok());
  // 100 000 signatures after the first are never read (17 s when each was verified): they are
  // not even base64, which any reading of them would refuse (Encoding). So the first decides, at
  // the cost of one verification; held by what is read, not by a clock.
  std::vector<std::string> good_then_junk(100001, "!not base64!");
  good_then_junk.front() = good_sig;
  std::vector<std::string> bad_then_junk = good_then_junk;
  bad_then_junk.front() = bad_sig;
  const auto v_good = attest::verify_attestation(bundle, with_signatures(good, good_then_junk, keyid1), pub);
  CHECK(v_good.ok());
  CHECK(v_good.signature_verified);
  const auto v_bad = attest::verify_attestation(bundle, with_signatures(good, bad_then_junk, keyid1), pub);
  CHECK(v_bad.failure == "Signature");
  CHECK_FALSE(v_bad.signature_verified);
  // The junk alone, first: refused as what it is.
  const auto v_junk =
      attest::verify_attestation(bundle, with_signatures(good, {"!not base64!", good_sig}, keyid1), pub);
  CHECK(v_junk.failure == "Encoding");
  CHECK(v_junk.message == "a signature is not base64");
}

TEST_CASE("verify-attestation: the reference agrees on two signatures, in each order" * doctest::test_suite("oracle")) {
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_MESSAGE(!ref.empty(), "assay-ref not found");
  const fs::path dir = fs::temp_directory_path() / ("assay-attest-sigs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string bundle = small_bundle();
  std::ofstream(dir / "b.tar.gz", std::ios::binary) << bundle;
  std::ofstream(dir / "pub.pem", std::ios::binary) << key1().public_part().pem();
  const std::string good = attest::envelope_json(attest::attest_bundle(bundle, key1()).value()).value();
  const auto sig_pair = good_and_bad_signature(good);
  const std::string& good_sig = sig_pair.first;
  const std::string& bad_sig = sig_pair.second;
  const std::vector<std::vector<std::string>> orders = {
      {bad_sig, good_sig}, {good_sig, bad_sig}, {good_sig}, {bad_sig}, std::vector<std::string>(1000, bad_sig)};
  for (const auto& sigs : orders) {
    const std::string env = with_signatures(good, sigs, keyid1);
    std::ofstream(dir / "env.json", std::ios::binary) << env;
    const std::string d = dir.string();
    const int status = std::system(
        (ref.string() + " verify-attestation " + d + "/b.tar.gz " + d + "/env.json " + d + "/pub.pem >/dev/null 2>&1")
            .c_str());
    const bool theirs = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const bool ours = attest::verify_attestation(bundle, env, key1().public_part()).ok();
    INFO(sigs.size() << " signature(s), the first " << (sigs.front() == good_sig ? "good" : "bad"));
    CHECK(ours == (sigs.front() == good_sig));
    CHECK(theirs == ours);
  }
  fs::remove_all(dir);
}

TEST_CASE("attest with packs and a closure digest: the predicate carries ADR-025's members") {
  const std::string bundle = small_bundle();
  attest::attest_options o;
  o.packs.push_back({"cicd-starter", "1.0.0", "sha256:" + std::string(64, 'a')});
  o.closure_report_digest = "sha256:" + std::string(64, 'b');
  auto st = attest::statement_for(bundle, o);
  REQUIRE(st.has_value());
  REQUIRE(st->predicate.artifacts.has_value());
  CHECK(st->predicate.packs->size() == 1);
  CHECK(st->predicate.mappings->empty());
  CHECK(std::string(*st->predicate.closure_report_digest) == "sha256:" + std::string(64, 'b'));
  const std::string env = envelope_of(assay::encode(*st).value(), key1());
  CHECK(attest::verify_attestation(bundle, env, key1().public_part()).ok());
}

TEST_CASE("the reference's fixture, its statement and envelope byte for byte" * doctest::test_suite("conformance")) {
  const fs::path b =
      fs::path(std::getenv("ASSAY_CONFORMANCE_DIR")) / "assay-upstream" / "bundles" / "test-bundle.tar.gz";
  const std::string bundle = assay_test::read_file(b);
  CHECK(
      statement_text(bundle) ==
      R"({"_type":"https://in-toto.io/Statement/v1","predicate":{"run":{"event_count":5,"producer":{"git":"",)"
      R"("name":"assay","version":"3.10.0"},"run_id":"ci-test-run-001","time_window":{"end":"2023-11-14T22:13:24Z",)"
      R"("start":"2023-11-14T22:13:20Z"}},"schema_version":1,"semantic_equivalence":{"algorithm":"assay-run-root-v1",)"
      R"("value":"sha256:7a47bb25f2bd8e4ca031033d6c151812188f3b2bb8fa629ed100ea2fa53b7e41"}},)"
      R"("predicateType":"https://docs.getassay.dev/attestation/evidence-bundle/v1","subject":[{"digest":)"
      R"({"sha256":"dc5e3ba36652ba8ec0ee94fdabe28b3d121cbdc3fce83822c65873e3cd69bfbb"},)"
      R"("name":"sha256:7a47bb25f2bd8e4ca031033d6c151812188f3b2bb8fa629ed100ea2fa53b7e41"}]})");
  auto env = attest::attest_bundle(bundle, key1());
  REQUIRE(env.has_value());
  CHECK(env->signatures[0].keyid == keyid1);
  CHECK(std::string(env->signatures[0].sig) ==
        "aFWo9U9f5DQf0buxhKYEUlwPBavwBbR47AS0DZpG7K2ROhEdvsnz2src71zbMOG0mQ0fNNnP+q4KCGtOiT+WAw==");
}

TEST_CASE("the reference's Ed25519 envelope verifies at the DSSE level with its trusted key" *
          doctest::test_suite("conformance")) {
  const fs::path dir = fs::path(std::getenv("ASSAY_CONFORMANCE_DIR")) / "assay-upstream" / "dsse";
  const json::value trusted = json::parse(assay_test::read_file(dir / "pinned-ed25519.trustedkey.json")).value();
  const std::string spki = attest::base64_decode(trusted.find("public_key")->as_string()).value();
  const attest::public_key key = attest::public_key::from_spki(spki).value();
  CHECK(key.keyid() == trusted.find("key_id")->as_string());  // sha256 of the SPKI DER, as here
  const json::value env = json::parse(assay_test::read_file(dir / "slsa-provenance.dsse.json")).value();
  const std::string payload = attest::base64_decode(env.find("payload")->as_string()).value();
  const std::string type = env.find("payloadType")->as_string();
  const json::value& sig = env.find("signatures")->as_array().at(0);
  const std::string message = attest::pae(type, payload);
  CHECK(attest::verify_signature(message, attest::base64_decode(sig.find("sig")->as_string()).value(), key));
  // One byte of the payload changed: it does not.
  std::string changed = payload;
  changed[changed.size() / 2] = static_cast<char>(changed[changed.size() / 2] ^ 1);
  CHECK_FALSE(attest::verify_signature(attest::pae(type, changed),
                                       attest::base64_decode(sig.find("sig")->as_string()).value(), key));
  // Its statement is the one given beside it.
  CHECK(json::parse(payload).value() ==
        json::parse(assay_test::read_file(dir / "slsa-provenance.statement.json")).value());
}

TEST_CASE("the reference signs and verifies as we do" * doctest::test_suite("oracle")) {
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_MESSAGE(!ref.empty(), "assay-ref not found");
  const fs::path dir = fs::temp_directory_path() / ("assay-attest-ref-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string bundle = small_bundle();
  std::ofstream(dir / "b.tar.gz", std::ios::binary) << bundle;
  std::ofstream(dir / "pub.pem", std::ios::binary) << key1().public_part().pem();
  std::ofstream(dir / "ours.json", std::ios::binary)
      << attest::envelope_json(attest::attest_bundle(bundle, key1()).value()).value();
  const std::string d = dir.string();
  CHECK(std::system((ref.string() + " verify-attestation " + d + "/b.tar.gz " + d + "/ours.json " + d +
                     "/pub.pem >/dev/null 2>&1")
                        .c_str()) == 0);
  CHECK(std::system((ref.string() + " attest " + d + "/b.tar.gz " + hex_of(seed1) + " > " + d + "/ref.json").c_str()) ==
        0);
  const json::value theirs = json::parse(assay_test::read_file(dir / "ref.json")).value();
  const json::value ours = json::parse(assay_test::read_file(dir / "ours.json")).value();
  CHECK(theirs == ours);
  fs::remove_all(dir);
}

TEST_CASE("attest as a visitor: lint, closure and the statement from one pass, equal to statement_for's") {
  const std::string bundle = small_bundle();
  auto packs = assay::lint::load_packs(std::vector<std::string>{"cicd-starter"});
  REQUIRE(packs.has_value());
  auto linter = assay::lint::linter::create(*packs);
  REQUIRE(linter.has_value());
  assay::closure::observer closure(*packs);
  const attest::attest_options o{.packs = {{"cicd-starter", "1.0.0+assay", (*packs)[0].digest}}};
  attest::statement_builder builder(o);
  struct passes {
    int events = 0, ends = 0;
    void on_event(const assay::evidence::verified_event&) { ++events; }
    void on_end(const assay::evidence::verified_bundle&) { ++ends; }
  } count;
  const auto verified = assay::evidence::verify_bundle_bytes(bundle, {}, *linter, closure, builder, count);
  REQUIRE(verified.has_value());
  CHECK(count.ends == 1);  // one pass fed every wing
  REQUIRE(builder.statement().has_value());
  CHECK(assay::encode(*builder.statement()).value() == assay::encode(attest::statement_for(bundle, o).value()).value());
  const std::string file_hex = assay::hash::digest_bytes<assay::hash::sha256>(bundle).hex();
  CHECK(builder.statement()->subject.front().digest.sha256 == file_hex);
  CHECK(closure.report().bundle_digest.value() == "sha256:" + file_hex);
  CHECK(linter->take().rules.size() == (*packs)[0].definition.rules.size() + 6);  // the pack's and the six built-in
  // The attestation checked against that same pass, and against the bytes: the same verdict.
  const attest::private_key key = key1();
  const std::string env =
      attest::envelope_json(attest::sign_envelope(assay::encode(*builder.statement()).value(), key).value()).value();
  CHECK(attest::verify_attestation(verified, env, key.public_part()).ok());
  CHECK(attest::verify_attestation(bundle, env, key.public_part()).ok());
  // A pass that did not verify gives no statement; an attestation checked against it fails so.
  attest::statement_builder none;
  const auto refused = assay::evidence::verify_bundle_bytes(bundle.substr(0, bundle.size() - 1), {}, none);
  REQUIRE_FALSE(refused.has_value());
  CHECK_FALSE(none.statement().has_value());
  const attest::verification v = attest::verify_attestation(refused, env, key.public_part());
  CHECK(v.failure == "BundleInvalid");
  CHECK(v.signature_verified);
}

TEST_CASE("verify-attestation's result in its contract form, to the byte, and its schema") {
  const std::string bundle = small_bundle();
  const attest::private_key key = key1();
  const std::string env = attest::envelope_json(attest::attest_bundle(bundle, key).value()).value();
  CHECK(assay::encode(attest::result_of(attest::verify_attestation(bundle, env, key.public_part()))).value() ==
        R"({"failure":null,"keyid":")" + keyid1 +
            R"(","message":null,"ok":true,"signature_verified":true,"subject_matched":true})");
  const attest::verification other = attest::verify_attestation(small_bundle("run-2"), env, key.public_part());
  CHECK(assay::encode(attest::result_of(other)).value() ==
        R"({"failure":"SubjectDigest","keyid":")" + keyid1 + R"(","message":)" +
            json::to_canonical(json::value(other.message)).value() +
            R"(,"ok":false,"signature_verified":true,"subject_matched":false})");
  const std::string schema = assay::json::to_canonical(assay::schema<assay::contracts::attestation_result>()).value();
  CHECK(schema.find(R"("required":["failure","keyid","message","ok","signature_verified","subject_matched"])") !=
        std::string::npos);
}

TEST_CASE("attest: packs that contradict the bundle's own stamp are refused; agreeing ones signed") {
  const std::string digest = "sha256:" + std::string(64, 'a'), other = "sha256:" + std::string(64, 'b');
  const std::string stamped =
      assay_test::bundle(assay_test::lines_of({assay_test::make_event(0, "run-1")}), [&](json::value& m) {
        m.set("x-assay", json::parse(R"({"packs_applied":[{"name":"p","version":"1.0.0","digest":")" + digest +
                                     R"(","kind":"compliance"}],"mappings":[{"rule":"p@1.0.0:OWN-003",)"
                                     R"("framework":"p","ref":"Annex IV"}]})")
                             .value());
      });
  const attest::attest_options agree{.packs = {{"p", "1.0.0", digest}},
                                     .mappings = {{"p@1.0.0:OWN-003", "p", "Annex IV"}}};
  CHECK(attest::statement_for(stamped, agree).has_value());
  CHECK(attest::statement_for(stamped).has_value());  // no packs given: nothing to contradict
  attest::attest_options contradict{.packs = {{"p", "1.0.0", other}},
                                    .mappings = {{"p@1.0.0:OWN-003", "p", "Annex V"}}};
  auto refused = attest::statement_for(stamped, contradict);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == assay::errc::invalid_argument);
  CHECK(refused.error().message ==
        "the packs given contradict the bundle's own stamp (its manifest's x-assay): packs: given only p@1.0.0 (" +
            other + "); stamped only p@1.0.0 (" + digest +
            "); mappings: given only p@1.0.0:OWN-003 -> p Annex V; stamped only p@1.0.0:OWN-003 -> p Annex IV");
  // As a visitor: the pass verifies, the statement is refused, and why is said.
  attest::statement_builder builder(contradict);
  REQUIRE(assay::evidence::verify_bundle_bytes(stamped, {}, builder).has_value());
  CHECK_FALSE(builder.statement().has_value());
  REQUIRE(builder.refused().has_value());
  CHECK(builder.refused()->message == refused.error().message);
  // A bundle without a stamp agrees with any packs.
  CHECK(attest::statement_for(small_bundle(), contradict).has_value());
}
