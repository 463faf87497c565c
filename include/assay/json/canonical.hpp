// assay/json/canonical.hpp — the RFC 8785 (JCS) writer, to any sink (docs/json.md).
//
// A sink is any object with `void write(const char* data, std::size_t size)`: a std::string,
// an std::ostream, a hash state. `writer<Sink>` buffers small writes so a sink sees large
// blocks. Strings are escaped minimally and checked to be valid UTF-8 on the way out; numbers
// use the ECMAScript form of number.hpp; object members are sorted by UTF-16 code units.
#pragma once

#include "assay/error.hpp"
#include "assay/json/big_array.hpp"
#include "assay/json/number.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstring>
#include <iosfwd>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace assay::json {

template <class S>
concept sink = requires(S& s, const char* p, std::size_t n) {
  s.write(p, n);
};

// Appends to a std::string.
struct string_sink {
  std::string* out;
  void write(const char* p, std::size_t n) { out->append(p, n); }
};

// Writes to an std::ostream. (A template only so that this header needs <iosfwd>, not
// <ostream>: the stream is complete where the sink is used.)
template <class Stream = std::ostream>
struct basic_ostream_sink {
  Stream* out;
  void write(const char* p, std::size_t n) { out->write(p, static_cast<std::streamsize>(n)); }
};
using ostream_sink = basic_ostream_sink<>;

// Counts bytes only.
struct counting_sink {
  std::size_t bytes = 0;
  void write(const char*, std::size_t n) noexcept { bytes += n; }
};

// memcpy for the many tiny writes a serializer makes: up to 32 bytes inline (two overlapping
// fixed-size copies), the library call beyond.
ASSAY_ALWAYS_INLINE inline void copy_bytes(char* d, const char* s, std::size_t n) noexcept {
  if (n <= 32) {
    if (n >= 16) {
      std::memcpy(d, s, 16);
      std::memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
      std::memcpy(d, s, 8);
      std::memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
      std::memcpy(d, s, 4);
      std::memcpy(d + n - 4, s + n - 4, 4);
    } else if (n != 0) {
      d[0] = s[0];
      d[n / 2] = s[n / 2];
      d[n - 1] = s[n - 1];
    }
    return;
  }
  std::memcpy(d, s, n);
}

// A buffered writer over a sink. Call flush() (or let the destructor do it) at the end.
template <sink Sink>
class writer {
 public:
  static constexpr std::size_t buffer_size = 16384;

  explicit writer(Sink& s) : sink_(s) {}
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  ~writer() { flush(); }

  void put(char c) {
    if (n_ == buffer_size)
      flush();
    buf_[n_++] = c;
  }
  ASSAY_ALWAYS_INLINE void write(const char* p, std::size_t len) {
    if (len > buffer_size - n_) {
      flush();
      if (len >= buffer_size) {
        sink_.write(p, len);
        return;
      }
    }
    copy_bytes(buf_ + n_, p, len);
    n_ += len;
  }
  void write(std::string_view s) { write(s.data(), s.size()); }

  // Room for `len` bytes (len <= buffer_size); commit with advance().
  char* reserve(std::size_t len) {
    if (len > buffer_size - n_)
      flush();
    return buf_ + n_;
  }
  void advance(std::size_t len) noexcept { n_ += len; }

  void flush() {
    if (n_ != 0) {
      sink_.write(buf_, n_);
      n_ = 0;
    }
  }

  Sink& sink() noexcept { return sink_; }

 private:
  Sink& sink_;
  std::size_t n_ = 0;
  char buf_[buffer_size];
};

// The most a writer of type W can reserve() at once.
template <class W>
inline constexpr std::size_t max_reserve = W::buffer_size;

// A sink that buffers for itself and offers the writer interface (put, write, reserve up to
// buffer_size, advance, flush): serializers write into it directly, with no writer<> buffer
// (and no copy) in between. hash::hash_sink is one; writer<S> is one too.
template <class S>
concept buffered_sink = sink<S> && requires(S& s, char c, std::size_t n) {
  { S::buffer_size } -> std::convertible_to<std::size_t>;
  s.put(c);
  { s.reserve(n) } -> std::same_as<char*>;
  s.advance(n);
  s.flush();
};

