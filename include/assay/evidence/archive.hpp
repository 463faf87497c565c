// assay/evidence/archive.hpp — the container of an evidence bundle: a deterministic tar stream
// inside a deterministic gzip stream (docs/evidence.md).
//
// Tar: GNU headers byte for byte like the reference writer (magic "ustar  \0"), mtime 0, uid/gid 0, mode 0644,
// uname/gname "assay", regular files only, two zero blocks at the end.
// Gzip: header 1f 8b 08 00 00000000 02 ff, deflate at level 9 (zlib). The input is cut into
// blocks (at fixed offsets, or where the caller says) that are compressed independently, each
// primed with the previous 32 KiB as its dictionary, and joined with sync flushes, as parallel
// gzip tools do: the bytes depend only on the input and the cuts, never on how many threads
// compressed them, and two cores halve the time. deflate_pool compresses blocks as a one-pass
// writer produces them.
#pragma once

#include "assay/error.hpp"
#include "assay/separate.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace assay::evidence {

// --- tar ------------------------------------------------------------------------------------

namespace detail {

// Writes `v` as `width - 1` octal digits followed by a NUL.
inline void put_octal(char* field, std::size_t width, std::uint64_t v) {
  field[width - 1] = '\0';
  for (std::size_t i = width - 1; i-- > 0;) {
    field[i] = static_cast<char>('0' + (v & 7));
    v >>= 3;
  }
}

}  // namespace detail

// One 512-byte GNU tar header for a regular file.
inline result<std::array<char, 512>> tar_header(std::string_view name, std::uint64_t size) {
  std::array<char, 512> h{};
  if (name.empty() || name.size() > 100) {
    return make_error(errc::invalid_argument, "tar member name must have 1 to 100 bytes");
  }
  if (size >= (std::uint64_t{1} << 33)) {
    return make_error(errc::invalid_argument, "tar member larger than 8 GiB");
  }
  std::memcpy(h.data(), name.data(), name.size());
  detail::put_octal(h.data() + 100, 8, 0644);   // mode
  detail::put_octal(h.data() + 108, 8, 0);      // uid
  detail::put_octal(h.data() + 116, 8, 0);      // gid
  detail::put_octal(h.data() + 124, 12, size);  // size
  detail::put_octal(h.data() + 136, 12, 0);     // mtime
  h[156] = '\0';                                // regular file (old-style flag, as the reference)
  std::memcpy(h.data() + 257, "ustar  ", 8);    // GNU magic "ustar " + version " \0"
  std::memcpy(h.data() + 265, "assay", 5);      // uname
  std::memcpy(h.data() + 297, "assay", 5);      // gname
  std::memset(h.data() + 148, ' ', 8);          // checksum computed over spaces
  unsigned sum = 0;
  for (char c : h)
    sum += static_cast<unsigned char>(c);
  detail::put_octal(h.data() + 148, 8, sum);  // seven digits and NUL, as the reference
  return h;
}

// A tar archive as a list of pieces: the headers and padding it owns, the files' bytes by
// reference (they are not copied, and must outlive it).
struct tar_stream {
  std::deque<std::string> owned;  // a deque: views into its strings stay valid as it grows
  std::vector<std::string_view> pieces;
  std::uint64_t size = 0;

  void add(std::string_view bytes) {
    pieces.push_back(bytes);
    size += bytes.size();
  }
  void add_owned(std::string bytes) {
    owned.push_back(std::move(bytes));
    add(owned.back());
  }
};

// The zero bytes that pad a member of `size` bytes to a whole 512-byte block, and the two zero
// blocks that end an archive.
inline std::size_t tar_padding(std::uint64_t size) {
  return static_cast<std::size_t>((512 - size % 512) % 512);
}
inline constexpr std::size_t tar_end = 1024;

// The tar archive of `files` (name, bytes): each file's header, bytes and padding, then the two
// zero blocks that end an archive.
inline result<tar_stream> tar_of(const std::vector<std::pair<std::string_view, std::string_view>>& files) {
  tar_stream t;
  std::string pending;  // header and padding bytes between two files' contents
  for (const auto& [name, bytes] : files) {
    auto h = tar_header(name, bytes.size());
    if (!h)
      return h.error();
    pending.append(h->data(), h->size());
    t.add_owned(std::move(pending));
    pending.clear();
    t.add(bytes);
    pending.append(tar_padding(bytes.size()), '\0');
  }
  pending.append(tar_end, '\0');
  t.add_owned(std::move(pending));
  return t;
}

// Appends a complete tar archive of `files` (name, bytes) to `out`.
inline result<void> write_tar(std::string& out,
                              const std::vector<std::pair<std::string_view, std::string_view>>& files) {
  auto t = tar_of(files);
  if (!t)
    return t.error();
  out.reserve(out.size() + t->size);
  for (std::string_view piece : t->pieces)
    out.append(piece);
  return {};
}

