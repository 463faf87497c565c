// Looking at bundles (SPEC §18): evidence show (the summary, the table sized to a width, JSON for
// scripts, a bundle that fails shown only without verification, rows spooled to a file) and
// evidence diff (each category, tools and decisions, event-type counts, the report's contract),
// over crafted bundles with exact expected bytes.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/contracts/show.hpp"
#include "assay/hash/hash.hpp"
#include "assay/inspect/diff.hpp"
#include "assay/inspect/show.hpp"
#include "assay/inspect/text.hpp"
#include "assay/reflect/codec.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace json = assay::json;
namespace inspect = assay::inspect;
using assay_test::event;

namespace {

// An event with a subject (none when empty).
json::value with_subject(json::value e, const std::string& subject) {
  if (!subject.empty())
    e.set("subject", subject);
  return e;
}

// A bundle of `events`, renumbered from seq 0 in run `run`, each a second after the one before.
std::string bundle_of(std::vector<json::value> events, const std::string& run = "run-1") {
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].set("assayseq", static_cast<double>(i));
    events[i].set("assayrunid", run);
    events[i].set("id", run + ":" + std::to_string(i));
    events[i].set("time", "2026-01-02T03:04:0" + std::to_string(i) + "Z");
  }
  return assay_test::bundle(assay_test::lines_of(std::move(events)));
}

// What show_bundle wrote, and its outcome.
struct shown {
  assay::result<inspect::show_summary> r;
  std::string out;
};

shown show(const std::string& bundle, const inspect::show_options& o) {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  assay::evidence::byte_source src(bundle);
  shown s{inspect::show_bundle(src, o, f), {}};
  std::rewind(f);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    s.out.append(buf, n);
  std::fclose(f);
  return s;
}

std::string root_of(const std::string& bundle) {
  auto v = assay::evidence::verify_bundle_bytes(bundle);
  REQUIRE(v.has_value());
  return v->bundle_id;
}

const std::string decision_allow = R"({"tool":"shell","decision":"allow","reason_code":"ok"})";
const std::string decision_deny = R"({"tool":"shell","decision":"deny","reason_code":"no"})";

std::vector<json::value> baseline_events() {
  return {event(0, "assay.profile.started", R"({"profile_name":"p","profile_version":"1","total_runs_aggregated":0})"),
          event(1, "assay.tool.decision", decision_allow),
          with_subject(event(2, "assay.net.access", R"({"hits":1})"), "api.example.com:443"),
          with_subject(event(3, "assay.fs.access", R"({"hits":1})"), "/etc/hosts")};
}

inspect::evidence_diff diff_of(const std::string& a, const std::string& b) {
  assay::evidence::byte_source sa(a), sb(b);
  auto d = inspect::diff_bundles(sa, sb);
  REQUIRE(std::holds_alternative<inspect::evidence_diff>(d));
  auto out = std::get<inspect::evidence_diff>(std::move(d));
  // Every diff keeps its own contract, and reads back as itself.
  auto bytes = assay::encode(out);
  REQUIRE_MESSAGE(bytes.has_value(), (bytes ? std::string() : bytes.error().front().format()));
  auto back = assay::decode<inspect::evidence_diff>(*bytes);
  REQUIRE_MESSAGE(back.has_value(), (back ? std::string() : back.error().front().format()));
  CHECK(assay::encode(*back).value() == *bytes);
  return out;
}

}  // namespace