// Calls f(w) with the writer to use over `s` (the sink itself when it buffers, else a
// writer<Sink> flushed afterwards) and returns what f returns.
template <sink Sink, class F>
auto with_writer(Sink& s, F&& f) {
  if constexpr (buffered_sink<Sink>) {
    return f(s);
  } else {
    writer<Sink> w(s);
    auto r = f(w);
    w.flush();
    return r;
  }
}

// The writer interface (put/write/reserve/advance) straight onto a std::string: no buffer of its
// own, so it costs no stack and copies each byte once.
struct string_writer {
  std::string* out;
  std::size_t reserved_at = 0;

  void put(char c) { out->push_back(c); }
  void write(const char* p, std::size_t len) { out->append(p, len); }
  void write(std::string_view s) { out->append(s); }
  char* reserve(std::size_t len) {
    reserved_at = out->size();
    out->resize(reserved_at + len);
    return out->data() + reserved_at;
  }
  void advance(std::size_t len) { out->resize(reserved_at + len); }
};

template <>
inline constexpr std::size_t max_reserve<string_writer> = static_cast<std::size_t>(-1) / 2;

// The same onto a growing byte buffer whose reserve() neither fills nor shrinks back: each byte a
// serializer writes is copied once, where it stays.
struct buffer_writer {
  char_buffer* out;

  void put(char c) { out->push_back(c); }
  ASSAY_ALWAYS_INLINE void write(const char* p, std::size_t len) {
    copy_bytes(out->room(len), p, len);  // the many short writes inline, not a call to memcpy
    advance(len);
  }
  void write(std::string_view s) { write(s.data(), s.size()); }
  char* reserve(std::size_t len) { return out->room(len); }
  void advance(std::size_t len) noexcept { out->resize_within(out->size() + len); }
};

template <>
inline constexpr std::size_t max_reserve<buffer_writer> = static_cast<std::size_t>(-1) / 4;

// --- strings ------------------------------------------------------------------------------

namespace detail {

// The JCS escape of a character that needs one: '"', '\\' or a control character.
template <class W>
void write_escape(W& w, unsigned char c) {
  switch (c) {
    case '"':
      w.write("\\\"", 2);
      break;
    case '\\':
      w.write("\\\\", 2);
      break;
    case '\b':
      w.write("\\b", 2);
      break;
    case '\t':
      w.write("\\t", 2);
      break;
    case '\n':
      w.write("\\n", 2);
      break;
    case '\f':
      w.write("\\f", 2);
      break;
    case '\r':
      w.write("\\r", 2);
      break;
    default: {
      static constexpr char hex[] = "0123456789abcdef";
      const char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      w.write(esc, 6);
    }
  }
}

// The length of the run at p of bytes that JCS writes as they are in valid UTF-8: all but
// '"', '\\' and control characters (non-ASCII bytes included).
inline std::size_t verbatim_run(const char* p, const char* end) noexcept {
  const char* start = p;
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
    const __m128i special = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))), control);
    if (const int mask = _mm_movemask_epi8(special); mask != 0)
      return static_cast<std::size_t>(p - start) + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    p += 16;
  }
#endif
  while (p != end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c == '"' || c == '\\')
      break;
    ++p;
  }
  return static_cast<std::size_t>(p - start);
}

}  // namespace detail

// write_string() for text known to be valid UTF-8, such as a parsed document's strings: the
// bytes are copied in runs between the characters that need an escape, not checked again.
template <class W>
void write_valid_string(W& w, std::string_view s) {
  const char* p = s.data();
  const char* end = p + s.size();
  w.put('"');
  for (;;) {
    const std::size_t n = detail::verbatim_run(p, end);
    w.write(p, n);
    p += n;
    if (p == end)
      break;
    detail::write_escape(w, static_cast<unsigned char>(*p));
    ++p;
  }
  w.put('"');
}

