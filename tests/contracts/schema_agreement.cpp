// The generated schema and the typed decoder agree: for every contract a corpus of valid and
// invalid documents is judged by a small JSON Schema evaluator (written here, independent of the
// library's checks, for the subset of keywords the generator emits) running on the generated
// schema, and by assay::decode. They must agree on every document, except where marked:
//   rule  — a cross-field check_rules rule that no schema keyword can state: the decoder is
//           stricter (errc::rule_violation);
//   range — an integer the schema allows but the member's C++ type cannot hold (the schema has
//           no maximum; int64/uint64 have one): the decoder is stricter (errc::not_an_integer).
#include "support.hpp"

#include "contracts/documents.hpp"

#include "assay/contracts/closure.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <boost/regex.hpp>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

using assay::errc;
using assay::json::value;
namespace docs = assay_test::docs;

namespace {

// ---------------------------------------------------------------------------------------------
// A JSON Schema 2020-12 evaluator for the keywords the generator emits. Any other keyword is an
// error of the test (so a new generator feature cannot be silently ignored here).
// ---------------------------------------------------------------------------------------------

class evaluator {
 public:
  explicit evaluator(const value& root) : root_(root) {}

  // True when `instance` is valid; otherwise `why` says where and why not.
  bool valid(const value& instance, std::string& why) { return check(root_, instance, "", why); }

 private:
  static std::size_t code_points(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
      if ((c & 0xC0) != 0x80)
        ++n;
    return n;
  }

  static bool is_type(const value& v, const std::string& type) {
    if (type == "null")
      return v.is_null();
    if (type == "boolean")
      return v.is_bool();
    if (type == "object")
      return v.is_object();
    if (type == "array")
      return v.is_array();
    if (type == "string")
      return v.is_string();
    if (type == "number")
      return v.is_number();
    if (type == "integer")
      return v.is_number() && std::isfinite(v.as_number()) && std::floor(v.as_number()) == v.as_number();
    FAIL("unknown type in schema: " << type);
    return false;
  }