TEST_CASE("text: control characters made printable, widths in code points, shortened in the middle") {
  CHECK(inspect::printable("a\x1b[31mb\n\x7f\xc2\x85\xc3\xa9") == "a\\x1b[31mb\\x0a\\x7f\\u0085\xc3\xa9");
  // Direction overrides, isolates and marks, and bytes that are not UTF-8, are escaped too.
  CHECK(inspect::printable("a\xe2\x80\xae"
                           "b\xe2\x81\xa6"
                           "c\xe2\x80\x8f"
                           "d\xff"
                           "e") == "a\\u202eb\\u2066c\\u200fd\\xffe");
  CHECK(inspect::width_of("h\xc3\xa9llo \xe2\x86\x92") == 7);
  CHECK(inspect::shorten_middle("abcdefghij", 10) == "abcdefghij");
  CHECK(inspect::shorten_middle("abcdefghij", 7) == "abc\xe2\x80\xa6hij");
  CHECK(inspect::shorten_middle("abcdefghij", 6) == "abc\xe2\x80\xa6ij");
  CHECK(inspect::shorten_middle("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4) ==
        "\xc3\xa9\xc3\xa9\xe2\x80\xa6\xc3\xa9");
  CHECK(inspect::shorten_middle("abc", 1) == "\xe2\x80\xa6");
  CHECK(inspect::shorten_middle("abc", 0).empty());
}

TEST_CASE("diff: identical bundles change nothing") {
  const std::string b = bundle_of(baseline_events());
  const auto d = diff_of(b, b);
  CHECK_FALSE(d.summary.changed);
  CHECK(d.summary.added_in.empty());
  CHECK(d.summary.event_count_delta == 0);
  const std::string root = root_of(b);
  CHECK(inspect::diff_text(d) ==
        "baseline   run-1  4 events  2026-01-02T03:04:00Z .. 2026-01-02T03:04:03Z  bundle_id " + root +
            "\n"
            "candidate  run-1  4 events  2026-01-02T03:04:00Z .. 2026-01-02T03:04:03Z  bundle_id " +
            root +
            "\n"
            "events: 4 \xe2\x86\x92 4 (0)\n"
            "network: no change\nfilesystem: no change\nprocesses: no change\ntools: no change\n"
            "event types: no change\n");
}

TEST_CASE("diff: a new network subject, a file no longer touched, a decision flipped, a new tool") {
  const std::string base = bundle_of(baseline_events(), "run-a");
  auto events = baseline_events();
  events[1] = event(1, "assay.tool.decision", decision_deny);
  events[3] = with_subject(event(3, "assay.net.access", R"({"hits":1})"), "evil.example.net:443");
  events.push_back(event(4, "assay.tool.call", R"({"tool":"curl"})"));
  events.push_back(with_subject(event(5, "assay.process.exec", "{}"), "/bin/sh"));
  const std::string cand = bundle_of(std::move(events), "run-b");
  const auto d = diff_of(base, cand);
  CHECK(d.network.added == std::vector<std::string>{"evil.example.net:443"});
  CHECK(d.network.removed.empty());
  CHECK(d.filesystem.removed == std::vector<std::string>{"/etc/hosts"});
  CHECK(d.processes.added == std::vector<std::string>{"/bin/sh"});
  CHECK(d.tools.added == std::vector<std::string>{"curl"});
  REQUIRE(d.tools.decisions_changed.size() == 1);
  CHECK(d.summary.changed);
  CHECK(d.summary.event_count_delta == 2);
  std::vector<std::string> added(d.summary.added_in.begin(), d.summary.added_in.end());
  CHECK(added == std::vector<std::string>{"network", "processes", "tools"});
  const std::vector<std::string> gate{"filesystem", "tools", "network"};
  CHECK(inspect::added_in(d, gate) == std::vector<std::string>{"tools", "network"});
  CHECK(inspect::added_in(d, std::vector<std::string>{"filesystem"}).empty());
  CHECK(inspect::diff_text(d) ==
        "baseline   run-a  4 events  2026-01-02T03:04:00Z .. 2026-01-02T03:04:03Z  bundle_id " + root_of(base) +
            "\n"
            "candidate  run-b  6 events  2026-01-02T03:04:00Z .. 2026-01-02T03:04:05Z  bundle_id " +
            root_of(cand) +
            "\n"
            "events: 4 \xe2\x86\x92 6 (+2)\n"
            "network: 1 added, 0 removed\n  + evil.example.net:443\n"
            "filesystem: 0 added, 1 removed\n  - /etc/hosts\n"
            "processes: 1 added, 0 removed\n  + /bin/sh\n"
            "tools: 1 added, 0 removed, 1 decision changed\n  + curl\n  ~ shell: allow \xe2\x86\x92 deny\n"
            "event types: 4 changed\n"
            "  assay.fs.access: 1 \xe2\x86\x92 0 (-1)\n"
            "  assay.net.access: 1 \xe2\x86\x92 2 (+1)\n"
            "  assay.process.exec: 0 \xe2\x86\x92 1 (+1)\n"
            "  assay.tool.call: 0 \xe2\x86\x92 1 (+1)\n");
  const std::string root_a = root_of(base), root_b = root_of(cand);
  CHECK(assay::encode(d).value() ==
        R"({"baseline":{"event_count":4,"run_id":"run-a","run_root":")" + root_a +
            R"(","time_range":{"end":"2026-01-02T03:04:03Z","start":"2026-01-02T03:04:00Z"}},)"
            R"("candidate":{"event_count":6,"run_id":"run-b","run_root":")" +
            root_b +
            R"(","time_range":{"end":"2026-01-02T03:04:05Z","start":"2026-01-02T03:04:00Z"}},)"
            R"("event_types":[{"baseline":1,"candidate":0,"type":"assay.fs.access"},)"
            R"({"baseline":1,"candidate":2,"type":"assay.net.access"},)"
            R"({"baseline":0,"candidate":1,"type":"assay.process.exec"},)"
            R"({"baseline":0,"candidate":1,"type":"assay.tool.call"}],)"
            R"("filesystem":{"added":[],"removed":["/etc/hosts"]},)"
            R"("network":{"added":["evil.example.net:443"],"removed":[]},)"
            R"("processes":{"added":["/bin/sh"],"removed":[]},"schema_version":"evidence-diff-v1",)"
            R"("summary":{"added_in":["network","processes","tools"],"changed":true,"event_count_delta":2},)"
            R"("tools":{"added":["curl"],"decisions_changed":[{"baseline":["allow"],"candidate":["deny"],)"
            R"("tool":"shell"}],"removed":[]}})");
}

