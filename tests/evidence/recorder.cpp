// The producer API: envelopes filled in, payloads validated, ids.
#include "support.hpp"

#include "evidence/runtime_decisions.hpp"
#include "reflect/check_error.hpp"

#include "assay/contracts/payloads.hpp"
#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/canonical.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ev = assay::evidence;
namespace c = assay::contracts;
using namespace std::chrono;
using assay::errc;
using assay_test::check_errors;

TEST_CASE("identifiers") {
  CHECK(ev::stream_id("run_x", 42) == "run_x:42");
  const auto a = ev::strict_run_id("/repo", "sha256:p", "assay run", "sha256:e");
  CHECK(a == ev::strict_run_id("/repo", "sha256:p", "assay run", "sha256:e"));
  CHECK(a != ev::strict_run_id("/repo", "sha256:p", "assay ru", "nsha256:e"));  // the NUL separators matter
  CHECK(a.rfind("run_", 0) == 0);
  CHECK(a.size() == 4 + 43);  // 32 bytes in base64url without padding
  CHECK(a.find_first_of("+/=") == std::string::npos);
  const std::uint8_t f[] = {'f', 'o', 'o', 'b', 'a', 'r'};
  CHECK(ev::base64url_nopad(f, 1) == "Zg");
  CHECK(ev::base64url_nopad(f, 2) == "Zm8");
  CHECK(ev::base64url_nopad(f, 6) == "Zm9vYmFy");
  const std::uint8_t g[] = {0xfb, 0xff};
  CHECK(ev::base64url_nopad(g, 2) == "-_8");

  std::set<std::string> seen;
  std::string prev;
  for (int i = 0; i < 20000; ++i) {  // many within one millisecond: the counter keeps order
    const std::string u = ev::live_run_id();
    REQUIRE(u.size() == 36);
    CHECK(u[14] == '7');
    CHECK((u[19] == '8' || u[19] == '9' || u[19] == 'a' || u[19] == 'b'));
    CHECK(u > prev);
    prev = u;
    seen.insert(u);
  }
  CHECK(seen.size() == 20000);
  ev::run_root_builder empty;
  CHECK(empty.finish() == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("a recorded run fills every envelope member and verifies") {
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make({.source = "urn:assay:test",
                                 .run_id = "run-7",
                                 .producer = {"rt", "2.0.0", "abc1234"},
                                 .policy_id = "p1",
                                 .clock = [&] { return t += milliseconds{1}; }})
                 .value();
  auto s0 = run.append(c::profile_started::event_type,
                       c::profile_started{.profile_name = "p", .profile_version = "1", .total_runs_aggregated = 0});
  REQUIRE(s0.has_value());
  CHECK(*s0 == 0);
  auto s1 = run.append("custom.type", assay::json::parse(R"({"anything":[1,2]})").value(), {.subject = "tool:x"});
  CHECK(*s1 == 1);
  const auto e = run.event(1).value();
  CHECK(e.find("id")->as_string() == "run-7:1");
  CHECK(e.find("time")->as_string() == "2023-11-14T22:13:20.002Z");
  CHECK(e.find("subject")->as_string() == "tool:x");
  CHECK(e.find("assaygit")->as_string() == "abc1234");
  CHECK(e.find("assaypolicyid")->as_string() == "p1");
  CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
  auto gz = run.finish();
  REQUIRE(gz.has_value());
  auto v = ev::verify_bundle_bytes(*gz);
  REQUIRE(v.has_value());
  CHECK(v->run_id == "run-7");
  CHECK(v->producer.git == "abc1234");
  CHECK(v->time_start == "2023-11-14T22:13:20.001Z");
  CHECK(v->time_end == "2023-11-14T22:13:20.002Z");
}

TEST_CASE("an invalid payload is refused with pointers under /data") {
  auto run = ev::recorder::make({.source = "urn:assay:test", .run_id = "r"}).value();
  c::tool_decision d{.tool = "t", .decision = "deny", .reason_code = "x"};
  d.tool_definition_digest = "sha256:ab";
  d.delegation_depth = -1;
  auto r = run.append(c::tool_decision::event_type, d);
  REQUIRE(!r.has_value());
  REQUIRE(r.error().size() == 2);
  CHECK(r.error().items[0].pointer == "/data/delegation_depth");
  CHECK(r.error().items[0].code == assay::errc::below_minimum);
  CHECK(r.error().items[1].pointer == "/data");
  CHECK(r.error().items[1].code == assay::errc::rule_violation);
  CHECK(run.size() == 0);  // nothing was recorded
}

namespace {

// A run with every envelope member a recorder writes, and payloads of both kinds.
ev::recorder full_run() {
  auto t = std::make_shared<system_clock::time_point>(seconds{1700000000});
  auto run = ev::recorder::make({.source = "urn:assay:test",
                                 .run_id = "run-8",
                                 .producer = {"rt", "2.0.0", std::nullopt},
                                 .policy_id = "p\"1",
                                 .clock = [t] { return *t += microseconds{1500}; }})
                 .value();
  c::tool_decision d{.tool = "read_file", .decision = "allow", .reason_code = "P_\u00e9"};
  d.policy_digest = "sha256:1f39a541bdfda88c46f6561084909883101e93f0fc7a5e041b408ce38d340069";
  REQUIRE(run.append(c::tool_decision::event_type, d).has_value());
  REQUIRE(run.append("custom.type", assay::json::parse(R"({"z":[1,2.5,{"b":null,"a":"x\ny"}],"a":1e21})").value(),
                     {.subject = "",
                      .traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                      .tracestate = "k=v",
                      .pii = true,
                      .secrets = true})
              .has_value());
  REQUIRE(run.append(c::profile_finished::event_type,
                     c::profile_finished{
                         .files_count = 1, .network_count = 0, .processes_count = 2, .sandbox_degradation_count = 0},
                     {.subject = "run"})
              .has_value());
  return run;
}

}  // namespace

TEST_CASE("a recorded run is the bundle the writer makes of the same events, byte for byte") {
  ev::recorder run = full_run();
  std::vector<assay::json::value> events;
  for (std::uint64_t i = 0; i < run.size(); ++i) {
    const auto e = run.event(i).value();
    CHECK(assay::json::to_canonical(e).value() == run.line(i).value());  // each line canonical
    CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
    events.push_back(e);
  }
  CHECK(run.event(1).value().find("subject")->as_string().empty());
  CHECK(run.event(1).value().find("assaypii")->as_bool());
  CHECK(run.event(0).value().find("assaypolicyid")->as_string() == "p\"1");
  ev::bundle_options opt;
  opt.producer = ev::producer_info{"rt", "2.0.0", std::nullopt};
  const auto written = ev::write_bundle(events, opt).value();
  CHECK(run.finish().value() == written);
  CHECK(ev::verify_bundle_bytes(written).has_value());
}

TEST_CASE("finish refuses what the verifier would reject, as the writer does") {
  auto same_as_writer = [](const ev::recorder& run, const ev::bundle_options& opt = {}) {
    std::vector<assay::json::value> events;
    for (std::uint64_t i = 0; i < run.size(); ++i)
      events.push_back(run.event(i).value());
    ev::bundle_options with_producer = opt;
    with_producer.producer = ev::producer_info{"rt", "2.0.0", std::nullopt};
    auto mine = run.finish(opt);
    auto theirs = ev::write_bundle(events, with_producer);
    REQUIRE_FALSE(mine.has_value());
    REQUIRE_FALSE(theirs.has_value());
    CHECK(assay::name(mine.error().code) == assay::name(theirs.error().front().code));
    return mine.error();
  };
  assay::error e;
  ev::bundle_options opt;
  opt.limits.max_json_depth = 3;  // the second event nests 4 levels
  e = same_as_writer(full_run(), opt);
  CHECK(e.code == ev::code::LimitJsonDepth);
  CHECK(e.pointer == "/1");
  opt = {};
  opt.limits.max_line_bytes = full_run().line(0).value().size() - 1;
  e = same_as_writer(full_run(), opt);
  CHECK(e.code == ev::code::LimitLineBytes);
  CHECK(e.pointer == "/0");
  opt = {};
  opt.limits.max_events = 2;
  CHECK(same_as_writer(full_run(), opt).code == ev::code::LimitTotalEvents);
  opt = {};
  opt.limits.max_events_bytes = 100;
  CHECK(same_as_writer(full_run(), opt).code == ev::code::LimitFileSize);
  CHECK(ev::recorder::make({.run_id = "r"}).value().finish().error().code == ev::code::ContractInvalidEvent);
  // Text that is not UTF-8 is refused where it enters.
  auto run = ev::recorder::make({.source = "urn:x", .run_id = "r"}).value();
  auto bad = run.append("t\xff", assay::json::value(1));
  REQUIRE_FALSE(bad.has_value());
  check_errors(bad.error(), {{errc::invalid_utf8, "string is not valid UTF-8", "/type"}});
  CHECK(run.size() == 0);
  CHECK(run.append("t", assay::json::value(std::string("\xff"))).error().front().pointer == "/data");
  CHECK(run.size() == 0);
  CHECK(run.append("t", assay::json::value(1)).value() == 0);
  CHECK(run.line(0).value().find("\xff") == std::string_view::npos);
}

TEST_CASE("a recorder is made with its options checked: every bad one, with its pointer") {
  auto r = ev::recorder::make(
      {.source = "no-colon", .run_id = "a:b", .producer = {"", "", std::nullopt}, .policy_id = std::string("p\xff")});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::pattern_mismatch, R"("no-colon" does not match the pattern ^[^:]+:)", "/source"},
                           {errc::pattern_mismatch, R"("a:b" does not match the pattern ^[^:]+$)", "/run_id"},
                           {errc::too_short, "string is shorter than the minimum length 1", "/producer/name"},
                           {errc::too_short, "string is shorter than the minimum length 1", "/producer/version"},
                           {errc::invalid_utf8, "string is not valid UTF-8", "/policy_id"}});
  auto colon_first = ev::recorder::make({.source = ":x"});
  REQUIRE_FALSE(colon_first.has_value());
  check_errors(colon_first.error(),
               {{errc::pattern_mismatch, R"(":x" does not match the pattern ^[^:]+:)", "/source"}});
  auto git = ev::recorder::make({.producer = {"rt", "1", std::string("\xc3")}});
  REQUIRE_FALSE(git.has_value());
  check_errors(git.error(), {{errc::invalid_utf8, "string is not valid UTF-8", "/producer/git"}});
  // The defaults are a valid recorder; an empty run id is a fresh live one.
  auto fine = ev::recorder::make();
  REQUIRE(fine.has_value());
  CHECK(fine->run_id().size() == 36);
}

