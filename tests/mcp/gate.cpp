// The MCP gate (SPEC §19.2–19.4) in-process: each step of the decision in order, the deny bytes
// of the reference, every framing refusal answered and never forwarded, server lines teaching
// definitions (and list_changed forgetting them), drift against pins, limits, --dry-run, and the
// session's events in order, redacted, packed into a bundle that verifies.
#include "support.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/mcp/gate.hpp"
#include "assay/mcp/session_log.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcp = assay::mcp;
namespace ev = assay::evidence;
using assay::json::value;

namespace {

mcp::loaded_policy policy(const std::string& text) {
  auto p = mcp::load_policy(text, "p.yaml", {.allow_unenforced = true});
  REQUIRE_MESSAGE(p, (p ? std::string() : p.error().format()));
  return std::move(*p);
}

// Arguments valid unless they hold a member "bad"; the tool "broken" has a schema that fails to compile.
mcp::argument_verdict toy_check(std::string_view tool, const assay::json::document& d, std::size_t at) {
  mcp::argument_verdict v;
  if (tool == "broken")
    v.compile_error = "the keyword \"foo\" is not implemented";
  else if (at != 0 && d.find_member(at, "bad") != 0)
    v.violations.push_back({"/bad", "must not be present"});
  return v;
}

struct session {
  mcp::loaded_policy p;
  ev::recorder run;
  std::chrono::steady_clock::time_point now{};
  mcp::gate g;
  explicit session(const std::string& text, mcp::gate_options o = {})
      : p(policy(text)),
        run(ev::recorder::make(
                {.source = "urn:assay:mcp-wrap:files",
                 .run_id = "run1",
                 .clock = [] { return std::chrono::system_clock::time_point{std::chrono::seconds{1700000000}}; }})
                .value()),
        g(p, run, toy_check, with_clock(std::move(o))) {
    g.start().value();
  }
  mcp::gate_options with_clock(mcp::gate_options o) {
    o.clock = [this] { return now; };
    return o;
  }
  mcp::client_verdict client(const std::string& line) { return g.on_client_line(line).value(); }
  // The session finished, packed, verified: each event as "type subject data" (canonical data).
  std::vector<std::string> events(mcp::end_reason why = mcp::end_reason::client_eof) {
    g.finish(why).value();
    const std::string gz = run.finish().value();
    std::vector<std::string> out;
    struct collect {
      std::vector<std::string>* out;
      std::optional<assay::error> on_event(const ev::verified_event& e) {
        out->push_back(std::string(e.type) + " " + std::string(e.subject.value_or("-")) + " " +
                       (e.data != 0 ? e.doc.canonical_at(e.data) : std::string("null")));
        return std::nullopt;
      }
    } c{&out};
    const auto v = ev::verify_bundle_bytes(gz, {}, c);
    REQUIRE_MESSAGE(v, (v ? std::string() : v.error().message));
    return out;
  }
};

const char* const quickstart = R"(version: "2.0"
name: files
tools:
  allow: [read_text_file, list_directory, write_file, "search*"]
  deny: [write_file]
schemas:
  read_text_file: {type: object}
)";

std::string call(int id, const std::string& tool, const std::string& args = "{}") {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" +
         tool + "\",\"arguments\":" + args + "}}";
}

}  // namespace

