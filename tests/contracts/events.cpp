// evidence-event-v1 (SPEC §4) and its payloads (§8, §10): real event lines re-encode byte for
// byte; a typed event built in C++ encodes to its canonical bytes and decodes back; read_event
// checks the data of known types only, with pointers into /data; a versioned type lives beside
// the old one.
#include "support.hpp"

#include "contracts/documents.hpp"

#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using assay::errc;
using assay::contracts::evidence_event;
using assay::contracts::read_event;
namespace contracts = assay::contracts;
namespace docs = assay_test::docs;

namespace {

// A breaking change of assay.env.filtered gets a new type name (SPEC §8); this is such a v2,
// defined here only, not registered.
struct env_filtered_v2 {
  static constexpr std::string_view event_type = "assay.env.filtered.v2";
  assay::one_of<"strict", "permissive"> mode;
  std::map<std::string, assay::bounded<std::int64_t, 0>> counters;
  assay::list<assay::non_empty> dropped_keys;
  assay::bounded<std::int64_t, 0> total_keys;
};

std::string code_name(errc c) {
  return std::string(assay::name(c));
}

// An optional string-like member as a plain optional string (for comparisons).
template <class O>
std::optional<std::string> plain(const O& o) {
  if (!o.has_value())
    return std::nullopt;
  return std::string(*o);
}

// The error of `es` at `pointer` (which must be there).
const assay::error& error_at(const assay::errors& es, std::string_view pointer) {
  INFO("errors:\n" << es.format());
  auto it = std::find_if(es.begin(), es.end(), [&](const assay::error& e) { return e.pointer == pointer; });
  REQUIRE_MESSAGE(it != es.end(), "no error at " << pointer);
  return *it;
}

void check_same_decision(const contracts::tool_decision& a, const contracts::tool_decision& b) {
  CHECK(a.tool == b.tool);
  CHECK(a.decision == b.decision);
  CHECK(a.reason_code == b.reason_code);
  CHECK(plain(a.args_schema_hash) == plain(b.args_schema_hash));
  CHECK(plain(a.policy_digest) == plain(b.policy_digest));
  CHECK(plain(a.policy_snapshot_digest) == plain(b.policy_snapshot_digest));
  CHECK(plain(a.policy_snapshot_digest_alg) == plain(b.policy_snapshot_digest_alg));
  CHECK(plain(a.policy_snapshot_canonicalization) == plain(b.policy_snapshot_canonicalization));
  CHECK(plain(a.policy_snapshot_schema) == plain(b.policy_snapshot_schema));
  CHECK(plain(a.tool_definition_digest) == plain(b.tool_definition_digest));
  CHECK(a.tool_definition_digest_alg.has_value() == b.tool_definition_digest_alg.has_value());
  CHECK(a.tool_definition_canonicalization.has_value() == b.tool_definition_canonicalization.has_value());
  CHECK(a.tool_definition_schema.has_value() == b.tool_definition_schema.has_value());
  CHECK(a.tool_definition_source.has_value() == b.tool_definition_source.has_value());
  CHECK(plain(a.delegated_from) == plain(b.delegated_from));
  CHECK(a.delegation_depth.has_value() == b.delegation_depth.has_value());
  if (a.delegation_depth && b.delegation_depth)
    CHECK(a.delegation_depth->value() == b.delegation_depth->value());
}

template <class P>
void check_same_envelope(const evidence_event<P>& a, const evidence_event<P>& b) {
  CHECK(a.type == b.type);
  CHECK(a.source == b.source);
  CHECK(a.id == b.id);
  CHECK(a.time == b.time);
  CHECK(a.datacontenttype == b.datacontenttype);
  CHECK(plain(a.subject) == plain(b.subject));
  CHECK(plain(a.traceparent) == plain(b.traceparent));
  CHECK(plain(a.tracestate) == plain(b.tracestate));
  CHECK(a.assayrunid == b.assayrunid);
  CHECK(a.assayseq.value() == b.assayseq.value());
  CHECK(a.assayproducer == b.assayproducer);
  CHECK(a.assayproducerversion == b.assayproducerversion);
  CHECK(a.assaygit == b.assaygit);
  CHECK(plain(a.assaypolicyid) == plain(b.assaypolicyid));
  CHECK(a.assaypii == b.assaypii);
  CHECK(a.assaysecrets == b.assaysecrets);
  CHECK(plain(a.assaycontenthash) == plain(b.assaycontenthash));
  CHECK(plain(a.assaysemanticdigest) == plain(b.assaysemanticdigest));
  CHECK(plain(a.assaydigestprofile) == plain(b.assaydigestprofile));
}

// Replaces the first occurrence of `from` (which must occur) by `to`.
std::string replaced(std::string s, std::string_view from, std::string_view to) {
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("upstream event lines decode with read_event and re-encode to the same bytes" *
          doctest::test_suite("conformance")) {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return;
  const auto ndjson = dir / "assay-upstream" / "ndjson";
  if (!std::filesystem::is_directory(ndjson)) {
    MESSAGE("no assay-upstream/ndjson in the conformance data: skipped");
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(ndjson))
    if (entry.is_regular_file() && entry.path().extension() == ".ndjson")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE_FALSE(files.empty());
  std::size_t lines = 0;
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    const std::string text = assay_test::read_file(f);
    std::size_t start = 0;
    std::size_t line_no = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos)
        end = text.size();
      const std::string line = text.substr(start, end - start);
      start = end + 1;
      ++line_no;
      CAPTURE(line_no);
      ++lines;
      auto ev = read_event(line);
      if (!ev) {
        FAIL_CHECK(ev.error().format());
        continue;
      }
      auto out = assay::encode(*ev);
      if (!out) {
        FAIL_CHECK(out.error().format());
        continue;
      }
      CHECK(*out == line);
    }
  }
  MESSAGE(lines << " event lines in " << files.size() << " files");
  CHECK(lines > 0);
}

