// The generated schema and the typed decoder agree: for every contract a corpus of valid and
// invalid documents is judged by a small JSON Schema evaluator (written here, independent of the
// library's checks, for the subset of keywords the generator emits) running on the generated
// schema, and by assay::decode. They must agree on every document, except where marked:
//   rule  — a cross-field check_rules rule that no schema keyword can state: the decoder is
//           stricter (errc::rule_violation);
//   range — an integer the schema allows but the member's C++ type cannot hold (the schema has
//           no maximum; int64/uint64 have one): the decoder is stricter (errc::not_an_integer);
//   payload — an evidence event of a known type whose `data` breaks that type's payload
//           contract: the envelope schema leaves `data` open (any JSON), the decoder validates it
//           against the registered payload type (SPEC §4), so it is stricter, with every error
//           under /data.
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
      } else if (k == "uniqueItems") {
        // No two items equal as JSON values (value ==: numbers by value, object members in any
        // order). Pairwise: the arrays of the corpus are small.
        if (a.as_bool() && v.is_array()) {
          const auto& items = v.as_array();
          for (std::size_t i = 1; i < items.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
              if (items[i] == items[j])
                return fail(why, where + "/" + std::to_string(i), "uniqueItems");
        }
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
      } else if (k == "patternProperties") {
        // Every member whose name matches a pattern is valid against that pattern's schema
        // (declared members included).
        if (v.is_object()) {
          for (const auto& m : v.as_object()) {
            for (const auto& pp : a.as_object()) {
              if (matches(pp.name, m.name) &&
                  !check(pp.value, m.value, where + "/" + assay::json::escape_pointer_token(m.name), why))
                return false;
            }
          }
        }
      } else if (k == "additionalProperties") {
        // Applies to the members neither "properties" nor "patternProperties" name. (An object
        // schema without this keyword allows any other member.)
        if (v.is_object()) {
          const value* props = schema.find("properties");
          const value* patterns = schema.find("patternProperties");
          for (const auto& m : v.as_object()) {
            if (props != nullptr && props->find(m.name) != nullptr)
              continue;
            bool by_pattern = false;
            if (patterns != nullptr) {
              for (const auto& pp : patterns->as_object())
                by_pattern = by_pattern || matches(pp.name, m.name);
            }
            if (by_pattern)
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
  payload,  // the schema accepts; the decoder rejects `data` by its registered payload type
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
// `code` is the decoder's first error (rule_violation for a payload's cross-field rule).
sample payload(std::string label, std::string text, errc code) {
  return {std::move(label), std::move(text), verdict::payload, code};
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
      rule("first_failure_at after the last iteration", edited(full, {{"/results/first_failure_at", "5"}})),
      ok("first_failure_at after the last run, a shard's",
         edited(full, {{"/iterations", "9"}, {"/results/first_failure_at", "8"}})),
      rule("ci95 reversed", edited(full, {{"/results/pass_rate_ci95", "[0.85,0.15]"}})),
      rule("more runs than iterations", edited(full, {{"/iterations", "3"}})),
      rule("pass_all after an early stop", edited(min, {{"/iterations", "2"}})),
      // --- range: only the C++ type can tell ---
      // Integers are read exactly: 2^64 - 1 is a uint64 (a double would make it 2^64).
      ok("seed UINT64_MAX", replaced(min, R"("seed":0)", R"("seed":18446744073709551615)")),
      range("seed 2^64", replaced(min, R"("seed":0)", R"("seed":18446744073709551616)")),
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
      ok("dependencies in code point order",
         edited(full, {{"/closure/uncontrolled_dependencies", R"(["network:Z","network:a","tool:\u00e9"])"}})),
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
      rule("required not sorted",
           edited(full, {{"/completeness/required", R"(["policy_decisions","human_approvals","tool_io_bodies"])"}})),
      rule("required signal twice",
           edited(min, {{"/completeness/required", R"(["ab","ab"])"}, {"/completeness/captured", R"(["ab","ab"])"}})),
      rule("captured not sorted",
           edited(min, {{"/completeness/required", R"(["ab","cd"])"}, {"/completeness/captured", R"(["cd","ab"])"}})),
      rule("uncontrolled dependencies not sorted",
           edited(full,
                  {{"/closure/uncontrolled_dependencies", R"(["tool:web_search","network:api.example.com:443"])"}})),
      rule("uncontrolled dependency twice",
           edited(full, {{"/closure/uncontrolled_dependencies", R"(["tool:web_search","tool:web_search"])"}})),
      // --- range ---
      range("size_bytes 2^63", replaced(full, R"("size_bytes":1024)", R"("size_bytes":9223372036854775808)")),
  };
}

// A commitment (SPEC §9) with one member changed or removed.
std::string commitment_with(const std::string& pointer, std::optional<std::string> json) {
  return edited(docs::commitment, {{pointer, std::move(json)}});
}

std::vector<sample> event_corpus() {
  const std::string& full = docs::event_full;    // typed: assay.tool.decision
  const std::string& min = docs::event_minimal;  // unknown type
  return {
      // --- valid ---
      ok("full (typed)", full),
      ok("minimal (unknown type, data null, hash null)", min),
      ok("unknown type, data of any kind", edited(min, {{"/data", R"({"a":[1,"x",null,{"b":true}]})"}})),
      ok("unknown type, data a number", edited(min, {{"/data", "1.5"}})),
      ok("versioned type name not registered: data kept",
         edited(full, {{"/type", R"("assay.tool.decision.v2")"}, {"/data", R"({"anything":1})"}})),
      ok("typed without optional members", edited(full, {{"/subject", std::nullopt},
                                                         {"/traceparent", std::nullopt},
                                                         {"/tracestate", std::nullopt},
                                                         {"/assaypolicyid", std::nullopt},
                                                         {"/assaysemanticdigest", std::nullopt},
                                                         {"/assaydigestprofile", std::nullopt}})),
      ok("typed, full payload", edited(full, {{"/data", docs::tool_decision_full}})),
      ok("fs.access with extra observed members",
         edited(full, {{"/type", R"("assay.fs.access")"}, {"/data", docs::fs_access_full}})),
      ok("tool.call with commitments",
         edited(full, {{"/type", R"("assay.tool.call")"}, {"/data", docs::tool_call_redacted}})),
      ok("another known type with a valid payload (run.seed)",
         edited(full, {{"/type", R"("assay.run.seed")"}, {"/data", R"({"seed":"abc"})"}})),
      ok("time with 3 digits", edited(min, {{"/time", R"("2023-11-14T22:13:20.100Z")"}})),
      ok("time with 6 digits", edited(min, {{"/time", R"("2023-11-14T22:13:20.123450Z")"}})),
      ok("time with 9 digits", edited(min, {{"/time", R"("2023-11-14T22:13:20.123456789Z")"}})),
      ok("time leap second", edited(min, {{"/time", R"("2016-12-31T23:59:60Z")"}})),
      ok("source with a scheme only", edited(min, {{"/source", R"("urn:")"}})),
      ok("source URL", edited(min, {{"/source", R"("https://example.com/agent?x=1")"}})),
      ok("large seq", edited(min, {{"/assayseq", "9007199254740991"}, {"/id", R"("r:9007199254740991")"}})),
      ok("seq written as 3.0",
         replaced(edited(min, {{"/assayseq", "3"}, {"/id", R"("r:3")"}}), R"("assayseq":3)", R"("assayseq":3.0)")),
      ok("traceparent flags 00",
         edited(full, {{"/traceparent", R"("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")"}})),
      ok("empty strings where allowed",
         edited(full, {{"/subject", R"("")"}, {"/tracestate", R"("")"}, {"/assaygit", R"("")"}})),
      ok("other datacontenttype", edited(min, {{"/datacontenttype", R"("text/plain")"}})),
      ok("pretty-printed", assay::json::to_pretty(assay::json::parse(full).value())),
      // --- invalid: both reject ---
      bad("specversion", edited(min, {{"/specversion", R"("1.1")"}}), errc::const_mismatch),
      bad("specversion number", edited(min, {{"/specversion", "1.0"}}), errc::type_mismatch),
      bad("type empty", edited(min, {{"/type", R"("")"}}), errc::too_short),
      bad("type null", edited(min, {{"/type", "null"}}), errc::type_mismatch),
      bad("source without ':'", edited(min, {{"/source", R"("agent")"}}), errc::pattern_mismatch),
      bad("source starts with ':'", edited(min, {{"/source", R"(":agent")"}}), errc::pattern_mismatch),
      bad("source of a typed event", edited(full, {{"/source", R"("agent")"}}), errc::pattern_mismatch),
      bad("id empty", edited(min, {{"/id", R"("")"}}), errc::too_short),
      bad("id number", edited(min, {{"/id", "0"}}), errc::type_mismatch),
      bad("time with one fraction digit", edited(min, {{"/time", R"("2023-11-14T22:13:20.5Z")"}}),
          errc::pattern_mismatch),
      bad("time with offset", edited(min, {{"/time", R"("2023-11-14T23:13:20+01:00")"}}), errc::pattern_mismatch),
      bad("time lowercase", edited(min, {{"/time", R"("2023-11-14t22:13:20z")"}}), errc::pattern_mismatch),
      bad("time Feb 30", edited(min, {{"/time", R"("2023-02-30T00:00:00Z")"}}), errc::format_mismatch),
      bad("time hour 24", edited(min, {{"/time", R"("2023-11-14T24:00:00Z")"}}), errc::format_mismatch),
      bad("datacontenttype empty", edited(min, {{"/datacontenttype", R"("")"}}), errc::too_short),
      bad("datacontenttype missing (the default is the writer's)", edited(min, {{"/datacontenttype", std::nullopt}}),
          errc::missing_member),
      bad("subject null (optional is not nullable)", edited(min, {{"/subject", "null"}}), errc::type_mismatch),
      bad("traceparent uppercase",
          edited(full, {{"/traceparent", R"("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01")"}}),
          errc::pattern_mismatch),
      bad("traceparent version 01",
          edited(full, {{"/traceparent", R"("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")"}}),
          errc::pattern_mismatch),
      bad("traceparent short span id",
          edited(full, {{"/traceparent", R"("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902-01")"}}),
          errc::pattern_mismatch),
      bad("tracestate number", edited(full, {{"/tracestate", "1"}}), errc::type_mismatch),
      bad("run id with ':'", edited(min, {{"/assayrunid", R"("r:1")"}, {"/id", R"("r:1:0")"}}), errc::pattern_mismatch),
      bad("run id empty", edited(min, {{"/assayrunid", R"("")"}, {"/id", R"(":0")"}}), errc::pattern_mismatch),
      bad("seq -1", edited(min, {{"/assayseq", "-1"}, {"/id", R"("r:-1")"}}), errc::below_minimum),
      bad("seq 1.5", edited(min, {{"/assayseq", "1.5"}}), errc::not_an_integer),
      bad("seq string", edited(min, {{"/assayseq", R"("0")"}}), errc::type_mismatch),
      bad("producer missing", edited(min, {{"/assayproducer", std::nullopt}}), errc::missing_member),
      bad("producer version null", edited(min, {{"/assayproducerversion", "null"}}), errc::type_mismatch),
      bad("git missing (the default is the writer's)", edited(min, {{"/assaygit", std::nullopt}}),
          errc::missing_member),
      bad("policy id number", edited(full, {{"/assaypolicyid", "7"}}), errc::type_mismatch),
      bad("pii string", edited(min, {{"/assaypii", R"("false")"}}), errc::type_mismatch),
      bad("secrets missing", edited(min, {{"/assaysecrets", std::nullopt}}), errc::missing_member),
      bad("content hash missing (null, not absent)", edited(min, {{"/assaycontenthash", std::nullopt}}),
          errc::missing_member),
      bad("content hash uppercase",
          edited(full, {{"/assaycontenthash",
                         R"("sha256:2C26B46B68FFC68FF99B453C1D30413413422D706483BFA0F98A5E886266E7AE")"}}),
          errc::pattern_mismatch),
      bad("content hash without prefix",
          edited(full,
                 {{"/assaycontenthash", R"("2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")"}}),
          errc::pattern_mismatch),
      bad("content hash number", edited(full, {{"/assaycontenthash", "0"}}), errc::type_mismatch),
      bad("semantic digest number", edited(full, {{"/assaysemanticdigest", "1"}}), errc::type_mismatch),
      bad("digest profile object", edited(full, {{"/assaydigestprofile", "{}"}}), errc::type_mismatch),
      bad("data missing", edited(min, {{"/data", std::nullopt}}), errc::missing_member),
      bad("data missing (typed)", edited(full, {{"/data", std::nullopt}}), errc::missing_member),
      bad("unknown member (a CloudEvents extension)", edited(min, {{"/dataschema", R"("https://x")"}}),
          errc::unknown_member),
      bad("unknown member x-", edited(full, {{"/x-assay", "{}"}}), errc::unknown_member),
      bad("root array", "[]", errc::type_mismatch),
      bad("duplicate member", replaced(min, R"("assayseq":0,)", R"("assayseq":0,"assayseq":0,)"),
          errc::duplicate_member),
      bad("duplicate member in data", replaced(full, R"("tool":"shell_exec"})", R"("tool":"a","tool":"b"})"),
          errc::duplicate_member),
      bad("trailing garbage", min + "]", errc::trailing_content),
      // --- rules: only the decoder can tell ---
      rule("id is not run:seq", edited(min, {{"/id", R"("r:1")"}})),
      rule("id of a typed event is not run:seq", edited(full, {{"/id", R"("run_8f3a:13")"}})),
      rule("id with a leading zero", edited(full, {{"/id", R"("run_8f3a:012")"}})),
      rule("id with another run", edited(min, {{"/id", R"("s:0")"}})),
      rule("time fraction not minimal (.100000)", edited(min, {{"/time", R"("2023-11-14T22:13:20.100000Z")"}})),
      rule("time fraction not minimal (9 digits)", edited(min, {{"/time", R"("2023-11-14T22:13:20.123456000Z")"}})),
      rule("time fraction zero", edited(min, {{"/time", R"("2023-11-14T22:13:20.000Z")"}})),
      rule("traceparent trace id all zeros",
           edited(full, {{"/traceparent", R"("00-00000000000000000000000000000000-00f067aa0ba902b7-01")"}})),
      rule("traceparent span id all zeros",
           edited(full, {{"/traceparent", R"("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")"}})),
      rule("three rules at once",
           edited(full, {{"/id", R"("x")"},
                         {"/time", R"("2023-11-14T22:13:20.000000000Z")"},
                         {"/traceparent", R"("00-00000000000000000000000000000000-0000000000000000-01")"}})),
      // --- payload: the decoder checks data against the type's payload contract ---
      payload("decision not allowed", edited(full, {{"/data/decision", R"("maybe")"}}), errc::enum_mismatch),
      payload("payload member missing", edited(full, {{"/data/tool", std::nullopt}}), errc::missing_member),
      ok("payload with an additive member", edited(full, {{"/data/comment", R"("x")"}})),
      ok("payload with additive members of the reference's runtime",
         edited(full, {{"/data/decision", R"("error")"},
                       {"/data/tool_call_id", R"("call-1")"},
                       {"/data/obligations", R"([{"type":"log","params":{"level":"info"}}])"},
                       {"/data/x_vendor", R"({"k":[1,2]})"}})),
      payload("payload typed member of the runtime, wrong type", edited(full, {{"/data/tool_call_id", "5"}}),
              errc::type_mismatch),
      payload("payload member wrong type", edited(full, {{"/data/reason_code", "1"}}), errc::type_mismatch),
      payload("payload not an object", edited(full, {{"/data", R"("allow")"}}), errc::type_mismatch),
      payload("payload null", edited(full, {{"/data", "null"}}), errc::type_mismatch),
      payload(
          "payload rule: P56a partial",
          edited(full, {{"/data/policy_snapshot_digest", R"("sha256:x")"}, {"/data/policy_digest", R"("sha256:x")"}}),
          errc::rule_violation),
      payload("another type's payload (fs.access)", edited(full, {{"/type", R"("assay.fs.access")"}}),
              errc::missing_member),
      payload("fs.access hits -1", edited(full, {{"/type", R"("assay.fs.access")"}, {"/data", R"({"hits":-1})"}}),
              errc::below_minimum),
      payload("tool.call bad commitment",
              edited(full, {{"/type", R"("assay.tool.call")"}, {"/data", R"({"tool":{"alg":"md5"}})"}}),
              errc::const_mismatch),
      payload("run.seed without seed", edited(min, {{"/type", R"("assay.run.seed")"}, {"/data", "{}"}}),
              errc::missing_member),
      payload("env.filtered counter string",
              edited(min, {{"/type", R"("assay.env.filtered")"},
                           {"/data", R"({"counters":{"a":"1"},"dropped_keys":[],)"
                                     R"("mode":"m","passed_keys":[]})"}}),
              errc::type_mismatch),
      // --- range ---
      range("seq 2^63", edited(min, {{"/assayseq", "9223372036854775808"}, {"/id", R"("r:9223372036854775808")"}})),
  };
}

std::vector<sample> manifest_corpus() {
  const std::string& full = docs::manifest_full;
  const std::string& min = docs::manifest_minimal;
  const std::string hash = R"("sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")";
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("x-assay with packs only", edited(full, {{"/x-assay/mappings", std::nullopt}})),
      ok("x-assay with mappings only", edited(full, {{"/x-assay/packs_applied", std::nullopt}})),
      ok("pack without source_url", edited(full, {{"/x-assay/packs_applied/0/source_url", std::nullopt}})),
      ok("pack kinds", edited(full, {{"/x-assay/packs_applied/0/kind", R"("security")"},
                                     {"/x-assay/packs_applied/1",
                                      R"({"digest":)" + hash + R"(,"kind":"quality","name":"q","version":"1"})"}})),
      ok("empty git (only \"unknown\" is refused)", edited(full, {{"/producer/git", R"("")"}})),
      ok("schema_version 1.0", replaced(min, R"("schema_version":1)", R"("schema_version":1.0)")),
      ok("pretty", assay::json::to_pretty(assay::json::parse(full).value())),
      // --- invalid ---
      bad("schema_version 2", edited(min, {{"/schema_version", "2"}}), errc::above_maximum),
      bad("schema_version 0", edited(min, {{"/schema_version", "0"}}), errc::below_minimum),
      bad("schema_version string", edited(min, {{"/schema_version", R"("1")"}}), errc::type_mismatch),
      bad("schema_version missing", edited(min, {{"/schema_version", std::nullopt}}), errc::missing_member),
      bad("canon", edited(min, {{"/algorithms/canon", R"("jcs")"}}), errc::const_mismatch),
      bad("hash alg", edited(min, {{"/algorithms/hash", R"("sha512")"}}), errc::const_mismatch),
      bad("root alg", edited(min, {{"/algorithms/root", R"j("sha256(concat(content_hash))")j"}}), errc::const_mismatch),
      bad("algorithms member missing", edited(min, {{"/algorithms/root", std::nullopt}}), errc::missing_member),
      bad("algorithms extra member", edited(min, {{"/algorithms/sig", R"("ed25519")"}}), errc::unknown_member),
      bad("bundle_id uppercase",
          edited(min, {{"/bundle_id", R"("SHA256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")"}}),
          errc::pattern_mismatch),
      bad("run_root short", edited(min, {{"/run_root", R"("sha256:e3b0")"}}), errc::pattern_mismatch),
      bad("event_count -1", edited(min, {{"/event_count", "-1"}}), errc::below_minimum),
      bad("event_count 0.5", edited(min, {{"/event_count", "0.5"}}), errc::not_an_integer),
      bad("files entry missing", edited(min, {{"/files/events.ndjson", std::nullopt}}), errc::missing_member),
      bad("files extra entry", edited(min, {{"/files/manifest.json", "{}"}}), errc::unknown_member),
      bad("file path", edited(min, {{"/files/events.ndjson/path", R"("events.json")"}}), errc::const_mismatch),
      bad("file bytes -1", edited(min, {{"/files/events.ndjson/bytes", "-1"}}), errc::below_minimum),
      bad("file sha256 without prefix (the verifier's leniency is not the contract's)",
          edited(min, {{"/files/events.ndjson/sha256",
                        R"("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")"}}),
          errc::pattern_mismatch),
      bad("file entry extra member", edited(min, {{"/files/events.ndjson/mode", "420"}}), errc::unknown_member),
      bad("producer name empty", edited(min, {{"/producer/name", R"("")"}}), errc::too_short),
      bad("producer version missing", edited(min, {{"/producer/version", std::nullopt}}), errc::missing_member),
      bad("producer git null", edited(full, {{"/producer/git", "null"}}), errc::type_mismatch),
      bad("producer extra member", edited(min, {{"/producer/url", R"("x")"}}), errc::unknown_member),
      bad("run_id empty", edited(min, {{"/run_id", R"("")"}}), errc::too_short),
      bad("packs_applied empty", edited(full, {{"/x-assay/packs_applied", "[]"}}), errc::too_few_items),
      bad("mappings empty", edited(full, {{"/x-assay/mappings", "[]"}}), errc::too_few_items),
      bad("pack kind", edited(full, {{"/x-assay/packs_applied/0/kind", R"("custom")"}}), errc::enum_mismatch),
      bad("pack digest", edited(full, {{"/x-assay/packs_applied/0/digest", R"("sha256:f47d")"}}),
          errc::pattern_mismatch),
      bad("pack kind missing", edited(full, {{"/x-assay/packs_applied/0/kind", std::nullopt}}), errc::missing_member),
      bad("pack name empty", edited(full, {{"/x-assay/packs_applied/0/name", R"("")"}}), errc::too_short),
      bad("pack source_url number", edited(full, {{"/x-assay/packs_applied/0/source_url", "1"}}), errc::type_mismatch),
      bad("mapping ref empty", edited(full, {{"/x-assay/mappings/0/ref", R"("")"}}), errc::too_short),
      bad("mapping framework missing", edited(full, {{"/x-assay/mappings/0/framework", std::nullopt}}),
          errc::missing_member),
      bad("mapping extra member", edited(full, {{"/x-assay/mappings/0/note", R"("x")"}}), errc::unknown_member),
      bad("x-assay extra member", edited(full, {{"/x-assay/signals", "[]"}}), errc::unknown_member),
      bad("x-assay not an object", edited(full, {{"/x-assay", "[]"}}), errc::type_mismatch),
      bad("x_assay (the C++ name)", edited(min, {{"/x_assay", "{}"}}), errc::unknown_member),
      bad("other x- member (no extensions here)", edited(min, {{"/x-vendor", "{}"}}), errc::unknown_member),
      bad("root null", "null", errc::type_mismatch),
      // --- rules ---
      rule("bundle_id != run_root", edited(min, {{"/bundle_id", hash}})),
      rule("producer git \"unknown\"", edited(full, {{"/producer/git", R"("unknown")"}})),
      rule("x-assay empty", edited(min, {{"/x-assay", "{}"}})),
      rule("two rules at once", edited(min, {{"/run_root", hash}, {"/producer/git", R"("unknown")"}})),
      // --- range ---
      range("event_count 2^63", edited(min, {{"/event_count", "9223372036854775808"}})),
      range("bytes 2^63", edited(min, {{"/files/events.ndjson/bytes", "9223372036854775808"}})),
  };
}

std::vector<sample> pack_corpus() {
  const std::string& full = docs::pack_full;
  const std::string& min = docs::pack_minimal;
  const std::string check = "/rules/0/check";
  auto with_check = [&](std::string json) { return edited(min, {{check, std::move(json)}}); };
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("pretty", assay::json::to_pretty(assay::json::parse(full).value())),
      ok("no rules", edited(min, {{"/rules", "[]"}})),
      ok("x-assay empty", edited(min, {{"/x-assay", "{}"}})),
      ok("requires_signals empty", edited(min, {{"/x-assay", R"({"requires_signals":[]})"}})),
      ok("requires_signals as one key", edited(min, {{"/x-assay.requires_signals", R"(["tool_calls"])"}})),
      ok("field present with any_of", with_check(R"({"any_of":["x"],"in_data":true,"type":"event_field_present"})")),
      ok("json_path_exists without value_equals", with_check(R"({"paths":["/id"],"type":"json_path_exists"})")),
      ok("value_equals null with two paths (null is absent)",
         with_check(R"({"paths":["/a","/b"],"type":"json_path_exists","value_equals":null})")),
      ok("value_equals object", with_check(R"({"paths":["/id"],"type":"json_path_exists","value_equals":{"a":[1]}})")),
      ok("an empty path", with_check(R"({"paths":[""],"type":"json_path_exists"})")),
      ok("check members a type does not take are ignored", with_check(R"({"max":3,"min":1,"type":"event_count"})")),
      ok("a member of another type is ignored whatever its value",
         with_check(R"({"min":1,"pattern":5,"type":"event_count"})")),
      ok("unknown check type (unsupported), members unchecked", with_check(R"({"min":"x","type":"regex"})")),
      ok("check type in another case is unsupported", with_check(R"({"type":"EVENT_COUNT"})")),
      ok("g3 with members", with_check(R"({"min":"x","type":"g3_authorization_context_present"})")),
      ok("conditional with any objects", with_check(R"({"condition":{},"then":{},"type":"conditional"})")),
      ok("check min 2^63", with_check(R"({"min":9223372036854775808,"type":"event_count"})")),
      ok("rule members the format ignores", edited(min, {{"/rules/0/tags", "[1]"}, {"/rules/0/x-note", "{}"}})),
      ok("rule ids differing in case", edited(full, {{"/rules/1/id", R"("eu12-001")"}})),
      ok("rule id of any characters", edited(min, {{"/rules/0/id", R"("r 1/é")"}})),
      ok("name with inner hyphens", edited(min, {{"/name", R"("a--b9")"}})),
      ok("one-character name", edited(min, {{"/name", R"("0")"}})),
      ok("empty strings", edited(full, {{"/version", R"("")"},
                                        {"/description", R"("")"},
                                        {"/disclaimer", R"("")"},
                                        {"/rules/0/help_markdown", R"("")"},
                                        {"/rules/0/description", R"("")"}})),
      ok("version of any form", edited(min, {{"/version", R"j("2024.1 (beta)")j"}})),
      // --- invalid ---
      bad("name uppercase", edited(min, {{"/name", R"("Pack")"}}), errc::pattern_mismatch),
      bad("name empty", edited(min, {{"/name", R"("")"}}), errc::pattern_mismatch),
      bad("name starts with -", edited(min, {{"/name", R"("-p")"}}), errc::pattern_mismatch),
      bad("name ends with -", edited(min, {{"/name", R"("p-")"}}), errc::pattern_mismatch),
      bad("name with . or _", edited(min, {{"/name", R"("a.b_c")"}}), errc::pattern_mismatch),
      bad("version number", edited(min, {{"/version", "1"}}), errc::type_mismatch),
      bad("version missing", edited(min, {{"/version", std::nullopt}}), errc::missing_member),
      bad("kind", edited(min, {{"/kind", R"("custom")"}}), errc::enum_mismatch),
      bad("kind capitalized", edited(min, {{"/kind", R"("Quality")"}}), errc::enum_mismatch),
      bad("description missing", edited(min, {{"/description", std::nullopt}}), errc::missing_member),
      bad("author missing", edited(min, {{"/author", std::nullopt}}), errc::missing_member),
      bad("license missing", edited(min, {{"/license", std::nullopt}}), errc::missing_member),
      bad("author number", edited(full, {{"/author", "1"}}), errc::type_mismatch),
      bad("license null", edited(full, {{"/license", "null"}}), errc::type_mismatch),
      bad("source_url number", edited(full, {{"/source_url", "1"}}), errc::type_mismatch),
      bad("requires missing", edited(min, {{"/requires", std::nullopt}}), errc::missing_member),
      bad("requires extra member", edited(full, {{"/requires/os", R"("linux")"}}), errc::unknown_member),
      bad("requires not an object", edited(full, {{"/requires", R"("0.1.0")"}}), errc::type_mismatch),
      bad("assay_min_version missing", edited(full, {{"/requires/assay_min_version", std::nullopt}}),
          errc::missing_member),
      bad("assay_min_version number", edited(full, {{"/requires/assay_min_version", "2.9"}}), errc::type_mismatch),
      bad("rules missing", edited(min, {{"/rules", std::nullopt}}), errc::missing_member),
      bad("rules not an array", edited(min, {{"/rules", "{}"}}), errc::type_mismatch),
      bad("rule id empty", edited(min, {{"/rules/0/id", R"("")"}}), errc::too_short),
      bad("rule severity", edited(min, {{"/rules/0/severity", R"("fatal")"}}), errc::enum_mismatch),
      bad("rule severity in capitals", edited(min, {{"/rules/0/severity", R"("ERROR")"}}), errc::enum_mismatch),
      bad("rule description missing", edited(min, {{"/rules/0/description", std::nullopt}}), errc::missing_member),
      bad("rule help number", edited(full, {{"/rules/0/help_markdown", "1"}}), errc::type_mismatch),
      bad("rule event_types empty", edited(full, {{"/rules/0/event_types", "[]"}}), errc::too_few_items),
      bad("rule event_types item empty", edited(full, {{"/rules/0/event_types", R"([""])"}}), errc::too_short),
      bad("rule check missing", edited(min, {{check, std::nullopt}}), errc::missing_member),
      bad("check not an object", with_check(R"("event_count")"), errc::type_mismatch),
      bad("check type missing", with_check(R"({"min":1})"), errc::missing_member),
      bad("check type number", with_check(R"({"type":1})"), errc::type_mismatch),
      bad("requires_signals invalid key", edited(min, {{"/x-assay", R"({"requires_signals":["Tool_calls"]})"}}),
          errc::pattern_mismatch),
      bad("requires_signals not an array", edited(min, {{"/x-assay", R"({"requires_signals":"tool_calls"})"}}),
          errc::type_mismatch),
      bad("x-assay extra member", edited(min, {{"/x-assay", R"({"signals":[]})"}}), errc::unknown_member),
      bad("x-assay not an object", edited(min, {{"/x-assay", "[]"}}), errc::type_mismatch),
      bad("unknown top-level member", edited(min, {{"/homepage", R"("https://x")"}}), errc::unknown_member),
      bad("other x- members are unknown members", edited(min, {{"/x-vendor", "{}"}}), errc::unknown_member),
      bad("X- is not x-", edited(min, {{"/X-assay", "{}"}}), errc::unknown_member),
      bad("requires_ (the C++ name)", edited(min, {{"/requires_", "{}"}}), errc::unknown_member),
      bad("x_assay (the C++ name)", edited(min, {{"/x_assay", "{}"}}), errc::unknown_member),
      bad("duplicate member", replaced(min, R"("author":"",)", R"("author":"","author":"x",)"), errc::duplicate_member),
      bad("root array", "[]", errc::type_mismatch),
      // --- rules ---
      rule("duplicate rule ids", edited(full, {{"/rules/3/id", R"("EU12-002")"}})),
      rule("compliance without disclaimer", edited(full, {{"/disclaimer", std::nullopt}})),
      rule("both spellings of x-assay", edited(full, {{"/x-assay.requires_signals", R"(["tool_calls"])"}})),
      rule("event_count without min", with_check(R"({"type":"event_count"})")),
      rule("event_count min 0", with_check(R"({"min":0,"type":"event_count"})")),
      rule("event_count min -1", with_check(R"({"min":-1,"type":"event_count"})")),
      rule("event_count min 1.5", with_check(R"({"min":1.5,"type":"event_count"})")),
      rule("event_count min string", with_check(R"({"min":"1","type":"event_count"})")),
      rule("event_count min null", with_check(R"({"min":null,"type":"event_count"})")),
      rule("event_type_exists without pattern", with_check(R"({"type":"event_type_exists"})")),
      rule("event_type_exists pattern empty", with_check(R"({"pattern":"","type":"event_type_exists"})")),
      rule("event_type_exists pattern number", with_check(R"({"pattern":1,"type":"event_type_exists"})")),
      rule("event_pairs without finish_pattern", with_check(R"({"start_pattern":"a","type":"event_pairs"})")),
      rule("event_field_present with neither list", with_check(R"({"in_data":true,"type":"event_field_present"})")),
      rule("event_field_present with two empty lists",
           with_check(R"({"any_of":[],"paths_any_of":[],"type":"event_field_present"})")),
      rule("event_field_present in_data string",
           with_check(R"({"in_data":"yes","paths_any_of":["/a"],"type":"event_field_present"})")),
      rule("event_field_present in_data null",
           with_check(R"({"in_data":null,"paths_any_of":["/a"],"type":"event_field_present"})")),
      rule("event_field_present path number", with_check(R"({"paths_any_of":["/a",1],"type":"event_field_present"})")),
      rule("manifest_field without path", with_check(R"({"required":true,"type":"manifest_field"})")),
      rule("manifest_field required string", with_check(R"({"path":"/a","required":"true","type":"manifest_field"})")),
      rule("json_path_exists without paths", with_check(R"({"type":"json_path_exists","value_equals":1})")),
      rule("json_path_exists paths empty", with_check(R"({"paths":[],"type":"json_path_exists"})")),
      rule("json_path_exists value_equals with two paths",
           with_check(R"({"paths":["/a","/b"],"type":"json_path_exists","value_equals":1})")),
      rule("conditional without condition", with_check(R"({"then":{},"type":"conditional"})")),
      rule("conditional then not an object", with_check(R"({"condition":{},"then":[],"type":"conditional"})")),
  };
}

// --- the payloads (SPEC §8, §10) --------------------------------------------------------------

// The samples every payload shares: its full document is valid, and it is an object whose other
// members are additive: kept, whatever they hold (SPEC §8).
void common_payload_samples(std::vector<sample>& out, const std::string& full, bool extras_allowed) {
  out.push_back(ok("full", full));
  out.push_back(ok("pretty", assay::json::to_pretty(assay::json::parse(full).value())));
  out.push_back(bad("root array", "[" + full + "]", errc::type_mismatch));
  out.push_back(bad("root string", R"("x")", errc::type_mismatch));
  out.push_back(bad("root null", "null", errc::type_mismatch));
  if (extras_allowed) {
    out.push_back(ok("extra member", edited(full, {{"/zz_extra", R"({"any":[null]})"}})));
  } else {
    out.push_back(bad("unknown member", edited(full, {{"/zz_extra", "1"}}), errc::unknown_member));
  }
}

std::vector<sample> with_common(const std::string& full, bool extras_allowed, std::vector<sample> specific) {
  std::vector<sample> out;
  common_payload_samples(out, full, extras_allowed);
  for (auto& s : specific)
    out.push_back(std::move(s));
  return out;
}

std::vector<sample> profile_started_corpus() {
  const std::string& full = docs::profile_started;
  return with_common(
      full, true,
      {
          ok("empty strings, zero runs",
             edited(full,
                    {{"/profile_name", R"("")"}, {"/profile_version", R"("")"}, {"/total_runs_aggregated", "0"}})),
          bad("profile_name missing", edited(full, {{"/profile_name", std::nullopt}}), errc::missing_member),
          bad("profile_version number", edited(full, {{"/profile_version", "1"}}), errc::type_mismatch),
          bad("total_runs_aggregated missing", edited(full, {{"/total_runs_aggregated", std::nullopt}}),
              errc::missing_member),
          bad("total_runs_aggregated -1", edited(full, {{"/total_runs_aggregated", "-1"}}), errc::below_minimum),
          bad("total_runs_aggregated 0.5", edited(full, {{"/total_runs_aggregated", "0.5"}}), errc::not_an_integer),
          bad("total_runs_aggregated string", edited(full, {{"/total_runs_aggregated", R"("3")"}}),
              errc::type_mismatch),
          range("total_runs_aggregated 2^63", edited(full, {{"/total_runs_aggregated", "9223372036854775808"}})),
      });
}

std::vector<sample> profile_finished_corpus() {
  const std::string& full = docs::profile_finished_full;
  return with_common(
      full, true,
      {
          ok("without integrity_scope", edited(full, {{"/integrity_scope", std::nullopt}})),
          bad("files_count missing", edited(full, {{"/files_count", std::nullopt}}), errc::missing_member),
          bad("network_count -1", edited(full, {{"/network_count", "-1"}}), errc::below_minimum),
          bad("processes_count 1.5", edited(full, {{"/processes_count", "1.5"}}), errc::not_an_integer),
          bad("sandbox_degradation_count null", edited(full, {{"/sandbox_degradation_count", "null"}}),
              errc::type_mismatch),
          bad("sandbox_degradation_count missing", edited(full, {{"/sandbox_degradation_count", std::nullopt}}),
              errc::missing_member),
          bad("integrity_scope number", edited(full, {{"/integrity_scope", "1"}}), errc::type_mismatch),
          range("files_count 2^63", edited(full, {{"/files_count", "9223372036854775808"}})),
      });
}

std::vector<sample> tool_decision_corpus() {
  const std::string& full = docs::tool_decision_full;
  const std::string& min = docs::tool_decision_minimal;
  return with_common(
      full, true,
      {
          ok("minimal", min),
          ok("requires_approval", edited(min, {{"/decision", R"("requires_approval")"}})),
          ok("error (the reference's runtime)", edited(min, {{"/decision", R"("error")"}})),
          ok("the members the reference's packs read", edited(min, {{"/tool_call_id", R"("tc_1")"},
                                                                    {"/mandate_id", R"("m-1")"},
                                                                    {"/principal", R"("alice@example.com")"},
                                                                    {"/auth_scheme", R"("jwt_bearer")"},
                                                                    {"/auth_issuer", R"("https://issuer.example/")"},
                                                                    {"/reason", R"("policy allowed")"}})),
          ok("additive members of the reference's runtime",
             edited(min, {{"/obligations", R"([{"type":"log"},{"type":"approval","params":{}}])"},
                          {"/approval_state", R"("granted")"},
                          {"/approval_id", R"("ap-1")"},
                          {"/x_vendor", R"({"k":[1,2]})"}})),
          ok("an additive member named like the C++ extras member", edited(min, {{"/extra", "null"}})),
          bad("decision maybe", edited(min, {{"/decision", R"("maybe")"}}), errc::enum_mismatch),
          bad("tool_call_id number", edited(min, {{"/tool_call_id", "5"}}), errc::type_mismatch),
          bad("mandate_id null", edited(min, {{"/mandate_id", "null"}}), errc::type_mismatch),
          bad("principal object", edited(min, {{"/principal", "{}"}}), errc::type_mismatch),
          bad("auth_scheme number", edited(min, {{"/auth_scheme", "2"}}), errc::type_mismatch),
          bad("auth_issuer array", edited(min, {{"/auth_issuer", "[]"}}), errc::type_mismatch),
          bad("reason false", edited(min, {{"/reason", "false"}}), errc::type_mismatch),
          bad("duplicate additive member", R"({"decision":"allow","reason_code":"r","tool":"t","x":1,"x":2})",
              errc::duplicate_member),
          ok("only P56a", edited(full, {{"/tool_definition_digest", std::nullopt},
                                        {"/tool_definition_digest_alg", std::nullopt},
                                        {"/tool_definition_canonicalization", std::nullopt},
                                        {"/tool_definition_schema", std::nullopt},
                                        {"/tool_definition_source", std::nullopt}})),
          ok("only P56b", edited(min, {{"/tool_definition_digest", R"("sha256:t")"},
                                       {"/tool_definition_digest_alg", R"("sha256")"},
                                       {"/tool_definition_canonicalization", R"("jcs:mcp_tool_definition.v1")"},
                                       {"/tool_definition_schema", R"("assay.mcp.tool-definition.snapshot.v1")"},
                                       {"/tool_definition_source", R"("mcp.tools/list")"}})),
          ok("policy_digest without a snapshot", edited(min, {{"/policy_digest", R"("sha256:p")"}})),
          ok("delegation_depth 0", edited(min, {{"/delegation_depth", "0"}})),
          bad("decision", edited(min, {{"/decision", R"("Allow")"}}), errc::enum_mismatch),
          bad("decision number", edited(min, {{"/decision", "1"}}), errc::type_mismatch),
          bad("tool missing", edited(min, {{"/tool", std::nullopt}}), errc::missing_member),
          bad("decision missing", edited(min, {{"/decision", std::nullopt}}), errc::missing_member),
          bad("reason_code missing", edited(min, {{"/reason_code", std::nullopt}}), errc::missing_member),
          bad("tool null", edited(min, {{"/tool", "null"}}), errc::type_mismatch),
          bad("args_schema_hash number", edited(min, {{"/args_schema_hash", "1"}}), errc::type_mismatch),
          bad("tool_definition_digest_alg", edited(full, {{"/tool_definition_digest_alg", R"("sha512")"}}),
              errc::const_mismatch),
          bad("tool_definition_canonicalization", edited(full, {{"/tool_definition_canonicalization", R"("jcs")"}}),
              errc::const_mismatch),
          bad("tool_definition_schema", edited(full, {{"/tool_definition_schema", R"("v2")"}}), errc::const_mismatch),
          bad("tool_definition_source", edited(full, {{"/tool_definition_source", R"("mcp.tools/get")"}}),
              errc::const_mismatch),
          bad("policy_snapshot_schema number", edited(full, {{"/policy_snapshot_schema", "1"}}), errc::type_mismatch),
          bad("delegation_depth -1", edited(full, {{"/delegation_depth", "-1"}}), errc::below_minimum),
          bad("delegation_depth 1.5", edited(full, {{"/delegation_depth", "1.5"}}), errc::not_an_integer),
          bad("delegated_from null", edited(full, {{"/delegated_from", "null"}}), errc::type_mismatch),
          rule("P56a partial (no _schema)", edited(full, {{"/policy_snapshot_schema", std::nullopt}})),
          rule("P56a partial (digest only)",
               edited(min, {{"/policy_digest", R"("sha256:p")"}, {"/policy_snapshot_digest", R"("sha256:p")"}})),
          rule("policy_snapshot_digest != policy_digest", edited(full, {{"/policy_digest", R"("sha256:other")"}})),
          rule("snapshot without policy_digest", edited(full, {{"/policy_digest", std::nullopt}})),
          rule("P56b partial (no _source)", edited(full, {{"/tool_definition_source", std::nullopt}})),
          rule("P56b partial (digest only)", edited(min, {{"/tool_definition_digest", R"("sha256:t")"}})),
          range("delegation_depth 2^63", edited(full, {{"/delegation_depth", "9223372036854775808"}})),
      });
}

std::vector<sample> sandbox_degraded_corpus() {
  const std::string& full = docs::sandbox_degraded_full;
  return with_common(
      full, true,
      {
          ok("without detail", edited(full, {{"/detail", std::nullopt}})),
          ok("policy_conflict", edited(full, {{"/reason_code", R"("policy_conflict")"}})),
          bad("reason_code", edited(full, {{"/reason_code", R"("unknown")"}}), errc::enum_mismatch),
          bad("degradation_mode", edited(full, {{"/degradation_mode", R"("none")"}}), errc::enum_mismatch),
          bad("component", edited(full, {{"/component", R"("seccomp")"}}), errc::enum_mismatch),
          bad("component missing", edited(full, {{"/component", std::nullopt}}), errc::missing_member),
          bad("reason_code number", edited(full, {{"/reason_code", "0"}}), errc::type_mismatch),
          bad("detail number", edited(full, {{"/detail", "0"}}), errc::type_mismatch),
      });
}

std::vector<sample> fs_access_corpus() {
  const std::string& full = docs::fs_access_full;
  return with_common(
      full, true,
      {
          ok("hits only", R"({"hits":0})"),
          ok("extra member named like the C++ extras member", R"({"hits":1,"observed":{}})"),
          ok("extra member null", R"({"hits":1,"inode":null})"),
          bad("hits missing", edited(full, {{"/hits", std::nullopt}}), errc::missing_member),
          bad("hits -1", edited(full, {{"/hits", "-1"}}), errc::below_minimum),
          bad("hits string", edited(full, {{"/hits", R"("3")"}}), errc::type_mismatch),
          bad("file number (declared members keep their type)", edited(full, {{"/file", "1"}}), errc::type_mismatch),
          bad("first_seen not a date-time", edited(full, {{"/first_seen", R"("yesterday")"}}), errc::format_mismatch),
          bad("last_seen Feb 30", edited(full, {{"/last_seen", R"("2023-02-30T00:00:00Z")"}}), errc::format_mismatch),
          bad("runs_seen -1", edited(full, {{"/runs_seen", "-1"}}), errc::below_minimum),
          bad("duplicate extra member", R"({"hits":1,"pid":1,"pid":2})", errc::duplicate_member),
          bad("duplicate declared member", R"({"hits":1,"hits":2})", errc::duplicate_member),
          range("hits 2^63", R"({"hits":9223372036854775808})"),
      });
}

std::vector<sample> net_access_corpus() {
  const std::string& full = docs::net_access_full;
  return with_common(
      full, true,
      {
          ok("hits only", R"({"hits":0})"),
          ok("file is an extra member here", R"({"file":1,"hits":1})"),
          bad("hits missing", edited(full, {{"/hits", std::nullopt}}), errc::missing_member),
          bad("hits 0.5", edited(full, {{"/hits", "0.5"}}), errc::not_an_integer),
          bad("first_seen date only", edited(full, {{"/first_seen", R"("2023-11-14")"}}), errc::format_mismatch),
          bad("last_seen number", edited(full, {{"/last_seen", "0"}}), errc::type_mismatch),
          bad("runs_seen -1", edited(full, {{"/runs_seen", "-1"}}), errc::below_minimum),
      });
}

std::vector<sample> env_filtered_corpus() {
  const std::string& full = docs::env_filtered_full;
  const std::string& min = docs::env_filtered_minimal;
  return with_common(
      full, true,
      {
          ok("minimal", min),
          ok("counter 0", edited(full, {{"/counters/passed", "0"}})),
          bad("mode missing", edited(full, {{"/mode", std::nullopt}}), errc::missing_member),
          bad("passed_keys missing", edited(full, {{"/passed_keys", std::nullopt}}), errc::missing_member),
          bad("dropped_keys missing", edited(full, {{"/dropped_keys", std::nullopt}}), errc::missing_member),
          bad("counters missing", edited(full, {{"/counters", std::nullopt}}), errc::missing_member),
          bad("key not a string", edited(full, {{"/passed_keys/0", "1"}}), errc::type_mismatch),
          bad("keys not an array", edited(full, {{"/dropped_keys", R"("A")"}}), errc::type_mismatch),
          bad("counter -1", edited(full, {{"/counters/dropped", "-1"}}), errc::below_minimum),
          bad("counter string", edited(full, {{"/counters/dropped", R"("1")"}}), errc::type_mismatch),
          bad("counters an array", edited(full, {{"/counters", "[]"}}), errc::type_mismatch),
          range("counter 2^63", edited(full, {{"/counters/dropped", "9223372036854775808"}})),
      });
}

std::vector<sample> tool_call_corpus() {
  const std::string& full = docs::tool_call_full;
  const std::string& red = docs::tool_call_redacted;
  return with_common(
      full, true,
      {
          ok("redacted", red),
          ok("minimal", R"({"tool":"t"})"),
          ok("arguments and result of any kind", edited(full, {{"/arguments", "null"}, {"/result", R"("text")"}})),
          ok("call_id empty", edited(full, {{"/call_id", R"("")"}})),
          ok("commitment of size 0", edited(red, {{"/tool/size_bytes", "0"}})),
          bad("tool missing", R"({"call_id":"c"})", errc::missing_member),
          bad("tool empty", edited(full, {{"/tool", R"("")"}}), errc::too_short),
          bad("tool number (neither a string nor a commitment)", edited(full, {{"/tool", "1"}}), errc::type_mismatch),
          bad("tool array", edited(full, {{"/tool", R"(["t"])"}}), errc::type_mismatch),
          bad("tool null", edited(full, {{"/tool", "null"}}), errc::type_mismatch),
          bad("commitment alg", edited(full, {{"/tool", commitment_with("/alg", R"("md5")")}}), errc::const_mismatch),
          bad("commitment digest uppercase",
              edited(full,
                     {{"/tool", commitment_with(
                                    "/digest",
                                    R"("sha256:2C26B46B68FFC68FF99B453C1D30413413422D706483BFA0F98A5E886266E7AE")")}}),
              errc::pattern_mismatch),
          bad("commitment digest without prefix",
              edited(full, {{"/tool",
                             commitment_with(
                                 "/digest", R"("2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")")}}),
              errc::pattern_mismatch),
          bad("commitment size -1", edited(full, {{"/tool", commitment_with("/size_bytes", "-1")}}),
              errc::below_minimum),
          bad("commitment size 1.5", edited(full, {{"/tool", commitment_with("/size_bytes", "1.5")}}),
              errc::not_an_integer),
          bad("commitment size missing", edited(full, {{"/tool", commitment_with("/size_bytes", std::nullopt)}}),
              errc::missing_member),
          bad("commitment extra member", edited(full, {{"/tool", commitment_with("/salt", R"("x")")}}),
              errc::unknown_member),
          bad("commitment empty", edited(full, {{"/call_id", "{}"}}), errc::missing_member),
          bad("call_id number", edited(full, {{"/call_id", "1"}}), errc::type_mismatch),
          bad("nondeterministic string", edited(full, {{"/nondeterministic", R"("true")"}}), errc::type_mismatch),
          range("commitment size 2^63", edited(red, {{"/tool/size_bytes", "9223372036854775808"}})),
      });
}

std::vector<sample> model_invoked_corpus() {
  const std::string& full = docs::model_invoked_full;
  return with_common(
      full, true,
      {
          ok("minimal", R"({"model":"m"})"),
          ok("redacted",
             edited(full,
                    {{"/model", docs::commitment}, {"/provider", docs::commitment}, {"/operation", docs::commitment}})),
          ok("provider empty", edited(full, {{"/provider", R"("")"}})),
          bad("model missing", edited(full, {{"/model", std::nullopt}}), errc::missing_member),
          bad("model empty", edited(full, {{"/model", R"("")"}}), errc::too_short),
          bad("model commitment alg", edited(full, {{"/model", commitment_with("/alg", R"("SHA256")")}}),
              errc::const_mismatch),
          bad("provider number", edited(full, {{"/provider", "1"}}), errc::type_mismatch),
          bad("operation false", edited(full, {{"/operation", "false"}}), errc::type_mismatch),
          bad("operation commitment without digest",
              edited(full, {{"/operation", commitment_with("/digest", std::nullopt)}}), errc::missing_member),
      });
}

std::vector<sample> run_input_corpus() {
  const std::string full = R"({"input":{"prompt":"What is the weather?"}})";
  return with_common(full, true,
                     {
                         ok("input null", R"({"input":null})"),
                         ok("input string", R"({"input":"x"})"),
                         ok("input a commitment", edited(full, {{"/input", docs::commitment}})),
                         ok("input array", R"({"input":[1,2]})"),
                         bad("input missing", "{}", errc::missing_member),
                     });
}

std::vector<sample> run_seed_corpus() {
  const std::string full = R"({"seed":42})";
  return with_common(
      full, true,
      {
          ok("seed string", R"({"seed":"0xdeadbeef"})"),
          ok("seed beyond int64", R"({"seed":18446744073709551616})"),
          ok("seed a commitment", edited(full, {{"/seed", docs::commitment}})),
          bad("seed missing", "{}", errc::missing_member),
          bad("seeds (plural): an additive member, and no seed", R"({"seeds":[1]})", errc::missing_member),
      });
}

std::vector<sample> mcp_tools_listed_corpus() {
  const std::string full = R"({"server_id":"files","tools":[{"name":"read","tool_definition_digest":"sha256:)" +
                           std::string(64, 'a') + R"("},{"name":"list"}]})";
  return with_common(
      full, true,
      {
          ok("no tools", R"({"server_id":"s","tools":[]})"),
          ok("one tool without a digest", R"({"server_id":"s","tools":[{"name":"a"}]})"),
          bad("server_id missing", edited(full, {{"/server_id", std::nullopt}}), errc::missing_member),
          bad("tools missing", edited(full, {{"/tools", std::nullopt}}), errc::missing_member),
          bad("a tool without a name", edited(full, {{"/tools/1/name", std::nullopt}}), errc::missing_member),
          bad("a digest without its prefix", edited(full, {{"/tools/0/tool_definition_digest", R"("abc")"}}),
              errc::pattern_mismatch),
          bad("a tool's unknown member", edited(full, {{"/tools/1/x", "1"}}), errc::unknown_member),
      });
}

std::vector<sample> mcp_refused_corpus() {
  const std::string full = R"({"code":-32600,"line_bytes":3,"line_sha256":")" + std::string(64, 'b') +
                           R"(","reason":"a JSON array: MCP has no batches"})";
  return with_common(
      full, true,
      {
          bad("reason missing", edited(full, {{"/reason", std::nullopt}}), errc::missing_member),
          bad("code a string", edited(full, {{"/code", R"("-32600")"}}), errc::type_mismatch),
          bad("line_bytes -1", edited(full, {{"/line_bytes", "-1"}}), errc::below_minimum),
          bad("line_sha256 prefixed", edited(full, {{"/line_sha256", R"("sha256:)" + std::string(64, 'b') + "\""}}),
              errc::pattern_mismatch),
      });
}

std::vector<sample> prompt_lineage_corpus() {
  const std::string& full = docs::prompt_lineage_full;
  return with_common(
      full, true,
      {
          ok("without parent", edited(full, {{"/parent_digest", std::nullopt}})),
          ok("redacted", edited(full, {{"/prompt_digest", docs::commitment}, {"/parent_digest", docs::commitment}})),
          bad("prompt_digest missing", edited(full, {{"/prompt_digest", std::nullopt}}), errc::missing_member),
          bad("prompt_digest empty", edited(full, {{"/prompt_digest", R"("")"}}), errc::too_short),
          bad("parent_digest empty", edited(full, {{"/parent_digest", R"("")"}}), errc::too_short),
          bad("parent_digest null", edited(full, {{"/parent_digest", "null"}}), errc::type_mismatch),
          bad("parent_digest bad commitment", edited(full, {{"/parent_digest", commitment_with("/size_bytes", "-5")}}),
              errc::below_minimum),
      });
}

std::vector<sample> approval_recorded_corpus() {
  const std::string& full = docs::approval_recorded_full;
  return with_common(full, true,
                     {
                         ok("without tool", edited(full, {{"/tool", std::nullopt}})),
                         ok("tool empty", edited(full, {{"/tool", R"("")"}})),
                         ok("redacted", edited(full, {{"/tool", docs::commitment},
                                                      {"/approver", docs::commitment},
                                                      {"/decision", docs::commitment}})),
                         bad("approver missing", edited(full, {{"/approver", std::nullopt}}), errc::missing_member),
                         bad("approver empty", edited(full, {{"/approver", R"("")"}}), errc::too_short),
                         bad("decision missing", edited(full, {{"/decision", std::nullopt}}), errc::missing_member),
                         bad("decision empty", edited(full, {{"/decision", R"("")"}}), errc::too_short),
                         bad("decision boolean", edited(full, {{"/decision", "true"}}), errc::type_mismatch),
                         bad("tool number", edited(full, {{"/tool", "1"}}), errc::type_mismatch),
                         bad("approver commitment extra member",
                             edited(full, {{"/approver", commitment_with("/by", R"("x")")}}), errc::unknown_member),
                     });
}

// --- the report and attestation contracts (SPEC §11, §14, §15, §16) ------------------------------

std::string pretty(const std::string& text) {
  return assay::json::to_pretty(assay::json::parse(text).value());
}

std::string sha256_of(char digit) {
  return R"("sha256:)" + std::string(64, digit) + R"(")";
}

std::vector<sample> lint_corpus() {
  const std::string& full = docs::lint_full;
  const std::string& min = docs::lint_minimal;
  const std::string passed_rule = "/results/1";
  const std::string warning_finding =
      R"([{"fingerprint":)" + sha256_of('c') + R"(,"message":"m","severity":"warning"}])";
  const std::string error_finding = R"([{"fingerprint":)" + sha256_of('c') + R"(,"message":"m","severity":"error"}])";
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("pretty", pretty(full)),
      ok("fail_on warning, a warning found: fail",
         edited(full, {{"/fail_on", R"("warning")"}, {"/verdict", R"("fail")"}})),
      ok("fail_on info: fail", edited(full, {{"/fail_on", R"("info")"}, {"/verdict", R"("fail")"}})),
      ok("fail_on none: pass", edited(full, {{"/fail_on", R"("none")"}})),
      ok("an error found: fail", edited(full, {{passed_rule + "/outcome", R"("violated")"},
                                               {passed_rule + "/findings", error_finding},
                                               {"/summary/passed", "0"},
                                               {"/summary/violated", "3"},
                                               {"/summary/findings/total", "3"},
                                               {"/summary/findings/error", "1"},
                                               {"/verdict", R"("fail")"}})),
      ok("a passing rule with an unlocated warning", edited(full, {{passed_rule + "/findings", warning_finding},
                                                                   {"/summary/findings/total", "3"},
                                                                   {"/summary/findings/warning", "2"}})),
      ok("findings dropped: a violated rule without findings, fail on what was dropped",
         edited(full, {{"/fail_on", R"("info")"},
                       {"/results/2/findings", "[]"},
                       {"/summary/findings/total", "1"},
                       {"/summary/findings/info", "0"},
                       {"/summary/dropped", "1"},
                       {"/summary/max_results", "1"},
                       {"/verdict", R"("fail")"}})),
      ok("without generated_at", edited(full, {{"/generated_at", std::nullopt}})),
      ok("generated_at with an offset", edited(full, {{"/generated_at", R"("2023-11-14T23:13:20.5+01:00")"}})),
      ok("large seq and line", edited(full, {{"/results/0/findings/0/location/seq", "9007199254740990"},
                                             {"/results/0/findings/0/location/line", "9007199254740991"}})),
      ok("event_type empty", edited(full, {{"/results/0/findings/0/location/event_type", R"("")"}})),
      ok("pack without source_url", edited(full, {{"/packs/1/source_url", std::nullopt}})),
      ok("pack source_url empty", edited(full, {{"/packs/1/source_url", R"("")"}})),
      ok("disclaimer text empty", edited(full, {{"/disclaimers/0/text", R"("")"}})),
      ok("pack version with - . +",
         edited(full, {{"/packs/1/version", R"("1.0.0-rc.1+b7")"},
                       {"/results/2/rule_id", R"("eu-ai-act-baseline@1.0.0-rc.1+b7:EU12-001")"}})),
      ok("pack version empty",
         edited(full, {{"/packs/1/version", R"("")"}, {"/results/2/rule_id", R"("eu-ai-act-baseline@:EU12-001")"}})),
      ok("rule id with . _ - : @", edited(full, {{"/results/1/rule_id", R"("cicd-starter@0.1.0:a.b_c-D:e@f")"}})),
      ok("built-in rules only", edited(min, {{"/results", R"([{"findings":[],"outcome":"pass","rule_id":"ASSAY-W001",)"
                                                          R"("severity":"warning"}])"},
                                             {"/summary/rules", "1"},
                                             {"/summary/passed", "1"}})),
      ok("pack kinds", edited(full, {{"/packs/0/kind", R"("security")"}})),
      ok("one pack at two versions",
         edited(full, {{"/packs/2", R"({"digest":)" + sha256_of('6') +
                                        R"(,"kind":"quality","name":"cicd-starter","source":"built-in",)"
                                        R"("version":"0.2.0"})"}})),
      // --- invalid: both reject ---
      bad("schema_version", edited(min, {{"/schema_version", R"("lint-report-v2")"}}), errc::const_mismatch),
      bad("schema_version missing", edited(min, {{"/schema_version", std::nullopt}}), errc::missing_member),
      bad("generated_at with a space", edited(full, {{"/generated_at", R"("2023-11-14 22:13:20Z")"}}),
          errc::format_mismatch),
      bad("tool missing", edited(min, {{"/tool", std::nullopt}}), errc::missing_member),
      bad("tool name empty", edited(min, {{"/tool/name", R"("")"}}), errc::too_short),
      bad("tool version missing", edited(min, {{"/tool/version", std::nullopt}}), errc::missing_member),
      bad("tool extra member", edited(min, {{"/tool/url", R"("https://x")"}}), errc::unknown_member),
      bad("bundle missing", edited(min, {{"/bundle", std::nullopt}}), errc::missing_member),
      bad("bundle_id short", edited(full, {{"/bundle/bundle_id", R"("sha256:e3b0")"}}), errc::pattern_mismatch),
      bad("bundle_id uppercase", edited(full, {{"/bundle/bundle_id", sha256_of('E')}}), errc::pattern_mismatch),
      bad("bundle_id null", edited(full, {{"/bundle/bundle_id", "null"}}), errc::type_mismatch),
      bad("run_id empty", edited(full, {{"/bundle/run_id", R"("")"}}), errc::too_short),
      bad("event_count -1", edited(full, {{"/bundle/event_count", "-1"}}), errc::below_minimum),
      bad("event_count 0.5", edited(full, {{"/bundle/event_count", "0.5"}}), errc::not_an_integer),
      bad("bundle extra member", edited(full, {{"/bundle/path", R"("b.tar.gz")"}}), errc::unknown_member),
      bad("packs an object", edited(min, {{"/packs", "{}"}}), errc::type_mismatch),
      bad("packs missing", edited(min, {{"/packs", std::nullopt}}), errc::missing_member),
      bad("pack name uppercase", edited(full, {{"/packs/0/name", R"("CICD-starter")"}}), errc::pattern_mismatch),
      bad("pack name empty", edited(full, {{"/packs/0/name", R"("")"}}), errc::pattern_mismatch),
      bad("pack name ending in -", edited(full, {{"/packs/0/name", R"("cicd-")"}}), errc::pattern_mismatch),
      bad("pack name with _", edited(full, {{"/packs/0/name", R"("cicd_starter")"}}), errc::pattern_mismatch),
      bad("pack version missing", edited(full, {{"/packs/0/version", std::nullopt}}), errc::missing_member),
      bad("pack version number", edited(full, {{"/packs/0/version", "1"}}), errc::type_mismatch),
      bad("pack kind", edited(full, {{"/packs/0/kind", R"("custom")"}}), errc::enum_mismatch),
      bad("pack digest without prefix", edited(full, {{"/packs/0/digest", R"(")" + std::string(64, '5') + R"(")"}}),
          errc::pattern_mismatch),
      bad("pack digest missing", edited(full, {{"/packs/0/digest", std::nullopt}}), errc::missing_member),
      bad("pack source number", edited(full, {{"/packs/0/source", "1"}}), errc::type_mismatch),
      bad("pack source null", edited(full, {{"/packs/0/source", "null"}}), errc::type_mismatch),
      bad("pack source empty", edited(full, {{"/packs/0/source", R"("")"}}), errc::too_short),
      bad("pack source missing", edited(full, {{"/packs/0/source", std::nullopt}}), errc::missing_member),
      bad("pack source_url null", edited(full, {{"/packs/1/source_url", "null"}}), errc::type_mismatch),
      bad("pack extra member", edited(full, {{"/packs/0/url", R"("https://x")"}}), errc::unknown_member),
      bad("results missing", edited(min, {{"/results", std::nullopt}}), errc::missing_member),
      bad("results an object", edited(min, {{"/results", "{}"}}), errc::type_mismatch),
      bad("rule_id empty", edited(full, {{"/results/0/rule_id", R"("")"}}), errc::too_short),
      bad("rule_id missing", edited(full, {{"/results/0/rule_id", std::nullopt}}), errc::missing_member),
      bad("severity", edited(full, {{"/results/0/severity", R"("fatal")"}}), errc::enum_mismatch),
      bad("severity warn", edited(full, {{"/results/0/severity", R"("warn")"}}), errc::enum_mismatch),
      bad("outcome", edited(full, {{"/results/0/outcome", R"("failed")"}}), errc::enum_mismatch),
      bad("outcome missing", edited(full, {{"/results/0/outcome", std::nullopt}}), errc::missing_member),
      bad("reason empty", edited(full, {{"/results/3/reason", R"("")"}}), errc::too_short),
      bad("reason null", edited(full, {{"/results/3/reason", "null"}}), errc::type_mismatch),
      bad("description number", edited(full, {{"/results/0/description", "1"}}), errc::type_mismatch),
      bad("findings missing", edited(full, {{"/results/0/findings", std::nullopt}}), errc::missing_member),
      bad("findings an object", edited(full, {{"/results/0/findings", "{}"}}), errc::type_mismatch),
      bad("result extra member", edited(full, {{"/results/0/help", R"("h")"}}), errc::unknown_member),
      bad("finding message empty", edited(full, {{"/results/0/findings/0/message", R"("")"}}), errc::too_short),
      bad("finding severity note", edited(full, {{"/results/0/findings/0/severity", R"("note")"}}),
          errc::enum_mismatch),
      bad("finding fingerprint short", edited(full, {{"/results/0/findings/0/fingerprint", R"("sha256:ab")"}}),
          errc::pattern_mismatch),
      bad("finding fingerprint missing", edited(full, {{"/results/0/findings/0/fingerprint", std::nullopt}}),
          errc::missing_member),
      bad("finding location null", edited(full, {{"/results/0/findings/0/location", "null"}}), errc::type_mismatch),
      bad("finding extra member", edited(full, {{"/results/0/findings/0/rule_id", R"("ASSAY-W001")"}}),
          errc::unknown_member),
      bad("seq -1", edited(full, {{"/results/0/findings/0/location/seq", "-1"}}), errc::below_minimum),
      bad("seq 0.5", edited(full, {{"/results/0/findings/0/location/seq", "0.5"}}), errc::not_an_integer),
      bad("seq null", edited(full, {{"/results/0/findings/0/location/seq", "null"}}), errc::type_mismatch),
      bad("line 0", edited(full, {{"/results/0/findings/0/location/line", "0"}}), errc::below_minimum),
      bad("line missing", edited(full, {{"/results/0/findings/0/location/line", std::nullopt}}), errc::missing_member),
      bad("event_type missing", edited(full, {{"/results/0/findings/0/location/event_type", std::nullopt}}),
          errc::missing_member),
      bad("location extra member", edited(full, {{"/results/0/findings/0/location/pointer", R"("/type")"}}),
          errc::unknown_member),
      bad("summary missing", edited(min, {{"/summary", std::nullopt}}), errc::missing_member),
      bad("summary.rules -1", edited(min, {{"/summary/rules", "-1"}}), errc::below_minimum),
      bad("summary.passed 1.5", edited(min, {{"/summary/passed", "1.5"}}), errc::not_an_integer),
      bad("summary.violated missing", edited(min, {{"/summary/violated", std::nullopt}}), errc::missing_member),
      bad("summary.skipped missing", edited(min, {{"/summary/skipped", std::nullopt}}), errc::missing_member),
      bad("summary.dropped -1", edited(min, {{"/summary/dropped", "-1"}}), errc::below_minimum),
      bad("summary.max_results missing", edited(min, {{"/summary/max_results", std::nullopt}}), errc::missing_member),
      bad("findings.warning missing", edited(min, {{"/summary/findings/warning", std::nullopt}}), errc::missing_member),
      bad("findings.error string", edited(min, {{"/summary/findings/error", R"("0")"}}), errc::type_mismatch),
      bad("findings extra member", edited(min, {{"/summary/findings/critical", "0"}}), errc::unknown_member),
      bad("summary extra member", edited(min, {{"/summary/failed", "0"}}), errc::unknown_member),
      bad("fail_on", edited(min, {{"/fail_on", R"("critical")"}}), errc::enum_mismatch),
      bad("fail_on warn", edited(min, {{"/fail_on", R"("warn")"}}), errc::enum_mismatch),
      bad("fail_on missing", edited(min, {{"/fail_on", std::nullopt}}), errc::missing_member),
      bad("verdict boolean", edited(min, {{"/verdict", "true"}}), errc::type_mismatch),
      bad("verdict passed", edited(min, {{"/verdict", R"("passed")"}}), errc::enum_mismatch),
      bad("verdict missing", edited(min, {{"/verdict", std::nullopt}}), errc::missing_member),
      bad("disclaimers missing", edited(min, {{"/disclaimers", std::nullopt}}), errc::missing_member),
      bad("disclaimer pack empty", edited(full, {{"/disclaimers/0/pack", R"("")"}}), errc::too_short),
      bad("disclaimer text missing", edited(full, {{"/disclaimers/0/text", std::nullopt}}), errc::missing_member),
      bad("disclaimer extra member", edited(full, {{"/disclaimers/0/url", R"("u")"}}), errc::unknown_member),
      bad("unknown top-level member", edited(min, {{"/passed", "true"}}), errc::unknown_member),
      bad("root array", "[]", errc::type_mismatch),
      bad("duplicate member", replaced(min, R"("verdict":"pass")", R"("verdict":"pass","verdict":"pass")"),
          errc::duplicate_member),
      // --- rules: only the decoder can tell ---
      rule("skipped without a reason", edited(full, {{"/results/3/reason", std::nullopt}})),
      rule("a reason without skipping", edited(full, {{"/results/1/reason", R"("r")"}})),
      rule("a skipped rule with findings", edited(full, {{"/results/3/findings", warning_finding},
                                                         {"/summary/findings/total", "3"},
                                                         {"/summary/findings/warning", "2"}})),
      rule("a passing rule with an error", edited(full, {{passed_rule + "/findings", error_finding},
                                                         {"/summary/findings/total", "3"},
                                                         {"/summary/findings/error", "1"},
                                                         {"/verdict", R"("fail")"}})),
      rule("a passing rule with a located warning",
           edited(full, {{passed_rule + "/findings", warning_finding},
                         {passed_rule + "/findings/0/location", R"({"event_type":"t","line":1,"seq":0})"},
                         {"/summary/findings/total", "3"},
                         {"/summary/findings/warning", "2"}})),
      rule("a violated rule's finding at another severity",
           edited(full, {{"/results/2/findings/0/severity", R"("warning")"},
                         {"/summary/findings/info", "0"},
                         {"/summary/findings/warning", "2"}})),
      rule("a violated rule without findings, none dropped",
           edited(full,
                  {{"/results/2/findings", "[]"}, {"/summary/findings/total", "1"}, {"/summary/findings/info", "0"}})),
      rule("rule reported twice", edited(full, {{"/results/2/rule_id", R"("cicd-starter@0.1.0:events-present")"}})),
      rule("rule of no pack", edited(full, {{"/results/2/rule_id", R"("other-pack@1.0.0:EU12-001")"}})),
      rule("rule of a pack at another version",
           edited(full, {{"/results/2/rule_id", R"("eu-ai-act-baseline@2.0.0:EU12-001")"}})),
      rule("rule_id without pack", edited(full, {{"/results/1/rule_id", R"("events-present")"}})),
      rule("rule_id without rule", edited(full, {{"/results/1/rule_id", R"("cicd-starter@0.1.0:")"}})),
      rule("rule_id with two @", edited(full, {{"/results/1/rule_id", R"("cicd-starter@0.1@0:events-present")"}})),
      rule("rule_id with an uppercase pack", edited(full, {{"/results/1/rule_id", R"("CICD@0.1.0:events-present")"}})),
      rule("built-in rule_id without a name", edited(full, {{"/results/0/rule_id", R"("ASSAY-")"}})),
      rule("summary.rules", edited(full, {{"/summary/rules", "5"}})),
      rule("summary.passed", edited(full, {{"/summary/passed", "2"}})),
      rule("summary.violated", edited(full, {{"/summary/violated", "1"}})),
      rule("summary.skipped", edited(full, {{"/summary/skipped", "0"}})),
      rule("summary.findings.total", edited(full, {{"/summary/findings/total", "3"}})),
      rule("summary.findings.info", edited(full, {{"/summary/findings/info", "0"}})),
      rule("summary.findings.warning", edited(full, {{"/summary/findings/warning", "2"}})),
      rule("summary.findings.error", edited(full, {{"/summary/findings/error", "1"}})),
      rule("more findings than max_results", edited(full, {{"/summary/max_results", "1"}})),
      rule("fail without a finding at fail_on", edited(full, {{"/verdict", R"("fail")"}})),
      rule("pass with a finding at fail_on", edited(full, {{"/fail_on", R"("warning")"}})),
      rule("pass with an error found", edited(full, {{passed_rule + "/outcome", R"("violated")"},
                                                     {passed_rule + "/findings", error_finding},
                                                     {"/summary/passed", "0"},
                                                     {"/summary/violated", "3"},
                                                     {"/summary/findings/total", "3"},
                                                     {"/summary/findings/error", "1"}})),
      rule("a result left out: four counts wrong", edited(full, {{"/results/2", std::nullopt}})),
      rule("a pack listed twice",
           edited(full, {{"/packs/2", R"({"digest":)" + sha256_of('6') +
                                          R"(,"kind":"security","name":"cicd-starter","source":"x",)"
                                          R"("version":"0.1.0"})"}})),
      rule("a disclaimer of a quality pack", edited(full, {{"/disclaimers/0/pack", R"("cicd-starter")"}})),
      rule("a disclaimer of no pack", edited(full, {{"/disclaimers/0/pack", R"("soc2-baseline")"}})),
      // --- range: only the C++ type can tell ---
      range("seq 2^63", edited(full, {{"/results/0/findings/0/location/seq", "9223372036854775808"}})),
      range("summary.rules 2^63", edited(min, {{"/summary/rules", "9223372036854775808"}})),
  };
}

std::vector<sample> finding_corpus() {
  const std::string& full = docs::finding_full;
  const std::string& min = docs::finding_minimal;
  const std::string t1 = sha256_of('1'), t2 = sha256_of('2'), t3 = sha256_of('3');
  const std::string trial = "/method/trial_results/0";
  // No laundered success: the oracle's miss summary is the evidence, the delta is not confirmed.
  const std::string no_success = edited(min, {{"/method/trial_results/0/succeeded", "false"},
                                              {"/method/delta_confirmed", "false"},
                                              {"/stats/by_route/laundered", docs::none_of_one},
                                              {"/stats/success_rate", "0"},
                                              {"/stats/ci_low", "0"},
                                              {"/stats/ci_high", "0.7934506856227626"}});
  // A direct success (trial 0: tool_response, t-encode, m-base64): the delta is not confirmed,
  // whatever the laundered route did, neither overall nor under tool_response.
  const std::string direct_success =
      edited(full, {{"/method/trial_results/0/succeeded", "true"},
                    {"/method/delta_confirmed", "false"},
                    {"/method/delta_confirmed_framings", "[]"},
                    {"/stats/by_route/direct", docs::one_of_two},
                    {"/stats/by_framing/tool_response/direct", docs::one_of_one},
                    {"/stats/by_technique/t-encode/direct", docs::one_of_two},
                    {"/stats/by_mutation/m-base64/direct", docs::one_of_two},
                    {"/stats/technique_mutation_matrix/t-encode/m-base64/direct", docs::one_of_two}});
  // Without the per-label tables: a change to a trial then breaks only the rule it is about.
  const std::string untabled = edited(full, {{"/stats/by_framing", std::nullopt},
                                             {"/stats/by_technique", std::nullopt},
                                             {"/stats/by_mutation", std::nullopt},
                                             {"/stats/technique_mutation_matrix", std::nullopt},
                                             {"/stats/trials_per_framing", std::nullopt}});
  const std::string no_trials = R"({"ci_high":1,"ci_low":0,"success_rate":0,"successes":0,"trials":0})";
  const std::string empty_pair = R"({"direct":)" + no_trials + R"(,"laundered":)" + no_trials + "}";
  const std::string laundered = "/stats/by_technique/t-encode/laundered";
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("pretty", pretty(full)),
      ok("no laundered success", no_success),
      ok("a direct success", direct_success),
      ok("nothing declared: trial labels are free (and there are no per-label tables)",
         edited(untabled, {{"/method/framings", std::nullopt},
                           {"/method/delta_confirmed_framings", std::nullopt},
                           {"/evidence/by_framing", std::nullopt},
                           {"/method/techniques", std::nullopt},
                           {"/method/mutations", std::nullopt},
                           {"/method/trial_results/3/framing", R"("other")"},
                           {"/method/trial_results/3/technique_id", R"("t-other")"},
                           {"/method/trial_results/3/mutation_id", R"("m-other")"}})),
      ok("without the optional method members", edited(untabled, {{"/method/framings", std::nullopt},
                                                                  {"/method/delta_confirmed_framings", std::nullopt},
                                                                  {"/method/case_family", std::nullopt},
                                                                  {"/method/techniques", std::nullopt},
                                                                  {"/method/mutations", std::nullopt},
                                                                  {"/method/hypothesis_binding", std::nullopt},
                                                                  {"/evidence/by_framing", std::nullopt}})),
      ok("hypothesis binding with its id only",
         edited(full, {{"/method/hypothesis_binding", R"({"hypothesis_id":"H-1"})"}})),
      ok("empty lists and maps", edited(full, {{"/method/hypothesis_binding/atlas", "[]"},
                                               {"/evidence/by_framing", "{}"},
                                               {"/stats/robust_across", "{}"},
                                               {"/stats/by_technique", "{}"},
                                               {"/stats/trials_per_framing", "{}"},
                                               {"/stats/technique_mutation_matrix", R"({"t-encode":{}})"}})),
      ok("a trial's observation may be empty", edited(full, {{trial + "/evidence/observed", R"("")"}})),
      ok("two trials with one transcript, listed once",
         edited(full, {{"/method/trial_results/3/transcript_ref", t3},
                       {"/transcript_refs", "[" + t1 + "," + t2 + "," + t3 + "]"}})),
      ok("by_framing keeps any string", edited(full, {{"/evidence/by_framing/user_message", R"("")"}})),
      ok("rates written 1.0 and 0.50",
         replaced(replaced(min, R"("success_rate":1,)", R"("success_rate":1.0,)"), R"("ci_low":0.20654931437723742,)",
                  R"("ci_low":0.206549314377237420,)")),
      ok("Wilson bounds within 1e-12 of the exact ones",
         edited(full, {{laundered + "/ci_low", "0.0945312057350"}, {laundered + "/ci_high", "0.9054687942649"}})),
      ok("a declared framing no trial has", edited(full, {{"/method/framings/2", R"("system_prompt")"},
                                                          {"/stats/by_framing/system_prompt", empty_pair},
                                                          {"/stats/trials_per_framing/system_prompt", "0"}})),
      ok("delta_confirmed_framings left out", edited(full, {{"/method/delta_confirmed_framings", std::nullopt}})),
      ok("delta_confirmed_framings from the trials, without by_framing", untabled),
      ok("framings that differ only in case are two framings",
         edited(full, {{"/method/framings/2", R"("Tool_response")"}})),
      // --- invalid: both reject ---
      bad("schema_version", edited(min, {{"/schema_version", R"("finding-v2")"}}), errc::const_mismatch),
      bad("schema_version a number", edited(min, {{"/schema_version", "1"}}), errc::type_mismatch),
      bad("intent empty", edited(min, {{"/intent", R"("")"}}), errc::too_short),
      bad("intent missing", edited(min, {{"/intent", std::nullopt}}), errc::missing_member),
      bad("method missing", edited(min, {{"/method", std::nullopt}}), errc::missing_member),
      bad("evidence missing", edited(min, {{"/evidence", std::nullopt}}), errc::missing_member),
      bad("stats missing", edited(min, {{"/stats", std::nullopt}}), errc::missing_member),
      bad("transcript_refs missing", edited(min, {{"/transcript_refs", std::nullopt}}), errc::missing_member),
      bad("transcript_refs a string", edited(min, {{"/transcript_refs", t1}}), errc::type_mismatch),
      bad("trial_results empty", edited(min, {{"/method/trial_results", "[]"}}), errc::too_few_items),
      bad("trial_results missing", edited(min, {{"/method/trial_results", std::nullopt}}), errc::missing_member),
      bad("trial_index -1", edited(full, {{trial + "/trial_index", "-1"}}), errc::below_minimum),
      bad("trial_index 0.5", edited(full, {{trial + "/trial_index", "0.5"}}), errc::not_an_integer),
      bad("route", edited(full, {{trial + "/route", R"("sideways")"}}), errc::enum_mismatch),
      bad("succeeded a string", edited(full, {{trial + "/succeeded", R"("no")"}}), errc::type_mismatch),
      bad("succeeded missing", edited(full, {{trial + "/succeeded", std::nullopt}}), errc::missing_member),
      bad("transcript_ref uppercase", edited(full, {{trial + "/transcript_ref", sha256_of('A')}}),
          errc::pattern_mismatch),
      bad("transcript_ref short", edited(full, {{trial + "/transcript_ref", R"("sha256:1111")"}}),
          errc::pattern_mismatch),
      bad("trial evidence missing", edited(full, {{trial + "/evidence", std::nullopt}}), errc::missing_member),
      bad("oracle empty", edited(full, {{trial + "/evidence/oracle", R"("")"}}), errc::too_short),
      bad("observation a number", edited(full, {{trial + "/evidence/observed", "0"}}), errc::type_mismatch),
      bad("trial evidence extra member", edited(full, {{trial + "/evidence/claimed", R"("x")"}}), errc::unknown_member),
      bad("framing empty", edited(full, {{trial + "/framing", R"("")"}}), errc::too_short),
      bad("probe_id empty", edited(full, {{trial + "/probe_id", R"("")"}}), errc::too_short),
      bad("technique_id empty", edited(full, {{trial + "/technique_id", R"("")"}}), errc::too_short),
      bad("mutation_id null", edited(full, {{trial + "/mutation_id", "null"}}), errc::type_mismatch),
      bad("trial extra member", edited(full, {{trial + "/color", R"("red")"}}), errc::unknown_member),
      bad("delta_confirmed a number", edited(full, {{"/method/delta_confirmed", "1"}}), errc::type_mismatch),
      bad("delta_confirmed missing", edited(full, {{"/method/delta_confirmed", std::nullopt}}), errc::missing_member),
      bad("verdict_policy empty", edited(full, {{"/method/verdict_policy", R"("")"}}), errc::too_short),
      bad("verdict_policy missing", edited(full, {{"/method/verdict_policy", std::nullopt}}), errc::missing_member),
      bad("framings a string", edited(full, {{"/method/framings", R"("tool_response")"}}), errc::type_mismatch),
      bad("framing label empty", edited(full, {{"/method/framings/1", R"("")"}}), errc::too_short),
      bad("framing listed twice", edited(full, {{"/method/framings/2", R"("tool_response")"}}), errc::duplicate_item),
      bad("technique listed twice", edited(full, {{"/method/techniques/1", R"("t-encode")"}}), errc::duplicate_item),
      bad("mutation listed twice", edited(full, {{"/method/mutations/1", R"("m-base64")"}}), errc::duplicate_item),
      bad("delta-confirmed framing listed twice",
          edited(full, {{"/method/delta_confirmed_framings/1", R"("tool_response")"}}), errc::duplicate_item),
      bad("framing listed twice, written differently",
          edited(full, {{"/method/framings/2", R"("tool_\u0072esponse")"}}), errc::duplicate_item),
      bad("delta_confirmed_framings label empty", edited(full, {{"/method/delta_confirmed_framings/0", R"("")"}}),
          errc::too_short),
      bad("case_family empty", edited(full, {{"/method/case_family", R"("")"}}), errc::too_short),
      bad("technique label a number", edited(full, {{"/method/techniques/0", "1"}}), errc::type_mismatch),
      bad("mutations null", edited(full, {{"/method/mutations", "null"}}), errc::type_mismatch),
      bad("hypothesis_id missing", edited(full, {{"/method/hypothesis_binding/hypothesis_id", std::nullopt}}),
          errc::missing_member),
      bad("hypothesis_id empty", edited(full, {{"/method/hypothesis_binding/hypothesis_id", R"("")"}}),
          errc::too_short),
      bad("atlas a string", edited(full, {{"/method/hypothesis_binding/atlas", R"("AML.T0051")"}}),
          errc::type_mismatch),
      bad("owasp_asi id empty", edited(full, {{"/method/hypothesis_binding/owasp_asi/0", R"("")"}}), errc::too_short),
      bad("graph_ref empty", edited(full, {{"/method/hypothesis_binding/graph_ref", R"("")"}}), errc::too_short),
      bad("binding extra member (proven)", edited(full, {{"/method/hypothesis_binding/proven", "false"}}),
          errc::unknown_member),
      bad("method extra member", edited(full, {{"/method/seed", "1"}}), errc::unknown_member),
      bad("evidence observed empty", edited(min, {{"/evidence/observed", R"("")"}}), errc::too_short),
      bad("evidence by_framing value a number", edited(full, {{"/evidence/by_framing/user_message", "1"}}),
          errc::type_mismatch),
      bad("evidence extra member", edited(full, {{"/evidence/claimed", R"("x")"}}), errc::unknown_member),
      bad("by_route missing", edited(min, {{"/stats/by_route", std::nullopt}}), errc::missing_member),
      bad("by_route laundered missing", edited(min, {{"/stats/by_route/laundered", std::nullopt}}),
          errc::missing_member),
      bad("by_route a third route", edited(min, {{"/stats/by_route/mixed", "{}"}}), errc::unknown_member),
      bad("route success_rate 1.5", edited(full, {{"/stats/by_route/laundered/success_rate", "1.5"}}),
          errc::above_maximum),
      bad("route ci_low -0.1", edited(full, {{"/stats/by_route/laundered/ci_low", "-0.1"}}), errc::below_minimum),
      bad("route trials -1", edited(full, {{"/stats/by_route/direct/trials", "-1"}}), errc::below_minimum),
      bad("route successes 0.5", edited(full, {{"/stats/by_route/direct/successes", "0.5"}}), errc::not_an_integer),
      bad("route ci_high missing", edited(full, {{"/stats/by_route/direct/ci_high", std::nullopt}}),
          errc::missing_member),
      bad("route stats extra member", edited(full, {{"/stats/by_route/direct/n", "2"}}), errc::unknown_member),
      bad("stats trials -1", edited(full, {{"/stats/trials", "-1"}}), errc::below_minimum),
      bad("stats ci_high 2", edited(full, {{"/stats/ci_high", "2"}}), errc::above_maximum),
      bad("stats success_rate missing", edited(full, {{"/stats/success_rate", std::nullopt}}), errc::missing_member),
      bad("trials_per_framing -2", edited(full, {{"/stats/trials_per_framing/user_message", "-2"}}),
          errc::below_minimum),
      bad("by_framing value not an object", edited(full, {{"/stats/by_framing/user_message", "[]"}}),
          errc::type_mismatch),
      bad("by_mutation cell without direct", edited(full, {{"/stats/by_mutation/m-base64/direct", std::nullopt}}),
          errc::missing_member),
      bad("matrix row not an object", edited(full, {{"/stats/technique_mutation_matrix/t-encode", "1"}}),
          errc::type_mismatch),
      bad("matrix cell trials 1.5",
          edited(full, {{"/stats/technique_mutation_matrix/t-encode/m-base64/direct/trials", "1.5"}}),
          errc::not_an_integer),
      bad("robust_across value a string", edited(full, {{"/stats/robust_across/framing:user_message", R"("no")"}}),
          errc::type_mismatch),
      bad("stats extra member", edited(full, {{"/stats/p_value", "0.05"}}), errc::unknown_member),
      bad("transcript ref sha1", edited(full, {{"/transcript_refs/0", R"("sha1:0123")"}}), errc::pattern_mismatch),
      bad("transcript listed twice", edited(full, {{"/transcript_refs/3", t3}}), errc::duplicate_item),
      bad("unknown top-level member", edited(min, {{"/verdict", R"("confirmed")"}}), errc::unknown_member),
      bad("root array", "[" + min + "]", errc::type_mismatch),
      // --- rules: only the decoder can tell ---
      rule("successes above trials", edited(full, {{"/stats/by_framing/user_message/direct/successes", "2"}})),
      rule("success_rate is not successes / trials",
           edited(full, {{"/stats/by_framing/tool_response/laundered/success_rate", "0.75"}})),
      rule("ci_low not the Wilson bound", edited(full, {{"/stats/by_framing/user_message/direct/ci_low", "0.1"}})),
      rule("ci_high not the Wilson bound",
           edited(full, {{"/stats/by_framing/tool_response/laundered/ci_high", "0.9"}})),
      rule("a Wilson bound rounded to two decimals", edited(full, {{laundered + "/ci_low", "0.09"}})),
      rule("a Wilson bound 2e-12 away", edited(full, {{laundered + "/ci_low", "0.094531205736"}})),
      rule("Wilson bounds rounded, repeated at the top",
           replaced(replaced(min, R"("ci_low":0.20654931437723742,)", R"("ci_low":0.21,)"),
                    R"("ci_low":0.20654931437723742,)", R"("ci_low":0.21,)")),
      rule("a by_technique cell", edited(full, {{"/stats/by_technique/t-encode/laundered/ci_high", "0.4"}})),
      rule("a by_mutation cell", edited(full, {{"/stats/by_mutation/m-base64/direct/successes", "3"}})),
      rule("a matrix cell",
           edited(full, {{"/stats/technique_mutation_matrix/t-encode/m-base64/laundered/success_rate", "0.4"}})),
      rule("no trials: success_rate not 0", edited(min, {{"/stats/by_route/direct/success_rate", "0.5"}})),
      rule("no trials: ci_low not 0", edited(min, {{"/stats/by_route/direct/ci_low", "0.1"}})),
      rule("no trials: ci_high not 1", edited(min, {{"/stats/by_route/direct/ci_high", "0.5"}})),
      rule("framing not declared", edited(untabled, {{"/method/trial_results/0/framing", R"("other")"}})),
      rule("technique not declared", edited(untabled, {{"/method/trial_results/2/technique_id", R"("t-other")"}})),
      rule("mutation not declared", edited(untabled, {{"/method/trial_results/1/mutation_id", R"("m-other")"}})),
      rule("trial_index not the trial's position", edited(full, {{"/method/trial_results/2/trial_index", "5"}})),
      rule("two trials with one trial_index", edited(full, {{"/method/trial_results/1/trial_index", "0"}})),
      rule("delta_confirmed_framings empty", edited(full, {{"/method/delta_confirmed_framings", "[]"}})),
      rule("delta_confirmed_framings with an unconfirmed framing",
           edited(full, {{"/method/delta_confirmed_framings", R"(["tool_response","user_message"])"}})),
      rule("delta_confirmed_framings empty, the trials tell",
           edited(untabled, {{"/method/delta_confirmed_framings", "[]"}})),
      rule("delta_confirmed_framings without framings",
           edited(untabled, {{"/method/framings", std::nullopt}, {"/evidence/by_framing", std::nullopt}})),
      rule("by_framing key not declared", edited(full, {{"/stats/by_framing/other", empty_pair}})),
      rule("trials_per_framing key not declared", edited(full, {{"/stats/trials_per_framing/other", "0"}})),
      rule("evidence.by_framing key not declared", edited(full, {{"/evidence/by_framing/other", R"("x")"}})),
      rule("by_technique key not declared", edited(full, {{"/stats/by_technique/t-other", empty_pair}})),
      rule("by_mutation key not declared", edited(full, {{"/stats/by_mutation/m-other", empty_pair}})),
      rule("matrix row not declared", edited(full, {{"/stats/technique_mutation_matrix/t-other", "{}"}})),
      rule("matrix column not declared",
           edited(full, {{"/stats/technique_mutation_matrix/t-encode/m-other", empty_pair}})),
      rule("a per-label table without its list",
           edited(full, {{"/method/techniques", std::nullopt}, {"/stats/technique_mutation_matrix", std::nullopt}})),
      rule("trials_per_framing miscounted", edited(full, {{"/stats/trials_per_framing/user_message", "3"}})),
      rule("by_framing cell trials miscounted",
           edited(full, {{"/stats/by_framing/tool_response/direct", docs::none_of_two}})),
      rule("by_framing cell successes miscounted",
           edited(full, {{"/stats/by_framing/user_message/direct", docs::one_of_one}})),
      rule("by_technique cell miscounted", edited(full, {{laundered, docs::one_of_one}})),
      rule("by_mutation cell miscounted", edited(full, {{"/stats/by_mutation/m-base64/direct", docs::one_of_two}})),
      rule("matrix cell miscounted",
           edited(full, {{"/stats/technique_mutation_matrix/t-encode/m-base64/laundered", docs::none_of_two}})),
      rule("stats.trials does not repeat the laundered route", edited(full, {{"/stats/trials", "3"}})),
      rule("stats.success_rate does not repeat it", edited(full, {{"/stats/success_rate", "0.6"}})),
      rule("stats.ci_low does not repeat it", edited(full, {{"/stats/ci_low", "0.1"}})),
      rule("stats.ci_high does not repeat it", edited(full, {{"/stats/ci_high", "0.9"}})),
      rule("direct trials miscounted",
           edited(full, {{"/stats/by_route/direct",
                          R"({"ci_high":0.5614970317550455,"ci_low":0,"success_rate":0,"successes":0,"trials":3})"}})),
      rule("laundered successes miscounted",
           edited(untabled, {{"/method/trial_results/3/succeeded", "true"},
                             {"/method/delta_confirmed_framings", R"(["tool_response","user_message"])"}})),
      rule("delta_confirmed false when confirmed", edited(full, {{"/method/delta_confirmed", "false"}})),
      rule("delta_confirmed true after a direct success",
           edited(direct_success, {{"/method/delta_confirmed", "true"}})),
      rule("delta_confirmed true without a laundered success",
           edited(no_success, {{"/method/delta_confirmed", "true"}})),
      rule("transcripts out of trial order", edited(full, {{"/transcript_refs/0", t2}, {"/transcript_refs/1", t1}})),
      rule("a transcript left out", edited(full, {{"/transcript_refs", "[" + t1 + "," + t2 + "," + t3 + "]"}})),
      rule("a transcript no trial has", edited(min, {{"/transcript_refs/1", t1}})),
      // --- range: only the C++ type can tell ---
      range("trial_index 2^63", edited(full, {{trial + "/trial_index", "9223372036854775808"}})),
      range("route trials 2^63",
            edited(full, {{"/stats/by_framing/user_message/direct/trials", "9223372036854775808"}})),
      range("trials_per_framing 2^63",
            edited(full, {{"/stats/trials_per_framing/user_message", "9223372036854775808"}})),
  };
}

std::vector<sample> otel_corpus() {
  const std::string& full = docs::otel_full;
  const std::string& min = docs::otel_minimal;
  const std::string dropped = "/mapping_loss/dropped_attributes/0";
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("pretty", pretty(full)),
      ok("without generated_at", edited(full, {{"/generated_at", std::nullopt}})),
      ok("member pointers with escapes and the empty name",
         edited(full, {{dropped + "/member", R"("/data/a~1b/~0c")"},
                       {"/mapping_loss/dropped_attributes/1/member", R"("/")"}})),
      ok("event ids of a live run (UUIDv7 run id) and of seq 0",
         edited(full, {{dropped + "/event_id", R"("0190c8a2-7b1e-7c3d-9f4e-5a6b7c8d9e0f:12")"},
                       {"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:0")"}})),
      ok("one attribute dropped twice for one event",
         edited(full, {{"/mapping_loss/dropped_attributes/1/event_id", R"("run_8f3a:4")"}})),
      ok("an event type with no unmapped event", edited(min, {{"/mapping_loss/unmapped_events/assay.run.seed", "0"}})),
      ok("every event unmapped", edited(full, {{"/events_read", "3"}})),
      ok("more spans than events", edited(full, {{"/spans_written", "40"}})),
      ok("a sum near the int64 maximum (2^63 - 2048)",
         edited(min, {{"/events_read", "9223372036854773760"},
                      {"/mapping_loss/unmapped_events/a", "4611686018427387904"},
                      {"/mapping_loss/unmapped_events/b", "4611686018427385856"},
                      {"/mapping_loss/totals/unmapped_events", "9223372036854773760"}})),
      // --- invalid: both reject ---
      bad("schema_version", edited(min, {{"/schema_version", R"("otel-export-report-v0")"}}), errc::const_mismatch),
      bad("schema_version missing", edited(min, {{"/schema_version", std::nullopt}}), errc::missing_member),
      bad("generated_at not a date-time", edited(full, {{"/generated_at", R"("now")"}}), errc::format_mismatch),
      bad("semconv_version empty", edited(min, {{"/semconv_version", R"("")"}}), errc::too_short),
      bad("semconv_version missing", edited(min, {{"/semconv_version", std::nullopt}}), errc::missing_member),
      bad("semconv_version a number", edited(min, {{"/semconv_version", "1.37"}}), errc::type_mismatch),
      bad("events_read -1", edited(min, {{"/events_read", "-1"}}), errc::below_minimum),
      bad("events_read 1.5", edited(min, {{"/events_read", "1.5"}}), errc::not_an_integer),
      bad("spans_written missing", edited(min, {{"/spans_written", std::nullopt}}), errc::missing_member),
      bad("spans_written a string", edited(min, {{"/spans_written", R"("0")"}}), errc::type_mismatch),
      bad("mapping_loss missing", edited(min, {{"/mapping_loss", std::nullopt}}), errc::missing_member),
      bad("mapping_loss extra member", edited(min, {{"/mapping_loss/lost", "0"}}), errc::unknown_member),
      bad("dropped_attributes missing", edited(min, {{"/mapping_loss/dropped_attributes", std::nullopt}}),
          errc::missing_member),
      bad("dropped_attributes an object", edited(min, {{"/mapping_loss/dropped_attributes", "{}"}}),
          errc::type_mismatch),
      bad("event_id empty", edited(full, {{dropped + "/event_id", R"("")"}}), errc::pattern_mismatch),
      bad("event_id without seq", edited(full, {{dropped + "/event_id", R"("run_8f3a")"}}), errc::pattern_mismatch),
      bad("event_id with an empty seq", edited(full, {{dropped + "/event_id", R"("run_8f3a:")"}}),
          errc::pattern_mismatch),
      bad("event_id without run id", edited(full, {{dropped + "/event_id", R"(":4")"}}), errc::pattern_mismatch),
      bad("event_id with ':' in the run id", edited(full, {{dropped + "/event_id", R"("run:8f3a:4")"}}),
          errc::pattern_mismatch),
      bad("event_id seq with a leading zero", edited(full, {{dropped + "/event_id", R"("run_8f3a:04")"}}),
          errc::pattern_mismatch),
      bad("event_id seq negative", edited(full, {{dropped + "/event_id", R"("run_8f3a:-4")"}}), errc::pattern_mismatch),
      bad("event_id seq in hex", edited(full, {{dropped + "/event_id", R"("run_8f3a:0x4")"}}), errc::pattern_mismatch),
      bad("event_id with a final newline", edited(full, {{dropped + "/event_id", R"("run_8f3a:4\n")"}}),
          errc::pattern_mismatch),
      bad("member without a leading /", edited(full, {{dropped + "/member", R"("data/arguments")"}}),
          errc::pattern_mismatch),
      bad("member empty (the whole event)", edited(full, {{dropped + "/member", R"("")"}}), errc::pattern_mismatch),
      bad("member with ~2", edited(full, {{dropped + "/member", R"("/data/~2")"}}), errc::pattern_mismatch),
      bad("reason missing", edited(full, {{dropped + "/reason", std::nullopt}}), errc::missing_member),
      bad("reason a number", edited(full, {{dropped + "/reason", "1"}}), errc::type_mismatch),
      bad("dropped attribute extra member", edited(full, {{dropped + "/value", R"("x")"}}), errc::unknown_member),
      bad("unmapped_events an array", edited(min, {{"/mapping_loss/unmapped_events", "[]"}}), errc::type_mismatch),
      bad("unmapped count -1", edited(full, {{"/mapping_loss/unmapped_events/assay.fs.access", "-1"}}),
          errc::below_minimum),
      bad("unmapped count a string", edited(full, {{"/mapping_loss/unmapped_events/assay.fs.access", R"("2")"}}),
          errc::type_mismatch),
      bad("totals missing", edited(min, {{"/mapping_loss/totals", std::nullopt}}), errc::missing_member),
      bad("totals.unmapped_events missing", edited(min, {{"/mapping_loss/totals/unmapped_events", std::nullopt}}),
          errc::missing_member),
      bad("totals.dropped_attributes -1", edited(min, {{"/mapping_loss/totals/dropped_attributes", "-1"}}),
          errc::below_minimum),
      bad("totals extra member", edited(min, {{"/mapping_loss/totals/spans", "0"}}), errc::unknown_member),
      bad("unknown top-level member", edited(min, {{"/traces", "[]"}}), errc::unknown_member),
      bad("root null", "null", errc::type_mismatch),
      // --- rules: only the decoder can tell ---
      rule("totals.dropped_attributes above the list",
           edited(full, {{"/mapping_loss/totals/dropped_attributes", "3"}})),
      rule("a dropped attribute not counted",
           edited(full, {{"/mapping_loss/dropped_attributes/2", R"({"event_id":"e:1",)"
                                                                R"("member":"/m","reason":"r"})"}})),
      rule("totals.unmapped_events not the sum", edited(full, {{"/mapping_loss/totals/unmapped_events", "4"}})),
      rule("an unmapped type left out of the sum",
           edited(full, {{"/mapping_loss/unmapped_events/assay.env.filtered", std::nullopt}})),
      rule("the sum does not fit",
           edited(full, {{"/mapping_loss/unmapped_events/assay.fs.access", "9000000000000000000"},
                         {"/mapping_loss/unmapped_events/assay.env.filtered", "9000000000000000000"}})),
      rule("more events unmapped than read", edited(full, {{"/events_read", "2"}})),
      rule("an unmapped event type with no name", edited(full, {{"/mapping_loss/unmapped_events/", "0"}})),
      // --- range: only the C++ type can tell ---
      range("events_read 2^63", edited(min, {{"/events_read", "9223372036854775808"}})),
      range("unmapped count 2^63",
            edited(full, {{"/mapping_loss/unmapped_events/assay.fs.access", "9223372036854775808"}})),
      range("totals.dropped_attributes 2^63",
            edited(min, {{"/mapping_loss/totals/dropped_attributes", "9223372036854775808"}})),
  };
}

std::vector<sample> dsse_corpus() {
  const std::string& full = docs::dsse_full;
  const std::string sig = "/signatures/0";
  return {
      // --- valid ---
      ok("full", full),
      ok("pretty", pretty(full)),
      ok("URL-safe payload without padding", edited(full, {{"/payload", R"("eyJ4Ijoi-_8")"}})),
      ok("URL-safe payload with padding", edited(full, {{"/payload", R"("eyJ4IjoiP_8=")"}})),
      ok("standard payload with one =", edited(full, {{"/payload", R"("eyJ4IjoiP/8=")"}})),
      ok("standard payload without padding", edited(full, {{"/payload", R"("eyJ4IjoiP/8")"}})),
      ok("two = of padding", edited(full, {{"/payload", R"("eyJ4Ij==")"}})),
      ok("two characters", edited(full, {{"/payload", R"("AA")"}, {sig + "/sig", R"("-_")"}})),
      ok("only letters and digits (either alphabet)", edited(full, {{"/payload", R"("AAAA")"}})),
      ok("two signatures", edited(full, {{"/signatures/1", R"({"keyid":"k2","sig":"AAAA"})"}})),
      ok("keyid empty", edited(full, {{sig + "/keyid", R"("")"}})),
      ok("unknown top-level members of any kind",
         edited(full, {{"/a", "null"}, {"/payloadTypeVersion", "2"}, {"/zz", R"({"x":[1,"y",true]})"}})),
      ok("unknown signature members",
         edited(full, {{sig + "/cert", R"("-----BEGIN CERTIFICATE-----")"}, {sig + "/zz", "[]"}})),
      ok("an unknown member named like the C++ member that keeps them",
         edited(full, {{"/unknown", "{}"}, {sig + "/unknown", "1"}})),
      // --- invalid: both reject ---
      bad("payload empty", edited(full, {{"/payload", R"("")"}}), errc::too_short),
      bad("payload with a space", edited(full, {{"/payload", R"("not base64!")"}}), errc::pattern_mismatch),
      bad("payload with three =", edited(full, {{"/payload", R"("AAAA===")"}}), errc::pattern_mismatch),
      bad("payload only padding", edited(full, {{"/payload", R"("==")"}}), errc::pattern_mismatch),
      bad("payload with = inside", edited(full, {{"/payload", R"("AA=A")"}}), errc::pattern_mismatch),
      bad("payload with a final newline", edited(full, {{"/payload", R"("AAAA\n")"}}), errc::pattern_mismatch),
      bad("payload in two alphabets", edited(full, {{"/payload", R"("ab+-")"}}), errc::pattern_mismatch),
      bad("padded payload in two alphabets", edited(full, {{"/payload", R"("ab/_cd==")"}}), errc::pattern_mismatch),
      bad("sig in two alphabets", edited(full, {{sig + "/sig", R"("MEUCIQDx8n+_wA5a")"}}), errc::pattern_mismatch),
      bad("one character", edited(full, {{"/payload", R"("A")"}}), errc::pattern_mismatch),
      bad("4k + 1 characters", edited(full, {{"/payload", R"("AAAAA")"}}), errc::pattern_mismatch),
      bad("4k + 1 characters in the signature", edited(full, {{sig + "/sig", R"("MEUCIQDx8n-_wA5aB")"}}),
          errc::pattern_mismatch),
      bad("padding after 4k + 1 characters", edited(full, {{"/payload", R"("AAAAA=")"}}), errc::pattern_mismatch),
      bad("two = after three characters", edited(full, {{"/payload", R"("AAA==")"}}), errc::pattern_mismatch),
      bad("one = after two characters", edited(full, {{"/payload", R"("AA=")"}}), errc::pattern_mismatch),
      bad("padding after a full group", edited(full, {{"/payload", R"("AAAA=")"}}), errc::pattern_mismatch),
      bad("payload a number", edited(full, {{"/payload", "5"}}), errc::type_mismatch),
      bad("payload missing", edited(full, {{"/payload", std::nullopt}}), errc::missing_member),
      bad("payloadType empty", edited(full, {{"/payloadType", R"("")"}}), errc::too_short),
      bad("payloadType missing", edited(full, {{"/payloadType", std::nullopt}}), errc::missing_member),
      bad("payloadType null", edited(full, {{"/payloadType", "null"}}), errc::type_mismatch),
      bad("signatures empty", edited(full, {{"/signatures", "[]"}}), errc::too_few_items),
      bad("signatures missing", edited(full, {{"/signatures", std::nullopt}}), errc::missing_member),
      bad("signatures an object", edited(full, {{"/signatures", R"({"keyid":"","sig":"AAAA"})"}}), errc::type_mismatch),
      bad("a signature a string", edited(full, {{sig, R"("AAAA")"}}), errc::type_mismatch),
      bad("sig empty", edited(full, {{sig + "/sig", R"("")"}}), errc::too_short),
      bad("sig not base64", edited(full, {{sig + "/sig", R"("a.b")"}}), errc::pattern_mismatch),
      bad("sig missing", edited(full, {{sig + "/sig", std::nullopt}}), errc::missing_member),
      bad("keyid missing", edited(full, {{sig + "/keyid", std::nullopt}}), errc::missing_member),
      bad("keyid a number", edited(full, {{sig + "/keyid", "1"}}), errc::type_mismatch),
      bad("root array", "[" + full + "]", errc::type_mismatch),
      bad("duplicate unknown member", replaced(full, R"("payload":)", R"("n":1,"n":2,"payload":)"),
          errc::duplicate_member),
      bad("duplicate declared member", replaced(full, R"("payloadType":)", R"("payloadType":"t","payloadType":)"),
          errc::duplicate_member),
  };
}

std::vector<sample> intoto_corpus() {
  const std::string& full = docs::intoto_full;
  const std::string subject = "/subject/0";
  const std::string run = "/predicate/run";
  const std::string other_root = sha256_of('8');
  return {
      // --- valid ---
      ok("full", full),
      ok("pretty", pretty(full)),
      ok("no closure report, packs, mappings or git", edited(full, {{"/predicate/closure_report_digest", std::nullopt},
                                                                    {"/predicate/packs", "[]"},
                                                                    {"/predicate/mappings", "[]"},
                                                                    {run + "/producer/git", R"("")"}})),
      ok("the reference's statement: no artifacts, packs, mappings or closure report",
         edited(full, {{"/predicate/artifacts", std::nullopt},
                       {"/predicate/packs", std::nullopt},
                       {"/predicate/mappings", std::nullopt},
                       {"/predicate/closure_report_digest", std::nullopt}})),
      ok("two packs and two mappings",
         edited(full, {{"/predicate/packs/1",
                        R"({"digest":)" + sha256_of('5') + R"(,"name":"cicd-starter","version":"0.1.0"})"},
                       {"/predicate/mappings/1", R"({"framework":"soc2","ref":"CC7.2","rule":"r"})"}})),
      ok("time window with offsets", edited(full, {{run + "/time_window/start", R"("2023-11-14T23:13:20+01:00")"},
                                                   {run + "/time_window/end", R"("2023-11-14T17:13:51.5-05:00")"}})),
      ok("no events", edited(full, {{run + "/event_count", "0"}})),
      ok("time window of one instant, written two ways",
         edited(full, {{run + "/time_window/start", R"("2023-11-14T23:13:20.50+01:00")"},
                       {run + "/time_window/end", R"("2023-11-14T22:13:20.5Z")"}})),
      ok("time window ordered only by its offsets",
         edited(full, {{run + "/time_window/start", R"("2023-11-15T00:10:00+02:00")"}})),
      ok("schema_version written 1.0", replaced(full, R"("schema_version":1,)", R"("schema_version":1.0,)")),
      // --- invalid: both reject ---
      bad("_type", edited(full, {{"/_type", R"("https://in-toto.io/Statement/v0.1")"}}), errc::const_mismatch),
      bad("_type missing", edited(full, {{"/_type", std::nullopt}}), errc::missing_member),
      bad("type_ (the C++ name)", replaced(full, R"("_type")", R"("type_")"), errc::unknown_member),
      bad("subject empty", edited(full, {{"/subject", "[]"}}), errc::too_few_items),
      bad("two subjects",
          edited(full, {{"/subject/1", R"({"digest":{"sha256":")" + std::string(64, '8') + R"("},"name":"b"})"}}),
          errc::too_many_items),
      bad("subject an object", edited(full, {{"/subject", R"({"digest":{},"name":"n"})"}}), errc::type_mismatch),
      bad("subject name empty", edited(full, {{subject + "/name", R"("")"}}), errc::too_short),
      bad("subject name missing", edited(full, {{subject + "/name", std::nullopt}}), errc::missing_member),
      bad("subject digest with a prefix", edited(full, {{subject + "/digest/sha256", sha256_of('9')}}),
          errc::pattern_mismatch),
      bad("subject digest uppercase",
          edited(full, {{subject + "/digest/sha256", R"(")" + std::string(64, 'A') + R"(")"}}), errc::pattern_mismatch),
      bad("subject digest sha256 missing", edited(full, {{subject + "/digest/sha256", std::nullopt}}),
          errc::missing_member),
      bad("subject digest of another algorithm", edited(full, {{subject + "/digest/sha512", R"("ab")"}}),
          errc::unknown_member),
      bad("subject extra member", edited(full, {{subject + "/uri", R"("file:b.tar.gz")"}}), errc::unknown_member),
      bad("predicateType", edited(full, {{"/predicateType", R"("https://slsa.dev/provenance/v1")"}}),
          errc::const_mismatch),
      bad("predicate missing", edited(full, {{"/predicate", std::nullopt}}), errc::missing_member),
      bad("predicate schema_version 2", edited(full, {{"/predicate/schema_version", "2"}}), errc::above_maximum),
      bad("predicate schema_version 0", edited(full, {{"/predicate/schema_version", "0"}}), errc::below_minimum),
      bad("predicate schema_version a string", edited(full, {{"/predicate/schema_version", R"("1")"}}),
          errc::type_mismatch),
      bad("algorithm", edited(full, {{"/predicate/semantic_equivalence/algorithm", R"("assay-run-root-v2")"}}),
          errc::const_mismatch),
      bad("run_root without prefix",
          edited(full, {{"/predicate/semantic_equivalence/value", R"(")" + std::string(64, '7') + R"(")"}}),
          errc::pattern_mismatch),
      bad("semantic_equivalence missing", edited(full, {{"/predicate/semantic_equivalence", std::nullopt}}),
          errc::missing_member),
      bad("run missing", edited(full, {{run, std::nullopt}}), errc::missing_member),
      bad("run_id empty", edited(full, {{run + "/run_id", R"("")"}}), errc::too_short),
      bad("event_count -1", edited(full, {{run + "/event_count", "-1"}}), errc::below_minimum),
      bad("event_count 1.5", edited(full, {{run + "/event_count", "1.5"}}), errc::not_an_integer),
      bad("producer name empty", edited(full, {{run + "/producer/name", R"("")"}}), errc::too_short),
      bad("producer version missing", edited(full, {{run + "/producer/version", std::nullopt}}), errc::missing_member),
      bad("producer git missing (empty when none)", edited(full, {{run + "/producer/git", std::nullopt}}),
          errc::missing_member),
      bad("producer git null", edited(full, {{run + "/producer/git", "null"}}), errc::type_mismatch),
      bad("time_window start not a date-time", edited(full, {{run + "/time_window/start", R"("2023-11-14 22:13:20")"}}),
          errc::format_mismatch),
      bad("time_window end missing", edited(full, {{run + "/time_window/end", std::nullopt}}), errc::missing_member),
      bad("run extra member", edited(full, {{run + "/seed", "1"}}), errc::unknown_member),
      bad("artifacts manifest short", edited(full, {{"/predicate/artifacts/manifest", R"("sha256:e3b0")"}}),
          errc::pattern_mismatch),
      bad("artifacts events missing", edited(full, {{"/predicate/artifacts/events", std::nullopt}}),
          errc::missing_member),
      bad("artifacts extra member", edited(full, {{"/predicate/artifacts/closure", sha256_of('3')}}),
          errc::unknown_member),
      bad("pack digest short", edited(full, {{"/predicate/packs/0/digest", R"("f47d")"}}), errc::pattern_mismatch),
      bad("pack name empty", edited(full, {{"/predicate/packs/0/name", R"("")"}}), errc::too_short),
      bad("pack version missing", edited(full, {{"/predicate/packs/0/version", std::nullopt}}), errc::missing_member),
      bad("pack extra member", edited(full, {{"/predicate/packs/0/kind", R"("compliance")"}}), errc::unknown_member),
      bad("mapping ref empty", edited(full, {{"/predicate/mappings/0/ref", R"("")"}}), errc::too_short),
      bad("mapping rule missing", edited(full, {{"/predicate/mappings/0/rule", std::nullopt}}), errc::missing_member),
      bad("mapping extra member", edited(full, {{"/predicate/mappings/0/note", R"("x")"}}), errc::unknown_member),
      bad("closure_report_digest empty", edited(full, {{"/predicate/closure_report_digest", R"("")"}}),
          errc::pattern_mismatch),
      bad("closure_report_digest null", edited(full, {{"/predicate/closure_report_digest", "null"}}),
          errc::type_mismatch),
      bad("predicate extra member", edited(full, {{"/predicate/extra", "1"}}), errc::unknown_member),
      bad("unknown top-level member", edited(full, {{"/signature", R"("x")"}}), errc::unknown_member),
      bad("root array", "[]", errc::type_mismatch),
      // --- rules: only the decoder can tell ---
      rule("subject name is not the run_root", edited(full, {{subject + "/name", other_root}})),
      rule("run_root is not the subject name", edited(full, {{"/predicate/semantic_equivalence/value", other_root}})),
      rule("subject name not a digest", edited(full, {{subject + "/name", R"("bundle.tar.gz")"}})),
      rule("time window starts after it ends",
           edited(full, {{run + "/time_window/start", R"("2023-11-14T22:13:52Z")"}})),
      rule("time window starts after it ends, by its offset",
           edited(full, {{run + "/time_window/start", R"("2023-11-14T22:13:20-01:00")"}})),
      rule("time window starts after it ends, beyond nanoseconds",
           edited(full, {{run + "/time_window/start", R"("2023-11-14T22:13:51.2939070001Z")"}})),
      // --- range: only the C++ type can tell ---
      range("event_count 2^63", edited(full, {{run + "/event_count", "9223372036854775808"}})),
  };
}

void check_corpus(const assay::contracts::contract& c, const std::vector<sample>& corpus) {
  const value schema = c.schema();
  evaluator ev(schema);
  std::size_t counts[5] = {0, 0, 0, 0, 0};
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
      case verdict::payload:
        CHECK(schema_ok);  // the envelope's schema leaves data open
        REQUIRE_FALSE(decoded.has_value());
        CHECK(std::string(assay::name(decoded.error().front().code)) == std::string(assay::name(s.code)));
        for (const auto& e : decoded.error())
          CHECK_MESSAGE(e.pointer.rfind("/data", 0) == 0, "error outside data: " << e.format());
        break;
    }
  }
  MESSAGE(c.name << ": " << counts[0] << " valid, " << counts[1] << " invalid, " << counts[2] << " rule-only, "
                 << counts[3] << " range-only, " << counts[4] << " payload-only documents");
}

// evidence-diff-v1 (SPEC §18): a diff with something in every list, and one of two runs that
// did the same things.
std::vector<sample> drift_corpus() {
  const std::string full =
      R"({"schema_version":"soak-drift-v1","generated_at":"2023-11-14T22:13:20Z","assay_version":"0.1.0",)"
      R"("baseline":{"suite":"last-week","generated_at":"2023-11-07T22:13:20Z","seed":5,"iterations":100,"runs":100,)"
      R"("passes":97,"pass_rate":0.97,"pass_rate_ci95":[0.9155,0.9923]},)"
      R"("candidate":{"seed":5,"iterations":100,"runs":100,"passes":91,"pass_rate":0.91,)"
      R"("pass_rate_ci95":[0.8377,0.952]},)"
      R"("difference":{"method":"newcombe-hybrid-score","estimate":-0.06,"ci95":[-0.1349,0.0088]},)"
      R"("verdict":"unchanged","packs_changed":false,)"
      R"("rules":{"p@1:A":{"baseline":0.03,"candidate":0.06},"p@1:C":{"baseline":0,"candidate":0.04}},)"
      R"("new_rules":["p@1:C"],"resolved_rules":[],)"
      R"("infra_errors":{"baseline":{},"candidate":{"time_budget_exceeded":3}}})";
  const std::string min =
      R"({"schema_version":"soak-drift-v1",)"
      R"("baseline":{"seed":0,"iterations":1,"runs":1,"passes":1,"pass_rate":1,"pass_rate_ci95":[0.2065,1]},)"
      R"("candidate":{"seed":0,"iterations":1,"runs":1,"passes":0,"pass_rate":0,"pass_rate_ci95":[0,0.7935]},)"
      R"("difference":{"method":"newcombe-hybrid-score","estimate":-1,"ci95":[-1,0.2]},)"
      R"("verdict":"unchanged","packs_changed":false,"rules":{},"new_rules":[],"resolved_rules":[],)"
      R"("infra_errors":{"baseline":{},"candidate":{}}})";
  return {
      // --- valid ---
      ok("full", full),
      ok("minimal", min),
      ok("regressed", edited(full, {{"/verdict", R"("regressed")"}})),
      ok("improved", edited(full, {{"/verdict", R"("improved")"}})),
      ok("packs changed", edited(full, {{"/packs_changed", "true"}})),
      ok("difference [-1, 1]", edited(full, {{"/difference/ci95", "[-1,1]"}})),
      ok("pretty-printed", assay::json::to_pretty(assay::json::parse(full).value())),
      // --- invalid: both reject ---
      bad("schema_version", edited(full, {{"/schema_version", R"("soak-drift-v2")"}}), errc::const_mismatch),
      bad("method", edited(full, {{"/difference/method", R"("wald")"}}), errc::const_mismatch),
      bad("verdict", edited(full, {{"/verdict", R"("worse")"}}), errc::enum_mismatch),
      bad("estimate below -1", edited(full, {{"/difference/estimate", "-1.5"}}), errc::below_minimum),
      bad("ci95 one item", edited(full, {{"/difference/ci95", "[0]"}}), errc::too_few_items),
      bad("ci95 above 1", edited(full, {{"/difference/ci95", "[0,2]"}}), errc::above_maximum),
      bad("side pass_rate 1.5", edited(full, {{"/baseline/pass_rate", "1.5"}}), errc::above_maximum),
      bad("side runs 0", edited(full, {{"/candidate/runs", "0"}}), errc::below_minimum),
      bad("side passes -1", edited(full, {{"/candidate/passes", "-1"}}), errc::below_minimum),
      bad("side seed -1", edited(full, {{"/baseline/seed", "-1"}}), errc::below_minimum),
      bad("side iterations 1.5", edited(full, {{"/baseline/iterations", "1.5"}}), errc::not_an_integer),
      bad("side suite empty", edited(full, {{"/baseline/suite", R"("")"}}), errc::too_short),
      bad("side interval missing", edited(full, {{"/candidate/pass_rate_ci95", std::nullopt}}), errc::missing_member),
      bad("difference missing", edited(min, {{"/difference", std::nullopt}}), errc::missing_member),
      bad("rule share 2", edited(full, {{"/rules/p@1:A/candidate", "2"}}), errc::above_maximum),
      bad("rule share missing", edited(full, {{"/rules/p@1:A/baseline", std::nullopt}}), errc::missing_member),
      bad("infra count 0", edited(full, {{"/infra_errors/candidate/time_budget_exceeded", "0"}}), errc::below_minimum),
      bad("new_rules not an array", edited(full, {{"/new_rules", R"("p@1:C")"}}), errc::type_mismatch),
      bad("packs_changed string", edited(full, {{"/packs_changed", R"("no")"}}), errc::type_mismatch),
      bad("generated_at date only", edited(full, {{"/generated_at", R"("2023-11-14")"}}), errc::format_mismatch),
      bad("unknown member", edited(full, {{"/x", "1"}}), errc::unknown_member),
      bad("root array", "[]", errc::type_mismatch),
  };
}

std::vector<sample> diff_corpus() {
  const std::string root_a = "sha256:" + std::string(64, 'a'), root_b = "sha256:" + std::string(64, 'b');
  const std::string full =
      R"({"baseline":{"event_count":4,"run_id":"run-a","run_root":")" + root_a +
      R"(","time_range":{"end":"2026-01-01T00:00:03Z","start":"2026-01-01T00:00:00Z"}},)"
      R"("candidate":{"event_count":5,"run_id":"run-b","run_root":")" +
      root_b +
      R"(","time_range":{"end":"2026-01-01T00:00:04Z","start":"2026-01-01T00:00:00+01:00"}},)"
      R"("event_types":[{"baseline":1,"candidate":0,"type":"assay.fs.access"},)"
      R"({"baseline":1,"candidate":2,"type":"assay.net.access"}],)"
      R"("filesystem":{"added":[],"removed":["/etc/hosts"]},)"
      R"("network":{"added":["evil.example.net:443"],"removed":[]},)"
      R"("processes":{"added":["/bin/sh"],"removed":["/bin/bash"]},"schema_version":"evidence-diff-v1",)"
      R"("summary":{"added_in":["network","processes","tools"],"changed":true,"event_count_delta":1},)"
      R"("tools":{"added":["curl"],"decisions_changed":[{"baseline":["allow"],"candidate":["deny"],"tool":"shell"}],)"
      R"("removed":["wget"]}})";
  const std::string same =
      R"({"baseline":{"event_count":2,"run_id":"r1","run_root":")" + root_a +
      R"(","time_range":{"end":"2026-01-01T00:00:01Z","start":"2026-01-01T00:00:00Z"}},)"
      R"("candidate":{"event_count":2,"run_id":"r2","run_root":")" +
      root_b +
      R"(","time_range":{"end":"2026-01-02T00:00:01Z","start":"2026-01-02T00:00:00Z"}},"event_types":[],)"
      R"("filesystem":{"added":[],"removed":[]},"network":{"added":[],"removed":[]},)"
      R"("processes":{"added":[],"removed":[]},"schema_version":"evidence-diff-v1",)"
      R"("summary":{"added_in":[],"changed":false,"event_count_delta":0},)"
      R"("tools":{"added":[],"decisions_changed":[],"removed":[]}})";
  const std::string change = "/tools/decisions_changed/0";
  return {
      // --- valid ---
      ok("full", full),
      ok("two runs that did the same", same),
      ok("pretty", pretty(full)),
      ok("a decision change from none recorded", edited(full, {{change + "/baseline", "[]"}})),
      ok("a decision change to error (the reference's runtime)",
         edited(full, {{change + "/candidate", R"(["deny","error"])"}})),
      ok("a removal alone is a change",
         edited(same, {{"/network/removed", R"(["a:1"])"}, {"/summary/changed", "true"}})),
      ok("a type gone from the candidate",
         edited(same,
                {{"/event_types", R"([{"baseline":3,"candidate":0,"type":"x.y"}])"}, {"/summary/changed", "true"}})),
      // --- invalid: both reject ---
      bad("schema_version", edited(same, {{"/schema_version", R"("evidence-diff-v0")"}}), errc::const_mismatch),
      bad("baseline missing", edited(same, {{"/baseline", std::nullopt}}), errc::missing_member),
      bad("run_root not a digest", edited(same, {{"/baseline/run_root", R"("sha256:abc")"}}), errc::pattern_mismatch),
      bad("run_id empty", edited(same, {{"/candidate/run_id", R"("")"}}), errc::too_short),
      bad("event_count 0", edited(same, {{"/baseline/event_count", "0"}}), errc::below_minimum),
      bad("time_range end not a date-time", edited(same, {{"/baseline/time_range/end", R"("later")"}}),
          errc::format_mismatch),
      bad("time_range as the reference's pair",
          edited(same, {{"/baseline/time_range", R"(["2026-01-01T00:00:00Z","2026-01-01T00:00:01Z"])"}}),
          errc::type_mismatch),
      bad("a decision not one of the four", edited(full, {{change + "/candidate/0", R"("block")"}}),
          errc::enum_mismatch),
      bad("a category not one of the four", edited(full, {{"/summary/added_in/0", R"("net")"}}), errc::enum_mismatch),
      bad("a subject a number", edited(full, {{"/network/added/0", "443"}}), errc::type_mismatch),
      bad("a type count negative", edited(full, {{"/event_types/0/candidate", "-1"}}), errc::below_minimum),
      bad("tools without decisions_changed", edited(same, {{"/tools/decisions_changed", std::nullopt}}),
          errc::missing_member),
      bad("summary.changed a string", edited(same, {{"/summary/changed", R"("no")"}}), errc::type_mismatch),
      bad("unknown top-level member", edited(same, {{"/duration_delta", "null"}}), errc::unknown_member),
      bad("root an array", "[]", errc::type_mismatch),
      // --- rules: only the decoder can tell ---
      rule("event_count_delta not the difference", edited(full, {{"/summary/event_count_delta", "2"}})),
      rule("added subjects out of order", edited(full, {{"/network/added", R"(["z.example:443","a.example:443"])"}})),
      rule("a removed subject twice", edited(full, {{"/filesystem/removed", R"(["/etc/hosts","/etc/hosts"])"}})),
      rule("a decision change that changes nothing", edited(full, {{change + "/candidate", R"(["allow"])"}})),
      rule("decisions listed twice", edited(full, {{change + "/candidate", R"(["deny","deny"])"}})),
      rule("a count change that changes nothing", edited(full, {{"/event_types/0/candidate", "1"}})),
      rule("event types out of order", edited(full, {{"/event_types/1/type", R"("assay.aaa")"}})),
      rule("added_in missing a category with additions", edited(full, {{"/summary/added_in/2", std::nullopt}})),
      rule("added_in naming a category without additions",
           edited(same, {{"/summary/added_in", R"(["network"])"}, {"/summary/changed", "true"}})),
      rule("changed false though something changed", edited(full, {{"/summary/changed", "false"}})),
      rule("changed true though nothing did", edited(same, {{"/summary/changed", "true"}})),
  };
}

std::map<std::string, std::vector<sample> (*)()> corpora() {
  return {
      {"soak-report-v1", &soak_corpus},
      {"closure-v1", &closure_corpus},
      {"evidence-event-v1", &event_corpus},
      {"manifest-v1", &manifest_corpus},
      {"pack-v1", &pack_corpus},
      {"lint-report-v1", &lint_corpus},
      {"finding-v1", &finding_corpus},
      {"dsse-envelope-v1", &dsse_corpus},
      {"intoto-statement-v1", &intoto_corpus},
      {"otel-export-report-v1", &otel_corpus},
      {"evidence-diff-v1", &diff_corpus},
      {"soak-drift-v1", &drift_corpus},
      {"assay.approval.recorded", &approval_recorded_corpus},
      {"assay.env.filtered", &env_filtered_corpus},
      {"assay.fs.access", &fs_access_corpus},
      {"assay.mcp.refused", &mcp_refused_corpus},
      {"assay.mcp.tools_listed", &mcp_tools_listed_corpus},
      {"assay.model.invoked", &model_invoked_corpus},
      {"assay.net.access", &net_access_corpus},
      {"assay.profile.finished", &profile_finished_corpus},
      {"assay.profile.started", &profile_started_corpus},
      {"assay.prompt.lineage", &prompt_lineage_corpus},
      {"assay.run.input", &run_input_corpus},
      {"assay.run.seed", &run_seed_corpus},
      {"assay.sandbox.degraded", &sandbox_degraded_corpus},
      {"assay.tool.call", &tool_call_corpus},
      {"assay.tool.decision", &tool_decision_corpus},
  };
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

TEST_CASE("the evaluator itself: patternProperties, an open object, anyOf") {
  auto schema = assay::json::parse(R"({
    "type": "object", "additionalProperties": false,
    "patternProperties": {"^x-": {"type": "string"}},
    "properties": {"x-n": {"type": "string", "minLength": 2},
                   "o": {"type": "object", "required": ["k"], "properties": {"k": {"type": "integer"}}},
                   "e": {"anyOf": [{"type": "string", "minLength": 1}, {"$ref": "#/$defs/c"}]}},
    "$defs": {"c": {"type": "object", "additionalProperties": false, "required": ["d"],
                    "properties": {"d": {"type": "string"}}}}
  })");
  REQUIRE(schema.has_value());
  evaluator ev(*schema);
  std::string why;
  auto judge = [&](const char* text) { return ev.valid(assay::json::parse(text).value(), why); };
  // patternProperties with additionalProperties false: a matching name is allowed, with the
  // pattern's schema; a declared name that matches is checked by both.
  CHECK(judge(R"({})"));
  CHECK(judge(R"({"x-a":"v","x-":"w"})"));
  CHECK_FALSE(judge(R"({"x-a":1})"));
  CHECK(why == "/x-a: type");
  CHECK_FALSE(judge(R"({"X-a":"v"})"));
  CHECK(why == "/X-a: additionalProperties");
  CHECK_FALSE(judge(R"({"ax-":"v"})"));
  CHECK(why == "/ax-: additionalProperties");
  CHECK(judge(R"({"x-n":"ab"})"));
  CHECK_FALSE(judge(R"({"x-n":"a"})"));
  CHECK(why == "/x-n: minLength");
  CHECK_FALSE(judge(R"({"x-n":12})"));
  CHECK(why == "/x-n: type");
  // No additionalProperties: any other member is allowed; the declared ones are still checked.
  CHECK(judge(R"({"o":{"k":1,"other":[null],"x":{}}})"));
  CHECK_FALSE(judge(R"({"o":{"k":"1","other":1}})"));
  CHECK(why == "/o/k: type");
  CHECK_FALSE(judge(R"({"o":{"other":1}})"));
  CHECK(why == "/o: required k");
  // anyOf: one branch suffices; none is an error at the member itself.
  CHECK(judge(R"({"e":"s"})"));
  CHECK(judge(R"({"e":{"d":"x"}})"));
  CHECK_FALSE(judge(R"({"e":""})"));
  CHECK(why == "/e: anyOf");
  CHECK_FALSE(judge(R"({"e":{"d":"x","z":1}})"));
  CHECK(why == "/e: anyOf");
  CHECK_FALSE(judge(R"({"e":{}})"));
  CHECK_FALSE(judge(R"({"e":1})"));
  CHECK(why == "/e: anyOf");
}

TEST_CASE("the evaluator itself: uniqueItems") {
  auto schema = assay::json::parse(R"({"type": "array", "uniqueItems": true})");
  REQUIRE(schema.has_value());
  evaluator ev(*schema);
  std::string why;
  auto judge = [&](const char* text) { return ev.valid(assay::json::parse(text).value(), why); };
  CHECK(judge(R"([])"));
  CHECK(judge(R"([1,"1",[1],{"a":1},{"a":"1"},null,false,0.5])"));
  CHECK_FALSE(judge(R"(["a","b","a"])"));
  CHECK(why == "/2: uniqueItems");
  CHECK_FALSE(judge(R"([1,1.0])"));
  CHECK(why == "/1: uniqueItems");
  CHECK_FALSE(judge(R"([{"a":1,"b":[2]},{"b":[2],"a":1}])"));
  CHECK_FALSE(judge(R"(["\u00e9","é"])"));
  auto off = assay::json::parse(R"({"type": "array", "uniqueItems": false})");
  REQUIRE(off.has_value());
  evaluator lax(*off);
  CHECK(lax.valid(assay::json::parse(R"([1,1])").value(), why));
}

// Input that is not JSON ("this is not json" starts like the literal true) gets its syntax error
// alone: no type mismatch about a value that does not exist (the CLI's `validate` says "not
// valid JSON" only for a single syntax error, and contracts::is_syntax_error looks at the first).
TEST_CASE("a document that is not JSON is reported by its syntax error alone") {
  for (const auto& c : assay::contracts::all()) {
    CAPTURE(c.name);
    auto r = c.validate("this is not json", {});
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().format());
    CHECK((r.error().size() == 1 && assay::contracts::is_syntax_error(r.error().front().code)));
  }
}