TEST_CASE("initialize and tools/list pass an allow list without *; tools/call is decided") {
  session s(quickstart);
  CHECK(
      s.client(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})").forward);
  CHECK(s.client(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").forward);
  CHECK(s.client(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").forward);
  const auto allowed = s.client(call(2, "read_text_file", R"({"path":"/tmp/a"})"));
  CHECK(allowed.forward);
  REQUIRE(allowed.decided);
  CHECK(allowed.decided->reason_code == "P_POLICY_ALLOW");
  CHECK(allowed.decided->matched_rule == "tools.allow");
  CHECK(allowed.decided->match_basis == "name");

  const auto denied = s.client(call(3, "write_file"));
  CHECK_FALSE(denied.forward);
  CHECK(denied.answer ==
        R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Content blocked by policy"}],)"
        R"("isError":true,"structuredContent":{"status":"deny","error_code":"E_TOOL_DENIED","tool":"write_file",)"
        R"("reason":"Tool is explicitly denylisted by name"}}})"
        "\n");
  CHECK(denied.decided->reason_code == "P_TOOL_DENIED");
  CHECK(denied.decided->matched_rule == "tools.deny");

  const auto outside = s.client(R"({"jsonrpc":"2.0","id":"x4","method":"tools/call","params":{"name":"exec"}})");
  CHECK(outside.answer ==
        R"({"jsonrpc":"2.0","id":"x4","result":{"content":[{"type":"text","text":"Content blocked by policy"}],)"
        R"("isError":true,"structuredContent":{"status":"deny","error_code":"E_TOOL_NOT_ALLOWED","tool":"exec",)"
        R"("reason":"Tool is not in allowlist"}}})"
        "\n");
  CHECK(outside.decided->reason == "Tool is not in the allowlist");
  CHECK(outside.decided->reason_code == "P_TOOL_NOT_ALLOWED");

  const auto invalid = s.client(call(5, "read_text_file", R"({"bad":1})"));
  CHECK(invalid.answer ==
        R"({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Content blocked by policy"}],)"
        R"("isError":true,"structuredContent":{"status":"deny","error_code":"E_ARG_SCHEMA","tool":"read_text_file",)"
        R"("violations":[{"path":"/bad","message":"must not be present"}]}}})"
        "\n");
  CHECK(invalid.decided->reason_code == "P_ARG_SCHEMA");

  // No schema, unconstrained_tools warn: allowed with the warning's code.
  const auto warned = s.client(call(6, "search_files"));
  CHECK(warned.forward);
  CHECK(warned.decided->reason_code == "E_TOOL_UNCONSTRAINED");
  CHECK(warned.decided->reason == "Tool allowed but has no schema");
  CHECK(warned.decided->typed_decision == "allow_with_obligations");
  // An escaped method is the same method.
  const auto escaped =
      s.client(R"({"jsonrpc":"2.0","id":7,"method":"tools\u002fcall","params":{"name":"write_file"}})");
  CHECK_FALSE(escaped.forward);
  CHECK(escaped.decided->error_code == "E_TOOL_DENIED");
}

TEST_CASE("framing: every refusal is answered with its code, never forwarded, and recorded without the line") {
  session s(quickstart);
  struct row {
    std::string line;
    std::string answer;
  };
  const std::vector<row> rows = {
      {R"([{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file"}}])",
       R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON array: MCP has no batches"}})"},
      {R"({"id":2,"method":"tools/call","params":{"name":"write_file"}})",
       R"~({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: not JSON-RPC 2.0 (\"jsonrpc\" must be \"2.0\")"}})~"},
      {R"({"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"write_file"}})",
       R"~({"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: not JSON-RPC 2.0 (\"jsonrpc\" must be \"2.0\")"}})~"},
      {R"({"jsonrpc":"2.0","id":4,"method":"tools/call","method":"ping","params":{"name":"write_file"}})",
       R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not one JSON value: duplicate_member at byte 46"}})"},
      {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\"}}", ""},
      {R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"\ud800"}})", ""},
      {R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":7}})",
       R"~({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: params.name must be a non-empty string (the tool)"}})~"},
      {R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_text_file"}} {})", ""},
      {R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"read_text_file"}})",
       R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a tools/call needs an id"}})"},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})",
       R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an id is a string or a number"}})"},
      {R"({"jsonrpc":"2.0","id":9,"method":7})",
       R"({"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: \"method\" must be a string"}})"},
      {R"({"jsonrpc":"2.0","id":10})",
       R"({"jsonrpc":"2.0","id":10,"error":{"code":-32600,"message":"Invalid Request: neither a request, a notification nor a response"}})"},
  };
  for (const row& r : rows) {
    CAPTURE(r.line);
    const auto v = s.client(r.line);
    CHECK_FALSE(v.forward);
    CHECK_FALSE(v.decided);
    if (!r.answer.empty())
      CHECK(v.answer == r.answer + "\n");
    else
      CHECK(v.answer.find(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: )") == 0);
  }
  // A line over the limit.
  session small(quickstart, {.max_line_bytes = 64});
  const auto big = small.client(call(1, "read_text_file", R"({"path":")" + std::string(100, 'a') + "\"}"));
  CHECK(
      big.answer ==
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is longer than 64 bytes"}})"
      "\n");
  // A response from the client (to a server request) passes.
  CHECK(s.client(R"({"jsonrpc":"2.0","id":"srv-1","result":{}})").forward);
}

