// assay/evidence/archive.hpp — the container of an evidence bundle: a deterministic tar stream
// inside a deterministic gzip stream (SPEC §6).
//
// Tar: GNU headers byte for byte like the reference writer (magic "ustar  \0"), mtime 0, uid/gid 0, mode 0644,
// uname/gname "assay", regular files only, two zero blocks at the end.
// Gzip: header 1f 8b 08 00 00000000 02 ff, deflate at level 9 (zlib). The input is cut into
// fixed blocks that are compressed independently (each primed with the previous 32 KiB as its
// dictionary) and joined with sync flushes, as parallel gzip tools do: the bytes depend only on
// the input, never on how many threads compressed them, and two cores halve the time.
#pragma once

#include "assay/error.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
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

// Appends a complete tar archive of `files` (name, bytes) to `out`.
inline result<void> write_tar(std::string& out,
                              const std::vector<std::pair<std::string_view, std::string_view>>& files) {
  for (const auto& [name, bytes] : files) {
    auto h = tar_header(name, bytes.size());
    if (!h)
      return h.error();
    out.append(h->data(), h->size());
    out.append(bytes);
    out.append((512 - bytes.size() % 512) % 512, '\0');
  }
  out.append(1024, '\0');
  return {};
}

// --- gzip -------------------------------------------------------------------------------------

inline constexpr std::size_t gzip_block_size = 1 << 20;  // fixed: part of the output's definition
inline constexpr std::size_t gzip_dictionary = 32768;

namespace detail {

// Raw deflate of data[begin, end) at level 9, primed with up to 32 KiB before `begin`; ends with
// a sync flush, or with the final block when `last`.
inline result<std::string> deflate_block(std::string_view data, std::size_t begin, std::size_t end, bool last) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    return make_error(errc::unsupported, "zlib deflateInit2 failed");
  }
  if (begin > 0) {
    const std::size_t dict = std::min(begin, gzip_dictionary);
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(data.data() + begin - dict), static_cast<uInt>(dict));
  }
  std::string out;
  out.resize(deflateBound(&z, static_cast<uLong>(end - begin)) + 16);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + begin));
  z.avail_in = static_cast<uInt>(end - begin);
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool ok = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  if (!ok)
    return make_error(errc::unsupported, "zlib deflate failed");
  return out;
}

inline void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

}  // namespace detail

// The gzip stream of `data` (deterministic; uses up to `threads` threads).
inline result<std::string> gzip(std::string_view data, unsigned threads = 0) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t blocks = data.empty() ? 1 : (data.size() + gzip_block_size - 1) / gzip_block_size;
  std::vector<result<std::string>> parts(blocks, result<std::string>(std::string()));
  auto work = [&](std::size_t first, std::size_t step) {
    for (std::size_t b = first; b < blocks; b += step) {
      const std::size_t begin = b * gzip_block_size;
      const std::size_t end = std::min(data.size(), begin + gzip_block_size);
      parts[b] = detail::deflate_block(data, begin, end, b + 1 == blocks);
    }
  };
  const unsigned n = static_cast<unsigned>(std::min<std::size_t>(threads, blocks));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t)
    pool.emplace_back(work, t, n);
  work(0, n);
  for (auto& t : pool)
    t.join();

  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", 10);
  for (auto& p : parts) {
    if (!p)
      return p.error();
    out += *p;
  }
  const auto crc = static_cast<std::uint32_t>(
      crc32_z(crc32_z(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()), data.size()));
  detail::put_le32(out, crc);
  detail::put_le32(out, static_cast<std::uint32_t>(data.size() & 0xFFFFFFFFu));
  return out;
}

}  // namespace assay::evidence
