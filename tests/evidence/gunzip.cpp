// The gzip decoder under the verifier (evidence/gunzip.hpp): the wrapper read the same way for
// every backend, the exact message of each refusal, and zlib and ISA-L (when this build has it)
// agreeing on every input, crafted or mutated.
#include "assay/evidence/archive.hpp"
#include "assay/evidence/archive_read.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ev = assay::evidence;

namespace {

// What the inflater makes of `bytes`: the decompressed bytes, or "Code: message".
std::string inflate_all(const std::string& bytes, ev::gzip_backend backend, ev::bundle_limits lim = {}) {
  ev::byte_source src{std::string_view(bytes)};
  ev::inflater in(src, lim, backend);
  std::string out;
  for (auto b = in.next(); !b.empty(); b = in.next())
    out.append(b);
  if (auto e = in.failure())
    return std::string(assay::name(e->code)) + ": " + e->message;
  return out;
}

std::vector<ev::gzip_backend> backends() {
  std::vector<ev::gzip_backend> v{ev::gzip_backend::zlib};
  if (ev::gzip_backend_available(ev::gzip_backend::isal))
    v.push_back(ev::gzip_backend::isal);
  return v;
}

// `bytes` through every backend: they must agree; returns what they said.
std::string inflate_agreed(const std::string& bytes) {
  const std::string first = inflate_all(bytes, ev::gzip_backend::zlib);
  for (auto b : backends()) {
    CAPTURE(static_cast<int>(b));
    CHECK(inflate_all(bytes, b) == first);
  }
  return first;
}

std::string le16(unsigned v) {
  return {static_cast<char>(v & 0xFF), static_cast<char>((v >> 8) & 0xFF)};
}

std::string le32(std::uint32_t v) {
  return le16(v & 0xFFFF) + le16(v >> 16);
}

// Raw deflate of `data` at level 9 (zlib), and the CRC-32 of `data`.
std::string deflate_raw(const std::string& data) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

std::uint32_t crc_of(const std::string& s) {
  return static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(s.data()), s.size()));
}

// A gzip member of `data` whose header is `header` (10 fixed bytes and optional fields).
std::string member(const std::string& header, const std::string& data) {
  return header + deflate_raw(data) + le32(crc_of(data)) + le32(static_cast<std::uint32_t>(data.size()));
}

const std::string fixed = std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", 10);

std::string with_flags(unsigned flags) {
  std::string h = fixed;
  h[3] = static_cast<char>(flags);
  return h;
}

std::string text(std::size_t n) {
  std::mt19937 rng(7);
  std::string s;
  const char* words[] = {"event", "tool", "\"call\"", "allow", "deny", "{", "}", ":", ",", "\n", "sha256"};
  while (s.size() < n)
    s += words[rng() % 11];
  s.resize(n);
  return s;
}

}  // namespace

TEST_CASE("gunzip: our writer's stream, through every backend") {
  const std::string data = text(700 << 10);
  for (unsigned threads : {1u, 2u}) {
    const std::string gz = ev::gzip(data, threads).value();
    CHECK(inflate_agreed(gz) == data);
  }
  CHECK(inflate_agreed(ev::gzip(std::string()).value()).empty());
}

TEST_CASE("gunzip: the optional header fields are read and the header CRC checked") {
  const std::string data = "hello, evidence\n";
  // FEXTRA (with a zero-length and a 3-byte field), FNAME, FCOMMENT, FTEXT: accepted.
  CHECK(inflate_agreed(member(with_flags(4) + le16(3) + "abc", data)) == data);
  CHECK(inflate_agreed(member(with_flags(4) + le16(0), data)) == data);
  CHECK(inflate_agreed(member(with_flags(8) + std::string("name.tar\0", 9), data)) == data);
  CHECK(inflate_agreed(member(with_flags(16) + std::string("a comment\0", 10), data)) == data);
  CHECK(inflate_agreed(member(with_flags(1 | 4 | 8 | 16) + le16(1) + "x" + std::string("n\0c\0", 4), data)) == data);
  // FHCRC: the low 16 bits of the CRC-32 of the header bytes before it.
  std::string h = with_flags(2 | 8) + std::string("n\0", 2);
  CHECK(inflate_agreed(member(h + le16(crc_of(h) & 0xFFFF), data)) == data);
  CHECK(inflate_agreed(member(h + le16((crc_of(h) + 1) & 0xFFFF), data)) ==
        "IntegrityGzip: the gzip stream is invalid: its header CRC does not match the header");
  // A name without its terminating NUL runs into the deflate data and the stream ends unread.
  CHECK(inflate_agreed(with_flags(8) + "name") == "IntegrityGzip: the gzip stream is truncated");
}

