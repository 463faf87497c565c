// assay/mcp/gate.hpp — the MCP gate (docs/mcp.md): a state machine over MCP stdio
// lines that decides every tools/call before it runs and records the session as evidence.
//
//   auto c = assay::mcp::check_policy(text, "policy.yaml");  // mcp/check.hpp: the policy and its schemas
//   assay::mcp::gate g(c->policy, run, c->schemas, {.label = "files"});  // run: an evidence::recorder
//   g.start();                                              // assay.profile.started
//   auto v = g.on_client_line(line);                        // forward the line, or answer it
//   if (v->forward) send_to_server(line); else send_to_client(v->answer);
//   g.on_server_line(line);                                 // always forwarded, byte for byte
//   g.finish(assay::mcp::end_reason::client_eof);            // unanswered calls, profile.finished
//
// It has no threads, processes or I/O of its own: `assay mcp wrap` drives it between a client
// and a server process, and a C++ MCP server embeds it in-process with the same decisions, deny
// bytes and events. Every event is appended to the log before the line it concerns is forwarded
// or answered; an append that fails makes the call, and every later one, fail closed.
#pragma once

#include "assay/contracts/payloads.hpp"
#include "assay/error.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/tool_definition.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/mcp/policy.hpp"
#include "assay/mcp/schema.hpp"
#include "assay/mcp/schema_options.hpp"
#include "assay/version.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::mcp {

// --- tool identity (pins) and the session's definitions ---------------------------------------------

struct tool_identity {
  std::string server_id, tool_name, schema_hash, meta_hash;
  friend bool operator==(const tool_identity&, const tool_identity&) = default;
  // <server_id>:<tool_name>:<first 8 hex of schema_hash>
  std::string fingerprint() const { return server_id + ":" + tool_name + ":" + schema_hash.substr(0, 8); }
};

namespace detail {

inline std::string sha256_hex(std::string_view bytes) {
  return hash::digest_bytes<hash::sha256>(bytes).hex();
}

// The input schema of a definition: inputSchema, else input_schema (nullptr when neither).
inline const json::value* input_schema_of(const json::value& def) {
  if (const json::value* s = def.find("inputSchema"))
    return s;
  return def.find("input_schema");
}

}  // namespace detail

// The identity a pin is compared with: the label, the name, the hex sha256 of the JCS of the
// input schema (of the bytes `null` when it has none), of the description's bytes as sent (of ""
// when absent or not a string).
inline tool_identity identity_of(const json::value& def, std::string_view server_id) {
  tool_identity id;
  id.server_id = std::string(server_id);
  if (const json::value* n = def.find("name"); n != nullptr && n->is_string())
    id.tool_name = n->as_string();
  const json::value* schema = detail::input_schema_of(def);
  id.schema_hash = detail::sha256_hex(schema != nullptr ? json::to_canonical(*schema).value() : std::string("null"));
  const json::value* d = def.find("description");
  id.meta_hash = detail::sha256_hex(d != nullptr && d->is_string() ? std::string_view(d->as_string()) : "");
  return id;
}

// A tool as the session knows it from the server's last tools/list.
struct known_tool {
  json::value definition;
  tool_identity identity;
  std::optional<std::string> digest;  // P56b, server-scoped (absent: no object input schema)
};

// --- decisions --------------------------------------------------------------------------------------

// What validating one call's arguments found: nothing wrong, the violations, or why the tool's
// schema could not be compiled.
struct argument_verdict {
  std::vector<schema_violation> violations;
  std::optional<std::string> compile_error;
};

// Validates a tools/call's arguments (the node `at` of the line's document; `at` 0 when the call
// has none: arguments are then null) against the schema of `tool`; called only for a tool that
// has one (loaded_policy::schemas).
using argument_checker =
    std::function<argument_verdict(std::string_view tool, const json::document& line, std::size_t at)>;

// The policy's argument schemas, compiled once (the others keep working when one cannot be):
// the gate's argument_checker, and what `assay mcp check` reports.
class argument_schemas {
 public:
  explicit argument_schemas(const loaded_policy& p, const schema_options& o = {})
      : compiled_(std::make_shared<std::map<std::string, result<compiled_schema>, std::less<>>>()) {
    for (const auto& [tool, schema] : p.schemas)
      compiled_->emplace(tool, compile_schema(schema, o));
  }