// --- gzip -------------------------------------------------------------------------------------

inline constexpr std::size_t gzip_block_size = 1 << 20;  // fixed: part of the output's definition
inline constexpr std::size_t gzip_dictionary = 32768;

namespace detail {

// The bytes [begin, end) of the concatenation of `pieces`: a view when they lie in one piece,
// else copied into `scratch`.
inline std::string_view gather(std::span<const std::string_view> pieces, std::size_t begin, std::size_t end,
                               std::string& scratch) {
  std::size_t at = 0;  // offset of the current piece in the concatenation
  scratch.clear();
  for (std::string_view p : pieces) {
    const std::size_t p_end = at + p.size();
    if (p_end > begin && at < end) {
      const std::size_t from = std::max(begin, at) - at;
      const std::size_t to = std::min(end, p_end) - at;
      if (scratch.empty() && from == begin - at && to - from == end - begin)
        return p.substr(from, to - from);  // wholly inside this piece
      scratch.append(p.data() + from, to - from);
    }
    at = p_end;
    if (at >= end)
      break;
  }
  return scratch;
}

// What one block of the gzip stream becomes: its raw deflate bytes and the CRC-32 of its input.
struct deflated_block {
  std::string bytes;
  std::uint32_t crc = 0;
  std::size_t input = 0;
};

// Raw deflate at level 9 of `window` after its first `dict` bytes, which prime the dictionary;
// ends with a sync flush, or with the final block when `last`. `out` is a reusable buffer.
inline result<deflated_block> deflate_block(std::string_view window, std::size_t dict, bool last,
                                            std::unique_ptr<char[]>& out, std::size_t& out_size) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    return make_error(errc::unsupported, "zlib deflateInit2 failed");
  }
  if (dict > 0)
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(window.data()), static_cast<uInt>(dict));
  const std::string_view block = window.substr(dict);
  const std::size_t bound = deflateBound(&z, static_cast<uLong>(block.size())) + 16;
  if (out_size < bound) {
    out.reset(new char[bound]);  // not value-initialized: deflate writes what is kept
    out_size = bound;
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(block.data()));
  z.avail_in = static_cast<uInt>(block.size());
  z.next_out = reinterpret_cast<Bytef*>(out.get());
  z.avail_out = static_cast<uInt>(bound);
  const int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool ok = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0);
  const std::size_t produced = bound - z.avail_out;
  deflateEnd(&z);
  if (!ok)
    return make_error(errc::unsupported, "zlib deflate failed");
  deflated_block d;
  d.bytes.assign(out.get(), produced);
  d.crc = static_cast<std::uint32_t>(
      crc32_z(crc32_z(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(block.data()), block.size()));
  d.input = block.size();
  return d;
}

inline void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

}  // namespace detail

inline constexpr std::string_view gzip_header{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", 10};

// The 8 bytes that end a gzip stream: the CRC-32 and the length (mod 2^32) of its input.
inline std::string gzip_trailer(std::uint32_t crc, std::uint64_t size) {
  std::string t;
  detail::put_le32(t, crc);
  detail::put_le32(t, static_cast<std::uint32_t>(size & 0xFFFFFFFFu));
  return t;
}

// The gzip stream of the concatenation of `pieces`, cut into blocks that end at `cuts` (rising
// offsets, the last one the total size): deterministic for given cuts, whatever `threads` (the
// threads that compress; 0: one a core).
inline result<std::string> gzip(std::span<const std::string_view> pieces, std::span<const std::size_t> cuts,
                                unsigned threads = 0) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t size = 0;
  for (std::string_view p : pieces)
    size += p.size();
  if (cuts.empty() || cuts.back() != size)
    return make_error(errc::invalid_argument, "gzip: the blocks must end at the end of the input");
  const std::size_t blocks = cuts.size();
  std::vector<result<detail::deflated_block>> parts(blocks, result<detail::deflated_block>(detail::deflated_block{}));
  auto work = [&](std::size_t first, std::size_t step) {
    std::string scratch;
    std::unique_ptr<char[]> out;
    std::size_t out_size = 0;
    for (std::size_t b = first; b < blocks; b += step) {
      const std::size_t begin = b == 0 ? 0 : cuts[b - 1];
      const std::size_t dict = std::min(begin, gzip_dictionary);
      const std::string_view window = detail::gather(pieces, begin - dict, cuts[b], scratch);
      parts[b] = detail::deflate_block(window, dict, b + 1 == blocks, out, out_size);
    }
  };
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(threads, blocks));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t)
    pool.emplace_back(work, t, n);
  work(0, n);
  for (auto& t : pool)
    t.join();

  std::size_t total = 18;
  for (const auto& p : parts) {
    if (!p)
      return p.error();
    total += p->bytes.size();
  }
  std::string out;
  out.reserve(total);
  out.append(gzip_header);
  uLong crc = crc32_z(0L, Z_NULL, 0);
  for (const auto& p : parts) {
    out += p->bytes;
    crc = crc32_combine(crc, p->crc, static_cast<z_off_t>(p->input));
  }
  out += gzip_trailer(static_cast<std::uint32_t>(crc), size);
  return out;
}

