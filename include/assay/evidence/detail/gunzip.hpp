// assay/evidence/detail/gunzip.hpp — the gzip decoder under the inflater (archive_read.hpp), streaming.
//
// The gzip wrapper (RFC 1952: the header with its optional fields and header CRC, the trailer's
// CRC-32 and length) is read here, the same way whatever inflates the deflate data between them:
// zlib, or Intel ISA-L's igzip, several times faster, when the program defines ASSAY_WITH_ISAL
// and links libisal (the `assay` dependency of assay's own meson build does both when libisal
// is installed). So a stream is accepted or refused, and with the same message, whichever
// backend a build has; the deflate data itself is refused with one message, "the deflate data
// is corrupt", since which rule of RFC 1951 broke is not something a person can act on.
//
//   detail::gunzip<detail::zlib_raw> g;       // or detail::isal_raw
//   auto s = g.step(in, in_n, out, out_n);    // s.consumed, s.produced, s.end, s.failure
#pragma once

#include <zlib.h>
#if defined(ASSAY_WITH_ISAL)
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

namespace assay::evidence {

// Which library inflates the deflate data of a bundle.
enum class gzip_backend { zlib, isal };

// ISA-L when this program was built with it.
inline constexpr gzip_backend default_gzip_backend =
#if defined(ASSAY_WITH_ISAL)
    gzip_backend::isal;
#else
    gzip_backend::zlib;
#endif

inline constexpr bool gzip_backend_available(gzip_backend b) noexcept {
#if defined(ASSAY_WITH_ISAL)
  (void)b;
  return true;
#else
  return b == gzip_backend::zlib;
#endif
}

// The message for bytes after the one gzip member (the caller finds most of them; the decoder
// those a backend read ahead).
inline constexpr const char* gzip_trailing_bytes = "unexpected bytes after the end of the gzip stream";

namespace detail {

// What one step of a decoder did.
struct gunzip_step {
  std::size_t consumed = 0;       // input bytes used
  std::size_t produced = 0;       // output bytes written
  bool end = false;               // the gzip member ended, its CRC-32 and length checked
  const char* failure = nullptr;  // the stream is invalid: the whole message (a static string)
};

// Raw deflate through zlib, with the CRC-32 of what it produced.
class zlib_raw {
 public:
  zlib_raw() { ok_ = inflateInit2(&z_, -MAX_WBITS) == Z_OK; }
  ~zlib_raw() {
    if (ok_)
      inflateEnd(&z_);
  }
  zlib_raw(const zlib_raw&) = delete;
  zlib_raw& operator=(const zlib_raw&) = delete;

  bool ready() const noexcept { return ok_; }
  std::uint32_t crc() const noexcept { return crc_; }
  // Bytes consumed past the final block: none, zlib stops there.
  std::string_view unread() const noexcept { return {}; }

  // Inflates; `end` when the final deflate block is complete (nothing after it consumed).
  gunzip_step step(const unsigned char* in, std::size_t in_n, unsigned char* out, std::size_t out_n) {
    z_.next_in = const_cast<Bytef*>(in);
    z_.avail_in = static_cast<uInt>(std::min<std::size_t>(in_n, 1u << 30));
    z_.next_out = out;
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(out_n, 1u << 30));
    const uInt in_before = z_.avail_in, out_before = z_.avail_out;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    gunzip_step s;
    s.consumed = in_before - z_.avail_in;
    s.produced = out_before - z_.avail_out;
    crc_ = static_cast<std::uint32_t>(crc32_z(crc_, out, s.produced));
    if (rc == Z_STREAM_END)
      s.end = true;
    else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z_.avail_in == 0))
      s.failure = "the gzip stream is invalid: the deflate data is corrupt";
    return s;
  }

 private:
  z_stream z_{};
  bool ok_ = false;
  std::uint32_t crc_ = 0;
};

