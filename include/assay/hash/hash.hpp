// assay/hash/hash.hpp — hash policies, digest strings, and hashing canonical JSON (SPEC §3).
//
//   using namespace assay::hash;
//   auto d = digest_of<sha256>(dom);            // result<digest<sha256>>: hash of the JCS bytes
//   d->to_string();                             // "sha256:e3b0c442…"
//   auto p = digest<sha256>::parse(text);       // exact: uppercase hex is an error
//   evidence_digest<> e = *d;                   // only cryptographic policies may form one
//   auto k = digest_bytes<xxh3_64>(raw);        // raw bytes, no canonicalization
//   auto s = digest_string_of("sha512", dom);   // algorithm chosen at run time (the CLI)
//
// Policies: sha256, sha512, blake2b_512 (Botan) and xxh3_64, xxh3_128 (xxHash; printed
// big-endian, xxHash's canonical form). The xxh3 policies are not cryptographic: they serve
// deduplication and cache keys, and `evidence_digest` refuses them at compile time.
//
// `hash_sink<P>` is a JSON sink (json/canonical.hpp) that streams bytes into a hash state.
// Once a stream grows past a threshold (64 KiB by default) hashing moves to a helper thread
// that consumes filled buffers while the caller keeps serializing into the next one; shorter
// streams never start a thread. The digest is the same either way.
//
// For typed (reflected) values include "assay/hash/digest_of.hpp".
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <botan/hash.h>
#include <xxhash.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::hash {

// ---------------------------------------------------------------------------------------------
// Concepts
// ---------------------------------------------------------------------------------------------

namespace detail {
template <class P>
concept policy_description = requires {
  { P::name } -> std::convertible_to<std::string_view>;
  { P::size } -> std::convertible_to<std::size_t>;
  { P::cryptographic } -> std::convertible_to<bool>;
  typename P::state;
  requires(P::size != 0);
};
template <class P>
concept policy_state = requires(typename P::state& s, const void* p, std::size_t n) {
  requires std::default_initializable<typename P::state>;
  s.update(p, n);
  { s.final() } -> std::same_as<std::array<std::uint8_t, P::size>>;
};
}  // namespace detail

// A hash policy: a name (the digest-string prefix), an output size in bytes, whether it is
// cryptographic, and a default-constructible `state` that absorbs bytes with update() and
// yields the digest with final(). final() returns the state to its initial (empty) condition.
template <class P>
concept hash_policy = detail::policy_description<P> && detail::policy_state<P>;

namespace detail {
// Spelled out so that a failed constraint names the reason.
template <class P>
inline constexpr bool policy_is_cryptographic = static_cast<bool>(P::cryptographic);
}  // namespace detail

// A policy fit for evidence integrity (SPEC §3): sha256, sha512, blake2b-512; never xxh3.
template <class P>
concept cryptographic_hash = hash_policy<P> && detail::policy_is_cryptographic<P>;

// xxh3-64, xxh3-128: deduplication and cache keys only.
template <class P>
concept non_cryptographic_hash = hash_policy<P> && !detail::policy_is_cryptographic<P>;

// ---------------------------------------------------------------------------------------------
// States
// ---------------------------------------------------------------------------------------------

namespace detail {

// A Botan hash. One prototype per algorithm is created by name on first use (and its output
// size checked); each state is a clone of it, which skips the name lookup.
template <class Policy>
class botan_state {
 public:
  botan_state() : h_(prototype().clone()) {}
  botan_state(botan_state&&) noexcept = default;
  botan_state& operator=(botan_state&&) noexcept = default;
  botan_state(const botan_state&) = delete;
  botan_state& operator=(const botan_state&) = delete;
  ~botan_state() = default;

  void update(const void* p, std::size_t n) { h_->update(static_cast<const std::uint8_t*>(p), n); }

  std::array<std::uint8_t, Policy::size> final() {
    std::array<std::uint8_t, Policy::size> out;
    h_->final(out.data());  // also resets the state
    return out;
  }