// Writes `s` as a JCS string literal. Returns false if `s` is not valid UTF-8; the literal
// is then left unfinished. Runs of characters that need no escape (valid multi-byte
// sequences included) reach the writer in one piece.
template <class W>
bool write_string(W& w, std::string_view s) {
  const char* p = s.data();
  const char* end = p + s.size();
  p += lex::plain_run(p, end);
  if (p == end && s.size() + 2 <= max_reserve<W>) {
    // Nothing to escape or check (the common case): one copy, quotes included.
    char* out = w.reserve(s.size() + 2);
    out[0] = '"';
    copy_bytes(out + 1, s.data(), s.size());
    out[s.size() + 1] = '"';
    w.advance(s.size() + 2);
    return true;
  }
  w.put('"');
  const char* run = s.data();  // start of the bytes not yet written
  while (p < end) {
    p += lex::plain_run(p, end);
    if (p == end)
      break;
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      std::uint32_t cp = 0;
      const int len =
          decode_utf8(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(end), cp);
      if (len == 0)
        return false;
      p += len;
      continue;
    }
    w.write(run, static_cast<std::size_t>(p - run));
    detail::write_escape(w, c);
    ++p;
    run = p;
  }
  w.write(run, static_cast<std::size_t>(p - run));
  w.put('"');
  return true;
}

// True when `s` is valid UTF-8 (no surrogates, nothing above U+10FFFF).
inline bool is_valid_utf8(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    std::uint32_t cp = 0;
    const int len = decode_utf8(p, end, cp);
    if (len == 0)
      return false;
    p += len;
  }
  return true;
}

// --- numbers ------------------------------------------------------------------------------

// Writes the ECMAScript form of `v`. Returns false for NaN or infinity.
template <class W>
bool write_number(W& w, double v) {
  if (!std::isfinite(v))
    return false;
  char* out = w.reserve(max_number_chars);
  w.advance(static_cast<std::size_t>(format_number(v, out) - out));
  return true;
}

// --- member order -------------------------------------------------------------------------

// Orders two valid UTF-8 strings by their UTF-16 code units (RFC 8785 §3.2.3).
constexpr bool utf16_less(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  std::size_t i = 0;
  while (i < n && a[i] == b[i])
    ++i;
  if (i == n)
    return a.size() < b.size();
  const auto ca = static_cast<unsigned char>(a[i]);
  const auto cb = static_cast<unsigned char>(b[i]);
  // Byte order equals code point order; it differs from UTF-16 order only when one side is a
  // supplementary character (lead byte F0..F4, sorts as a surrogate D800..DFFF) and the other
  // is U+E000..U+FFFF (lead byte EE or EF). The differing byte is then a lead byte on both
  // sides, because the common prefix ends at a character boundary for such leads.
  const bool sa = ca >= 0xF0;
  const bool sb = cb >= 0xF0;
  if (sa != sb) {
    const bool high_bmp_a = ca == 0xEE || ca == 0xEF;
    const bool high_bmp_b = cb == 0xEE || cb == 0xEF;
    if (sa && high_bmp_b)
      return true;  // surrogate < U+E000..FFFF
    if (sb && high_bmp_a)
      return false;
  }
  return ca < cb;
}

// --- DOM ----------------------------------------------------------------------------------

