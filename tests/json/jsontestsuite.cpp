// JSONTestSuite (nst/JSONTestSuite test_parsing/): every n_ file rejected, every y_ file
// accepted except the duplicate-key files, the noncharacter files rejected in strict I-JSON
// mode, and a documented outcome for each i_ file (SPEC §1).
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace json = assay::json;
namespace fs = std::filesystem;
using assay::errc;

namespace {

std::string code_name(errc c) {
  return std::string(assay::name(c));
}

// std::nullopt = accepted; otherwise rejected with this code.
using outcome = std::optional<errc>;

// y_ files rejected in every mode: RFC 8785 §3.1 / SPEC §1 forbid duplicate names.
const std::map<std::string, errc> y_rejected = {
    {"y_object_duplicated_key.json", errc::duplicate_member},            // {"a":"b","a":"c"}
    {"y_object_duplicated_key_and_value.json", errc::duplicate_member},  // {"a":"b","a":"b"}
};

// y_ files holding a noncharacter (U+FDD0..FDEF, U+xFFFE, U+xFFFF): accepted by default,
// rejected with limits::reject_noncharacters. Found by decoding every y_ file; note that
// y_string_last_surrogates_1_and_2 is \uDBFF\uDFFF = U+10FFFF, a noncharacter too.
const std::set<std::string> y_noncharacters = {
    "y_string_escaped_noncharacter.json",          // \uFFFF
    "y_string_last_surrogates_1_and_2.json",       // \uDBFF\uDFFF = U+10FFFF
    "y_string_nonCharacterInUTF-8_U+10FFFF.json",  // F4 8F BF BF
    "y_string_nonCharacterInUTF-8_U+FFFF.json",    // EF BF BF
    "y_string_unicode_U+10FFFE_nonchar.json",      // \uDBFF\uDFFE
    "y_string_unicode_U+1FFFE_nonchar.json",       // \uD83F\uDFFE
    "y_string_unicode_U+FDD0_nonchar.json",        // \uFDD0
    "y_string_unicode_U+FFFE_nonchar.json",        // \uFFFE
};

// Every i_ file and its outcome, the same in both modes. SPEC §1: overflow to infinity, lone
// surrogates, invalid UTF-8 and a BOM are rejected; underflow and big integers (rounded to
// the nearest double) are accepted; UTF-16 is not UTF-8; 500 levels exceed the depth limit.
const std::map<std::string, outcome> i_outcomes = {
    {"i_number_double_huge_neg_exp.json", std::nullopt},             // [123.456e-789] underflows to 0
    {"i_number_huge_exp.json", errc::number_overflow},               // [0.4e00669999999...]
    {"i_number_neg_int_huge_exp.json", errc::number_overflow},       // [-1e+9999]
    {"i_number_pos_double_huge_exp.json", errc::number_overflow},    // [1.5e+9999]
    {"i_number_real_neg_overflow.json", errc::number_overflow},      // [-123123e100000]
    {"i_number_real_pos_overflow.json", errc::number_overflow},      // [123123e100000]
    {"i_number_real_underflow.json", std::nullopt},                  // [123e-10000000] -> 0
    {"i_number_too_big_neg_int.json", std::nullopt},                 // rounds to a double
    {"i_number_too_big_pos_int.json", std::nullopt},                 // [100000000000000000000]
    {"i_number_very_big_negative_int.json", std::nullopt},           // rounds to a double
    {"i_object_key_lone_2nd_surrogate.json", errc::lone_surrogate},  // {"\uDFAA":0}
    {"i_string_1st_surrogate_but_2nd_missing.json", errc::lone_surrogate},
    {"i_string_1st_valid_surrogate_2nd_invalid.json", errc::lone_surrogate},
    {"i_string_UTF-16LE_with_BOM.json", errc::unexpected_character},  // FF FE: not UTF-8
    {"i_string_UTF-8_invalid_sequence.json", errc::invalid_utf8},
    {"i_string_UTF8_surrogate_U+D800.json", errc::invalid_utf8},  // ED A0 80
    {"i_string_incomplete_surrogate_and_escape_valid.json", errc::lone_surrogate},
    {"i_string_incomplete_surrogate_pair.json", errc::lone_surrogate},
    {"i_string_incomplete_surrogates_escape_valid.json", errc::lone_surrogate},
    {"i_string_invalid_lonely_surrogate.json", errc::lone_surrogate},
    {"i_string_invalid_surrogate.json", errc::lone_surrogate},
    {"i_string_invalid_utf-8.json", errc::invalid_utf8},  // FF
    {"i_string_inverted_surrogates_U+1D11E.json", errc::lone_surrogate},
    {"i_string_iso_latin_1.json", errc::invalid_utf8},  // E9
    {"i_string_lone_second_surrogate.json", errc::lone_surrogate},
    {"i_string_lone_utf8_continuation_byte.json", errc::invalid_utf8},
    {"i_string_not_in_unicode_range.json", errc::invalid_utf8},  // F4 BF BF BF
    {"i_string_overlong_sequence_2_bytes.json", errc::invalid_utf8},
    {"i_string_overlong_sequence_6_bytes.json", errc::invalid_utf8},
    {"i_string_overlong_sequence_6_bytes_null.json", errc::invalid_utf8},
    {"i_string_truncated-utf-8.json", errc::invalid_utf8},
    {"i_string_utf16BE_no_BOM.json", errc::unexpected_character},  // 00 5B: NUL outside a string
    {"i_string_utf16LE_no_BOM.json", errc::unexpected_character},  // 5B 00
    {"i_structure_500_nested_arrays.json", errc::depth_limit},
    {"i_structure_UTF-8_BOM_empty_object.json", errc::byte_order_mark},
};

// A sample of n_ files with their exact error: code, byte offset and pointer.
struct n_expectation {
  errc code;
  std::size_t offset;
  const char* pointer;
};
const std::map<std::string, n_expectation> n_exact = {
    {"n_array_extra_comma.json", {errc::unexpected_character, 4, ""}},  // ["",]
    {"n_array_double_comma.json", {errc::unexpected_character, 3, "/1"}},
    {"n_array_just_minus.json", {errc::invalid_number, 1, "/0"}},
    {"n_array_incomplete.json", {errc::unexpected_end, 4, ""}},
    {"n_incomplete_true.json", {errc::invalid_literal, 1, "/0"}},
    {"n_number_+1.json", {errc::invalid_number, 1, "/0"}},
    {"n_number_-01.json", {errc::invalid_number, 1, "/0"}},
    {"n_number_.2e-3.json", {errc::invalid_number, 1, "/0"}},
    {"n_number_2.e3.json", {errc::invalid_number, 1, "/0"}},
    {"n_number_0e+.json", {errc::invalid_number, 1, "/0"}},
    {"n_number_NaN.json", {errc::unexpected_character, 1, "/0"}},
    {"n_number_hex_1_digit.json", {errc::unexpected_character, 2, ""}},
    {"n_object_missing_colon.json", {errc::unexpected_character, 5, "/a"}},
    {"n_object_trailing_comma.json", {errc::unexpected_character, 8, ""}},
    {"n_object_lone_continuation_byte_in_key_and_trailing_comma.json", {errc::invalid_utf8, 2, ""}},
    {"n_object_unterminated-value.json", {errc::unexpected_end, 7, "/a"}},
    {"n_string_1_surrogate_then_escape.json", {errc::lone_surrogate, 2, "/0"}},
    {"n_string_1_surrogate_then_escape_u1x.json", {errc::invalid_escape, 8, "/0"}},
    {"n_string_escape_x.json", {errc::invalid_escape, 2, "/0"}},
    {"n_string_incomplete_escaped_character.json", {errc::invalid_escape, 2, "/0"}},
    {"n_string_unescaped_ctrl_char.json", {errc::unescaped_control, 3, "/0"}},
    {"n_string_unescaped_tab.json", {errc::unescaped_control, 2, "/0"}},
    {"n_string_start_escape_unclosed.json", {errc::unexpected_end, 3, "/0"}},
    {"n_structure_100000_opening_arrays.json", {errc::depth_limit, 64, nullptr}},
    {"n_structure_UTF8_BOM_no_data.json", {errc::byte_order_mark, 0, ""}},
    {"n_structure_incomplete_UTF8_BOM.json", {errc::unexpected_character, 0, ""}},
    {"n_structure_no_data.json", {errc::unexpected_end, 0, ""}},
    {"n_structure_null-byte-outside-string.json", {errc::unexpected_character, 1, "/0"}},
    {"n_structure_object_unclosed_no_value.json", {errc::unexpected_end, 4, "/"}},  // {"":
    {"n_structure_whitespace_formfeed.json", {errc::unexpected_character, 1, "/0"}},
    {"n_structure_trailing_#.json", {errc::trailing_content, 9, ""}},
    {"n_structure_unclosed_array_partial_null.json", {errc::invalid_literal, 9, "/1"}},
};

struct suite_file {
  std::string name;
  std::string bytes;
};

std::vector<suite_file> load_suite() {
  std::vector<suite_file> files;
  const fs::path root = assay_test::conformance_dir();
  if (root.empty())
    return files;
  const fs::path dir = root / "jsontestsuite" / "test_parsing";
  REQUIRE_MESSAGE(fs::is_directory(dir), "missing " << dir.string());
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file())
      continue;
    files.push_back({entry.path().filename().string(), assay_test::read_file(entry.path())});
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return files;
}