  // Botan's implementation in use, e.g. "shani" for SHA-256 on a CPU with the SHA extensions.
  std::string provider() const { return h_->provider(); }

 private:
  static const Botan::HashFunction& prototype() {
    static const std::unique_ptr<Botan::HashFunction> proto = [] {
      auto h = Botan::HashFunction::create_or_throw(std::string(Policy::botan_name));
      if (h->output_length() != Policy::size) {
        throw std::logic_error("assay::hash: Botan's " + std::string(Policy::botan_name) +
                               " has an unexpected output length");
      }
      return h;
    }();
    return *proto;
  }

  std::unique_ptr<Botan::HashFunction> h_;
};

struct xxh3_state_deleter {
  void operator()(XXH3_state_t* s) const noexcept { XXH3_freeState(s); }
};
using xxh3_state_ptr = std::unique_ptr<XXH3_state_t, xxh3_state_deleter>;

inline xxh3_state_ptr make_xxh3_state() {
  xxh3_state_ptr s(XXH3_createState());
  if (!s)
    throw std::bad_alloc();
  return s;
}

class xxh3_64_state {
 public:
  xxh3_64_state() : s_(make_xxh3_state()) { XXH3_64bits_reset(s_.get()); }

  void update(const void* p, std::size_t n) {
    if (n != 0)
      XXH3_64bits_update(s_.get(), p, n);
  }

  std::array<std::uint8_t, 8> final() {
    XXH64_canonical_t c;
    XXH64_canonicalFromHash(&c, XXH3_64bits_digest(s_.get()));
    XXH3_64bits_reset(s_.get());
    std::array<std::uint8_t, 8> out;
    std::memcpy(out.data(), c.digest, out.size());
    return out;
  }

 private:
  xxh3_state_ptr s_;
};

class xxh3_128_state {
 public:
  xxh3_128_state() : s_(make_xxh3_state()) { XXH3_128bits_reset(s_.get()); }

  void update(const void* p, std::size_t n) {
    if (n != 0)
      XXH3_128bits_update(s_.get(), p, n);
  }

  std::array<std::uint8_t, 16> final() {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(s_.get()));
    XXH3_128bits_reset(s_.get());
    std::array<std::uint8_t, 16> out;
    std::memcpy(out.data(), c.digest, out.size());
    return out;
  }

 private:
  xxh3_state_ptr s_;
};

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------
//
// Besides what hash_policy requires, each policy offers `hash(p, n)`, a one-shot digest of
// contiguous bytes.

struct sha256 {
  static constexpr std::string_view name = "sha256";
  static constexpr std::size_t size = 32;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "SHA-256";
  using state = detail::botan_state<sha256>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

struct sha512 {
  static constexpr std::string_view name = "sha512";
  static constexpr std::size_t size = 64;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "SHA-512";
  using state = detail::botan_state<sha512>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

struct blake2b_512 {
  static constexpr std::string_view name = "blake2b-512";
  static constexpr std::size_t size = 64;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "BLAKE2b(512)";
  using state = detail::botan_state<blake2b_512>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

// Non-cryptographic: deduplication and cache keys only.
struct xxh3_64 {
  static constexpr std::string_view name = "xxh3-64";
  static constexpr std::size_t size = 8;
  static constexpr bool cryptographic = false;
  using state = detail::xxh3_64_state;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    XXH64_canonical_t c;
    XXH64_canonicalFromHash(&c, XXH3_64bits(n != 0 ? p : "", n));
    std::array<std::uint8_t, size> out;
    std::memcpy(out.data(), c.digest, size);
    return out;
  }
};

// Non-cryptographic: deduplication and cache keys only.
struct xxh3_128 {
  static constexpr std::string_view name = "xxh3-128";
  static constexpr std::size_t size = 16;
  static constexpr bool cryptographic = false;
  using state = detail::xxh3_128_state;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(n != 0 ? p : "", n));
    std::array<std::uint8_t, size> out;
    std::memcpy(out.data(), c.digest, size);
    return out;
  }
};

