// The lint engine against the Rust reference (SPEC §11): its fixture bundle with its packs gives
// the outcomes the issue names (asserted literally), and every reference bundle linted with every
// reference pack gives the reference's findings — rule id, severity, message, location and
// fingerprint — in the reference's order (live against assay-ref when it is at hand: $ASSAY_REF
// or on the PATH; reported as skipped when it is not). The lint cases of the reference's own tests
// whose decisions carry the members its runtime writes (principal, mandate_id, approval_state, ...)
// are written here by the checked writer (SPEC §8: additive members need no
// --unchecked-payloads), verify there, and lint to the same findings.
#include "support.hpp"

#include "evidence/events.hpp"
#include "evidence/runtime_decisions.hpp"

#include "assay/contracts/payloads.hpp"
#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/value.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/lint/resolve.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
namespace lint = assay::lint;
namespace json = assay::json;

namespace {

lint::lint_result lint_with(const fs::path& bundle, const std::vector<fs::path>& pack_files) {
  std::vector<lint::loaded_pack> packs;
  for (const auto& p : pack_files) {
    auto loaded = lint::load_pack_file(p, lint::yaml_options());
    REQUIRE_MESSAGE(loaded.has_value(), p.string());
    packs.push_back(std::move(*loaded));
  }
  auto l = lint::linter::create(packs, {.bundle_path = bundle.string()});
  REQUIRE(l.has_value());
  auto v = assay::evidence::verify_bundle_file(bundle.string(), {}, *l);
  REQUIRE_MESSAGE(v.has_value(), bundle.string());
  return l->take();
}

std::vector<std::string> violated(const lint::lint_result& r) {
  std::vector<std::string> out;
  for (const auto& x : r.rules)
    if (x.status == lint::outcome::violated)
      out.push_back(x.rule_id + " " + std::string(lint::name(x.level)));
  return out;
}

std::string run_command(const std::string& cmd) {
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0)
      out.append(buf.data(), n);
    pclose(f);
  }
  return out;
}

std::string run_reference(const fs::path& ref, const fs::path& bundle, const std::vector<fs::path>& packs) {
  std::string cmd = "'" + ref.string() + "' lint '" + bundle.string() + "'";
  for (const auto& p : packs)
    cmd += " '" + p.string() + "'";
  return run_command(cmd + " 2>/dev/null");
}

// A finding as one line: id, severity, message, location, fingerprint.
std::string line_of(const std::string& id, std::string_view sev, const std::string& message,
                    const std::string& location, const std::string& fingerprint) {
  return id + " | " + std::string(sev) + " | " + message + " | " + location + " | " + fingerprint;
}

// The findings of `assay-ref lint` (its JSON report) as lines.
std::vector<std::string> reference_findings(const fs::path& ref, const fs::path& bundle,
                                            const std::vector<fs::path>& packs) {
  const auto theirs = json::parse(run_reference(ref, bundle, packs));
  REQUIRE(theirs.has_value());
  std::vector<std::string> want;
  for (const json::value& f : theirs->find("findings")->as_array()) {
    const std::string sev = f.find("severity")->as_string();
    std::string loc = "global";
    if (const json::value* l = f.find("location"); l != nullptr && !l->is_null())
      loc = std::to_string(static_cast<long long>(l->find("seq")->as_number())) + ":" +
            std::to_string(static_cast<long long>(l->find("line")->as_number())) + ":" +
            l->find("event_type")->as_string();
    want.push_back(line_of(f.find("rule_id")->as_string(),
                           sev == "Error"  ? "error"
                           : sev == "Warn" ? "warning"
                                           : "info",
                           f.find("message")->as_string(), loc, f.find("fingerprint")->as_string()));
  }
  return want;
}

// Our findings as the same lines.
std::vector<std::string> our_findings(const lint::lint_result& ours) {
  std::vector<std::string> have;
  for (const auto& f : ours.findings)
    have.push_back(line_of(f.rule_id, lint::name(f.level()), f.message,
                           f.location ? std::to_string(f.location->seq) + ":" + std::to_string(f.location->line) + ":" +
                                            f.location->event_type
                                      : "global",
                           f.fingerprint));
  return have;
}

// A lint case of the reference's tests (pack_engine_conditional_test.rs, mcp_signal_followup_pack.rs
// and the fixtures of tests/common/mod.rs there): its events, each a type and its data. Their
// decisions are the reference's, with a reason_code added (SPEC §8 requires one; neither pack
// reads it).
struct lint_case {
  std::string name;
  std::vector<std::pair<std::string_view, std::string>> events;
  std::vector<std::string> violated;  // with mandate-baseline and mcp-signal-followup
};