  // Each tool whose schema does not compile, with why (in tool order).
  std::vector<std::pair<std::string, error>> failures() const {
    std::vector<std::pair<std::string, error>> out;
    for (const auto& [tool, c] : *compiled_)
      if (!c)
        out.emplace_back(tool, c.error());
    return out;
  }

  argument_verdict operator()(std::string_view tool, const json::document& line, std::size_t at) const {
    argument_verdict v;
    const auto it = compiled_->find(tool);
    if (it == compiled_->end())
      return v;
    if (!it->second) {
      v.compile_error = it->second.error().message;
      return v;
    }
    v.violations = at != 0 ? it->second->validate(line, at) : it->second->validate(json::value(nullptr));
    return v;
  }

 private:
  std::shared_ptr<std::map<std::string, result<compiled_schema>, std::less<>>> compiled_;
};

struct obligation {
  std::string type, detail;
};

// One tools/call decided (docs/mcp.md).
struct decision {
  bool allow = true;
  std::string tool;           // the tool, or "ALL" for a rate limit
  std::string error_code;     // E_…: the deny's, or the warning's on an allow (E_TOOL_UNCONSTRAINED)
  std::string reason_code;    // P_POLICY_ALLOW, P_TOOL_DENIED, …, or the warning's code
  std::string reason;         // the event's text ("" on a plain allow)
  std::string answer_reason;  // the deny result's text (the reference's contract text)
  std::optional<std::string> matched_rule, match_basis;
  std::string typed_decision = "allow";      // allow | allow_with_obligations | deny | deny_with_alert
  std::vector<schema_violation> violations;  // E_ARG_SCHEMA
  std::vector<obligation> obligations;
  std::vector<std::string> unenforced;  // the obligations recorded skipped (their types)
};

// The session's counts and definitions, which decisions read.
struct session_state {
  std::uint64_t requests = 0, tool_calls = 0;
  std::map<std::string, known_tool, std::less<>> tools;  // by name, from the last tools/list results
};