// Every policy, in the order the valid names are listed in messages.
using policies = std::tuple<sha256, sha512, blake2b_512, xxh3_64, xxh3_128>;
inline constexpr std::array<std::string_view, 5> algorithm_names = {sha256::name, sha512::name, blake2b_512::name,
                                                                    xxh3_64::name, xxh3_128::name};

// ---------------------------------------------------------------------------------------------
// digest<P>
// ---------------------------------------------------------------------------------------------

namespace detail {

inline constexpr char hex_digits[] = "0123456789abcdef";

inline void append_hex(std::string& out, const std::uint8_t* p, std::size_t n) {
  const std::size_t base = out.size();
  out.resize(base + 2 * n);
  char* o = out.data() + base;
  for (std::size_t i = 0; i < n; ++i) {
    o[2 * i] = hex_digits[p[i] >> 4];
    o[2 * i + 1] = hex_digits[p[i] & 15];
  }
}

// Lowercase hex digit value, or -1 (uppercase included: SPEC §3 compares digests exactly).
constexpr int lower_hex_value(char c) noexcept {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

// A short, printable rendering of untrusted text for a message.
inline std::string shown(std::string_view s) {
  constexpr std::size_t max = 80;
  std::string out = json::detail::quoted_for_message(s.substr(0, max));
  if (s.size() > max)
    out += "...";
  return out;
}

}  // namespace detail

// The digest of some bytes under policy P. Digests of different policies are different types
// and never compare. The string form is "<P::name>:<lowercase hex>".
template <hash_policy P>
class digest {
 public:
  using policy = P;
  using bytes_type = std::array<std::uint8_t, P::size>;
  static constexpr std::string_view algorithm = P::name;
  static constexpr std::size_t size = P::size;
  static constexpr std::size_t hex_size = 2 * P::size;
  static constexpr std::size_t string_size = algorithm.size() + 1 + hex_size;

  constexpr digest() noexcept = default;  // all zero bytes
  constexpr explicit digest(const bytes_type& b) noexcept : bytes_(b) {}

  constexpr const bytes_type& bytes() const noexcept { return bytes_; }

  // Lowercase hex, 2 * size characters.
  std::string hex() const {
    std::string out;
    out.reserve(hex_size);
    detail::append_hex(out, bytes_.data(), bytes_.size());
    return out;
  }

  // "<name>:<lowercase hex>".
  std::string to_string() const {
    std::string out;
    out.reserve(string_size);
    out.append(algorithm);
    out += ':';
    detail::append_hex(out, bytes_.data(), bytes_.size());
    return out;
  }

  // True when `text` is exactly this digest's string (no case folding, no whitespace).
  bool matches(std::string_view text) const noexcept {
    if (text.size() != string_size || text.substr(0, algorithm.size()) != algorithm || text[algorithm.size()] != ':') {
      return false;
    }
    const char* h = text.data() + algorithm.size() + 1;
    for (std::size_t i = 0; i < size; ++i) {
      if (h[2 * i] != detail::hex_digits[bytes_[i] >> 4] || h[2 * i + 1] != detail::hex_digits[bytes_[i] & 15]) {
        return false;
      }
    }
    return true;
  }

  // Parses "<name>:<hex>": the prefix must be this policy's name, the hex exactly 2 * size
  // lowercase digits. Errors are errc::format_mismatch.
  static result<digest> parse(std::string_view text) {
    const std::string_view name = algorithm;
    if (text.size() <= name.size() || text.substr(0, name.size()) != name || text[name.size()] != ':') {
      return make_error(errc::format_mismatch,
                        "digest " + detail::shown(text) + " does not start with \"" + std::string(name) + ":\"");
    }
    return from_hex(text.substr(name.size() + 1));
  }