namespace detail {

// Why and where writing a DOM failed.
struct write_failure {
  errc code = errc::ok;
  std::string name;     // the repeated name, for duplicate_member
  std::string pointer;  // RFC 6901 pointer of the value (or member name) concerned
};

// Writes a value that is not a container; errc::ok, or why it has no JCS form.
template <class W>
ASSAY_ALWAYS_INLINE inline errc write_scalar(W& w, const value& x) {
  switch (x.kind()) {
    case kind::null:
      w.write("null", 4);
      break;
    case kind::boolean:
      if (x.as_bool()) {
        w.write("true", 4);
      } else {
        w.write("false", 5);
      }
      break;
    case kind::number:
      if (!write_number(w, x.as_number()))
        return errc::not_finite;
      break;
    default:
      if (!write_string(w, x.as_string()))
        return errc::invalid_utf8;
      break;
  }
  return errc::ok;
}

inline bool is_container(const value& x) noexcept {
  static_assert(kind::array > kind::string && kind::object > kind::string);
  return x.kind() >= kind::array;
}

// Writes children k..n-1 of a container, each after prefix(k), up to the first that is itself a
// container, which it leaves in `next`; errc::ok, or the failure at child k. The loop state
// stays in the caller's locals: a store through the writer's char* may alias any memory.
template <class W, class Prefix, class Child>
ASSAY_ALWAYS_INLINE inline errc write_children(W& w, const value*& next, std::size_t& k, std::size_t n, Prefix prefix,
                                               Child child) {
  for (; k < n; ++k) {
    if (const errc e = prefix(k); e != errc::ok)
      return e;
    const value& x = child(k);
    if (is_container(x)) {
      next = &x;
      return errc::ok;
    }
    if (const errc e = write_scalar(w, x); e != errc::ok)
      return e;
  }
  return errc::ok;
}

// Writes `root` in JCS form. Containers are kept on a heap-allocated stack, not by recursion,
// so any depth the reader accepted can be written. `scratch` holds the sorted members of the
// open objects.
template <class W>
bool write_value(W& w, const value& root, std::vector<const member*>& scratch, write_failure* failure) {
  struct level {
    // Built in place (emplace_back): a level built on the stack and then copied is read back
    // as wide loads from narrower stores just made, which stalls when push_back is not inlined.
    level(const value* c, std::size_t b, bool rendered) noexcept : container(c), base(b), names_rendered(rendered) {}
    const value* container;
    std::size_t base;      // objects: where their sorted members start in `scratch`
    std::size_t next = 0;  // index of the next element or member to write
    bool names_rendered;   // objects: the member names are written from shapes[depth].rendered
  };
  std::vector<level> stack;
  // Per depth, the member names of the object written last there and their canonical order;
  // once a second object of that shape comes, also the names in their JCS form, each with its
  // separator and colon (`"a":`, `,"b":`), so that writing a name is one copy.
  struct shape {
    std::vector<std::string_view> names;  // views into that object, which outlives this call
    std::vector<std::uint32_t> order;
    std::string rendered;
    std::vector<std::size_t> ends;  // where each name's piece of `rendered` ends
    bool same_names(const object& obj) const noexcept {
      if (obj.size() != names.size() || obj.empty())
        return false;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (!same_text(obj[i].name, names[i]))
          return false;
      return true;
    }
    // Member names are short: compared in a few word loads rather than a call to memcmp.
    static bool same_text(std::string_view a, std::string_view b) noexcept {
      const std::size_t n = a.size();
      if (n != b.size())
        return false;
      const char* p = a.data();
      const char* q = b.data();
      auto load8 = [](const char* x) noexcept {
        std::uint64_t w;
        std::memcpy(&w, x, 8);
        return w;
      };
      auto load4 = [](const char* x) noexcept {
        std::uint32_t w;
        std::memcpy(&w, x, 4);
        return w;
      };
      if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8)
          if (load8(p + i) != load8(q + i))
            return false;
        return load8(p + n - 8) == load8(q + n - 8);
      }
      if (n >= 4)
        return load4(p) == load4(q) && load4(p + n - 4) == load4(q + n - 4);
      for (std::size_t i = 0; i < n; ++i)
        if (p[i] != q[i])
          return false;
      return true;
    }
    void remember(const object& obj, const member* const* sorted) {
      names.clear();
      order.clear();
      rendered.clear();
      ends.clear();
      if (obj.size() > std::numeric_limits<std::uint32_t>::max())
        return;
      for (const auto& m : obj)
        names.push_back(m.name);
      for (std::size_t i = 0; i < obj.size(); ++i)
        order.push_back(static_cast<std::uint32_t>(sorted[i] - obj.data()));
    }
    // The names were checked when first written: valid UTF-8.
    void render() {
      string_writer sw{&rendered};
      for (std::size_t k = 0; k < order.size(); ++k) {
        if (k != 0)
          rendered += ',';
        write_string(sw, names[order[k]]);
        rendered += ':';
        ends.push_back(rendered.size());
      }
    }
    std::string_view piece(std::size_t k) const noexcept {
      const std::size_t begin = k == 0 ? 0 : ends[k - 1];
      return std::string_view(rendered).substr(begin, ends[k] - begin);
    }
  };
  std::vector<shape> shapes;
  const std::size_t scratch_size = scratch.size();
  // Records a failure at the current position (plus `last`, a token already escaped).
  auto fail = [&](errc code, std::string_view last = {}, bool has_last = false) {
    if (failure) {
      failure->code = code;
      failure->pointer.clear();
      for (const level& l : stack) {
        failure->pointer += '/';
        if (l.container->is_array()) {
          failure->pointer += std::to_string(l.next - 1);
        } else {
          failure->pointer += escape_pointer_token(scratch[l.base + l.next - 1]->name);
        }
      }
      if (has_last) {
        failure->pointer += '/';
        failure->pointer += last;
      }
    }
    scratch.resize(scratch_size);
    return false;
  };

  const value* v = &root;
  for (;;) {
    // `v` is a container to open, or the root.
    if (!is_container(*v)) {
      if (const errc e = write_scalar(w, *v); e != errc::ok)
        return fail(e);
    } else if (v->is_array()) {
      w.put('[');
      stack.emplace_back(v, 0, false);
    } else {
      const auto& obj = v->as_object();
      const std::size_t base = scratch.size();
      shape& seen = stack.size() < shapes.size() ? shapes[stack.size()] : shapes.emplace_back();
      bool names_rendered = false;
      if (seen.same_names(obj)) {
        // The names of the last object written at this depth, in the same order (objects of
        // an array usually share their shape): its order serves, and it had no repeats.
        for (const std::uint32_t k : seen.order)
          scratch.push_back(&obj[k]);
        if (seen.ends.empty())
          seen.render();
        names_rendered = true;
      } else {
        for (const auto& m : obj)
          scratch.push_back(&m);
        auto first = scratch.begin() + static_cast<std::ptrdiff_t>(base);
        auto less = [](const member* a, const member* b) { return utf16_less(a->name, b->name); };
        if (!std::is_sorted(first, scratch.end(), less))
          std::sort(first, scratch.end(), less);
        // A hand-built object may repeat a name; its output would be neither I-JSON nor
        // deterministic (the sort is not stable). Sorted, repeats are neighbours.
        for (std::size_t i = base + 1; i < scratch.size(); ++i) {
          if (scratch[i - 1]->name == scratch[i]->name) {
            if (failure)
              failure->name = scratch[i]->name;
            return fail(errc::duplicate_member, escape_pointer_token(scratch[i]->name), true);
          }
        }
        seen.remember(obj, scratch.data() + base);
      }
      w.put('{');
      stack.emplace_back(v, base, names_rendered);
    }
    // Writes on in the innermost open container, closing those that are complete, up to the
    // next container to open.
    v = nullptr;
    while (v == nullptr && !stack.empty()) {
      level& top = stack.back();
      std::size_t k = top.next;
      errc e = errc::ok;
      const bool array = top.container->is_array();
      if (array) {
        const auto& arr = top.container->as_array();
        const value* elems = arr.data();
        e = write_children(
            w, v, k, arr.size(),
            [&](std::size_t i) ASSAY_ALWAYS_INLINE {
              if (i != 0)
                w.put(',');
              return errc::ok;
            },
            [elems](std::size_t i) ASSAY_ALWAYS_INLINE -> const value& { return elems[i]; });
      } else {
        const std::size_t n = top.container->as_object().size();
        const member* const* members = scratch.data() + top.base;
        auto member_value = [members](std::size_t i) ASSAY_ALWAYS_INLINE -> const value& { return members[i]->value; };
        if (top.names_rendered) {
          const shape& sh = shapes[stack.size() - 1];
          const char* rendered = sh.rendered.data();
          const std::size_t* ends = sh.ends.data();
          e = write_children(
              w, v, k, n,
              [&](std::size_t i) ASSAY_ALWAYS_INLINE {
                const std::size_t begin = i == 0 ? 0 : ends[i - 1];
                w.write(rendered + begin, ends[i] - begin);
                return errc::ok;
              },
              member_value);
        } else {
          e = write_children(
              w, v, k, n,
              [&](std::size_t i) ASSAY_ALWAYS_INLINE {
                if (i != 0)
                  w.put(',');
                if (!write_string(w, members[i]->name))
                  return errc::invalid_utf8;
                w.put(':');
                return errc::ok;
              },
              member_value);
        }
      }
      if (e != errc::ok || v != nullptr) {
        top.next = k + 1;
        if (e != errc::ok)
          return fail(e);
      } else if (array) {
        w.put(']');
        stack.pop_back();
      } else {
        w.put('}');
        scratch.resize(top.base);
        stack.pop_back();
      }
    }
    if (v == nullptr)
      return true;
  }
}

}  // namespace detail

