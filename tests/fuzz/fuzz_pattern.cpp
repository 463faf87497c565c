// libFuzzer target: ECMA-262 patterns as automata (reflect/pattern.hpp) against Boost.Regex.
//
// The first byte chooses what the rest of the input is:
//   - even: a subject string, matched against one of the patterns the contracts use (the next
//     byte picks which). These run on the fixed-length shapes, the looping-state scan or the
//     plain DFA, so each of the three is held to Boost's answer on arbitrary bytes;
//   - odd: a pattern (up to the first newline, at most 48 bytes of printable ASCII) and a
//     subject (the rest, at most 512 arbitrary bytes). A pattern that compiles to an
//     automaton must answer as Boost does.
// Boost is the reference the automaton replaced; a pattern Boost refuses or finds too complex
// is skipped, and so is one with an escape that Boost reads unlike ECMA-262 (\' is the end of
// the buffer to Boost, a quote to ECMA-262 and the automaton). Any disagreement aborts.
#include "assay/reflect/regex.hpp"
#include "assay/reflect/pattern.hpp"

#include <boost/regex.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

using assay::reflect::pattern_dfa;

const char* const contract_patterns[] = {
    "^sha256:[0-9a-f]{64}$",
    "^[0-9a-f]{64}$",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.([0-9]{3}|[0-9]{6}|[0-9]{9}))?Z$",
    "^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$",
    "^[^:]+$",
    "^[^:]+:",
    "^[a-z0-9][a-z0-9_.-]*$",
    "^[a-z0-9][a-z0-9_.-]*[a-z0-9]$",
    "^[A-Za-z0-9+/_-]+={0,2}$",
    "^[a-z0-9][a-z0-9_.-]*@[^@:]+:[A-Za-z0-9][A-Za-z0-9_.-]*$",
    "^(/([^~/]|~[01])*)+$",
    "^a{0,3}$|^b(c|dd)?$",
};
constexpr std::size_t contract_count = sizeof(contract_patterns) / sizeof(contract_patterns[0]);

// Boost's answer, or nothing when it refuses the pattern or gives up on the subject.
std::optional<bool> boost_answer(std::string_view pattern, std::string_view subject) {
  try {
    return assay::reflect::detail::boost_search(assay::reflect::detail::boost_regex_of(pattern), subject);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Escapes Boost reads as assertions (start and end of buffer, start and end of word) where
// ECMA-262 reads the character itself, as the automaton does: Boost is no reference there.
bool boost_reads_differently(std::string_view pattern) {
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\')
      continue;
    const char e = pattern[++i];
    if (e == '`' || e == '\'' || e == '<' || e == '>')
      return true;
  }
  return false;
}

void check(std::string_view pattern, std::string_view subject) {
  if (boost_reads_differently(pattern))
    return;
  const auto dfa = pattern_dfa::compile(pattern);
  if (!dfa)
    return;
  const auto want = boost_answer(pattern, subject);
  if (!want)
    return;
  if (dfa->search(subject) != *want) {
    std::fprintf(stderr, "pattern %.*s on a subject of %zu bytes: automaton %d, Boost %d\n",
                 static_cast<int>(pattern.size()), pattern.data(), subject.size(), !*want, *want);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2)
    return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 1) == 0) {
    check(contract_patterns[static_cast<unsigned char>(in[0]) % contract_count], in.substr(1));
    return 0;
  }
  const std::size_t nl = in.find('\n');
  if (nl == std::string_view::npos || nl > 48)
    return 0;
  // Printable ASCII patterns only: Boost mishandles a NUL inside a class, and high bytes in a
  // pattern go through its locale. Subjects stay arbitrary bytes.
  for (std::size_t i = 0; i < nl; ++i)
    if (in[i] < 0x20 || in[i] > 0x7E)
      return 0;
  const std::string_view subject = in.substr(nl + 1);
  if (subject.size() > 512)
    return 0;
  check(in.substr(0, nl), subject);
  return 0;
}