TEST_CASE("limits count every request; a rate-limited call is denied as ALL") {
  session s(
      "limits:\n  max_requests_total: 3\n  max_tool_calls_total: 2\nenforcement:\n  unconstrained_tools: allow\n");
  CHECK(s.client(R"({"jsonrpc":"2.0","id":0,"method":"initialize"})").forward);
  CHECK(s.client(call(1, "a")).forward);
  CHECK(s.client(call(2, "a")).forward);  // requests 3, calls 2
  const auto over = s.client(call(3, "a"));
  CHECK(over.answer ==
        R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Content blocked by policy"}],)"
        R"("isError":true,"structuredContent":{"status":"deny","error_code":"E_RATE_LIMIT"}}})"
        "\n");
  CHECK(over.decided->tool == "ALL");
  CHECK(over.decided->reason == "Rate limit exceeded (total requests)");
  CHECK(over.decided->reason_code == "P_RATE_LIMIT");
  CHECK(s.client(R"({"jsonrpc":"2.0","id":9,"method":"ping"})").forward);  // only tools/call is ever denied
}

TEST_CASE("drift: a pin needs the session's definition, and a changed description is E_TOOL_DRIFT") {
  const std::string schema = R"({"type":"object"})";
  const std::string schema_hash = assay::hash::digest_bytes<assay::hash::sha256>(schema).hex();
  const std::string meta_hash = assay::hash::digest_bytes<assay::hash::sha256>(std::string("Reads a file")).hex();
  const std::string pinned =
      "enforcement: {unconstrained_tools: allow}\ntool_pins:\n  read:\n    server_id: files\n"
      "    tool_name: read\n    schema_hash: \"" +
      schema_hash + "\"\n    meta_hash: \"" + meta_hash + "\"\n";
  session s(pinned, {.label = "files"});
  const auto unlisted = s.client(call(1, "read"));
  CHECK(unlisted.decided->error_code == "E_TOOL_DRIFT");
  CHECK(unlisted.decided->reason ==
        "Tool integrity failure: identity drifted from pinned version. (Runtime: unlisted, "
        "Pinned: files:read:" +
            schema_hash.substr(0, 8) + ")");
  CHECK(unlisted.decided->typed_decision == "deny_with_alert");
  CHECK(unlisted.answer.find(R"~("reason":"Tool metadata or schema has changed without policy update (SOTA Moat)")~") !=
        std::string::npos);
  CHECK(s.client(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})").forward);
  s.g.on_server_line(
         R"({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"read","description":"Reads a file","inputSchema":)" +
         schema + "}]}}")
      .value();
  CHECK(s.client(call(3, "read")).forward);
  s.g.on_server_line(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})").value();
  CHECK(s.client(call(4, "read")).decided->error_code == "E_TOOL_DRIFT");  // forgotten until listed again
  CHECK(s.client(R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})").forward);
  s.g.on_server_line(
         R"({"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"read","description":"Reads a file!","inputSchema":)" +
         schema + "}]}}")
      .value();
  const auto changed = s.client(call(6, "read"));
  CHECK(changed.decided->error_code == "E_TOOL_DRIFT");
  CHECK(changed.decided->reason.find("(Runtime: files:read:" + schema_hash.substr(0, 8) + ", Pinned: files:read:") !=
        std::string::npos);
  // A result that answers no tools/list teaches nothing.
  s.g.on_server_line(
         R"({"jsonrpc":"2.0","id":99,"result":{"tools":[{"name":"read","description":"Reads a file","inputSchema":)" +
         schema + "}]}}")
      .value();
  CHECK(s.client(call(7, "read")).decided->error_code == "E_TOOL_DRIFT");
}

TEST_CASE("--dry-run forwards a deny and records it as the reference does") {
  session s(quickstart, {.dry_run = true});
  const auto v = s.client(call(1, "write_file"));
  CHECK(v.forward);
  CHECK(v.would_deny);
  CHECK(v.decided->reason_code == "P_TOOL_DENIED");
}

