// libFuzzer target: the strict reader (json::parse) and the JCS writer.
//
// For every input:
//   - parse with the default limits and with tiny limits; the two must agree: tiny limits may
//     only add a limit error, so a tiny-limit success means a default success with an equal
//     value, and a tiny-limit non-limit error means the same error (code and offset) under the
//     default limits;
//   - every error carries a code of the syntax block, an offset inside the input and a 1-based
//     line and column;
// and when the input parses:
//   - to_canonical succeeds, and the buffered sink writer produces the same bytes;
//   - the canonical bytes parse, to a value equal to the first one;
//   - canonicalizing them again gives the same bytes (idempotence);
//   - the canonical bytes have no whitespace outside strings and every object's member names are
//     in strictly increasing UTF-16 order (checked with a comparison written here, not the
//     library's);
//   - json::document (the flat tape), where present, accepts and rejects exactly as json::parse
//     does (same error code and offset, under both sets of limits; its fast parser alone the
//     same inputs) and writes the same bytes;
//   - json::skip_value (which builds nothing) accepts and rejects exactly as json::parse does,
//     with the same error, under both sets of limits;
//   - a copy of the parsed value is equal to it and writes the same bytes.
// Any mismatch aborts.
#include "fuzz_fail.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"
#if __has_include("assay/json/document.hpp")
#include "assay/json/document.hpp"
#define ASSAY_FUZZ_HAS_DOCUMENT 1
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace json = assay::json;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_reader", what, detail);
}

bool is_limit(assay::errc c) {
  return c == assay::errc::depth_limit || c == assay::errc::member_limit || c == assay::errc::string_limit ||
         c == assay::errc::size_limit;
}

void check_error_shape(const assay::error& e, std::size_t input_size) {
  const auto code = static_cast<unsigned>(e.code);
  if (code < 100 || code >= 200)
    fail("parse error with a code outside the syntax block", e.format());
  if (!e.has_position() || e.offset > input_size)
    fail("parse error offset outside the input", e.format());
  if (e.line == 0 || e.column == 0)
    fail("parse error without line/column", e.format());
  if (e.message.empty())
    fail("parse error without a message");
  (void)e.format();
}