namespace detail {

inline bool any_matches(const std::vector<tool_pattern>& list, std::string_view name) {
  for (const tool_pattern& p : list)
    if (p.matches(name))
      return true;
  return false;
}

inline std::vector<std::string> matched_classes(std::span<const std::string> tool_classes,
                                                const std::vector<std::string>& configured) {
  std::vector<std::string> out;
  for (const std::string& c : configured)
    if (std::find(tool_classes.begin(), tool_classes.end(), c) != tool_classes.end())
      out.push_back(c);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

inline void set_match(decision& d, bool by_name, bool by_class, const char* name_rule, const char* class_rule) {
  if (by_name && by_class) {
    d.match_basis = "name+class";
    d.matched_rule = std::string(name_rule) + "+" + class_rule;
  } else if (by_name) {
    d.match_basis = "name";
    d.matched_rule = name_rule;
  } else if (by_class) {
    d.match_basis = "class";
    d.matched_rule = class_rule;
  }
}

inline decision deny(std::string tool, std::string code, std::string reason, std::string answer_reason = {}) {
  decision d;
  d.allow = false;
  d.tool = std::move(tool);
  d.error_code = std::move(code);
  d.reason = std::move(reason);
  d.answer_reason = answer_reason.empty() ? d.reason : std::move(answer_reason);
  d.typed_decision = "deny";
  return d;
}

inline std::string reason_code_of(const decision& d) {
  if (d.allow)
    return d.error_code.empty() ? "P_POLICY_ALLOW" : d.error_code;
  static constexpr std::pair<std::string_view, std::string_view> codes[] = {
      {"E_TOOL_DENIED", "P_TOOL_DENIED"},
      {"E_TOOL_NOT_ALLOWED", "P_TOOL_NOT_ALLOWED"},
      {"E_ARG_SCHEMA", "P_ARG_SCHEMA"},
      {"E_RATE_LIMIT", "P_RATE_LIMIT"},
      {"E_TOOL_DRIFT", "P_TOOL_DRIFT"}};
  for (const auto& [e, p] : codes)
    if (d.error_code == e)
      return std::string(p);
  return "P_POLICY_DENY";
}

}  // namespace detail

namespace detail {

// A deny after the allow list matched: it keeps what matched.
inline decision deny_matched(const decision& matched, std::string code, std::string reason) {
  decision x = deny(matched.tool, std::move(code), std::move(reason));
  x.matched_rule = matched.matched_rule;
  x.match_basis = matched.match_basis;
  return x;
}

// The steps of decide(), its reason_code left to it.
inline decision decide_steps(const loaded_policy& p, session_state& s, std::string_view tool,
                             const json::document& line, std::size_t arguments, const argument_checker& check) {
  const std::string name(tool);
  // 1. drift: a pinned tool whose definition differs, or that the session has no definition of.
  if (const auto pin = p.pins.find(tool); pin != p.pins.end()) {
    const tool_identity pinned{pin->second.server_id, pin->second.tool_name, std::string(pin->second.schema_hash),
                               std::string(pin->second.meta_hash)};
    const auto known = s.tools.find(tool);
    if (known == s.tools.end() || known->second.identity != pinned) {
      decision d =
          detail::deny(name, "E_TOOL_DRIFT",
                       "Tool integrity failure: identity drifted from pinned version. (Runtime: " +
                           (known == s.tools.end() ? std::string("unlisted") : known->second.identity.fingerprint()) +
                           ", Pinned: " + pinned.fingerprint() + ")",
                       "Tool metadata or schema has changed without policy update (SOTA Moat)");
      d.typed_decision = "deny_with_alert";
      d.obligations.push_back({"alert", d.error_code + ":" + d.reason});
      return d;
    }
  }
  // 2. limits
  ++s.requests;
  ++s.tool_calls;
  if (p.max_requests_total && s.requests > static_cast<std::uint64_t>(*p.max_requests_total))
    return detail::deny("ALL", "E_RATE_LIMIT", "Rate limit exceeded (total requests)");
  if (p.max_tool_calls_total && s.tool_calls > static_cast<std::uint64_t>(*p.max_tool_calls_total))
    return detail::deny("ALL", "E_RATE_LIMIT", "Rate limit exceeded (tool calls)");
  const auto classes = p.classes_of(tool);
  // 3. deny list, by name or class (deny beats allow)
  const bool deny_name = detail::any_matches(p.deny, tool);
  const auto deny_classes = detail::matched_classes(classes, p.deny_classes);
  if (deny_name || !deny_classes.empty()) {
    const char* why = deny_name && !deny_classes.empty() ? "Tool is explicitly denylisted by name and class"
                      : deny_name                        ? "Tool is explicitly denylisted by name"
                                                         : "Tool is explicitly denylisted by class";
    decision d = detail::deny(name, "E_TOOL_DENIED", why);
    detail::set_match(d, deny_name, !deny_classes.empty(), "tools.deny", "tools.deny_classes");
    return d;
  }
  // 4. allow list
  const bool allow_name = detail::any_matches(p.allow, tool);
  const auto allow_classes = detail::matched_classes(classes, p.allow_classes);
  if (p.has_allowlist && !allow_name && allow_classes.empty())
    return detail::deny(name, "E_TOOL_NOT_ALLOWED", "Tool is not in the allowlist", "Tool is not in allowlist");
  decision d;
  d.tool = name;
  detail::set_match(d, allow_name, !allow_classes.empty(), "tools.allow", "tools.allow_classes");
  // 5. schema
  if (p.schemas.find(tool) != p.schemas.end()) {
    argument_verdict v = check(tool, line, arguments);
    if (v.compile_error) {
      decision x = detail::deny_matched(d, "E_SCHEMA_COMPILE",
                                        "Declared schema failed to prepare or compile: " + *v.compile_error);
      x.answer_reason = *v.compile_error;
      return x;
    }
    if (!v.violations.empty()) {
      decision x = detail::deny_matched(d, "E_ARG_SCHEMA", "JSON Schema validation failed");
      x.violations = std::move(v.violations);
      return x;
    }
  } else {
    // 6. unconstrained
    switch (p.unconstrained) {
      case unconstrained_mode::deny:
        return detail::deny_matched(d, "E_TOOL_UNCONSTRAINED", "Tool has no schema (enforcement: deny)");
      case unconstrained_mode::warn:
        d.error_code = "E_TOOL_UNCONSTRAINED";
        d.reason = "Tool allowed but has no schema";
        d.typed_decision = "allow_with_obligations";
        d.obligations.push_back({"legacy_warning", d.error_code + ":" + d.reason});
        break;
      case unconstrained_mode::allow:
        break;
    }
  }
  // Obligations the gate does not enforce (only with allow_unenforced): recorded, skipped.
  for (const auto& rule : p.obligations) {
    if (!detail::any_matches(rule.names, tool) && detail::matched_classes(classes, rule.classes).empty())
      continue;
    d.obligations.push_back({rule.type, rule.type == "approval_required" ? "runtime approval artifact required"
                                        : rule.type == "restrict_scope"
                                            ? "restrict_scope contract captured; runtime enforcement deferred"
                                            : "redact_args contract captured; runtime redaction deferred"});
    d.unenforced.push_back(rule.type);
    d.typed_decision = "allow_with_obligations";
  }
  return d;
}

}  // namespace detail

// Decides one tools/call, in the reference's order, first match wins (docs/mcp.md): drift, limits,
// deny list, allow list, schema, unconstrained. Counts the call in `s` (unless denied for drift).
inline decision decide(const loaded_policy& p, session_state& s, std::string_view tool, const json::document& line,
                       std::size_t arguments, const argument_checker& check) {
  decision d = detail::decide_steps(p, s, tool, line, arguments, check);
  d.reason_code = detail::reason_code_of(d);
  return d;
}

// --- the gate ---------------------------------------------------------------------------------------

enum class end_reason : std::uint8_t { client_eof, server_exit, signal };

inline std::string_view name(end_reason r) noexcept {
  return r == end_reason::client_eof ? "client_eof" : r == end_reason::server_exit ? "server_exit" : "signal";
}

struct gate_options {
  std::string label = "default-mcp-server";  // server_id of pins and P56b; in the events' source
  bool dry_run = false;                      // nothing blocked: a deny is forwarded and recorded as allow
  bool record_bodies = false;                // arguments and results as written, not as commitments
  std::size_t max_line_bytes = std::size_t{4} << 20;
  std::size_t max_pending = 4096;  // calls (and tools/list requests) awaiting a response
  // The clock for durations (replaceable for reproducible tests).
  std::function<std::chrono::steady_clock::time_point()> clock = [] { return std::chrono::steady_clock::now(); };
};

// What to do with a client line.
struct client_verdict {
  bool forward = false;  // send the line to the server as it came
  std::string answer;    // else: send this line (with its newline) to the client
  // For a tools/call: the decision, as the stderr line says it ("allow read_file", "deny …").
  std::optional<decision> decided;
  bool would_deny = false;  // --dry-run: a deny forwarded
  std::string refusal;      // a line refused (docs/mcp.md): "<code>: <reason>", never the line
};

// The gate over one session. Log is anything with the recorder's
//   results<std::uint64_t> append(std::string_view type, const Payload&, const evidence::event_extras&)
// (evidence::recorder; the verb's log that rolls over to the next bundle).
template <class Log>
class basic_gate {
 public:
  basic_gate(const loaded_policy& policy, Log& log, argument_checker check, gate_options o = {})
      : p_(policy), log_(log), check_(std::move(check)), opt_(std::move(o)) {
    server_id_ = std::string(evidence::trim_white_space(opt_.label));
  }

