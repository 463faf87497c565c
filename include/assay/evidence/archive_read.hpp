// assay/evidence/archive_read.hpp — reading the container of a bundle (SPEC §6, §7 steps 1-2):
// a gzip stream inflated on a helper thread, and the tar stream inside it read with
// libarchive. The writing side is archive.hpp.
//
//   byte_source src(bytes);                 // or an open FILE*
//   inflater in(src, limits);               // starts inflating at once
//   tar_reader tar(in);
//   while (auto m = tar.next()) { ... tar.read_block() ... }
//
// The inflater counts what it reads and what it produces against max_bundle_bytes and
// max_decode_bytes while streaming (a gzip bomb stops there, memory stays at a few blocks), and
// checks the gzip trailer (CRC and length) at the end. Its failure wins over what libarchive
// makes of the cut stream that follows it.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace assay::evidence {

// The source of compressed bytes: a file or a buffer.
class byte_source {
 public:
  explicit byte_source(std::FILE* f) : file_(f) {
    // A regular file's size is known before anything is read (SPEC §7 checks it first).
    if (std::fseek(f, 0, SEEK_END) == 0) {
      const long n = std::ftell(f);
      if (n >= 0)
        size_ = static_cast<std::uint64_t>(n);
      std::fseek(f, 0, SEEK_SET);
    }
  }
  explicit byte_source(std::string_view bytes) : mem_(bytes), size_(bytes.size()) {}

  // The total size when known in advance.
  std::optional<std::uint64_t> size() const noexcept { return size_; }

  // Up to n bytes; 0 at the end. Sets failed() on a read error.
  std::size_t read(unsigned char* out, std::size_t n) {
    if (file_ != nullptr) {
      const std::size_t got = std::fread(out, 1, n, file_);
      if (got < n && std::ferror(file_))
        failed_ = true;
      return got;
    }
    const std::size_t got = std::min(n, mem_.size() - pos_);
    std::memcpy(out, mem_.data() + pos_, got);
    pos_ += got;
    return got;
  }
  bool failed() const noexcept { return failed_; }

 private:
  std::FILE* file_ = nullptr;
  std::string_view mem_;
  std::size_t pos_ = 0;
  std::optional<std::uint64_t> size_;
  bool failed_ = false;
};

// Inflates the source on a helper thread into a bounded ring of blocks.
class inflater {
 public:
  static constexpr std::size_t block_size = 256 << 10;
  static constexpr std::size_t blocks_in_flight = 4;

  inflater(byte_source& src, const bundle_limits& lim) : src_(src), lim_(lim) {
    worker_ = std::thread([this] { run(); });
  }
  ~inflater() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  inflater(const inflater&) = delete;
  inflater& operator=(const inflater&) = delete;

  // The next decompressed block (empty at the end or on error). The previous block returned is
  // released by this call.
  std::string_view next() {
    std::unique_lock<std::mutex> lock(mu_);
    if (current_) {
      free_.push_back(std::move(current_));
      cv_.notify_all();
    }
    cv_.wait(lock, [&] { return !ready_.empty() || done_; });
    if (ready_.empty())
      return {};
    current_ = std::move(ready_.front());
    ready_.pop_front();
    return std::string_view(current_->data.data(), current_->size);
  }

  // Reads the stream to its end, so that its CRC and length are checked (and a stream that is
  // all padding, a gzip bomb, meets max_decode_bytes). Returns failure().
  std::optional<error> drain() {
    while (!next().empty()) {
    }
    return failure();
  }

  // After next() returned empty: the error that ended the stream, if any.
  std::optional<error> failure() {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }

 private:
  struct block {
    std::vector<char> data = std::vector<char>(block_size);
    std::size_t size = 0;
  };

  void finish(std::optional<error> e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (e && !error_)
      error_ = std::move(e);
    done_ = true;
    cv_.notify_all();
  }

