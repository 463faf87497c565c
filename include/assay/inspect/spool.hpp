// assay/inspect/spool.hpp — bytes held until a pass has ended: in memory up to a cap, past it in
// an unnamed temporary file (std::tmpfile: gone when closed, or when the process dies). Lets a
// command print what a streaming pass gathered only once the pass has succeeded, with memory that
// stays flat however much it gathered.
#pragma once

#include "assay/error.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace assay::inspect {

template <class = void>
class basic_spool {
 public:
  explicit basic_spool(std::size_t memory_cap = 4u << 20) : cap_(memory_cap) {}
  basic_spool(const basic_spool&) = delete;
  basic_spool& operator=(const basic_spool&) = delete;
  ~basic_spool() {
    if (file_ != nullptr)
      std::fclose(file_);
  }

  void put(std::string_view s) {
    if (failure_)
      return;
    if (file_ == nullptr && mem_.size() + s.size() <= cap_) {
      mem_.append(s);
      return;
    }
    if (file_ == nullptr) {
      file_ = std::tmpfile();
      if (file_ == nullptr) {
        fail("cannot create a temporary file");
        return;
      }
      if (!write(mem_))
        return;
      mem_.clear();
      mem_.shrink_to_fit();
    }
    write(s);
  }

  // A record of N fields, each as its length (8 bytes, little-endian) and its bytes: any bytes,
  // NUL included, come back as they went in (read_record).
  template <std::size_t N>
  void put_record(const std::array<std::string_view, N>& fields) {
    for (const std::string_view f : fields) {
      char len[8];
      for (int i = 0; i < 8; ++i)
        len[i] = static_cast<char>((static_cast<std::uint64_t>(f.size()) >> (8 * i)) & 0xff);
      put(std::string_view(len, 8));
      put(f);
    }
  }

  // The first error of the spool (writing its file), if any.
  const std::optional<error>& failure() const noexcept { return failure_; }

  // Back to the start, for reading what was put.
  std::optional<error> rewind() {
    at_ = 0;
    if (file_ != nullptr && std::fseek(file_, 0, SEEK_SET) != 0)
      fail("cannot read the temporary file back");
    return failure_;
  }

  // Up to n bytes from where reading is; 0 at the end (or after an error: see failure()).
  std::size_t read(char* out, std::size_t n) {
    if (failure_)
      return 0;
    if (file_ == nullptr) {
      const std::size_t k = std::min(n, mem_.size() - at_);
      std::memcpy(out, mem_.data() + at_, k);
      at_ += k;
      return k;
    }
    const std::size_t k = std::fread(out, 1, n, file_);
    if (k < n && std::ferror(file_))
      fail("cannot read the temporary file back");
    return k;
  }

  // Everything put, in order, handed to `sink(std::string_view)` in pieces; a sink that returns
  // false stops it with an error (it could not write).
  template <class F>
  std::optional<error> replay(F&& sink) {
    if (auto e = rewind())
      return e;
    char buf[1 << 16];
    for (;;) {
      const std::size_t k = read(buf, sizeof buf);
      if (k == 0)
        return failure_;
      if (!sink(std::string_view(buf, k)))
        return make_error(errc::io_error, std::string("cannot write the output: ") + std::strerror(errno));
    }
  }

  // The next record of N fields into `fields`; false at the end.
  template <std::size_t N>
  bool read_record(std::array<std::string, N>& fields) {
    for (std::size_t f = 0; f < N; ++f) {
      unsigned char len[8];
      if (read(reinterpret_cast<char*>(len), 8) != 8)
        return false;
      std::uint64_t n = 0;
      for (int i = 7; i >= 0; --i)
        n = (n << 8) | len[i];
      fields[f].resize(static_cast<std::size_t>(n));
      if (n != 0 && read(fields[f].data(), fields[f].size()) != n)
        return false;
    }
    return true;
  }

 private:
  bool write(std::string_view s) {
    if (!s.empty() && std::fwrite(s.data(), 1, s.size(), file_) != s.size()) {
      fail("cannot write the temporary file");
      return false;
    }
    return true;
  }
  void fail(const char* what) {
    if (!failure_)
      failure_ = make_error(errc::io_error, std::string(what) + ": " + std::strerror(errno));
  }

  std::size_t cap_;
  std::string mem_;
  std::size_t at_ = 0;
  std::FILE* file_ = nullptr;
  std::optional<error> failure_;
};
using spool = basic_spool<>;

}  // namespace assay::inspect

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::inspect {
ASSAY_EXTERN_TEMPLATE class basic_spool<void>;
}  // namespace assay::inspect
#endif