TEST_CASE("a schema that cannot compile denies its tool only") {
  session s("schemas:\n  broken: {type: object}\n  fine: {type: object}\n");
  const auto v = s.client(call(1, "broken"));
  CHECK(v.answer.find(
            R"("error_code":"E_SCHEMA_COMPILE","tool":"broken","message":"the keyword \"foo\" is not implemented"})") !=
        std::string::npos);
  CHECK(v.decided->reason == "Declared schema failed to prepare or compile: the keyword \"foo\" is not implemented");
  CHECK(v.decided->reason_code == "P_POLICY_DENY");
  CHECK(s.client(call(2, "fine")).forward);
}

TEST_CASE("too many calls in flight: the next is answered -32000 and refused") {
  session s("enforcement: {unconstrained_tools: allow}\n", {.max_pending = 2});
  CHECK(s.client(call(1, "a")).forward);
  CHECK(s.client(call(2, "a")).forward);
  CHECK(
      s.client(call(3, "a")).answer ==
      R"~({"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Server error: too many calls in flight (2 awaiting a response)"}})~"
      "\n");
  s.g.on_server_line(R"({"jsonrpc":"2.0","id":1,"result":{"content":[]}})").value();
  CHECK(s.client(call(4, "a")).forward);
}

TEST_CASE("the session's events: in order, commitments for bodies, every call completed or unanswered") {
  session s(quickstart, {.label = "files"});
  CHECK(s.client(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").forward);
  s.g.on_server_line(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"read_text_file","description":" Reads ",)"
                     R"("inputSchema":{"type":"object"}},{"name":"list_directory"}]}})")
      .value();
  CHECK(s.client(call(2, "read_text_file", R"({"path":"/home/alice/secret.txt","_meta":{"tool_call_id":"c-1"}})"))
            .forward);
  s.now += std::chrono::milliseconds(12);
  s.g.on_server_line(
         R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"token=abc"}],"isError":true}})")
      .value();
  CHECK_FALSE(s.client(call(3, "write_file", R"({"path":"/etc/x","content":"data"})")).forward);
  CHECK(s.client(call(4, "search_files")).forward);  // never answered
  CHECK_FALSE(s.client("[1]").forward);
  const auto e = s.events(mcp::end_reason::server_exit);
  REQUIRE(e.size() == 9);
  const auto p = policy(quickstart);
  CHECK(e[0] == "assay.profile.started - {\"label\":\"files\",\"policy_digest\":\"" + p.digest +
                    "\",\"policy_name\":\"files\",\"profile_name\":\"mcp-wrap\",\"profile_version\":\"2.0\","
                    "\"total_runs_aggregated\":1}");
  const std::string def_digest =
      ev::tool_definition_digest(
          *assay::json::parse(R"({"name":"read_text_file","description":"Reads","inputSchema":{"type":"object"}})"),
          "files")
          .value();
  CHECK(e[1] ==
        "assay.mcp.tools_listed - {\"server_id\":\"files\",\"tools\":[{\"name\":\"read_text_file\","
        "\"tool_definition_digest\":\"" +
            def_digest + "\"},{\"name\":\"list_directory\",\"tool_definition_digest\":\"" +
            ev::tool_definition_digest(*assay::json::parse(R"({"name":"list_directory"})"), "files").value() + "\"}]}");
  const std::string p56a = "\"policy_digest\":\"" + p.digest +
                           "\",\"policy_snapshot_canonicalization\":\"jcs:mcp_policy\","
                           "\"policy_snapshot_digest\":\"" +
                           p.digest +
                           "\",\"policy_snapshot_digest_alg\":\"sha256\","
                           "\"policy_snapshot_schema\":\"assay.mcp.policy.snapshot.v1\",\"policy_version\":\"2.0\"";
  CHECK(e[2] ==
        "assay.tool.decision tool:read_text_file {\"decision\":\"allow\",\"match_basis\":\"name\","
        "\"matched_rule\":\"tools.allow\"," +
            p56a +
            ",\"reason_code\":\"P_POLICY_ALLOW\",\"request_id\":2,"
            "\"tool\":\"read_text_file\",\"tool_call_id\":\"c-1\",\"tool_definition_canonicalization\":"
            "\"jcs:mcp_tool_definition.v1\",\"tool_definition_digest\":\"" +
            def_digest +
            "\",\"tool_definition_digest_alg\":\"sha256\",\"tool_definition_schema\":"
            "\"assay.mcp.tool-definition.snapshot.v1\",\"tool_definition_source\":\"mcp.tools/list\","
            "\"typed_decision\":\"allow\"}");
  // The call's bodies as commitments: neither the path nor the token is in the bundle.
  CHECK(e[3].find("assay.tool.call tool:read_text_file {\"arguments\":{\"alg\":\"sha256\",\"digest\":\"sha256:") == 0);
  CHECK(e[3].find("\"call_id\":\"c-1\",\"duration_ms\":12,\"is_error\":true,\"result\":{\"alg\":\"sha256\"") !=
        std::string::npos);
  for (const std::string& x : e) {
    CHECK(x.find("alice") == std::string::npos);
    CHECK(x.find("token=abc") == std::string::npos);
    CHECK(x.find("/etc/x") == std::string::npos);
  }
  CHECK(e[4] ==
        "assay.tool.decision tool:write_file {\"decision\":\"deny\",\"match_basis\":\"name\","
        "\"matched_rule\":\"tools.deny\"," +
            p56a +
            ",\"reason\":\"Tool is explicitly denylisted by name\","
            "\"reason_code\":\"P_TOOL_DENIED\",\"request_id\":3,\"tool\":\"write_file\",\"tool_call_id\":\"req_3\","
            "\"typed_decision\":\"deny\"}");
  CHECK(e[5].find("assay.tool.decision tool:search_files {\"decision\":\"allow\"") == 0);
  CHECK(e[5].find("\"obligations\":[{\"detail\":\"E_TOOL_UNCONSTRAINED:Tool allowed but has no schema\",\"type\":"
                  "\"legacy_warning\"}]") != std::string::npos);
  CHECK(e[6] == "assay.mcp.refused - {\"code\":-32600,\"line_bytes\":3,\"line_sha256\":\"" +
                    assay::hash::digest_bytes<assay::hash::sha256>(std::string("[1]")).hex() +
                    "\",\"reason\":\"a JSON array: MCP has no batches\"}");
  // The call still pending at the end, then the end.
  CHECK(e[7].find("assay.tool.call tool:search_files {\"arguments\":{\"alg\"") == 0);
  CHECK(e[7].find("\"unanswered\":true") != std::string::npos);
  CHECK(e[8] ==
        "assay.profile.finished - {\"end_reason\":\"server_exit\",\"files_count\":0,\"network_count\":0,"
        "\"processes_count\":1,\"sandbox_degradation_count\":0}");
}