  std::unique_ptr<block> take_free() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !free_.empty() || stop_; });
    if (stop_)
      return nullptr;
    auto b = std::move(free_.back());
    free_.pop_back();
    b->size = 0;  // a recycled block
    return b;
  }

  void publish(std::unique_ptr<block> b) {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(std::move(b));
    cv_.notify_all();
  }

  void run() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (std::size_t i = 0; i < blocks_in_flight; ++i)
        free_.push_back(std::make_unique<block>());
    }
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
      finish(make_error(code::IntegrityGzip, "cannot initialise the gzip decoder"));
      return;
    }
    struct guard {
      z_stream* z;
      ~guard() { inflateEnd(z); }
    } g{&z};
    std::vector<unsigned char> in(64 << 10);
    std::uint64_t source_bytes = 0;
    std::uint64_t decoded = 0;
    bool ended = false;  // the gzip member is complete (CRC and length checked by zlib)
    auto out = take_free();
    if (!out)
      return finish(std::nullopt);
    for (;;) {
      if (z.avail_in == 0) {
        const std::size_t n = src_.read(in.data(), in.size());
        if (src_.failed())
          return finish(make_error(code::IntegrityGzip, "cannot read the bundle"));
        source_bytes += n;
        if (source_bytes > lim_.max_bundle_bytes) {
          return finish(make_error(
              code::LimitBundleBytes,
              "the bundle is larger than the limit of " + std::to_string(lim_.max_bundle_bytes.value()) + " bytes"));
        }
        if (n == 0) {
          if (!ended)
            return finish(make_error(code::IntegrityGzip, "the gzip stream is truncated"));
          break;
        }
        z.next_in = in.data();
        z.avail_in = static_cast<uInt>(n);
      }
      if (ended)
        return finish(make_error(code::IntegrityGzip, "unexpected bytes after the end of the gzip stream"));
      z.next_out = reinterpret_cast<Bytef*>(out->data.data() + out->size);
      z.avail_out = static_cast<uInt>(block_size - out->size);
      const uInt before = z.avail_out;
      const int rc = inflate(&z, Z_NO_FLUSH);
      const std::size_t produced = before - z.avail_out;
      out->size += produced;
      decoded += produced;
      if (decoded > lim_.max_decode_bytes) {
        return finish(make_error(code::LimitDecodeBytes, "the bundle decompresses to more than the limit of " +
                                                             std::to_string(lim_.max_decode_bytes.value()) + " bytes"));
      }
      if (rc == Z_STREAM_END) {
        ended = true;
      } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
        const char* why = z.msg != nullptr ? z.msg : "corrupt data";
        return finish(make_error(code::IntegrityGzip, std::string("the gzip stream is invalid: ") + why));
      }
      if (out->size == block_size) {
        publish(std::move(out));
        out = take_free();
        if (!out)
          return finish(std::nullopt);
      }
    }
    if (out && out->size != 0)
      publish(std::move(out));
    finish(std::nullopt);
  }

  byte_source& src_;
  bundle_limits lim_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<block>> ready_;
  std::vector<std::unique_ptr<block>> free_;
  std::unique_ptr<block> current_;
  std::optional<error> error_;
  bool done_ = false;
  bool stop_ = false;
  std::thread worker_;
};

// A member of a tar stream, as its header declares it.
struct tar_member {
  std::string path;
  std::int64_t size = 0;  // declared; negative when the header says nothing sensible
  bool regular = false;   // a regular file
  bool link = false;      // a symbolic or hard link
};

// The tar stream inside an inflater, member by member (libarchive: ustar, GNU and pax headers).
// Every error is IntegrityTar, unless the stream below failed first (then that error).
class tar_reader {
 public:
  explicit tar_reader(inflater& in) : in_(in), a_(archive_read_new()) {
    archive_read_support_format_tar(a_.get());
    archive_read_support_filter_none(a_.get());
    if (archive_read_open(a_.get(), this, nullptr, &tar_reader::read, nullptr) != ARCHIVE_OK)
      open_error_ = stream_error("cannot read the tar stream");
  }
  tar_reader(const tar_reader&) = delete;
  tar_reader& operator=(const tar_reader&) = delete;

  // The next member's header: true with `m` filled, false at the end of the archive.
  result<bool> next(tar_member& m) {
    if (open_error_)
      return *open_error_;
    struct archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(a_.get(), &entry);
    if (rc == ARCHIVE_EOF)
      return false;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
      return stream_error(std::string("invalid tar stream: ") + archive_error_string(a_.get()));
    const char* path = archive_entry_pathname(entry);
    m.path = path != nullptr ? path : "";
    m.size = archive_entry_size(entry);
    const auto type = archive_entry_filetype(entry);
    m.regular = type == AE_IFREG;
    m.link = type == AE_IFLNK || archive_entry_hardlink(entry) != nullptr;
    current_ = m.path;
    return true;
  }

  // The next block of the current member's data, as stored; empty at its end.
  result<std::string_view> read_block() {
    const void* buf = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    const int r = archive_read_data_block(a_.get(), &buf, &size, &offset);
    if (r == ARCHIVE_EOF)
      return std::string_view();
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return stream_error("cannot read " + current_ + ": " + archive_error_string(a_.get()));
    return std::string_view(static_cast<const char*>(buf), size);
  }

  // The whole data of the current member, appended to `out` (holes of a sparse member filled
  // with zeros).
  result<void> read_all(std::string& out) {
    char buf[65536];
    for (;;) {
      const la_ssize_t n = archive_read_data(a_.get(), buf, sizeof buf);
      if (n < 0)
        return stream_error("cannot read " + current_ + ": " + archive_error_string(a_.get()));
      if (n == 0)
        return {};
      out.append(buf, static_cast<std::size_t>(n));
    }
  }

 private:
  struct archive_deleter {
    void operator()(struct archive* a) const noexcept { archive_read_free(a); }
  };

  static la_ssize_t read(struct archive*, void* self, const void** buf) {
    auto* t = static_cast<tar_reader*>(self);
    t->block_ = t->in_.next();
    *buf = t->block_.data();
    return static_cast<la_ssize_t>(t->block_.size());
  }

  error stream_error(std::string what) {
    if (auto e = in_.failure())
      return *e;
    return make_error(code::IntegrityTar, std::move(what));
  }

  inflater& in_;
  std::unique_ptr<struct archive, archive_deleter> a_;
  std::string_view block_;
  std::string current_;
  std::optional<error> open_error_;
};

}  // namespace assay::evidence
