// soak-report-v1 and closure-v1: canonical documents round-trip byte for byte through the types;
// the cross-field rules of SPEC §12 and §13 are enforced when decoding and when encoding.
#include "support.hpp"

#include "contracts/documents.hpp"
#include "contracts/round_trip.hpp"
#include "reflect/check_error.hpp"

#include "assay/contracts/closure.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <string>

using assay::errc;
using assay::contracts::closure_report;
using assay::contracts::soak_report;
using assay_test::check_errors;
using assay_test::round_trips;
namespace docs = assay_test::docs;

namespace {

// Replaces the first occurrence of `from` (which must occur) by `to`.
std::string replaced(std::string s, std::string_view from, std::string_view to) {
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("soak-report-v1 documents round-trip byte for byte") {
  round_trips<soak_report>(docs::soak_full);
  round_trips<soak_report>(docs::soak_minimal);
  // first_failure_at may be null; the null is kept.
  round_trips<soak_report>(replaced(docs::soak_full, R"("first_failure_at":2)", R"("first_failure_at":null)"));
}

TEST_CASE("closure-v1 documents round-trip byte for byte") {
  round_trips<closure_report>(docs::closure_full);
  round_trips<closure_report>(docs::closure_minimal);
}

TEST_CASE("decoded values carry the document's content") {
  auto s = assay::decode<soak_report>(docs::soak_full).value();
  CHECK(s.iterations.value() == 4);
  CHECK(s.seed.value() == 42u);
  CHECK(s.packs.size() == 2);
  CHECK(*s.packs[0].source == "built-in");
  CHECK_FALSE(s.packs[1].kind.has_value());
  CHECK(s.decision_policy->pass_on_severity_at_or_above == "error");
  CHECK(s.results.first_failure_at->value().value() == 2);
  CHECK((*s.results.pass_rate_ci95)[1].value() == 0.85);
  CHECK(s.results.violations_by_rule->at("eu-ai-act-baseline@1.0.0:EU12-001").value() == 1);
  REQUIRE(s.runs.has_value());
  CHECK((*s.runs)[2].status == "infra_error");
  CHECK(*(*s.runs)[2].infra_error_message == "exit status 2");

  auto c = assay::decode<closure_report>(docs::closure_full).value();
  CHECK(c.closure.score.value() == 0.5);
  CHECK(c.closure.confidence == "medium");
  CHECK(c.completeness.by_signal->at("tool_io_bodies").commitment->size_bytes->value() == 1024);
  CHECK(c.closure.scoring->weights.at("run_inputs").value() == 0.3);
}

TEST_CASE("a soak report built in code encodes to the canonical bytes") {
  soak_report r{};
  r.iterations = 1;
  r.seed = 0u;
  r.time_budget_secs = 1;
  r.limits = {1, 1, 1, 1, 1, 1, 1, 1};
  r.packs.push_back({.name = "p", .version = "1"});
  r.results.runs = 1;
  r.results.passes = 1;
  r.results.pass_rate = 1.0;
  r.results.pass_all = true;
  auto e = assay::encode(r);
  if (!e)
    FAIL(e.error().format());
  CHECK(*e == docs::soak_minimal);
}

TEST_CASE("soak rule: runs = passes + failures + infra_errors") {
  // passes 3 instead of 2: the sum is 5, runs is 4; pass_rate 0.5 no longer equals 3/4 either.
  const auto doc = replaced(docs::soak_full, R"("passes":2)", R"("passes":3)");
  auto r = assay::decode<soak_report>(doc);
  REQUIRE_FALSE(r.has_value());
  const std::size_t results_at = doc.find(R"({"failures")");
  check_errors(r.error(), {{errc::rule_violation, "runs (4) must equal passes + failures + infra_errors (5)",
                            "/results/runs", results_at, 1, results_at + 1},
                           {errc::rule_violation, "pass_rate must equal passes / runs", "/results/pass_rate",
                            results_at, 1, results_at + 1}});
}

TEST_CASE("soak rules on results, each with its pointer") {
  const std::size_t at = docs::soak_full.find(R"({"failures")");
  struct rule_case {
    const char* from;
    const char* to;
    const char* message;
    const char* pointer;
  };
  const rule_case cases[] = {
      {R"("pass_rate":0.5)", R"("pass_rate":0.25)", "pass_rate must equal passes / runs", "/results/pass_rate"},
      {R"("pass_rate_ci95":[0.15,0.85])", R"("pass_rate_ci95":[0.85,0.15])",
       "the interval's lower bound is above its upper bound", "/results/pass_rate_ci95"},
      {R"("pass_all":false)", R"("pass_all":true)",
       "pass_all cannot be true when a run failed or had an infrastructure error", "/results/pass_all"},
  };
  for (const auto& c : cases) {
    CAPTURE(std::string(c.to));
    auto r = assay::decode<soak_report>(replaced(docs::soak_full, c.from, c.to));
    REQUIRE_FALSE(r.has_value());
    check_errors(r.error(), {{errc::rule_violation, c.message, c.pointer, at, 1, at + 1}});
  }
}

TEST_CASE("soak rules across the report: runs and iterations") {
  // Fewer iterations than runs executed.
  auto r = assay::decode<soak_report>(replaced(docs::soak_full, R"("iterations":4)", R"("iterations":3)"));
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::rule_violation, "more runs executed than iterations requested", "/results/runs", 0, 1, 1}});
  // pass_all needs every requested iteration to have run (an early stop is not a pass).
  auto p = assay::decode<soak_report>(replaced(docs::soak_minimal, R"("iterations":1)", R"("iterations":2)"));
  REQUIRE_FALSE(p.has_value());
  check_errors(p.error(), {{errc::rule_violation, "pass_all requires every requested iteration to have run",
                            "/results/pass_all", 0, 1, 1}});
  // first_failure_at is an index of the whole soak: past the runs is allowed (a shard's runs keep
  // their global indices, SPEC §12), past the iterations is not.
  auto shard = assay::decode<soak_report>(replaced(replaced(docs::soak_full, R"("iterations":4)", R"("iterations":9)"),
                                                   R"("first_failure_at":2)", R"("first_failure_at":8)"));
  CHECK(shard.has_value());
  auto past =
      assay::decode<soak_report>(replaced(docs::soak_full, R"("first_failure_at":2)", R"("first_failure_at":5)"));
  REQUIRE_FALSE(past.has_value());
  check_errors(past.error(), {{errc::rule_violation, "first_failure_at is after the last requested iteration",
                               "/results/first_failure_at", 0, 1, 1}});
  // A rule violation inside results does not hide the report-level rules.
  auto both = assay::decode<soak_report>(replaced(replaced(docs::soak_full, R"("iterations":4)", R"("iterations":3)"),
                                                  R"("pass_rate":0.5)", R"("pass_rate":0.4)"));
  REQUIRE_FALSE(both.has_value());
  REQUIRE(both.error().size() == 2);
  CHECK(both.error().items[0].pointer == "/results/pass_rate");
  CHECK(both.error().items[1].pointer == "/results/runs");
}