TEST_CASE("a typed event built in C++ encodes to its canonical bytes and decodes back") {
  evidence_event<contracts::tool_decision> e;
  e.type = "assay.tool.decision";
  e.source = "urn:assay:test";
  e.id = "run_1:4";
  e.time = "2023-11-14T22:13:20.500Z";
  e.assayrunid = "run_1";
  e.assayseq = 4;
  e.assayproducer = "assay";
  e.assayproducerversion = "0.1.0";
  e.data.tool = "shell_exec";
  e.data.decision = "deny";
  e.data.reason_code = "blocked_by_policy";
  e.data.delegation_depth = 2;
  // assaycontenthash not computed: null; datacontenttype and assaygit take their defaults; no
  // optional member is written.
  const std::string expected =
      R"({"assaycontenthash":null,"assaygit":"unknown","assaypii":false,"assayproducer":"assay",)"
      R"("assayproducerversion":"0.1.0","assayrunid":"run_1","assaysecrets":false,"assayseq":4,)"
      R"("data":{"decision":"deny","delegation_depth":2,"reason_code":"blocked_by_policy","tool":"shell_exec"},)"
      R"("datacontenttype":"application/json","id":"run_1:4","source":"urn:assay:test","specversion":"1.0",)"
      R"("time":"2023-11-14T22:13:20.500Z","type":"assay.tool.decision"})";
  auto bytes = assay::encode(e);
  if (!bytes)
    FAIL(bytes.error().format());
  CHECK(*bytes == expected);

  auto back = assay::decode<evidence_event<contracts::tool_decision>>(expected);
  if (!back)
    FAIL(back.error().format());
  check_same_envelope(*back, e);
  check_same_decision(back->data, e.data);
  CHECK_FALSE(back->assaycontenthash.has_value());
  CHECK_FALSE(back->subject.has_value());
  CHECK(assay::encode(*back).value() == expected);

  // Set the hash and the optional members: they are written, in canonical order.
  e.assaycontenthash = std::string("sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
  e.subject = "shell_exec";
  e.traceparent = std::string("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  const std::string with_hash =
      R"({"assaycontenthash":"sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",)"
      R"("assaygit":"unknown","assaypii":false,"assayproducer":"assay",)"
      R"("assayproducerversion":"0.1.0","assayrunid":"run_1","assaysecrets":false,"assayseq":4,)"
      R"("data":{"decision":"deny","delegation_depth":2,"reason_code":"blocked_by_policy","tool":"shell_exec"},)"
      R"("datacontenttype":"application/json","id":"run_1:4","source":"urn:assay:test","specversion":"1.0",)"
      R"("subject":"shell_exec","time":"2023-11-14T22:13:20.500Z",)"
      R"("traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","type":"assay.tool.decision"})";
  CHECK(assay::encode(e).value() == with_hash);
  auto back2 = assay::decode<evidence_event<contracts::tool_decision>>(with_hash);
  REQUIRE(back2.has_value());
  check_same_envelope(*back2, e);

  // The shared full document round-trips through the typed event and through read_event.
  auto full = assay::decode<evidence_event<contracts::tool_decision>>(docs::event_full);
  if (!full)
    FAIL(full.error().format());
  CHECK(full->data.decision == "requires_approval");
  CHECK(plain(full->tracestate) == std::optional<std::string>("vendor=1"));
  CHECK(assay::encode(*full).value() == docs::event_full);
  auto any = read_event(docs::event_full);
  REQUIRE(any.has_value());
  CHECK(assay::encode(*any).value() == docs::event_full);
  CHECK(assay::encode(*read_event(docs::event_minimal)).value() == docs::event_minimal);
}

TEST_CASE("encoding a typed event enforces the envelope's rules") {
  evidence_event<contracts::tool_decision> e;
  e.type = "assay.tool.decision";
  e.source = "urn:assay:test";
  e.id = "run_1:0";
  e.time = "2023-11-14T22:13:20Z";
  e.assayrunid = "run_1";
  e.assayseq = 0;
  e.data.tool = "t";
  REQUIRE(assay::encode(e).has_value());

  SUBCASE("id is not run:seq") {
    e.assayseq = 1;
    auto r = assay::encode(e);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/id").code) == code_name(errc::rule_violation));
  }
  SUBCASE("a type that is not the payload's") {
    e.type = "assay.fs.access";
    auto r = assay::encode(e);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/type").code) == code_name(errc::rule_violation));
  }
  SUBCASE("a time fraction that is not minimal") {
    e.time = "2023-11-14T22:13:20.500000Z";
    auto r = assay::encode(e);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/time").code) == code_name(errc::rule_violation));
  }
  SUBCASE("a payload rule: a partial P56a cluster") {
    e.data.policy_snapshot_digest = "sha256:p";
    e.data.policy_digest = "sha256:p";
    auto r = assay::encode(e);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/data").code) == code_name(errc::rule_violation));
  }
}

TEST_CASE("read_event validates the data of known types, with pointers into /data") {
  SUBCASE("a value the payload type does not allow") {
    const std::string text = replaced(docs::event_full, R"("decision":"requires_approval")", R"("decision":"maybe")");
    auto r = read_event(text);
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().format());
    REQUIRE(r.error().size() == 1);
    const assay::error e = r.error().front();  // error() returns a copy
    CHECK(code_name(e.code) == code_name(errc::enum_mismatch));
    CHECK(e.pointer == "/data/decision");
    CHECK(e.offset == text.find(R"("maybe")"));
    CHECK(e.line == 1);
  }
  SUBCASE("several payload errors, each at its member; an additive member is none") {
    const std::string text = replaced(replaced(docs::event_full, R"("reason_code":"needs_human",)", ""),
                                      R"("tool":"shell_exec")", R"("tool":1,"extra":true)");
    auto r = read_event(text);
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().format());
    REQUIRE(r.error().size() == 2);
    CHECK(code_name(error_at(r.error(), "/data/tool").code) == code_name(errc::type_mismatch));
    CHECK(code_name(error_at(r.error(), "/data/reason_code").code) == code_name(errc::missing_member));
  }
  SUBCASE("a payload's cross-field rule") {
    const std::string text = replaced(docs::event_full, R"("data":{)", R"("data":{"tool_definition_digest":"d",)");
    auto r = read_event(text);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/data").code) == code_name(errc::rule_violation));
  }
  SUBCASE("envelope and payload errors together") {
    const std::string text = replaced(replaced(docs::event_full, R"("source":"urn:assay:agent")", R"("source":"x")"),
                                      R"("decision":"requires_approval")", R"("decision":"maybe")");
    auto r = read_event(text);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/source").code) == code_name(errc::pattern_mismatch));
    CHECK(code_name(error_at(r.error(), "/data/decision").code) == code_name(errc::enum_mismatch));
  }
  SUBCASE("another known type: assay.tool.call takes a commitment, not a number") {
    const std::string text =
        replaced(replaced(docs::event_full, R"("type":"assay.tool.decision")", R"("type":"assay.tool.call")"),
                 R"("data":{"decision":"requires_approval","reason_code":"needs_human","tool":"shell_exec"})",
                 R"("data":{"call_id":7,"tool":"t"})");
    auto r = read_event(text);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(error_at(r.error(), "/data/call_id").code) == code_name(errc::type_mismatch));
  }
  SUBCASE("an unknown type keeps its data as a JSON value, whatever it holds") {
    const std::string data = R"({"decision":"maybe","nested":{"list":[1,"two",null]},"tool":1})";
    const std::string text = replaced(docs::event_minimal, R"("data":null)", R"("data":)" + data);
    auto r = read_event(text);
    if (!r)
      FAIL(r.error().format());
    CHECK(r->type == "example.custom");
    CHECK(r->data == assay::json::parse(data).value());
    REQUIRE(r->data.find("nested") != nullptr);
    CHECK(r->data.find("nested")->find("list")->as_array().size() == 3);
    CHECK(assay::encode(*r).value() == text);
  }
  SUBCASE("a known type read with read_event keeps its data too") {
    auto r = read_event(docs::event_full);
    REQUIRE(r.has_value());
    CHECK(r->data.find("decision")->as_string() == "requires_approval");
  }
}