#if defined(ASSAY_WITH_ISAL)
// Raw deflate through ISA-L's igzip, which also keeps the CRC-32 of what it produced.
class isal_raw {
 public:
  isal_raw() {
    isal_inflate_init(st_.get());
    st_->crc_flag = ISAL_GZIP_NO_HDR;  // raw deflate; the CRC-32 of the output in st_->crc
  }
  bool ready() const noexcept { return true; }
  std::uint32_t crc() const noexcept { return st_->crc; }
  // Bytes consumed past the final block: igzip reads ahead in 8-byte words, and keeps what
  // follows the block's padding bits in its bit buffer, least significant byte first.
  std::string_view unread() const noexcept { return {unread_, unread_n_}; }

  gunzip_step step(const unsigned char* in, std::size_t in_n, unsigned char* out, std::size_t out_n) {
    st_->next_in = const_cast<std::uint8_t*>(in);
    st_->avail_in = static_cast<std::uint32_t>(std::min<std::size_t>(in_n, 1u << 30));
    st_->next_out = out;
    st_->avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(out_n, 1u << 30));
    const std::uint32_t in_before = st_->avail_in, out_before = st_->avail_out;
    const int rc = isal_inflate(st_.get());
    gunzip_step s;
    s.consumed = in_before - st_->avail_in;
    s.produced = out_before - st_->avail_out;
    if (rc < 0) {
      s.failure = "the gzip stream is invalid: the deflate data is corrupt";
    } else if (st_->block_state == ISAL_BLOCK_FINISH) {
      s.end = true;
      const int bits = std::max(0, static_cast<int>(st_->read_in_length));
      const std::uint64_t rest = bits % 8 == 0 ? st_->read_in : st_->read_in >> (bits % 8);
      unread_n_ = static_cast<std::size_t>(bits / 8);
      for (std::size_t k = 0; k < unread_n_; ++k)
        unread_[k] = static_cast<char>((rest >> (8 * k)) & 0xFF);
    }
    return s;
  }

 private:
  std::unique_ptr<inflate_state> st_ = std::make_unique<inflate_state>();
  char unread_[8] = {};
  std::size_t unread_n_ = 0;
};
#endif

// A gzip member: header, deflate data through `Raw`, trailer. One member only: what follows
// its trailer is for the caller to refuse.
template <class Raw>
class gunzip {
 public:
  bool ready() const noexcept { return raw_.ready(); }

  gunzip_step step(const unsigned char* in, std::size_t in_n, unsigned char* out, std::size_t out_n) {
    gunzip_step s;
    if (stage_ == stage::done) {
      s.end = true;
      return s;
    }
    while (s.failure == nullptr && !s.end && s.consumed < in_n) {
      const unsigned char* p = in + s.consumed;
      const std::size_t n = in_n - s.consumed;
      if (stage_ == stage::deflate) {
        if (s.produced == out_n)
          break;  // the output is full
        auto r = raw_.step(p, n, out + s.produced, out_n - s.produced);
        s.consumed += r.consumed;
        s.produced += r.produced;
        s.failure = r.failure;
        length_ += r.produced;
        if (r.end) {
          stage_ = stage::trailer;
          need_ = 8;
          have_ = 0;
          // What the backend read past the final block comes first, then the input.
          const std::string_view ahead = raw_.unread();
          std::size_t used = 0;
          while (used < ahead.size() && s.failure == nullptr && !s.end)
            used += wrapper(reinterpret_cast<const unsigned char*>(ahead.data()) + used, ahead.size() - used, s);
          if (used < ahead.size() && s.failure == nullptr)
            s.failure = gzip_trailing_bytes;
        } else if (r.failure == nullptr && r.consumed == 0 && r.produced == 0) {
          s.failure =
              "the gzip stream is invalid: the deflate data is corrupt";  // no progress with input and room: never loop
        }
        continue;
      }
      s.consumed += wrapper(p, n, s);
    }
    return s;
  }

 private:
  enum class stage { fixed, extra_length, extra, name, comment, header_crc, deflate, trailer, done };

  static constexpr std::uint8_t fhcrc = 2, fextra = 4, fname = 8, fcomment = 16;