  // RFC 3339 date-time, written independently of the library's checker.
  static bool is_date_time(const std::string& s) {
    static const boost::regex re(
        R"(^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))$)");
    boost::smatch m;
    if (!boost::regex_match(s, m, re))
      return false;
    auto num = [&](int i) { return std::stoi(m[i].str()); };
    const int y = num(1), mo = num(2), d = num(3), h = num(4), mi = num(5), se = num(6);
    if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 60)
      return false;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    const int month_days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d > month_days[mo - 1])
      return false;
    if (m[9].matched && (num(9) > 23 || num(10) > 59))
      return false;
    return true;
  }

  static bool matches(const std::string& pattern, const std::string& s) {
    // ECMA-262 semantics for the anchors: '^' only at the start and '$' only at the very end
    // (no multiline flag), which Boost gives with match_single_line.
    const boost::regex re(pattern, boost::regex::ECMAScript);
    return boost::regex_search(s, re, boost::match_single_line | boost::match_not_dot_newline);
  }

  bool fail(std::string& why, const std::string& where, const std::string& what) {
    why = (where.empty() ? std::string("(root)") : where) + ": " + what;
    return false;
  }

  bool check(const value& schema, const value& v, const std::string& where, std::string& why) {
    REQUIRE(schema.is_object());
    for (const auto& kw : schema.as_object()) {
      const std::string& k = kw.name;
      const value& a = kw.value;
      if (k == "$schema" || k == "$id" || k == "title" || k == "description" || k == "default" || k == "$defs") {
        continue;
      } else if (k == "$ref") {
        const std::string& ref = a.as_string();
        REQUIRE(ref.rfind("#/", 0) == 0);
        auto target = assay::json::find(root_, ref.substr(1));
        REQUIRE_MESSAGE(target.has_value(), "unresolvable $ref " << ref);
        if (!check(**target, v, where, why))
          return false;
      } else if (k == "type") {
        bool ok = false;
        if (a.is_string()) {
          ok = is_type(v, a.as_string());
        } else {
          for (const auto& t : a.as_array())
            ok = ok || is_type(v, t.as_string());
        }
        if (!ok)
          return fail(why, where, "type");
      } else if (k == "const") {
        if (!(v == a))
          return fail(why, where, "const");
      } else if (k == "enum") {
        bool ok = false;
        for (const auto& e : a.as_array())
          ok = ok || e == v;
        if (!ok)
          return fail(why, where, "enum");
      } else if (k == "minimum") {
        if (v.is_number() && v.as_number() < a.as_number())
          return fail(why, where, "minimum");
      } else if (k == "maximum") {
        if (v.is_number() && v.as_number() > a.as_number())
          return fail(why, where, "maximum");
      } else if (k == "minLength") {
        if (v.is_string() && static_cast<double>(code_points(v.as_string())) < a.as_number())
          return fail(why, where, "minLength");
      } else if (k == "pattern") {
        if (v.is_string() && !matches(a.as_string(), v.as_string()))
          return fail(why, where, "pattern");
      } else if (k == "format") {
        REQUIRE(a.as_string() == "date-time");
        if (v.is_string() && !is_date_time(v.as_string()))
          return fail(why, where, "format");
      } else if (k == "minItems") {
        if (v.is_array() && static_cast<double>(v.as_array().size()) < a.as_number())
          return fail(why, where, "minItems");
      } else if (k == "maxItems") {
        if (v.is_array() && static_cast<double>(v.as_array().size()) > a.as_number())
          return fail(why, where, "maxItems");
      } else if (k == "items") {
        if (v.is_array()) {
          for (std::size_t i = 0; i < v.as_array().size(); ++i)
            if (!check(a, v.as_array()[i], where + "/" + std::to_string(i), why))
              return false;
        }
      } else if (k == "required") {
        if (v.is_object()) {
          for (const auto& r : a.as_array())
            if (v.find(r.as_string()) == nullptr)
              return fail(why, where, "required " + r.as_string());
        }
      } else if (k == "properties") {
        if (v.is_object()) {
          for (const auto& m : v.as_object()) {
            if (const value* p = a.find(m.name)) {
              if (!check(*p, m.value, where + "/" + assay::json::escape_pointer_token(m.name), why))
                return false;
            }
          }
        }
      } else if (k == "additionalProperties") {
        if (v.is_object()) {
          const value* props = schema.find("properties");
          for (const auto& m : v.as_object()) {
            if (props != nullptr && props->find(m.name) != nullptr)
              continue;
            const std::string at = where + "/" + assay::json::escape_pointer_token(m.name);
            if (a.is_bool()) {
              if (!a.as_bool())
                return fail(why, at, "additionalProperties");
            } else if (!check(a, m.value, at, why)) {
              return false;
            }
          }
        }
      } else if (k == "anyOf") {
        bool ok = false;
        for (const auto& s : a.as_array()) {
          std::string ignored;
          ok = ok || check(s, v, where, ignored);
        }
        if (!ok)
          return fail(why, where, "anyOf");
      } else {
        FAIL("keyword not supported by the test's evaluator: " << k);
      }
    }
    return true;
  }

  const value& root_;
};

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

enum class verdict {
  valid,    // both accept
  invalid,  // both reject; the decoder's first error has the expected code
  rule,     // the schema accepts; the decoder rejects with rule_violation (cross-field rule)
  range,    // the schema accepts; the decoder rejects with not_an_integer (C++ integer range)
};

struct sample {
  std::string label;
  std::string text;
  verdict expect;
  errc code = errc::ok;
};

// An edit of a base document: set the value at a pointer (JSON text), or remove it.
struct edit {
  std::string pointer;
  std::optional<std::string> json;  // nullopt: remove the member / element
};

