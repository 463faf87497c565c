// assay/evidence/ids.hpp — identifiers of runs, events and bundles (docs/evidence.md).
//
//   stream id     run_id ":" decimal(seq)
//   strict run id "run_" base64url_nopad(sha256(repo_root 0x00 policy_hash 0x00 command 0x00 env_hash))
//   live run id   a UUIDv7 (RFC 9562), monotonic within the process
//   run_root      "sha256:" hex(sha256(for each event in seq order: its content hash, "\n"))
//   bundle_id     = run_root
#pragma once

#include "assay/hash/hash.hpp"
#include "assay/json/name_set.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace assay::evidence {

// RFC 4648 §5 base64url without padding.
inline std::string base64url_nopad(const std::uint8_t* p, std::size_t n) {
  static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((n * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const std::uint32_t v = (std::uint32_t(p[i]) << 16) | (std::uint32_t(p[i + 1]) << 8) | p[i + 2];
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (n - i == 1) {
    const std::uint32_t v = std::uint32_t(p[i]) << 16;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
  } else if (n - i == 2) {
    const std::uint32_t v = (std::uint32_t(p[i]) << 16) | (std::uint32_t(p[i + 1]) << 8);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
  }
  return out;
}

// "run_id:seq".
inline std::string stream_id(std::string_view run_id, std::uint64_t seq) {
  std::string out;
  out.reserve(run_id.size() + 21);
  out.append(run_id);
  out += ':';
  out += std::to_string(seq);
  return out;
}

// The strict/replay run id: the same context always gives the same id.
inline std::string strict_run_id(std::string_view repo_root, std::string_view policy_hash, std::string_view command,
                                 std::string_view strict_env_hash) {
  hash::sha256::state s;
  const char nul = '\0';
  s.update(repo_root.data(), repo_root.size());
  s.update(&nul, 1);
  s.update(policy_hash.data(), policy_hash.size());
  s.update(&nul, 1);
  s.update(command.data(), command.size());
  s.update(&nul, 1);
  s.update(strict_env_hash.data(), strict_env_hash.size());
  const auto d = s.final();
  return "run_" + base64url_nopad(d.data(), d.size());
}

// A UUIDv7 for live runs: 48-bit Unix time in ms, version 7, variant 10, the rest random.
// Monotonic within the process: within one millisecond (or if the clock steps back) a 12-bit
// counter in rand_a advances; when it overflows the timestamp is advanced by one.
class uuid7_generator {
 public:
  std::string next() {
    std::array<std::uint8_t, 16> b{};
    {
      std::lock_guard<std::mutex> lock(mu_);
      const auto now = static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count());
      if (now > last_ms_) {
        last_ms_ = now;
        counter_ = static_cast<std::uint16_t>(random_u64() & 0x3FF);  // random start, headroom to count
      } else if (++counter_ > 0xFFF) {
        ++last_ms_;
        counter_ = 0;
      }
      const std::uint64_t r = random_u64();
      for (int i = 0; i < 6; ++i)
        b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(last_ms_ >> (40 - 8 * i));
      b[6] = static_cast<std::uint8_t>(0x70 | ((counter_ >> 8) & 0x0F));
      b[7] = static_cast<std::uint8_t>(counter_ & 0xFF);
      for (int i = 0; i < 8; ++i)
        b[static_cast<std::size_t>(8 + i)] = static_cast<std::uint8_t>(r >> (8 * i));
      b[8] = static_cast<std::uint8_t>(0x80 | (b[8] & 0x3F));
    }
    return text(b);
  }

  // A random UUID (version 4, RFC 9562): the same source of random bits.
  std::string next_random() {
    std::array<std::uint8_t, 16> b{};
    {
      std::lock_guard<std::mutex> lock(mu_);
      const std::uint64_t hi = random_u64(), lo = random_u64();
      for (int i = 0; i < 8; ++i) {
        b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(hi >> (8 * i));
        b[static_cast<std::size_t>(8 + i)] = static_cast<std::uint8_t>(lo >> (8 * i));
      }
    }
    b[6] = static_cast<std::uint8_t>(0x40 | (b[6] & 0x0F));
    b[8] = static_cast<std::uint8_t>(0x80 | (b[8] & 0x3F));
    return text(b);
  }

  static uuid7_generator& process() {
    static uuid7_generator g;
    return g;
  }

 private:
  // 8-4-4-4-12 lowercase hex.
  static std::string text(const std::array<std::uint8_t, 16>& b) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (std::size_t i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10)
        out += '-';
      out += hex[b[i] >> 4];
      out += hex[b[i] & 15];
    }
    return out;
  }

  std::mutex mu_;
  // 64 random bits: from the operating system when it has a source, else a SplitMix64 sequence
  // seeded from the clock and an address.
  std::uint64_t random_u64() {
    std::uint64_t r = 0;
    if (json::lex::os_entropy(&r, sizeof r))
      return r;
    if (fallback_ == 0)
      fallback_ = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                  reinterpret_cast<std::uintptr_t>(this);
    std::uint64_t z = (fallback_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  std::uint64_t fallback_ = 0;
  std::uint64_t last_ms_ = 0;
  std::uint16_t counter_ = 0;
};

// A live run id (UUIDv7), monotonic within this process.
inline std::string live_run_id() {
  return uuid7_generator::process().next();
}

// A random UUID (version 4).
inline std::string random_uuid() {
  return uuid7_generator::process().next_random();
}

// Incremental run_root: feed content hashes in seq order.
class run_root_builder {
 public:
  void add(std::string_view content_hash) {
    state_.update(content_hash.data(), content_hash.size());
    state_.update("\n", 1);
  }
  std::string finish() { return hash::digest<hash::sha256>(state_.final()).to_string(); }

 private:
  hash::sha256::state state_;
};

}  // namespace assay::evidence