// Writes the JCS form of `v` through `w`. Fails, naming where, on NaN/infinity
// (errc::not_finite), invalid UTF-8 (errc::invalid_utf8) or a name repeated in one object
// (errc::duplicate_member). Bytes written before the failure stay written.
template <class W>
result<void> write_canonical(W& w, const value& v) {
  std::vector<const member*> scratch;
  detail::write_failure failure;
  if (detail::write_value(w, v, scratch, &failure))
    return {};
  switch (failure.code) {
    case errc::not_finite:
      return make_error(errc::not_finite, "NaN and infinity have no JSON form", failure.pointer);
    case errc::duplicate_member:
      return make_error(errc::duplicate_member, "duplicate member name " + quote_for_message(failure.name),
                        failure.pointer);
    default:
      return make_error(errc::invalid_utf8, "string is not valid UTF-8", failure.pointer);
  }
}

// Writes the JCS form of `v` to any sink.
template <sink Sink>
result<void> to_sink(Sink& s, const value& v) {
  return with_writer(s, [&](auto& w) { return write_canonical(w, v); });
}

// The JCS bytes of `v`.
inline result<std::string> to_canonical(const value& v) {
  std::string out;
  string_writer w{&out};
  auto r = write_canonical(w, v);
  if (!r)
    return r.error();
  return out;
}