TEST_CASE("diff: the reverse direction removes what the other added; categories by type as the reference") {
  auto events = baseline_events();
  events.push_back(with_subject(event(4, "vendor.net", "{}"), "ends-with-net:1"));
  events.push_back(with_subject(event(5, "vendor.network.x", "{}"), "not-a-category"));
  events.push_back(with_subject(event(6, "x.fs.y", "{}"), ""));  // no subject: nothing to list
  events.push_back(
      event(7, "assay.tool.decision", R"({"tool":"shell","decision":"requires_approval","reason_code":"r"})"));
  const std::string more = bundle_of(std::move(events));
  const std::string base = bundle_of(baseline_events());
  const auto d = diff_of(more, base);
  CHECK(d.network.removed == std::vector<std::string>{"ends-with-net:1"});
  CHECK(d.network.added.empty());
  CHECK(d.summary.added_in.empty());
  REQUIRE(d.tools.decisions_changed.size() == 1);
  const auto& c = d.tools.decisions_changed[0];
  CHECK(std::string(c.tool) == "shell");
  CHECK(std::vector<std::string_view>(c.baseline.begin(), c.baseline.end()) ==
        std::vector<std::string_view>{"allow", "requires_approval"});
  CHECK(std::vector<std::string_view>(c.candidate.begin(), c.candidate.end()) ==
        std::vector<std::string_view>{"allow"});
}

TEST_CASE("diff: a redacted tool name is its commitment's digest; a tool that stops being decided on") {
  const std::string digest = "sha256:" + std::string(64, 'c');
  auto base_events = baseline_events();
  base_events.push_back(
      event(4, "assay.tool.call", R"({"tool":{"alg":"sha256","digest":")" + digest + R"(","size_bytes":5}})"));
  auto cand_events = baseline_events();
  cand_events[1] = event(1, "assay.tool.call", R"({"tool":"shell"})");  // called, no decision recorded
  const auto d = diff_of(bundle_of(std::move(base_events)), bundle_of(std::move(cand_events)));
  CHECK(d.tools.removed == std::vector<std::string>{digest});
  REQUIRE(d.tools.decisions_changed.size() == 1);
  CHECK(d.tools.decisions_changed[0].candidate.empty());
  CHECK(inspect::diff_text(d).find("  ~ shell: allow \xe2\x86\x92 (none)\n") != std::string::npos);
}

TEST_CASE("diff: a bundle that fails verification is named, with its code") {
  const std::string good = bundle_of(baseline_events());
  std::string bad =
      assay_test::bundle(assay_test::lines_of(baseline_events()), [](json::value& m) { m.set("run_id", "other"); });
  assay::evidence::byte_source a(good), b(bad);
  auto d = inspect::diff_bundles(a, b);
  REQUIRE(std::holds_alternative<inspect::diff_failure>(d));
  const auto& f = std::get<inspect::diff_failure>(d);
  CHECK(f.role == inspect::diff_role::candidate);
  CHECK(assay::name(f.why.code) == "ContractRunIdMismatch");
  assay::evidence::byte_source c(bad), e(good);
  auto d2 = inspect::diff_bundles(c, e);
  REQUIRE(std::holds_alternative<inspect::diff_failure>(d2));
  CHECK(std::get<inspect::diff_failure>(d2).role == inspect::diff_role::baseline);
}