TEST_CASE("the last event is profile.finished with the end reason; --record-bodies keeps bodies") {
  session s("enforcement: {unconstrained_tools: allow}\n", {.record_bodies = true});
  CHECK(s.client(call(1, "a", R"({"q":1})")).forward);
  s.g.on_server_line(R"({"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}})").value();
  const auto e = s.events(mcp::end_reason::signal);
  REQUIRE(e.size() == 4);
  CHECK(e[2] ==
        "assay.tool.call tool:a {\"arguments\":{\"q\":1},\"call_id\":\"req_1\",\"duration_ms\":0,"
        "\"is_error\":true,\"result\":{\"code\":-1,\"message\":\"no\"},\"tool\":\"a\"}");
  CHECK(e[3] ==
        "assay.profile.finished - {\"end_reason\":\"signal\",\"files_count\":0,\"network_count\":0,"
        "\"processes_count\":1,\"sandbox_degradation_count\":0}");
}

TEST_CASE("the policy's schemas through the validator: the reference quickstart's path rule") {
  const auto p = policy(R"(version: "2.0"
name: mcp-quickstart
tools:
  allow: [read_file]
schemas:
  read_file:
    type: object
    additionalProperties: false
    properties:
      path: {type: string, pattern: "^/tmp/assay-demo/.*", minLength: 1}
    required: [path]
  broken:
    type: object
    minimumm: 1
)");
  const mcp::argument_schemas schemas(p);
  const auto failures = schemas.failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].first == "broken");
  CHECK(failures[0].second.message.find("\"minimumm\" is not implemented") != std::string::npos);
  auto run = ev::recorder::make({.source = "urn:assay:mcp-wrap:q"}).value();
  mcp::gate g(p, run, schemas);
  g.start().value();
  CHECK(g.on_client_line(call(1, "read_file", R"({"path":"/tmp/assay-demo/a.txt"})"))->forward);
  const auto outside = g.on_client_line(call(2, "read_file", R"({"path":"/etc/passwd"})")).value();
  CHECK_FALSE(outside.forward);
  REQUIRE(outside.decided);
  CHECK(outside.decided->error_code == "E_ARG_SCHEMA");
  REQUIRE(outside.decided->violations.size() == 1);
  CHECK(outside.decided->violations[0].path == "/path");
  CHECK(outside.answer.find(R"("violations":[{"path":"/path","message":")") != std::string::npos);
  CHECK(outside.answer.find("/etc/passwd") == std::string::npos);  // never an argument's value
  const auto none =
      g.on_client_line(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file"}})").value();
  CHECK(none.decided->error_code == "E_ARG_SCHEMA");  // absent arguments are null: not an object
  // 200 KB against ^/tmp/assay-demo/.* is linear: decided, not a crash.
  const auto big =
      g.on_client_line(call(4, "read_file", R"({"path":"/tmp/assay-demo/)" + std::string(200000, 'a') + "\"}")).value();
  CHECK(big.forward);
}