TEST_CASE("rules do not run over members that failed to decode") {
  // passes is invalid (and so holds 0): only that is reported, not a sum that is not there.
  auto r = assay::decode<soak_report>(replaced(docs::soak_full, R"("passes":2)", R"("passes":-2)"));
  REQUIRE_FALSE(r.has_value());
  REQUIRE(r.error().size() == 1);
  CHECK(r.error().front().code == errc::below_minimum);
  CHECK(r.error().front().pointer == "/results/passes");
}

TEST_CASE("soak rules when encoding") {
  auto s = assay::decode<soak_report>(docs::soak_full).value();
  s.results.runs = 5;
  auto e = assay::encode(s);
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(),
               {{errc::rule_violation, "runs (5) must equal passes + failures + infra_errors (4)", "/results/runs"},
                {errc::rule_violation, "pass_rate must equal passes / runs", "/results/pass_rate"},
                {errc::rule_violation, "more runs executed than iterations requested", "/results/runs"}});
}

TEST_CASE("closure rule: captured, redacted and unknown partition required") {
  const std::string message = "captured, redacted and unknown must partition required (each signal exactly once)";
  const std::size_t at = docs::closure_full.find(R"({"by_signal")");
  // A required signal in none of the three.
  auto none = assay::decode<closure_report>(
      replaced(docs::closure_full, R"("unknown":["human_approvals"])", R"("unknown":[])"));
  REQUIRE_FALSE(none.has_value());
  check_errors(none.error(), {{errc::rule_violation, message, "/completeness", at, 1, at + 1}});
  // A signal in two of them.
  auto twice = assay::decode<closure_report>(replaced(docs::closure_full, R"("captured":["policy_decisions"])",
                                                      R"("captured":["human_approvals","policy_decisions"])"));
  REQUIRE_FALSE(twice.has_value());
  check_errors(twice.error(), {{errc::rule_violation, message, "/completeness", at, 1, at + 1}});
  // A signal that is not required.
  auto extra = assay::decode<closure_report>(
      replaced(docs::closure_full, R"("redacted":["tool_io_bodies"])", R"("redacted":["rng_seeds","tool_io_bodies"])"));
  REQUIRE_FALSE(extra.has_value());
  check_errors(extra.error(), {{errc::rule_violation, message, "/completeness", at, 1, at + 1}});
  // Order inside the arrays does not matter to this rule (it is the next one's).
  auto order = assay::decode<closure_report>(
      replaced(docs::closure_full, R"("required":["human_approvals","policy_decisions","tool_io_bodies"])",
               R"("required":["tool_io_bodies","human_approvals","policy_decisions"])"));
  REQUIRE_FALSE(order.has_value());
  CHECK(order.error().front().message.find("partition") == std::string::npos);
  // When encoding.
  auto c = assay::decode<closure_report>(docs::closure_full).value();
  c.completeness.required.pop_back();
  auto e = assay::encode(c);
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::rule_violation, message, "/completeness"}});
}