  const session_state& session() const noexcept { return s_; }
  const gate_options& options() const noexcept { return opt_; }

  // assay.profile.started: first, before any line.
  result<void> start(const std::vector<std::pair<std::string, json::value>>& more = {}) {
    contracts::profile_started e;
    e.profile_name = "mcp-wrap";
    e.profile_version = p_.policy_version();
    e.total_runs_aggregated = 1;
    e.extra["policy_name"] = json::value(*p_.model.name);
    e.extra["policy_digest"] = json::value(p_.digest);
    e.extra["label"] = json::value(opt_.label);
    if (!p_.unenforced_controls.empty()) {
      json::array a;
      for (const std::string& c : p_.unenforced_controls)
        a.push_back(json::value(c));
      e.extra["unenforced_controls"] = json::value(std::move(a));
    }
    for (const auto& [k, v] : more)
      e.extra[k] = v;
    return record(e, {});
  }

  // One line from the client (without its newline).
  result<client_verdict> on_client_line(std::string_view line) {
    if (failed_)
      return *failed_;
    if (line.size() > opt_.max_line_bytes)
      return on_overlong_client_line(line.size(), detail::sha256_hex(line));
    auto doc = json::document::parse(line, line_limits());
    if (!doc)  // what is wrong and where, never the line's text (a duplicate name is its text)
      return refuse(line, -32700, json::value(nullptr),
                    "not one JSON value: " + std::string(name(doc.error().code)) + " at byte " +
                        std::to_string(doc.error().offset));
    const json::document& d = *doc;
    if (d.root().kind != json::kind::object)
      return refuse(line, -32600, json::value(nullptr),
                    d.root().kind == json::kind::array ? "a JSON array: MCP has no batches"
                                                       : "a JSON-RPC message is a JSON object");
    const auto [jsonrpc, method, id, params, result, error] =
        d.find_members<6>(0, {"jsonrpc", "method", "id", "params", "result", "error"});
    const bool id_ok =
        id != 0 && (d.nodes()[id].kind == json::kind::string || d.nodes()[id].kind == json::kind::number);
    const json::value id_value = id_ok ? d.to_value(id) : json::value(nullptr);
    if (jsonrpc == 0 || d.nodes()[jsonrpc].kind != json::kind::string || d.string_at(jsonrpc) != "2.0")
      return refuse(line, -32600, id_value, "not JSON-RPC 2.0 (\"jsonrpc\" must be \"2.0\")");
    if (id != 0 && !id_ok)
      return refuse(line, -32600, json::value(nullptr), "an id is a string or a number");
    if (method == 0) {  // a response to the server's request
      if (id == 0 || (result == 0) == (error == 0))
        return refuse(line, -32600, id_value, "neither a request, a notification nor a response");
      return forward();
    }
    if (d.nodes()[method].kind != json::kind::string)
      return refuse(line, -32600, id_value, "\"method\" must be a string");
    const std::string_view m = d.string_at(method);
    if (id != 0)
      note_request(m, d, id);
    if (m != "tools/call")
      return forward();
    if (id == 0)
      return refuse(line, -32600, json::value(nullptr), "a tools/call needs an id");
    const std::size_t name =
        params != 0 && d.nodes()[params].kind == json::kind::object ? d.find_member(params, "name") : 0;
    if (name == 0 || d.nodes()[name].kind != json::kind::string || d.string_at(name).empty())
      return refuse(line, -32602, id_value, "params.name must be a non-empty string (the tool)");
    if (pending_.size() >= opt_.max_pending)
      return refuse(line, -32000, id_value,
                    "too many calls in flight (" + std::to_string(opt_.max_pending) + " awaiting a response)");
    const std::size_t args = d.find_member(params, "arguments");
    return call(d, id, id_value, d.string_at(name), args);
  }

