// libFuzzer target: the MCP gate's policy reader (assay/mcp/policy.hpp, assay/mcp/check.hpp).
//
// Every input is read as a policy file (YAML, JSON included), loaded with and without
// allow_unenforced and checked as `assay mcp check` checks it (each argument schema compiled).
// Then, for a policy that loads:
// - loading is deterministic: the same text gives the same digest;
// - the loaded model is a fixed point: its canonical JSON, read back as a policy, loads to the
//   same digest (a v1 policy migrated, legacy lists merged and defaults filled in once, not twice);
// - an error names a position inside the text, or none;
// - tool names made from the policy's own patterns and the input's lines are decided without a
//   crash, and a name a deny pattern matches is never allowed.
// Any broken property aborts.
#include "assay/mcp/check.hpp"
#include "assay/mcp/gate.hpp"
#include "assay/mcp/policy.hpp"

#include "fuzz_fail.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace mcp = assay::mcp;

void check_positions(const assay::errors& errs, std::string_view text) {
  for (const assay::error& e : errs)
    if (e.message.empty() || (e.has_position() && e.offset > text.size()))
      fuzz::fail("fuzz_mcp_policy", "an error without a message or placed outside the text", e.format(), 400);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  (void)mcp::load_policy(text, "fuzz.yaml");
  const auto c = mcp::check_policy(text, "fuzz.yaml", {.allow_unenforced = true});
  const auto p = mcp::load_policy(text, "fuzz.yaml", {.allow_unenforced = true});
  if (!p) {
    check_positions(p.error(), text);
    if (c)
      fuzz::fail("fuzz_mcp_policy", "check_policy accepted what load_policy refused", text);
    return 0;
  }
  if (!c)
    check_positions(c.error(), text);
  else if (c->policy.digest != p->digest)
    fuzz::fail("fuzz_mcp_policy", "check_policy and load_policy disagree on the digest", text);

  // A fixed point: the model, as canonical JSON, loads to itself.
  const auto bytes = assay::encode(p->model);
  if (!bytes)
    fuzz::fail("fuzz_mcp_policy", "a loaded model does not encode", bytes.error().front().message);
  const auto again = mcp::load_policy(*bytes, "again.json", {.allow_unenforced = true});
  if (!again)
    fuzz::fail("fuzz_mcp_policy", "the loaded model does not load", *bytes + " | " + again.error().format());
  if (again->digest != p->digest)
    fuzz::fail("fuzz_mcp_policy", "the loaded model loads to another digest", *bytes);

  // Decisions over names from the policy's own patterns (each literal, and with a byte before and
  // after) and the input's first lines: a denied name is never allowed.
  const mcp::argument_schemas schemas(*p);
  const auto line = assay::json::document::parse(R"({"path":"/tmp/a"})").value();
  std::vector<std::string> names;
  for (const auto* list : {&p->allow, &p->deny})
    for (const mcp::tool_pattern& t : *list)
      for (const std::string& n : {t.literal(), "x" + t.literal(), t.literal() + "x", "x" + t.literal() + "x"})
        if (names.size() < 64)
          names.push_back(n);
  std::string_view rest = text;
  for (int n = 0; n < 8 && !rest.empty(); ++n) {
    const std::size_t end = rest.find('\n');
    names.emplace_back(rest.substr(0, std::min<std::size_t>(end, 64)));
    if (end == std::string_view::npos)
      break;
    rest = rest.substr(end + 1);
  }
  for (const std::string& name : names) {
    mcp::session_state s;
    const mcp::decision d = mcp::decide(*p, s, name, line, 0, schemas);
    if (d.allow && mcp::detail::any_matches(p->deny, name))
      fuzz::fail("fuzz_mcp_policy", "a name the deny list matches was allowed", name);
    if (d.allow == (d.typed_decision == "deny" || d.typed_decision == "deny_with_alert"))
      fuzz::fail("fuzz_mcp_policy", "allow and the typed decision disagree", name);
  }
  return 0;
}