// Parses `text` strictly and returns its JCS bytes.
inline result<std::string> canonicalize(std::string_view text, const limits& lim = {}) {
  auto v = parse(text, lim);
  if (!v)
    return v.error();
  return to_canonical(*v);
}

// --- pretty form for people ---------------------------------------------------------------

// Indented JSON (two spaces, members in canonical order, no trailing newline). For people:
// digests are always taken over the canonical form. Open containers are kept on a
// heap-allocated stack, not by recursion.
inline std::string to_pretty(const value& v) {
  std::string out;
  string_writer w{&out};
  struct level {
    const value* container;
    std::vector<const member*> order;  // objects: the members in canonical order
    std::size_t next = 0;
  };
  std::vector<level> stack;
  std::vector<const member*> scratch;
  auto newline = [&](std::size_t depth) {
    out += '\n';
    out.append(depth * 2, ' ');
  };
  const value* cur = &v;
  for (;;) {
    if (cur->is_array()) {
      if (cur->as_array().empty()) {
        out += "[]";
      } else {
        out += '[';
        stack.push_back(level{cur, {}});
      }
    } else if (cur->is_object()) {
      const auto& obj = cur->as_object();
      if (obj.empty()) {
        out += "{}";
      } else {
        std::vector<const member*> order;
        for (const auto& m : obj)
          order.push_back(&m);
        std::sort(order.begin(), order.end(),
                  [](const member* a, const member* b) { return utf16_less(a->name, b->name); });
        out += '{';
        stack.push_back(level{cur, std::move(order)});
      }
    } else {
      detail::write_value(w, *cur, scratch, nullptr);
    }
    // The next value to write, closing the containers that are complete.
    for (;;) {
      if (stack.empty())
        return out;
      level& l = stack.back();
      const bool in_array = l.container->is_array();
      const std::size_t n = in_array ? l.container->as_array().size() : l.order.size();
      if (l.next == n) {
        newline(stack.size() - 1);
        out += in_array ? ']' : '}';
        stack.pop_back();
        continue;
      }
      if (l.next != 0)
        out += ',';
      newline(stack.size());
      if (in_array) {
        cur = &l.container->as_array()[l.next++];
      } else {
        write_string(w, l.order[l.next]->name);
        out += ": ";
        cur = &l.order[l.next++]->value;
      }
      break;
    }
  }
}

}  // namespace assay::json

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
// The DOM's canonical writer through the two writers the library uses: compiled once, not in
// every unit whose contracts hold untyped members (extra_members, json::value).
namespace assay::json {
namespace detail {
ASSAY_EXTERN_TEMPLATE bool write_value<writer<string_sink>>(writer<string_sink>&, const value&,
                                                            std::vector<const member*>&, write_failure*);
ASSAY_EXTERN_TEMPLATE bool write_value<string_writer>(string_writer&, const value&, std::vector<const member*>&,
                                                      write_failure*);
}  // namespace detail
ASSAY_EXTERN_TEMPLATE result<void> write_canonical<writer<string_sink>>(writer<string_sink>&, const value&);
ASSAY_EXTERN_TEMPLATE result<void> write_canonical<string_writer>(string_writer&, const value&);
}  // namespace assay::json
#endif