std::vector<lint_case> lint_cases() {
  constexpr std::string_view decision = "assay.tool.decision";
  constexpr std::string_view degraded = "assay.sandbox.degraded";
  const std::string degraded_data =
      R"({"component":"landlock","degradation_mode":"audit_fallback","reason_code":"policy_conflict"})";
  std::vector<lint_case> cases = {
      {"full_signal_bundle",
       {{decision, R"({"auth_issuer":"https://issuer.example/","auth_scheme":"jwt_bearer",)"
                   R"("decision":"allow","delegated_from":"agent:planner","principal":"alice@example.com",)"
                   R"("reason_code":"r","tool":"t"})"},
        {degraded, degraded_data}},
       {"mandate-baseline@1.1.0:MANDATE-001 error", "mandate-baseline@1.1.0:MANDATE-002 error",
        "mandate-baseline@1.1.0:MANDATE-003 error", "mandate-baseline@1.1.0:MANDATE-004 error",
        "mandate-baseline@1.1.0:MANDATE-005 warning"}},
      {"g3_absent_principal_only_bundle",
       {{decision, R"({"approval_state":"granted","decision":"allow","principal":"user:alice","reason_code":"r",)"
                   R"("tool":"t"})"}},
       {"mandate-baseline@1.1.0:MANDATE-001 error", "mandate-baseline@1.1.0:MANDATE-002 error",
        "mandate-baseline@1.1.0:MANDATE-003 error", "mandate-baseline@1.1.0:MANDATE-004 error",
        "mandate-baseline@1.1.0:MANDATE-005 warning", "mcp-signal-followup@1.0.0:MCP-001 warning",
        "mcp-signal-followup@1.0.0:MCP-002 warning", "mcp-signal-followup@1.0.0:MCP-003 warning"}},
      {"mcp002_only_bundle",
       {{decision, R"({"decision":"allow","delegated_from":"agent:p","principal":"x","reason_code":"r","tool":"t"})"}},
       {"mandate-baseline@1.1.0:MANDATE-001 error", "mandate-baseline@1.1.0:MANDATE-002 error",
        "mandate-baseline@1.1.0:MANDATE-003 error", "mandate-baseline@1.1.0:MANDATE-004 error",
        "mandate-baseline@1.1.0:MANDATE-005 warning", "mcp-signal-followup@1.0.0:MCP-001 warning",
        "mcp-signal-followup@1.0.0:MCP-003 warning"}},
      {"mcp002_fail_bundle",
       {{decision, R"({"decision":"allow","principal":"x","reason_code":"r","tool":"t"})"}},
       {"mandate-baseline@1.1.0:MANDATE-001 error", "mandate-baseline@1.1.0:MANDATE-002 error",
        "mandate-baseline@1.1.0:MANDATE-003 error", "mandate-baseline@1.1.0:MANDATE-004 error",
        "mandate-baseline@1.1.0:MANDATE-005 warning", "mcp-signal-followup@1.0.0:MCP-001 warning",
        "mcp-signal-followup@1.0.0:MCP-002 warning", "mcp-signal-followup@1.0.0:MCP-003 warning"}},
      {"decision_allow_with_mandate",
       {{decision, R"({"decision":"allow","mandate_id":"mandate-123","reason_code":"r","tool":"write_file"})"}},
       {"mandate-baseline@1.1.0:MANDATE-004 error", "mcp-signal-followup@1.0.0:MCP-001 warning",
        "mcp-signal-followup@1.0.0:MCP-002 warning", "mcp-signal-followup@1.0.0:MCP-003 warning"}},
      {"decision_allow",
       {{decision, R"({"decision":"allow","reason_code":"r","tool":"write_file"})"}},
       {"mandate-baseline@1.1.0:MANDATE-001 error", "mandate-baseline@1.1.0:MANDATE-002 error",
        "mandate-baseline@1.1.0:MANDATE-003 error", "mandate-baseline@1.1.0:MANDATE-004 error",
        "mandate-baseline@1.1.0:MANDATE-005 warning", "mcp-signal-followup@1.0.0:MCP-001 warning",
        "mcp-signal-followup@1.0.0:MCP-002 warning", "mcp-signal-followup@1.0.0:MCP-003 warning"}},
      {"decision_deny",
       {{decision, R"({"decision":"deny","reason_code":"r","tool":"write_file"})"}},
       {"mandate-baseline@1.1.0:MANDATE-002 error", "mandate-baseline@1.1.0:MANDATE-003 error",
        "mandate-baseline@1.1.0:MANDATE-004 error", "mandate-baseline@1.1.0:MANDATE-005 warning",
        "mcp-signal-followup@1.0.0:MCP-001 warning", "mcp-signal-followup@1.0.0:MCP-002 warning",
        "mcp-signal-followup@1.0.0:MCP-003 warning"}},
  };
  // Every signal both packs read is there; only MANDATE-004 (an assay.mandate.v1 event) is not.
  lint_case runtime{"runtime decisions (error, mandate, G3, delegation, obligations, approval_*)",
                    {},
                    {"mandate-baseline@1.1.0:MANDATE-004 error"}};
  for (std::string_view d : assay_test::runtime::decisions)
    runtime.events.emplace_back(decision, std::string(d));
  runtime.events.emplace_back(degraded, degraded_data);
  cases.push_back(std::move(runtime));
  return cases;
}

