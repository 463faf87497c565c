// The report and attestation contracts: finding-v1 and its trial ledger (SPEC §14),
// lint-report-v1 (§11), otel-export-report-v1 (§16), dsse-envelope-v1 and intoto-statement-v1
// (§15). For each: canonical documents round-trip byte for byte; every constraint and every
// cross-field rule rejects a document that breaks it, with its code and pointer; the generated
// schema says what the type says.
#include "support.hpp"

#include "contracts/documents.hpp"
#include "contracts/round_trip.hpp"

#include "assay/contracts/dsse.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/otel_export_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using assay::errc;
using assay::contracts::dsse_envelope;
using assay::contracts::finding;
using assay::contracts::intoto_statement;
using assay::contracts::lint_report;
using assay::contracts::otel_export_report;
using assay::contracts::trial_ledger;
namespace docs = assay_test::docs;

using assay_test::round_trips;

namespace {

// --- helpers -------------------------------------------------------------------------------------

std::string canonical(const assay::json::value& v) {
  auto c = assay::json::to_canonical(v);
  REQUIRE(c.has_value());
  return *c;
}

// The value at `ptr`: it must exist, or with `create` be a new member of an existing object or
// the element just past the end of an existing array.
assay::json::value& at(assay::json::value& root, std::string_view ptr, bool create = false) {
  auto p = assay::json::pointer::parse(ptr);
  REQUIRE(p.has_value());
  assay::json::value* cur = &root;
  const auto& tokens = p->tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (cur->is_array()) {
      const std::size_t index = std::stoul(t);
      if (create && i + 1 == tokens.size() && index == cur->as_array().size())
        cur->as_array().emplace_back(nullptr);
      REQUIRE_MESSAGE(index < cur->as_array().size(), "no element " << ptr);
      cur = &cur->as_array()[index];
    } else {
      REQUIRE(cur->is_object());
      assay::json::value* next = cur->find(t);
      if (next == nullptr && create && i + 1 == tokens.size()) {
        cur->set(t, nullptr);
        next = cur->find(t);
      }
      REQUIRE_MESSAGE(next != nullptr, "no member " << ptr);
      cur = next;
    }
  }
  return *cur;
}

// An edit of a document: set the value at `ptr` to `json` (JSON text), or remove the member at
// `ptr` when `json` is empty.
struct edit {
  std::string_view ptr;
  std::string_view json;
};

std::string edited(const std::string& doc, std::initializer_list<edit> edits) {
  auto v = assay::json::parse(doc);
  REQUIRE(v.has_value());
  for (const edit& e : edits) {
    if (e.json.empty()) {
      const std::size_t slash = e.ptr.rfind('/');
      auto& parent = at(*v, e.ptr.substr(0, slash));
      auto name = assay::json::pointer::parse(e.ptr.substr(slash)).value().tokens().front();
      auto& members = parent.as_object();
      const auto before = members.size();
      std::erase_if(members, [&](const assay::json::member& m) { return m.name == name; });
      REQUIRE_MESSAGE(members.size() + 1 == before, "no member " << e.ptr);
    } else {
      auto x = assay::json::parse(e.json);
      REQUIRE_MESSAGE(x.has_value(), "not JSON: " << e.json);
      at(*v, e.ptr, true) = std::move(*x);
    }
  }
  return canonical(*v);
}

// A document that breaks one constraint or rule, and the one error it must give.
struct bad {
  std::vector<edit> edits;
  errc code;
  std::string_view pointer;
  std::string_view message = {};  // checked when given
};

template <class T>
void rejects(const std::string& doc, const bad& b) {
  std::string text = doc;
  for (const edit& e : b.edits)
    text = edited(text, {e});
  CAPTURE(text);
  auto r = assay::decode<T>(text);
  REQUIRE_FALSE(r.has_value());
  const assay::errors errs = r.error();
  INFO("errors:\n" << errs.format());
  REQUIRE(errs.size() == 1);
  const assay::error& e = errs.front();
  CHECK(assay::name(e.code) == assay::name(b.code));
  CHECK(e.pointer == b.pointer);
  if (!b.message.empty())
    CHECK(e.message == b.message);
}

template <class T>
void rejects_all(const std::string& doc, std::initializer_list<bad> cases) {
  for (const bad& b : cases) {
    CAPTURE(b.pointer);
    rejects<T>(doc, b);
  }
}

// A JSON string of `s` (which needs no escaping).
std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}

// The canonical text of the generated schema's value at `ptr`.
template <class T>
std::string schema_at(std::string_view ptr) {
  const auto s = assay::schema<T>();
  auto v = assay::json::find(s, ptr);
  REQUIRE_MESSAGE(v.has_value(), "schema has nothing at " << ptr);
  return canonical(**v);
}

}  // namespace

// --- finding-v1 ----------------------------------------------------------------------------------

TEST_CASE("finding-v1 and trial ledger documents round-trip byte for byte") {
  round_trips<finding>(docs::finding_full);
  round_trips<finding>(docs::finding_minimal);
  round_trips<trial_ledger>(docs::ledger_full);
  round_trips<trial_ledger>(docs::ledger_minimal);
}

TEST_CASE("a decoded finding carries the document's content") {
  const auto f = assay::decode<finding>(docs::finding_full).value();
  CHECK(f.method.delta_confirmed);
  REQUIRE(f.method.trial_results.size() == 4);
  CHECK(f.method.trial_results[1].route == "laundered");
  CHECK(f.method.trial_results[1].evidence.observed == R"({"account":"ATTACKER-CTRL"})");
  CHECK(*f.method.trial_results[2].framing == "user_message");
  CHECK(f.method.hypothesis_binding->owasp_asi->at(0) == "ASI01");
  CHECK(f.stats.by_route.laundered.ci_high.value() == 0.9054687942657693);
  CHECK(f.stats.technique_mutation_matrix->at("t-encode").at("m-base64").direct.trials.value() == 2);
  CHECK_FALSE(f.stats.robust_across->at("framing:user_message"));
  CHECK(f.transcript_refs[3] == "sha256:" + std::string(64, '4'));
  const auto l = assay::decode<trial_ledger>(docs::ledger_full).value();
  CHECK(*l.miss_summary == "no write to the tripwire file");
  CHECK(l.trial_results.size() == 4);
}

TEST_CASE("finding-v1 constraints, each with its code and pointer") {
  const std::string upper = R"("sha256:)" + std::string(64, 'A') + R"(")";
  rejects_all<finding>(
      docs::finding_full,
      {
          {{{"/schema_version", R"("finding-v2")"}}, errc::const_mismatch, "/schema_version"},
          {{{"/schema_version", "1"}}, errc::type_mismatch, "/schema_version"},
          {{{"/intent", R"("")"}}, errc::too_short, "/intent"},
          {{{"/intent", ""}}, errc::missing_member, "/intent"},
          {{{"/method/trial_results", "[]"}}, errc::too_few_items, "/method/trial_results"},
          {{{"/method/trial_results/0/trial_index", "-1"}}, errc::below_minimum, "/method/trial_results/0/trial_index"},
          {{{"/method/trial_results/0/trial_index", "0.5"}},
           errc::not_an_integer,
           "/method/trial_results/0/trial_index"},
          {{{"/method/trial_results/0/route", R"("sideways")"}}, errc::enum_mismatch, "/method/trial_results/0/route"},
          {{{"/method/trial_results/0/succeeded", R"("no")"}},
           errc::type_mismatch,
           "/method/trial_results/0/succeeded"},
          {{{"/method/trial_results/0/transcript_ref", upper}},
           errc::pattern_mismatch,
           "/method/trial_results/0/transcript_ref"},
          {{{"/method/trial_results/0/evidence/oracle", R"("")"}},
           errc::too_short,
           "/method/trial_results/0/evidence/oracle"},
          {{{"/method/trial_results/0/evidence", ""}}, errc::missing_member, "/method/trial_results/0/evidence"},
          {{{"/method/trial_results/0/framing", R"("")"}}, errc::too_short, "/method/trial_results/0/framing"},
          {{{"/method/trial_results/0/color", R"("red")"}}, errc::unknown_member, "/method/trial_results/0/color"},
          {{{"/method/verdict_policy", R"("")"}}, errc::too_short, "/method/verdict_policy"},
          {{{"/method/delta_confirmed", "1"}}, errc::type_mismatch, "/method/delta_confirmed"},
          {{{"/method/delta_confirmed_framings", R"([""])"}}, errc::too_short, "/method/delta_confirmed_framings/0"},
          {{{"/method/case_family", R"("")"}}, errc::too_short, "/method/case_family"},
          {{{"/method/hypothesis_binding/hypothesis_id", ""}},
           errc::missing_member,
           "/method/hypothesis_binding/hypothesis_id"},
          {{{"/method/hypothesis_binding/atlas", R"("AML.T0051")"}},
           errc::type_mismatch,
           "/method/hypothesis_binding/atlas"},
          {{{"/evidence/observed", R"("")"}}, errc::too_short, "/evidence/observed"},
          {{{"/evidence/by_framing/user_message", "1"}}, errc::type_mismatch, "/evidence/by_framing/user_message"},
          {{{"/stats/by_route/laundered/success_rate", "1.5"}},
           errc::above_maximum,
           "/stats/by_route/laundered/success_rate"},
          {{{"/stats/by_route/laundered/ci_low", "-0.1"}}, errc::below_minimum, "/stats/by_route/laundered/ci_low"},
          {{{"/stats/by_route/direct/trials", "-1"}}, errc::below_minimum, "/stats/by_route/direct/trials"},
          {{{"/stats/by_route/laundered", ""}}, errc::missing_member, "/stats/by_route/laundered"},
          {{{"/stats/ci_high", "2"}}, errc::above_maximum, "/stats/ci_high"},
          {{{"/stats/trials_per_framing/user_message", "-2"}},
           errc::below_minimum,
           "/stats/trials_per_framing/user_message"},
          {{{"/stats/robust_across/framing:user_message", R"("no")"}},
           errc::type_mismatch,
           "/stats/robust_across/framing:user_message"},
          {{{"/stats/technique_mutation_matrix/t-encode/m-base64/direct/trials", "1.5"}},
           errc::not_an_integer,
           "/stats/technique_mutation_matrix/t-encode/m-base64/direct/trials"},
          {{{"/transcript_refs/0", R"("sha1:0123")"}}, errc::pattern_mismatch, "/transcript_refs/0"},
          {{{"/extra", "1"}}, errc::unknown_member, "/extra"},
      });
}

