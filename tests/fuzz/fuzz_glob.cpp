// libFuzzer target: the event-type globs of lint (assay/lint/glob.hpp, SPEC §11).
//
// Every input is compiled whole as a glob (any bytes, any length): the automaton never has more
// than glob::max_states states, and matching the input itself as a subject terminates. Then the
// input is read as a pattern (up to the first newline, at most 24 bytes) and subjects (the rest,
// split at newlines, each at most 16 bytes), both repeated 1 to 6 times: for a pattern that
// compiles, the automaton must
// answer as a plain backtracking matcher over the same parsed tokens does (the parse itself is
// held to the reference by the oracle differential of tests/lint/engine_reference.cpp). Any
// disagreement aborts.
#include "assay/lint/glob.hpp"

#include "fuzz_fail.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace {

using assay::lint::glob;
using assay::lint::glob_status;
using token = glob::token;
using kind = token::kind;

// Answers already found, by (token list, index, subject offset): an alternative's tokens are
// always followed by the same rest, so the three decide the answer.
std::map<std::tuple<const void*, std::size_t, std::size_t>, bool>* memo = nullptr;

bool backtrack_once(const std::vector<token>& t, std::size_t i, std::string_view s, std::size_t j,
                    const std::function<bool(std::size_t)>& rest);

// Whether s[j..] matches tokens[i..] followed by `rest` (the tokens after an alternative).
bool backtrack(const std::vector<token>& t, std::size_t i, std::string_view s, std::size_t j,
               const std::function<bool(std::size_t)>& rest) {
  const auto key = std::make_tuple(static_cast<const void*>(&t), i, j);
  if (auto at = memo->find(key); at != memo->end())
    return at->second;
  const bool r = backtrack_once(t, i, s, j, rest);
  memo->emplace(key, r);
  return r;
}

bool backtrack_once(const std::vector<token>& t, std::size_t i, std::string_view s, std::size_t j,
                    const std::function<bool(std::size_t)>& rest) {
  if (i == t.size())
    return rest(j);
  const token& k = t[i];
  auto then = [&](std::size_t at) { return backtrack(t, i + 1, s, at, rest); };
  auto any_run_then = [&](std::size_t from, const std::function<bool(std::size_t)>& next) {
    for (std::size_t e = from; e <= s.size(); ++e)
      if (next(e))
        return true;
    return false;
  };
  auto slash_at = [&](std::size_t at) { return at < s.size() && s[at] == '/'; };
  switch (k.type) {
    case kind::bytes:
      return s.substr(j, k.text.size()) == k.text && then(j + k.text.size());
    case kind::one_of: {
      if (j >= s.size())
        return false;
      const auto c = static_cast<unsigned char>(s[j]);
      return ((k.set[c >> 6] >> (c & 63)) & 1) != 0 && then(j + 1);
    }
    case kind::any_run:
      return any_run_then(j, then);
    case kind::prefix_run:  // empty, or any run then '/'
      return then(j) || any_run_then(j, [&](std::size_t e) { return slash_at(e) && then(e + 1); });
    case kind::suffix_run:  // '/' then any run
      return slash_at(j) && any_run_then(j + 1, then);
    case kind::middle_run:  // '/', then empty or any run then '/'
      return slash_at(j) &&
             (then(j + 1) || any_run_then(j + 1, [&](std::size_t e) { return slash_at(e) && then(e + 1); }));
    case kind::alternatives:
      if (k.alts.empty())
        return then(j);
      for (const auto& alt : k.alts)
        if (backtrack(alt, 0, s, j, then))
          return true;
      return false;
    case kind::nothing:
      return then(j);
  }
  return false;
}

bool reference_match(const glob::parsed& p, std::string_view s) {
  if (p.everything)
    return true;
  std::map<std::tuple<const void*, std::size_t, std::size_t>, bool> answers;
  memo = &answers;
  return backtrack(p.tokens, 0, s, 0, [&](std::size_t j) { return j == s.size(); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);

  // 1. The whole input as a glob: bounded, and matching terminates.
  {
    const auto g = glob::build(in);
    if ((g.status == glob_status::ok) != g.glob.has_value())
      fuzz::fail("fuzz_glob", "status and automaton disagree", in);
    if (g.glob) {
      if (g.glob->states() > glob::max_states)
        fuzz::fail("fuzz_glob", "automaton over the bound", in);
      (void)g.glob->matches(in);
    }
  }

  // 2. A small pattern and subjects, each repeated R times (R from the input's length, 1 to 6, so
  // that automata of more than 64 positions are compared too): the automaton answers as
  // backtracking does.
  const std::size_t nl = in.find('\n');
  if (nl == std::string_view::npos || nl > 24)
    return 0;
  const std::size_t times = 1 + size % 6;
  std::string pattern;
  for (std::size_t k = 0; k < times; ++k)
    pattern += in.substr(0, nl);
  const auto parsed = glob::parse(pattern);
  const auto g = glob::build(pattern);
  if (parsed.status != g.status)
    fuzz::fail("fuzz_glob", "parse and build disagree on the status", pattern);
  if (!g.glob)
    return 0;
  std::string_view rest = in.substr(nl + 1);
  for (int n = 0; n < 16; ++n) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    std::string subject;
    for (std::size_t k = 0; k < times; ++k)
      subject += line;
    if (line.size() <= 16) {
      const bool want = reference_match(parsed, subject);
      if (g.glob->matches(subject) != want)
        fuzz::fail("fuzz_glob", want ? "automaton missed a match" : "automaton matched wrongly",
                   pattern + " | " + subject);
    }
    if (end == std::string_view::npos)
      break;
    rest = rest.substr(end + 1);
  }
  return 0;
}