// The events of a case as a bundle, written with every check (payloads included).
std::string bundle_of(const lint_case& c) {
  std::vector<json::value> events;
  std::uint64_t seq = 0;
  for (const auto& [type, data] : c.events) {
    json::value e = json::object{};
    e.set("specversion", "1.0");
    e.set("type", std::string(type));
    e.set("source", "urn:assay:test:trust-kernel-vectors");
    e.set("id", "run_case:" + std::to_string(seq));
    e.set("time", "2023-11-14T22:13:2" + std::to_string(seq) + "Z");
    e.set("datacontenttype", "application/json");
    e.set("assayrunid", "run_case");
    e.set("assayseq", static_cast<double>(seq));
    e.set("assayproducer", "assay-test");
    e.set("assayproducerversion", "1.0.0");
    e.set("assaygit", "unknown");
    e.set("assaypii", false);
    e.set("assaysecrets", false);
    e.set("assaycontenthash", nullptr);
    e.set("data", json::parse(data).value());
    events.push_back(std::move(e));
    ++seq;
  }
  auto gz = assay::evidence::write_bundle(events);  // payload checks on: no --unchecked-payloads
  REQUIRE_MESSAGE(gz.has_value(), c.name << ": " << (gz ? std::string() : gz.error().format()));
  return *gz;
}

fs::path write_temp(const std::string& name, const std::string& bytes) {
  const fs::path p = fs::temp_directory_path() / ("assay-engine-reference-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

}  // namespace

TEST_CASE("the reference fixture: eu-ai-act-baseline and soc2-baseline" * doctest::test_suite("conformance")) {
  const fs::path c = assay_test::conformance_dir();
  if (c.empty())
    return;
  const fs::path bundle = c / "assay-upstream/bundles/test-bundle.tar.gz";
  const fs::path packs = c / "assay-upstream/packs";

  auto eu = lint_with(bundle, {packs / "eu-ai-act-baseline.yaml"});
  CHECK(violated(eu) == std::vector<std::string>{"eu-ai-act-baseline@1.0.0:EU12-004 warning"});
  REQUIRE(eu.findings.size() == 1);
  CHECK(eu.findings[0].message ==
        "No event contains any of the required fields: /data/policy_decision, /data/denied, /data/policy_hash, "
        "/data/config_hash, /data/violation, /data/risk_level, /data/anomaly_detected");
  CHECK(eu.findings[0].fingerprint == "sha256:c23379b201188c3667ff12fde9de03c3378893739c2b26f7d589f9f5023613fb");
  CHECK(eu.fails(lint::severity::warning));
  CHECK_FALSE(eu.fails(lint::severity::error));

  auto soc2 = lint_with(bundle, {packs / "soc2-baseline.yaml"});
  CHECK(violated(soc2) == std::vector<std::string>{"soc2-baseline@1.0.0:invariant.decision_record error"});
  CHECK(soc2.fails(lint::severity::error));
}

// Run alone (meson's lint_engine_reference_oracle), skipped as a whole without assay-ref.
TEST_CASE("differential: every reference bundle with every reference pack, against assay-ref lint" *
          doctest::test_suite("oracle")) {
  const fs::path c = assay_test::conformance_dir();
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_FALSE(c.empty());
  REQUIRE_FALSE(ref.empty());
  std::vector<fs::path> bundles{c / "assay-upstream/bundles/test-bundle.tar.gz",
                                c / "assay-upstream/bundles/demo-bundle.tar.gz"};
  for (const char* dir : {"assay-upstream/conformance-v0", "assay-upstream/conformance-v1"})
    for (const auto& e : fs::directory_iterator(c / dir))
      if (e.path().filename().string().rfind("ok-", 0) == 0)
        bundles.push_back(e.path());
  std::vector<fs::path> packs;
  for (const auto& e : fs::directory_iterator(c / "assay-upstream/packs"))
    packs.push_back(e.path());
  std::sort(bundles.begin(), bundles.end());
  std::sort(packs.begin(), packs.end());
  std::size_t compared = 0;
  for (const auto& b : bundles) {
    for (const auto& p : packs) {
      CAPTURE(b.filename().string());
      CAPTURE(p.filename().string());
      const auto want = reference_findings(ref, b, {p});
      const auto have = our_findings(lint_with(b, {p}));
      CHECK(have == want);
      ++compared;
    }
  }
  CHECK(compared == bundles.size() * packs.size());
  MESSAGE(compared << " bundle × pack pairs equal to assay-ref lint");
}

namespace {

// A fixed generator (splitmix64): the same globs and types on every run.
struct prng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

// A glob of a few pieces over a small alphabet (`.`, `/`, `é`, braces, classes, escapes), and a
// type made from it by filling its wildcards at random: close to matching, often matching, at
// times not (a `?` given `é`, a class given a byte it lacks, a run given a `/`).
std::pair<std::string, std::string> glob_and_type(prng& r) {
  static const char* const pieces[] = {"a",    "b",     ".",    "/",   "\xC3\xA9", "*",   "**",  "?",   "[",
                                       "]",    "!",     "^",    "-",   "{",        "}",   ",",   "\\",  "[a-b]",
                                       "[!a]", "{a,b}", "{,a}", "[]]", "[a-]",     "**/", "/**", "[é]", "{a,{b}}"};
  static const char* const fill[] = {"a", "b", ".", "/", "\xC3\xA9", "-", ",", "]"};
  std::string glob, type;
  const std::size_t n = 1 + r.below(6);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string p = pieces[r.below(std::size(pieces))];
    glob += p;
    if (p == "*" || p == "**")
      for (std::size_t k = r.below(3); k > 0; --k)
        type += fill[r.below(std::size(fill))];
    else if (p == "?" || p[0] == '[')
      type += r.below(4) == 0 ? std::string("a") : std::string(fill[r.below(std::size(fill))]);
    else if (p == "{a,b}" || p == "{,a}")
      type += r.below(2) == 0 ? "a" : (p == "{a,b}" ? "b" : "");
    else if (p == "**/" || p == "/**")
      type += r.below(2) == 0 ? "/" : "x/y/";
    else if (p != "\\" && p != "{" && p != "}")
      type += p;
  }
  if (type.empty())
    type = "a";
  return {glob, type};
}

}  // namespace