  // A client line longer than max_line_bytes, which a reader need not hold whole: its size and
  // the sha256 (hex) of its bytes. Refused like any line the strict reader refuses.
  result<client_verdict> on_overlong_client_line(std::size_t bytes, std::string sha256_hex) {
    if (failed_)
      return *failed_;
    return refuse(bytes, std::move(sha256_hex), -32700, json::value(nullptr),
                  "the line is longer than " + std::to_string(opt_.max_line_bytes) + " bytes");
  }

  // One line from the server (without its newline): always forwarded; read to learn tool
  // definitions and to complete calls.
  result<void> on_server_line(std::string_view line) {
    if (failed_)
      return *failed_;
    if (line.size() > opt_.max_line_bytes)
      return {};
    auto doc = json::document::parse(line, line_limits());
    if (!doc || doc->root().kind != json::kind::object)
      return {};  // teaches nothing
    const json::document& d = *doc;
    const auto [method, id, result, error] = d.find_members<4>(0, {"method", "id", "result", "error"});
    if (method != 0) {
      if (d.nodes()[method].kind == json::kind::string && d.string_at(method) == "notifications/tools/list_changed")
        s_.tools.clear();
      return {};
    }
    if (id == 0 || (result == 0 && error == 0))
      return {};
    const std::string key = d.canonical_at(id);
    if (const auto it = lists_.find(key); it != lists_.end()) {
      lists_.erase(it);
      if (result != 0)
        return learn(d, result);
      return {};
    }
    if (const auto it = pending_.find(key); it != pending_.end()) {
      pending_call c = std::move(it->second);
      pending_.erase(it);
      bool is_error = error != 0;
      if (result != 0 && d.nodes()[result].kind == json::kind::object) {
        const std::size_t e = d.find_member(result, "isError");
        is_error = is_error || (e != 0 && d.nodes()[e].kind == json::kind::boolean && d.nodes()[e].payload != 0);
      }
      return completed(c, is_error, &d, result != 0 ? result : error);
    }
    return {};
  }

