// assay/evidence/spill.hpp — records that wait out of memory until they are read back: an
// append-only store of records in chains, in an unnamed temporary file (or in memory).
//
//   auto s = assay::evidence::spill_store::open_in("out");   // spill_store{}: in memory
//   if (!s) ...                                              // why, naming the directory
//   assay::evidence::spill_store::chain c;                   // two offsets: nothing per record
//   s->append(c, "one"); s->append(c, "two");
//   std::string bytes;
//   for (std::uint64_t at = c.first; at != spill_store::end;) {
//     auto next = s->read(at, bytes); if (!next) ...; use(bytes); at = *next;
//   }
//
// The records of every chain go to the end of one file, each after a header of 16 bytes: the
// offset of the next record of its chain (`end` until one is appended, then written in place)
// and its length, both little-endian. A chain is only its first and last offsets, so memory
// holds nothing per record; reading a chain back follows the offsets forward, sequentially when
// its records are near each other. Appends are gathered into blocks of 64 KiB (a next-offset
// still in the block is written there), reads go through a buffer of the same size. The file is
// unnamed (O_TMPFILE, else a name removed at once), mode 0600, close-on-exec: it is gone when the
// store is, however the program ends. Without a directory the bytes are held in memory, through
// the same code. The first error (ENOSPC, EFBIG, ...) stays: every later call returns it, naming
// the directory ("cannot write the spill file in out: No space left on device").
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace assay::evidence {

class spill_store {
 public:
  static constexpr std::uint64_t end = ~std::uint64_t(0);  // no record
  struct chain {
    std::uint64_t first = end, last = end;
    std::uint64_t records = 0;
  };

  // In memory.
  spill_store() = default;
  // An unnamed file in `dir`.
  static result<spill_store> open_in(const std::string& dir) {
    spill_store s;
    s.dir_ = dir;
    s.fd_ = file_io::scratch_file_in(dir);
    if (s.fd_ < 0)
      return s.failed(errno, "write");
    return s;
  }

  spill_store(spill_store&& o) noexcept { take(std::move(o)); }
  spill_store& operator=(spill_store&& o) noexcept {
    if (this != &o) {
      close();
      take(std::move(o));
    }
    return *this;
  }
  spill_store(const spill_store&) = delete;
  spill_store& operator=(const spill_store&) = delete;
  ~spill_store() { close(); }

  bool in_memory() const noexcept { return fd_ < 0; }
  // The bytes stored, headers included.
  std::uint64_t size() const noexcept { return base_ + pending_.size(); }

  // `bytes` as the last record of `c`.
  result<void> append(chain& c, std::string_view bytes) {
    if (err_ != 0)
      return failed(err_, what_);
    const std::uint64_t at = size();
    if (c.last != end && !patch(c.last, at))
      return failed(err_, what_);
    char header[header_size];
    put(header, end);
    put(header + 8, bytes.size());
    pending_.append(header, header_size);
    pending_.append(bytes);
    if (c.first == end)
      c.first = at;
    c.last = at;
    ++c.records;
    if (fd_ >= 0 && pending_.size() >= block && !flush())
      return failed(err_, what_);
    return {};
  }

  // The record at `at` (a chain's first, or an offset read returned) into `out`; the offset of
  // the next record of its chain, or `end` after its last.
  result<std::uint64_t> read(std::uint64_t at, std::string& out) {
    if (err_ != 0)
      return failed(err_, what_);
    char header[header_size];
    if (!bytes_at(at, header, header_size))
      return failed(err_, what_);
    const std::uint64_t next = get(header), n = get(header + 8);
    if (n > size() - at - header_size)
      return failed(err_ = EIO, what_ = "read");  // not a record this store wrote
    out.resize(static_cast<std::size_t>(n));
    if (!bytes_at(at + header_size, out.data(), out.size()))
      return failed(err_, what_);
    return next;
  }

 private:
  static constexpr std::size_t header_size = 16, block = 64 * 1024;

  static void put(char* p, std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i)
      p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
  static std::uint64_t get(const char* p) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
  }

  // The whole of `n` bytes at file offset `at`, through short and interrupted calls.
  bool pwrite_all(const char* p, std::size_t n, std::uint64_t at) {
    while (n > 0) {
      const ::ssize_t w = ::pwrite(fd_, p, n, static_cast<off_t>(at));
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return fail(w < 0 ? errno : EIO, "write");
      p += w;
      n -= static_cast<std::size_t>(w);
      at += static_cast<std::uint64_t>(w);
    }
    return true;
  }
  bool pread_all(char* p, std::size_t n, std::uint64_t at) {
    while (n > 0) {
      const ::ssize_t r = ::pread(fd_, p, n, static_cast<off_t>(at));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return fail(r < 0 ? errno : EIO, "read");  // 0: the file ended before what was written
      p += r;
      n -= static_cast<std::size_t>(r);
      at += static_cast<std::uint64_t>(r);
    }
    return true;
  }

  // The gathered appends to the file.
  bool flush() {
    if (!pwrite_all(pending_.data(), pending_.size(), base_))
      return false;
    base_ += pending_.size();
    if (pending_.capacity() > 16 * block)
      pending_ = std::string();  // after a large record: back to the block size
    pending_.clear();
    return true;
  }

  // The next-record offset of the record at `at` set to `next`.
  bool patch(std::uint64_t at, std::uint64_t next) {
    if (at >= base_) {
      put(pending_.data() + (at - base_), next);
      return true;
    }
    char b[8];
    put(b, next);
    if (at < read_at_ + read_buf_.size() && at + 8 > read_at_)
      read_buf_.clear();  // what it held of that header is stale
    return pwrite_all(b, 8, at);
  }

  // `n` bytes of the store at `at`: from the gathered appends, the read buffer, or the file. A
  // record is never split between the file and the gathered appends (they are written whole).
  bool bytes_at(std::uint64_t at, char* p, std::size_t n) {
    if (at >= base_) {
      if (at - base_ + n > pending_.size())
        return fail(EIO, "read");
      std::memcpy(p, pending_.data() + (at - base_), n);
      return true;
    }
    if (at + n > base_)
      return fail(EIO, "read");
    if (at >= read_at_ && at + n <= read_at_ + read_buf_.size()) {
      std::memcpy(p, read_buf_.data() + (at - read_at_), n);
      return true;
    }
    if (n >= block)
      return pread_all(p, n, at);  // a large record: straight into place
    read_at_ = at;
    read_buf_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(block, base_ - at)));
    if (!pread_all(read_buf_.data(), read_buf_.size(), at)) {
      read_buf_.clear();
      return false;
    }
    std::memcpy(p, read_buf_.data(), n);
    return true;
  }

  bool fail(int e, const char* what) {
    err_ = e;
    what_ = what;
    return false;
  }
  error failed(int e, const char* what) const {
    return file_io::file_error(errc::io_error, std::string("cannot ") + what + " the spill file in", dir_, e);
  }

  void close() noexcept {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = -1;
  }
  void take(spill_store&& o) noexcept {
    dir_ = std::move(o.dir_);
    fd_ = std::exchange(o.fd_, -1);
    pending_ = std::move(o.pending_);
    read_buf_ = std::move(o.read_buf_);
    base_ = std::exchange(o.base_, 0);
    read_at_ = std::exchange(o.read_at_, 0);
    err_ = std::exchange(o.err_, 0);
    what_ = o.what_;
  }

  std::string dir_;
  int fd_ = -1;             // -1: in memory (everything in pending_, never flushed)
  std::string pending_;     // the appends after the first base_ bytes, not yet in the file
  std::string read_buf_;    // bytes of the file from read_at_
  std::uint64_t base_ = 0;  // the bytes in the file
  std::uint64_t read_at_ = 0;
  int err_ = 0;  // the first error (its errno), kept
  const char* what_ = "write";
};

}  // namespace assay::evidence
