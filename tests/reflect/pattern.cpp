// Patterns as automata (reflect/pattern.hpp): for every pattern the contracts use and a set of
// others, the DFA answers exactly as Boost.Regex does on many generated strings; constructs
// outside the subset are left to Boost; matching stays linear where backtracking would not.
#include "support.hpp"

#include "assay/reflect/regex.hpp"
#include "assay/reflect/pattern.hpp"

#include <boost/regex.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

using assay::reflect::pattern_dfa;

namespace {

using assay::reflect::detail::boost_search;  // the library's Boost path: the reference here

// The characters a pattern mentions, a few others, and bytes above 0x7F.
std::string alphabet_of(std::string_view pattern) {
  std::string a(pattern);
  a += "09afAFzZ:/~@._-+=\n\r\t \x80\xc3\xa9\xff";
  return a;
}

// Strings to try: random ones over the alphabet, and each example with every single-byte edit.
std::vector<std::string> inputs(std::string_view pattern, const std::vector<std::string>& examples) {
  std::mt19937_64 rng(42);
  const std::string a = alphabet_of(pattern);
  std::vector<std::string> out = {""};
  for (int n = 0; n < 3000; ++n) {
    std::string s(rng() % 90, ' ');
    for (auto& c : s)
      c = a[rng() % a.size()];
    out.push_back(std::move(s));
  }
  for (const auto& e : examples) {
    out.push_back(e);
    for (std::size_t i = 0; i <= e.size(); ++i) {
      out.push_back(e.substr(0, i) + e.substr(std::min(i + 1, e.size())));  // deleted
      for (char c : {'0', 'g', ':', '/', '~', '\n', '\x80'}) {
        std::string ins = e;
        ins.insert(i, 1, c);  // inserted
        out.push_back(ins);
        if (i < e.size()) {
          std::string rep = e;
          rep[i] = c;  // replaced
          out.push_back(rep);
        }
      }
    }
    out.push_back(e + e);
    out.push_back("x" + e);
    out.push_back(e + "\n");
  }
  return out;
}

struct case_t {
  std::string pattern;
  std::vector<std::string> examples;
};

const std::vector<case_t>& cases() {
  static const std::vector<case_t> c = {
      // The contracts' own patterns.
      {"^sha256:[0-9a-f]{64}$", {"sha256:" + std::string(64, 'a'), "sha256:0123456789abcdef" + std::string(48, '0')}},
      {"^[0-9a-f]{64}$", {std::string(64, 'f')}},
      {"^[a-z0-9][a-z0-9_.-]*$", {"eu-ai-act-baseline", "a", "x.y_z"}},
      {"^[a-z0-9][a-z0-9_.-]*[a-z0-9]$", {"ab", "a-b", "a..b"}},
      {"^[A-Za-z0-9+/_-]+={0,2}$", {"eyJ4Ijoi-_8", "AAAA==", "QQ="}},
      {"^[a-z]+$", {"abc"}},
      {"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.([0-9]{3}|[0-9]{6}|[0-9]{9}))?Z$",
       {"2023-11-14T22:13:20Z", "2023-11-14T22:13:20.293907Z", "2023-11-14T22:13:20.123Z",
        "2023-11-14T22:13:20.123456789Z"}},
      {"^[a-z0-9][a-z0-9_.-]*@[^@:]+:[A-Za-z0-9][A-Za-z0-9_.-]*$", {"core@1.0.0:E001", "eu@1:R-1.2"}},
      {"^[^:]+:", {"urn:assay:x", "a:"}},
      {"^[^:]+$", {"run_8f3a", "r"}},
      {"^[A-Za-z0-9][A-Za-z0-9_.-]*$", {"EU12-001"}},
      {"^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$", {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}},
      {"^(/([^~/]|~[01])*)+$", {"/a", "/a~1b/~0", "/", "//"}},
      {"^(/([^~/]|~[01])*)*$", {"", "/a/b", "/~0~1"}},
      // Others: unanchored, alternation at the top, counted and lazy repeats, escapes, \d \w.
      {"ab+c", {"xabbbcx", "ac"}},
      {"a|b$", {"a", "xb", "bx"}},
      {"^(?:ab|a)*c{2,3}d?$", {"ababacc", "accc", "cccc"}},
      {"x{2,}y{0,1}z*?", {"xxyzz", "xy"}},
      {"^\\d+\\.\\w*\\/\\-$", {"12.ab_/-", "1./-"}},
      {"^[\\d_a-c]{1,3}[^\\w]$", {"1_a!", "abc "}},
      {"^[-a]+[b-]$", {"-a-", "ab"}},
      {"^\\[\\]\\{\\}\\(\\)\\^\\$\\|\\?\\*\\+\\\\$", {"[]{}()^$|?*+\\"}},
      {"(a|)+b", {"aab", "b"}},
      {"^((a*)*|b)$", {"aaaa", "b", ""}},
      {"\xc3\xa9+", {"\xc3\xa9\xc3\xa9", "\xc3"}},
      // Finite languages anchored at both ends (matched as fixed-length shapes), and near misses.
      {"^$", {"", "a"}},
      {"^a{0,3}$|^b(c|dd)?$", {"", "aaa", "bdd", "bc", "b"}},
      {"^(ab|a)(c|bc)$", {"abc", "ac", "abbc"}},
      {"^[a-c]{2,4}x?$", {"ab", "abcax", "abcabc"}},
      {"^(a|b)$|c", {"a", "xc", "ab"}},
      {"^a{300}$", {std::string(300, 'a'), std::string(299, 'a')}},
  };
  return c;
}

}  // namespace

