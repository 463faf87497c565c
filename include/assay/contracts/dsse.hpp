// assay/contracts/dsse.hpp — dsse-envelope-v1, a DSSE envelope (docs/attestation.md): a base64 payload, its
// type, and one or more signatures over PAE(payloadType, payload). The schema is written here,
// from the type.
//
// docs/attestation.md: readers ignore unknown members. The envelope and each signature keep the members they
// do not declare (`extra_members<>`, any name, any value) instead of refusing them, and write them
// back in canonical order, so an envelope from another signer decodes and re-encodes unchanged.
// Their schemas say the same: no "additionalProperties": false.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <string>
#include <string_view>

namespace assay::contracts {

namespace dsse_v1 {

// Standard or URL-safe base64, padded or not: what readers accept (docs/attestation.md). One alphabet per
// value (`+/` or `-_`, never both), and a length an encoding can have: groups of four, then with
// padding `xx==` or `xxx=`, without `xx` or `xxx` (so padded: a multiple of 4; unpadded: length
// mod 4 is not 1).
using base64 = str<1,
                   "^(?:(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?"
                   "|(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?)$">;

struct signature {
  static constexpr std::string_view schema_name = "signature";
  std::string keyid;
  base64 sig;
  extra_members<> unknown;  // members this reader does not know, kept as they are
  static constexpr field_info assay_fields[] = {
      {.field = "keyid", .description = "Written as sha256: + hex of the SPKI DER of the public key."},
      {.field = "sig", .description = "Base64 of the Ed25519 signature over the PAE of payloadType and payload."},
  };
};

}  // namespace dsse_v1

struct dsse_envelope {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/dsse-envelope-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay DSSE Envelope v1";

  dsse_v1::base64 payload;
  non_empty payloadType;
  list<dsse_v1::signature, 1> signatures;
  extra_members<> unknown;  // members this reader does not know, kept as they are

  static constexpr field_info assay_fields[] = {
      {.field = "payload", .description = "Base64 of the payload bytes (an in-toto Statement v1, as JCS)."},
      {.field = "payloadType", .description = "application/vnd.in-toto+json for an attestation."},
  };
};

// The outcome of verifying an attestation offline (docs/attestation.md), as `assay evidence
// verify-attestation --json` prints it: null failure and message when every check passed.
struct attestation_result {
  static constexpr std::string_view schema_name = "attestation_result";
  nullable<std::string> failure;
  std::string keyid;
  nullable<std::string> message;
  bool ok = false;
  bool signature_verified = false;
  bool subject_matched = false;
  static constexpr field_info assay_fields[] = {
      {.field = "failure", .description = "The first check that failed: PayloadType, Encoding, KeyId, Signature, ..."},
      {.field = "keyid", .description = "The key's: sha256: + hex of the SPKI DER of the public key."},
      {.field = "signature_verified", .description = "The envelope is the key's signature of its payload."},
      {.field = "subject_matched", .description = "The statement is about this bundle, as verified."},
  };
};

}  // namespace assay::contracts
