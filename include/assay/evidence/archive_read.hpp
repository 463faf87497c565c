// assay/evidence/archive_read.hpp — reading the container of a bundle (docs/evidence.md steps 1-2):
// a gzip stream inflated on a helper thread, and the tar stream inside it read member by
// member. The writing side is archive.hpp.
//
//   byte_source src(bytes);                 // or an open FILE*
//   inflater in(src, limits);               // starts inflating at once
//   tar_reader tar(in);
//   while (auto m = tar.next()) { ... tar.read_block() ... }
//
// The inflater counts what it reads and what it produces against max_bundle_bytes and
// max_decode_bytes while streaming (a gzip bomb stops there, memory stays at a few blocks), and
// checks the gzip trailer (CRC and length) at the end. Its failure wins over what the tar
// reader makes of the cut stream that follows it.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/detail/gunzip.hpp"
#include "assay/hash/policy.hpp"
#include "assay/json/lex.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace assay::evidence {

// The source of compressed bytes: a file or a buffer.
class byte_source {
 public:
  explicit byte_source(std::FILE* f) : file_(f) {
    // A regular file's size is known before anything is read (docs/evidence.md checks it first).
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

// Calls `read(byte_source&)` with a source over the file at `path`, closed afterwards; an error
// naming the path when it cannot be opened. `read` returns a result<...>.
template <class F>
auto read_file_source(const std::string& path, F&& read) -> decltype(read(std::declval<byte_source&>())) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr)
    return make_error(errc::io_error, "cannot open " + path + ": " + std::strerror(errno));
  struct closer {
    std::FILE* f;
    ~closer() { std::fclose(f); }
  } c{f};
  byte_source src(f);
  return read(src);
}

// Inflates the source on a helper thread into a bounded ring of blocks.
template <class = void>
class basic_inflater {
 public:
  static constexpr std::size_t block_size = 256 << 10;
  static constexpr std::size_t blocks_in_flight = 4;

  basic_inflater(byte_source& src, const bundle_limits& lim, gzip_backend backend = default_gzip_backend)
      : src_(src), lim_(lim) {
#if defined(ASSAY_WITH_ISAL)
    if (backend == gzip_backend::isal) {
      worker_ = std::thread([this] { run<detail::isal_raw>(); });
      return;
    }
#endif
    (void)backend;
    worker_ = std::thread([this] { run<detail::zlib_raw>(); });
  }
  ~basic_inflater() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  basic_inflater(const basic_inflater&) = delete;
  basic_inflater& operator=(const basic_inflater&) = delete;

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

  // After drain() succeeded: "sha256:<hex>" of every byte read from the source (the bundle
  // file), hashed on the helper thread as the bytes reach the decoder.
  std::string source_sha256() {
    std::lock_guard<std::mutex> lock(mu_);
    return source_sha256_;
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

  template <class Raw>
  void run() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (std::size_t i = 0; i < blocks_in_flight; ++i)
        free_.push_back(std::make_unique<block>());
    }
    detail::gunzip<Raw> gz;
    if (!gz.ready()) {
      finish(make_error(code::IntegrityGzip, "cannot initialise the gzip decoder"));
      return;
    }
    std::vector<unsigned char> in(64 << 10);
    const unsigned char* next_in = in.data();
    std::size_t avail_in = 0;
    std::uint64_t source_bytes = 0;
    hash::sha256::state source_hash;
    std::uint64_t decoded = 0;
    bool ended = false;  // the gzip member is complete (CRC and length checked)
    auto out = take_free();
    if (!out)
      return finish(std::nullopt);
    for (;;) {
      if (avail_in == 0) {
        const std::size_t n = src_.read(in.data(), in.size());
        if (src_.failed())
          return finish(make_error(code::IntegrityGzip, "cannot read the bundle"));
        source_bytes += n;
        source_hash.update(in.data(), n);
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
        next_in = in.data();
        avail_in = n;
      }
      if (ended)
        return finish(make_error(code::IntegrityGzip, gzip_trailing_bytes));
      auto* room = reinterpret_cast<unsigned char*>(out->data.data() + out->size);
      const auto st = gz.step(next_in, avail_in, room, block_size - out->size);
      next_in += st.consumed;
      avail_in -= st.consumed;
      out->size += st.produced;
      decoded += st.produced;
      if (decoded > lim_.max_decode_bytes) {
        return finish(make_error(code::LimitDecodeBytes, "the bundle decompresses to more than the limit of " +
                                                             std::to_string(lim_.max_decode_bytes.value()) + " bytes"));
      }
      if (st.failure != nullptr)
        return finish(make_error(code::IntegrityGzip, st.failure));
      ended = st.end;
      if (out->size == block_size) {
        publish(std::move(out));
        out = take_free();
        if (!out)
          return finish(std::nullopt);
      }
    }
    if (out && out->size != 0)
      publish(std::move(out));
    {
      std::string text = hash::digest<hash::sha256>(source_hash.final()).to_string();
      std::lock_guard<std::mutex> lock(mu_);
      source_sha256_ = std::move(text);
    }
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
  std::string source_sha256_;
  bool done_ = false;
  bool stop_ = false;
  std::thread worker_;
};
using inflater = basic_inflater<>;