  // The end of the session: an assay.tool.call with unanswered for each pending call, then
  // assay.profile.finished.
  result<void> finish(end_reason why) {
    if (finished_)
      return {};
    finished_ = true;
    std::vector<pending_call> left;
    for (auto& [k, c] : pending_)
      left.push_back(std::move(c));
    pending_.clear();
    std::sort(left.begin(), left.end(), [](const pending_call& a, const pending_call& b) { return a.order < b.order; });
    for (pending_call& c : left)
      if (auto r = completed(c, false, nullptr, 0, true); !r && !failed_)
        return r;
    contracts::profile_finished e;
    e.files_count = 0;
    e.network_count = 0;
    e.processes_count = 1;
    e.sandbox_degradation_count = 0;
    e.extra["end_reason"] = json::value(std::string(name(why)));
    return record(e, {});
  }

 private:
  struct pending_call {
    std::string tool, call_id;
    json::value arguments;  // as the event records them (a commitment unless record_bodies)
    std::chrono::steady_clock::time_point started;
    std::uint64_t order = 0;
  };

  template <class Payload>
  result<void> record(const Payload& e, const evidence::event_extras& x) {
    auto r = log_.append(Payload::event_type, e, x);
    if (!r) {
      failed_ = make_error(errc::io_error, "the gate could not record its evidence: " + r.error().front().message);
      return *failed_;
    }
    return {};
  }

  // What one line may hold: the library's defaults, its size the gate's bound.
  json::limits line_limits() const {
    json::limits lim;
    lim.max_input_bytes = opt_.max_line_bytes;
    lim.max_string_chars = opt_.max_line_bytes;
    return lim;
  }

  static client_verdict forward() {
    client_verdict v;
    v.forward = true;
    return v;
  }

  result<client_verdict> refuse(std::string_view line, int code, const json::value& id, std::string reason) {
    return refuse(line.size(), detail::sha256_hex(line), code, id, std::move(reason));
  }
  result<client_verdict> refuse(std::size_t bytes, std::string sha, int code, const json::value& id,
                                std::string reason) {
    contracts::mcp_refused e;
    e.reason = reason;
    e.code = code;
    e.line_sha256 = std::move(sha);
    e.line_bytes = static_cast<std::int64_t>(bytes);
    if (auto r = record(e, {}); !r)
      return r.error();
    client_verdict v;
    v.refusal = std::to_string(code) + ": " + reason;
    v.answer = error_line(id, code, std::move(reason));
    return v;
  }

  static std::string_view standard_message(int code) {
    switch (code) {
      case -32700:
        return "Parse error";
      case -32600:
        return "Invalid Request";
      case -32602:
        return "Invalid params";
      default:
        return "Server error";
    }
  }

  static std::string error_line(const json::value& id, int code, const std::string& reason) {
    std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
    out += json::to_canonical(id).value();
    out += ",\"error\":{\"code\":" + std::to_string(code) + ",\"message\":";
    out += json::to_canonical(json::value(std::string(standard_message(code)) + ": " + reason)).value();
    out += "}}\n";
    return out;
  }

  // A request other than a tools/call: counted, and a tools/list remembered to learn from its result.
  void note_request(std::string_view method, const json::document& d, std::size_t id) {
    if (method == "tools/call")
      return;
    ++s_.requests;
    if (method == "tools/list" && lists_.size() < opt_.max_pending)
      lists_.insert(d.canonical_at(id));
  }