std::string edited(const std::string& base, std::initializer_list<edit> edits) {
  auto doc = assay::json::parse(base);
  REQUIRE(doc.has_value());
  for (const auto& e : edits) {
    const auto slash = e.pointer.rfind('/');
    REQUIRE(slash != std::string::npos);
    const std::string parent_ptr = e.pointer.substr(0, slash);
    auto tokens = assay::json::pointer::parse(e.pointer);
    REQUIRE(tokens.has_value());
    const std::string last = tokens->tokens().back();
    auto parent = assay::json::find(*doc, parent_ptr);
    REQUIRE_MESSAGE(parent.has_value(), "no parent for " << e.pointer);
    value& p = const_cast<value&>(**parent);
    if (p.is_array()) {
      std::size_t i = 0;
      REQUIRE(assay::json::pointer::parse_index(last, i));
      auto& arr = p.as_array();
      if (e.json) {
        auto v = assay::json::parse(*e.json);
        REQUIRE(v.has_value());
        if (i == arr.size()) {
          arr.push_back(*v);
        } else {
          arr.at(i) = *v;
        }
      } else {
        arr.erase(arr.begin() + static_cast<std::ptrdiff_t>(i));
      }
    } else {
      REQUIRE(p.is_object());
      if (e.json) {
        auto v = assay::json::parse(*e.json);
        REQUIRE_MESSAGE(v.has_value(), "bad JSON in edit: " << *e.json);
        p.set(last, *v);
      } else {
        auto& obj = p.as_object();
        bool removed = false;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
          if (it->name == last) {
            obj.erase(it);
            removed = true;
            break;
          }
        }
        REQUIRE_MESSAGE(removed, "nothing to remove at " << e.pointer);
      }
    }
  }
  auto out = assay::json::to_canonical(*doc);
  REQUIRE(out.has_value());
  return *out;
}

std::string replaced(std::string s, std::string_view from, std::string_view to) {
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
  return s.replace(at, from.size(), to);
}

sample ok(std::string label, std::string text) {
  return {std::move(label), std::move(text), verdict::valid};
}
sample bad(std::string label, std::string text, errc code) {
  return {std::move(label), std::move(text), verdict::invalid, code};
}
sample rule(std::string label, std::string text) {
  return {std::move(label), std::move(text), verdict::rule, errc::rule_violation};
}
sample range(std::string label, std::string text) {
  return {std::move(label), std::move(text), verdict::range, errc::not_an_integer};
}