TEST_CASE("a versioned event type is decoded beside the old one") {
  const std::string head = R"({"assaycontenthash":null,"assaygit":"unknown","assaypii":false,"assayproducer":"assay",)"
                           R"("assayproducerversion":"0.1.0","assayrunid":"r","assaysecrets":false,)";
  const std::string v1 = head +
                         R"("assayseq":0,"data":{"counters":{"dropped":1},"dropped_keys":["TOKEN"],"mode":"strict",)"
                         R"("passed_keys":["PATH"]},"datacontenttype":"application/json","id":"r:0","source":"urn:t",)"
                         R"("specversion":"1.0","time":"2023-11-14T22:13:20Z","type":"assay.env.filtered"})";
  const std::string v2 = head +
                         R"("assayseq":1,"data":{"counters":{"dropped":1},"dropped_keys":["TOKEN"],"mode":"strict",)"
                         R"("total_keys":2},"datacontenttype":"application/json","id":"r:1","source":"urn:t",)"
                         R"("specversion":"1.0","time":"2023-11-14T22:13:21Z","type":"assay.env.filtered.v2"})";

  // Each line decoded by its own type, chosen by `type`.
  int seen_v1 = 0, seen_v2 = 0;
  for (const std::string& line : {v1, v2}) {
    auto envelope = read_event(line);
    REQUIRE(envelope.has_value());
    if (envelope->type == contracts::env_filtered::event_type) {
      auto e = assay::decode<evidence_event<contracts::env_filtered>>(line);
      if (!e)
        FAIL(e.error().format());
      CHECK(e->data.passed_keys == std::vector<std::string>{"PATH"});
      CHECK(assay::encode(*e).value() == line);
      ++seen_v1;
    } else if (envelope->type == env_filtered_v2::event_type) {
      auto e = assay::decode<evidence_event<env_filtered_v2>>(line);
      if (!e)
        FAIL(e.error().format());
      CHECK(e->data.mode == "strict");
      CHECK(e->data.total_keys.value() == 2);
      CHECK(e->data.counters.at("dropped").value() == 1);
      CHECK(assay::encode(*e).value() == line);
      ++seen_v2;
    }
  }
  CHECK(seen_v1 == 1);
  CHECK(seen_v2 == 1);

  // The v2 type is not registered: read_event keeps its data as it is.
  CHECK(contracts::find_event_type("assay.env.filtered.v2") == nullptr);
  CHECK(contracts::find_event_type("assay.env.filtered") != nullptr);

  // Each type refuses the other's events: the type is checked, and so is the data (v1 keeps
  // total_keys as an additive member, but v2 has no passed_keys).
  auto v2_as_v1 = assay::decode<evidence_event<contracts::env_filtered>>(v2);
  REQUIRE_FALSE(v2_as_v1.has_value());
  CHECK(code_name(error_at(v2_as_v1.error(), "/data/passed_keys").code) == code_name(errc::missing_member));
  for (const auto& e : v2_as_v1.error())
    CHECK(e.pointer != "/data/total_keys");
  auto v1_as_v2 = assay::decode<evidence_event<env_filtered_v2>>(v1);
  REQUIRE_FALSE(v1_as_v2.has_value());
  CHECK(code_name(error_at(v1_as_v2.error(), "/data/passed_keys").code) == code_name(errc::unknown_member));

  // Valid v2 data under another type name: only the envelope's rule (type = the payload's) can tell.
  const std::string v2_data_v3_type =
      replaced(v2, R"("type":"assay.env.filtered.v2")", R"("type":"assay.env.filtered.v3")");
  auto wrong_type = assay::decode<evidence_event<env_filtered_v2>>(v2_data_v3_type);
  REQUIRE_FALSE(wrong_type.has_value());
  REQUIRE(wrong_type.error().size() == 1);
  CHECK(wrong_type.error().front().pointer == "/type");
  CHECK(code_name(wrong_type.error().front().code) == code_name(errc::rule_violation));

  // The v2 data under the v1 name is checked by the registered v1 payload.
  const std::string v2_data_under_v1 =
      replaced(v2, R"("type":"assay.env.filtered.v2")", R"("type":"assay.env.filtered")");
  auto r = read_event(v2_data_under_v1);
  REQUIRE_FALSE(r.has_value());
  REQUIRE(r.error().size() == 1);
  CHECK(code_name(error_at(r.error(), "/data/passed_keys").code) == code_name(errc::missing_member));
}