  result<void> learn(const json::document& d, std::size_t result) {
    if (d.nodes()[result].kind != json::kind::object)
      return {};
    const std::size_t tools = d.find_member(result, "tools");
    if (tools == 0 || d.nodes()[tools].kind != json::kind::array)
      return {};
    contracts::mcp_tools_listed e;
    e.server_id = opt_.label;
    const auto& n = d.nodes();
    for (std::size_t i = tools + 1; i < n[tools].payload; i = d.next(i)) {
      if (n[i].kind != json::kind::object)
        continue;
      json::value def = d.to_value(i);
      const json::value* nm = def.find("name");
      if (nm == nullptr || !nm->is_string())
        continue;
      known_tool k;
      k.identity = identity_of(def, opt_.label);
      if (auto dg = evidence::tool_definition_digest(
              def, server_id_.empty() ? std::nullopt : std::optional<std::string_view>(server_id_)))
        k.digest = *dg;
      contracts::mcp_listed_tool t;
      t.name = nm->as_string();
      if (k.digest)
        t.tool_definition_digest = *k.digest;
      e.tools.push_back(std::move(t));
      k.definition = std::move(def);
      s_.tools[nm->as_string()] = std::move(k);
    }
    return record(e, {});
  }

  static std::optional<std::string> string_member(const json::document& d, std::size_t obj, std::string_view name) {
    if (obj == 0 || d.nodes()[obj].kind != json::kind::object)
      return std::nullopt;
    const std::size_t i = d.find_member(obj, name);
    if (i == 0 || d.nodes()[i].kind != json::kind::string)
      return std::nullopt;
    return std::string(d.string_at(i));
  }

  json::value body(const json::document& d, std::size_t at) const {
    if (at == 0)
      return json::value(nullptr);
    if (opt_.record_bodies)
      return d.to_value(at);
    return evidence::commitment_of_canonical(d.canonical_at(at));
  }

  result<client_verdict> call(const json::document& d, std::size_t id, const json::value& id_value,
                              std::string_view tool, std::size_t args) {
    decision dec = decide(p_, s_, tool, d, args, check_);
    // tool_call_id: arguments._meta.tool_call_id when a string, else req_<id>, else gen_<uuid v4>.
    const std::size_t meta = args != 0 && d.nodes()[args].kind == json::kind::object ? d.find_member(args, "_meta") : 0;
    std::string call_id;
    if (auto m = string_member(d, meta, "tool_call_id")) {
      call_id = *m;
    } else if (d.nodes()[id].kind == json::kind::string) {
      call_id = "req_" + std::string(d.string_at(id));
    } else if (const std::string t = d.canonical_at(id); t.find_first_not_of("-0123456789") == std::string::npos) {
      call_id = "req_" + t;
    } else {
      call_id = "gen_" + evidence::random_uuid();
    }
    contracts::tool_decision e;
    e.tool = dec.tool;
    // --dry-run: a deny is recorded as the reference records it, decision allow with the deny's
    // reason code and typed_decision.
    e.decision = dec.allow || opt_.dry_run ? decltype(e.decision)("allow") : decltype(e.decision)("deny");
    e.reason_code = dec.reason_code;
    if (!dec.reason.empty())
      e.reason = dec.reason;
    e.policy_digest = p_.digest;
    e.policy_snapshot_digest = p_.digest;
    e.policy_snapshot_digest_alg = "sha256";
    e.policy_snapshot_canonicalization = "jcs:mcp_policy";
    e.policy_snapshot_schema = "assay.mcp.policy.snapshot.v1";
    if (const auto k = s_.tools.find(tool); k != s_.tools.end() && k->second.digest) {
      e.tool_definition_digest = *k->second.digest;
      e.tool_definition_digest_alg.emplace();
      e.tool_definition_canonicalization.emplace();
      e.tool_definition_schema.emplace();
      e.tool_definition_source.emplace();
    }
    e.tool_call_id = call_id;
    if (meta != 0) {
      const std::size_t del = d.find_member(meta, "delegation");
      if (auto from = string_member(d, del, "delegated_from"))
        e.delegated_from = *from;
      if (del != 0 && d.nodes()[del].kind == json::kind::object) {
        const std::size_t depth = d.find_member(del, "depth");
        if (depth != 0 && d.nodes()[depth].kind == json::kind::number) {
          const double v = d.number_at(depth);
          if (v >= 0 && v <= 9007199254740992.0 && v == static_cast<double>(static_cast<std::int64_t>(v)))
            e.delegation_depth = static_cast<std::int64_t>(v);
        }
      }
    }
    if (dec.matched_rule)
      e.extra["matched_rule"] = json::value(*dec.matched_rule);
    if (dec.match_basis)
      e.extra["match_basis"] = json::value(*dec.match_basis);
    e.extra["typed_decision"] = json::value(dec.typed_decision);
    e.extra["policy_version"] = json::value(p_.policy_version());
    e.extra["request_id"] = id_value;
    if (!dec.obligations.empty()) {
      json::array obs, outcomes;
      for (const obligation& o : dec.obligations) {
        json::value x = json::object{};
        x.set("type", json::value(o.type));
        x.set("detail", json::value(o.detail));
        obs.push_back(std::move(x));
      }
      for (const std::string& t : dec.unenforced) {
        json::value x = json::object{};
        x.set("type", json::value(t));
        x.set("status", json::value("skipped"));
        x.set("reason", json::value("not enforced by this gate (loaded with --allow-unenforced)"));
        x.set("reason_code", json::value("unenforced_control"));
        x.set("enforcement_stage", json::value("executor"));
        x.set("normalization_version", json::value("v1"));
        outcomes.push_back(std::move(x));
      }
      e.extra["obligations"] = json::value(std::move(obs));
      if (!outcomes.empty())
        e.extra["obligation_outcomes"] = json::value(std::move(outcomes));
    }
    evidence::event_extras x;
    x.subject = "tool:" + dec.tool;
    if (auto r = record(e, x); !r)
      return r.error();

    client_verdict v;
    if (!dec.allow && !opt_.dry_run) {
      v.answer = deny_line(id_value, dec);
    } else {
      v.forward = true;
      v.would_deny = !dec.allow;
      pending_call c;
      c.tool = std::string(tool);
      c.call_id = call_id;
      c.arguments = body(d, args);
      c.started = opt_.clock();
      c.order = ++order_;
      pending_.emplace(d.canonical_at(id), std::move(c));
    }
    v.decided = std::move(dec);
    return v;
  }

