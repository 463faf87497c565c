// assay/json/big_array.hpp — an owning, uninitialized array of trivially copyable elements for
// buffers that grow to many megabytes (the document tape, whole files).
//
// Touching fresh memory costs a page fault per 4 KiB page, and under virtualization a fault costs
// more than the work done on the page: reading a 25 MB document spent more time in the kernel
// than in the parser. Large blocks are therefore allocated 2 MiB-aligned and, on Linux, marked
// for transparent huge pages (one fault per 2 MiB where the system allows it; elsewhere, or
// when it declines, the memory behaves as usual).
#pragma once

#include "assay/json/inline.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace assay::json {

namespace detail {
inline constexpr std::size_t huge_page_size = std::size_t(2) << 20;
}

// Asks for transparent huge pages on the whole 2 MiB pages inside [p, p + n): for a large buffer
// that was allocated elsewhere (a std::string's, say) before it is filled. Advice only.
inline void advise_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t n) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  using detail::huge_page_size;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + huge_page_size - 1) / huge_page_size * huge_page_size;
  const std::uintptr_t last = (begin + n) / huge_page_size * huge_page_size;
  if (last > first)
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

namespace detail {

template <class T>
class big_array {
  static_assert(std::is_trivially_copyable_v<T>, "big_array holds trivially copyable elements only");

 public:
  static constexpr std::size_t huge_page = huge_page_size;
  // From this size on an allocation is huge-page aligned (smaller ones are not worth a 2 MiB page).
  static constexpr std::size_t huge_threshold = std::size_t(4) << 20;

  big_array() = default;
  explicit big_array(std::size_t n) { reserve(n); }
  big_array(const big_array&) = delete;
  big_array& operator=(const big_array&) = delete;
  big_array(big_array&& o) noexcept : data_(std::exchange(o.data_, nullptr)), cap_(std::exchange(o.cap_, 0)) {}
  big_array& operator=(big_array&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = std::exchange(o.data_, nullptr);
      cap_ = std::exchange(o.cap_, 0);
    }
    return *this;
  }
  ~big_array() { std::free(data_); }

  // Room for at least n elements; the first `keep` elements are preserved.
  void reserve(std::size_t n, std::size_t keep = 0) {
    if (n <= cap_)
      return;
    if (n > static_cast<std::size_t>(-1) / sizeof(T))
      throw std::bad_alloc();
    T* bigger = allocate(n);
    if (keep != 0)
      std::memcpy(static_cast<void*>(bigger), data_, keep * sizeof(T));
    std::free(data_);
    data_ = bigger;
    cap_ = n;
  }

  std::size_t capacity() const noexcept { return cap_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  static T* allocate(std::size_t n) {
    std::size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= huge_threshold) {
      bytes = (bytes + huge_page - 1) / huge_page * huge_page;  // aligned_alloc: a multiple of the alignment
      p = std::aligned_alloc(huge_page, bytes);
      if (p != nullptr)
        advise_huge_pages(p, bytes);
    } else {
      p = std::malloc(bytes == 0 ? 1 : bytes);
    }
    if (p == nullptr)
      throw std::bad_alloc();
    return static_cast<T*>(p);
  }

  T* data_ = nullptr;
  std::size_t cap_ = 0;
};

// A growable array on big_array: a vector without value-initialization and with an inlined
// append (the document tape's hottest operation), on huge pages when large.
template <class T>
class big_vector {
 public:
  big_vector() = default;
  big_vector(const big_vector& o) { append(o.data(), o.size()); }
  big_vector(big_vector&& o) noexcept : buf_(std::move(o.buf_)), size_(std::exchange(o.size_, 0)) {}
  big_vector& operator=(const big_vector& o) {
    if (this != &o) {
      big_vector copy(o);
      *this = std::move(copy);
    }
    return *this;
  }
  big_vector& operator=(big_vector&& o) noexcept {
    buf_ = std::move(o.buf_);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }

  void reserve(std::size_t n) { buf_.reserve(n, size_); }
  // Appends `v` and returns its index.
  ASSAY_ALWAYS_INLINE std::size_t push_back(const T& v) {
    if (size_ == buf_.capacity()) [[unlikely]]
      grow(1);
    buf_[size_] = v;
    return size_++;
  }
  void append(const T* p, std::size_t n) {
    if (n > buf_.capacity() - size_)
      grow(n);
    if (n != 0)
      std::memcpy(static_cast<void*>(buf_.data() + size_), p, n * sizeof(T));
    size_ += n;
  }
  // Room for n more elements after the last (uninitialized: commit them with resize_within).
  ASSAY_ALWAYS_INLINE T* room(std::size_t n) {
    if (n > buf_.capacity() - size_) [[unlikely]]
      grow(n);
    return buf_.data() + size_;
  }
  void clear() noexcept { size_ = 0; }
  // To n elements, which must not exceed capacity() (those added are uninitialized).
  void resize_within(std::size_t n) noexcept { size_ = n; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return buf_.capacity(); }
  T* data() noexcept { return buf_.data(); }
  const T* data() const noexcept { return buf_.data(); }
  T& operator[](std::size_t i) noexcept { return buf_[i]; }
  const T& operator[](std::size_t i) const noexcept { return buf_[i]; }

 private:
  void grow(std::size_t extra) {
    const std::size_t want = size_ + extra;
    buf_.reserve(want < 2 * buf_.capacity() ? 2 * buf_.capacity() : (want < 64 ? 64 : want), size_);
  }
  big_array<T> buf_;
  std::size_t size_ = 0;
};

}  // namespace detail

// The parts of std::string a parser's side buffer uses (the document's unescaped strings, the
// verifier's content-hash projections).
class char_buffer : public detail::big_vector<char> {
 public:
  using detail::big_vector<char>::append;
  void append(std::string_view s) { append(s.data(), s.size()); }
  ASSAY_ALWAYS_INLINE char_buffer& operator+=(char c) {
    push_back(c);
    return *this;
  }
  // append(p, n) for the short runs between escapes: one fixed 16-byte copy instead of a call
  // to memcpy, when 16 bytes can be read at p (before src_end) and written here.
  ASSAY_ALWAYS_INLINE void append_run(const char* p, std::size_t n, const char* src_end) {
    if (n <= 16 && src_end - p >= 16 && capacity() - size() >= 16) {
      std::memcpy(data() + size(), p, 16);
      resize_within(size() + n);
    } else {
      append(p, n);
    }
  }
};

}  // namespace assay::json
