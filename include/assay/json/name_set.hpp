// assay/json/name_set.hpp — the member names of the objects being read, to find a repeated one.
//
// Every strict reader that rejects duplicate member names (the DOM builder, the document
// parsers, the cursor's skip) keeps them here. The set is a stack of scopes, one per open
// object: names are checked against the innermost object only, and closing it drops its names.
// insert() copies a name in, so it may come from a buffer that is reused right after;
// insert_view() keeps a view, for names whose bytes stay put until their object is closed.
//
// Input chooses the names, so the set must not degrade on names chosen to collide. Up to 16
// names per object are compared directly. Past that a scope gets an open-addressing table keyed
// by SipHash-1-3 under a random per-process key: no input can aim at the hash (unlike
// std::hash, whose seed is fixed), and an object of n names costs O(n) expected work.
#pragma once

#include "assay/json/big_array.hpp"
#include "assay/json/lex.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#if __has_include(<sys/random.h>)
#include <sys/random.h>  // getentropy: Linux (glibc 2.25+, musl), macOS, the BSDs
#define ASSAY_HAVE_GETENTROPY 1
#else
#include <random>  // elsewhere (Windows): std::random_device
#endif

namespace assay::json {

namespace lex {

// SipHash-c-d (Aumasson and Bernstein) of `s` under the key (k0, k1). name_set uses c = 1,
// d = 3; the test checks the reference vectors of SipHash-2-4.
template <int C, int D>
std::uint64_t siphash(std::uint64_t k0, std::uint64_t k1, std::string_view s) noexcept {
  std::uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
  std::uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
  std::uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
  std::uint64_t v3 = k1 ^ 0x7465646279746573ULL;
  auto round = [&]() noexcept {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  };
  auto absorb = [&](std::uint64_t m) noexcept {
    v3 ^= m;
    for (int i = 0; i < C; ++i)
      round();
    v0 ^= m;
  };
  const char* p = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t m;
    std::memcpy(&m, p + i, 8);
    if constexpr (std::endian::native == std::endian::big)
      m = __builtin_bswap64(m);
    absorb(m);
  }
  std::uint64_t last = static_cast<std::uint64_t>(n) << 56;
  for (std::size_t j = 0; i + j < n; ++j)
    last |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i + j])) << (8 * j);
  absorb(last);
  v2 ^= 0xff;
  for (int r = 0; r < D; ++r)
    round();
  return v0 ^ v1 ^ v2 ^ v3;
}

// The per-process random key of name_set's hash.
struct hash_key {
  std::uint64_t k0, k1;
};
// Fills `out` with `n` (at most 256) bytes from the operating system's entropy source; false
// when there is none. (Without <random>, which costs every reader ~8,000 lines to compile.)
inline bool os_entropy(void* out, std::size_t n) noexcept {
#ifdef ASSAY_HAVE_GETENTROPY
  return getentropy(out, n) == 0;
#else
  try {
    std::random_device rd;
    auto* p = static_cast<unsigned char*>(out);
    for (std::size_t i = 0; i < n; ++i)
      p[i] = static_cast<unsigned char>(rd());
    return true;
  } catch (...) {
    return false;
  }
#endif
}

inline const hash_key& name_hash_key() noexcept {
  static const hash_key key = [] {
    hash_key k{0x9E3779B97F4A7C15ULL, reinterpret_cast<std::uintptr_t>(&k)};
    std::uint64_t r[2] = {0, 0};
    if (os_entropy(r, sizeof r)) {  // else the address (ASLR) alone
      k.k0 ^= r[0];
      k.k1 ^= r[1];
    }
    return k;
  }();
  return key;
}

}  // namespace lex

class name_set {
 public:
  name_set() = default;
  name_set(const name_set&) = delete;
  name_set& operator=(const name_set&) = delete;
  name_set(name_set&&) noexcept = default;
  name_set& operator=(name_set&&) noexcept = default;

  // Begins the names of a new object, nested in the current one (if any).
  void open() { scopes_.push_back(scope{entries_.size(), block_, used_, 0}); }

  // Ends the innermost object and forgets its names (keeping the memory for the next ones).
  void close() noexcept {
    const scope& s = scopes_.back();
    entries_.resize_within(s.first);
    block_ = s.block;
    used_ = s.used;
    scopes_.pop_back();
  }

  // Adds a copy of `name` to the innermost object; false when that object already has it.
  ASSAY_ALWAYS_INLINE bool insert(std::string_view name) { return add<true>(name); }

  // The same, keeping a view of `name`: its bytes must stay put until the object is closed.
  ASSAY_ALWAYS_INLINE bool insert_view(std::string_view name) { return add<false>(name); }

  // Open objects.
  std::size_t depth() const noexcept { return scopes_.size(); }

  void clear() noexcept {
    scopes_.clear();
    entries_.clear();
    block_ = used_ = 0;
  }

