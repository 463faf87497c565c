// libFuzzer target: a soak's shards put back together (soak/merge.hpp) and the shard a report's
// suite records (soak/engine.hpp) — what `assay sim merge` reads from files other machines wrote.
//
// The first byte chooses what the rest is:
//   even  a suite: when parse_shard_suite reads a shard from it, shard_suite writes the same
//         text back from what it read (the one spelling: digits without leading zeros);
//   odd   shard reports separated by NUL bytes (at most 8), each decoded as soak-report-v1;
//         when all decode, merge never crashes, hangs or allocates by what a report claims; a
//         merge that succeeds writes a report that keeps its contract, holds every run of every
//         shard, and is byte-equal whatever order the shards come in.
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/soak/engine.hpp"
#include "assay/soak/merge.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace soak = assay::soak;
namespace contracts = assay::contracts;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_merge", what, detail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > (1u << 20))
    return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 1) == 0) {
    const auto parsed = soak::parse_shard_suite(in);
    if (parsed) {
      if (parsed->shard.count == 0 || parsed->shard.index >= parsed->shard.count)
        fail("a shard outside its count was read", in);
      if (soak::shard_suite(parsed->suite, parsed->shard) != in)
        fail("the suite is not written back as it was read", in);
    }
    return 0;
  }
  std::vector<contracts::soak_report> shards;
  std::size_t at = 0;
  while (at <= in.size() && shards.size() < 8) {
    const std::size_t nul = in.find('\0', at);
    const std::string_view text = in.substr(at, nul == std::string_view::npos ? std::string_view::npos : nul - at);
    auto r = assay::decode<contracts::soak_report>(text);
    if (!r)
      return 0;
    shards.push_back(std::move(*r));
    if (nul == std::string_view::npos)
      break;
    at = nul + 1;
  }
  soak::merge_options mo;
  mo.generated_at = "2026-01-01T00:00:00Z";
  mo.assay_version = "fuzz";
  const auto m = soak::merge(shards, mo);
  if (!m) {
    if (m.error().message.empty())
      fail("a refusal without a message");
    return 0;
  }
  const auto text = assay::encode(m->report);
  if (!text)
    fail("the merged report breaks its contract", text.error().front().message);
  std::size_t runs = 0;
  for (const auto& s : shards)
    runs += s.runs ? s.runs->size() : 0;
  if (!m->report.runs || m->report.runs->size() != runs)
    fail("the merged report does not hold every shard's runs");
  std::vector<contracts::soak_report> reversed(shards.rbegin(), shards.rend());
  const auto again = soak::merge(reversed, mo);
  if (!again)
    fail("the same shards in another order are refused", again.error().message);
  const auto text_again = assay::encode(again->report);
  if (!text_again || *text_again != *text)
    fail("the merge depends on the order of the shards");
  return 0;
}
