// Field count, access and names of reflected aggregates: names are exactly the declared
// identifiers, in declaration order, for every kind of member type (both compilers).
#include "support.hpp"

#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/fields.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fields_test {

struct inner {
  int x = 0;
};

enum class colour { red, green };

struct many {
  bool flag;
  char c;
  signed char sc;
  unsigned char uc;
  short s;
  unsigned short us;
  int i;
  unsigned u;
  long l;
  unsigned long ul;
  long long ll;
  unsigned long long ull;
  std::int8_t i8;
  std::uint64_t u64;
  float f;
  double d;
  long double ld;
  std::string str;
  std::string_view view;
  const char* cstr;
  int* raw_pointer;
  colour col;
  inner nested;
  std::optional<int> maybe;
  std::vector<std::string> vec;
  std::map<std::string, int> dict;
  std::array<double, 2> pair;
  assay::bounded<std::int64_t, 1> at_least_one;
  assay::one_of<"a", "b"> choice;
  assay::const_string<"v1"> version;
  assay::non_empty text;
  assay::date_time when;
  assay::pattern<"^[a-z]+$"> lower;
  assay::list<int, 1, 3> few;
  assay::nullable<int> maybe_null;
  assay::json::value any;
  std::optional<std::vector<std::optional<inner>>> deep;
  int _leading_underscore;
  int trailing_digits_123;
  int CamelCase;
  int x;
};

// A struct local to nothing special, but with a one-letter member and a member named like a
// type, to catch cuts that stop at the wrong character.
struct tricky {
  int a;
  inner inner_;
  std::map<std::string, std::vector<int>> map;
  int z9;
};

}  // namespace fields_test

namespace {
struct in_anonymous_namespace {
  int alpha;
  std::string beta;
};
}  // namespace

TEST_CASE("field names are exactly the declared identifiers") {
  using fields_test::many;
  constexpr auto names = assay::reflect::field_names<many>();
  static_assert(assay::reflect::field_count<many> == 41);
  static_assert(names.size() == 41);
  const std::array<std::string_view, 41> expected{"flag",
                                                  "c",
                                                  "sc",
                                                  "uc",
                                                  "s",
                                                  "us",
                                                  "i",
                                                  "u",
                                                  "l",
                                                  "ul",
                                                  "ll",
                                                  "ull",
                                                  "i8",
                                                  "u64",
                                                  "f",
                                                  "d",
                                                  "ld",
                                                  "str",
                                                  "view",
                                                  "cstr",
                                                  "raw_pointer",
                                                  "col",
                                                  "nested",
                                                  "maybe",
                                                  "vec",
                                                  "dict",
                                                  "pair",
                                                  "at_least_one",
                                                  "choice",
                                                  "version",
                                                  "text",
                                                  "when",
                                                  "lower",
                                                  "few",
                                                  "maybe_null",
                                                  "any",
                                                  "deep",
                                                  "_leading_underscore",
                                                  "trailing_digits_123",
                                                  "CamelCase",
                                                  "x"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(names[i] == expected[i]);
  }
  // Usable in constant expressions.
  static_assert(assay::reflect::field_name<many, 0> == "flag");
  static_assert(assay::reflect::field_name<many, 40> == "x");
  static_assert(assay::reflect::field_name<many, 27> == "at_least_one");
}

TEST_CASE("field names of other structs") {
  constexpr auto t = assay::reflect::field_names<fields_test::tricky>();
  static_assert(t.size() == 4);
  CHECK(t[0] == "a");
  CHECK(t[1] == "inner_");
  CHECK(t[2] == "map");
  CHECK(t[3] == "z9");
  constexpr auto a = assay::reflect::field_names<in_anonymous_namespace>();
  CHECK(a[0] == "alpha");
  CHECK(a[1] == "beta");
  constexpr auto one = assay::reflect::field_names<fields_test::inner>();
  static_assert(one.size() == 1 && one[0] == "x");
}

TEST_CASE("field access by index and for_each_index") {
  fields_test::tricky t{};
  t.a = 7;
  t.z9 = 9;
  CHECK(assay::reflect::get<0>(t) == 7);
  assay::reflect::get<3>(t) = 10;
  CHECK(t.z9 == 10);
  std::vector<std::size_t> seen;
  assay::reflect::for_each_index<fields_test::tricky>([&](auto i) { seen.push_back(i.value); });
  CHECK(seen == std::vector<std::size_t>{0, 1, 2, 3});
  static_assert(std::is_same_v<assay::reflect::field_type<fields_test::tricky, 1>, fields_test::inner>);
}

TEST_CASE("struct_info: JSON names, required set and JCS order") {
  struct s {
    int zeta;
    std::optional<int> alpha;
    int beta;
  };
  using info = assay::reflect::struct_info<s>;
  static_assert(info::json_names[0] == "zeta");
  static_assert(info::required[0] && !info::required[1] && info::required[2]);
  static_assert(info::order[0] == 1 && info::order[1] == 2 && info::order[2] == 0);
  static_assert(info::key(0) == "\"zeta\":");
  CHECK(info::find("beta") == 2);
  CHECK(info::find("gamma") == info::npos);
}