namespace {

// The finding_full document without its per-label tables (by_framing, by_technique, by_mutation,
// the matrix, trials_per_framing), for rules about the trials alone: a change to a trial then
// breaks nothing else.
std::string finding_untabled() {
  return edited(docs::finding_full, {{"/stats/by_framing", ""},
                                     {"/stats/by_technique", ""},
                                     {"/stats/by_mutation", ""},
                                     {"/stats/technique_mutation_matrix", ""},
                                     {"/stats/trials_per_framing", ""}});
}

// The statistics of a route with no trials, and of both routes with none.
const std::string no_trials = R"({"ci_high":1,"ci_low":0,"success_rate":0,"successes":0,"trials":0})";
const std::string empty_pair = R"({"direct":)" + no_trials + R"(,"laundered":)" + no_trials + "}";

}  // namespace

TEST_CASE("finding-v1 rules on route statistics") {
  rejects_all<finding>(
      docs::finding_full,
      {
          // Reported by the cell's own rule only: the count of the cell's successes is not
          // checked against the trials when it cannot be right.
          {{{"/stats/by_framing/user_message/direct/successes", "2"}},
           errc::rule_violation,
           "/stats/by_framing/user_message/direct/successes",
           "successes (2) cannot exceed trials (1)"},
          {{{"/stats/by_framing/tool_response/laundered/success_rate", "0.75"}},
           errc::rule_violation,
           "/stats/by_framing/tool_response/laundered/success_rate",
           "success_rate must equal successes / trials"},
          {{{"/stats/by_framing/user_message/direct/ci_low", "0.1"}},
           errc::rule_violation,
           "/stats/by_framing/user_message/direct/ci_low",
           "ci_low must be the lower bound of the 95% Wilson score interval for 0 successes in 1 trial (0)"},
          {{{"/stats/by_framing/tool_response/laundered/ci_high", "0.9"}},
           errc::rule_violation,
           "/stats/by_framing/tool_response/laundered/ci_high",
           "ci_high must be the upper bound of the 95% Wilson score interval for 1 success in 1 trial (1)"},
          {{{"/stats/by_technique/t-encode/laundered/ci_high", "0.4"}},
           errc::rule_violation,
           "/stats/by_technique/t-encode/laundered/ci_high",
           "ci_high must be the upper bound of the 95% Wilson score interval for 1 success in 2 trials "
           "(0.9054687942657693)"},
      });
  // No trials: the rate is 0 and the interval [0, 1], never narrower.
  rejects_all<finding>(docs::finding_minimal, {
                                                  {{{"/stats/by_route/direct/success_rate", "0.5"}},
                                                   errc::rule_violation,
                                                   "/stats/by_route/direct/success_rate",
                                                   "success_rate is 0 when there are no trials"},
                                                  {{{"/stats/by_route/direct/ci_low", "0.1"}},
                                                   errc::rule_violation,
                                                   "/stats/by_route/direct/ci_low",
                                                   "with no trials the interval is [0, 1]"},
                                                  {{{"/stats/by_route/direct/ci_high", "0.5"}},
                                                   errc::rule_violation,
                                                   "/stats/by_route/direct/ci_high",
                                                   "with no trials the interval is [0, 1]"},
                                              });
}

TEST_CASE("finding-v1 rules: the Wilson bounds are recomputed, within 1e-12") {
  using assay::stats::wilson;
  // The documents carry the correctly rounded bounds (computed to 60 digits): accepted.
  CHECK(assay::decode<finding>(docs::finding_full).has_value());
  CHECK(assay::decode<finding>(docs::finding_minimal).has_value());
  // The interval computed here is the correctly rounded one where long double is wider than
  // double (x86-64, AArch64), and within a few units in the last place of it elsewhere: far
  // inside the tolerance, from 1 trial to 2^53 + 1.
  constexpr bool wide = std::numeric_limits<long double>::digits > std::numeric_limits<double>::digits;
  struct expected {
    std::int64_t k, n;
    double low, high;
  };
  for (const expected& e : {
           expected{0, 1, 0.0, 0.7934506856227626},
           expected{1, 1, 0.20654931437723742, 1.0},
           expected{1, 2, 0.09453120573423072, 0.9054687942657693},
           expected{2, 2, 0.3423802275066531, 1.0},
           expected{0, 3, 0.0, 0.5614970317550455},
           expected{13, 17, 0.5273820188043502, 0.9044495567791988},
           expected{500, 1000, 0.4690696003681042, 0.5309303996318958},
           expected{7, 1000, 0.003394868400990765, 0.014378315465766586},
           expected{1, 1000000, 1.765245767453715e-07, 5.664911804311442e-06},
           expected{999999, 1000000, 0.9999943350881957, 0.9999998234754233},
           expected{1, 9007199254740993, 1.959816253007151e-17, 6.289340454833613e-16},
       }) {
    CAPTURE(e.k);
    CAPTURE(e.n);
    const auto w = wilson(e.k, e.n);
    if (wide) {
      CHECK(w.low == e.low);
      CHECK(w.high == e.high);
    } else {
      CHECK(std::fabs(w.low - e.low) <= 1e-15);
      CHECK(std::fabs(w.high - e.high) <= 1e-15);
    }
  }
  CHECK(wilson(0, 0).low == 0);
  CHECK(wilson(0, 0).high == 1);
  // Bounds that are exactly 0 or 1 are computed exactly.
  CHECK(wilson(0, 7).low == 0);
  CHECK(wilson(7, 7).high == 1);
  // Within 1e-12 of the bound: accepted; farther, or rounded to a few decimals: refused.
  const std::string cell = "/stats/by_technique/t-encode/laundered";
  CHECK(assay::decode<finding>(edited(docs::finding_full, {{cell + "/ci_low", "0.0945312057350"}})).has_value());
  CHECK(assay::decode<finding>(edited(docs::finding_full, {{cell + "/ci_high", "0.9054687942649"}})).has_value());
  const std::string low_message =
      "ci_low must be the lower bound of the 95% Wilson score interval for 1 success in 2 trials "
      "(0.09453120573423072)";
  rejects_all<finding>(
      docs::finding_full,
      {
          {{{cell + "/ci_low", "0.09"}}, errc::rule_violation, cell + "/ci_low", low_message},
          {{{cell + "/ci_low", "0.0945312057"}}, errc::rule_violation, cell + "/ci_low", low_message},
          {{{cell + "/ci_low", "0.094531205736"}}, errc::rule_violation, cell + "/ci_low", low_message},
      });
}

TEST_CASE("finding-v1 rules: the statistics count the trials, delta_confirmed follows them") {
  // 0 of 3, with its own interval: only the count is wrong.
  rejects_all<finding>(
      docs::finding_full,
      {
          {{{"/stats/by_route/direct",
             R"({"ci_high":0.5614970317550455,"ci_low":0,"success_rate":0,"successes":0,"trials":3})"}},
           errc::rule_violation,
           "/stats/by_route/direct/trials",
           "by_route.direct.trials must equal the number of direct trials (2)"},
          {{{"/method/delta_confirmed", "false"}},
           errc::rule_violation,
           "/method/delta_confirmed",
           "delta_confirmed must be true exactly when the direct route has at least one trial and no successes and "
           "the laundered route has at least one success"},
      });
  rejects<finding>(finding_untabled(), {{{"/method/trial_results/3/succeeded", "true"},
                                         {"/method/delta_confirmed_framings", R"(["tool_response","user_message"])"}},
                                        errc::rule_violation,
                                        "/stats/by_route/laundered/successes",
                                        "by_route.laundered.successes must equal the number of laundered trials "
                                        "that succeeded (2)"});
  // A direct success: the delta is not confirmed, whatever the laundered route did.
  const std::string direct_success = edited(finding_untabled(), {{"/method/trial_results/0/succeeded", "true"},
                                                                 {"/method/delta_confirmed_framings", "[]"},
                                                                 {"/stats/by_route/direct", docs::one_of_two}});
  rejects<finding>(direct_success, {{}, errc::rule_violation, "/method/delta_confirmed"});
  CHECK(assay::decode<finding>(edited(direct_success, {{"/method/delta_confirmed", "false"}})).has_value());
  // No direct trial: no baseline, so no delta, though the laundered route succeeded.
  rejects<finding>(docs::finding_minimal,
                   {{{"/method/delta_confirmed", "true"}}, errc::rule_violation, "/method/delta_confirmed"});
  // No laundered success: not confirmed either.
  rejects<finding>(docs::finding_minimal, {{{"/method/trial_results/0/succeeded", "false"},
                                            {"/method/delta_confirmed", "true"},
                                            {"/stats/by_route/laundered", docs::none_of_one},
                                            {"/stats/success_rate", "0"},
                                            {"/stats/ci_low", "0"},
                                            {"/stats/ci_high", "0.7934506856227626"}},
                                           errc::rule_violation,
                                           "/method/delta_confirmed"});
}

TEST_CASE("finding-v1 rules: each per-label cell counts the trials with its label") {
  rejects_all<finding>(
      docs::finding_full,
      {
          {{{"/stats/trials_per_framing/user_message", "3"}},
           errc::rule_violation,
           "/stats/trials_per_framing/user_message",
           "trials_per_framing.user_message must equal the number of trials with framing \"user_message\" (2)"},
          {{{"/stats/by_framing/tool_response/direct", docs::none_of_two}},
           errc::rule_violation,
           "/stats/by_framing/tool_response/direct/trials",
           "by_framing.tool_response.direct.trials must equal the number of direct trials with framing "
           "\"tool_response\" (1)"},
          {{{"/stats/by_framing/user_message/direct", docs::one_of_one}},
           errc::rule_violation,
           "/stats/by_framing/user_message/direct/successes",
           "by_framing.user_message.direct.successes must equal the number of direct trials with framing "
           "\"user_message\" that succeeded (0)"},
          {{{"/stats/by_technique/t-encode/laundered", docs::one_of_one}},
           errc::rule_violation,
           "/stats/by_technique/t-encode/laundered/trials",
           "by_technique.t-encode.laundered.trials must equal the number of laundered trials with technique_id "
           "\"t-encode\" (2)"},
          {{{"/stats/by_mutation/m-base64/direct", docs::one_of_two}},
           errc::rule_violation,
           "/stats/by_mutation/m-base64/direct/successes",
           "by_mutation.m-base64.direct.successes must equal the number of direct trials with mutation_id "
           "\"m-base64\" that succeeded (0)"},
          {{{"/stats/technique_mutation_matrix/t-encode/m-base64/laundered", docs::none_of_two}},
           errc::rule_violation,
           "/stats/technique_mutation_matrix/t-encode/m-base64/laundered/successes",
           "technique_mutation_matrix.t-encode.m-base64.laundered.successes must equal the number of laundered "
           "trials with technique_id \"t-encode\" and mutation_id \"m-base64\" that succeeded (1)"},
      });
  // A declared label no trial has: its cells count nothing.
  CHECK(assay::decode<finding>(edited(docs::finding_full, {{"/method/framings/2", R"("system_prompt")"},
                                                           {"/stats/by_framing/system_prompt", empty_pair},
                                                           {"/stats/trials_per_framing/system_prompt", "0"}}))
            .has_value());
  rejects<finding>(docs::finding_full, {{{"/method/framings/2", R"("system_prompt")"},
                                         {"/stats/by_framing/system_prompt",
                                          R"({"direct":)" + docs::none_of_one + R"(,"laundered":)" + no_trials + "}"}},
                                        errc::rule_violation,
                                        "/stats/by_framing/system_prompt/direct/trials",
                                        "by_framing.system_prompt.direct.trials must equal the number of direct "
                                        "trials with framing \"system_prompt\" (0)"});
}