// A member of a tar stream, as its header declares it.
struct tar_member {
  std::string path;
  std::int64_t size = 0;  // declared
  bool regular = false;   // a regular file
  bool link = false;      // a symbolic or hard link
};

// The tar stream inside an inflater, member by member: ustar, GNU (long names) and pax
// (extended headers) as any writer makes them, read here rather than by a general archive
// library so that the bytes verified are the bytes every tar reader extracts (docs/evidence.md step 2).
// Refused, as IntegrityTar: a bad header checksum or number; a sparse member (GNU 'S' or pax
// GNU.sparse.*), whose data blocks are not the file's bytes in order; a member type no reader
// agrees on (anything but a regular file, a link, a directory, a device or a FIFO; those are
// reported as such and refused by the verifier); a NUL inside a name from a pax record or a GNU
// long name (a reader that cuts at the NUL and one that does not see different paths); a
// malformed pax record; an extended header with no member after it; a stream cut inside a
// member. The archive ends at its first zero block (what follows is not read, as GNU tar and
// the reference read it), or at the end of the stream on a header boundary.
//
// Every error is IntegrityTar unless the gzip stream below is bad anywhere: then its error, so
// the code is a function of the bytes alone, not of how far the inflater got (the rest of the
// stream is read to find out, within the same limits as a valid bundle).
template <class = void>
class basic_tar_reader {
 public:
  explicit basic_tar_reader(inflater& in) : in_(in) {}
  basic_tar_reader(const basic_tar_reader&) = delete;
  basic_tar_reader& operator=(const basic_tar_reader&) = delete;

  // The next member's header: true with `m` filled, false at the end of the archive. The data
  // of the previous member, if not read, is skipped.
  result<bool> next(tar_member& m) {
    if (ended_)
      return false;
    if (auto e = skip(remaining_ + padding_))
      return *e;
    remaining_ = padding_ = 0;
    extended ext;
    for (;;) {
      char h[block];
      const std::size_t got = read_exact(h, block);
      if (got != 0 && got < block)
        return tar_error("the archive ends inside a header");
      // The end: a zero block, or the end of the stream on a header boundary.
      if (got == 0 || std::all_of(h, h + block, [](char c) { return c == 0; })) {
        if (ext.any)
          return tar_error("the archive ends after an extended header, without its member");
        ended_ = true;
        return false;
      }
      if (auto e = check_header(h))
        return *e;
      const auto size = number(h + 124, 12);
      if (!size)
        return tar_error("a tar header has an invalid size field");
      const char type = h[156];
      if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
        std::string data;
        if (auto e = read_meta(*size, data))
          return *e;
        if (type == 'L' || type == 'K') {
          auto name = gnu_long_name(data);
          if (!name)
            return name.error();
          (type == 'L' ? ext.path : ext.linkpath) = std::move(*name);
        } else if (auto e = pax_records(data, type == 'g', ext)) {
          return *e;
        }
        ext.any = ext.any || type != 'g';  // a global header belongs to no one member
        continue;
      }
      m.path = ext.path ? std::move(*ext.path) : header_name(h);
      const std::uint64_t data_size = ext.size ? *ext.size : *size;
      m.regular = type == '0' || type == '\0' || type == '7';
      m.link = type == '1' || type == '2';
      if (type == 'S' || ext.sparse) {
        return tar_error("archive member " + json::quote_for_message(m.path) +
                         " is a sparse file (its data blocks are not its bytes in order)");
      }
      if (!m.regular && !m.link && (type < '3' || type > '6'))
        return tar_error("archive member " + json::quote_for_message(m.path) + " has an unknown type");
      if (data_size > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return tar_error("a tar header declares an impossible size");
      m.size = static_cast<std::int64_t>(data_size);
      remaining_ = data_size;
      padding_ = (block - data_size % block) % block;
      current_ = m.path;
      return true;
    }
  }