TEST_CASE("show: the summary and a table, whole when it fits") {
  auto events = baseline_events();
  events[3] = with_subject(event(3, "assay.fs.access", R"({"hits":1})"), "/etc/ho\x1bsts");
  const std::string b = bundle_of(std::move(events));
  inspect::show_options o;
  const auto s = show(b, o);
  REQUIRE(s.r.has_value());
  CHECK(s.r->verified);
  CHECK(s.r->events == 4);
  CHECK(s.out == "bundle_id " + root_of(b) +
                     "\nfile      sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(b).hex() +
                     "\n"
                     "run       run-1\n"
                     "producer  assay-test 1.0.0\n"
                     "events    4, 2026-01-02T03:04:00Z .. 2026-01-02T03:04:03Z\n"
                     "verified  ok\n"
                     "\n"
                     "SEQ  TIME                  TYPE                   SUBJECT\n"
                     "  0  2026-01-02T03:04:00Z  assay.profile.started\n"
                     "  1  2026-01-02T03:04:01Z  assay.tool.decision\n"
                     "  2  2026-01-02T03:04:02Z  assay.net.access       api.example.com:443\n"
                     "  3  2026-01-02T03:04:03Z  assay.fs.access        /etc/ho\\x1bsts\n");
}

TEST_CASE("show: a narrow terminal shortens type and subject in the middle; colour only when asked") {
  auto events = baseline_events();
  events[2] =
      with_subject(event(2, "assay.net.access", R"({"hits":1})"), "a-very-long-host-name.internal.example.com:8443");
  const std::string b = bundle_of(std::move(events));
  inspect::show_options o;
  o.width = 60;  // 3 + 20 + 6 = 29 fixed: 31 left, the type gets 15, the subject 16
  const auto s = show(b, o);
  REQUIRE(s.r.has_value());
  const std::string table = s.out.substr(s.out.find("SEQ"));
  CHECK(table ==
        "SEQ  TIME                  TYPE             SUBJECT\n"
        "  0  2026-01-02T03:04:00Z  assay.p\xe2\x80\xa6started\n"
        "  1  2026-01-02T03:04:01Z  assay.t\xe2\x80\xa6"
        "ecision\n"
        "  2  2026-01-02T03:04:02Z  assay.n\xe2\x80\xa6.access  a-very-l\xe2\x80\xa6om:8443\n"
        "  3  2026-01-02T03:04:03Z  assay.fs.access  /etc/hosts\n");
  o.colour = true;
  const auto c = show(b, o);
  CHECK(c.out.find("\x1b[1mSEQ  TIME") != std::string::npos);
  CHECK(c.out.find("  \x1b[36massay.fs.access\x1b[0m  /etc/hosts\n") != std::string::npos);
}

TEST_CASE("show --format json: the manifest, the events as they are, verified") {
  const std::string b = bundle_of(baseline_events());
  inspect::show_options o;
  o.fmt = inspect::show_options::format::json;
  const auto s = show(b, o);
  REQUIRE(s.r.has_value());
  const std::string lines = assay_test::lines_of([] {
    auto e = baseline_events();
    for (std::size_t i = 0; i < e.size(); ++i) {
      e[i].set("id", "run-1:" + std::to_string(i));
      e[i].set("time", "2026-01-02T03:04:0" + std::to_string(i) + "Z");
    }
    return e;
  }());
  std::string events;
  for (std::size_t at = 0, nl; (nl = lines.find('\n', at)) != std::string::npos; at = nl + 1)
    events += (events.empty() ? "" : ",") + lines.substr(at, nl - at);
  const std::string manifest = json::to_canonical(assay_test::manifest_for(lines)).value();
  CHECK(s.out == R"({"manifest":)" + manifest + R"(,"events":[)" + events + R"(],"verified":true})" + "\n");
  // The output is its contract's: decoded strictly, the manifest and every event as they were.
  auto typed = assay::decode<assay::contracts::show_output>(s.out);
  REQUIRE(typed.has_value());
  CHECK(json::to_canonical(typed->manifest).value() == manifest);
  REQUIRE(typed->events.size() == baseline_events().size());
  const std::size_t first_end = lines.find('\n');
  const std::string second_line = lines.substr(first_end + 1, lines.find('\n', first_end + 1) - first_end - 1);
  CHECK(json::to_canonical(typed->events[1]).value() == second_line);
  CHECK(typed->verified);
  CHECK_FALSE(typed->unreadable.has_value());
}