  // Parses the bare hex part (exactly 2 * size lowercase hex digits).
  static result<digest> from_hex(std::string_view hex) {
    if (hex.size() != hex_size) {
      return make_error(errc::format_mismatch, std::string(algorithm) + " digest needs " + std::to_string(hex_size) +
                                                   " hex digits, found " + std::to_string(hex.size()));
    }
    bytes_type b{};
    for (std::size_t i = 0; i < hex_size; ++i) {
      const int v = detail::lower_hex_value(hex[i]);
      if (v < 0) {
        const char c = hex[i];
        const bool upper = c >= 'A' && c <= 'F';
        return make_error(errc::format_mismatch,
                          upper ? "uppercase hex digit " + detail::shown(std::string_view(&c, 1)) + " at index " +
                                      std::to_string(i) + " of the digest: digests are lowercase and compared exactly"
                                : "character " + detail::shown(std::string_view(&c, 1)) + " at index " +
                                      std::to_string(i) + " of the digest is not a hex digit");
      }
      b[i / 2] = static_cast<std::uint8_t>(b[i / 2] | (v << ((i % 2 == 0) ? 4 : 0)));
    }
    return digest(b);
  }

  friend constexpr bool operator==(const digest&, const digest&) noexcept = default;
  friend constexpr std::strong_ordering operator<=>(const digest&, const digest&) noexcept = default;

  friend std::ostream& operator<<(std::ostream& os, const digest& d) { return os << d.to_string(); }

 private:
  bytes_type bytes_{};
};

// A digest fit for evidence integrity. It can only be formed from a cryptographic policy:
// `evidence_digest<xxh3_64>` does not satisfy its constraint, and a digest<xxh3_…> does not
// convert to any evidence_digest. Evidence uses the default, sha256 (SPEC §3).
template <cryptographic_hash P = sha256>
class evidence_digest : public digest<P> {
 public:
  using digest<P>::digest;
  constexpr evidence_digest() noexcept = default;
  constexpr evidence_digest(const digest<P>& d) noexcept : digest<P>(d) {}  // NOLINT: implicit on purpose

  // Non-cryptographic digests (xxh3) are never evidence.
  template <non_cryptographic_hash Q>
  evidence_digest(const digest<Q>&) = delete;  // a non-cryptographic digest is never evidence

  static result<evidence_digest> parse(std::string_view text) {
    auto r = digest<P>::parse(text);
    if (!r)
      return r.error();
    return evidence_digest(*r);
  }
  static result<evidence_digest> from_hex(std::string_view hex) {
    auto r = digest<P>::from_hex(hex);
    if (!r)
      return r.error();
    return evidence_digest(*r);
  }
};

// ---------------------------------------------------------------------------------------------
// hash_sink<P>
// ---------------------------------------------------------------------------------------------

// When a hash_sink hands hashing to a helper thread.
struct sink_options {
  // Bytes after which hashing moves to the helper thread; SIZE_MAX: never. Starting a thread
  // costs the caller about what hashing 64 KiB does, and the caller hashes on by itself until
  // the thread runs; from about 300 KiB of typed JSON on, the pipeline pays for itself.
  std::size_t pipeline_threshold = std::size_t{64} << 10;
  // Size of each buffer handed to the helper (8 KiB .. 1 GiB), and how many circulate (2 .. 64).
  // Small buffers: the helper waits less for the first one, and the bytes are still in cache.
  std::size_t chunk_size = std::size_t{32} << 10;
  unsigned chunks = 8;
};

// xxh3 hashes far faster than anything can produce canonical JSON: it never pipelines.
template <hash_policy P>
inline constexpr sink_options default_sink_options =
    P::cryptographic ? sink_options{} : sink_options{std::numeric_limits<std::size_t>::max()};

namespace detail {

// A single-producer, single-consumer ring of `n` buffers of `chunk` bytes. The caller fills
// a buffer and publishes it; a helper thread absorbs published buffers into the state in
// order and returns them to the caller. From the first publish until close() the state is the
// helper's alone.
//
// No lock: two counters, each written by one side, and per-buffer facts written before the
// buffer is published. A side with nothing to do watches the other's counter before it sleeps
// on it (std::atomic wait/notify; a notify costs nothing while nobody sleeps). The watch is
// what makes the pipeline pay: on a virtual machine waking a sleeping thread can take longer
// than hashing a buffer, and a caller that slept whenever the ring was full left the helper
// idle (13% slower than hashing on one thread, against 1.5% with watching).
//
// For the same reason nothing waits for the helper's thread itself. Starting one takes about
// 100 us there: until it runs the caller goes on hashing by itself (nothing published yet,
// the state is still its own) rather than fill buffers nobody takes. And close() does not
// join: the caller watches for the last buffer to come back, and the helper, which then
// touches nothing but the ring it shares, ends on its own.
template <class State>
class hash_pipeline {
 public:
  // How long each side watches before it sleeps. The caller waits for the helper to finish
  // a buffer, which takes chunk / (hash speed): about 20 us for 32 KiB with SHA-NI.
  static constexpr std::chrono::microseconds caller_watch{1000};
  // The helper waits for the caller to produce a buffer, which may take long: a slow
  // producer should not keep a second core busy for nothing.
  static constexpr std::chrono::microseconds helper_watch{50};