TEST_CASE("gunzip: each refusal with its message, the same for every backend") {
  const std::string data = text(100 << 10);
  const std::string good = member(fixed, data);
  REQUIRE(inflate_agreed(good) == data);
  const std::string invalid = "IntegrityGzip: the gzip stream is invalid: ";

  std::string magic = good;
  magic[1] = 'x';
  CHECK(inflate_agreed(magic) == invalid + "it does not start with the gzip magic bytes 1f 8b");
  CHECK(inflate_agreed("not a gzip stream at all") == invalid + "it does not start with the gzip magic bytes 1f 8b");
  CHECK(inflate_agreed("x") == invalid + "it does not start with the gzip magic bytes 1f 8b");  // one byte is enough
  CHECK(inflate_agreed("\x1f") == "IntegrityGzip: the gzip stream is truncated");
  CHECK(inflate_agreed(std::string("\x1f\x8b\x07", 3)) ==
        invalid + "its header names a compression method other than deflate");
  std::string method = good;
  method[2] = 7;
  CHECK(inflate_agreed(method) == invalid + "its header names a compression method other than deflate");
  std::string reserved = good;
  reserved[3] = 0x20;
  CHECK(inflate_agreed(reserved) == invalid + "its header sets reserved flag bits");
  std::string crc = good;
  crc[crc.size() - 8] ^= 1;
  CHECK(inflate_agreed(crc) == invalid + "its CRC-32 does not match the data");
  std::string length = good;
  length[length.size() - 1] ^= 1;
  CHECK(inflate_agreed(length) == invalid + "its length field does not match the data");
  std::string block_type = good;
  block_type[10] = static_cast<char>(0x07);  // BFINAL 1, BTYPE 11: reserved
  CHECK(inflate_agreed(block_type) == invalid + "the deflate data is corrupt");
  CHECK(inflate_agreed(good + "x") == "IntegrityGzip: unexpected bytes after the end of the gzip stream");
  CHECK(inflate_agreed(good + good) == "IntegrityGzip: unexpected bytes after the end of the gzip stream");
  CHECK(inflate_agreed(std::string()) == "IntegrityGzip: the gzip stream is truncated");
  // Every cut of a small stream is refused, and the same way by every backend.
  const std::string small = member(fixed, "tiny bundle body, repeated: tiny bundle body\n");
  for (std::size_t cut = 0; cut < small.size(); ++cut) {
    CAPTURE(cut);
    CHECK(inflate_agreed(small.substr(0, cut)) == "IntegrityGzip: the gzip stream is truncated");
  }
}

TEST_CASE("gunzip: the limits hold while streaming, for every backend") {
  const std::string zeros(4 << 20, '\0');
  const std::string bomb = ev::gzip(zeros, 1).value();
  ev::bundle_limits lim;
  lim.max_decode_bytes = 1 << 20;
  for (auto b : backends()) {
    CHECK(inflate_all(bomb, b, lim) ==
          "LimitDecodeBytes: the bundle decompresses to more than the limit of 1048576 bytes");
  }
  lim = {};
  lim.max_bundle_bytes = 100;
  for (auto b : backends())
    CHECK(inflate_all(bomb, b, lim) == "LimitBundleBytes: the bundle is larger than the limit of 100 bytes");
}

TEST_CASE("gunzip: zlib and ISA-L agree on 3,000 mutated streams") {
  if (!ev::gzip_backend_available(ev::gzip_backend::isal)) {
    MESSAGE("this build has no ISA-L: nothing to compare");
    return;
  }
  const std::string data = text(300 << 10);
  const std::string good = ev::gzip(data, 1).value();
  std::mt19937_64 rng(20261124);
  for (int i = 0; i < 3000; ++i) {
    std::string m = good;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % m.size();
      switch (rng() % 3) {
        case 0:
          m[at] = static_cast<char>(m[at] ^ (1 << (rng() % 8)));
          break;
        case 1:
          m[at] = static_cast<char>(rng());
          break;
        default:
          m.resize(at);
          break;
      }
    }
    CAPTURE(i);
    const std::string z = inflate_all(m, ev::gzip_backend::zlib);
    const std::string s = inflate_all(m, ev::gzip_backend::isal);
    // The same verdict: both the same bytes, or both refusing (a corrupt deflate stream may be
    // found out by one decoder's rules, and by the CRC after the other decoded it).
    const bool z_ok = z.rfind("IntegrityGzip", 0) != 0;
    const bool s_ok = s.rfind("IntegrityGzip", 0) != 0;
    REQUIRE(z_ok == s_ok);
    if (z_ok)
      REQUIRE(z == s);
  }
}
