// libFuzzer target: attestation input (SPEC §15) — base64, PEM and DER keys, DSSE envelopes and
// the statements inside them.
//
// The first byte chooses what the rest is (its low two bits) and how it is used:
//   0  base64 text: when it decodes, the standard encoding of the bytes decodes to them again;
//   1  PEM text, read as a private key (PKCS#8) and as a public key (SPKI): a private key that
//      loads signs what its public part verifies; a public key that loads re-reads from its own
//      SPKI and PEM as the same key, with a keyid of "sha256:" + 64 hex;
//   2  an envelope (JSON text), verified against a fixed bundle and key: a result is ok exactly
//      when it names no failure, and ok means both the signature and the subject matched;
//   3  a statement (JSON text), signed here with the fixed key, then verified; with bit 2 of the
//      first byte set, a statement that parses has its subject's name and sha256 set to the
//      bundle's first, so that the checks after the subject's are reached. The statement this
//      library writes for the bundle must verify; any other that verifies must say the same
//      (its predicate members equal the bundle's).
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/attest/attest.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace attest = assay::attest;
namespace json = assay::json;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_attest", what, detail);
}

struct fixture {
  std::string bundle;
  attest::private_key key = attest::private_key::from_seed(std::string(32, '\x2a')).value();
  attest::public_key pub = key.public_part();
  std::string statement;  // what this library writes for the bundle (JCS)
  std::string bundle_id, bundle_sha256;
};

const fixture& fixed() {
  static const fixture f = [] {
    fixture x;
    std::vector<json::value> events;
    for (int i = 0; i < 2; ++i) {
      json::value e = json::parse(R"({"specversion":"1.0","type":"vendor.step","source":"urn:assay:fuzz",)"
                                  R"("datacontenttype":"application/json","assaypii":false,"assaysecrets":false,)"
                                  R"("assayproducer":"fuzz","assayproducerversion":"1","assaygit":"unknown",)"
                                  R"("time":"2026-01-02T03:04:05Z","assayrunid":"fuzz-run","data":{"n":1}})")
                          .value();
      e.set("assayseq", static_cast<double>(i));
      e.set("id", "fuzz-run:" + std::to_string(i));
      events.push_back(std::move(e));
    }
    assay::evidence::bundle_options o;
    o.check_payloads = false;
    x.bundle = assay::evidence::write_bundle(events, o).value();
    const auto st = attest::statement_for(x.bundle).value();
    x.statement = assay::encode(st).value();
    x.bundle_id = st.subject[0].name;
    x.bundle_sha256 = st.subject[0].digest.sha256;
    return x;
  }();
  return f;
}

void check_verification(const attest::verification& v) {
  if (v.ok() != v.failure.empty())
    fail("ok() disagrees with the failure name");
  if (v.ok() && (!v.signature_verified || !v.subject_matched))
    fail("ok without both the signature and the subject", v.failure);
  if (!v.ok() && v.message.empty())
    fail("a failure without a message", v.failure);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 65536)
    return 0;
  const std::uint8_t mode = data[0];
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (mode & 3) {
    case 0: {
      const auto bytes = attest::base64_decode(in);
      if (bytes && attest::base64_decode(attest::base64_encode(*bytes)) != bytes)
        fail("base64: the standard encoding does not decode to the same bytes");
      break;
    }
    case 1: {
      if (auto k = attest::private_key::from_pem(in)) {
        const attest::public_key p = k->public_part();
        if (!attest::verify_signature("m", attest::sign("m", *k), p))
          fail("a loaded private key signs what its public part does not verify");
      }
      if (auto p = attest::public_key::from_pem(in)) {
        const auto again = attest::public_key::from_spki(p->spki());
        const auto pem = attest::public_key::from_pem(p->pem());
        if (!again || !pem || again->raw() != p->raw() || pem->raw() != p->raw())
          fail("a public key does not re-read as itself");
        if (p->keyid().size() != 71 || p->keyid().rfind("sha256:", 0) != 0)
          fail("keyid", p->keyid());
      }
      break;
    }
    case 2: {
      const fixture& f = fixed();
      check_verification(attest::verify_attestation(f.bundle, in, f.pub));
      break;
    }
    default: {
      const fixture& f = fixed();
      std::string statement(in);
      if (mode & 4) {
        auto v = json::parse(statement);
        json::value* subject = nullptr;
        if (v && v->is_object())
          if (json::value* s = v->find("subject"); s != nullptr && s->is_array() && !s->as_array().empty())
            subject = &s->as_array()[0];
        if (subject != nullptr && subject->is_object()) {
          subject->set("name", f.bundle_id);
          json::value digest = json::object{};
          digest.set("sha256", f.bundle_sha256);
          subject->set("digest", std::move(digest));
          statement = json::to_canonical(*v).value();
        }
      }
      // An empty statement is refused before signing; any other is signed into an envelope that
      // keeps its contract.
      const auto signed_envelope = attest::sign_envelope(statement, f.key);
      if (!signed_envelope) {
        if (!statement.empty())
          fail("a non-empty statement is refused for signing", signed_envelope.error().format());
        return 0;
      }
      if (statement.empty())
        fail("an empty statement was signed");
      const auto envelope = attest::envelope_json(*signed_envelope);
      if (!envelope)
        fail("a signed envelope of a non-empty statement breaks its contract", envelope.error().format());
      const attest::verification v = attest::verify_attestation(f.bundle, *envelope, f.pub);
      check_verification(v);
      if (!v.signature_verified)
        fail("the fixed key's own signature does not verify", v.failure);
      if (statement == f.statement && !v.ok())
        fail("the statement written for the bundle does not verify", v.message);
      break;
    }
  }
  return 0;
}