TEST_CASE("the DFA answers as Boost.Regex does") {
  for (const auto& c : cases()) {
    CAPTURE(c.pattern);
    const auto dfa = pattern_dfa::compile(c.pattern);
    REQUIRE_MESSAGE(dfa.has_value(), "pattern outside the subset");
    const boost::regex re = assay::reflect::detail::boost_regex_of(c.pattern);
    std::size_t matches = 0, total = 0;
    for (const auto& s : inputs(c.pattern, c.examples)) {
      const bool want = boost_search(re, s);
      if (dfa->search(s) != want) {
        FAIL_CHECK("differs from Boost on \"" << s << "\" (Boost: " << want << ")");
        break;
      }
      matches += want;
      ++total;
    }
    // Both answers occur, so the comparison means something.
    for (const auto& e : c.examples) {
      CAPTURE(e);
      CHECK(boost_search(re, e) == dfa->search(e));
    }
    CHECK(matches > 0);
    CHECK(matches < total);
  }
}

TEST_CASE("constructs outside the subset are left to Boost") {
  for (const char* p :
       {".", "a.b", "\\s", "\\b", "\\1", "a{", "a{x}", "a{3,2}", "(?=a)", "(?!a)", "(?<n>a)", "[]", "[^]", "a^", "(^a)",
        "a$b", "($)", "^*", "$+", "[z-a]", "[\\d-z]", "(a", "a)", "*a", "\\u0041", "\\x41", "\\n", "[a",
        // A quantifier on a quantifier: possessive to Boost, an error in ECMA-262.
        "a*+", "x[^/]*+x+$", "a++", "a?+", "a{2}{3}", "a{2}+", "a*?+", "a+??"}) {
    CAPTURE(p);
    CHECK_FALSE(pattern_dfa::compile(p).has_value());
  }
  // match_pattern still answers them, through Boost.
  struct tag_dot {};
  CHECK(assay::reflect::match_pattern<tag_dot>("^a.c$", "abc") == assay::reflect::pattern_result::match);
  CHECK(assay::reflect::match_pattern<tag_dot>("^a.c$", "a\nc") == assay::reflect::pattern_result::no_match);
}