  hash_pipeline(State& st, std::size_t chunk, unsigned n) : ring_(std::make_shared<ring>(chunk, n)) {
    thread_ = std::thread([r = ring_, &st] { r->run(st); });
  }
  hash_pipeline(const hash_pipeline&) = delete;
  hash_pipeline& operator=(const hash_pipeline&) = delete;

  // Abandons the stream (close() not called): the helper stops without hashing the rest. It
  // is joined if it may be inside the state, that is once something was published.
  ~hash_pipeline() {
    if (thread_.joinable()) {
      ring_->abort.store(true, std::memory_order_relaxed);
      ring_->published.fetch_add(1, std::memory_order_release);  // wakes a sleeping helper
      ring_->published.notify_one();
      if (ring_->produced == 0)
        thread_.detach();
      else
        thread_.join();
    }
  }

  // True once the helper runs. Until the caller publishes something the state is still its
  // own to update.
  bool running() const noexcept { return ring_->running.load(std::memory_order_acquire); }

  // The buffer the caller fills first.
  char* first() noexcept { return ring_->slot(0); }

  // Publishes the caller's current buffer holding `len` bytes; returns the next one to fill,
  // waiting while every buffer is with the helper.
  char* publish(std::size_t len) {
    ring& r = *ring_;
    r.put(len, false);
    wait_until(r.consumed, caller_watch, [&r](counter c) { return counter(r.produced - c) < r.n; });
    return r.slot(r.produced);
  }

  // Publishes the last buffer, waits for the helper to absorb everything, and rethrows what
  // the state threw, if anything.
  void close(std::size_t len) {
    ring& r = *ring_;
    r.put(len, true);
    wait_until(r.consumed, caller_watch, [&r](counter c) { return c == r.produced; });
    thread_.detach();
    if (r.error)
      std::rethrow_exception(r.error);
  }

 private:
  using counter = std::uint32_t;  // buffer counts, compared by difference (wrap-safe)

  struct buffer_info {
    std::size_t len = 0;  // bytes in the buffer
    bool last = false;    // the stream's last buffer
  };

  // What the caller and the helper share; the last of them to let go frees it.
  struct ring {
    ring(std::size_t chunk, unsigned n) : chunk(chunk), n(n), mem(new char[chunk * n]), info(new buffer_info[n]) {}

    char* slot(counter i) const noexcept { return mem.get() + (i % n) * chunk; }

    void put(std::size_t len, bool last) {
      info[produced % n] = {len, last};
      ++produced;
      published.store(produced, std::memory_order_release);
      published.notify_one();
    }

    // The helper: absorbs buffers until the last one (or an abort). After the last buffer's
    // count is stored it touches the state no more: the caller may be gone.
    void run(State& st) {
      running.store(true, std::memory_order_release);
      for (counter c = 0;; ++c) {
        wait_until(published, helper_watch, [c](counter p) { return p != c; });
        if (abort.load(std::memory_order_relaxed))
          return;
        const buffer_info b = info[c % n];
        if (!error) {
          try {
            st.update(slot(c), b.len);
          } catch (...) {
            error = std::current_exception();  // reported by close(); keep draining
          }
        }
        consumed.store(c + 1, std::memory_order_release);
        consumed.notify_one();
        if (b.last)
          return;
      }
    }