  // The next block of the current member's data, as stored; empty at its end.
  result<std::string_view> read_block() {
    if (remaining_ == 0)
      return std::string_view();
    if (avail_.empty() && !fill())
      return tar_error("the archive ends inside member " + json::quote_for_message(current_));
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(avail_.size(), remaining_));
    const std::string_view out = avail_.substr(0, n);
    avail_.remove_prefix(n);
    remaining_ -= n;
    return out;
  }

  // The whole data of the current member, appended to `out`.
  result<void> read_all(std::string& out) {
    for (;;) {
      auto b = read_block();
      if (!b)
        return b.error();
      if (b->empty())
        return {};
      out.append(*b);
    }
  }

 private:
  static constexpr std::size_t block = 512;
  static constexpr std::size_t max_meta = 1 << 20;  // an extended header or GNU long name

  // What extended headers say of the member that follows them.
  struct extended {
    std::optional<std::string> path, linkpath;
    std::optional<std::uint64_t> size;
    bool sparse = false;
    bool any = false;
  };

  bool fill() {
    if (eof_)
      return false;
    avail_ = in_.next();
    if (avail_.empty())
      eof_ = true;
    return !eof_;
  }

  // Copies up to n bytes; fewer only at the end of the stream.
  std::size_t read_exact(char* out, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
      if (avail_.empty() && !fill())
        break;
      const std::size_t k = std::min(avail_.size(), n - got);
      std::memcpy(out + got, avail_.data(), k);
      avail_.remove_prefix(k);
      got += k;
    }
    return got;
  }

  std::optional<error> skip(std::uint64_t n) {
    while (n != 0) {
      if (avail_.empty() && !fill())
        return tar_error("the archive ends inside member " + json::quote_for_message(current_));
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(avail_.size(), n));
      avail_.remove_prefix(k);
      n -= k;
    }
    return std::nullopt;
  }

  // The data of an extended header or a long name, and its padding.
  std::optional<error> read_meta(std::uint64_t size, std::string& data) {
    if (size > max_meta)
      return tar_error("an extended tar header is larger than " + std::to_string(max_meta) + " bytes");
    data.resize(static_cast<std::size_t>(size));
    if (read_exact(data.data(), data.size()) < data.size())
      return tar_error("the archive ends inside an extended header");
    return skip((block - size % block) % block);
  }

  // A header's checksum: the sum of its bytes with the checksum field read as spaces, unsigned
  // (POSIX) or signed (some historic writers). The magic: POSIX ustar or GNU.
  std::optional<error> check_header(const char* h) {
    const auto stored = number(h + 148, 8);
    std::uint64_t sum_unsigned = 0;
    std::int64_t sum_signed = 0;
    for (std::size_t i = 0; i < block; ++i) {
      const bool in_field = i >= 148 && i < 156;
      sum_unsigned += in_field ? ' ' : static_cast<unsigned char>(h[i]);
      sum_signed += in_field ? ' ' : static_cast<signed char>(h[i]);
    }
    if (!stored || (*stored != sum_unsigned && static_cast<std::int64_t>(*stored) != sum_signed))
      return tar_error("a tar header's checksum is wrong");
    if (std::memcmp(h + 257, "ustar\0", 6) != 0 && std::memcmp(h + 257, "ustar  \0", 8) != 0)
      return tar_error("a tar header is neither ustar nor GNU (its magic is wrong)");
    return std::nullopt;
  }

  // An octal field (leading spaces, digits, then spaces or NULs to its end; no digits at all is
  // 0), or GNU's base-256 (first byte 0x80, the rest big-endian). Nothing for anything else or a
  // negative number.
  static std::optional<std::uint64_t> number(const char* f, std::size_t n) {
    const auto* u = reinterpret_cast<const unsigned char*>(f);
    if (u[0] == 0x80) {
      std::uint64_t v = 0;
      for (std::size_t i = 1; i < n; ++i) {
        if (v >> 56)
          return std::nullopt;
        v = (v << 8) | u[i];
      }
      return v;
    }
    std::size_t i = 0;
    while (i < n && f[i] == ' ')
      ++i;
    std::uint64_t v = 0;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; ++i) {
      if (v >> 60)
        return std::nullopt;
      v = v * 8 + static_cast<std::uint64_t>(f[i] - '0');
    }
    for (; i < n; ++i)
      if (f[i] != ' ' && f[i] != '\0')
        return std::nullopt;
    return v;
  }

  // name[100], after prefix[155] and a '/' in a POSIX ustar header; each up to its first NUL.
  static std::string header_name(const char* h) {
    auto field = [](const char* f, std::size_t n) { return std::string(f, strnlen(f, n)); };
    std::string name = field(h, 100);
    if (std::memcmp(h + 257, "ustar\0", 6) == 0) {
      const std::string prefix = field(h + 345, 155);
      if (!prefix.empty())
        name = prefix + "/" + name;
    }
    return name;
  }

  // A GNU long name: the name, then NULs only.
  result<std::string> gnu_long_name(const std::string& data) {
    const std::size_t n = data.find('\0');
    if (n != std::string::npos && data.find_first_not_of('\0', n) != std::string::npos)
      return tar_error("a GNU long name holds a NUL");
    return data.substr(0, n);
  }

  // The records "<length> <key>=<value>\n" of a pax header, each length counting the whole
  // record. path, linkpath and size apply to the next member; GNU.sparse.* marks it sparse. A
  // global header ('g') may not set a name or size (it would apply to every member after it).
  std::optional<error> pax_records(std::string_view data, bool global, extended& ext) {
    while (!data.empty()) {
      std::size_t i = 0;
      std::uint64_t len = 0;
      while (i < data.size() && i < 20 && data[i] >= '0' && data[i] <= '9')
        len = len * 10 + static_cast<std::uint64_t>(data[i++] - '0');
      if (i == 0 || (data[0] == '0') || i >= data.size() || data[i] != ' ' || len > data.size() || len < i + 3 ||
          data[len - 1] != '\n')
        return tar_error("a pax extended header has a malformed record");
      const std::string_view record = data.substr(i + 1, len - i - 2);
      data.remove_prefix(len);
      const std::size_t eq = record.find('=');
      if (eq == std::string_view::npos || eq == 0)
        return tar_error("a pax extended header has a malformed record");
      const std::string_view key = record.substr(0, eq), value = record.substr(eq + 1);
      if (value.find('\0') != std::string_view::npos || key.find('\0') != std::string_view::npos)
        return tar_error("a pax extended header has a NUL inside a record");
      const bool names = key == "path" || key == "linkpath" || key == "size";
      if (global && names)
        return tar_error("a global pax header sets \"" + std::string(key) + "\" for every member");
      if (key.substr(0, 11) == "GNU.sparse.") {
        ext.sparse = true;
      } else if (key == "path" && !value.empty()) {
        ext.path = std::string(value);
      } else if (key == "linkpath" && !value.empty()) {
        ext.linkpath = std::string(value);
      } else if (key == "size" && !value.empty()) {
        std::uint64_t v = 0;
        for (const char c : value) {
          if (c < '0' || c > '9' || v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10)
            return tar_error("a pax extended header has an invalid size");
          v = v * 10 + static_cast<std::uint64_t>(c - '0');
        }
        ext.size = v;
      }
    }
    return std::nullopt;
  }

  error tar_error(std::string what) {
    if (auto e = in_.drain())
      return *e;
    return make_error(code::IntegrityTar, std::move(what));
  }

  inflater& in_;
  std::string_view avail_;  // the unread part of the inflater's current block
  bool eof_ = false;
  bool ended_ = false;
  std::uint64_t remaining_ = 0;  // data of the current member not yet read
  std::uint64_t padding_ = 0;    // and its padding to the next header
  std::string current_;
};
using tar_reader = basic_tar_reader<>;

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE class basic_inflater<void>;
ASSAY_EXTERN_TEMPLATE class basic_tar_reader<void>;
}  // namespace assay::evidence
#endif