// SPEC §11's globs against the reference's: a few hundred generated glob/type pairs, each an
// event_type_exists rule scoped to its type's one event; the findings (pass: none; no match;
// Invalid pattern) must be the reference's, fingerprints and all. Batched, 150 rules a pack.
TEST_CASE("differential: generated globs and event types, against assay-ref lint" * doctest::test_suite("oracle")) {
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_FALSE(ref.empty());
  prng r{29};
  std::vector<std::pair<std::string, std::string>> cases;
  for (int i = 0; i < 600; ++i)
    cases.push_back(glob_and_type(r));
  // the corner cases the issue names, each with the types that tell the readings apart
  for (const char* g :
       {"x.?", "x.??", "{a,{b,c}}", "{,a}", "x{,a}", "[!]",  "[!]]",   "[]]", "[a-]", "a\\",   "[a",       "{a",
        "**",  "a**b", "[^a]",      "a}b",  "**/a",  "a/**", "a/**/b", "[é]", "[é]?", "[a-é]", "\\{a,b\\}"})
    for (const char* t :
         {"x.\xC3\xA9", "x.a", "a", "ab", "b", "xa", "x", "]", "-", "a/b", "a/x/b", "\xC3\xA9", "{a,b}", "c"})
      cases.emplace_back(g, t);
  std::map<std::string, std::uint64_t> seq_of;
  std::vector<json::value> events;
  for (const auto& [g, t] : cases)
    if (seq_of.emplace(t, seq_of.size()).second)
      events.push_back(assay_test::event(seq_of[t], t));
  const fs::path dir = fs::temp_directory_path() / ("assay-glob-oracle-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bundle = dir / "b.tar.gz";
  { std::ofstream(bundle, std::ios::binary) << assay_test::bundle(assay_test::lines_of(events)); }
  std::size_t passed = 0, unmatched = 0, invalid = 0;
  for (std::size_t from = 0; from < cases.size(); from += 150) {
    json::array rules;
    for (std::size_t i = from; i < std::min(cases.size(), from + 150); ++i) {
      json::value rule = json::object{};
      rule.set("id", "G" + std::to_string(i));
      rule.set("severity", "error");
      rule.set("description", "d");
      rule.set("event_types", json::array{json::value(cases[i].second)});
      json::value check = json::object{};
      check.set("type", "event_type_exists");
      check.set("pattern", cases[i].first);
      rule.set("check", std::move(check));
      rules.push_back(std::move(rule));
    }
    json::value pack = json::parse(R"({"name":"globs","version":"1.0.0","kind":"security","description":"d",
      "author":"a","license":"l","requires":{"assay_min_version":">=5.0"}})")
                           .value();
    pack.set("rules", std::move(rules));
    const fs::path pack_file = dir / ("globs-" + std::to_string(from) + ".json");
    { std::ofstream(pack_file, std::ios::binary) << json::to_canonical(pack).value(); }
    const auto theirs = json::parse(run_reference(ref, bundle, {pack_file}));
    REQUIRE_MESSAGE(theirs.has_value(), pack_file.string());
    std::vector<std::string> want, have;
    for (const json::value& f : theirs->find("findings")->as_array())
      want.push_back(line_of(f.find("rule_id")->as_string(), f.find("severity")->as_string(),
                             f.find("message")->as_string(), "", f.find("fingerprint")->as_string()));
    const auto ours = lint_with(bundle, {pack_file});
    for (const auto& f : ours.findings) {
      const std::string sev = f.level() == lint::severity::error ? "Error" : std::string(lint::name(f.level()));
      have.push_back(line_of(f.rule_id, sev, f.message, "", f.fingerprint));
      invalid += f.message.rfind("Invalid pattern", 0) == 0;
      unmatched += f.message.rfind("No event found", 0) == 0;
    }
    passed += std::min(cases.size(), from + 150) - from - ours.findings.size();
    for (std::size_t i = 0; i < std::max(want.size(), have.size()); ++i) {
      CAPTURE(i);
      CHECK((i < have.size() ? have[i] : "") == (i < want.size() ? want[i] : ""));
    }
  }
  fs::remove_all(dir);
  MESSAGE(cases.size() << " globs: " << passed << " match, " << unmatched << " do not, " << invalid
                       << " invalid; the same findings as assay-ref lint");
  CHECK(passed > 100);  // the generator reaches all three outcomes, not one
  CHECK(unmatched > 100);
  CHECK(invalid > 30);
}