TEST_CASE("show: a bundle that fails is not shown; without verification it is, and says so") {
  std::string events = assay_test::lines_of(baseline_events());
  events.replace(events.find("\"shell\""), 7, "\"shelL\"");  // event 1's content hash no longer matches
  events += "not json\n";
  const std::string b = assay_test::bundle(events);
  inspect::show_options o;
  const auto s = show(b, o);
  REQUIRE_FALSE(s.r.has_value());
  CHECK(assay::name(s.r.error().code) == "IntegrityEventHash");
  CHECK(s.out.empty());
  o.verify = false;
  const auto u = show(b, o);
  REQUIRE(u.r.has_value());
  CHECK_FALSE(u.r->verified);
  CHECK(u.r->events == 4);
  CHECK(u.r->unreadable == 1);
  CHECK(u.out.starts_with("not verified (--no-verify): nothing below has been checked\nbundle_id sha256:"));
  CHECK(u.out.find("\nfile      sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(b).hex() + "\n") !=
        std::string::npos);  // the file's bytes, read to the end
  CHECK(u.out.find("events    4 read (the manifest says 4), 2026-01-02T03:04:05Z .. 2026-01-02T03:04:05Z\n"
                   "verified  no\n"
                   "unreadable events.ndjson line 5: not JSON: ") != std::string::npos);
  CHECK(u.out.find("  1  2026-01-02T03:04:05Z  assay.tool.decision\n") != std::string::npos);
  o.fmt = inspect::show_options::format::json;
  const auto j = show(b, o);
  REQUIRE(j.r.has_value());
  CHECK(j.out.find(R"(],"verified":false,"unreadable":[{"at":"events.ndjson line 5","error":"not JSON: )") !=
        std::string::npos);
  auto typed = assay::decode<assay::contracts::show_output>(j.out);
  REQUIRE(typed.has_value());
  CHECK_FALSE(typed->verified);
  CHECK(typed->events.size() == 4);
  REQUIRE(typed->unreadable.has_value());
  REQUIRE(typed->unreadable->size() == 1);
  CHECK(typed->unreadable->front().at == "events.ndjson line 5");
  CHECK(typed->unreadable->front().error.starts_with("not JSON: "));
}

TEST_CASE("show without verification: long lines, CRLF, other members, no manifest") {
  const std::string line = json::to_canonical(event(0, "a.b", "{}")).value();
  const std::string events = line + "\r\n" + std::string(500, 'x') + "\n\n" + line;
  const std::string b = assay_test::pack({{"other.txt", "hi"}, {"events.ndjson", events}});
  inspect::show_options o;
  o.verify = false;
  o.limits.max_line_bytes = 400;  // an event line here is 305 bytes
  const auto s = show(b, o);
  REQUIRE(s.r.has_value());
  CHECK(s.r->events == 2);
  CHECK(s.out.find("bundle_id ?\nfile      sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(b).hex() +
                   "\nrun       ?\nproducer  ?\nevents    2 read, 2026-01-02T03:04:05Z .. "
                   "2026-01-02T03:04:05Z\nverified  no\n"
                   "unreadable archive member other.txt: not read (not a member of a bundle)\n"
                   "unreadable events.ndjson line 2: a line of 500 bytes, over the limit of 400\n"
                   "unreadable events.ndjson line 3: an empty line\n") != std::string::npos);
  CHECK(s.out.ends_with("  0  2026-01-02T03:04:05Z  a.b\n  0  2026-01-02T03:04:05Z  a.b\n"));
  const auto not_gzip = show("plain text", o);
  REQUIRE_FALSE(not_gzip.r.has_value());
  CHECK(assay::name(not_gzip.r.error().code) == "IntegrityGzip");
}

TEST_CASE("show: rows spooled to a temporary file print the same as rows held in memory") {
  std::vector<json::value> events;
  for (std::size_t i = 0; i < 300; ++i)
    events.push_back(with_subject(event(i, "assay.fs.access", R"({"hits":1})"), "/data/file-" + std::to_string(i)));
  for (std::size_t i = 0; i < events.size(); ++i)
    events[i].set("id", "run-1:" + std::to_string(i));
  const std::string b = assay_test::bundle(assay_test::lines_of(std::move(events)));
  for (auto fmt : {inspect::show_options::format::table, inspect::show_options::format::json}) {
    inspect::show_options in_memory, spooled;
    in_memory.fmt = spooled.fmt = fmt;
    spooled.spool_memory = 64;  // past 64 bytes, rows go to the file
    const auto a = show(b, in_memory), c = show(b, spooled);
    REQUIRE(a.r.has_value());
    REQUIRE(c.r.has_value());
    CHECK(a.out == c.out);
    CHECK(a.r->events == 300);
  }
}