    const std::size_t chunk;
    const unsigned n;
    std::unique_ptr<char[]> mem;
    std::unique_ptr<buffer_info[]> info;            // written before publishing, read after
    counter produced = 0;                           // the caller's own count
    alignas(64) std::atomic<counter> published{0};  // written by the caller (and on abort)
    alignas(64) std::atomic<counter> consumed{0};   // written by the helper
    std::atomic<bool> abort{false};
    std::atomic<bool> running{false};  // the helper has started
    std::exception_ptr error;          // the helper's until it hands the last buffer back
  };

  // Returns once ready(x) holds: watches x for `watch`, then sleeps on it.
  template <class Ready>
  static void wait_until(const std::atomic<counter>& x, std::chrono::microseconds watch, Ready ready) noexcept {
    counter v = x.load(std::memory_order_acquire);
    if (ready(v))
      return;
    const auto until = std::chrono::steady_clock::now() + watch;
    for (unsigned i = 1;; ++i) {
#if defined(__SSE2__)
      _mm_pause();
#endif
      v = x.load(std::memory_order_acquire);
      if (ready(v))
        return;
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until)
        break;
    }
    while (!ready(v)) {
      x.wait(v, std::memory_order_acquire);
      v = x.load(std::memory_order_acquire);
    }
  }

  std::shared_ptr<ring> ring_;
  std::thread thread_;
};

}  // namespace detail

// A JSON sink (json::sink) that hashes the bytes written to it. Small writes are gathered
// into a buffer so the hash sees large blocks. Past options.pipeline_threshold bytes, hashing
// runs on a helper thread over a ring of buffers, and once the helper runs the serializer
// writes straight into the ring's buffers (no copy in between); the digest is identical. Not
// copyable or movable (the helper refers to the state). After finish() the sink is empty and
// reusable.
template <hash_policy P>
class hash_sink {
 public:
  using policy = P;

  // The size of the gathering buffer, and the most reserve() grants at once. The ring's
  // buffers are at least this large.
  static constexpr std::size_t buffer_size = 8192;

  explicit hash_sink(const sink_options& o = default_sink_options<P>) : opt_(o) {
    opt_.chunks = std::clamp(opt_.chunks, 2u, 64u);
    opt_.chunk_size = std::clamp(opt_.chunk_size, buffer_size, std::size_t{1} << 30);
  }
  hash_sink(const hash_sink&) = delete;
  hash_sink& operator=(const hash_sink&) = delete;
  ~hash_sink() = default;

  ASSAY_ALWAYS_INLINE void write(const char* p, std::size_t n) {
    if (n <= cap_ - fill_) [[likely]] {
      json::detail::copy_bytes(buf_ + fill_, p, n);
      fill_ += n;
      return;
    }
    write_large(p, n);
  }
  void update(const void* p, std::size_t n) { write(static_cast<const char*>(p), n); }
  void write(std::string_view s) { write(s.data(), s.size()); }

  // The writer interface (json::buffered_sink): serializers write straight into the current
  // buffer, with no buffer of their own in between. reserve(n) grants n <= buffer_size bytes;
  // advance(k) commits the first k of them.
  void put(char c) {
    if (fill_ == cap_) [[unlikely]]
      pass_on();
    buf_[fill_++] = c;
  }
  char* reserve(std::size_t n) {
    if (n > cap_ - fill_) [[unlikely]]
      pass_on();
    return buf_ + fill_;
  }
  void advance(std::size_t n) noexcept { fill_ += n; }
  void flush() noexcept {}  // finish() takes what is buffered

  // Bytes written since construction or the last finish().
  std::size_t bytes_written() const noexcept { return done_ + fill_; }

  // True while a helper thread is hashing.
  bool pipelined() const noexcept { return pipe_ != nullptr; }