TEST_CASE("the reference's lint cases with its runtime's members: written checked, verified, linted" *
          doctest::test_suite("conformance")) {
  const fs::path c = assay_test::conformance_dir();
  if (c.empty())
    return;
  const fs::path packs = c / "assay-upstream/packs";
  for (const lint_case& k : lint_cases()) {
    CAPTURE(k.name);
    const std::string gz = bundle_of(k);
    assay::evidence::payload_check contracts;  // verify --contracts
    const auto v = assay::evidence::verify_bundle_bytes(gz, {}, contracts);
    REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
    CHECK(v->event_count == k.events.size());
    const fs::path file = write_temp("case.tar.gz", gz);
    const auto r = lint_with(file, {packs / "mandate-baseline.yaml", packs / "mcp-signal-followup.yaml"});
    fs::remove(file);
    std::string have, want;  // one line each, for a readable failure
    for (const auto& v : violated(r))
      have += v + "\n";
    for (const auto& v : k.violated)
      want += v + "\n";
    CHECK(have == want);
  }
}

// Run alone (meson's lint_engine_reference_oracle), skipped as a whole without assay-ref.
TEST_CASE("differential: the reference's lint cases with its runtime's members, against assay-ref verify and lint" *
          doctest::test_suite("oracle")) {
  const fs::path c = assay_test::conformance_dir();
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_FALSE(c.empty());
  REQUIRE_FALSE(ref.empty());
  const std::vector<fs::path> packs{c / "assay-upstream/packs/mandate-baseline.yaml",
                                    c / "assay-upstream/packs/mcp-signal-followup.yaml"};
  std::size_t compared = 0;
  for (const lint_case& k : lint_cases()) {
    CAPTURE(k.name);
    const std::string gz = bundle_of(k);
    const auto ours = assay::evidence::verify_bundle_bytes(gz);
    REQUIRE(ours.has_value());
    const fs::path file = write_temp("oracle.tar.gz", gz);
    // The reference verifies the bundle, and names the same bundle id.
    const std::string verdict = run_command("'" + ref.string() + "' verify '" + file.string() + "' 2>&1");
    CHECK(verdict.rfind("OK", 0) == 0);
    CHECK(verdict.find(ours->bundle_id) != std::string::npos);
    // And lints it with both packs to the same findings.
    const auto want = reference_findings(ref, file, packs);
    const auto have = our_findings(lint_with(file, packs));
    fs::remove(file);
    CHECK(have == want);
    ++compared;
  }
  CHECK(compared == 8);
}

// --- values at the edges (SPEC §11: value_equals, conditional equals) -------------------------------

