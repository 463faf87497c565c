// libFuzzer target: the MCP gate's framing machine (assay/mcp/gate.hpp) over any lines.
//
// The input is split at newlines into at most 64 lines; a line that starts with '>' is the
// server's (the rest of it), any other the client's. One gate, under a fixed policy (an allow
// list, a deny list, a schema with a pattern, a call limit), small line and in-flight bounds,
// reads them in order. For every client line:
// - forwarded: it is one strict JSON object with "jsonrpc":"2.0", and a tools/call among them
//   was decided allow for a tool no deny pattern matches (nothing unparsed reaches the server);
// - answered: the answer is one JSON-RPC 2.0 response line with the line's id or null, and a
//   refusal's text holds nothing of the line (the marker SECRET42, where the line has it).
// At the end the session is finished and packed, and the bundle verifies.
// Any broken property aborts.
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/mcp/gate.hpp"

#include "fuzz_fail.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

namespace mcp = assay::mcp;
namespace json = assay::json;

const char* const policy_text = R"(version: "2.0"
name: fuzz
tools:
  allow: ["read_file", "list_*", "*_info"]
  deny: ["write_file", "*delete*"]
schemas:
  read_file:
    type: object
    properties:
      path: {type: string, pattern: "^/tmp/"}
    required: [path]
    additionalProperties: false
limits:
  max_tool_calls_total: 40
)";

const mcp::loaded_policy& policy() {
  static const mcp::loaded_policy p = mcp::load_policy(policy_text, "fuzz.yaml").value();
  return p;
}

const mcp::argument_schemas& schemas() {
  static const mcp::argument_schemas s(policy());
  return s;
}

constexpr std::string_view marker = "SECRET42";

void check_forwarded(std::string_view line, const mcp::client_verdict& v) {
  json::limits lim;
  lim.max_input_bytes = 4096;
  const auto d = json::document::parse(line, lim);
  if (!d || d->root().kind != json::kind::object)
    fuzz::fail("fuzz_mcp_gate", "forwarded a line that is not one strict JSON object", line);
  const auto [jsonrpc, method, params] = d->find_members<3>(0, {"jsonrpc", "method", "params"});
  if (jsonrpc == 0 || d->nodes()[jsonrpc].kind != json::kind::string || d->string_at(jsonrpc) != "2.0")
    fuzz::fail("fuzz_mcp_gate", "forwarded a line without \"jsonrpc\":\"2.0\"", line);
  if (method == 0 || d->nodes()[method].kind != json::kind::string || d->string_at(method) != "tools/call")
    return;
  if (!v.decided || !v.decided->allow)
    fuzz::fail("fuzz_mcp_gate", "forwarded a tools/call that was not decided allow", line);
  const std::size_t name = params != 0 ? d->find_member(params, "name") : 0;
  if (name == 0 || d->nodes()[name].kind != json::kind::string)
    fuzz::fail("fuzz_mcp_gate", "forwarded a tools/call without a string name", line);
  if (mcp::detail::any_matches(policy().deny, d->string_at(name)))
    fuzz::fail("fuzz_mcp_gate", "forwarded a call of a denied tool", line);
}

void check_answered(std::string_view line, const mcp::client_verdict& v) {
  if (v.answer.empty() || v.answer.back() != '\n')
    fuzz::fail("fuzz_mcp_gate", "neither forwarded nor answered with a line", line);
  const auto a = json::document::parse(std::string_view(v.answer).substr(0, v.answer.size() - 1));
  if (!a || a->root().kind != json::kind::object)
    fuzz::fail("fuzz_mcp_gate", "the answer is not one JSON object", v.answer);
  const auto [jsonrpc, id, result, error] = a->find_members<4>(0, {"jsonrpc", "id", "result", "error"});
  if (jsonrpc == 0 || a->string_at(jsonrpc) != "2.0" || id == 0 || (result == 0) == (error == 0))
    fuzz::fail("fuzz_mcp_gate", "the answer is not a JSON-RPC 2.0 response", v.answer);
  if (!v.refusal.empty() && line.find(marker) != std::string_view::npos && v.refusal.find(marker) != std::string::npos)
    fuzz::fail("fuzz_mcp_gate", "a refusal holds the line's text", v.refusal);
}

struct accept_all {
  std::optional<assay::error> on_event(const assay::evidence::verified_event&) { return std::nullopt; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  auto run = assay::evidence::recorder::make(
                 {.source = "urn:assay:mcp-wrap:fuzz",
                  .run_id = "fuzz",
                  .clock = [] { return std::chrono::system_clock::time_point{std::chrono::seconds{1700000000}}; }})
                 .value();
  mcp::gate g(policy(), run, schemas(), {.label = "fuzz", .max_line_bytes = 4096, .max_pending = 8, .clock = [] {
                                           return std::chrono::steady_clock::time_point{};
                                         }});
  if (!g.start())
    fuzz::fail("fuzz_mcp_gate", "the gate did not start");

  std::string_view rest = in;
  for (int n = 0; n < 64 && !rest.empty(); ++n) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    if (!line.empty() && line.front() == '>') {
      if (!g.on_server_line(line.substr(1)))
        fuzz::fail("fuzz_mcp_gate", "a server line failed the gate", line);
    } else {
      const auto v = g.on_client_line(line);
      if (!v)
        fuzz::fail("fuzz_mcp_gate", "a client line failed the gate", v.error().message);
      if (v->forward)
        check_forwarded(line, *v);
      else
        check_answered(line, *v);
    }
    if (end == std::string_view::npos)
      break;
    rest = rest.substr(end + 1);
  }

  if (!g.finish(mcp::end_reason::client_eof))
    fuzz::fail("fuzz_mcp_gate", "the session did not finish");
  const auto gz = run.finish();
  if (!gz)
    fuzz::fail("fuzz_mcp_gate", "the session did not pack", gz.error().message);
  const auto verified = assay::evidence::verify_bundle_bytes(*gz, {}, accept_all{});
  if (!verified)
    fuzz::fail("fuzz_mcp_gate", "the session's bundle does not verify", verified.error().message);
  return 0;
}