  // Drops everything written (stopping the helper, if any); the sink is empty again. The way
  // to reuse a sink after an exception from write() or finish().
  void reset() {
    pipe_.reset();
    gather();
    done_ = 0;
    state_ = typename P::state{};
  }

  // The digest of everything written; the sink is then empty again. What the state threw on
  // the helper thread is rethrown here.
  digest<P> finish() {
    // A helper that never ran in time to get anything is let go when `pipe` goes.
    const auto pipe = std::move(pipe_);
    const bool handed_over = buf_ != storage_;
    const std::size_t last = fill_;
    gather();
    done_ = 0;
    if (handed_over)
      pipe->close(last);
    else
      state_.update(storage_, last);
    return digest<P>(state_.final());
  }

 private:
  // The current buffer is full (or cannot grant a reserve()): hashes the gathered bytes here,
  // or publishes the ring buffer to the helper. Afterwards the current buffer is empty.
  void pass_on() {
    done_ += fill_;
    if (buf_ != storage_) {
      buf_ = pipe_->publish(fill_);
      fill_ = 0;
      own();
      return;
    }
    start_pipeline_past(done_);
    state_.update(storage_, fill_);
    fill_ = 0;
    hand_over();
  }

  // A write that does not fit the current buffer: fills and passes on buffers until the rest
  // fits. Long pieces go to the state at once while nothing was handed to a helper.
  void write_large(const char* p, std::size_t n) {
    for (;;) {
      if (buf_ == storage_ && fill_ == 0 && n >= buffer_size) {
        start_pipeline_past(done_ + n);
        // With a helper starting, a chunk at a time, so that it takes over once it runs.
        const std::size_t k = pipe_ ? std::min(n, opt_.chunk_size) : n;
        state_.update(p, k);
        done_ += k;
        p += k;
        n -= k;
        hand_over();
      } else {
        const std::size_t k = std::min(n, cap_ - fill_);
        std::memcpy(buf_ + fill_, p, k);
        fill_ += k;
        p += k;
        n -= k;
        if (n != 0)
          pass_on();
      }
      if (n <= cap_ - fill_) {
        std::memcpy(buf_ + fill_, p, n);
        fill_ += n;
        return;
      }
    }
  }

  // Once the helper runs, the serializer writes into the ring (the gathering buffer is empty).
  void hand_over() {
    if (pipe_ && buf_ == storage_ && fill_ == 0 && pipe_->running()) {
      buf_ = pipe_->first();
      cap_ = opt_.chunk_size;
      own();
    }
  }

  // Takes a ring buffer into this core's cache before the serializer's small writes land in
  // it: the helper has just read those lines, and a store to a line another core holds waits
  // for it (about 200 ns here, 0.1 ms per 32 KiB buffer, a serializer five times slower).
  // One memset claims them all at once, with whole-line writes.
  void own() noexcept { std::memset(buf_, 0, cap_); }

  // Back to the gathering buffer, empty.
  void gather() noexcept {
    buf_ = storage_;
    cap_ = buffer_size;
    fill_ = 0;
  }

  // Starts the helper once a stream of `total` bytes is past the threshold.
  void start_pipeline_past(std::size_t total) {
    if (pipe_ || total <= opt_.pipeline_threshold)
      return;
    if (std::thread::hardware_concurrency() < 2) {
      opt_.pipeline_threshold = std::numeric_limits<std::size_t>::max();
      return;
    }
    try {
      pipe_ = std::make_unique<detail::hash_pipeline<typename P::state>>(state_, opt_.chunk_size, opt_.chunks);
    } catch (const std::system_error&) {  // no thread to be had: stay on this one
      opt_.pipeline_threshold = std::numeric_limits<std::size_t>::max();
    } catch (const std::bad_alloc&) {
      opt_.pipeline_threshold = std::numeric_limits<std::size_t>::max();
    }
  }

