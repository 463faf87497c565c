// assay/attest/keys.hpp — base64, PEM, and Ed25519 keys as attestations use them (docs/attestation.md).
//
//   auto key = assay::attest::private_key::from_pem(pem_text);   // PKCS#8 v1 or v2, unencrypted
//   auto pub = assay::attest::public_key::from_pem(spki_text);   // SubjectPublicKeyInfo
//   pub->keyid()   // "sha256:" + hex(sha256(SPKI DER))
//
// Only Ed25519 is read: the DER of both forms is small and fixed (RFC 8410), so it is parsed here
// strictly, and a key of another algorithm, an encrypted key or trailing bytes are refused with a
// message that says which.
#pragma once

#include "assay/error.hpp"
#include "assay/hash/hash.hpp"

#include <botan/ed25519.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::attest {

using bytes = std::vector<std::uint8_t>;

// --- base64 -----------------------------------------------------------------------------------

// Standard base64 with padding (RFC 4648 §4).
inline std::string base64_encode(std::string_view in) {
  static constexpr char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(in[k])); };
  for (; i + 3 <= in.size(); i += 3) {
    const std::uint32_t v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
    out += table[v >> 18];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += table[v & 63];
  }
  if (i + 1 == in.size()) {
    const std::uint32_t v = at(i) << 16;
    out += table[v >> 18];
    out += table[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    const std::uint32_t v = at(i) << 16 | at(i + 1) << 8;
    out += table[v >> 18];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

// Standard or URL-safe base64, padded or not (docs/attestation.md: what readers accept); one alphabet per
// value. Refuses any other character, a length no encoding has, and non-zero bits after the last
// byte (so each byte string has one accepted spelling per alphabet and padding).
inline std::optional<std::string> base64_decode(std::string_view in) {
  const bool url = in.find_first_of("-_") != std::string_view::npos;
  if (url && in.find_first_of("+/") != std::string_view::npos)
    return std::nullopt;
  std::size_t len = in.size();
  if (len % 4 == 0 && len >= 4) {
    if (in[len - 1] == '=')
      --len;
    if (in[len - 1] == '=')
      --len;
  }
  if (len % 4 == 1)
    return std::nullopt;
  auto value = [url](char c) -> int {
    if (c >= 'A' && c <= 'Z')
      return c - 'A';
    if (c >= 'a' && c <= 'z')
      return c - 'a' + 26;
    if (c >= '0' && c <= '9')
      return c - '0' + 52;
    if (c == (url ? '-' : '+'))
      return 62;
    if (c == (url ? '_' : '/'))
      return 63;
    return -1;
  };
  std::string out;
  out.reserve(len * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const int v = value(in[i]);
    if (v < 0)
      return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0)
    return std::nullopt;  // bits set past the last byte
  return out;
}

// --- PEM ----------------------------------------------------------------------------------------

// The bytes between "-----BEGIN <label>-----" and "-----END <label>-----", the one such block of
// `text`: a text with two or more is refused, naming how many (which key was meant is not ours to
// guess).
inline result<std::string> pem_decode(std::string_view text, std::string_view label) {
  const std::string begin = "-----BEGIN " + std::string(label) + "-----";
  const std::string end = "-----END " + std::string(label) + "-----";
  const std::size_t b = text.find(begin);
  if (b != std::string_view::npos) {
    std::size_t blocks = 1;
    for (std::size_t at = text.find(begin, b + 1); at != std::string_view::npos; at = text.find(begin, at + 1))
      ++blocks;
    if (blocks > 1)
      return make_error(errc::invalid_argument, "the PEM text holds " + std::to_string(blocks) + " \"" +
                                                    std::string(label) + "\" blocks: give exactly one");
  }
  if (b == std::string_view::npos) {
    if (text.find("-----BEGIN ENCRYPTED PRIVATE KEY-----") != std::string_view::npos)
      return make_error(errc::invalid_argument, "the private key is encrypted: give an unencrypted PKCS#8 key");
    const std::size_t other = text.find("-----BEGIN ");
    if (other != std::string_view::npos) {
      const std::size_t stop = text.find("-----", other + 11);
      return make_error(errc::invalid_argument, "expected a PEM block \"" + std::string(label) + "\", found \"" +
                                                    std::string(text.substr(other + 11, stop - other - 11)) + "\"");
    }
    return make_error(errc::invalid_argument, "not PEM: no \"" + begin + "\" line");
  }
  const std::size_t e = text.find(end, b);
  if (e == std::string_view::npos)
    return make_error(errc::invalid_argument, "the PEM block has no \"" + end + "\" line");
  std::string body;
  for (char c : text.substr(b + begin.size(), e - b - begin.size()))
    if (c != '\n' && c != '\r' && c != ' ' && c != '\t')
      body += c;
  if (body.find_first_of("-_") != std::string::npos)
    return make_error(errc::invalid_argument, "the PEM body is not base64");
  auto der = base64_decode(body);
  if (!der)
    return make_error(errc::invalid_argument, "the PEM body is not base64");
  return *der;
}

// --- DER (the few shapes of RFC 8410) ---------------------------------------------------------

namespace detail {

class der_reader {
 public:
  explicit der_reader(std::string_view in) : in_(in) {}
  bool done() const noexcept { return pos_ == in_.size(); }
  // The contents of the next element if it has `tag`; nothing otherwise (position unchanged).
  std::optional<std::string_view> take(std::uint8_t tag) {
    if (pos_ + 2 > in_.size() || static_cast<std::uint8_t>(in_[pos_]) != tag)
      return std::nullopt;
    std::size_t p = pos_ + 1;
    std::size_t len = static_cast<unsigned char>(in_[p++]);
    if (len & 0x80) {
      const std::size_t n = len & 0x7F;
      if (n == 0 || n > 2 || p + n > in_.size())
        return std::nullopt;
      len = 0;
      for (std::size_t k = 0; k < n; ++k)
        len = len << 8 | static_cast<unsigned char>(in_[p++]);
      if (len < 0x80)
        return std::nullopt;  // not the shortest form (DER)
    }
    if (p + len > in_.size())
      return std::nullopt;
    pos_ = p + len;
    return in_.substr(p, len);
  }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
};

// AlgorithmIdentifier of Ed25519: SEQUENCE { OID 1.3.101.112 } (no parameters).
inline constexpr std::string_view ed25519_oid{"\x2b\x65\x70", 3};

inline bool is_ed25519_algorithm(std::string_view alg) {
  der_reader r(alg);
  const auto oid = r.take(0x06);
  return oid && *oid == ed25519_oid && r.done();
}

}  // namespace detail

// An Ed25519 public key.
class public_key {
 public:
  // From its 32 bytes.
  static result<public_key> from_raw(std::string_view raw) {
    if (raw.size() != 32)
      return make_error(errc::invalid_argument, "an Ed25519 public key is 32 bytes, not " + std::to_string(raw.size()));
    public_key k;
    for (std::size_t i = 0; i < 32; ++i)
      k.raw_[i] = static_cast<std::uint8_t>(raw[i]);
    return k;
  }
  // From its SubjectPublicKeyInfo DER.
  static result<public_key> from_spki(std::string_view der) {
    detail::der_reader outer(der);
    const auto seq = outer.take(0x30);
    if (!seq || !outer.done())
      return make_error(errc::invalid_argument, "not a SubjectPublicKeyInfo (DER SEQUENCE)");
    detail::der_reader r(*seq);
    const auto alg = r.take(0x30);
    if (!alg || !detail::is_ed25519_algorithm(*alg))
      return make_error(errc::invalid_argument, "not an Ed25519 public key (its algorithm is not 1.3.101.112)");
    const auto bits = r.take(0x03);
    if (!bits || !r.done() || bits->empty() || (*bits)[0] != '\0')
      return make_error(errc::invalid_argument, "the public key's BIT STRING is malformed");
    return from_raw(bits->substr(1));
  }
  // From PEM "PUBLIC KEY" (SPKI).
  static result<public_key> from_pem(std::string_view text) {
    auto der = pem_decode(text, "PUBLIC KEY");
    if (!der)
      return der.error();
    return from_spki(*der);
  }

  const std::array<std::uint8_t, 32>& raw() const noexcept { return raw_; }

  // Its SubjectPublicKeyInfo DER (44 bytes).
  std::string spki() const {
    std::string out("\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00", 12);
    out.append(reinterpret_cast<const char*>(raw_.data()), raw_.size());
    return out;
  }
  // "sha256:" + hex of the sha256 of its SPKI DER (docs/attestation.md).
  std::string keyid() const { return "sha256:" + hash::digest_bytes<hash::sha256>(spki()).hex(); }
  std::string pem() const {
    std::string b64 = base64_encode(spki());
    return "-----BEGIN PUBLIC KEY-----\n" + b64 + "\n-----END PUBLIC KEY-----\n";
  }

 private:
  std::array<std::uint8_t, 32> raw_{};
};

// An Ed25519 private key: its 32-byte seed.
class private_key {
 public:
  static result<private_key> from_seed(std::string_view seed) {
    if (seed.size() != 32)
      return make_error(errc::invalid_argument, "an Ed25519 seed is 32 bytes, not " + std::to_string(seed.size()));
    private_key k;
    for (std::size_t i = 0; i < 32; ++i)
      k.seed_[i] = static_cast<std::uint8_t>(seed[i]);
    return k;
  }
  // From PKCS#8 DER (RFC 5958 OneAsymmetricKey: version 0, or 1 with the public key).
  static result<private_key> from_pkcs8(std::string_view der) {
    detail::der_reader outer(der);
    const auto seq = outer.take(0x30);
    if (!seq || !outer.done())
      return make_error(errc::invalid_argument, "not a PKCS#8 private key (DER SEQUENCE)");
    detail::der_reader r(*seq);
    const auto version = r.take(0x02);
    if (!version || version->size() != 1 || ((*version)[0] != '\0' && (*version)[0] != '\1'))
      return make_error(errc::invalid_argument, "not a PKCS#8 private key of version 1 or 2");
    const auto alg = r.take(0x30);
    if (!alg || !detail::is_ed25519_algorithm(*alg))
      return make_error(errc::invalid_argument, "not an Ed25519 private key (its algorithm is not 1.3.101.112)");
    const auto octets = r.take(0x04);
    if (!octets)
      return make_error(errc::invalid_argument, "the PKCS#8 key has no privateKey OCTET STRING");
    detail::der_reader inner(*octets);
    const auto seed = inner.take(0x04);
    if (!seed || !inner.done() || seed->size() != 32)
      return make_error(errc::invalid_argument, "the Ed25519 private key is not a 32-byte OCTET STRING");
    r.take(0xA0);                   // attributes, ignored
    const auto pub = r.take(0x81);  // v2: [1] publicKey (BIT STRING contents)
    if (!r.done())
      return make_error(errc::invalid_argument, "the PKCS#8 key has trailing or unknown members");
    auto k = from_seed(*seed);
    if (k && pub) {
      if (pub->size() != 33 || (*pub)[0] != '\0' ||
          pub->substr(1) != std::string_view(reinterpret_cast<const char*>(k->public_part().raw().data()), 32))
        return make_error(errc::invalid_argument, "the PKCS#8 v2 key's public key does not match its private key");
    }
    return k;
  }
  // From PEM "PRIVATE KEY" (PKCS#8, unencrypted).
  static result<private_key> from_pem(std::string_view text) {
    auto der = pem_decode(text, "PRIVATE KEY");
    if (!der)
      return der.error();
    return from_pkcs8(*der);
  }

  const std::array<std::uint8_t, 32>& seed() const noexcept { return seed_; }
  // The public key of this private key.
  public_key public_part() const {
    const Botan::Ed25519_PrivateKey k(Botan::secure_vector<std::uint8_t>(seed_.begin(), seed_.end()));
    const std::vector<std::uint8_t>& pk = k.get_public_key();
    return public_key::from_raw(std::string_view(reinterpret_cast<const char*>(pk.data()), pk.size())).value();
  }

 private:
  std::array<std::uint8_t, 32> seed_{};
};

}  // namespace assay::attest