namespace {
namespace edges {

// Event numbers spelt the ways the reference's JSON reads differently (integer, negative integer,
// float; exact past 2^53), and values of every other JSON kind.
const std::vector<std::string> event_numbers = {"0",
                                                "-0",
                                                "1",
                                                "1.0",
                                                "-1",
                                                "0.1",
                                                "0.10000000000000001",
                                                "1e2",
                                                "100",
                                                "-0.0",
                                                "2.5",
                                                "9007199254740992",
                                                "9007199254740993",
                                                "9223372036854775807",
                                                "9223372036854775808",
                                                "-9223372036854775808",
                                                "-9223372036854775809",
                                                "-9223372036854776000",
                                                "18446744073709551615",
                                                "18446744073709551616",
                                                "18446744073709552000",
                                                "100000000000000000000000000000",
                                                "1e300"};
const std::vector<std::string> event_others = {"\"1\"",          "\"true\"", "true", "false",
                                               "null",           "\"x\"",    "\"\"", "{\"a\":1,\"b\":[1,2]}",
                                               "[1,\"x\",null]", "{}",       "[]",   "\"null\""};

// value_equals / equals as a pack writes them: YAML spellings the reference types its own way.
const std::vector<std::string> pack_values = {"null",
                                              "~",
                                              "",
                                              ".inf",
                                              "-.inf",
                                              ".nan",
                                              "true",
                                              "false",
                                              "yes",
                                              "True",
                                              "\"true\"",
                                              "'1'",
                                              "\"1\"",
                                              "1",
                                              "1.0",
                                              "-1",
                                              "-0",
                                              "0",
                                              "0.0",
                                              "-0.0",
                                              "+1",
                                              "0x1",
                                              "0o1",
                                              "0b1",
                                              "0x64",
                                              "1_0",
                                              "1e2",
                                              "100",
                                              "1E2",
                                              "100.0",
                                              "0.1",
                                              "0.10000000000000001",
                                              "2.5",
                                              "9007199254740992",
                                              "9007199254740993",
                                              "9007199254740992.0",
                                              "9223372036854775807",
                                              "9223372036854775808",
                                              "-9223372036854775808",
                                              "-9223372036854775808.0",
                                              "18446744073709551615",
                                              "18446744073709551614",
                                              "1.8446744073709552e19",
                                              "100000000000000000000000000000.0",
                                              "1e29",
                                              "1e300",
                                              "1e400",
                                              "012",
                                              "x",
                                              "\"x\"",
                                              "\"\"",
                                              "\"null\"",
                                              "!!str 1",
                                              "!!float 1",
                                              "!!int \"1\"",
                                              "{a: 1, b: [1, 2]}",
                                              "{b: [1, 2], a: 1}",
                                              "{a: 1}",
                                              "{a: 1, b: [2, 1]}",
                                              "[1, x, null]",
                                              "[1, \"x\", ~]",
                                              "[x, 1, null]",
                                              "{}",
                                              "[]"};

std::string member(std::size_t i) {
  return "v" + std::to_string(i);
}

// One event's data: every value above under v0, v1, ...
std::string event_data(bool with_numbers) {
  std::string d = "{";
  std::size_t k = 0;
  for (const auto& n : event_numbers) {
    d += (k == 0 ? "\"" : ",\"") + member(k) + "\":" + (with_numbers ? n : "0");
    ++k;
  }
  for (const auto& o : event_others) {
    d += ",\"" + member(k) + "\":" + o;
    ++k;
  }
  return d + "}";
}

std::string event_line(std::size_t seq, std::string_view type, const std::string& data) {
  return "{\"specversion\":\"1.0\",\"id\":\"r:" + std::to_string(seq) + "\",\"source\":\"urn:x\",\"type\":\"" +
         std::string(type) +
         "\",\"time\":\"2023-11-14T22:13:20Z\",\"datacontenttype\":\"application/json\",\"assayrunid\":\"r\","
         "\"assayseq\":" +
         std::to_string(seq) +
         ",\"assayproducer\":\"p\",\"assayproducerversion\":\"1\",\"assaygit\":\"g\",\"assaypii\":false,"
         "\"assaysecrets\":false,\"data\":" +
         data + "}";
}

// A bundle of `events` whose events.ndjson keeps the numbers as written in the events with
// `raw` set (the writer writes canonical text; the content hash is over that same canonical form,
// so the spelling can be put back and the manifest's file hash and size renewed).
std::string bundle_of(const std::vector<std::pair<std::string, bool>>& events) {
  std::vector<std::string> lines;
  for (const auto& e : events)
    lines.push_back(e.first);
  const std::vector<std::string_view> views(lines.begin(), lines.end());
  assay::evidence::bundle_options options;
  options.check_payloads = false;
  auto files = assay::evidence::build_bundle_files(views, options);
  REQUIRE(files.has_value());
  std::string text;
  std::size_t at = 0;
  for (const auto& e : events) {
    const std::size_t end = files->events.find('\n', at);
    std::string line = files->events.substr(at, end - at);
    at = end + 1;
    if (e.second)
      for (std::size_t k = 0; k < event_numbers.size(); ++k) {
        const std::string key = "\"" + member(k) + "\":";
        const std::size_t b = line.find(key) + key.size();
        const std::size_t f = line.find_first_of(",}", b);
        line.replace(b, f - b, event_numbers[k]);
      }
    text += line + "\n";
  }
  std::string manifest = files->manifest;
  auto swap = [&](const std::string& from, const std::string& to) {
    const std::size_t p = manifest.find(from);
    REQUIRE(p != std::string::npos);
    manifest.replace(p, from.size(), to);
  };
  swap("\"bytes\":" + std::to_string(files->events.size()) + ",", "\"bytes\":" + std::to_string(text.size()) + ",");
  swap(lint::sha256_hex(files->events), lint::sha256_hex(text));
  auto gz = assay::evidence::pack_bundle(manifest, text);
  REQUIRE(gz.has_value());
  return *gz;
}

void write_file(const fs::path& p, std::string_view bytes) {
  std::FILE* f = std::fopen(p.string().c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
}

const char* const pack_head =
    "name: edges\nversion: \"1.0.0\"\nkind: security\ndescription: d\nauthor: a\nlicense: l\n"
    "requires:\n  assay_min_version: \">=1.0.0\"\nrules:\n";

std::string rule(const std::string& id, const std::string& scope, const std::string& check) {
  return "  - id: " + id + "\n    severity: error\n    description: x\n" + scope + "    check:\n" + check;
}

std::string scope_of(std::size_t i) {
  static const char* const scopes[] = {"", "    event_types: [t.a]\n", "    event_types: [t.b]\n",
                                       "    event_types: [t.a, t.b]\n"};
  return scopes[i % 4];
}

// The reference's findings, one line each, and its exit status.
std::pair<std::vector<std::string>, int> reference_lint(const fs::path& ref, const fs::path& bundle,
                                                        const fs::path& pack) {
  const std::string cmd =
      "'" + ref.string() + "' lint '" + bundle.string() + "' '" + pack.string() + "' --max-results 100000 2>/dev/null";
  std::string out;
  int status = -1;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    std::array<char, 65536> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0)
      out.append(buf.data(), n);
    status = pclose(f);
  }
  std::vector<std::string> lines;
  if (out.empty())
    return {lines, status};
  const auto report = json::parse(out);
  REQUIRE(report.has_value());
  for (const json::value& f : report->find("findings")->as_array()) {
    std::string loc = "global";
    if (const json::value* l = f.find("location"); l != nullptr && !l->is_null())
      loc = std::to_string(static_cast<long long>(l->find("seq")->as_number())) + ":" +
            std::to_string(static_cast<long long>(l->find("line")->as_number())) + ":" +
            l->find("event_type")->as_string();
    lines.push_back(line_of(f.find("rule_id")->as_string(), f.find("severity")->as_string(),
                            f.find("message")->as_string(), loc, f.find("fingerprint")->as_string()));
  }
  return {lines, status};
}

std::vector<std::string> our_lines(const lint::lint_result& r) {
  std::vector<std::string> have;
  for (const auto& f : r.findings)
    have.push_back(line_of(f.rule_id,
                           f.level() == lint::severity::error     ? "Error"
                           : f.level() == lint::severity::warning ? "Warn"
                                                                  : "Info",
                           f.message,
                           f.location ? std::to_string(f.location->seq) + ":" + std::to_string(f.location->line) + ":" +
                                            f.location->event_type
                                      : "global",
                           f.fingerprint));
  return have;
}

}  // namespace edges
}  // namespace