TEST_CASE("Boost's search does not miss a match that ends at '$'") {
  // Found by fuzz_pattern, twice: Boost's regex_search without match_results (which searches
  // with match_any) missed these matches, and found them in the subject less its first byte. A
  // pattern outside the automaton's subset would then have refused a string it matches.
  for (const std::string& subject :
       {std::string(23, 'S') + "u" + std::string(40, 'S') + "x", std::string(19, 'S') + "YSRSuSc]{2,4}/?"}) {
    CAPTURE(subject);
    struct tag_end {};
    CHECK(assay::reflect::match_pattern_boost<tag_end>("[^a-c]{2,4}/?$", subject) ==
          assay::reflect::pattern_result::match);
    struct tag_end_dot {};  // the same through a pattern only Boost answers
    CHECK(assay::reflect::match_pattern<tag_end_dot>(".?[^a-c]{2,4}/?$", subject) ==
          assay::reflect::pattern_result::match);
    // and the automaton agrees
    CHECK(pattern_dfa::compile("[^a-c]{2,4}/?$")->search(subject));
  }
  struct tag_end_newline {};  // and '$' still matches only at the very end, not before a final newline
  CHECK(assay::reflect::match_pattern<tag_end_newline>("^a.$", "ab\n") == assay::reflect::pattern_result::no_match);
  CHECK(assay::reflect::detail::ecma_to_boost("a$|[$]") == "a\\z|[$]");
}

TEST_CASE("Boost's search loop does not miss a lazy repeat before '$'") {
  // Found by fuzz_pattern: [^a6c]{2,04}?,?$ on "{uc)-c]{2,8". Boost's regex_search (with
  // match_results) found no match in a subject that matches at offset 2 ("2,8"), and matched
  // the subject "2,8" alone. Its "no" is now confirmed by a match anchored at each offset.
  using assay::reflect::pattern_result;
  for (const std::string_view subject : {"{uc)-c]{2,8", "]{2,8", "2,8"}) {
    CAPTURE(subject);
    CHECK(pattern_dfa::compile("[^a6c]{2,04}?,?$")->search(subject));
    struct tag_lazy {};
    CHECK(assay::reflect::match_pattern_boost<tag_lazy>("[^a6c]{2,04}?,?$", subject) == pattern_result::match);
    struct tag_lazy_ws {};  // a pattern only Boost answers (\s)
    CHECK(assay::reflect::match_pattern<tag_lazy_ws>("[^a6c\\s]{2,4}?,?$", subject) == pattern_result::match);
  }
  struct tag_lazy_none {};
  CHECK(assay::reflect::match_pattern<tag_lazy_none>("[^a6c\\s]{2,4}?,?$", "]{2,a") == pattern_result::no_match);
  // The anchored matches past offset 0 see the byte before them, and are not at the start.
  struct tag_caret {};
  CHECK(assay::reflect::match_pattern<tag_caret>("^b\\s?$", "ab") == pattern_result::no_match);
  CHECK(assay::reflect::match_pattern<tag_caret>("^b\\s?$", "b") == pattern_result::match);
  struct tag_word {};
  CHECK(assay::reflect::match_pattern<tag_word>("\\bb\\s?$", "ab") == pattern_result::no_match);
  CHECK(assay::reflect::match_pattern<tag_word>("\\bb\\s?$", "a b") == pattern_result::match);
  // Past search_confirm_limit bytes Boost's answer stands, so a pattern whose anchored
  // matches cost a scan each stays linear: a megabyte answers at once.
  struct tag_long {};
  CHECK(assay::reflect::match_pattern<tag_long>("(?=a)[a-z]*q", std::string(1 << 20, 'a')) == pattern_result::no_match);
  CHECK(assay::reflect::match_pattern<tag_long>("(?=a)[a-z]*q", std::string(4096, 'a')) == pattern_result::no_match);
}

TEST_CASE("escaped punctuation is the character itself, as in ECMA-262") {
  // Boost reads \' \` \< \> as assertions; ECMA-262 (and the automaton) as the characters.
  const auto quote = pattern_dfa::compile("^a\\'$");
  REQUIRE(quote.has_value());
  CHECK(quote->search("a'"));
  CHECK_FALSE(quote->search("a"));
  const auto angle = pattern_dfa::compile("\\<x\\>");
  REQUIRE(angle.has_value());
  CHECK(angle->search("<x>"));
  CHECK_FALSE(angle->search("x"));
  const auto tick = pattern_dfa::compile("^\\`$");
  REQUIRE(tick.has_value());
  CHECK(tick->search("`"));
  CHECK_FALSE(tick->search(""));
}