TEST_CASE("finding-v1 rules: the keys of the per-label tables are declared labels") {
  rejects_all<finding>(docs::finding_full,
                       {
                           {{{"/stats/by_framing/other", empty_pair}},
                            errc::rule_violation,
                            "/stats/by_framing/other",
                            "framing \"other\" is not listed in method.framings"},
                           {{{"/stats/trials_per_framing/other", "0"}},
                            errc::rule_violation,
                            "/stats/trials_per_framing/other",
                            "framing \"other\" is not listed in method.framings"},
                           {{{"/evidence/by_framing/other", R"("nothing")"}},
                            errc::rule_violation,
                            "/evidence/by_framing/other",
                            "framing \"other\" is not listed in method.framings"},
                           {{{"/stats/by_technique/t-other", empty_pair}},
                            errc::rule_violation,
                            "/stats/by_technique/t-other",
                            "technique \"t-other\" is not listed in method.techniques"},
                           {{{"/stats/by_mutation/m-other", empty_pair}},
                            errc::rule_violation,
                            "/stats/by_mutation/m-other",
                            "mutation \"m-other\" is not listed in method.mutations"},
                           {{{"/stats/technique_mutation_matrix/t-other", "{}"}},
                            errc::rule_violation,
                            "/stats/technique_mutation_matrix/t-other",
                            "technique \"t-other\" is not listed in method.techniques"},
                           {{{"/stats/technique_mutation_matrix/t-encode/m-other", empty_pair}},
                            errc::rule_violation,
                            "/stats/technique_mutation_matrix/t-encode/m-other",
                            "mutation \"m-other\" is not listed in method.mutations"},
                           // The key is escaped in the pointer.
                           {{{"/stats/by_framing/a~1b", empty_pair}},
                            errc::rule_violation,
                            "/stats/by_framing/a~1b",
                            "framing \"a/b\" is not listed in method.framings"},
                           // No list, no key: a per-label table needs its labels declared.
                           {{{"/method/techniques", ""}, {"/stats/technique_mutation_matrix", ""}},
                            errc::rule_violation,
                            "/stats/by_technique/t-encode",
                            "technique \"t-encode\" is not listed in method.techniques (there is none)"},
                       });
}

TEST_CASE("finding-v1 rules: delta_confirmed_framings lists the framings whose delta is confirmed") {
  const std::string at = "/method/delta_confirmed_framings";
  const std::string message =
      "delta_confirmed_framings must list, in method.framings order, exactly the framings whose direct route was "
      "tried and had no success and laundered route at least one: ";
  rejects_all<finding>(
      docs::finding_full,
      {
          {{{at, "[]"}}, errc::rule_violation, at, message + R"(["tool_response"])"},
          {{{at, R"(["tool_response","user_message"])"}}, errc::rule_violation, at, message + R"(["tool_response"])"},
          {{{at, R"(["user_message"])"}}, errc::rule_violation, at, message + R"(["tool_response"])"},
      });
  // Both framings confirmed (trial 3, laundered under user_message, succeeded): both listed, in
  // method.framings order.
  const std::string two_of_two =
      R"({"ci_high":1,"ci_low":0.3423802275066531,"success_rate":1,"successes":2,"trials":2})";
  const std::string routes = R"({"direct":)" + docs::none_of_two + R"(,"laundered":)" + two_of_two + "}";
  const std::string both = edited(docs::finding_full, {{"/method/trial_results/3/succeeded", "true"},
                                                       {at, R"(["tool_response","user_message"])"},
                                                       {"/stats/by_framing/user_message/laundered", docs::one_of_one},
                                                       {"/stats/by_route", routes},
                                                       {"/stats/by_technique/t-encode", routes},
                                                       {"/stats/by_mutation/m-base64", routes},
                                                       {"/stats/technique_mutation_matrix/t-encode/m-base64", routes},
                                                       {"/stats/success_rate", "1"},
                                                       {"/stats/ci_low", "0.3423802275066531"},
                                                       {"/stats/ci_high", "1"}});
  CHECK(assay::decode<finding>(both).has_value());
  rejects<finding>(both, {{{at, R"(["user_message","tool_response"])"}},
                          errc::rule_violation,
                          at,
                          message + R"(["tool_response", "user_message"])"});
  // The framings' order decides.
  CHECK(assay::decode<finding>(edited(both, {{"/method/framings", R"(["user_message","tool_response"])"},
                                             {at, R"(["user_message","tool_response"])"}}))
            .has_value());
  // Without a by_framing cell, the trials tell.
  rejects<finding>(finding_untabled(), {{{at, "[]"}}, errc::rule_violation, at, message + R"(["tool_response"])"});
  // Only with method.framings.
  rejects<finding>(finding_untabled(), {{{"/method/framings", ""}, {"/evidence/by_framing", ""}},
                                        errc::rule_violation,
                                        at,
                                        "delta_confirmed_framings is given only with method.framings"});
  // It may be left out.
  CHECK(assay::decode<finding>(edited(docs::finding_full, {{at, ""}})).has_value());
}

TEST_CASE("finding-v1 rules: the top-level statistics repeat the laundered route") {
  rejects_all<finding>(docs::finding_full, {
                                               {{{"/stats/trials", "3"}},
                                                errc::rule_violation,
                                                "/stats/trials",
                                                "trials must repeat by_route.laundered.trials"},
                                               {{{"/stats/success_rate", "0.6"}},
                                                errc::rule_violation,
                                                "/stats/success_rate",
                                                "success_rate must repeat by_route.laundered.success_rate"},
                                               {{{"/stats/ci_low", "0.1"}},
                                                errc::rule_violation,
                                                "/stats/ci_low",
                                                "ci_low must repeat by_route.laundered.ci_low"},
                                               {{{"/stats/ci_high", "0.9"}},
                                                errc::rule_violation,
                                                "/stats/ci_high",
                                                "ci_high must repeat by_route.laundered.ci_high"},
                                           });
}

TEST_CASE("finding-v1 rules: transcript_refs lists each trial's transcript once, in trial order") {
  const std::string t1 = R"("sha256:)" + std::string(64, '1') + R"(")";
  const std::string t2 = R"("sha256:)" + std::string(64, '2') + R"(")";
  const std::string t3 = R"("sha256:)" + std::string(64, '3') + R"(")";
  rejects_all<finding>(docs::finding_full,
                       {
                           // Listed twice: the type's error (unique_list), at the repeat; the order
                           // is not judged then.
                           {{{"/transcript_refs/3", t3}},
                            errc::duplicate_item,
                            "/transcript_refs/3",
                            "item 3 repeats item 2 (\"sha256:" + std::string(64, '3') + "\")"},
                           {{{"/transcript_refs/0", t2}, {"/transcript_refs/1", t1}},
                            errc::rule_violation,
                            "/transcript_refs",
                            "transcript_refs must list every trial's transcript_ref once, in trial order"},
                           {{{"/transcript_refs", "[" + t1 + "," + t2 + "," + t3 + "]"}},
                            errc::rule_violation,
                            "/transcript_refs",
                            "transcript_refs must list every trial's transcript_ref once, in trial order"},
                       });
  // Two trials with one transcript: it is listed once.
  auto shared = edited(docs::finding_full, {{"/method/trial_results/3/transcript_ref", t3},
                                            {"/transcript_refs", "[" + t1 + "," + t2 + "," + t3 + "]"}});
  CHECK(assay::decode<finding>(shared).has_value());
  // Encoding reports the repeat alone, too.
  auto f = assay::decode<finding>(docs::finding_full).value();
  f.transcript_refs[3] = f.transcript_refs[2];
  auto e = assay::encode(f);
  REQUIRE_FALSE(e.has_value());
  INFO(e.error().format());
  REQUIRE(e.error().size() == 1);
  CHECK(assay::name(e.error().front().code) == assay::name(errc::duplicate_item));
  CHECK(e.error().front().pointer == "/transcript_refs/3");
  CHECK(e.error().front().message == "item 3 repeats item 2 (\"sha256:" + std::string(64, '3') + "\")");
  CHECK(schema_at<finding>("/properties/transcript_refs/uniqueItems") == "true");
}