// Run alone (meson's lint_engine_reference_oracle), skipped as a whole without assay-ref.
TEST_CASE("differential: value_equals and conditional equals at the edges, against assay-ref lint" *
          doctest::test_suite("oracle")) {
  using namespace edges;
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_FALSE(ref.empty());
  const fs::path dir = fs::temp_directory_path() / ("assay-edges-" + std::to_string(::getpid()));
  fs::create_directories(dir);

  // Bundles: t.a with the numbers as written and t.b canonical; both canonical; t.b alone.
  const std::vector<std::vector<std::pair<std::string, bool>>> bundle_events = {
      {{event_line(0, "t.a", event_data(true)), true}, {event_line(1, "t.b", event_data(true)), false}},
      {{event_line(0, "t.a", event_data(true)), false}, {event_line(1, "t.b", event_data(false)), false}},
      {{event_line(0, "t.b", event_data(true)), true}}};
  std::vector<fs::path> bundles;
  for (std::size_t b = 0; b < bundle_events.size(); ++b) {
    bundles.push_back(dir / ("b" + std::to_string(b) + ".tar.gz"));
    write_file(bundles.back(), bundle_of(bundle_events[b]));
  }

  // Packs: every value against every member (and a missing one), as value_equals and as a
  // conditional's equals, scoped four ways in turn; and every check type scoped.
  const std::size_t members = event_numbers.size() + event_others.size();
  std::string values = pack_head, conditionals = pack_head;
  std::size_t rules = 0;
  for (std::size_t v = 0; v < pack_values.size(); ++v)
    for (std::size_t m = 0; m <= members; ++m, ++rules) {
      const std::string path = m == members ? "/data/missing" : "/data/" + member(m);
      const std::string id = "V" + std::to_string(v) + "-" + std::to_string(m);
      values += rule(id, scope_of(rules),
                     "      type: json_path_exists\n      paths: [\"" + path +
                         "\"]\n      value_equals: " + pack_values[v] + "\n");
      conditionals += rule(id, scope_of(rules + 1),
                           "      type: conditional\n      condition:\n        all:\n          - path: " + path +
                               "\n            equals: " + pack_values[v] +
                               "\n      then:\n        type: json_path_exists\n        paths: [\"/data/nothing\"]\n");
    }
  std::string checks = pack_head;
  for (std::size_t s = 0; s < 4; ++s) {
    const std::string n = std::to_string(s);
    checks += rule("count" + n, scope_of(s), "      type: event_count\n      min: 2\n");
    checks +=
        rule("present" + n, scope_of(s), "      type: event_field_present\n      paths_any_of: [/data/v0, /nope]\n");
    checks += rule("exists" + n, scope_of(s), "      type: event_type_exists\n      pattern: t.b\n");
    checks += rule("pairs" + n, scope_of(s),
                   "      type: event_pairs\n      start_pattern: t.a\n      finish_pattern: t.b\n");
    checks += rule("path" + n, scope_of(s), "      type: json_path_exists\n      paths: [/data/v0]\n");
    checks += rule("pathnull" + n, scope_of(s),
                   "      type: json_path_exists\n      paths: [/data/nothing]\n      value_equals: null\n");
    checks +=
        rule("manifest" + n, scope_of(s), "      type: manifest_field\n      path: /run_id\n      required: true\n");
    checks +=
        rule("nomanifest" + n, scope_of(s), "      type: manifest_field\n      path: /nothing\n      required: true\n");
    checks += rule("cond" + n, scope_of(s),
                   "      type: conditional\n      condition:\n        all:\n          - path: /data/v0\n"
                   "            equals: 0\n          - path: /type\n            equals: t.b\n"
                   "      then:\n        type: json_path_exists\n        paths: [/data/nothing]\n");
  }
  const std::vector<std::pair<std::string, std::string>> packs = {
      {"values.yaml", values}, {"conditionals.yaml", conditionals}, {"checks.yaml", checks}};

  std::size_t compared = 0, violated_total = 0;
  for (const auto& named : packs) {
    const std::string& name = named.first;
    const std::string& text = named.second;
    const fs::path pack = dir / name;
    write_file(pack, text);
    auto loaded = lint::load_pack_file(pack, lint::yaml_options());
    REQUIRE_MESSAGE(loaded.has_value(), name);
    for (const auto& b : bundles) {
      CAPTURE(name);
      CAPTURE(b.filename().string());
      const auto [want, status] = reference_lint(ref, b, pack);
      REQUIRE(WIFEXITED(status));
      REQUIRE(WEXITSTATUS(status) <= 1);
      auto l = lint::linter::create(std::span<const lint::loaded_pack>(&*loaded, 1),
                                    {.max_results = 100000, .bundle_path = b.string()});
      REQUIRE(l.has_value());
      auto v = assay::evidence::verify_bundle_file(b.string(), {}, *l);
      REQUIRE(v.has_value());
      const auto have = our_lines(l->take());
      // What differs, readable (findings only here, only there), then the order as well.
      std::string differ;
      for (const auto& x : have)
        if (std::find(want.begin(), want.end(), x) == want.end())
          differ += "ours only: " + x + "\n";
      for (const auto& x : want)
        if (std::find(have.begin(), have.end(), x) == have.end())
          differ += "reference only: " + x + "\n";
      CHECK(differ == "");
      CHECK(have == want);
      compared += have == want ? 1 : 0;
      violated_total += want.size();
    }
  }
  CHECK(compared == packs.size() * bundles.size());
  CHECK(rules == pack_values.size() * (members + 1));

  // Integers no 64-bit integer holds: the reference refuses the pack (exit 3), and so do we.
  const std::vector<std::pair<std::string, std::string>> refused = {{"18446744073709551616", "value_equals"},
                                                                    {"-9223372036854775809", "value_equals"},
                                                                    {"100000000000000000000000000000", "value_equals"},
                                                                    {"{a: [1, 18446744073709551616]}", "value_equals"},
                                                                    {"[1, -9223372036854775809]", "value_equals"},
                                                                    {"0x10000000000000000", "value_equals"},
                                                                    {"18446744073709551616", "equals"},
                                                                    {"{a: -9223372036854775809}", "equals"},
                                                                    {"18446744073709551616", "ignored"}};
  std::size_t refusals = 0;
  for (const auto& entry : refused) {
    const std::string& value = entry.first;
    const std::string& where = entry.second;
    CAPTURE(value);
    CAPTURE(where);
    const std::string check =
        where == "ignored" ? "      type: json_path_exists\n      paths: [/data/v0]\n      ignored: [" + value + "]\n"
        : where == "value_equals"
            ? "      type: json_path_exists\n      paths: [/data/v0]\n      value_equals: " + value + "\n"
            : "      type: conditional\n      condition:\n        all:\n          - path: /data/v0\n"
              "            equals: " +
                  value + "\n      then:\n        type: json_path_exists\n        paths: [/data/v0]\n";
    const fs::path pack = dir / "refused.yaml";
    write_file(pack, pack_head + rule("R", "", check));
    const auto [want, status] = reference_lint(ref, bundles.front(), pack);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 3);
    auto loaded = lint::load_pack_file(pack, lint::yaml_options());
    CHECK_FALSE(loaded.has_value());
    refusals += loaded.has_value() ? 0 : 1;
  }
  CHECK(refusals == refused.size());
  fs::remove_all(dir);
  MESSAGE(rules << " value × member cases, as value_equals and as conditional equals, over " << bundles.size()
                << " bundles; " << violated_total << " reference findings equal; " << refusals
                << " load refusals equal");
}