TEST_CASE("payloads evolve additively: typed members checked, every other member kept as written (SPEC §8)") {
  namespace json = assay::json;
  // A decision shaped like the reference's runtime, not in canonical order, with white space.
  const std::string written =
      R"({ "tool": "transfer_funds", "decision": "error", "reason_code": "E_UPSTREAM", "tool_call_id": "tc_9",)"
      R"( "mandate_id": "mnd_1", "principal": "alice", "auth_scheme": "oauth2", "auth_issuer": "https://i/",)"
      R"( "reason": "timed out", "obligations": [ {"type": "log", "params": {"level": "info"}} ],)"
      R"( "approval_state": "pending", "x_vendor": {"k": [1, 2]}, "x_num": 1.50 })";
  const std::string canonical =
      R"({"approval_state":"pending","auth_issuer":"https://i/","auth_scheme":"oauth2","decision":"error",)"
      R"("mandate_id":"mnd_1","obligations":[{"params":{"level":"info"},"type":"log"}],"principal":"alice",)"
      R"("reason":"timed out","reason_code":"E_UPSTREAM","tool":"transfer_funds","tool_call_id":"tc_9",)"
      R"("x_num":1.5,"x_vendor":{"k":[1,2]}})";
  auto d = assay::decode<contracts::tool_decision>(written);
  if (!d)
    FAIL(d.error().format());
  CHECK(d->decision == "error");
  CHECK(plain(d->tool_call_id) == "tc_9");
  CHECK(plain(d->mandate_id) == "mnd_1");
  CHECK(plain(d->principal) == "alice");
  CHECK(plain(d->auth_scheme) == "oauth2");
  CHECK(plain(d->auth_issuer) == "https://i/");
  CHECK(plain(d->reason) == "timed out");
  REQUIRE(d->extra.size() == 4);  // obligations, approval_state, x_vendor, x_num
  CHECK(json::to_canonical(d->extra.at("obligations")).value() == R"([{"params":{"level":"info"},"type":"log"}])");
  CHECK(json::to_canonical(d->extra.at("x_vendor")).value() == R"({"k":[1,2]})");
  CHECK(d->extra.at("approval_state").as_string() == "pending");
  CHECK(assay::encode(*d).value() == canonical);
  CHECK(json::canonicalize(written).value() == canonical);  // the JCS form of what was written

  // Built in C++: the typed members, and the producer's own through `extra`.
  contracts::tool_decision b{.tool = "transfer_funds", .decision = "error", .reason_code = "E_UPSTREAM"};
  b.tool_call_id = "tc_9";
  b.mandate_id = "mnd_1";
  b.principal = "alice";
  b.auth_scheme = "oauth2";
  b.auth_issuer = "https://i/";
  b.reason = "timed out";
  b.extra["obligations"] = json::parse(R"([{"type":"log","params":{"level":"info"}}])").value();
  b.extra["approval_state"] = json::value("pending");
  b.extra["x_vendor"] = json::parse(R"({"k":[1,2]})").value();
  b.extra["x_num"] = json::value(1.5);
  CHECK(assay::encode(b).value() == canonical);
  b.extra["decision"] = json::value("allow");  // the name of a typed member: refused
  auto dup = assay::encode(b);
  REQUIRE_FALSE(dup.has_value());
  CHECK(code_name(dup.error().front().code) == code_name(errc::duplicate_member));

  // The typed members are still checked, each at its pointer.
  auto maybe =
      assay::decode<contracts::tool_decision>(replaced(written, R"("decision": "error")", R"("decision": "maybe")"));
  REQUIRE_FALSE(maybe.has_value());
  REQUIRE(maybe.error().size() == 1);
  CHECK(code_name(maybe.error().front().code) == code_name(errc::enum_mismatch));
  CHECK(maybe.error().front().pointer == "/decision");
  CHECK(maybe.error().front().message == R"("maybe" is not one of "allow", "deny", "requires_approval", "error")");
  auto five =
      assay::decode<contracts::tool_decision>(replaced(written, R"("tool_call_id": "tc_9")", R"("tool_call_id": 5)"));
  REQUIRE_FALSE(five.has_value());
  REQUIRE(five.error().size() == 1);
  CHECK(code_name(five.error().front().code) == code_name(errc::type_mismatch));
  CHECK(five.error().front().pointer == "/tool_call_id");

  // Every known type keeps an additive member beside its typed ones.
  const std::vector<std::pair<std::string_view, std::string>> minimal = {
      {"assay.approval.recorded", R"({"approver":"a","decision":"d"})"},
      {"assay.env.filtered", R"({"counters":{},"dropped_keys":[],"mode":"m","passed_keys":[]})"},
      {"assay.fs.access", R"({"hits":1})"},
      {"assay.mcp.refused",
       R"({"code":-32700,"line_bytes":1,"line_sha256":")" + std::string(64, '0') + R"(","reason":"r"})"},
      {"assay.mcp.tools_listed", R"({"server_id":"s","tools":[]})"},
      {"assay.model.invoked", R"({"model":"m"})"},
      {"assay.net.access", R"({"hits":1})"},
      {"assay.profile.finished",
       R"({"files_count":0,"network_count":0,"processes_count":0,"sandbox_degradation_count":0})"},
      {"assay.profile.started", R"({"profile_name":"p","profile_version":"1","total_runs_aggregated":0})"},
      {"assay.prompt.lineage", R"({"prompt_digest":"d"})"},
      {"assay.run.input", R"({"input":null})"},
      {"assay.run.seed", R"({"seed":1})"},
      {"assay.sandbox.degraded",
       R"({"component":"landlock","degradation_mode":"audit_fallback","reason_code":"policy_conflict"})"},
      {"assay.tool.call", R"({"tool":"t"})"},
      {"assay.tool.decision", R"({"decision":"allow","reason_code":"r","tool":"t"})"},
  };
  REQUIRE(minimal.size() == contracts::event_types().size());
  for (const auto& entry : minimal) {  // not a structured binding: clang 14 cannot capture one (CAPTURE)
    const std::string_view type = entry.first;
    const std::string& data = entry.second;
    CAPTURE(type);
    const auto* known = contracts::find_event_type(type);
    REQUIRE(known != nullptr);
    CHECK(known->validate_data(data, {}).has_value());
    const std::string with_extra = replaced(data, "{", R"({"zz_vendor":{"any":[null,true]},)");
    CHECK(known->validate_data(with_extra, {}).has_value());
  }
}