  // Reads header or trailer bytes from p[0, n); returns how many it used.
  std::size_t wrapper(const unsigned char* p, std::size_t n, gunzip_step& s) {
    if (stage_ == stage::name || stage_ == stage::comment) {
      const auto* nul = static_cast<const unsigned char*>(std::memchr(p, 0, n));
      const std::size_t used = nul == nullptr ? n : static_cast<std::size_t>(nul - p) + 1;
      header_crc(p, used);
      if (nul != nullptr)
        next_header_field();
      return used;
    }
    const std::size_t used = std::min<std::size_t>(n, need_ - have_);
    if (stage_ == stage::extra) {
      header_crc(p, used);
      have_ += used;
      if (have_ == need_)
        next_header_field();
      return used;
    }
    std::memcpy(buf_ + have_, p, used);
    have_ += used;
    if (stage_ == stage::fixed) {
      // Each fixed byte is judged as soon as it is there, so a short stream that is not gzip
      // is called that rather than truncated.
      if (have_ >= 2 && (buf_[0] != 0x1f || buf_[1] != 0x8b))
        s.failure = "the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b";
      else if (have_ >= 3 && buf_[2] != 8)
        s.failure = "the gzip stream is invalid: its header names a compression method other than deflate";
      else if (have_ >= 4 && (buf_[3] & 0xE0) != 0)
        s.failure = "the gzip stream is invalid: its header sets reserved flag bits";
      else if (have_ == 1 && buf_[0] != 0x1f)
        s.failure = "the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b";
    }
    if (have_ < need_ || s.failure != nullptr)
      return used;
    switch (stage_) {
      case stage::fixed:
        header_crc(buf_, 10);
        pending_ = buf_[3] & (fextra | fname | fcomment | fhcrc);
        next_header_field();
        break;
      case stage::extra_length:
        header_crc(buf_, 2);
        stage_ = stage::extra;
        need_ = static_cast<std::size_t>(buf_[0]) | static_cast<std::size_t>(buf_[1]) << 8;
        have_ = 0;
        if (need_ == 0)
          next_header_field();
        break;
      case stage::header_crc:
        if ((static_cast<std::uint32_t>(buf_[0]) | static_cast<std::uint32_t>(buf_[1]) << 8) != (hcrc_ & 0xFFFFu)) {
          s.failure = "the gzip stream is invalid: its header CRC does not match the header";
        } else {
          pending_ = 0;
          next_header_field();
        }
        break;
      case stage::trailer:
        if (le32(buf_) != raw_.crc()) {
          s.failure = "the gzip stream is invalid: its CRC-32 does not match the data";
        } else if (le32(buf_ + 4) != static_cast<std::uint32_t>(length_ & 0xFFFFFFFFu)) {
          s.failure = "the gzip stream is invalid: its length field does not match the data";
        } else {
          stage_ = stage::done;
          s.end = true;
        }
        break;
      default:
        break;
    }
    return used;
  }

  // Moves to the next optional header field the flags announce, or to the deflate data.
  void next_header_field() {
    have_ = 0;
    auto take = [&](std::uint8_t f) {
      const bool here = (pending_ & f) != 0;
      pending_ &= static_cast<std::uint8_t>(~f);
      return here;
    };
    if (take(fextra)) {
      stage_ = stage::extra_length;
      need_ = 2;
    } else if (take(fname)) {
      stage_ = stage::name;
    } else if (take(fcomment)) {
      stage_ = stage::comment;
    } else if ((pending_ & fhcrc) != 0) {
      stage_ = stage::header_crc;
      need_ = 2;
    } else {
      stage_ = stage::deflate;
    }
  }

  void header_crc(const unsigned char* p, std::size_t n) { hcrc_ = static_cast<std::uint32_t>(crc32_z(hcrc_, p, n)); }

  static std::uint32_t le32(const unsigned char* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  }

  Raw raw_;
  stage stage_ = stage::fixed;
  unsigned char buf_[10] = {};
  std::size_t need_ = 10, have_ = 0;
  std::uint8_t pending_ = 0;  // the optional header fields the flags announce, not yet read
  std::uint32_t hcrc_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace detail
}  // namespace assay::evidence