TEST_CASE("matching is linear: nested repeats on long input") {
  const auto dfa = pattern_dfa::compile("^(a*)*b$");
  REQUIRE(dfa.has_value());
  const std::string many(200000, 'a');
  CHECK_FALSE(dfa->search(many));
  CHECK(dfa->search(many + "b"));
  const auto ptr = pattern_dfa::compile("^(/([^~/]|~[01])*)+$");
  REQUIRE(ptr.has_value());
  std::string path;
  for (int i = 0; i < 50000; ++i)
    path += "/a~0";
  CHECK(ptr->search(path));
  CHECK_FALSE(ptr->search(path + "~"));  // "~" not followed by 0 or 1
  // The automata stay small.
  CHECK(dfa->states() < 10);
  CHECK(pattern_dfa::compile("^sha256:[0-9a-f]{64}$")->states() < 80);
}

TEST_CASE("which way a pattern is matched") {
  // Anchored at both ends with a small finite language: fixed-length shapes, counted exactly.
  const std::string date_time =
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.([0-9]{3}|[0-9]{6}|[0-9]{9}))?Z$";
  CHECK(pattern_dfa::compile("^sha256:[0-9a-f]{64}$")->shapes() == 1);
  CHECK(pattern_dfa::compile(date_time)->shapes() == 4);
  CHECK(pattern_dfa::compile("^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$")->shapes() == 1);
  CHECK(pattern_dfa::compile("^a{0,3}$|^b(c|dd)?$")->shapes() == 7);
  CHECK(pattern_dfa::compile("^$")->shapes() == 1);
  // Not finite, not anchored at both ends, or too many alternatives or bytes: the DFA.
  for (const char* p : {"^[^:]+$", "^[^:]+:", "sha256:[0-9a-f]{64}$", "^sha256:[0-9a-f]{64}", "^(a|b)$|c",
                        "^[a-z]{1,17}$", "^a{257}$", "^(a|b)(c|d)(e|f)(g|h)(i|j)$"}) {
    CAPTURE(std::string(p));
    const auto dfa = pattern_dfa::compile(p);
    REQUIRE(dfa.has_value());
    CHECK(dfa->shapes() == 0);
  }
  CHECK(pattern_dfa::compile("^(a|b)(c|d)(e|f)(g|h)$")->shapes() == 16);
  CHECK(pattern_dfa::compile("^[a-z]{1,16}$")->shapes() == 16);
  const auto digest = pattern_dfa::compile("^sha256:[0-9a-f]{64}$");
  const std::string good = "sha256:" + std::string(63, '0') + "f";
  CHECK(digest->search(good));
  CHECK_FALSE(digest->search(good + "0"));
  CHECK_FALSE(digest->search(good.substr(1)));
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = 'g';
    CAPTURE(i);
    CHECK_FALSE(digest->search(bad));
  }
  // A looping state on long input: only the last byte decides.
  const auto id = pattern_dfa::compile("^[^:]+$");
  const std::string run(100000, 'r');
  CHECK(id->search(run));
  CHECK_FALSE(id->search(run + ":"));
  CHECK_FALSE(id->search(":" + run));
  CHECK_FALSE(id->search(run.substr(0, 5000) + ":" + run));
}

TEST_CASE("an automaton past the size limits is not built") {
  // 64 copies of a 64-fold repeat: more NFA instructions than allowed.
  CHECK_FALSE(pattern_dfa::compile("^(a{64}){64}$").has_value());
  // A pattern whose unanchored DFA needs many states (a in the n-th position from the end).
  CHECK_FALSE(pattern_dfa::compile("a[ab]{14}$").has_value());
}
