// Patterns over code points (reflect/pattern_unicode.hpp) held to Boost.Regex over UTF-32, the
// path ecma_pattern.hpp takes for what the automata cannot express: random patterns of the
// covered syntax, with characters of one to four bytes, against random subjects.
#include "support.hpp"

#include "assay/reflect/ecma_pattern.hpp"
#include "assay/reflect/pattern_unicode.hpp"

#include <boost/regex.hpp>

#include <random>
#include <string>
#include <vector>

namespace r = assay::reflect;

TEST_CASE("the code-point automata answer as Boost.Regex over UTF-32 does") {
  const std::vector<std::string> atoms = {"a",
                                          "\xC3\xA9",
                                          "\xE2\x82\xAC",
                                          "\xF0\x9F\x98\x80",
                                          ".",
                                          "\\d",
                                          "\\s",
                                          "\\w",
                                          "\\S",
                                          "\\D",
                                          "\\W",
                                          "[a-\xC3\xA9]",
                                          "[^a\xE2\x82\xAC]",
                                          "(a|\xC3\xA9)",
                                          "(?:\xE2\x82\xAC|b)",
                                          "\\u00e9",
                                          "[\\s\\d]",
                                          "[^\\w]",
                                          "\\x61",
                                          "\\u{1F600}"};
  const std::vector<std::string> quantifiers = {"", "", "*", "+", "?", "{1,2}", "{2}", "*?"};
  const std::vector<std::string> letters = {
      "a", "b", "1", " ", "\n", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE2\x80\xA8", "\xE3\x80\x80", "_"};
  std::mt19937 rng(20240601);
  auto pick = [&](const auto& v) { return v[rng() % v.size()]; };
  std::size_t compared = 0;
  for (int k = 0; k < 400; ++k) {
    std::string pattern = rng() % 3 == 0 ? "^" : "";
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int a = 0; a < n; ++a)
      pattern += pick(atoms) + pick(quantifiers);
    if (rng() % 3 == 0)
      pattern += "$";
    const auto dfa = r::compile_code_point_pattern(pattern);
    REQUIRE_MESSAGE(dfa, pattern);
    const auto wide = r::detail::ecma_to_boost_wide(pattern);
    REQUIRE(wide);
    const boost::wregex re(*wide, boost::regex::ECMAScript | boost::regex::no_mod_m);
    for (int s = 0; s < 30; ++s) {
      std::string subject;
      const int len = static_cast<int>(rng() % 7);
      for (int c = 0; c < len; ++c)
        subject += pick(letters);
      const bool want = r::detail::wide_search(re, r::detail::widen(subject));
      CHECK_MESSAGE(dfa->search(subject) == want, "pattern " << pattern << " subject " << subject);
      ++compared;
    }
  }
  CHECK(compared == 12000);
}

TEST_CASE("what the code-point automata do not cover is left to Boost") {
  for (const char* p : {"(?=a)", "(?!a)b", "(?<=a)b", "\\bword", "(a)\\1", "\\p{L}", "a{,2}"})
    CHECK_FALSE(r::compile_code_point_pattern(p));
  auto look = r::ecma_pattern::compile("^(?!tmp)\\w+$");
  REQUIRE(look);
  CHECK_FALSE(look->linear());
  CHECK(look->search("var") == r::pattern_result::match);
  CHECK(look->search("tmpdir") == r::pattern_result::no_match);
  CHECK_FALSE(r::ecma_pattern::compile("(unclosed"));
  CHECK_FALSE(r::ecma_pattern::compile("a\xFF"));  // not UTF-8
}