 private:
  static constexpr std::size_t linear_limit = 16;
  static constexpr std::size_t block_size = 4096;
  struct entry {
    const char* data;
    std::size_t size;
  };
  struct scope {
    std::size_t first;  // its first entry
    std::size_t block;  // the copy store's position when it opened
    std::size_t used;
    std::uint64_t seen;  // while compared directly: a bit for each name's fingerprint
  };
  struct slot {
    std::uint64_t hash;
    std::size_t entry_plus_one;  // 0: empty
  };
  using table = std::vector<slot>;
  struct block {
    std::unique_ptr<char[]> data;
    std::size_t size;
  };

  template <bool Copy>
  ASSAY_ALWAYS_INLINE bool add(std::string_view name) {
    scope& s = scopes_.back();
    if (entries_.size() - s.first < linear_limit) [[likely]] {
      // A name whose fingerprint no earlier name of the object had is new without comparing.
      const std::uint64_t bit = std::uint64_t(1) << fingerprint(name);
      if ((s.seen & bit) != 0) {
        for (const entry *e = entries_.data() + s.first, *last = entries_.data() + entries_.size(); e != last; ++e)
          if (equal(*e, name))
            return false;
      }
      s.seen |= bit;
      entries_.push_back(entry{Copy ? store(name) : name.data(), name.size()});
      return true;
    }
    return add_hashed(name, Copy);
  }

  // Past linear_limit names: the table of this depth, which belongs to the scope that last
  // crossed the limit there (this one, once it has).
  bool add_hashed(std::string_view name, bool copy) {
    const std::size_t first = scopes_.back().first;
    const std::size_t n = entries_.size() - first;
    if (tables_.size() < scopes_.size())
      tables_.resize(scopes_.size());
    table& t = tables_[scopes_.size() - 1];
    if (n == linear_limit) {
      t.assign(64, slot{0, 0});
      for (std::size_t i = first; i < entries_.size(); ++i)
        place(t, hash(std::string_view(entries_[i].data, entries_[i].size)), i);
    } else if ((n + 1) * 2 > t.size()) {
      grow(t);
    }
    const std::uint64_t h = hash(name);
    const std::size_t mask = t.size() - 1;
    for (std::size_t p = static_cast<std::size_t>(h) & mask;; p = (p + 1) & mask) {
      slot& sl = t[p];
      if (sl.entry_plus_one == 0) {
        sl = slot{h, entries_.size() + 1};
        entries_.push_back(entry{copy ? store(name) : name.data(), name.size()});
        return true;
      }
      if (sl.hash == h && equal(entries_[sl.entry_plus_one - 1], name))
        return false;
    }
  }

  static std::uint64_t hash(std::string_view s) noexcept {
    const lex::hash_key& k = lex::name_hash_key();
    return lex::siphash<1, 3>(k.k0, k.k1, s);
  }
  // 0..63 from the length and the first and last bytes: equal names have equal fingerprints.
  static unsigned fingerprint(std::string_view name) noexcept {
    const std::size_t n = name.size();
    if (n == 0)
      return 0;
    const unsigned first = static_cast<unsigned char>(name[0]), last = static_cast<unsigned char>(name[n - 1]);
    return (static_cast<unsigned>(n) * 7u + first * 5u + last) & 63u;
  }
  static bool equal(const entry& e, std::string_view name) noexcept {
    return e.size == name.size() && lex::same_bytes(e.data, name.data(), e.size);
  }
  static void place(table& t, std::uint64_t h, std::size_t entry) noexcept {
    const std::size_t mask = t.size() - 1;
    std::size_t p = static_cast<std::size_t>(h) & mask;
    while (t[p].entry_plus_one != 0)
      p = (p + 1) & mask;
    t[p] = slot{h, entry + 1};
  }
  static void grow(table& t) {
    table bigger(t.size() * 2, slot{0, 0});
    for (const slot& s : t)
      if (s.entry_plus_one != 0)
        place(bigger, s.hash, s.entry_plus_one - 1);
    t.swap(bigger);
  }

  // A copy of `s` in the copy store: blocks that never move, used as a stack (a scope gives
  // back what it took when it closes).
  const char* store(std::string_view s) {
    if (block_ >= blocks_.size() || blocks_[block_].size - used_ < s.size()) {
      // On to the next block, made big enough (a block past the current one holds nothing).
      const std::size_t next = block_ < blocks_.size() ? block_ + 1 : block_;
      const std::size_t want = s.size() > block_size ? s.size() : block_size;
      if (next == blocks_.size()) {
        blocks_.push_back(block{std::unique_ptr<char[]>(new char[want]), want});
      } else if (blocks_[next].size < want) {
        blocks_[next] = block{std::unique_ptr<char[]>(new char[want]), want};
      }
      block_ = next;
      used_ = 0;
    }
    char* p = blocks_[block_].data.get() + used_;
    used_ += s.size();
    if (!s.empty())
      std::memcpy(p, s.data(), s.size());
    return p;
  }

  detail::big_vector<entry> entries_;  // the names of the open objects, scope after scope
  std::vector<scope> scopes_;
  std::vector<table> tables_;  // per depth: the table of the scope there past linear_limit names
  std::vector<block> blocks_;  // the copy store
  std::size_t block_ = 0;      // its current block and the bytes used there
  std::size_t used_ = 0;
};

}  // namespace assay::json