  sink_options opt_;
  typename P::state state_;
  std::unique_ptr<detail::hash_pipeline<typename P::state>> pipe_;
  std::size_t fill_ = 0;           // bytes in the current buffer
  std::size_t cap_ = buffer_size;  // its size
  std::size_t done_ = 0;           // bytes passed on (to the state or the helper)
  char storage_[buffer_size];      // the gathering buffer
  char* buf_ = storage_;           // the current buffer: storage_ or one of the ring's
};

// ---------------------------------------------------------------------------------------------
// Digests of bytes and of DOM values
// ---------------------------------------------------------------------------------------------

// The digest of raw bytes, as they are (no canonicalization).
template <hash_policy P>
digest<P> digest_bytes(const void* p, std::size_t n) {
  if constexpr (requires {
                  { P::hash(p, n) } -> std::same_as<std::array<std::uint8_t, P::size>>;
                }) {
    return digest<P>(P::hash(p, n));
  } else {
    typename P::state s;
    s.update(p, n);
    return digest<P>(s.final());
  }
}
template <hash_policy P>
digest<P> digest_bytes(std::string_view bytes) {
  return digest_bytes<P>(bytes.data(), bytes.size());
}

// The digest of the canonical (JCS) bytes of `v`, streamed into the hash (SPEC §3). Fails
// when `v` has no canonical form (NaN/infinity: not_finite; invalid UTF-8: invalid_utf8).
template <hash_policy P>
result<digest<P>> digest_of(const json::value& v, const sink_options& o = default_sink_options<P>) {
  hash_sink<P> sink(o);
  auto r = json::to_sink(sink, v);
  if (!r)
    return r.error();
  return sink.finish();
}

// ---------------------------------------------------------------------------------------------
// Algorithms chosen at run time
// ---------------------------------------------------------------------------------------------

// Calls f(std::type_identity<P>{}) for the policy named `name`; false when there is none.
template <class F>
bool visit_algorithm(std::string_view name, F&& f) {
  return std::apply(
      [&]<class... Ps>(Ps...) {
        return ((name == Ps::name ? (static_cast<void>(f(std::type_identity<Ps>{})), true) : false) || ...);
      },
      policies{});
}

inline bool is_algorithm(std::string_view name) noexcept {
  for (auto n : algorithm_names) {
    if (n == name)
      return true;
  }
  return false;
}

inline error unknown_algorithm(std::string_view name) {
  std::string valid;
  for (auto n : algorithm_names) {
    if (!valid.empty())
      valid += ", ";
    valid += n;
  }
  return make_error(errc::invalid_argument,
                    "unknown digest algorithm " + detail::shown(name) + " (valid: " + valid + ")");
}

// "<alg>:<hex>" of the canonical bytes of `v` under the algorithm named `alg_name`.
inline result<std::string> digest_string_of(std::string_view alg_name, const json::value& v) {
  result<std::string> out = std::string();
  const bool known = visit_algorithm(alg_name, [&]<class P>(std::type_identity<P>) {
    auto d = digest_of<P>(v);
    if (d) {
      out = d->to_string();
    } else {
      out = d.error();
    }
  });
  if (!known)
    return unknown_algorithm(alg_name);
  return out;
}

// "<alg>:<hex>" of raw bytes under the algorithm named `alg_name`.
inline result<std::string> digest_bytes_string(std::string_view alg_name, std::string_view bytes) {
  std::string out;
  const bool known =
      visit_algorithm(alg_name, [&]<class P>(std::type_identity<P>) { out = digest_bytes<P>(bytes).to_string(); });
  if (!known)
    return unknown_algorithm(alg_name);
  return out;
}

}  // namespace assay::hash

namespace std {
template <assay::hash::hash_policy P>
struct hash<assay::hash::digest<P>> {
  std::size_t operator()(const assay::hash::digest<P>& d) const noexcept {
    std::size_t h = 0;
    const auto& b = d.bytes();
    std::memcpy(&h, b.data(), b.size() < sizeof h ? b.size() : sizeof h);
    return h;
  }
};
template <assay::hash::cryptographic_hash P>
struct hash<assay::hash::evidence_digest<P>> : hash<assay::hash::digest<P>> {};
}  // namespace std