namespace {

// A consumer's own structs for known event types, without the library's constraints.
struct my_profile_started {
  std::string profile_name;
  std::string profile_version;
  int total_runs_aggregated = 0;
};
struct my_access {
  std::int64_t hits = 0;
  std::string file;
};

// The line the recorder would have written, as `assay validate evidence-event-v1` reads it: the
// same refusal, for the same reasons.
void validate_also_rejects(std::string_view type, const assay::json::value& data,
                           std::optional<std::string> traceparent = std::nullopt) {
  auto e =
      assay::json::parse(R"({"specversion":"1.0","source":"urn:x","id":"r:0","time":"2026-01-01T00:00:00Z",)"
                         R"("datacontenttype":"application/json","assayrunid":"r","assayseq":0,"assayproducer":"p",)"
                         R"("assayproducerversion":"1","assaygit":"unknown","assaypii":false,"assaysecrets":false,)"
                         R"("assaycontenthash":null})")
          .value();
  e.set("type", std::string(type));
  e.set("data", data);
  if (traceparent)
    e.set("traceparent", *traceparent);
  CHECK_FALSE(assay::contracts::read_event(assay::json::to_canonical(e).value()).has_value());
}

}  // namespace

TEST_CASE("what a thread's last append left behind never lets a later one through unchecked") {
  // append() keeps, per thread, the last type it took and the texts made of it (the projection's
  // end, the line's end): a different type, a subject, trace context or another recorder must
  // each get their own, and a wrong type after a right one is still refused.
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run =
      ev::recorder::make({.source = "urn:x", .run_id = "r", .clock = [&] { return t += milliseconds{1}; }}).value();
  auto other = ev::recorder::make({.source = "urn:y", .run_id = "q"}).value();
  const c::tool_decision allow{.tool = "t", .decision = "allow", .reason_code = "ok"};
  const auto one = assay::json::parse(R"({"a":1})").value();
  REQUIRE(run.append(c::tool_decision::event_type, allow).has_value());
  auto wrong = run.append(c::fs_access::event_type, allow);
  REQUIRE_FALSE(wrong.has_value());
  check_errors(wrong.error(),
               {{errc::rule_violation, R"(a assay.tool.decision payload needs type "assay.tool.decision")", "/type"}});
  REQUIRE(run.append(c::tool_decision::event_type, allow).has_value());
  REQUIRE(other.append(c::tool_decision::event_type, allow).has_value());
  REQUIRE(run.append("vendor.a", one, {.subject = "s1"}).has_value());
  REQUIRE(run.append("vendor.a", one).has_value());
  REQUIRE(run.append("vendor.b", one, {.subject = "s2"}).has_value());
  auto empty = run.append("", one);
  REQUIRE_FALSE(empty.has_value());
  check_errors(empty.error(), {{errc::too_short, "string is shorter than the minimum length 1", "/type"}});
  REQUIRE(run.append("vendor.b", one, {.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
              .has_value());
  REQUIRE(run.append(c::tool_decision::event_type, allow, {.subject = "s3"}).has_value());
  const char* types[] = {"assay.tool.decision", "assay.tool.decision", "vendor.a", "vendor.a", "vendor.b", "vendor.b",
                         "assay.tool.decision"};
  const char* subjects[] = {nullptr, nullptr, "s1", nullptr, "s2", nullptr, "s3"};
  REQUIRE(run.size() == 7);
  for (std::uint64_t i = 0; i < 7; ++i) {
    const auto e = run.event(i).value();
    CAPTURE(i);
    CHECK(e.find("type")->as_string() == types[i]);
    CHECK(e.find("assayseq")->as_number() == static_cast<double>(i));
    const auto* subject = e.find("subject");
    CHECK((subject == nullptr) == (subjects[i] == nullptr));
    if (subject != nullptr && subjects[i] != nullptr)
      CHECK(subject->as_string() == subjects[i]);
    CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
    CHECK(assay::json::to_canonical(e).value() == run.line(i).value());
  }
  CHECK(run.event(5).value().find("traceparent")->as_string() ==
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  CHECK(other.event(0).value().find("source")->as_string() == "urn:y");
  CHECK(ev::verify_bundle_bytes(run.finish().value()).has_value());
}

TEST_CASE("append refuses what evidence-event-v1 rejects: every violation, with its pointer") {
  auto run = ev::recorder::make({.source = "urn:x", .run_id = "r"}).value();
  const c::tool_decision allow{.tool = "t", .decision = "allow", .reason_code = "ok"};
  // A known type's payload recorded under another event type.
  auto wrong_type = run.append(c::fs_access::event_type, allow);
  REQUIRE_FALSE(wrong_type.has_value());
  check_errors(wrong_type.error(),
               {{errc::rule_violation, R"(a assay.tool.decision payload needs type "assay.tool.decision")", "/type"}});
  // decision "maybe", as untyped JSON under the known type.
  const auto maybe = assay::json::parse(R"({"tool":"t","decision":"maybe","reason_code":"r"})").value();
  auto r = run.append(c::tool_decision::event_type, maybe);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::enum_mismatch, R"("maybe" is not one of "allow", "deny", "requires_approval", "error")",
                 "/data/decision"}});
  validate_also_rejects(c::tool_decision::event_type, maybe);
  // An empty type, and a traceparent that is not one: both reported.
  r = run.append("", allow, {.traceparent = "garbage"});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::too_short, "string is shorter than the minimum length 1", "/type"},
                {errc::pattern_mismatch,
                 R"("garbage" does not match the pattern ^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$)", "/traceparent"},
                {errc::rule_violation, R"(a assay.tool.decision payload needs type "assay.tool.decision")", "/type"}});
  validate_also_rejects("", assay::json::value(1));
  validate_also_rejects("vendor.x", assay::json::value(1), "garbage");
  r = run.append("vendor.x", assay::json::value(1),
                 {.traceparent = "00-00000000000000000000000000000000-0000000000000000-01"});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::rule_violation, "the trace id must not be all zeros", "/traceparent"},
                           {errc::rule_violation, "the parent (span) id must not be all zeros", "/traceparent"}});
  // A consumer's struct under a known type is held to that type's contract.
  r = run.append(c::profile_started::event_type, my_profile_started{"p", "1", -1});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::below_minimum, "-1 is less than the minimum 0", "/data/total_runs_aggregated"}});
  r = run.append(c::fs_access::event_type, my_access{-3, "/etc/passwd"});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::below_minimum, "-3 is less than the minimum 0", "/data/hits"}});
  validate_also_rejects(c::fs_access::event_type, assay::json::parse(R"({"hits":-3})").value());
  // A count JSON cannot carry exactly is refused, not rounded.
  r = run.append(
      c::profile_finished::event_type,
      c::profile_finished{
          .files_count = 9007199254740993, .network_count = 0, .processes_count = 0, .sandbox_degradation_count = 0});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::above_maximum,
                            "9007199254740993 cannot be written exactly: a JSON number holds integers only up to "
                            "9007199254740992 (2^53)",
                            "/data/files_count"}});
  CHECK(run.size() == 0);  // nothing of it was recorded
  // The same structs, valid, are recorded; so is anything under a type the library does not know.
  CHECK(run.append(c::profile_started::event_type, my_profile_started{"p", "1", 2}).value() == 0);
  CHECK(run.append(c::fs_access::event_type, my_access{3, "/etc/hosts"}).value() == 1);
  CHECK(run.append("vendor.x", my_access{-3, ""},
                   {.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
            .value() == 2);
  CHECK(ev::verify_bundle_bytes(run.finish().value()).has_value());
}

TEST_CASE("decisions shaped like the reference's runtime: recorded, bundled and verified with their contracts") {
  namespace json = assay::json;
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make({.source = "urn:assay:mcp-server",
                                 .run_id = "run-rt",
                                 .producer = {"mcp-server", "1.0.0", std::nullopt},
                                 .clock = [&] { return t += seconds{1}; }})
                 .value();
  std::vector<std::string> expected;
  for (std::string_view d : assay_test::runtime::decisions) {  // as JSON values
    REQUIRE(run.append(c::tool_decision::event_type, json::parse(d).value()).has_value());
    expected.emplace_back(d);
  }
  // The second of them built as a typed payload: the typed members, then the producer's own.
  c::tool_decision typed{.tool = "transfer_funds", .decision = "allow", .reason_code = "P_MANDATE_OK"};
  typed.tool_call_id = "tc_002";
  typed.mandate_id = "mnd_7f3a";
  typed.principal = "alice@example.com";
  typed.auth_scheme = "jwt_bearer";
  typed.auth_issuer = "https://issuer.example/";
  typed.extra["obligations"] =
      json::parse(R"([{"type":"log","params":{"level":"info"}},{"type":"alert_on_use","params":{"channel":"sec"}}])")
          .value();
  typed.extra["approval_state"] = json::value("not_required");
  typed.extra["x_vendor"] = json::parse(R"({"k":[1,2]})").value();
  REQUIRE(run.append(c::tool_decision::event_type, typed).has_value());
  expected.emplace_back(assay_test::runtime::decisions[1]);
  REQUIRE(run.size() == 5);
  // Each data kept as written, in its canonical bytes, on its line.
  for (std::uint64_t i = 0; i < run.size(); ++i) {
    CAPTURE(i);
    CHECK(run.line(i).value().find(",\"data\":" + expected[i] + ",\"datacontenttype\":") != std::string_view::npos);
  }
  const std::string gz = run.finish().value();
  ev::payload_check contracts;
  const auto v = ev::verify_bundle_bytes(gz, {}, contracts);
  REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
  CHECK(v->event_count == 5);
  // The writer, payload checks on (the default), makes the same bundle of the same events.
  std::vector<json::value> events;
  for (std::uint64_t i = 0; i < run.size(); ++i)
    events.push_back(run.event(i).value());
  const auto written = ev::write_bundle(events);
  REQUIRE_MESSAGE(written.has_value(), (written ? std::string() : written.error().format()));
  CHECK(*written == gz);

  // The typed members are still checked.
  auto maybe = json::parse(assay_test::runtime::decisions[0]).value();
  maybe.set("decision", "maybe");
  auto r = run.append(c::tool_decision::event_type, maybe);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::enum_mismatch, R"("maybe" is not one of "allow", "deny", "requires_approval", "error")",
                 "/data/decision"}});
  auto five = json::parse(assay_test::runtime::decisions[0]).value();
  five.set("tool_call_id", 5.0);
  r = run.append(c::tool_decision::event_type, five);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::type_mismatch, "expected a string, found a number", "/data/tool_call_id"}});
  // A producer's member cannot take the name of a typed one.
  typed.extra["tool"] = json::value("shadow");
  r = run.append(c::tool_decision::event_type, typed);
  REQUIRE_FALSE(r.has_value());
  REQUIRE(r.error().size() == 1);
  CHECK(r.error().front().code == errc::duplicate_member);
  CHECK(run.size() == 5);  // none of them recorded
}