TEST_CASE("closure rule: the signal lists and the dependencies are sorted and unique") {
  const std::size_t completeness = docs::closure_full.find(R"({"by_signal")");
  const std::size_t closure = docs::closure_full.find(R"({"captured":["model_identity")");
  // Out of order.
  auto order = assay::decode<closure_report>(
      replaced(docs::closure_full, R"("required":["human_approvals","policy_decisions","tool_io_bodies"])",
               R"("required":["tool_io_bodies","human_approvals","policy_decisions"])"));
  REQUIRE_FALSE(order.has_value());
  check_errors(order.error(), {{errc::rule_violation,
                                R"(required must be sorted and unique: item 1 ("human_approvals") sorts before )"
                                R"(item 0 ("tool_io_bodies"))",
                                "/completeness/required/1", completeness, 1, completeness + 1}});
  // Twice, in required and in a part: the partition holds, the lists are not a set.
  auto twice = assay::decode<closure_report>(replaced(replaced(docs::closure_full, R"("required":["human_approvals",)",
                                                               R"("required":["human_approvals","human_approvals",)"),
                                                      R"("unknown":["human_approvals"])",
                                                      R"("unknown":["human_approvals","human_approvals"])"));
  REQUIRE_FALSE(twice.has_value());
  check_errors(
      twice.error(),
      {{errc::rule_violation, R"(required must be sorted and unique: item 1 repeats item 0 ("human_approvals"))",
        "/completeness/required/1", completeness, 1, completeness + 1},
       {errc::rule_violation, R"(unknown must be sorted and unique: item 1 repeats item 0 ("human_approvals"))",
        "/completeness/unknown/1", completeness, 1, completeness + 1}});
  auto parts = assay::decode<closure_report>(
      replaced(replaced(docs::closure_full, R"("captured":["policy_decisions"])", R"("captured":[])"),
               R"("unknown":["human_approvals"])", R"("unknown":["policy_decisions","human_approvals"])"));
  REQUIRE_FALSE(parts.has_value());
  check_errors(parts.error(), {{errc::rule_violation,
                                R"(unknown must be sorted and unique: item 1 ("human_approvals") sorts before )"
                                R"(item 0 ("policy_decisions"))",
                                "/completeness/unknown/1", completeness, 1, completeness + 1}});
  // The dependencies (code point order: "network:" before "tool:").
  auto deps =
      assay::decode<closure_report>(replaced(docs::closure_full, R"(["network:api.example.com:443","tool:web_search"])",
                                             R"(["tool:web_search","network:api.example.com:443"])"));
  REQUIRE_FALSE(deps.has_value());
  check_errors(deps.error(), {{errc::rule_violation,
                               R"(uncontrolled_dependencies must be sorted and unique: item 1 )"
                               R"(("network:api.example.com:443") sorts before item 0 ("tool:web_search"))",
                               "/closure/uncontrolled_dependencies/1", closure, 1, closure + 1}});
  // When encoding.
  auto c = assay::decode<closure_report>(docs::closure_full).value();
  c.closure.uncontrolled_dependencies->push_back("tool:web_search");
  auto e = assay::encode(c);
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::rule_violation,
                            R"(uncontrolled_dependencies must be sorted and unique: item 2 repeats item 1 )"
                            R"(("tool:web_search"))",
                            "/closure/uncontrolled_dependencies/2"}});
  // The schema stays the normative one: no "uniqueItems" there.
  CHECK(assay::json::to_canonical(assay::schema<closure_report>()).value().find("uniqueItems") == std::string::npos);
}

TEST_CASE("the registry validates by name") {
  const auto* soak = assay::contracts::find("soak-report-v1");
  REQUIRE(soak != nullptr);
  CHECK(soak->validate(docs::soak_full, {}).has_value());
  auto bad = soak->validate(docs::closure_full, {});
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().front().code == errc::unknown_member);
  const auto* closure = assay::contracts::find("closure-v1");
  REQUIRE(closure != nullptr);
  CHECK(closure->validate(docs::closure_minimal, {}).has_value());
  CHECK(assay::contracts::find("nope") == nullptr);
  auto syntax = closure->validate("{", {});
  REQUIRE_FALSE(syntax.has_value());
  CHECK(assay::contracts::is_syntax_error(syntax.error().front().code));
  CHECK_FALSE(assay::contracts::is_syntax_error(errc::missing_member));
  // Names are unique.
  const auto all = assay::contracts::all();
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      CHECK(all[i].name != all[j].name);
}