TEST_CASE("finding-v1 and ledger: each declared label is listed once") {
  rejects_all<finding>(docs::finding_full, {
                                               {{{"/method/framings/2", R"("tool_response")"}},
                                                errc::duplicate_item,
                                                "/method/framings/2",
                                                R"(item 2 repeats item 0 ("tool_response"))"},
                                               {{{"/method/techniques/1", R"("t-encode")"}},
                                                errc::duplicate_item,
                                                "/method/techniques/1",
                                                R"(item 1 repeats item 0 ("t-encode"))"},
                                               {{{"/method/mutations/1", R"("m-base64")"}},
                                                errc::duplicate_item,
                                                "/method/mutations/1",
                                                R"(item 1 repeats item 0 ("m-base64"))"},
                                               {{{"/method/delta_confirmed_framings/1", R"("tool_response")"}},
                                                errc::duplicate_item,
                                                "/method/delta_confirmed_framings/1",
                                                R"(item 1 repeats item 0 ("tool_response"))"},
                                               // Equal as JSON strings, written differently.
                                               {{{"/method/framings/2", R"("user_\u006dessage")"}},
                                                errc::duplicate_item,
                                                "/method/framings/2",
                                                R"(item 2 repeats item 1 ("user_message"))"},
                                           });
  rejects_all<trial_ledger>(docs::ledger_full, {
                                                   {{{"/framings/2", R"("user_message")"}},
                                                    errc::duplicate_item,
                                                    "/framings/2",
                                                    R"(item 2 repeats item 1 ("user_message"))"},
                                                   {{{"/techniques/1", R"("t-encode")"}},
                                                    errc::duplicate_item,
                                                    "/techniques/1",
                                                    R"(item 1 repeats item 0 ("t-encode"))"},
                                                   {{{"/mutations/1", R"("m-base64")"}},
                                                    errc::duplicate_item,
                                                    "/mutations/1",
                                                    R"(item 1 repeats item 0 ("m-base64"))"},
                                               });
  // The decoder's error has the position of the repeat.
  const std::string doubled = edited(docs::ledger_full, {{"/techniques/1", R"("t-encode")"}});
  const auto r = assay::decode<trial_ledger>(doubled);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().front().offset == doubled.find(R"("t-encode"])"));
  // Labels that differ only in case are two labels.
  CHECK(assay::decode<trial_ledger>(edited(docs::ledger_full, {{"/techniques/1", R"("T-encode")"}})).has_value());
  // Encoding a finding or a ledger with a repeated label is an error, never silent.
  auto f = assay::decode<finding>(docs::finding_full).value();
  f.method.techniques->push_back(f.method.techniques->front());
  auto e = assay::encode(f);
  REQUIRE_FALSE(e.has_value());
  INFO(e.error().format());
  REQUIRE(e.error().size() == 1);
  CHECK(assay::name(e.error().front().code) == assay::name(errc::duplicate_item));
  CHECK(e.error().front().pointer == "/method/techniques/1");
  CHECK(e.error().front().message == R"(item 1 repeats item 0 ("t-encode"))");
  auto l = assay::decode<trial_ledger>(docs::ledger_full).value();
  l.framings->push_back("tool_response");
  auto le = assay::validate(l);
  REQUIRE_FALSE(le.has_value());
  REQUIRE(le.error().size() == 1);
  CHECK(le.error().front().pointer == "/framings/2");
  CHECK(le.error().front().message == R"(item 2 repeats item 0 ("tool_response"))");
  // The schemas say it: every label list, and nothing else there.
  for (const char* list : {"framings", "delta_confirmed_framings", "techniques", "mutations"})
    CHECK(schema_at<finding>("/properties/method/properties/" + std::string(list) + "/uniqueItems") == "true");
  for (const char* list : {"framings", "techniques", "mutations"})
    CHECK(schema_at<trial_ledger>("/properties/" + std::string(list) + "/uniqueItems") == "true");
  const auto schema = assay::schema<finding>();
  CHECK_FALSE(assay::json::find(schema, "/$defs/hypothesis_binding/properties/atlas/uniqueItems").has_value());
  CHECK_FALSE(assay::json::find(schema, "/properties/method/properties/trial_results/uniqueItems").has_value());
}

TEST_CASE("finding-v1 and ledger rules: trial labels are among those declared") {
  // Without the per-label tables, which would count the relabelled trial too. (Not trial 0: it is
  // tool_response's direct baseline, without which its delta would not be confirmed either.)
  rejects_all<finding>(finding_untabled(), {
                                               {{{"/method/trial_results/3/framing", R"("other")"}},
                                                errc::rule_violation,
                                                "/method/trial_results/3/framing",
                                                "framing \"other\" is not listed in framings"},
                                               {{{"/method/trial_results/2/technique_id", R"("t-other")"}},
                                                errc::rule_violation,
                                                "/method/trial_results/2/technique_id",
                                                "technique_id \"t-other\" is not listed in techniques"},
                                               {{{"/method/trial_results/1/mutation_id", R"("m-other")"}},
                                                errc::rule_violation,
                                                "/method/trial_results/1/mutation_id",
                                                "mutation_id \"m-other\" is not listed in mutations"},
                                           });
  rejects_all<trial_ledger>(docs::ledger_full, {
                                                   {{{"/trial_results/3/framing", R"("other")"}},
                                                    errc::rule_violation,
                                                    "/trial_results/3/framing",
                                                    "framing \"other\" is not listed in framings"},
                                                   {{{"/trial_results/0/mutation_id", R"("m-other")"}},
                                                    errc::rule_violation,
                                                    "/trial_results/0/mutation_id",
                                                    "mutation_id \"m-other\" is not listed in mutations"},
                                               });
  // Nothing declared: any label.
  CHECK(assay::decode<trial_ledger>(
            edited(docs::ledger_full, {{"/framings", ""}, {"/trial_results/3/framing", R"("x")"}}))
            .has_value());
}

TEST_CASE("finding-v1 and ledger rules: trial_index is the trial's position") {
  // 0, 1, 2, 3 in the documents.
  CHECK(assay::decode<finding>(docs::finding_full).has_value());
  CHECK(assay::decode<trial_ledger>(docs::ledger_full).has_value());
  rejects_all<finding>(docs::finding_full, {
                                               {{{"/method/trial_results/2/trial_index", "5"}},
                                                errc::rule_violation,
                                                "/method/trial_results/2/trial_index",
                                                "trial_index (5) must be the trial's position in the ledger (2)"},
                                               // Two trials with one index.
                                               {{{"/method/trial_results/1/trial_index", "0"}},
                                                errc::rule_violation,
                                                "/method/trial_results/1/trial_index",
                                                "trial_index (0) must be the trial's position in the ledger (1)"},
                                           });
  rejects_all<trial_ledger>(docs::ledger_full, {
                                                   {{{"/trial_results/3/trial_index", "4"}},
                                                    errc::rule_violation,
                                                    "/trial_results/3/trial_index",
                                                    "trial_index (4) must be the trial's position in the ledger (3)"},
                                               });
  rejects<trial_ledger>(docs::ledger_minimal, {{{"/trial_results/0/trial_index", "1"}},
                                               errc::rule_violation,
                                               "/trial_results/0/trial_index",
                                               "trial_index (1) must be the trial's position in the ledger (0)"});
}

TEST_CASE("trial ledger constraints") {
  rejects_all<trial_ledger>(
      docs::ledger_full, {
                             {{{"/intent", R"("")"}}, errc::too_short, "/intent"},
                             {{{"/trial_results", "[]"}}, errc::too_few_items, "/trial_results"},
                             {{{"/trial_results", ""}}, errc::missing_member, "/trial_results"},
                             {{{"/trial_results/0/route", R"("both")"}}, errc::enum_mismatch, "/trial_results/0/route"},
                             {{{"/miss_summary", R"("")"}}, errc::too_short, "/miss_summary"},
                             {{{"/framings", R"("tool_response")"}}, errc::type_mismatch, "/framings"},
                             {{{"/schema_version", R"("finding-v1")"}}, errc::unknown_member, "/schema_version"},
                         });
}

TEST_CASE("finding-v1 rules when encoding") {
  auto f = assay::decode<finding>(docs::finding_full).value();
  f.stats.trials = 5;
  f.method.delta_confirmed = false;
  auto e = assay::encode(f);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 2);
  // The nested object's rule first, then the finding's.
  CHECK(e.error().items[0].code == errc::rule_violation);
  CHECK(e.error().items[0].pointer == "/stats/trials");
  CHECK(e.error().items[1].code == errc::rule_violation);
  CHECK(e.error().items[1].pointer == "/method/delta_confirmed");
}

