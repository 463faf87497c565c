// Tests of assay/hash/hash.hpp: policies (known answers), digest strings, evidence digests,
// hash_sink (single-threaded and pipelined) and digests of DOM values.
#include "assay/hash/hash.hpp"
#include "assay/hash/sha256_each.hpp"

#include "support.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <vector>

using namespace assay::hash;
namespace json = assay::json;
using assay::errc;

namespace {

// Deterministic test bytes: value i % 251 at offset i.
std::string pattern_bytes(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>(i % 251);
  return s;
}

// "abcdefghijklmnopqrstuvwxyzabc..." of length n.
std::string alphabet(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>('a' + i % 26);
  return s;
}

// A small deterministic generator for write sizes.
struct lcg {
  std::uint64_t x;
  std::size_t next(std::size_t bound) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((x >> 33) % bound);
  }
};

template <class P>
std::string hex_of(std::string_view bytes) {
  return digest_bytes<P>(bytes).hex();
}

// Feeds `data` to a sink in pieces whose sizes come from `sizes` (cycled); returns the digest.
template <class P>
digest<P> through_sink(std::string_view data, const std::vector<std::size_t>& sizes, const sink_options& o,
                       bool* was_pipelined = nullptr) {
  hash_sink<P> sink(o);
  std::size_t pos = 0;
  std::size_t k = 0;
  bool piped = false;
  while (pos < data.size()) {
    const std::size_t n = std::min(sizes[k++ % sizes.size()], data.size() - pos);
    sink.write(data.data() + pos, n);
    pos += n;
    piped = piped || sink.pipelined();
  }
  CHECK(sink.bytes_written() == data.size());
  if (was_pipelined)
    *was_pipelined = piped;
  return sink.finish();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Known answers. SHA vectors: FIPS 180-2 examples; BLAKE2b: RFC 7693 Appendix A; the rest were
// computed with sha256sum/sha512sum/b2sum (GNU coreutils) and xxhsum 0.8.1 (-H3: XXH3_64,
// -H2: XXH128) over the same bytes.
// ---------------------------------------------------------------------------------------------

TEST_CASE("policy descriptions") {
  static_assert(sha256::name == "sha256" && sha256::size == 32 && sha256::cryptographic);
  static_assert(sha512::name == "sha512" && sha512::size == 64 && sha512::cryptographic);
  static_assert(blake2b_512::name == "blake2b-512" && blake2b_512::size == 64 && blake2b_512::cryptographic);
  static_assert(xxh3_64::name == "xxh3-64" && xxh3_64::size == 8 && !xxh3_64::cryptographic);
  static_assert(xxh3_128::name == "xxh3-128" && xxh3_128::size == 16 && !xxh3_128::cryptographic);
  static_assert(hash_policy<sha256> && hash_policy<sha512> && hash_policy<blake2b_512> && hash_policy<xxh3_64> &&
                hash_policy<xxh3_128>);
  static_assert(cryptographic_hash<sha256> && cryptographic_hash<sha512> && cryptographic_hash<blake2b_512>);
  static_assert(!cryptographic_hash<xxh3_64> && !cryptographic_hash<xxh3_128>);
  static_assert(!hash_policy<int> && !hash_policy<std::string>);
  CHECK(algorithm_names.size() == std::tuple_size_v<policies>);
}

TEST_CASE("sha256 known answers") {
  CHECK(hex_of<sha256>("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_of<sha256>("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of<sha256>("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_of<sha256>(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(hex_of<sha256>(alphabet(1000)) == "915e53a44c18b19bb06ba5b3f5fcaf1dc4651e8404c63425cfc6174e74659d87");
}

TEST_CASE("sha512 known answers") {
  CHECK(hex_of<sha512>("") ==
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
        "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
  CHECK(hex_of<sha512>("abc") ==
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  CHECK(hex_of<sha512>(alphabet(1000)) ==
        "c6017363f579f50a015ce5e21b966a94ecd72a32f624b648263b891df07a2780"
        "533400778bd6a71a3507733ddfc4a81454a17859cf4f68571fbaeb73bd70b09d");
}

TEST_CASE("blake2b-512 known answers") {
  CHECK(hex_of<blake2b_512>("") ==
        "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
        "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
  // RFC 7693, Appendix A.
  CHECK(hex_of<blake2b_512>("abc") ==
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
        "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  CHECK(hex_of<blake2b_512>(alphabet(1000)) ==
        "948f49a36f753bb8fe9227192490f3743bb7ac5ceb044286e2e57f9eaf2e89a3"
        "a958c1c4d1dc3dd9a9629d69e1015629e20e5d1cf473882f0dea5502d62a642f");
}

TEST_CASE("xxh3 known answers, big-endian canonical form") {
  CHECK(hex_of<xxh3_64>("") == "2d06800538d394c2");
  CHECK(hex_of<xxh3_64>("abc") == "78af5f94892f3950");
  CHECK(hex_of<xxh3_64>("The quick brown fox jumps over the lazy dog") == "ce7d19a5418fb365");
  CHECK(hex_of<xxh3_64>(alphabet(1000)) == "e153425558d7da5d");
  CHECK(hex_of<xxh3_128>("") == "99aa06d3014798d86001c324468d497f");
  CHECK(hex_of<xxh3_128>("abc") == "06b05ab6733a618578af5f94892f3950");
  CHECK(hex_of<xxh3_128>("The quick brown fox jumps over the lazy dog") == "ddd650205ca3e7fa24a1cc2e3a8a7651");
  CHECK(hex_of<xxh3_128>(alphabet(1000)) == "b68384db4f7b6231e153425558d7da5d");
}

TEST_CASE("states: streaming equals one-shot, final() resets") {
  auto check = [&]<class P>(std::type_identity<P>) {
    const std::string data = alphabet(1000);
    typename P::state s;
    s.update(data.data(), 1);
    s.update(data.data() + 1, 0);
    s.update(nullptr, 0);
    s.update(data.data() + 1, 499);
    s.update(data.data() + 500, 500);
    CHECK(digest<P>(s.final()) == digest_bytes<P>(data));
    // After final() the state is empty again.
    CHECK(digest<P>(s.final()) == digest_bytes<P>(""));
    s.update("abc", 3);
    CHECK(digest<P>(s.final()) == digest_bytes<P>("abc"));
  };
  check(std::type_identity<sha256>{});
  check(std::type_identity<sha512>{});
  check(std::type_identity<blake2b_512>{});
  check(std::type_identity<xxh3_64>{});
  check(std::type_identity<xxh3_128>{});
}

TEST_CASE("sha256 uses the SHA extensions when the CPU has them") {
  sha256::state s;
  MESSAGE("Botan SHA-256 provider: " << s.provider());
  CHECK(!s.provider().empty());
}

// ---------------------------------------------------------------------------------------------
// Digest strings
// ---------------------------------------------------------------------------------------------

TEST_CASE("digest string form") {
  const auto d = digest_bytes<sha256>("");
  CHECK(d.to_string() == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(d.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(d.to_string().size() == digest<sha256>::string_size);
  CHECK(digest<sha256>::string_size == 71);
  CHECK(digest<sha512>::string_size == 7 + 128);
  CHECK(digest<blake2b_512>::string_size == 12 + 128);
  CHECK(digest_bytes<xxh3_64>("").to_string() == "xxh3-64:2d06800538d394c2");
  CHECK(digest_bytes<xxh3_128>("").to_string() == "xxh3-128:99aa06d3014798d86001c324468d497f");
  CHECK(digest<sha256>().hex() == std::string(64, '0'));
  std::ostringstream os;
  os << d;
  CHECK(os.str() == d.to_string());
}

TEST_CASE("digest parse: round trip") {
  auto check = [&]<class P>(std::type_identity<P>) {
    const auto d = digest_bytes<P>("abc");
    auto p = digest<P>::parse(d.to_string());
    REQUIRE(p.has_value());
    CHECK(*p == d);
    auto h = digest<P>::from_hex(d.hex());
    REQUIRE(h.has_value());
    CHECK(*h == d);
    CHECK(d.matches(d.to_string()));
  };
  check(std::type_identity<sha256>{});
  check(std::type_identity<sha512>{});
  check(std::type_identity<blake2b_512>{});
  check(std::type_identity<xxh3_64>{});
  check(std::type_identity<xxh3_128>{});
  // All hex digits in both nibble positions.
  auto all = digest<xxh3_128>::parse("xxh3-128:0123456789abcdeffedcba9876543210");
  REQUIRE(all.has_value());
  CHECK(all->bytes()[0] == 0x01);
  CHECK(all->bytes()[7] == 0xef);
  CHECK(all->bytes()[8] == 0xfe);
  CHECK(all->bytes()[15] == 0x10);
}

TEST_CASE("digest parse: errors") {
  const std::string good = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  auto fails = [](std::string_view text, std::string_view needle) {
    auto r = digest<sha256>::parse(text);
    REQUIRE_MESSAGE(!r, text);
    CHECK(r.error().code == errc::format_mismatch);
    CHECK_MESSAGE(r.error().message.find(needle) != std::string::npos, r.error().message);
  };
  // Uppercase hex is a mismatch (SPEC §3).
  fails("sha256:E3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "uppercase");
  fails("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85F", "index 63");
  fails("sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", "uppercase");
  // Wrong prefix.
  fails("SHA256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails("sha512:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails("sha-256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails(" sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails("sha256", "\"sha256:\"");
  fails("sha256e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "\"sha256:\"");
  fails("", "\"sha256:\"");
  // Wrong length.
  fails("sha256:", "needs 64 hex digits, found 0");
  fails(good.substr(0, good.size() - 1), "found 63");
  fails(good + "0", "found 65");
  fails(good + "\n", "found 65");
  fails("sha256:" + std::string(128, '0'), "found 128");
  // Not hex.
  fails("sha256:g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "not a hex digit");
  fails("sha256: 3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "index 0");
  fails("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85\xff", "not a hex digit");
  fails(std::string_view("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85\0", 71),
        "not a hex digit");
  // A long bad input is shortened in the message.
  auto r = digest<sha256>::parse(std::string(10000, 'x'));
  REQUIRE(!r);
  CHECK(r.error().message.size() < 200);
  CHECK(digest<sha256>::parse(good).has_value());
}

TEST_CASE("digest matches() is exact") {
  const auto d = digest_bytes<sha256>("");
  const std::string s = d.to_string();
  CHECK(d.matches(s));
  std::string upper = s;
  upper[7] = 'E';
  CHECK(!d.matches(upper));
  CHECK(!d.matches(s.substr(0, s.size() - 1)));
  CHECK(!d.matches(s + " "));
  CHECK(!d.matches("SHA256" + s.substr(6)));
  CHECK(!d.matches("sha256-" + s.substr(7)));
  CHECK(!d.matches(d.hex()));
  CHECK(!digest_bytes<sha256>("x").matches(s));
}

TEST_CASE("digest comparisons and hashing") {
  const auto a = digest_bytes<sha256>("a");
  const auto b = digest_bytes<sha256>("b");
  CHECK(a == digest_bytes<sha256>("a"));
  CHECK(a != b);
  CHECK((a < b) == (a.hex() < b.hex()));  // byte order equals hex order
  CHECK((a <=> a) == std::strong_ordering::equal);
  std::unordered_set<digest<sha256>> set{a, b, a};
  CHECK(set.size() == 2);
  static_assert(!std::equality_comparable_with<digest<sha256>, digest<sha512>>);
  static_assert(!std::is_convertible_v<digest<sha256>, digest<blake2b_512>>);
  static_assert(!std::is_convertible_v<std::string, digest<sha256>>);
  static_assert(std::is_trivially_copyable_v<digest<sha256>>);
  static_assert(sizeof(digest<sha256>) == 32);
}

// ---------------------------------------------------------------------------------------------
// Evidence digests
// ---------------------------------------------------------------------------------------------

TEST_CASE("evidence digests come only from cryptographic policies") {
  static_assert(std::is_same_v<evidence_digest<>::policy, sha256>);
  static_assert(std::is_convertible_v<digest<sha256>, evidence_digest<>>);
  static_assert(std::is_convertible_v<digest<sha512>, evidence_digest<sha512>>);
  static_assert(std::is_convertible_v<digest<blake2b_512>, evidence_digest<blake2b_512>>);
  static_assert(std::is_convertible_v<evidence_digest<>, digest<sha256>>);
  static_assert(!std::is_convertible_v<digest<xxh3_64>, evidence_digest<>>);
  static_assert(!std::is_constructible_v<evidence_digest<>, digest<xxh3_64>>);
  static_assert(!std::is_constructible_v<evidence_digest<>, digest<xxh3_128>>);
  static_assert(!std::is_constructible_v<evidence_digest<>, digest<sha512>>);
  static_assert(!std::is_convertible_v<digest<sha512>, evidence_digest<>>);
  // evidence_digest<xxh3_64> itself is rejected: see tests/compile_fail/hash_*.cpp.

  evidence_digest<> e = digest_bytes<sha256>("");
  CHECK(e.to_string() == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(e == digest_bytes<sha256>(""));
  auto p = evidence_digest<>::parse(e.to_string());
  REQUIRE(p.has_value());
  CHECK(*p == e);
  static_assert(std::is_same_v<decltype(p)::value_type, evidence_digest<sha256>>);
  auto bad = evidence_digest<>::parse("sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855");
  REQUIRE(!bad);
  CHECK(bad.error().code == errc::format_mismatch);
  CHECK(evidence_digest<>::from_hex(e.hex()).value() == e);
  std::unordered_set<evidence_digest<>> set{e};
  CHECK(set.count(e) == 1);
}

// ---------------------------------------------------------------------------------------------
// hash_sink
// ---------------------------------------------------------------------------------------------

TEST_CASE("hash_sink is a json sink") {
  static_assert(json::sink<hash_sink<sha256>>);
  static_assert(json::sink<hash_sink<xxh3_64>>);
  static_assert(!std::is_copy_constructible_v<hash_sink<sha256>>);
  static_assert(!std::is_move_constructible_v<hash_sink<sha256>>);
}

TEST_CASE("hash_sink is its own writer: put, reserve and advance equal write") {
  static_assert(json::buffered_sink<hash_sink<sha256>>);
  static_assert(json::max_reserve<hash_sink<sha256>> == 8192);
  // Random mixes of the writer calls, with thresholds and chunk sizes that make the pipeline
  // start, and chunks be handed over part-full, at every kind of position.
  const std::string data = pattern_bytes((std::size_t{2} << 20) + 4321);
  const auto expect = digest_bytes<sha256>(data);
  for (const sink_options& o : {sink_options{}, sink_options{0, 8192, 2}, sink_options{5000, 9000, 3},
                                sink_options{std::numeric_limits<std::size_t>::max()}}) {
    lcg rng{7};
    hash_sink<sha256> sink(o);
    std::size_t pos = 0;
    while (pos < data.size()) {
      const std::size_t left = data.size() - pos;
      switch (rng.next(3)) {
        case 0:
          sink.put(data[pos++]);
          break;
        case 1: {
          const std::size_t room = 1 + rng.next(8192);
          char* p = sink.reserve(room);
          const std::size_t n = std::min(left, rng.next(room + 1));
          std::memcpy(p, data.data() + pos, n);
          sink.advance(n);
          pos += n;
          break;
        }
        default: {
          const std::size_t n = std::min(left, rng.next(20000));
          sink.write(data.data() + pos, n);
          pos += n;
        }
      }
    }
    CHECK(sink.bytes_written() == data.size());
    CHECK(sink.finish() == expect);
  }
}

TEST_CASE("hash_sink: small streams stay on the calling thread") {
  const std::size_t threshold = sink_options{}.pipeline_threshold;
  CHECK(threshold == std::size_t{64} << 10);
  const std::string data = pattern_bytes(threshold - 1);
  bool piped = true;
  const auto d = through_sink<sha256>(data, {40}, sink_options{}, &piped);
  CHECK(!piped);
  CHECK(d == digest_bytes<sha256>(data));
  // Exactly at the threshold: still no thread.
  const std::string at = pattern_bytes(threshold);
  CHECK(through_sink<sha256>(at, {at.size()}, sink_options{}, &piped) == digest_bytes<sha256>(at));
  CHECK(!piped);
  // xxh3 never pipelines by default.
  const std::string big = pattern_bytes(std::size_t{3} << 20);
  CHECK(through_sink<xxh3_128>(big, {16384}, default_sink_options<xxh3_128>, &piped) == digest_bytes<xxh3_128>(big));
  CHECK(!piped);
}

TEST_CASE("hash_sink: many split patterns equal one-shot hashing") {
  const std::vector<std::vector<std::size_t>> patterns = {
      {1},
      {7},
      {40},
      {63, 64, 65},
      {8191},
      {8192},
      {8193},
      {16384},
      {1, 8192, 3, 16385, 127},
      {100000},
      {std::size_t{1} << 30},
  };
  const std::vector<std::size_t> sizes = {0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 8191, 8192, 8193, 70000};
  auto check = [&]<class P>(std::type_identity<P>) {
    for (std::size_t n : sizes) {
      const std::string data = pattern_bytes(n);
      const auto expect = digest_bytes<P>(data);
      for (const auto& pat : patterns) {
        CHECK_MESSAGE(through_sink<P>(data, pat, sink_options{}) == expect, P::name << " n=" << n);
      }
    }
  };
  check(std::type_identity<sha256>{});
  check(std::type_identity<sha512>{});
  check(std::type_identity<blake2b_512>{});
  check(std::type_identity<xxh3_64>{});
  check(std::type_identity<xxh3_128>{});
}

TEST_CASE("hash_sink: pipelined streams with tiny buffers and odd writes") {
  // A low threshold and small buffers make every kind of boundary happen often.
  const std::vector<sink_options> configs = {
      {0, 64, 2}, {100, 64, 2}, {1000, 333, 3}, {5000, 4096, 4}, {1, 100000, 2}, {0, 100, 5}, {0, 64, 16},
  };
  const std::vector<std::vector<std::size_t>> patterns = {
      {1}, {40}, {13, 1, 4097, 63, 64, 65, 8193}, {64}, {65536 + 3}, {1 << 20},
  };
  auto check = [&]<class P>(std::type_identity<P>) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{99}, std::size_t{1001}, std::size_t{200003}}) {
      const std::string data = pattern_bytes(n);
      const auto expect = digest_bytes<P>(data);
      for (const auto& cfg : configs) {
        for (const auto& pat : patterns) {
          bool piped = false;
          CHECK_MESSAGE(through_sink<P>(data, pat, cfg, &piped) == expect,
                        P::name << " n=" << n << " threshold=" << cfg.pipeline_threshold);
          // The threshold is looked at when the 8 KiB gathering buffer overflows.
          if (n > cfg.pipeline_threshold + 2 * 8192)
            CHECK(piped);
          if (n <= cfg.pipeline_threshold)
            CHECK(!piped);
        }
      }
    }
  };
  check(std::type_identity<sha256>{});
  check(std::type_identity<blake2b_512>{});
  check(std::type_identity<xxh3_64>{});
}

TEST_CASE("hash_sink: default options across the threshold") {
  const std::size_t limit = sink_options{}.pipeline_threshold;
  for (std::size_t n : {limit - 1, limit, limit + 1, limit + 8192, 3 * limit + 17, std::size_t{5} << 20}) {
    const std::string data = pattern_bytes(n);
    const auto expect = digest_bytes<sha256>(data);
    // Odd sizes that straddle the 8 KiB gathering buffer and the 32 KiB chunks.
    for (const auto& pat : std::vector<std::vector<std::size_t>>{
             {40}, {1, 3, 8191, 8193, 16384, 262143, 262145, 7}, {limit}, {limit + 1}, {n}}) {
      bool piped = false;
      CHECK_MESSAGE(through_sink<sha256>(data, pat, sink_options{}, &piped) == expect, "n=" << n);
      if (n <= limit)
        CHECK(!piped);
      if (n > limit + 2 * 8192)
        CHECK(piped);
    }
  }
}

TEST_CASE("hash_sink: random write sizes") {
  const std::string data = pattern_bytes((std::size_t{5} << 20) + 12345);
  lcg rng{42};
  std::vector<std::size_t> sizes;
  for (int i = 0; i < 997; ++i)
    sizes.push_back(1 + rng.next(i % 10 == 0 ? 300000 : 200));
  CHECK(through_sink<sha256>(data, sizes, sink_options{}) == digest_bytes<sha256>(data));
  CHECK(through_sink<sha512>(data, sizes, sink_options{}) == digest_bytes<sha512>(data));
  CHECK(through_sink<blake2b_512>(data, sizes, sink_options{}) == digest_bytes<blake2b_512>(data));
  const sink_options forced{0, 4096, 2};
  CHECK(through_sink<xxh3_128>(data, sizes, forced) == digest_bytes<xxh3_128>(data));
}

TEST_CASE("hash_sink: a pipelined stream matches the coreutils/xxhsum digest") {
  // 3 MiB + 17 bytes of pattern_bytes, hashed with sha256sum, sha512sum, b2sum and xxhsum.
  const std::string data = pattern_bytes((std::size_t{3} << 20) + 17);
  const std::vector<std::size_t> pat = {40};
  CHECK(through_sink<sha256>(data, pat, sink_options{}).hex() ==
        "fe2aaf82bfa2ffec207a0c6fa7ce7d4af268d67e2672fdaec675f3f9b65d0854");
  CHECK(through_sink<sha512>(data, pat, sink_options{}).hex() ==
        "ffc05de5fba9d792394f2047713dde4c7af417fea57de040d9f0dd50780bb5e0"
        "292e76b93b4ea4e77cd3ca7f385bb285fe34830c0c0110e712dfaabfe97d9d87");
  CHECK(through_sink<blake2b_512>(data, pat, sink_options{}).hex() ==
        "afef3360d1ac0c80b19209d2cfd0f9438f26b1938b1202c5ab22d4587948390155"
        "bbc33b1f54fc0e9660fcfae9855e934af588524ebb10be9d0e79dd25a505cc");
  CHECK(through_sink<xxh3_64>(data, pat, sink_options{0, 65536, 3}).hex() == "fb45fcd49e8371b7");
  CHECK(through_sink<xxh3_128>(data, pat, sink_options{0, 65536, 3}).hex() == "a8d2aaa87f9b2799fb45fcd49e8371b7");
}

TEST_CASE("hash_sink: reusable after finish, abandonable mid-stream") {
  const std::string data = pattern_bytes(3 << 20);
  hash_sink<sha256> sink;
  sink.write(data.data(), data.size());
  CHECK(sink.pipelined());
  CHECK(sink.finish() == digest_bytes<sha256>(data));
  CHECK(!sink.pipelined());
  CHECK(sink.bytes_written() == 0);
  sink.write("abc", 3);
  CHECK(sink.finish() == digest_bytes<sha256>("abc"));
  CHECK(sink.finish() == digest_bytes<sha256>(""));
  sink.update(data.data(), data.size());
  CHECK(sink.finish() == digest_bytes<sha256>(data));
  // Destroyed while the helper is running: it stops without hanging.
  for (int i = 0; i < 20; ++i) {
    hash_sink<sha256> abandoned(sink_options{0, 4096, 2});
    abandoned.write(data.data(), static_cast<std::size_t>(i) * 100000 + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Digests of DOM values, and algorithms by name
// ---------------------------------------------------------------------------------------------

namespace {

// A document whose canonical form is roughly `members` * 60 bytes, members out of order.
json::value big_document(std::size_t members) {
  json::object root;
  for (std::size_t i = members; i-- > 0;) {
    json::object m;
    m.push_back({"z", json::value(static_cast<double>(i) / 7.0)});
    m.push_back({"name", json::value("item-" + std::to_string(i) + "\t\"q\"")});
    m.push_back({"ok", json::value(i % 2 == 0)});
    root.push_back({"k" + std::to_string(i), json::value(std::move(m))});
  }
  return json::value(std::move(root));
}

}  // namespace

TEST_CASE("digest_of a DOM value hashes its canonical bytes") {
  auto v = json::parse(R"({"b":[1,2.50,"x"],"a":{"\u00e9":null,"d":true},"c":1e21})");
  REQUIRE(v.has_value());
  auto canon = json::to_canonical(*v);
  REQUIRE(canon.has_value());
  CHECK(*canon == R"({"a":{"d":true,"é":null},"b":[1,2.5,"x"],"c":1e+21})");
  auto d = digest_of<sha256>(*v);
  REQUIRE(d.has_value());
  CHECK(*d == digest_bytes<sha256>(*canon));
  CHECK(digest_of<xxh3_64>(*v).value() == digest_bytes<xxh3_64>(*canon));
  CHECK(digest_of<sha256>(json::value(json::object{})).value().hex() ==
        "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");  // sha256("{}")
  // Values that convert to a DOM value.
  CHECK(digest_of<sha256>("abc").value() == digest_bytes<sha256>("\"abc\""));
  CHECK(digest_of<sha256>(1.0).value() == digest_bytes<sha256>("1"));
}

TEST_CASE("digest_of a large DOM value (pipelined) equals hashing its canonical bytes") {
  const json::value v = big_document(40000);
  auto canon = json::to_canonical(v);
  REQUIRE(canon.has_value());
  REQUIRE(canon->size() > (std::size_t{2} << 20));
  CHECK(digest_of<sha256>(v).value() == digest_bytes<sha256>(*canon));
  CHECK(digest_of<blake2b_512>(v).value() == digest_bytes<blake2b_512>(*canon));
  CHECK(digest_of<sha256>(v, sink_options{0, 1000, 2}).value() == digest_bytes<sha256>(*canon));
}

TEST_CASE("digest_of fails on values without a canonical form") {
  json::object o;
  o.push_back({"a", json::value(json::array{json::value(1), json::value(std::nan(""))})});
  auto d = digest_of<sha256>(json::value(std::move(o)));
  REQUIRE(!d);
  CHECK(d.error().code == errc::not_finite);
  CHECK(d.error().pointer == "/a/1");
  // Fails in the middle of a pipelined stream: the helper is stopped cleanly.
  json::value big = big_document(40000);
  big.set("zzz", json::value(std::numeric_limits<double>::infinity()));
  auto e = digest_of<sha256>(big);
  REQUIRE(!e);
  CHECK(e.error().code == errc::not_finite);
  auto u = digest_of<sha256>(json::value(std::string("\xff")));
  REQUIRE(!u);
  CHECK(u.error().code == errc::invalid_utf8);
}

TEST_CASE("algorithms chosen by name") {
  auto v = json::parse(R"({"b":2,"a":1})").value();
  const std::string canon = R"({"a":1,"b":2})";
  CHECK(digest_string_of("sha256", v).value() == digest_bytes<sha256>(canon).to_string());
  CHECK(digest_string_of("sha512", v).value() == digest_bytes<sha512>(canon).to_string());
  CHECK(digest_string_of("blake2b-512", v).value() == digest_bytes<blake2b_512>(canon).to_string());
  CHECK(digest_string_of("xxh3-64", v).value() == digest_bytes<xxh3_64>(canon).to_string());
  CHECK(digest_string_of("xxh3-128", v).value() == digest_bytes<xxh3_128>(canon).to_string());
  CHECK(digest_bytes_string("sha256", "").value() ==
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  for (auto name : algorithm_names) {
    CHECK(is_algorithm(name));
    auto s = digest_string_of(name, v);
    REQUIRE(s.has_value());
    CHECK(s->rfind(std::string(name) + ":", 0) == 0);
  }
  for (std::string_view bad : {"", "SHA256", "sha-256", "md5", "sha256 ", "blake2b", "xxh3"}) {
    auto r = digest_string_of(bad, v);
    REQUIRE(!r);
    CHECK(r.error().code == errc::invalid_argument);
    CHECK(r.error().message.find("sha256, sha512, blake2b-512, xxh3-64, xxh3-128") != std::string::npos);
    CHECK(!is_algorithm(bad));
    CHECK(!digest_bytes_string(bad, "x"));
  }
  CHECK(digest_string_of("md5", v).error().message ==
        "unknown digest algorithm \"md5\" (valid: sha256, sha512, blake2b-512, xxh3-64, xxh3-128)");
  // A value without canonical form reports its own error, not the algorithm's.
  auto nan = digest_string_of("sha256", json::value(std::nan("")));
  REQUIRE(!nan);
  CHECK(nan.error().code == errc::not_finite);
  int calls = 0;
  CHECK(visit_algorithm("xxh3-128", [&]<class P>(std::type_identity<P>) {
    static_assert(hash_policy<P>);
    calls += P::size == 16 ? 1 : 100;
  }));
  CHECK(calls == 1);
}

// ---------------------------------------------------------------------------------------------
// Policies of one's own
// ---------------------------------------------------------------------------------------------

namespace {

// A toy policy (sum and xor of the bytes, plus the length): enough to show the concepts accept
// user types, and to make a state that throws.
struct toy {
  static constexpr std::string_view name = "toy";
  static constexpr std::size_t size = 3;
  static constexpr bool cryptographic = false;
  struct state {
    std::uint8_t sum = 0, x = 0, len = 0;
    std::size_t seen = 0;
    std::size_t throw_after = static_cast<std::size_t>(-1);
    void update(const void* p, std::size_t n) {
      seen += n;
      if (seen > throw_after)
        throw std::runtime_error("toy state failed");
      const auto* b = static_cast<const std::uint8_t*>(p);
      for (std::size_t i = 0; i < n; ++i) {
        sum = static_cast<std::uint8_t>(sum + b[i]);
        x = static_cast<std::uint8_t>(x ^ b[i]);
      }
      len = static_cast<std::uint8_t>(len + n);
    }
    std::array<std::uint8_t, 3> final() {
      std::array<std::uint8_t, 3> out{sum, x, len};
      *this = state{};
      return out;
    }
  };
};

struct failing {
  static constexpr std::string_view name = "failing";
  static constexpr std::size_t size = 3;
  static constexpr bool cryptographic = true;  // pretend, to exercise evidence_digest<>
  struct state : toy::state {
    state() { throw_after = 100000; }
  };
};

// Fails the same way, but only on a thread other than the one that made the state: the
// helper's. (Until the helper runs the caller hashes on its own, so whether the first bytes
// past the limit reach the state there or on the helper depends on timing.)
struct failing_on_helper {
  static constexpr std::string_view name = "failing_on_helper";
  static constexpr std::size_t size = 3;
  static constexpr bool cryptographic = false;
  struct state : toy::state {
    static inline std::atomic<bool> on_helper{false};  // update() was called off the maker's thread
    std::thread::id maker = std::this_thread::get_id();
    void update(const void* p, std::size_t n) {
      if (std::this_thread::get_id() != maker) {
        on_helper = true;
        throw_after = 100000;
      }
      toy::state::update(p, n);
    }
  };
};

}  // namespace

TEST_CASE("a policy of one's own") {
  static_assert(hash_policy<toy> && !cryptographic_hash<toy> && non_cryptographic_hash<toy>);
  static_assert(cryptographic_hash<failing>);
  CHECK(digest_bytes<toy>("abc").hex() == "266003");  // 0x61+0x62+0x63 = 0x126, 0x61^0x62^0x63 = 0x60
  CHECK(digest<toy>::parse("toy:266003").value() == digest_bytes<toy>("abc"));
  const std::string data = pattern_bytes(50000);
  CHECK(through_sink<toy>(data, {7}, sink_options{0, 64, 3}) == digest_bytes<toy>(data));
  CHECK(evidence_digest<failing>::parse("failing:000000").has_value());
}

TEST_CASE("a state that throws: the error reaches the caller, pipelined or not") {
  const std::string data = pattern_bytes(300000);
  // On the calling thread the write that reaches the state throws.
  {
    hash_sink<failing> sink(sink_options{std::numeric_limits<std::size_t>::max()});
    CHECK_THROWS_AS(sink.write(data.data(), data.size()), std::runtime_error);
  }
  // Pipelined: the helper keeps draining and finish() rethrows.
  {
    hash_sink<failing_on_helper> sink(sink_options{0, 1000, 3});
    for (std::size_t p = 0; p < data.size(); p += 40)
      sink.write(data.data() + p, 40);
    CHECK(sink.pipelined());
    // Until the helper has had a buffer (at most 10 s).
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!failing_on_helper::state::on_helper && std::chrono::steady_clock::now() < until) {
      sink.write(data.data(), 1000);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    REQUIRE(failing_on_helper::state::on_helper);
    CHECK_THROWS_WITH_AS(sink.finish(), "toy state failed", std::runtime_error);
    CHECK(!sink.pipelined());
    sink.reset();
    sink.write("abc", 3);
    CHECK(sink.finish().hex() == digest_bytes<toy>("abc").hex());
  }
  // reset() in the middle of a pipelined stream.
  {
    hash_sink<sha256> sink(sink_options{0, 1000, 2});
    sink.write(data.data(), data.size());
    CHECK(sink.pipelined());
    sink.reset();
    CHECK(!sink.pipelined());
    CHECK(sink.bytes_written() == 0);
    sink.write(data.data(), 1000);
    CHECK(sink.finish() == digest_bytes<sha256>(data.substr(0, 1000)));
  }
  // Abandoned after the helper (likely) failed: no hang.
  {
    hash_sink<failing_on_helper> sink(sink_options{0, 1000, 2});
    for (std::size_t p = 0; p < data.size(); p += 40)
      sink.write(data.data() + p, 40);
    sink.write(data.data(), 3000);
  }
}

// --- sha256_each: many messages, two lanes at a time ---------------------------------------------

TEST_CASE("sha256_each: known answers, and every length across the padding's edges, in lanes and alone") {
  namespace lanes = assay::hash::detail::sha256_lanes;
  if (!lanes::available())
    MESSAGE("this processor has no SHA extensions: only the one-at-a-time path is tested");
  // FIPS 180-2's examples, "" and "abc" and the 56-byte one, side by side in the two lanes.
  const std::string_view known[] = {"", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
  std::array<sha256_bytes, 3> got{};
  sha256_each(known, 3, got.data());
  CHECK(digest<sha256>(got[0]).to_string() ==
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(digest<sha256>(got[1]).to_string() ==
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(digest<sha256>(got[2]).to_string() ==
        "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

  // Lengths 0..300 (one, two and more blocks; a tail of 55, 56, 63 and 64 bytes) in an order
  // that pairs every long message with short ones, each against Botan's digest of it.
  const std::string data = pattern_bytes(4096);
  std::vector<std::string_view> messages;
  for (std::size_t len = 0; len <= 300; ++len) {
    messages.push_back(std::string_view(data).substr(len % 7, len));
    messages.push_back(std::string_view(data).substr(1000 + len, 300 - len));
  }
  messages.push_back(std::string_view(data).substr(0, 4096));  // alone at the end, many blocks
  std::vector<sha256_bytes> out(messages.size()), alone(messages.size());
  sha256_each(messages.data(), messages.size(), out.data());
  lanes::each_alone(messages.data(), messages.size(), alone.data());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    INFO("message " << i << " of " << messages[i].size() << " bytes");
    const auto want = digest_bytes<sha256>(messages[i]);
    CHECK(digest<sha256>(out[i]) == want);
    CHECK(digest<sha256>(alone[i]) == want);
  }
  // Every count from none to five: an odd one out runs alone.
  for (std::size_t n = 0; n <= 5; ++n) {
    std::vector<sha256_bytes> some(n + 1);
    some[n].fill(0xAA);  // the slot past the end is not written
    sha256_each(messages.data() + 100, n, some.data());
    for (std::size_t i = 0; i < n; ++i)
      CHECK(digest<sha256>(some[i]) == digest_bytes<sha256>(messages[100 + i]));
    CHECK(std::all_of(some[n].begin(), some[n].end(), [](std::uint8_t b) { return b == 0xAA; }));
  }
}