json::limits strict_limits() {
  json::limits l;
  l.reject_noncharacters = true;
  return l;
}

// The error must be tied to a real place in the input.
void check_error_shape(const assay::error& e, std::size_t size) {
  CHECK(e.has_position());
  CHECK(e.offset <= size);
  CHECK(e.line >= 1);
  CHECK(e.column >= 1);
  CHECK_FALSE(e.message.empty());
  CHECK(e.message.find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("JSONTestSuite: the expected files are there" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  if (files.empty())
    return;
  std::size_t y = 0, n = 0, i = 0, other = 0;
  std::set<std::string> names;
  for (const auto& f : files) {
    names.insert(f.name);
    switch (f.name[0]) {
      case 'y':
        ++y;
        break;
      case 'n':
        ++n;
        break;
      case 'i':
        ++i;
        break;
      default:
        ++other;
        break;
    }
  }
  CHECK(y == 95);
  CHECK(n == 188);
  CHECK(i == 35);
  CHECK(other == 0);
  CHECK(i == i_outcomes.size());
  // Every table entry names a file that exists (no typos hiding a check).
  for (const auto& entry : i_outcomes)
    CHECK_MESSAGE(names.count(entry.first) == 1, entry.first);
  for (const auto& entry : y_rejected)
    CHECK_MESSAGE(names.count(entry.first) == 1, entry.first);
  for (const auto& name : y_noncharacters)
    CHECK_MESSAGE(names.count(name) == 1, name);
  for (const auto& entry : n_exact)
    CHECK_MESSAGE(names.count(entry.first) == 1, entry.first);
}

TEST_CASE("JSONTestSuite: y_ files are accepted (default mode)" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  std::size_t accepted = 0;
  for (const auto& f : files) {
    if (f.name[0] != 'y')
      continue;
    CAPTURE(f.name);
    auto r = json::parse(f.bytes);
    const auto rejected = y_rejected.find(f.name);
    if (rejected != y_rejected.end()) {
      REQUIRE_FALSE(r.has_value());
      CHECK(code_name(r.error().code) == code_name(rejected->second));
      check_error_shape(r.error(), f.bytes.size());
      continue;
    }
    if (!r)
      FAIL_CHECK(r.error().format());
    if (!r)
      continue;
    ++accepted;
    // The canonical form parses back to an equal value and is a fixed point.
    auto canon = json::to_canonical(*r);
    REQUIRE(canon.has_value());
    auto again = json::parse(*canon);
    REQUIRE(again.has_value());
    CHECK(*again == *r);
    CHECK(json::canonicalize(*canon).value() == *canon);
  }
  if (!files.empty())
    CHECK(accepted == 95 - y_rejected.size());
}

TEST_CASE("JSONTestSuite: y_ files in strict I-JSON mode" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  const json::limits strict = strict_limits();
  std::size_t rejected_nonchar = 0;
  for (const auto& f : files) {
    if (f.name[0] != 'y')
      continue;
    CAPTURE(f.name);
    auto r = json::parse(f.bytes, strict);
    if (y_rejected.count(f.name)) {
      REQUIRE_FALSE(r.has_value());
      CHECK(code_name(r.error().code) == code_name(y_rejected.at(f.name)));
    } else if (y_noncharacters.count(f.name)) {
      REQUIRE_FALSE(r.has_value());
      CHECK(code_name(r.error().code) == code_name(errc::noncharacter));
      check_error_shape(r.error(), f.bytes.size());
      ++rejected_nonchar;
    } else if (!r) {
      FAIL_CHECK(r.error().format());
    }
  }
  if (!files.empty())
    CHECK(rejected_nonchar == y_noncharacters.size());
}

TEST_CASE("JSONTestSuite: n_ files are rejected in both modes" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  const json::limits strict = strict_limits();
  std::size_t exact_checked = 0;
  for (const auto& f : files) {
    if (f.name[0] != 'n')
      continue;
    CAPTURE(f.name);
    auto r = json::parse(f.bytes);
    if (r) {
      FAIL_CHECK("accepted");
      continue;
    }
    check_error_shape(r.error(), f.bytes.size());
    auto s = json::parse(f.bytes, strict);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error() == r.error());
    const auto exact = n_exact.find(f.name);
    if (exact != n_exact.end()) {
      ++exact_checked;
      CHECK(code_name(r.error().code) == code_name(exact->second.code));
      CHECK(r.error().offset == exact->second.offset);
      if (exact->second.pointer)
        CHECK(r.error().pointer == exact->second.pointer);
    }
  }
  if (!files.empty())
    CHECK(exact_checked == n_exact.size());
}

TEST_CASE("JSONTestSuite: every i_ file has its documented outcome" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  const json::limits strict = strict_limits();
  for (const auto& f : files) {
    if (f.name[0] != 'i')
      continue;
    CAPTURE(f.name);
    const auto it = i_outcomes.find(f.name);
    if (it == i_outcomes.end()) {
      FAIL_CHECK("i_ file without a documented outcome: add it to i_outcomes");
      continue;
    }
    for (const json::limits& lim : {json::limits{}, strict}) {
      auto r = json::parse(f.bytes, lim);
      if (!it->second) {
        if (!r)
          FAIL_CHECK("expected to be accepted: " << r.error().format());
      } else {
        REQUIRE_FALSE(r.has_value());
        CHECK(code_name(r.error().code) == code_name(*it->second));
        check_error_shape(r.error(), f.bytes.size());
      }
    }
  }
}

TEST_CASE("JSONTestSuite: accepted i_ numbers have their nearest-double values" * doctest::test_suite("conformance")) {
  const auto files = load_suite();
  if (files.empty())
    return;
  auto first = [&](const std::string& name) {
    for (const auto& f : files) {
      if (f.name == name) {
        auto r = json::parse(f.bytes);
        REQUIRE(r.has_value());
        return r->as_array().at(0).as_number();
      }
    }
    FAIL("missing " << name);
    return 0.0;
  };
  CHECK(first("i_number_double_huge_neg_exp.json") == 0.0);
  CHECK(first("i_number_real_underflow.json") == 0.0);
  CHECK(first("i_number_too_big_pos_int.json") == 1e20);
  CHECK(first("i_number_too_big_neg_int.json") == -123123123123123123123123123123.0);
  CHECK(first("i_number_very_big_negative_int.json") == -237462374673276894279832749832423479823246327846.0);
}