  // The reference's deny result, members in its order.
  static std::string deny_line(const json::value& id, const decision& d) {
    auto str = [](std::string_view s) { return json::to_canonical(json::value(std::string(s))).value(); };
    std::string out = "{\"jsonrpc\":\"2.0\",\"id\":" + json::to_canonical(id).value() +
                      ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Content blocked by policy\"}],"
                      "\"isError\":true,\"structuredContent\":{\"status\":\"deny\",\"error_code\":" +
                      str(d.error_code);
    if (d.error_code != "E_RATE_LIMIT") {
      out += ",\"tool\":" + str(d.tool);
      if (d.error_code == "E_ARG_SCHEMA") {
        out += ",\"violations\":[";
        for (std::size_t i = 0; i < d.violations.size(); ++i) {
          if (i != 0)
            out += ',';
          out += "{\"path\":" + str(d.violations[i].path) + ",\"message\":" + str(d.violations[i].message) + "}";
        }
        out += "]";
      } else if (d.error_code == "E_SCHEMA_COMPILE") {
        out += ",\"message\":" + str(d.answer_reason);
      } else {
        out += ",\"reason\":" + str(d.answer_reason);
      }
    }
    out += "}}}\n";
    return out;
  }

  result<void> completed(pending_call& c, bool is_error, const json::document* d, std::size_t result,
                         bool unanswered = false) {
    contracts::tool_call e;
    e.tool = c.tool;
    e.call_id = c.call_id;
    e.arguments = std::move(c.arguments);
    if (d != nullptr && result != 0)
      e.result = body(*d, result);
    e.extra["is_error"] = json::value(is_error);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(opt_.clock() - c.started).count();
    e.extra["duration_ms"] = json::value(static_cast<double>(ms < 0 ? 0 : ms));
    if (unanswered)
      e.extra["unanswered"] = json::value(true);
    evidence::event_extras x;
    x.subject = "tool:" + c.tool;
    return record(e, x);
  }

  const loaded_policy& p_;
  Log& log_;
  argument_checker check_;
  gate_options opt_;
  std::string server_id_;
  session_state s_;
  std::map<std::string, pending_call> pending_;  // by the id's canonical text
  std::set<std::string> lists_;                  // tools/list requests awaiting their result
  std::uint64_t order_ = 0;
  std::optional<error> failed_;
  bool finished_ = false;
};

using gate = basic_gate<evidence::recorder>;

}  // namespace assay::mcp
