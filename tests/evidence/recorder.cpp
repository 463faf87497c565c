// The producer API: envelopes filled in, payloads validated, ids.
#include "support.hpp"

#include "assay/contracts/payloads.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"

#include <chrono>
#include <set>

namespace ev = assay::evidence;
namespace c = assay::contracts;
using namespace std::chrono;

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
  ev::recorder run({.source = "urn:assay:test",
                    .run_id = "run-7",
                    .producer = {"rt", "2.0.0", "abc1234"},
                    .policy_id = "p1",
                    .clock = [&] { return t += milliseconds{1}; }});
  auto s0 = run.append(c::profile_started::event_type,
                       c::profile_started{.profile_name = "p", .profile_version = "1", .total_runs_aggregated = 0});
  REQUIRE(s0.has_value());
  CHECK(*s0 == 0);
  auto s1 = run.append("custom.type", assay::json::parse(R"({"anything":[1,2]})").value(), {.subject = "tool:x"});
  CHECK(*s1 == 1);
  const auto& e = run.events()[1];
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
  ev::recorder run({.source = "urn:assay:test", .run_id = "r"});
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