TEST_CASE("finding-v1 schema") {
  CHECK(schema_at<finding>("/$id") == R"("https://assay.dev/schemas/finding-v1.schema.json")");
  CHECK(schema_at<finding>("/title") == R"("Assay Finding v1")");
  CHECK(schema_at<finding>("/additionalProperties") == "false");
  CHECK(schema_at<finding>("/required") ==
        R"(["schema_version","intent","method","evidence","stats","transcript_refs"])");
  CHECK(schema_at<finding>("/properties/schema_version") == R"({"const":"finding-v1","type":"string"})");
  CHECK(schema_at<finding>("/properties/transcript_refs/items/pattern") == R"("^sha256:[0-9a-f]{64}$")");
  CHECK(schema_at<finding>("/properties/method/additionalProperties") == "false");
  CHECK(schema_at<finding>("/properties/method/properties/trial_results/minItems") == "1");
  CHECK(schema_at<finding>("/properties/method/properties/trial_results/items") ==
        R"({"$ref":"#/$defs/trial_result"})");
  CHECK(schema_at<finding>("/$defs/trial_result/additionalProperties") == "false");
  CHECK(schema_at<finding>("/$defs/trial_result/required") ==
        R"(["trial_index","route","succeeded","transcript_ref","evidence"])");
  CHECK(schema_at<finding>("/$defs/trial_result/properties/route") ==
        R"({"enum":["direct","laundered"],"type":"string"})");
  CHECK(schema_at<finding>("/$defs/trial_result/properties/transcript_ref/pattern") == R"("^sha256:[0-9a-f]{64}$")");
  CHECK(schema_at<finding>("/$defs/route_stats/properties/success_rate/minimum") == "0");
  CHECK(schema_at<finding>("/$defs/route_stats/properties/success_rate/maximum") == "1");
  CHECK(schema_at<finding>("/$defs/route_stats/properties/successes/minimum") == "0");
  CHECK(schema_at<finding>("/properties/stats/properties/by_framing/additionalProperties") ==
        R"({"$ref":"#/$defs/route_pair"})");
  CHECK(schema_at<finding>("/properties/stats/properties/technique_mutation_matrix/additionalProperties") ==
        R"({"additionalProperties":{"$ref":"#/$defs/route_pair"},"type":"object"})");
  CHECK(schema_at<finding>("/properties/stats/properties/robust_across/additionalProperties") ==
        R"({"type":"boolean"})");
  CHECK(schema_at<finding>("/$defs/hypothesis_binding/required") == R"(["hypothesis_id"])");
  CHECK(schema_at<trial_ledger>("/$id") == R"("https://assay.dev/schemas/trial-ledger-v1.schema.json")");
  CHECK(schema_at<trial_ledger>("/required") == R"(["intent","trial_results"])");
  CHECK(schema_at<trial_ledger>("/additionalProperties") == "false");
}

// --- lint-report-v1 ------------------------------------------------------------------------------

TEST_CASE("lint-report-v1 documents round-trip byte for byte") {
  round_trips<lint_report>(docs::lint_full);
  round_trips<lint_report>(docs::lint_minimal);
  const auto r = assay::decode<lint_report>(docs::lint_full).value();
  CHECK(r.results[0].severity == "warning");
  CHECK(r.results[0].findings[0].location->seq.value() == 3);
  CHECK(r.results[0].findings[0].location->line.value() == 4);
  CHECK(r.results[0].findings[0].location->event_type == "assay.fs.access");
  CHECK_FALSE(r.results[2].findings[0].location.has_value());
  CHECK(*r.results[3].reason == "unsupported check type");
  CHECK(*r.packs[1].source_url == "https://eur-lex.europa.eu/eli/reg/2024/1689/oj");
  CHECK(r.disclaimers[0].text == "Passing these checks does NOT constitute legal compliance.\n");
  CHECK(r.summary.findings.info.value() == 1);
  CHECK(r.verdict == "pass");
}

TEST_CASE("lint-report-v1 constraints, each with its code and pointer") {
  const std::string upper = R"("sha256:)" + std::string(64, 'F') + R"(")";
  rejects_all<lint_report>(
      docs::lint_full,
      {
          {{{"/schema_version", R"("lint-report-v2")"}}, errc::const_mismatch, "/schema_version"},
          {{{"/generated_at", R"("2023-11-14 22:13:20")"}}, errc::format_mismatch, "/generated_at"},
          {{{"/tool/name", R"("")"}}, errc::too_short, "/tool/name"},
          {{{"/tool/version", ""}}, errc::missing_member, "/tool/version"},
          {{{"/bundle/bundle_id", R"("sha256:e3b0")"}}, errc::pattern_mismatch, "/bundle/bundle_id"},
          {{{"/bundle/run_id", R"("")"}}, errc::too_short, "/bundle/run_id"},
          {{{"/bundle/event_count", "-1"}}, errc::below_minimum, "/bundle/event_count"},
          {{{"/bundle", ""}}, errc::missing_member, "/bundle"},
          {{{"/packs", ""}}, errc::missing_member, "/packs"},
          {{{"/packs/0/name", R"("CICD-starter")"}}, errc::pattern_mismatch, "/packs/0/name"},
          {{{"/packs/0/name", R"("cicd-")"}}, errc::pattern_mismatch, "/packs/0/name"},
          {{{"/packs/0/name", R"("cicd_starter")"}}, errc::pattern_mismatch, "/packs/0/name"},
          {{{"/packs/0/kind", R"("fun")"}}, errc::enum_mismatch, "/packs/0/kind"},
          {{{"/packs/1/digest", upper}}, errc::pattern_mismatch, "/packs/1/digest"},
          {{{"/packs/1/digest", ""}}, errc::missing_member, "/packs/1/digest"},
          {{{"/packs/0/source", R"("")"}}, errc::too_short, "/packs/0/source"},
          {{{"/packs/0/source", ""}}, errc::missing_member, "/packs/0/source"},
          {{{"/packs/1/source_url", "null"}}, errc::type_mismatch, "/packs/1/source_url"},
          {{{"/results/0/rule_id", R"("")"}}, errc::too_short, "/results/0/rule_id"},
          {{{"/results/0/severity", R"("fatal")"}}, errc::enum_mismatch, "/results/0/severity"},
          {{{"/results/0/outcome", R"("failed")"}}, errc::enum_mismatch, "/results/0/outcome"},
          {{{"/results/0/outcome", ""}}, errc::missing_member, "/results/0/outcome"},
          {{{"/results/3/reason", R"("")"}}, errc::too_short, "/results/3/reason"},
          {{{"/results/0/findings", ""}}, errc::missing_member, "/results/0/findings"},
          {{{"/results/0/findings/0/message", R"("")"}}, errc::too_short, "/results/0/findings/0/message"},
          {{{"/results/0/findings/0/severity", R"("note")"}}, errc::enum_mismatch, "/results/0/findings/0/severity"},
          {{{"/results/0/findings/0/fingerprint", upper}}, errc::pattern_mismatch, "/results/0/findings/0/fingerprint"},
          {{{"/results/0/findings/0/fingerprint", ""}}, errc::missing_member, "/results/0/findings/0/fingerprint"},
          {{{"/results/0/findings/0/location/seq", "-1"}}, errc::below_minimum, "/results/0/findings/0/location/seq"},
          {{{"/results/0/findings/0/location/line", "0"}}, errc::below_minimum, "/results/0/findings/0/location/line"},
          {{{"/results/0/findings/0/location/event_type", ""}},
           errc::missing_member,
           "/results/0/findings/0/location/event_type"},
          {{{"/results/0/findings/0/location/pointer", R"("/type")"}},
           errc::unknown_member,
           "/results/0/findings/0/location/pointer"},
          {{{"/results", ""}}, errc::missing_member, "/results"},
          {{{"/summary/passed", "-1"}}, errc::below_minimum, "/summary/passed"},
          {{{"/summary/findings/error", ""}}, errc::missing_member, "/summary/findings/error"},
          {{{"/summary/dropped", ""}}, errc::missing_member, "/summary/dropped"},
          {{{"/summary/max_results", "-1"}}, errc::below_minimum, "/summary/max_results"},
          {{{"/fail_on", R"("critical")"}}, errc::enum_mismatch, "/fail_on"},
          {{{"/fail_on", R"("warn")"}}, errc::enum_mismatch, "/fail_on"},
          {{{"/verdict", R"("passed")"}}, errc::enum_mismatch, "/verdict"},
          {{{"/verdict", "true"}}, errc::type_mismatch, "/verdict"},
          {{{"/disclaimers/0/pack", R"("")"}}, errc::too_short, "/disclaimers/0/pack"},
          {{{"/disclaimers", ""}}, errc::missing_member, "/disclaimers"},
          {{{"/passed", "true"}}, errc::unknown_member, "/passed"},
      });
}

TEST_CASE("lint-report-v1 rules") {
  rejects_all<lint_report>(
      docs::lint_full,
      {
          {{{"/results/3/reason", ""}},
           errc::rule_violation,
           "/results/3/reason",
           "reason is present exactly when the outcome is skipped"},
          {{{"/results/1/reason", R"("no reason")"}},
           errc::rule_violation,
           "/results/1/reason",
           "reason is present exactly when the outcome is skipped"},
          {{{"/results/3/findings",
             R"([{"fingerprint":"sha256:)" + std::string(64, 'c') + R"(","message":"m","severity":"warning"}])"},
            {"/summary/findings/total", "3"},
            {"/summary/findings/warning", "2"}},
           errc::rule_violation,
           "/results/3/findings",
           "a skipped rule has no findings"},
          {{{"/results/2/rule_id", R"("cicd-starter@0.1.0:events-present")"}},
           errc::rule_violation,
           "/results/2/rule_id",
           "rule \"cicd-starter@0.1.0:events-present\" is reported twice"},
          {{{"/results/2/rule_id", R"("other-pack@1.0.0:EU12-001")"}},
           errc::rule_violation,
           "/results/2/rule_id",
           "rule \"other-pack@1.0.0:EU12-001\" belongs to no pack in packs"},
          {{{"/results/2/rule_id", R"("eu-ai-act-baseline@2.0.0:EU12-001")"}},
           errc::rule_violation,
           "/results/2/rule_id",
           "rule \"eu-ai-act-baseline@2.0.0:EU12-001\" belongs to no pack in packs"},
          {{{"/results/1/rule_id", R"("cicd-starter@0.1.0:")"}},
           errc::rule_violation,
           "/results/1/rule_id",
           "rule \"cicd-starter@0.1.0:\" names its pack but no rule"},
          {{{"/results/1/rule_id", R"("events-present")"}},
           errc::rule_violation,
           "/results/1/rule_id",
           "rule \"events-present\" is neither a built-in rule (ASSAY-…) nor <pack>@<version>:<id>"},
          {{{"/results/0/rule_id", R"("ASSAY-")"}},
           errc::rule_violation,
           "/results/0/rule_id",
           "rule \"ASSAY-\" is neither a built-in rule (ASSAY-…) nor <pack>@<version>:<id>"},
          {{{"/summary/rules", "5"}},
           errc::rule_violation,
           "/summary/rules",
           "summary.rules (5) must equal the number of results (4)"},
          {{{"/summary/passed", "2"}},
           errc::rule_violation,
           "/summary/passed",
           "summary.passed (2) must equal the number of passing rules (1)"},
          {{{"/summary/violated", "1"}},
           errc::rule_violation,
           "/summary/violated",
           "summary.violated (1) must equal the number of violated rules (2)"},
          {{{"/summary/skipped", "0"}},
           errc::rule_violation,
           "/summary/skipped",
           "summary.skipped (0) must equal the number of skipped rules (1)"},
          {{{"/summary/findings/total", "3"}},
           errc::rule_violation,
           "/summary/findings/total",
           "summary.findings.total (3) must equal the number of reported findings (2)"},
          {{{"/summary/findings/info", "0"}},
           errc::rule_violation,
           "/summary/findings/info",
           "summary.findings.info (0) must equal the number of reported info findings (1)"},
          {{{"/summary/findings/warning", "2"}},
           errc::rule_violation,
           "/summary/findings/warning",
           "summary.findings.warning (2) must equal the number of reported warning findings (1)"},
          {{{"/summary/findings/error", "1"}},
           errc::rule_violation,
           "/summary/findings/error",
           "summary.findings.error (1) must equal the number of reported error findings (0)"},
          {{{"/summary/max_results", "1"}},
           errc::rule_violation,
           "/summary/findings/total",
           "more findings are reported than max_results allows"},
          // Nothing at or above error was found: the lint passed.
          {{{"/verdict", R"("fail")"}},
           errc::rule_violation,
           "/verdict",
           "verdict must be pass: no finding's severity is at or above fail_on"},
          // A warning was found: with --fail-on warning the lint fails.
          {{{"/fail_on", R"("warning")"}},
           errc::rule_violation,
           "/verdict",
           "verdict must be fail: a finding's severity is at or above fail_on"},
          {{{"/fail_on", R"("info")"}},
           errc::rule_violation,
           "/verdict",
           "verdict must be fail: a finding's severity is at or above fail_on"},
          // A passing rule reports at most an unlocated warning (an optional manifest field).
          {{{"/results/1/findings", R"([{"fingerprint":"sha256:)" + std::string(64, 'c') +
                                        R"(","location":{"event_type":"t","line":1,"seq":0},)"
                                        R"("message":"m","severity":"warning"}])"},
            {"/summary/findings/total", "3"},
            {"/summary/findings/warning", "2"}},
           errc::rule_violation,
           "/results/1/findings/0",
           "a rule that passed reports only a warning about the bundle as a whole (an optional manifest field)"},
          {{{"/results/1/findings",
             R"([{"fingerprint":"sha256:)" + std::string(64, 'c') + R"(","message":"m","severity":"error"}])"},
            {"/summary/findings/total", "3"},
            {"/summary/findings/error", "1"},
            {"/verdict", R"("fail")"}},
           errc::rule_violation,
           "/results/1/findings/0",
           "a rule that passed reports only a warning about the bundle as a whole (an optional manifest field)"},
          {{{"/results/2/findings/0/severity", R"("warning")"},
            {"/summary/findings/info", "0"},
            {"/summary/findings/warning", "2"}},
           errc::rule_violation,
           "/results/2/findings/0/severity",
           "a violated rule's findings have its severity (info)"},
          {{{"/results/2/findings", "[]"}, {"/summary/findings/total", "1"}, {"/summary/findings/info", "0"}},
           errc::rule_violation,
           "/results/2/findings",
           "a violated rule reports its findings (none were dropped)"},
          {{{"/packs/2", R"({"digest":)" + std::string(R"("sha256:)") + std::string(64, '6') +
                             R"(","kind":"security","name":"cicd-starter","source":"x.yaml","version":"0.1.0"})"}},
           errc::rule_violation,
           "/packs/2",
           "pack \"cicd-starter@0.1.0\" is listed twice (also at /packs/0)"},
          {{{"/disclaimers/0/pack", R"("cicd-starter")"}},
           errc::rule_violation,
           "/disclaimers/0/pack",
           "the disclaimer names no compliance pack in packs"},
          {{{"/disclaimers/1", R"({"pack":"soc2-baseline","text":""})"}},
           errc::rule_violation,
           "/disclaimers/1/pack",
           "the disclaimer names no compliance pack in packs"},
      });
  // A passing rule may carry an unlocated warning; one pack at two versions is two packs; a pack's
  // version may be empty (SPEC §10: any string).
  CHECK(assay::decode<lint_report>(
            edited(docs::lint_full, {{"/results/1/findings", R"([{"fingerprint":"sha256:)" + std::string(64, 'c') +
                                                                 R"(","message":"m",)"
                                                                 R"("severity":"warning"}])"},
                                     {"/summary/findings/total", "3"},
                                     {"/summary/findings/warning", "2"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(
            edited(
                docs::lint_full,
                {{"/packs/2", R"({"digest":"sha256:)" + std::string(64, '6') +
                                  R"(","kind":"quality","name":"cicd-starter","source":"x.yaml","version":"0.2.0"})"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(edited(docs::lint_full, {{"/packs/0/version", R"("")"},
                                                            {"/results/1/rule_id", R"("cicd-starter@:events-present")"},
                                                            {"/results/3/rule_id", R"("cicd-starter@:custom")"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(edited(docs::lint_full, {{"/fail_on", R"("warning")"}, {"/verdict", R"("fail")"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(edited(docs::lint_full, {{"/fail_on", R"("info")"}, {"/verdict", R"("fail")"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(edited(docs::lint_full, {{"/fail_on", R"("none")"}})).has_value());
  // Dropped findings are the lowest severities: a violated rule may have lost all of them, and
  // the verdict may be fail though no reported finding is at fail_on... only when some were dropped.
  CHECK(assay::decode<lint_report>(edited(docs::lint_full, {{"/results/2/findings", "[]"},
                                                            {"/summary/findings/total", "1"},
                                                            {"/summary/findings/info", "0"},
                                                            {"/summary/dropped", "1"},
                                                            {"/summary/max_results", "1"}}))
            .has_value());
  CHECK(assay::decode<lint_report>(
            edited(docs::lint_full, {{"/fail_on", R"("info")"},
                                     {"/results/2/findings", "[]"},
                                     {"/results/0/findings", "[]"},
                                     {"/summary/findings", R"({"error":0,"info":0,"total":0,"warning":0})"},
                                     {"/summary/dropped", "2"},
                                     {"/summary/max_results", "0"},
                                     {"/verdict", R"("fail")"}}))
            .has_value());
  // When encoding.
  auto r = assay::decode<lint_report>(docs::lint_full).value();
  r.results.erase(r.results.begin() + 2);
  auto e = assay::encode(r);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 4);
  CHECK(e.error().items[0].pointer == "/summary/rules");
  CHECK(e.error().items[1].pointer == "/summary/violated");
  CHECK(e.error().items[2].pointer == "/summary/findings/total");
  CHECK(e.error().items[3].pointer == "/summary/findings/info");
}

TEST_CASE("lint-report-v1 schema") {
  CHECK(schema_at<lint_report>("/$id") == R"("https://assay.dev/schemas/lint-report-v1.schema.json")");
  CHECK(schema_at<lint_report>("/additionalProperties") == "false");
  CHECK(schema_at<lint_report>("/properties/schema_version") == R"({"const":"lint-report-v1","type":"string"})");
  CHECK(schema_at<lint_report>("/properties/fail_on/enum") == R"(["none","info","warning","error"])");
  CHECK(schema_at<lint_report>("/properties/verdict/enum") == R"(["pass","fail"])");
  CHECK(schema_at<lint_report>("/required") ==
        R"(["schema_version","tool","bundle","packs","results","summary","fail_on","verdict","disclaimers"])");
  // Lint with built-in rules only has no pack: packs may be empty.
  CHECK_FALSE(assay::json::find(assay::schema<lint_report>(), "/properties/packs/minItems").has_value());
  CHECK(schema_at<lint_report>("/$defs/rule_result/additionalProperties") == "false");
  CHECK(schema_at<lint_report>("/$defs/rule_result/properties/rule_id/minLength") == "1");
  CHECK(schema_at<lint_report>("/$defs/rule_result/properties/rule_id/type") == R"("string")");
  CHECK(schema_at<lint_report>("/$defs/rule_result/properties/outcome") ==
        R"({"enum":["pass","violated","skipped"],"type":"string"})");
  CHECK(schema_at<lint_report>("/$defs/rule_result/required") == R"(["rule_id","severity","outcome","findings"])");
  CHECK(schema_at<lint_report>("/$defs/finding/required") == R"(["severity","message","fingerprint"])");
  CHECK(schema_at<lint_report>("/$defs/location/required") == R"(["seq","line","event_type"])");
  CHECK(schema_at<lint_report>("/$defs/location/properties/seq/minimum") == "0");
  CHECK(schema_at<lint_report>("/$defs/location/properties/line/minimum") == "1");
  CHECK(schema_at<lint_report>("/$defs/pack_ref/properties/digest/pattern") == R"("^sha256:[0-9a-f]{64}$")");
  CHECK(schema_at<lint_report>("/$defs/pack_ref/properties/name/pattern") == R"("^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$")");
  CHECK(schema_at<lint_report>("/$defs/pack_ref/properties/version/type") == R"("string")");
  CHECK(schema_at<lint_report>("/$defs/pack_ref/required") == R"(["name","version","kind","digest","source"])");
  CHECK(schema_at<lint_report>("/properties/summary/properties/findings/required") ==
        R"(["total","error","warning","info"])");
  CHECK(schema_at<lint_report>("/properties/summary/required") ==
        R"(["rules","passed","violated","skipped","findings","dropped","max_results"])");
}

// --- otel-export-report-v1 -----------------------------------------------------------------------

TEST_CASE("otel-export-report-v1 documents round-trip byte for byte") {
  round_trips<otel_export_report>(docs::otel_full);
  round_trips<otel_export_report>(docs::otel_minimal);
  const auto r = assay::decode<otel_export_report>(docs::otel_full).value();
  CHECK(r.mapping_loss.dropped_attributes[1].member == "/data/result");
  CHECK(r.mapping_loss.unmapped_events.at("assay.fs.access").value() == 2);
}

TEST_CASE("otel-export-report-v1 constraints and rules") {
  rejects_all<otel_export_report>(
      docs::otel_full,
      {
          {{{"/schema_version", R"("otel-export-report-v0")"}}, errc::const_mismatch, "/schema_version"},
          {{{"/semconv_version", R"("")"}}, errc::too_short, "/semconv_version"},
          {{{"/semconv_version", ""}}, errc::missing_member, "/semconv_version"},
          {{{"/events_read", "-1"}}, errc::below_minimum, "/events_read"},
          {{{"/spans_written", "1.5"}}, errc::not_an_integer, "/spans_written"},
          {{{"/generated_at", R"("now")"}}, errc::format_mismatch, "/generated_at"},
          {{{"/mapping_loss/dropped_attributes/0/event_id", R"("")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/event_id"},
          // {run_id}:{seq}: a run id without ':', the seq in decimal.
          {{{"/mapping_loss/dropped_attributes/0/event_id", R"("run_8f3a")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/event_id",
           R"("run_8f3a" does not match the pattern ^[^:]+:(0|[1-9][0-9]*)$)"},
          {{{"/mapping_loss/dropped_attributes/0/event_id", R"(":4")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/event_id"},
          {{{"/mapping_loss/dropped_attributes/0/event_id", R"("run_8f3a:")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/event_id"},
          {{{"/mapping_loss/dropped_attributes/1/event_id", R"("run:8f3a:7")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/1/event_id"},
          {{{"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:07")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/1/event_id"},
          {{{"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:-7")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/1/event_id"},
          {{{"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:7\n")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/1/event_id"},
          {{{"/mapping_loss/dropped_attributes/0/member", R"("data/arguments")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/member"},
          {{{"/mapping_loss/dropped_attributes/0/member", R"("")"}},
           errc::pattern_mismatch,
           "/mapping_loss/dropped_attributes/0/member"},
          {{{"/mapping_loss/dropped_attributes/1/reason", ""}},
           errc::missing_member,
           "/mapping_loss/dropped_attributes/1/reason"},
          {{{"/mapping_loss/unmapped_events/assay.fs.access", "-1"}},
           errc::below_minimum,
           "/mapping_loss/unmapped_events/assay.fs.access"},
          {{{"/mapping_loss/unmapped_events", "[]"}}, errc::type_mismatch, "/mapping_loss/unmapped_events"},
          {{{"/mapping_loss/totals/unmapped_events", "-3"}},
           errc::below_minimum,
           "/mapping_loss/totals/unmapped_events"},
          {{{"/mapping_loss/totals", ""}}, errc::missing_member, "/mapping_loss/totals"},
          {{{"/mapping_loss/lost", "0"}}, errc::unknown_member, "/mapping_loss/lost"},
          // Rules.
          {{{"/mapping_loss/totals/dropped_attributes", "3"}},
           errc::rule_violation,
           "/mapping_loss/totals/dropped_attributes",
           "totals.dropped_attributes must equal the number of dropped_attributes (2)"},
          {{{"/mapping_loss/totals/unmapped_events", "4"}},
           errc::rule_violation,
           "/mapping_loss/totals/unmapped_events",
           "totals.unmapped_events must equal the sum of unmapped_events (3)"},
          {{{"/mapping_loss/unmapped_events/assay.fs.access", "9000000000000000000"},
            {"/mapping_loss/unmapped_events/assay.env.filtered", "9000000000000000000"}},
           errc::rule_violation,
           "/mapping_loss/totals/unmapped_events",
           "the sum of unmapped_events is too large"},
          {{{"/events_read", "2"}},
           errc::rule_violation,
           "/mapping_loss/totals/unmapped_events",
           "more events unmapped than events read"},
          // An event type has a name (the key is the empty token of the pointer).
          {{{"/mapping_loss/unmapped_events/", "0"}},
           errc::rule_violation,
           "/mapping_loss/unmapped_events/",
           "an event type in unmapped_events cannot be the empty string"},
      });
  // Event ids of a live run (a UUIDv7 run id) and of seq 0.
  CHECK(assay::decode<otel_export_report>(
            edited(docs::otel_full,
                   {{"/mapping_loss/dropped_attributes/0/event_id", R"("0190c8a2-7b1e-7c3d-9f4e-5a6b7c8d9e0f:12")"},
                    {"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:0")"}}))
            .has_value());
  // When encoding.
  auto r = assay::decode<otel_export_report>(docs::otel_full).value();
  r.mapping_loss.unmapped_events.erase("assay.env.filtered");
  auto e = assay::encode(r);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 1);
  CHECK(e.error().front().pointer == "/mapping_loss/totals/unmapped_events");
}

TEST_CASE("otel-export-report-v1 schema") {
  CHECK(schema_at<otel_export_report>("/$id") == R"("https://assay.dev/schemas/otel-export-report-v1.schema.json")");
  CHECK(schema_at<otel_export_report>("/additionalProperties") == "false");
  CHECK(schema_at<otel_export_report>("/properties/schema_version") ==
        R"({"const":"otel-export-report-v1","type":"string"})");
  CHECK(schema_at<otel_export_report>("/properties/mapping_loss/additionalProperties") == "false");
  CHECK(schema_at<otel_export_report>("/properties/mapping_loss/required") ==
        R"(["dropped_attributes","unmapped_events","totals"])");
  CHECK(schema_at<otel_export_report>("/properties/mapping_loss/properties/unmapped_events/additionalProperties") ==
        R"({"minimum":0,"type":"integer"})");
  CHECK(schema_at<otel_export_report>("/$defs/dropped_attribute/properties/member/pattern") ==
        R"("^(/([^~/]|~[01])*)+$")");
}

// --- dsse-envelope-v1 ----------------------------------------------------------------------------

TEST_CASE("dsse-envelope-v1 documents round-trip byte for byte") {
  round_trips<dsse_envelope>(docs::dsse_full);
  const auto d = assay::decode<dsse_envelope>(docs::dsse_full).value();
  CHECK(d.payloadType == "application/vnd.in-toto+json");
  CHECK(d.signatures.front().sig == "MEUCIQDx8n-_wA5a");
  // Standard and URL-safe base64 are both accepted, padded or not.
  for (const std::string_view payload : {"eyJ4Ijoi-_8", "eyJ4IjoiP/8=", "eyJ4IjoiP/8", "eyJ4IjoiP_8=", "eyJ4Ijo=",
                                         "eyJ4Ijo", "eyJ4Ij==", "eyJ4Ij", "AAAA", "++//", "--__"}) {
    CAPTURE(payload);
    CHECK(assay::decode<dsse_envelope>(edited(docs::dsse_full, {{"/payload", json_string(payload)}})).has_value());
  }
  // A long payload is matched, not refused as too costly: 192 KiB in each alphabet.
  std::string long_payload(196608, 'A');
  long_payload[7] = '+';
  CHECK(assay::decode<dsse_envelope>(edited(docs::dsse_full, {{"/payload", json_string(long_payload)}})).has_value());
  long_payload[7] = '-';
  long_payload[long_payload.size() - 2] = '=';
  long_payload.back() = '=';
  CHECK(assay::decode<dsse_envelope>(edited(docs::dsse_full, {{"/payload", json_string(long_payload)}})).has_value());
  long_payload[9] = '/';  // two alphabets
  rejects<dsse_envelope>(docs::dsse_full,
                         {{{"/payload", json_string(long_payload)}}, errc::pattern_mismatch, "/payload"});
  // More than one signature.
  CHECK(assay::decode<dsse_envelope>(edited(docs::dsse_full, {{"/signatures/1", R"({"keyid":"","sig":"AAAA"})"}}))
            .has_value());
}

TEST_CASE("dsse-envelope-v1 readers keep unknown members and write them back in canonical order") {
  // SPEC §15: readers ignore unknown members. Here they are kept, at both levels, whatever their
  // value, before, between and after the declared members.
  const std::string with_unknown =
      edited(docs::dsse_full, {{"/a_note", R"({"by":["x",null]})"},
                               {"/payloadTypeVersion", "2"},
                               {"/signatures/0/cert", R"("-----BEGIN CERTIFICATE-----")"},
                               {"/signatures/0/zz", "1.5"},
                               {"/signatures/1", R"({"keyid":"","sig":"AAAA","x-ts":false})"},
                               {"/zz", "[]"}});
  round_trips<dsse_envelope>(with_unknown);
  const auto d = assay::decode<dsse_envelope>(with_unknown).value();
  CHECK(d.payload == "eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==");
  REQUIRE(d.unknown.size() == 3);
  CHECK(canonical(d.unknown.at("a_note")) == R"({"by":["x",null]})");
  CHECK(canonical(d.unknown.at("payloadTypeVersion")) == "2");
  CHECK(canonical(d.unknown.at("zz")) == "[]");
  REQUIRE(d.signatures.size() == 2);
  REQUIRE(d.signatures[0].unknown.size() == 2);
  CHECK(d.signatures[0].unknown.at("cert").as_string() == "-----BEGIN CERTIFICATE-----");
  CHECK(canonical(d.signatures[0].unknown.at("zz")) == "1.5");
  REQUIRE(d.signatures[1].unknown.size() == 1);
  CHECK(canonical(d.signatures[1].unknown.at("x-ts")) == "false");
  // Read in any order, written in canonical order.
  const auto shuffled = assay::decode<dsse_envelope>(
      R"({"signatures":[{"zz":1.50,"sig":"AAAA","cert":"c","keyid":"k"}],"z":true,"payloadType":"t",)"
      R"("payload":"AAAA","a":null})");
  REQUIRE(shuffled.has_value());
  CHECK(assay::encode(*shuffled).value() ==
        R"({"a":null,"payload":"AAAA","payloadType":"t","signatures":[{"cert":"c","keyid":"k","sig":"AAAA",)"
        R"("zz":1.5}],"z":true})");
  // The declared members keep their checks; the names of unknown members must still be unique.
  rejects<dsse_envelope>(with_unknown,
                         {{{"/signatures/0/sig", R"("not base64!")"}}, errc::pattern_mismatch, "/signatures/0/sig"});
  const auto twice = assay::decode<dsse_envelope>(R"({"payload":"AAAA","payloadType":"t",)"
                                                  R"("signatures":[{"keyid":"","n":1,"n":2,"sig":"AAAA"}]})");
  REQUIRE_FALSE(twice.has_value());
  REQUIRE(twice.error().size() == 1);
  CHECK(twice.error().front().code == errc::duplicate_member);
  CHECK(twice.error().front().pointer == "/signatures/0/n");
  // A kept member cannot be written under the name of a declared one.
  auto clash = d;
  clash.signatures[1].unknown["sig"] = assay::json::value("AAAA");
  auto e = assay::encode(clash);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 1);
  CHECK(e.error().front().code == errc::duplicate_member);
  CHECK(e.error().front().pointer == "/signatures/1/sig");
}

TEST_CASE("dsse-envelope-v1 constraints") {
  rejects_all<dsse_envelope>(
      docs::dsse_full,
      {
          {{{"/payload", R"("")"}}, errc::too_short, "/payload"},
          {{{"/payload", R"("not base64!")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AAAA===")"}}, errc::pattern_mismatch, "/payload"},
          // One alphabet per value: standard (+/) or URL-safe (-_), not both.
          {{{"/payload", R"("ab+-")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("ab/_cd==")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/signatures/0/sig", R"("MEUCIQDx8n+_wA5a")"}}, errc::pattern_mismatch, "/signatures/0/sig"},
          // A length no encoding has: 4k + 1 characters, or padding that does
          // not complete a group of four.
          {{{"/payload", R"("A")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AAAAA")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AAAAA=")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AAA==")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AA=")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("A===")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/payload", R"("AAAA=")"}}, errc::pattern_mismatch, "/payload"},
          {{{"/signatures/0/sig", R"("MEUCIQDx8n-_wA5aB")"}}, errc::pattern_mismatch, "/signatures/0/sig"},
          {{{"/payload", "5"}}, errc::type_mismatch, "/payload"},
          {{{"/payloadType", R"("")"}}, errc::too_short, "/payloadType"},
          {{{"/payloadType", ""}}, errc::missing_member, "/payloadType"},
          {{{"/signatures", "[]"}}, errc::too_few_items, "/signatures"},
          {{{"/signatures/0", R"("sig")"}}, errc::type_mismatch, "/signatures/0"},
          {{{"/signatures/0/sig", R"("")"}}, errc::too_short, "/signatures/0/sig"},
          {{{"/signatures/0/keyid", ""}}, errc::missing_member, "/signatures/0/keyid"},
          {{{"/signatures/0/keyid", "null"}}, errc::type_mismatch, "/signatures/0/keyid"},
      });
}

TEST_CASE("dsse-envelope-v1 schema") {
  CHECK(schema_at<dsse_envelope>("/$id") == R"("https://assay.dev/schemas/dsse-envelope-v1.schema.json")");
  CHECK(schema_at<dsse_envelope>("/required") == R"(["payload","payloadType","signatures"])");
  CHECK(schema_at<dsse_envelope>("/properties/payload/minLength") == "1");
  const std::string base64 = R"("^(?:(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?)"
                             R"(|(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?)$")";
  CHECK(schema_at<dsse_envelope>("/properties/payload/pattern") == base64);
  CHECK(schema_at<dsse_envelope>("/$defs/signature/properties/sig/pattern") == base64);
  CHECK(schema_at<dsse_envelope>("/properties/signatures/minItems") == "1");
  CHECK(schema_at<dsse_envelope>("/$defs/signature/required") == R"(["keyid","sig"])");
  // Unknown members are allowed at both levels, as the type keeps them: both objects say
  // "additionalProperties": true and limit no names by a pattern, and the C++ member that keeps
  // them is not a property.
  const auto s = assay::schema<dsse_envelope>();
  for (const std::string_view object : {"", "/$defs/signature"}) {
    CAPTURE(object);
    const auto o = assay::json::find(s, object);
    REQUIRE(o.has_value());
    REQUIRE((*o)->find("additionalProperties") != nullptr);
    CHECK((*o)->find("additionalProperties")->is_bool());
    CHECK((*o)->find("additionalProperties")->as_bool());
    CHECK((*o)->find("patternProperties") == nullptr);
    CHECK((*o)->find("properties")->find("unknown") == nullptr);
  }
  CHECK(s.find("properties")->as_object().size() == 3);
  CHECK(assay::json::find(s, "/$defs/signature/properties").value()->as_object().size() == 2);
}

// --- intoto-statement-v1 -------------------------------------------------------------------------

TEST_CASE("intoto-statement-v1 documents round-trip byte for byte") {
  round_trips<intoto_statement>(docs::intoto_full);
  // No closure report, no packs, no mappings, no git revision.
  round_trips<intoto_statement>(edited(docs::intoto_full, {{"/predicate/closure_report_digest", ""},
                                                           {"/predicate/packs", "[]"},
                                                           {"/predicate/mappings", "[]"},
                                                           {"/predicate/run/producer/git", R"("")"}}));
  // The reference's statement: none of ADR-025's members.
  round_trips<intoto_statement>(edited(docs::intoto_full, {{"/predicate/closure_report_digest", ""},
                                                           {"/predicate/artifacts", ""},
                                                           {"/predicate/packs", ""},
                                                           {"/predicate/mappings", ""}}));
  const auto s = assay::decode<intoto_statement>(docs::intoto_full).value();
  CHECK(s.subject[0].digest.sha256 == std::string(64, '9'));
  CHECK(s.predicate.run.time_window.end == "2023-11-14T22:13:51.293907Z");
  CHECK(s.predicate.schema_version.value() == 1);
  // The member is "_type" in JSON.
  const auto bytes = assay::encode(s).value();
  CHECK(bytes.rfind(R"({"_type":"https://in-toto.io/Statement/v1","predicate":)", 0) == 0);
}

TEST_CASE("intoto-statement-v1 constraints and rules") {
  const std::string second_subject = R"({"digest":{"sha256":")" + std::string(64, '8') + R"("},"name":"other"})";
  rejects_all<intoto_statement>(
      docs::intoto_full,
      {
          {{{"/_type", R"("https://in-toto.io/Statement/v0.1")"}}, errc::const_mismatch, "/_type"},
          {{{"/_type", ""}}, errc::missing_member, "/_type"},
          {{{"/subject", "[]"}}, errc::too_few_items, "/subject"},
          {{{"/subject/1", second_subject}}, errc::too_many_items, "/subject"},
          {{{"/subject/0/name", R"("")"}}, errc::too_short, "/subject/0/name"},
          {{{"/subject/0/digest/sha256", R"("sha256:)" + std::string(64, '9') + R"(")"}},
           errc::pattern_mismatch,
           "/subject/0/digest/sha256"},
          {{{"/subject/0/digest/sha256", R"(")" + std::string(64, 'A') + R"(")"}},
           errc::pattern_mismatch,
           "/subject/0/digest/sha256"},
          {{{"/subject/0/digest/sha512", R"("ab")"}}, errc::unknown_member, "/subject/0/digest/sha512"},
          {{{"/predicateType", R"("https://slsa.dev/provenance/v1")"}}, errc::const_mismatch, "/predicateType"},
          {{{"/predicate/schema_version", "2"}}, errc::above_maximum, "/predicate/schema_version"},
          {{{"/predicate/schema_version", "0"}}, errc::below_minimum, "/predicate/schema_version"},
          {{{"/predicate/schema_version", R"("1")"}}, errc::type_mismatch, "/predicate/schema_version"},
          {{{"/predicate/semantic_equivalence/algorithm", R"("assay-run-root-v2")"}},
           errc::const_mismatch,
           "/predicate/semantic_equivalence/algorithm"},
          {{{"/predicate/semantic_equivalence/value", R"(")" + std::string(64, '7') + R"(")"}},
           errc::pattern_mismatch,
           "/predicate/semantic_equivalence/value"},
          {{{"/predicate/run/run_id", R"("")"}}, errc::too_short, "/predicate/run/run_id"},
          {{{"/predicate/run/event_count", "-1"}}, errc::below_minimum, "/predicate/run/event_count"},
          {{{"/predicate/run/producer/git", ""}}, errc::missing_member, "/predicate/run/producer/git"},
          {{{"/predicate/run/time_window/start", R"("2023-11-14 22:13:20")"}},
           errc::format_mismatch,
           "/predicate/run/time_window/start"},
          {{{"/predicate/artifacts/events", R"("sha256:e3b0")"}},
           errc::pattern_mismatch,
           "/predicate/artifacts/events"},
          {{{"/predicate/packs/0/digest", R"("f47d")"}}, errc::pattern_mismatch, "/predicate/packs/0/digest"},
          {{{"/predicate/mappings/0/ref", R"("")"}}, errc::too_short, "/predicate/mappings/0/ref"},
          {{{"/predicate/closure_report_digest", R"("")"}}, errc::pattern_mismatch, "/predicate/closure_report_digest"},
          {{{"/predicate/extra", "1"}}, errc::unknown_member, "/predicate/extra"},
          // Rule: the subject is the bundle, whose id is the run_root.
          {{{"/subject/0/name", R"("sha256:)" + std::string(64, '8') + R"(")"}},
           errc::rule_violation,
           "/subject/0/name",
           "the subject's name (the bundle_id) must equal the run_root in predicate.semantic_equivalence.value"},
      });
  auto s = assay::decode<intoto_statement>(docs::intoto_full).value();
  s.predicate.semantic_equivalence.value = "sha256:" + std::string(64, '6');
  auto e = assay::encode(s);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 1);
  CHECK(e.error().front().code == errc::rule_violation);
  CHECK(e.error().front().pointer == "/subject/0/name");
}

TEST_CASE("intoto-statement-v1 rule: the time window does not start after it ends, as instants") {
  const std::string window = "/predicate/run/time_window";
  const auto with_window = [&](std::string_view start, std::string_view end) {
    return edited(docs::intoto_full, {{window + "/start", json_string(start)}, {window + "/end", json_string(end)}});
  };
  const auto accepted = [&](std::string_view start, std::string_view end) {
    CAPTURE(start);
    CAPTURE(end);
    CHECK(assay::decode<intoto_statement>(with_window(start, end)).has_value());
  };
  const auto refused = [&](std::string_view start, std::string_view end) {
    CAPTURE(start);
    CAPTURE(end);
    rejects<intoto_statement>(with_window(start, end), {{},
                                                        errc::rule_violation,
                                                        window,
                                                        "the time window starts (" + std::string(start) +
                                                            ") after it ends (" + std::string(end) + ")"});
  };
  accepted("2023-11-14T22:13:20Z", "2023-11-14T22:13:51.293907Z");  // the document's
  accepted("2023-11-14T22:13:20Z", "2023-11-14T22:13:20Z");         // one event
  refused("2023-11-14T22:13:52Z", "2023-11-14T22:13:51.293907Z");
  refused("2023-11-14T22:13:51.2939071Z", "2023-11-14T22:13:51.293907Z");
  refused("2023-11-15T00:00:00Z", "2023-11-14T23:59:59.999Z");
  refused("2024-01-01T00:00:00Z", "2023-12-31T23:59:59Z");
  // Offsets: the same instant written two ways, and an order the text does not show.
  accepted("2023-11-14T23:13:51.293907+01:00", "2023-11-14T22:13:51.2939070Z");
  accepted("2023-11-15T00:10:00+02:00", "2023-11-14T22:13:20Z");      // 22:10Z
  refused("2023-11-14T22:13:20-01:00", "2023-11-14T22:13:51Z");       // 23:13:20Z
  refused("2023-11-14T22:13:20.5z", "2023-11-14t23:13:20.25+01:00");  // lower-case t and z
  accepted("2023-11-14T22:13:20.25Z", "2023-11-14T23:13:20.5+01:00");
  // Fractions compare exactly, beyond nanoseconds and whatever their trailing zeros.
  refused("2023-11-14T22:13:51.2939070001Z", "2023-11-14T22:13:51.293907Z");
  accepted("2023-11-14T22:13:51.2939069999999Z", "2023-11-14T22:13:51.293907Z");
  accepted("2023-11-14T22:13:51.5000000000Z", "2023-11-14T22:13:51.5Z");
  refused("2023-11-14T22:13:51.05Z", "2023-11-14T22:13:51Z");
  // A leap second is the next day's first second.
  accepted("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z");
  refused("2016-12-31T23:59:60.5Z", "2017-01-01T00:00:00Z");
  // When encoding.
  auto st = assay::decode<intoto_statement>(docs::intoto_full).value();
  std::swap(st.predicate.run.time_window.start, st.predicate.run.time_window.end);
  auto e = assay::encode(st);
  REQUIRE_FALSE(e.has_value());
  REQUIRE(e.error().size() == 1);
  CHECK(e.error().front().code == errc::rule_violation);
  CHECK(e.error().front().pointer == window);
}

TEST_CASE("intoto-statement-v1 schema") {
  CHECK(schema_at<intoto_statement>("/$id") == R"("https://assay.dev/schemas/intoto-statement-v1.schema.json")");
  CHECK(schema_at<intoto_statement>("/additionalProperties") == "false");
  CHECK(schema_at<intoto_statement>("/required") == R"(["_type","subject","predicateType","predicate"])");
  CHECK(schema_at<intoto_statement>("/properties/_type") ==
        R"({"const":"https://in-toto.io/Statement/v1","type":"string"})");
  CHECK(schema_at<intoto_statement>("/properties/predicateType/const") ==
        R"("https://docs.getassay.dev/attestation/evidence-bundle/v1")");
  CHECK(schema_at<intoto_statement>("/properties/subject/minItems") == "1");
  CHECK(schema_at<intoto_statement>("/properties/subject/maxItems") == "1");
  CHECK(schema_at<intoto_statement>("/$defs/subject/properties/digest/properties/sha256/pattern") ==
        R"("^[0-9a-f]{64}$")");
  CHECK(schema_at<intoto_statement>("/properties/predicate/properties/schema_version/minimum") == "1");
  CHECK(schema_at<intoto_statement>("/properties/predicate/properties/schema_version/maximum") == "1");
  CHECK(schema_at<intoto_statement>("/properties/predicate/properties/semantic_equivalence/properties/algorithm") ==
        R"({"const":"assay-run-root-v1","type":"string"})");
  CHECK(schema_at<intoto_statement>("/properties/predicate/properties/run/properties/time_window/properties/start/"
                                    "format") == R"("date-time")");
  // The reference's predicate: ADR-025's members (artifacts, packs, mappings) only when asked.
  CHECK(schema_at<intoto_statement>("/properties/predicate/required") ==
        R"(["schema_version","semantic_equivalence","run"])");
}