// UTF-8 (already validated) to UTF-16 code units, independently of the library.
std::u16string to_utf16(std::string_view s) {
  std::u16string out;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    std::uint32_t cp;
    if (*p < 0x80) {
      cp = *p++;
    } else if (*p < 0xE0) {
      cp = (std::uint32_t(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
      p += 2;
    } else if (*p < 0xF0) {
      cp = (std::uint32_t(p[0] & 0x0F) << 12) | (std::uint32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      p += 3;
    } else {
      cp = (std::uint32_t(p[0] & 0x07) << 18) | (std::uint32_t(p[1] & 0x3F) << 12) | (std::uint32_t(p[2] & 0x3F) << 6) |
           (p[3] & 0x3F);
      p += 4;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

// The value was parsed from canonical bytes, so members are in output order.
void check_order(const json::value& v) {
  if (v.is_array()) {
    for (const auto& e : v.as_array())
      check_order(e);
  } else if (v.is_object()) {
    const auto& obj = v.as_object();
    for (std::size_t i = 0; i < obj.size(); ++i) {
      if (i > 0 && !(to_utf16(obj[i - 1].name) < to_utf16(obj[i].name))) {
        fail("canonical member names not in strictly increasing UTF-16 order", obj[i].name);
      }
      check_order(obj[i].value);
    }
  }
}

void check_no_whitespace(std::string_view s) {
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      fail("whitespace outside a string in canonical output", s);
    }
  }
}

// The tape document must agree with the DOM: same acceptance, same error, same bytes.
void check_document(std::string_view text, const json::limits& lim, const assay::result<json::value>& dom) {
#ifdef ASSAY_FUZZ_HAS_DOCUMENT
  auto doc = json::document::parse(text, lim);
  if (bool(doc) != bool(dom)) {
    fail(doc ? "document accepts what json::parse rejects" : "document rejects what json::parse accepts",
         doc ? dom.error().format() : doc.error().format());
  }
  // parse() asks the cursor whenever its fast parser says no: that one alone must agree too.
  if (json::document::fast_parser_accepts(text, lim) != bool(dom))
    fail(dom ? "the fast parser rejects what json::parse accepts" : "the fast parser accepts what json::parse rejects");
  if (!doc) {
    if (doc.error().code != dom.error().code || doc.error().offset != dom.error().offset) {
      fail("document and json::parse fail differently", doc.error().format() + " | " + dom.error().format());
    }
    return;
  }
  auto c = json::to_canonical(*dom);
  if (!c || doc->canonical() != *c)
    fail("document::canonical differs from to_canonical", doc->canonical());
  if (!(doc->to_value() == *dom))
    fail("document::to_value differs from json::parse");
#else
  (void)text;
  (void)lim;
  (void)dom;
#endif
}

// skip_value must validate exactly as reading does: same acceptance, same error.
void check_skip(std::string_view text, const json::limits& lim, const assay::result<json::value>& dom) {
  json::cursor c(text, lim);
  const bool ok = json::skip_value(c) && c.finish();
  if (ok != bool(dom)) {
    fail(ok ? "skip_value accepts what json::parse rejects" : "skip_value rejects what json::parse accepts",
         ok ? dom.error().format() : c.error().format());
  }
  if (!ok && c.error().format() != dom.error().format())
    fail("skip_value and json::parse fail differently", c.error().format() + " | " + dom.error().format());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  json::limits tiny;
  tiny.max_depth = 3;
  tiny.max_members = 3;
  tiny.max_string_chars = 6;
  tiny.max_input_bytes = 4096;

  auto full = json::parse(text);
  auto small = json::parse(text, tiny);

  check_document(text, {}, full);
  check_document(text, tiny, small);
  check_skip(text, {}, full);
  check_skip(text, tiny, small);

  if (!full)
    check_error_shape(full.error(), size);
  if (!small)
    check_error_shape(small.error(), size);

  if (small) {
    if (!full)
      fail("accepted under tiny limits, rejected under default limits", full.error().format());
    if (!(*small == *full))
      fail("tiny-limit and default-limit parses differ");
  } else if (!is_limit(small.error().code)) {
    if (full)
      fail("non-limit error under tiny limits, accepted under default limits", small.error().format());
    if (full.error().code != small.error().code || full.error().offset != small.error().offset) {
      fail("tiny-limit and default-limit parses fail differently",
           small.error().format() + " | " + full.error().format());
    }
  }

  if (!full)
    return 0;
  const json::value& v = *full;

  auto c1 = json::to_canonical(v);
  if (!c1)
    fail("to_canonical failed on a parsed value", c1.error().format());

  std::string via_sink;
  json::string_sink sink{&via_sink};
  if (!json::to_sink(sink, v))
    fail("to_sink failed on a parsed value");
  if (via_sink != *c1)
    fail("to_sink and to_canonical differ");

  const json::value copy = v;
  if (!(copy == v) || !(v == copy))
    fail("a copy of the value differs from it");
  auto c_copy = json::to_canonical(copy);
  if (!c_copy || *c_copy != *c1)
    fail("a copy of the value writes other bytes");

  auto v2 = json::parse(*c1);
  if (!v2)
    fail("canonical bytes do not parse", v2.error().format() + " | " + *c1);
  if (!(*v2 == v))
    fail("parse(canonical) != value", *c1);

  auto c2 = json::to_canonical(*v2);
  if (!c2)
    fail("to_canonical failed on the re-parsed value");
  if (*c2 != *c1)
    fail("canonicalization is not idempotent", *c1 + " | " + *c2);

  auto c3 = json::canonicalize(*c1);
  if (!c3 || *c3 != *c1)
    fail("canonicalize(canonical) differs");

  check_no_whitespace(*c1);
  check_order(*v2);
  return 0;
}