// The gzip stream of the concatenation of `pieces` in blocks of gzip_block_size.
inline result<std::string> gzip(std::span<const std::string_view> pieces, unsigned threads = 0) {
  std::size_t size = 0;
  for (std::string_view p : pieces)
    size += p.size();
  std::vector<std::size_t> cuts;
  for (std::size_t end = gzip_block_size; end < size; end += gzip_block_size)
    cuts.push_back(end);
  cuts.push_back(size);
  return gzip(pieces, cuts, threads);
}

// Blocks compressed in the background as they are produced, for a stream written in one pass
// with flat memory: submit() queues a block (primed with up to 32 KiB of what came before it,
// as gzip() primes it, so the same cuts give the same bytes); the compressed blocks reach `sink`
// in order, on the submitting thread, and at most a few blocks per thread are held at once.
// A sink that returns false stops the stream (finish() reports it).
template <class = void>
class basic_deflate_pool {
 public:
  using sink_type = std::function<bool(std::string_view)>;

  explicit basic_deflate_pool(sink_type sink, unsigned threads = 0) : sink_(std::move(sink)) {
    if (threads == 0)
      threads = std::max(1u, std::thread::hardware_concurrency());
    max_pending_ = 2 * std::size_t{threads} + 1;
    for (unsigned t = 0; t < threads; ++t)
      workers_.emplace_back([this] { work(); });
  }
  basic_deflate_pool(const basic_deflate_pool&) = delete;
  basic_deflate_pool& operator=(const basic_deflate_pool&) = delete;
  ~basic_deflate_pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    for (auto& t : workers_)
      t.join();
  }

  // Queues `window` minus its first `dict` bytes as the next block (`last`: the stream's end).
  void submit(std::string window, std::size_t dict, bool last) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return jobs_.size() < max_pending_ || jobs_.front().done; });
    drain(lock);
    if (failure_)
      return;
    jobs_.push_back(job{std::move(window), dict, last, false, detail::deflated_block{}, std::nullopt});
    ready_.notify_one();
  }

  // Waits for every block; the first error (of deflate, or of the sink), if any.
  std::optional<error> finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!jobs_.empty() && !failure_) {
      done_.wait(lock, [&] { return jobs_.front().done; });
      drain(lock);
    }
    return failure_;
  }

  // The CRC-32 and the length of the input of the blocks handed to the sink so far.
  std::uint32_t crc() const noexcept { return static_cast<std::uint32_t>(crc_); }
  std::uint64_t size() const noexcept { return size_; }

 private:
  struct job {
    std::string window;
    std::size_t dict;
    bool last, done;
    detail::deflated_block out;
    std::optional<error> failure;
  };

  void work() {
    std::unique_ptr<char[]> buf;
    std::size_t buf_size = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [&] { return stop_ || next_ < jobs_.size(); });
      if (stop_)
        return;
      job& j = jobs_[next_++];  // a deque: the reference stays valid while others are pushed
      lock.unlock();
      auto r = detail::deflate_block(j.window, j.dict, j.last, buf, buf_size);
      lock.lock();
      if (r)
        j.out = std::move(*r);
      else
        j.failure = r.error();
      j.window = std::string();
      j.done = true;
      done_.notify_all();
    }
  }

  // Hands the finished blocks at the front to the sink, in order (the lock is released meanwhile).
  void drain(std::unique_lock<std::mutex>& lock) {
    while (!jobs_.empty() && jobs_.front().done) {
      job j = std::move(jobs_.front());
      jobs_.pop_front();
      --next_;
      if (failure_)
        continue;
      if (j.failure) {
        failure_ = j.failure;
        continue;
      }
      lock.unlock();
      const bool ok = sink_(j.out.bytes);
      lock.lock();
      if (!ok)
        failure_ = make_error(errc::io_error, "cannot write the compressed stream");
      crc_ = crc32_combine(crc_, j.out.crc, static_cast<z_off_t>(j.out.input));
      size_ += j.out.input;
    }
  }

  sink_type sink_;
  std::size_t max_pending_ = 3;
  std::mutex mutex_;
  std::condition_variable ready_, done_;
  std::deque<job> jobs_;  // queued, in order; [0, next_) taken by a worker
  std::size_t next_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
  std::optional<error> failure_;
  uLong crc_ = crc32_z(0L, Z_NULL, 0);
  std::uint64_t size_ = 0;
};
using deflate_pool = basic_deflate_pool<>;

// The gzip stream of `data`.
inline result<std::string> gzip(std::string_view data, unsigned threads = 0) {
  return gzip(std::span<const std::string_view>(&data, 1), threads);
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE class basic_deflate_pool<void>;
}  // namespace assay::evidence
#endif