TEST_CASE("a session past its parts' event limit goes on in the next bundle: each a run of its own, verified") {
  assay_test::temp_dir dir;
  const auto p = policy("version: \"2.0\"\nname: roll\ntools:\n  allow: [echo]\n");
  auto log = mcp::session_log::open(
      {.bundle = dir.path + "/s.tar.gz", .recorder = {.source = "urn:assay:mcp-wrap:t"}, .max_events = 5});
  REQUIRE_MESSAGE(log, (log ? std::string() : log.error().format()));
  CHECK(log->journal_path() == dir.path + "/s.journal");
  mcp::basic_gate<mcp::session_log> g(p, *log, toy_check);
  g.start().value();
  for (int i = 1; i <= 6; ++i)
    CHECK(g.on_client_line(call(i, "echo", R"({"text":"x"})"))->forward);
  g.finish(mcp::end_reason::client_eof).value();
  REQUIRE(log->finish());
  const std::vector<std::string> parts = {dir.path + "/s.tar.gz", dir.path + "/s.2.tar.gz", dir.path + "/s.3.tar.gz",
                                          dir.path + "/s.4.tar.gz"};
  CHECK(log->bundles() == parts);
  std::vector<std::string> run_ids;
  for (std::size_t n = 0; n < parts.size(); ++n) {
    CAPTURE(parts[n]);
    CHECK_FALSE(std::filesystem::exists(mcp::part_path(dir.path + "/s.journal", n + 1, ".journal")));
    struct collect {
      std::vector<std::string> lines;
      std::optional<assay::error> on_event(const ev::verified_event& e) {
        lines.push_back(std::string(e.type) + " " + (e.data != 0 ? e.doc.canonical_at(e.data) : std::string()));
        return std::nullopt;
      }
    } c;
    const auto v = ev::verify_bundle_file(parts[n], {}, c);
    REQUIRE_MESSAGE(v, (v ? std::string() : v.error().message));
    run_ids.push_back(v->run_id);
    REQUIRE(c.lines.size() == 5);
    CHECK(c.lines.front().starts_with("assay.profile.started "));
    CHECK(c.lines.front().find(",\"part\":" + std::to_string(n + 1) + ",") != std::string::npos);
    CHECK(c.lines.front().find("\"session\":\"" + run_ids.front() + "\"") != std::string::npos);
    const std::string& last = c.lines.back();
    CHECK(last.starts_with("assay.profile.finished "));
    if (n + 1 < parts.size()) {
      CHECK(last.find("\"end_reason\":\"rollover\"") != std::string::npos);
      CHECK(last.find("\"next_part\":" + std::to_string(n + 2)) != std::string::npos);
    } else {
      CHECK(last.find("\"end_reason\":\"client_eof\"") != std::string::npos);
    }
  }
  // Parts 1 and 2: the six decisions; 3 and 4: the six calls left unanswered.
  CHECK(std::set<std::string>(run_ids.begin(), run_ids.end()).size() == 4);
}

TEST_CASE("part paths: the suffix kept last") {
  CHECK(mcp::part_path("s.tar.gz", 1, ".tar.gz") == "s.tar.gz");
  CHECK(mcp::part_path("d/s.tar.gz", 2, ".tar.gz") == "d/s.2.tar.gz");
  CHECK(mcp::part_path("d/session", 3, ".tar.gz") == "d/session.3");
  CHECK(mcp::part_path("j.journal", 12, ".journal") == "j.12.journal");
}
