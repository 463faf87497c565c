// assay/attest/dsse.hpp — DSSE envelopes signed with Ed25519 (docs/attestation.md).
//
//   std::string pae = assay::attest::pae("application/vnd.in-toto+json", statement);
//   auto env = assay::attest::sign_envelope(statement, key);  // result<dsse_envelope>, one signature
//   bool ok = assay::attest::verify_signature(pae, sig, pub);
//
// PAE = "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes as ASCII decimal.
// The signature is Ed25519 (RFC 8032, deterministic) over the PAE, through Botan.
#pragma once

#include "assay/attest/keys.hpp"
#include "assay/contracts/dsse.hpp"
#include "assay/separate.hpp"

#include <botan/ed25519.h>
#include <botan/pubkey.h>
#include <botan/rng.h>

#include <string>
#include <string_view>

namespace assay::attest {

inline constexpr std::string_view intoto_payload_type = "application/vnd.in-toto+json";

// The DSSE pre-authentication encoding of `body` of type `type`.
inline std::string pae(std::string_view type, std::string_view body) {
  std::string out = "DSSEv1 " + std::to_string(type.size()) + " ";
  out += type;
  out += " " + std::to_string(body.size()) + " ";
  out += body;
  return out;
}

// The 64-byte Ed25519 signature of `message` (deterministic: no randomness is drawn).
inline std::string sign(std::string_view message, const private_key& key) {
  const Botan::Ed25519_PrivateKey k(Botan::secure_vector<std::uint8_t>(key.seed().begin(), key.seed().end()));
  Botan::Null_RNG no_randomness;
  Botan::PK_Signer signer(k, no_randomness, "Pure");
  const std::vector<std::uint8_t> sig =
      signer.sign_message(reinterpret_cast<const std::uint8_t*>(message.data()), message.size(), no_randomness);
  return std::string(reinterpret_cast<const char*>(sig.data()), sig.size());
}

// Whether `sig` (64 bytes) is `key`'s Ed25519 signature of `message`.
inline bool verify_signature(std::string_view message, std::string_view sig, const public_key& key) {
  if (sig.size() != 64)
    return false;
  const Botan::Ed25519_PublicKey k(key.raw().data(), key.raw().size());
  Botan::PK_Verifier verifier(k, "Pure");
  return verifier.verify_message(reinterpret_cast<const std::uint8_t*>(message.data()), message.size(),
                                 reinterpret_cast<const std::uint8_t*>(sig.data()), sig.size());
}

// An envelope of `payload` (its bytes, not empty) of type `type` (not empty), signed by `key`:
// standard padded base64, the key's keyid. An empty payload or type is refused (the envelope's
// contract requires both), not signed into an envelope no reader accepts.
template <class = void>
result<contracts::dsse_envelope> sign_envelope(std::string_view payload, const private_key& key,
                                               std::string_view type = intoto_payload_type) {
  if (payload.empty())
    return make_error(errc::invalid_argument, "the payload to sign is empty: a DSSE envelope carries a statement");
  if (type.empty())
    return make_error(errc::invalid_argument, "the payload type is empty: name the payload's media type");
  contracts::dsse_envelope env;
  if (auto r = assign(env.payload, base64_encode(payload)); !r)
    return r.error();
  if (auto r = assign(env.payloadType, type); !r)
    return r.error();
  contracts::dsse_v1::signature s;
  s.keyid = key.public_part().keyid();
  if (auto r = assign(s.sig, base64_encode(sign(pae(type, payload), key))); !r)
    return r.error();
  env.signatures.push_back(std::move(s));
  return env;
}

}  // namespace assay::attest

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::attest {
ASSAY_EXTERN_TEMPLATE result<contracts::dsse_envelope> sign_envelope<void>(std::string_view, const private_key&,
                                                                           std::string_view);
}  // namespace assay::attest
#endif
