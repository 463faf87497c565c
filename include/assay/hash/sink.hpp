// assay/hash/sink.hpp — hash_sink<P>: a JSON sink (json/canonical.hpp) that streams canonical
// bytes into a hash state, moving the hashing to a helper thread past a threshold (hash.hpp
// says more).
#pragma once

#include "assay/hash/policy.hpp"
#include "assay/json/canonical.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <thread>
#include <utility>
#include <vector>

namespace assay::hash {

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
    ring(std::size_t chunk_bytes, unsigned count)
        : chunk(chunk_bytes), n(count), mem(new char[chunk_bytes * count]), info(new buffer_info[count]) {}

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
      json::copy_bytes(buf_ + fill_, p, n);
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

}  // namespace assay::hash