std::vector<sample> soak_corpus() {
  const std::string& full = docs::soak_full;
  const std::string& min = docs::soak_minimal;
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("first_failure_at null", edited(full, {{"/results/first_failure_at", "null"}})),
      ok("stop_on_first_failure true", edited(full, {{"/decision_policy/stop_on_first_failure", "true"}})),
      ok("policy with threshold only",
         edited(full, {{"/decision_policy", R"({"pass_on_severity_at_or_above":"info"})"}})),
      ok("ci95 [0,1]", edited(full, {{"/results/pass_rate_ci95", "[0,1]"}})),
      ok("empty maps", edited(full, {{"/results/violations_by_rule", "{}"}, {"/results/infra_errors_by_kind", "{}"}})),
      ok("runs []", edited(full, {{"/runs", "[]"}})),
      ok("violated_rules []", edited(full, {{"/runs/0/violated_rules", "[]"}})),
      ok("empty source and message",
         edited(full, {{"/packs/0/source", R"("")"}, {"/runs/2/infra_error_message", R"("")"}})),
      ok("date-time with offset", edited(full, {{"/generated_at", R"("2023-11-14T23:13:20.123+01:00")"}})),
      ok("date-time lowercase", edited(full, {{"/generated_at", R"("2023-11-14t22:13:20z")"}})),
      ok("leap second", edited(full, {{"/generated_at", R"("2016-12-31T23:59:60Z")"}})),
      ok("integers written as 1.0", replaced(min, R"("iterations":1)", R"("iterations":1.0)")),
      ok("integer with exponent", replaced(min, R"("time_budget_secs":1)", R"("time_budget_secs":3.6e3)")),
      ok("seed -0", replaced(min, R"("seed":0)", R"("seed":-0)")),
      ok("large seed", edited(min, {{"/seed", "9007199254740993"}})),
      ok("largest uint64 double", replaced(min, R"("seed":0)", R"("seed":18446744073709549568)")),
      ok("pretty-printed", assay::json::to_pretty(assay::json::parse(full).value())),
      ok("unicode in strings", edited(full, {{"/suite", R"("n\u00e4chtlich \ud83d\ude00")"}})),
      // --- invalid: both reject ---
      bad("schema_version", edited(full, {{"/schema_version", R"("soak-report-v2")"}}), errc::const_mismatch),
      bad("mode", edited(full, {{"/mode", R"("bench")"}}), errc::const_mismatch),
      bad("schema_version type", edited(min, {{"/schema_version", "1"}}), errc::type_mismatch),
      bad("missing iterations", edited(full, {{"/iterations", std::nullopt}}), errc::missing_member),
      bad("missing results", edited(min, {{"/results", std::nullopt}}), errc::missing_member),
      bad("iterations 0", edited(min, {{"/iterations", "0"}}), errc::below_minimum),
      bad("iterations 1.5", edited(min, {{"/iterations", "1.5"}}), errc::not_an_integer),
      bad("iterations string", edited(min, {{"/iterations", R"("1")"}}), errc::type_mismatch),
      bad("iterations null", edited(min, {{"/iterations", "null"}}), errc::type_mismatch),
      bad("seed -1", edited(min, {{"/seed", "-1"}}), errc::below_minimum),
      bad("seed 0.5", edited(min, {{"/seed", "0.5"}}), errc::not_an_integer),
      bad("time_budget_secs 0", edited(min, {{"/time_budget_secs", "0"}}), errc::below_minimum),
      bad("limits member missing", edited(min, {{"/limits/max_path_len", std::nullopt}}), errc::missing_member),
      bad("limits extra member", edited(min, {{"/limits/max_files", "1"}}), errc::unknown_member),
      bad("limits 0", edited(min, {{"/limits/max_json_depth", "0"}}), errc::below_minimum),
      bad("limits not an object", edited(min, {{"/limits", "[]"}}), errc::type_mismatch),
      bad("packs empty", edited(min, {{"/packs", "[]"}}), errc::too_few_items),
      bad("packs not an array", edited(min, {{"/packs", R"({"name":"p","version":"1"})"}}), errc::type_mismatch),
      bad("pack name empty", edited(min, {{"/packs/0/name", R"("")"}}), errc::too_short),
      bad("pack version missing", edited(min, {{"/packs/0/version", std::nullopt}}), errc::missing_member),
      bad("pack kind empty", edited(full, {{"/packs/0/kind", R"("")"}}), errc::too_short),
      bad("pack source number", edited(full, {{"/packs/0/source", "1"}}), errc::type_mismatch),
      bad("pack unknown member", edited(full, {{"/packs/1/url", R"("https://x")"}}), errc::unknown_member),
      bad("threshold unknown", edited(full, {{"/decision_policy/pass_on_severity_at_or_above", R"("fatal")"}}),
          errc::enum_mismatch),
      bad("policy empty", edited(full, {{"/decision_policy", "{}"}}), errc::missing_member),
      bad("stop flag string", edited(full, {{"/decision_policy/stop_on_first_failure", R"("yes")"}}),
          errc::type_mismatch),
      bad("max_failures 0", edited(full, {{"/decision_policy/max_failures", "0"}}), errc::below_minimum),
      bad("runs 0", edited(min, {{"/results/runs", "0"}}), errc::below_minimum),
      bad("passes -1", edited(min, {{"/results/passes", "-1"}}), errc::below_minimum),
      bad("pass_rate 1.5", edited(min, {{"/results/pass_rate", "1.5"}}), errc::above_maximum),
      bad("pass_rate -0.5", edited(min, {{"/results/pass_rate", "-0.5"}}), errc::below_minimum),
      bad("pass_all string", edited(min, {{"/results/pass_all", R"("true")"}}), errc::type_mismatch),
      bad("pass_all missing", edited(min, {{"/results/pass_all", std::nullopt}}), errc::missing_member),
      bad("first_failure_at 0", edited(full, {{"/results/first_failure_at", "0"}}), errc::below_minimum),
      bad("first_failure_at string", edited(full, {{"/results/first_failure_at", R"("2")"}}), errc::type_mismatch),
      bad("first_failure_at 1.5", edited(full, {{"/results/first_failure_at", "1.5"}}), errc::not_an_integer),
      bad("violations count 0", edited(full, {{"/results/violations_by_rule/x", "0"}}), errc::below_minimum),
      bad("violations not an object", edited(full, {{"/results/violations_by_rule", "[]"}}), errc::type_mismatch),
      bad("infra kind count string", edited(full, {{"/results/infra_errors_by_kind/x", R"("a")"}}),
          errc::type_mismatch),
      bad("ci95 one item", edited(full, {{"/results/pass_rate_ci95", "[0.5]"}}), errc::too_few_items),
      bad("ci95 three items", edited(full, {{"/results/pass_rate_ci95", "[0,0.5,1]"}}), errc::too_many_items),
      bad("ci95 above 1", edited(full, {{"/results/pass_rate_ci95", "[0.5,2]"}}), errc::above_maximum),
      bad("ci95 null item", edited(full, {{"/results/pass_rate_ci95", "[null,1]"}}), errc::type_mismatch),
      bad("results unknown member", edited(full, {{"/results/skipped", "0"}}), errc::unknown_member),
      bad("run status", edited(full, {{"/runs/0/status", R"("skipped")"}}), errc::enum_mismatch),
      bad("run index 0", edited(full, {{"/runs/0/index", "0"}}), errc::below_minimum),
      bad("run duration -1", edited(full, {{"/runs/0/duration_ms", "-1"}}), errc::below_minimum),
      bad("run violated rule empty", edited(full, {{"/runs/1/violated_rules/0", R"("")"}}), errc::too_short),
      bad("run infra kind empty", edited(full, {{"/runs/2/infra_error_kind", R"("")"}}), errc::too_short),
      bad("run unknown member", edited(full, {{"/runs/0/seed", "1"}}), errc::unknown_member),
      bad("run missing status", edited(full, {{"/runs/3/status", std::nullopt}}), errc::missing_member),
      bad("runs not an array", edited(full, {{"/runs", R"("x")"}}), errc::type_mismatch),
      bad("generated_at date only", edited(full, {{"/generated_at", R"("2023-11-14")"}}), errc::format_mismatch),
      bad("generated_at Feb 30", edited(full, {{"/generated_at", R"("2023-02-30T00:00:00Z")"}}), errc::format_mismatch),
      bad("generated_at no zone", edited(full, {{"/generated_at", R"("2023-11-14T22:13:20")"}}), errc::format_mismatch),
      bad("generated_at space", edited(full, {{"/generated_at", R"("2023-11-14 22:13:20Z")"}}), errc::format_mismatch),
      bad("assay_version empty", edited(full, {{"/assay_version", R"("")"}}), errc::too_short),
      bad("suite empty", edited(full, {{"/suite", R"("")"}}), errc::too_short),
      bad("suite null (optional is not nullable)", edited(full, {{"/suite", "null"}}), errc::type_mismatch),
      bad("unknown top-level member", edited(full, {{"/x-extra", "{}"}}), errc::unknown_member),
      bad("root array", "[]", errc::type_mismatch),
      bad("root string", R"("soak")", errc::type_mismatch),
      bad("duplicate member", replaced(min, R"("seed":0,)", R"("seed":0,"seed":0,)"), errc::duplicate_member),
      bad("duplicate nested member", replaced(min, R"("passes":1,)", R"("passes":1,"\u0070asses":1,)"),
          errc::duplicate_member),
      bad("not JSON", replaced(min, R"("seed":0,)", R"("seed":0,,)"), errc::unexpected_character),
      bad("trailing garbage", min + "x", errc::trailing_content),
      // --- rules: only the decoder can tell ---
      rule("runs != passes + failures + infra_errors", edited(full, {{"/results/passes", "3"}})),
      rule("pass_rate != passes / runs", edited(full, {{"/results/pass_rate", "0.75"}})),
      rule("pass_all with failures", edited(full, {{"/results/pass_all", "true"}})),
      rule("first_failure_at after the last run", edited(full, {{"/results/first_failure_at", "5"}})),
      rule("ci95 reversed", edited(full, {{"/results/pass_rate_ci95", "[0.85,0.15]"}})),
      rule("more runs than iterations", edited(full, {{"/iterations", "3"}})),
      rule("pass_all after an early stop", edited(min, {{"/iterations", "2"}})),
      // --- range: only the C++ type can tell ---
      range("seed 2^64", replaced(min, R"("seed":0)", R"("seed":18446744073709551616)")),
      range("seed UINT64_MAX (reads as 2^64)", replaced(min, R"("seed":0)", R"("seed":18446744073709551615)")),
      range("time budget 2^63", replaced(min, R"("time_budget_secs":1)", R"("time_budget_secs":9223372036854775808)")),
  };
}

std::vector<sample> closure_corpus() {
  const std::string& full = docs::closure_full;
  const std::string& min = docs::closure_minimal;
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("by_signal empty", edited(full, {{"/completeness/by_signal", "{}"}})),
      ok("commitment without size",
         edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/size_bytes", std::nullopt}})),
      ok("size_bytes 0", edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/size_bytes", "0"}})),
      ok("empty reason", edited(full, {{"/completeness/by_signal/human_approvals/reason", R"("")"}})),
      ok("missing status", edited(full, {{"/completeness/by_signal/human_approvals/status", R"("missing")"}})),
      ok("score 1", edited(full, {{"/closure/score", "1"}})),
      ok("score 0", edited(full, {{"/closure/score", "0"}})),
      ok("weights empty", edited(full, {{"/closure/scoring/weights", "{}"}})),
      ok("weight 0", edited(full, {{"/closure/scoring/weights/rng_seeds", "0"}})),
      ok("weight above 1", edited(full, {{"/closure/scoring/weights/rng_seeds", "2.5"}})),
      ok("no uncontrolled dependencies", edited(full, {{"/closure/uncontrolled_dependencies", "[]"}})),
      ok("two-character signal", edited(min, {{"/closure/captured", R"(["a1"])"}})),
      ok("signal with . - _", edited(min, {{"/closure/missing", R"(["a.b-c_d"])"}})),
      ok("signals in completeness", edited(min, {{"/completeness/required", R"(["ab","cd"])"},
                                                 {"/completeness/captured", R"(["cd"])"},
                                                 {"/completeness/unknown", R"(["ab"])"}})),
      ok("pack without kind", edited(full, {{"/pack_context/0/kind", std::nullopt}})),
      ok("pack_context empty", edited(full, {{"/pack_context", "[]"}})),
      ok("pretty", assay::json::to_pretty(assay::json::parse(full).value())),
      // --- invalid ---
      bad("schema_version", edited(min, {{"/schema_version", R"("closure-v2")"}}), errc::const_mismatch),
      bad("missing completeness", edited(min, {{"/completeness", std::nullopt}}), errc::missing_member),
      bad("missing closure", edited(min, {{"/closure", std::nullopt}}), errc::missing_member),
      bad("missing captured", edited(min, {{"/completeness/captured", std::nullopt}}), errc::missing_member),
      bad("uppercase signal", edited(min, {{"/closure/captured", R"(["Tool_calls"])"}}), errc::pattern_mismatch),
      bad("one-character signal", edited(min, {{"/closure/captured", R"(["a"])"}}), errc::pattern_mismatch),
      bad("signal ends with -", edited(min, {{"/closure/missing", R"(["ab-"])"}}), errc::pattern_mismatch),
      bad("signal with final newline", edited(min, {{"/closure/missing", R"(["ab\n"])"}}), errc::pattern_mismatch),
      bad("signal with inner newline", edited(min, {{"/closure/missing", R"(["ab\ncd"])"}}), errc::pattern_mismatch),
      bad("signal with a space", edited(min, {{"/closure/missing", R"(["ab cd"])"}}), errc::pattern_mismatch),
      bad("signal not a string", edited(min, {{"/closure/missing", "[1]"}}), errc::type_mismatch),
      bad("required signal invalid",
          edited(min, {{"/completeness/required", R"(["Ab"])"}, {"/completeness/unknown", R"(["Ab"])"}}),
          errc::pattern_mismatch),
      bad("status unknown value", edited(full, {{"/completeness/by_signal/policy_decisions/status", R"("present")"}}),
          errc::enum_mismatch),
      bad("status missing",
          edited(full, {{"/completeness/by_signal/policy_decisions/status", std::nullopt},
                        {"/completeness/by_signal/policy_decisions/reason", R"("r")"}}),
          errc::missing_member),
      bad("detail extra member", edited(full, {{"/completeness/by_signal/policy_decisions/weight", "1"}}),
          errc::unknown_member),
      bad("by_signal not an object", edited(full, {{"/completeness/by_signal", "[]"}}), errc::type_mismatch),
      bad("commitment digest missing",
          edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/digest", std::nullopt}}),
          errc::missing_member),
      bad("commitment alg empty", edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/alg", R"("")"}}),
          errc::too_short),
      bad("commitment size -1", edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/size_bytes", "-1"}}),
          errc::below_minimum),
      bad("commitment size 1.5",
          edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/size_bytes", "1.5"}}),
          errc::not_an_integer),
      bad("commitment extra member",
          edited(full, {{"/completeness/by_signal/tool_io_bodies/commitment/salt", R"("x")"}}), errc::unknown_member),
      bad("evidence path empty", edited(full, {{"/completeness/by_signal/human_approvals/evidence_paths/0", R"("")"}}),
          errc::too_short),
      bad("score above 1", edited(full, {{"/closure/score", "1.01"}}), errc::above_maximum),
      bad("score below 0", edited(full, {{"/closure/score", "-0.1"}}), errc::below_minimum),
      bad("score string", edited(full, {{"/closure/score", R"("1")"}}), errc::type_mismatch),
      bad("confidence", edited(full, {{"/closure/confidence", R"("certain")"}}), errc::enum_mismatch),
      bad("scoring method", edited(full, {{"/closure/scoring/method", R"("mean")"}}), errc::enum_mismatch),
      bad("scoring weights missing", edited(full, {{"/closure/scoring/weights", std::nullopt}}), errc::missing_member),
      bad("weight negative", edited(full, {{"/closure/scoring/weights/rng_seeds", "-1"}}), errc::below_minimum),
      bad("weight string", edited(full, {{"/closure/scoring/weights/rng_seeds", R"("0.2")"}}), errc::type_mismatch),
      bad("dependency empty", edited(full, {{"/closure/uncontrolled_dependencies/0", R"("")"}}), errc::too_short),
      bad("closure extra member", edited(full, {{"/closure/replayable", "true"}}), errc::unknown_member),
      bad("pack without version", edited(full, {{"/pack_context/1/version", std::nullopt}}), errc::missing_member),
      bad("pack with source (soak only)", edited(full, {{"/pack_context/0/source", R"("built-in")"}}),
          errc::unknown_member),
      bad("pack digest empty", edited(full, {{"/pack_context/0/digest", R"("")"}}), errc::too_short),
      bad("bundle_digest empty", edited(full, {{"/bundle_digest", R"("")"}}), errc::too_short),
      bad("generated_at bad", edited(full, {{"/generated_at", R"("yesterday")"}}), errc::format_mismatch),
      bad("generated_at hour 24", edited(full, {{"/generated_at", R"("2023-11-14T24:00:00Z")"}}),
          errc::format_mismatch),
      bad("generated_at offset without colon", edited(full, {{"/generated_at", R"("2023-11-14T22:00:00+0100")"}}),
          errc::format_mismatch),
      bad("unknown top-level member", edited(min, {{"/x-assay", "{}"}}), errc::unknown_member),
      bad("root null", "null", errc::type_mismatch),
      bad("duplicate member",
          replaced(min, R"("schema_version":"closure-v1")",
                   R"("schema_version":"closure-v1","schema_version":"closure-v1")"),
          errc::duplicate_member),
      bad("byte-order mark", "\xEF\xBB\xBF" + min, errc::byte_order_mark),
      // --- rules ---
      rule("required signal in none of the three", edited(full, {{"/completeness/unknown", "[]"}})),
      rule("signal in two of the three",
           edited(full, {{"/completeness/captured", R"(["human_approvals","policy_decisions"])"}})),
      rule("signal that is not required", edited(min, {{"/completeness/captured", R"(["ab"])"}})),
      // --- range ---
      range("size_bytes 2^63", replaced(full, R"("size_bytes":1024)", R"("size_bytes":9223372036854775808)")),
  };
}

void check_corpus(const assay::contracts::contract& c, const std::vector<sample>& corpus) {
  const value schema = c.schema();
  evaluator ev(schema);
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& s : corpus) {
    CAPTURE(s.label);
    INFO("document: " << s.text);
    ++counts[static_cast<int>(s.expect)];
    auto parsed = assay::json::parse(s.text);
    std::string why;
    const bool schema_ok = parsed.has_value() && ev.valid(*parsed, why);
    auto decoded = c.validate(s.text, {});
    INFO("schema: " << (schema_ok ? std::string("valid") : why));
    INFO("decoder: " << (decoded ? std::string("valid") : decoded.error().format()));
    switch (s.expect) {
      case verdict::valid:
        CHECK(schema_ok);
        CHECK(decoded.has_value());
        break;
      case verdict::invalid:
        CHECK_FALSE(schema_ok);
        REQUIRE_FALSE(decoded.has_value());
        CHECK(std::string(assay::name(decoded.error().front().code)) == std::string(assay::name(s.code)));
        break;
      case verdict::rule:
      case verdict::range:
        CHECK(schema_ok);  // the schema cannot say it
        REQUIRE_FALSE(decoded.has_value());
        for (const auto& e : decoded.error())
          CHECK(std::string(assay::name(e.code)) == std::string(assay::name(s.code)));
        break;
    }
  }
  MESSAGE(c.name << ": " << counts[0] << " valid, " << counts[1] << " invalid, " << counts[2] << " rule-only, "
                 << counts[3] << " range-only documents");
}

std::map<std::string, std::vector<sample> (*)()> corpora() {
  return {{"soak-report-v1", &soak_corpus}, {"closure-v1", &closure_corpus}};
}

}  // namespace

TEST_CASE("schema and decoder agree on every document of each contract's corpus") {
  const auto all = corpora();
  for (const auto& c : assay::contracts::all()) {
    const std::string name(c.name);
    CAPTURE(name);
    auto it = all.find(name);
    REQUIRE_MESSAGE(it != all.end(), "contract " << name << " has no corpus in this test: add one");
    check_corpus(c, it->second());
  }
}

TEST_CASE("the evaluator itself: a few direct checks") {
  auto schema = assay::json::parse(R"({
    "type": "object", "additionalProperties": false, "required": ["a"],
    "properties": {"a": {"type": ["integer", "null"], "minimum": 1},
                   "b": {"$ref": "#/$defs/s"},
                   "m": {"type": "object", "additionalProperties": {"type": "number", "maximum": 2}}},
    "$defs": {"s": {"type": "string", "pattern": "^x+$", "minLength": 2}}
  })");
  REQUIRE(schema.has_value());
  evaluator ev(*schema);
  std::string why;
  auto judge = [&](const char* text) { return ev.valid(assay::json::parse(text).value(), why); };
  CHECK(judge(R"({"a":1})"));
  CHECK(judge(R"({"a":null})"));
  CHECK(judge(R"({"a":2.0,"b":"xx","m":{"k":2}})"));
  CHECK_FALSE(judge(R"({"a":0})"));
  CHECK(why == "/a: minimum");
  CHECK_FALSE(judge(R"({"a":1.5})"));
  CHECK_FALSE(judge(R"({})"));
  CHECK_FALSE(judge(R"({"a":1,"c":1})"));
  CHECK(why == "/c: additionalProperties");
  CHECK_FALSE(judge(R"({"a":1,"b":"x"})"));
  CHECK_FALSE(judge(R"({"a":1,"b":"xx\n"})"));
  CHECK(why == "/b: pattern");
  CHECK_FALSE(judge(R"({"a":1,"m":{"k":3}})"));
  CHECK(why == "/m/k: maximum");
}
