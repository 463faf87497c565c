// Pack loading without a YAML library (SPEC §10): JSON packs through the strict reader, the
// contract's rules with their exact messages, severities, assay_min_version, the two spellings of
// x-assay, the signal registry, the digest document and the built-in packs.
#include "support.hpp"

#include "assay/contracts/closure.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/builtin_packs.hpp"
#include "assay/lint/explain.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/signals.hpp"

#include <string>
#include <vector>

using assay::errc;
namespace lint = assay::lint;

namespace {

// Replaces the first occurrence of `from` (which must occur) by `to`.
std::string replaced(std::string s, std::string_view from, std::string_view to) {
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
  return s.replace(at, from.size(), to);
}

const std::string base =
    R"({"name":"demo","version":"1.0.0","kind":"security","description":"d","author":"a","license":"l",)"
    R"("requires":{"assay_min_version":">=5.0"},"rules":[{"id":"R1","severity":"error","description":"r",)"
    R"("check":{"type":"event_count","min":1}}]})";

// `base` with the check of its one rule replaced.
std::string with_check(std::string_view check) {
  return replaced(base, R"({"type":"event_count","min":1})", check);
}

const lint::pack_source demo{lint::pack_source::origin::file, "demo.json"};

lint::loaded_pack loads(const std::string& text, const lint::pack_options& opts = {}) {
  auto p = lint::load_pack(text, demo, opts);
  REQUIRE_MESSAGE(p.has_value(), p.error().format());
  return std::move(*p);
}

// Every error as "[code] pointer: message".
std::vector<std::string> errors_of(const std::string& text, const lint::pack_options& opts = {}) {
  auto p = lint::load_pack(text, demo, opts);
  REQUIRE_MESSAGE(!p.has_value(), "loaded: " << text);
  std::vector<std::string> out;
  for (const assay::error& e : p.error()) {
    std::string line = "[";
    line += assay::name(e.code);
    line += "] ";
    line += e.pointer;
    line += ": ";
    line += e.source.empty() ? e.message : e.source + ": " + e.message;  // the file, then the reason
    out.push_back(std::move(line));
  }
  return out;
}

using lines = std::vector<std::string>;

}  // namespace

TEST_CASE("a JSON pack loads: normalized definition, typed checks, canonical rule ids") {
  const lint::loaded_pack p = loads(base);
  CHECK(p.definition.name == "demo");
  CHECK(p.canonical_rule_id("R1") == "demo@1.0.0:R1");
  CHECK(p.source.label() == "demo.json");
  CHECK(p.source.report_value() == "demo.json");
  REQUIRE(p.checks.size() == 1);
  CHECK(p.checks[0].type == lint::check_type::event_count);
  CHECK(p.checks[0].min == 1);
  CHECK(p.digest.size() == 71);
  CHECK(p.digest.substr(0, 7) == "sha256:");
  CHECK(p.requires_signals().empty());
  CHECK_FALSE(p.is_compliance());
}

TEST_CASE("the digest document: every member, nulls for absent optionals, checks as {type, members}") {
  const std::string text = replaced(
      replaced(
          base, R"("check":{"type":"event_count","min":1}}])",
          R"("check":{"type":"event_count","min":1,"note":"ignored"},"tags":["ignored"]},)"
          R"({"id":"R2","severity":"Warn","description":"r2","event_types":["assay.tool.call"],)"
          R"("check":{"type":"event_field_present","any_of":["tool"],"in_data":true}},)"
          R"({"id":"R3","severity":"Info","description":"r3","check":{"type":"manifest_field","path":"/run_id"}},)"
          R"({"id":"R4","severity":"warning","description":"r4","check":{"type":"json_path_exists","paths":["/a"]}},)"
          R"({"id":"R5","severity":"info","description":"r5","check":{"type":"g3_authorization_context_present"}},)"
          R"({"id":"R6","severity":"info","description":"r6","engine_min_version":"2.0",)"
          R"("check":{"type":"reference_exists","target":"x"}}])"),
      R"("license":"l",)", R"("license":"l","source_url":"https://example.org",)");
  const lint::loaded_pack p = loads(text);
  CHECK(assay::json::to_canonical(lint::digest_document(p.definition)).value() ==
        R"({"author":"a","description":"d","disclaimer":null,"kind":"security","license":"l","name":"demo",)"
        R"("requires":{"assay_min_version":">=5.0","evidence_schema_version":null},"rules":[)"
        R"({"article_ref":null,"check":{"min":1,"type":"event_count"},"description":"r",)"
        R"("engine_min_version":null,"event_types":null,"help_markdown":null,"id":"R1","severity":"error"},)"
        R"({"article_ref":null,"check":{"any_of":["tool"],"in_data":true,"paths_any_of":null,)"
        R"("type":"event_field_present"},"description":"r2","engine_min_version":null,)"
        R"("event_types":["assay.tool.call"],"help_markdown":null,"id":"R2","severity":"warning"},)"
        R"({"article_ref":null,"check":{"path":"/run_id","required":false,"type":"manifest_field"},)"
        R"("description":"r3","engine_min_version":null,"event_types":null,"help_markdown":null,"id":"R3",)"
        R"("severity":"info"},)"
        R"({"article_ref":null,"check":{"paths":["/a"],"type":"json_path_exists","value_equals":null},)"
        R"("description":"r4","engine_min_version":null,"event_types":null,"help_markdown":null,"id":"R4",)"
        R"("severity":"warning"},)"
        R"({"article_ref":null,"check":{"type":"g3_authorization_context_present"},"description":"r5",)"
        R"("engine_min_version":null,"event_types":null,"help_markdown":null,"id":"R5","severity":"info"},)"
        R"({"article_ref":null,"check":{"type":"unsupported"},"description":"r6","engine_min_version":"2.0",)"
        R"("event_types":null,"help_markdown":null,"id":"R6","severity":"info"}],)"
        R"("source_url":"https://example.org","version":"1.0.0"})");
  // The loaded definition is normalized the same way.
  CHECK(p.definition.rules[1].severity == "warning");
  CHECK(p.definition.rules[0].ignored.empty());
  CHECK(p.definition.rules[0].check.members.size() == 1);
  CHECK(p.definition.rules[5].check.members.empty());
  CHECK(p.definition.rules[5].check.type == "reference_exists");
  // Typed checks: legacy any_of names become pointers into data.
  CHECK(p.checks[1].paths == std::vector<std::string>{"/data/tool"});
  CHECK(p.checks[1].in_data);
  CHECK(p.checks[2].path == "/run_id");
  CHECK_FALSE(p.checks[2].required);
  CHECK(p.checks[3].paths == std::vector<std::string>{"/a"});
  CHECK(p.checks[3].node.find("value_equals") == nullptr);
  CHECK(p.checks[4].type == lint::check_type::g3_authorization_context_present);
  CHECK(p.checks[5].type == lint::check_type::unsupported);
  CHECK(p.digest == lint::pack_digest(p.definition));
}

TEST_CASE("unknown members of a rule or a check are ignored and take no part in the digest") {
  const std::string plain = loads(base).digest;
  CHECK(loads(replaced(base, R"("min":1})", R"("min":1,"max":9,"pattern":5})")).digest == plain);
  CHECK(loads(replaced(base, R"("description":"r",)", R"("description":"r","tags":{"x":[1]},)")).digest == plain);
  // ... but every member of the format counts.
  CHECK(loads(replaced(base, R"("description":"r",)", R"j("description":"r","article_ref":"12(1)",)j")).digest !=
        plain);
}

TEST_CASE("each severity spelling, normalized") {
  const std::string plain = loads(base).digest;
  for (const auto& spelling_normal : std::vector<std::pair<std::string, std::string>>{{"error", "error"},
                                                                                      {"Error", "error"},
                                                                                      {"warning", "warning"},
                                                                                      {"Warning", "warning"},
                                                                                      {"warn", "warning"},
                                                                                      {"Warn", "warning"},
                                                                                      {"info", "info"},
                                                                                      {"Info", "info"}}) {
    const std::string& spelling = spelling_normal.first;  // not a structured binding: clang 14
    const std::string& normal = spelling_normal.second;   // cannot capture one in CAPTURE's lambda
    CAPTURE(spelling);
    const lint::loaded_pack p = loads(replaced(base, R"("severity":"error")", "\"severity\":\"" + spelling + "\""));
    CHECK(p.definition.rules[0].severity == normal);
    CHECK(lint::name(p.severity_of(p.definition.rules[0])) == normal);
    if (normal == "error")
      CHECK(p.digest == plain);
  }
  CHECK(loads(replaced(base, R"("severity":"error")", R"("severity":"warn")")).digest ==
        loads(replaced(base, R"("severity":"error")", R"("severity":"Warning")")).digest);
  for (const char* bad : {"ERROR", "WARN", "fatal", "", "note"}) {
    CAPTURE(bad);
    CHECK(errors_of(replaced(base, R"("severity":"error")", "\"severity\":\"" + std::string(bad) + "\"")) ==
          lines{"[enum_mismatch] /rules/0/severity: demo.json: \"" + std::string(bad) +
                "\" is not one of \"error\", \"Error\", \"warning\", \"Warning\", \"warn\", \"Warn\", \"info\", "
                "\"Info\""});
  }
  CHECK(lint::parse_severity("Warn") == lint::severity::warning);
  CHECK_FALSE(lint::parse_severity("WARNING").has_value());
  CHECK(lint::severity::info < lint::severity::warning);
  CHECK(lint::severity::warning < lint::severity::error);
}

TEST_CASE("assay_min_version against the pack format of 5.4.0") {
  CHECK(lint::pack_format_version == "5.4.0");
  using v = lint::version;
  CHECK(lint::parse_min_version(">=2.9.0") == v{2, 9, 0});
  CHECK(lint::parse_min_version("2.9") == v{2, 9, 0});
  CHECK(lint::parse_min_version(">=>=1.2.3") == v{1, 2, 3});
  CHECK(lint::parse_min_version("==1.2.3") == v{1, 2, 3});
  CHECK(lint::parse_min_version(">==1.2") == v{1, 2, 0});
  CHECK(lint::parse_min_version("1.2.3-rc.1") == v{1, 2, 3});
  CHECK(lint::parse_min_version("1.2.3.4") == v{1, 2, 3});
  CHECK(lint::parse_min_version("+1.+2.+3") == v{1, 2, 3});
  for (const char* bad :
       {"", ">=", "5", "v1.0", " 1.0", "1.0 ", "=>1.0", "1.2.3+b", "1..2", "1.2.", "1.-2", "4294967296.0", "1.0x"}) {
    CAPTURE(bad);
    CHECK_FALSE(lint::parse_min_version(bad).has_value());
  }
  CHECK(lint::parse_min_version("4294967295.0") == v{4294967295u, 0, 0});

  auto with_version = [](std::string_view required) {
    return replaced(base, R"("assay_min_version":">=5.0")", "\"assay_min_version\":\"" + std::string(required) + "\"");
  };
  for (const char* ok : {">=5.4.0", "5.4", "5.4.0-rc.1", ">=0.4.0", "5.3.99999", "=5.4.0"}) {
    CAPTURE(ok);
    CHECK(lint::load_pack(with_version(ok)).has_value());
  }
  CHECK(errors_of(with_version(">=5.4.1")) ==
        lines{"[unsupported] /requires/assay_min_version: demo.json: the pack requires assay >=5.4.1, above the pack "
              "format this library implements (assay 5.4.0)"});
  CHECK(errors_of(with_version("6.0")) ==
        lines{"[unsupported] /requires/assay_min_version: demo.json: the pack requires assay 6.0, above the pack "
              "format this library implements (assay 5.4.0)"});
  CHECK(errors_of(with_version("latest")) ==
        lines{"[format_mismatch] /requires/assay_min_version: demo.json: requires.assay_min_version \"latest\" is not "
              "a version ([>=]major.minor[.patch]); this library implements the pack format of assay 5.4.0"});
}

TEST_CASE("top-level members: required ones, the name grammar, the disclaimer, unknown members") {
  CHECK(errors_of(replaced(base, R"("author":"a",)", "")) ==
        lines{"[missing_member] /author: demo.json: required member \"author\" is missing"});
  CHECK(errors_of(replaced(base, R"("name":"demo")", R"("name":"Demo_pack")")) ==
        lines{"[pattern_mismatch] /name: demo.json: \"Demo_pack\" does not match the pattern "
              "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"});
  for (const char* bad : {"-demo", "demo-", "", "a.b", "a b"}) {
    CAPTURE(bad);
    CHECK(errors_of(replaced(base, R"("name":"demo")", "\"name\":\"" + std::string(bad) + "\"")).size() == 1);
  }
  for (const char* ok : {"a", "0", "a--b", "eu-ai-act-baseline"}) {
    CAPTURE(ok);
    CHECK(lint::load_pack(replaced(base, R"("name":"demo")", "\"name\":\"" + std::string(ok) + "\"")).has_value());
  }
  CHECK(errors_of(replaced(base, R"("kind":"security")", R"("kind":"Compliance")")) ==
        lines{"[enum_mismatch] /kind: demo.json: \"Compliance\" is not one of \"compliance\", \"security\", "
              "\"quality\""});
  const std::string compliance = replaced(base, R"("kind":"security")", R"("kind":"compliance")");
  CHECK(errors_of(compliance) ==
        lines{"[rule_violation] /disclaimer: demo.json: a compliance pack needs a disclaimer (it may be empty)"});
  CHECK(errors_of(replaced(compliance, R"("license":"l",)", R"("license":"l","disclaimer":null,)")) ==
        lines{"[rule_violation] /disclaimer: demo.json: a compliance pack needs a disclaimer (it may be empty)"});
  CHECK(loads(replaced(compliance, R"("license":"l",)", R"("license":"l","disclaimer":"",)")).is_compliance());
  // Strings may be empty; the version is any string.
  CHECK(lint::load_pack(
            replaced(replaced(base, R"("author":"a")", R"("author":"")"), R"("version":"1.0.0")", R"("version":"")"))
            .has_value());
  CHECK(errors_of(replaced(base, R"("license":"l",)", R"("license":"l","homepage":"https://x",)")) ==
        lines{"[unknown_member] /homepage: demo.json: unknown member \"homepage\" (not allowed here)"});
  CHECK(errors_of(replaced(base, R"("license":"l",)", R"("license":"l","x-vendor":{},)")) ==
        lines{"[unknown_member] /x-vendor: demo.json: unknown member \"x-vendor\" (not allowed here)"});
  CHECK(errors_of(replaced(base, R"(">=5.0"})", R"(">=5.0","os":"linux"})")) ==
        lines{"[unknown_member] /requires/os: demo.json: unknown member \"os\" (not allowed here)"});
  CHECK(errors_of(replaced(base, R"("requires":{"assay_min_version":">=5.0"},)", "")) ==
        lines{"[missing_member] /requires: demo.json: required member \"requires\" is missing"});
  // No rules is a valid pack.
  CHECK(loads(replaced(base, base.substr(base.find("[{")), "[]}")).definition.rules.empty());
}

TEST_CASE("rules: ids, event_types, and the members of each check type") {
  CHECK(errors_of(replaced(base, R"("id":"R1")", R"("id":"")")) ==
        lines{"[too_short] /rules/0/id: demo.json: string is shorter than the minimum length 1"});
  const std::string twice = replaced(base, R"(}}]})",
                                     R"(}},{"id":"R1","severity":"info","description":"x",)"
                                     R"("check":{"type":"event_count","min":2}}]})");
  CHECK(errors_of(twice) == lines{"[rule_violation] /rules/1/id: demo.json: rule id \"R1\" is used twice"});
  CHECK(errors_of(replaced(base, R"("description":"r",)", R"("description":"r","event_types":[],)")) ==
        lines{"[too_few_items] /rules/0/event_types: demo.json: array has 0 items, fewer than the minimum 1"});
  CHECK(errors_of(replaced(base, R"("description":"r",)", R"("description":"r","event_types":[""],)")) ==
        lines{"[too_short] /rules/0/event_types/0: demo.json: string is shorter than the minimum length 1"});
  CHECK(errors_of(with_check(R"({"min":1})")) ==
        lines{"[missing_member] /rules/0/check/type: demo.json: required member \"type\" is missing"});

  struct bad_check {
    const char* check;
    lines errors;
  };
  const std::string c = "[rule_violation] /rules/0/check";
  for (const bad_check& b : std::vector<bad_check>{
           {R"({"type":"event_count"})", {c + "/min: demo.json: event_count requires min"}},
           {R"({"type":"event_count","min":0})", {c + "/min: demo.json: event_count.min must be > 0"}},
           {R"({"type":"event_count","min":-1})",
            {c + "/min: demo.json: event_count.min must be an integer > 0, found -1"}},
           {R"({"type":"event_count","min":1.5})",
            {c + "/min: demo.json: event_count.min must be an integer > 0, found 1.5"}},
           {R"({"type":"event_count","min":1.0})",
            {c + "/min: demo.json: event_count.min must be an integer > 0, found 1.0"}},
           {R"({"type":"event_count","min":1e0})",
            {c + "/min: demo.json: event_count.min must be an integer > 0, found 1e0"}},
           {R"({"type":"event_count","min":"1"})",
            {c + "/min: demo.json: event_count.min must be an integer > 0, found a string"}},
           {R"({"type":"event_count","min":null})", {c + "/min: demo.json: event_count requires min"}},
           {R"({"type":"event_pairs","start_pattern":"a"})",
            {c + "/finish_pattern: demo.json: event_pairs requires finish_pattern"}},
           {R"({"type":"event_pairs","start_pattern":"","finish_pattern":1})",
            {c + "/start_pattern: demo.json: event_pairs.start_pattern cannot be empty",
             c + "/finish_pattern: demo.json: event_pairs.finish_pattern must be a string, found a number"}},
           {R"({"type":"event_type_exists","pattern":""})",
            {c + "/pattern: demo.json: event_type_exists.pattern cannot be empty"}},
           {R"({"type":"event_type_exists","pattern":true})",
            {c + "/pattern: demo.json: event_type_exists.pattern must be a string, found a boolean"}},
           {R"({"type":"manifest_field","path":""})", {c + "/path: demo.json: manifest_field.path cannot be empty"}},
           {R"({"type":"manifest_field","path":"/a","required":"true"})",
            {c + "/required: demo.json: manifest_field.required must be a boolean, found a string"}},
           {R"({"type":"event_field_present"})",
            {c + ": demo.json: event_field_present requires paths_any_of or any_of"}},
           {R"({"type":"event_field_present","paths_any_of":[],"any_of":null})",
            {c + ": demo.json: event_field_present requires paths_any_of or any_of"}},
           {R"({"type":"event_field_present","any_of":["a"],"in_data":null})",
            {c + "/in_data: demo.json: event_field_present.in_data must be a boolean, found null"}},
           {R"({"type":"event_field_present","paths_any_of":["/a",1]})",
            {c + "/paths_any_of/1: demo.json: event_field_present.paths_any_of must be an array of strings, found a "
                 "number at 1"}},
           {R"({"type":"event_field_present","paths_any_of":"/a"})",
            {c + ": demo.json: event_field_present requires paths_any_of or any_of",
             c + "/paths_any_of: demo.json: event_field_present.paths_any_of must be an array of strings, found a "
                 "string"}},
           {R"({"type":"json_path_exists","paths":[]})",
            {c + "/paths: demo.json: json_path_exists.paths cannot be empty"}},
           {R"({"type":"json_path_exists","paths":null})", {c + "/paths: demo.json: json_path_exists requires paths"}},
           {R"({"type":"json_path_exists","paths":["/a","/b"],"value_equals":1})",
            {c + "/value_equals: demo.json: json_path_exists.value_equals requires exactly one path"}},
           {R"({"type":"conditional"})",
            {c + "/condition: demo.json: conditional requires a condition object",
             c + "/then: demo.json: conditional requires a then object"}},
           {R"({"type":"conditional","condition":[],"then":1})",
            {c + "/condition: demo.json: conditional.condition must be an object",
             c + "/then: demo.json: conditional.then must be an object"}},
       }) {
    CAPTURE(b.check);
    CHECK(errors_of(with_check(b.check)) == b.errors);
  }
  // Valid forms, and what is not checked: members a type does not take, any member of an
  // unsupported type, an empty path, value_equals null with two paths (null is absent).
  for (const char* ok : {
           R"({"type":"event_count","min":1,"pattern":5})",
           R"({"type":"event_count","min":9007199254740992})",
           R"({"type":"event_field_present","paths_any_of":[],"any_of":["a"]})",
           R"({"type":"event_field_present","paths_any_of":["/a"],"in_data":false})",
           R"({"type":"json_path_exists","paths":[""]})",
           R"({"type":"json_path_exists","paths":["/a","/b"],"value_equals":null})",
           R"({"type":"json_path_exists","paths":["/a"],"value_equals":{"b":[1,null]}})",
           R"({"type":"conditional","condition":{},"then":{}})",
           R"({"type":"g3_authorization_context_present","min":"x"})",
           R"({"type":"EVENT_COUNT","min":"x"})",
           R"({"type":"","paths":5})",
       }) {
    CAPTURE(ok);
    CHECK(lint::load_pack(with_check(ok)).has_value());
  }
  const lint::loaded_pack ve = loads(with_check(R"({"type":"json_path_exists","paths":["/a"],"value_equals":true})"));
  // What lint compares: the check as written, its scalar with its typing.
  const lint::pack_node* want = ve.checks[0].node.find("value_equals");
  REQUIRE(want != nullptr);
  CHECK(want->is_scalar());
  CHECK(want->text == "true");
  CHECK(want->plain);
  const lint::loaded_pack cond =
      loads(with_check(R"({"type":"conditional","condition":{"all":[{"path":"/data/decision","equals":"allow"}]},)"
                       R"("then":{"type":"json_path_exists","paths":["/data/mandate_id"]}})"));
  CHECK(cond.checks[0].type == lint::check_type::conditional);
  const lint::pack_node* all = cond.checks[0].node.find("condition");
  REQUIRE(all != nullptr);
  REQUIRE(all->find("all") != nullptr);
  REQUIRE(all->find("all")->items.size() == 1);
  CHECK(all->find("all")->items[0].find("equals")->text == "allow");
  const lint::pack_node* then = cond.checks[0].node.find("then");
  REQUIRE(then != nullptr);
  REQUIRE(then->find("paths") != nullptr);
  CHECK(then->find("paths")->items.at(0).text == "/data/mandate_id");
}

TEST_CASE("JSON is read as YAML: string members take the scalar's text, null optionals are absent") {
  const lint::loaded_pack p = loads(replaced(
      replaced(replaced(base, R"("version":"1.0.0")", R"("version":1.0)"), R"("author":"a")", R"("author":null)"),
      R"("license":"l",)", R"("license":true,"source_url":null,)"));
  CHECK(p.definition.version == "1.0");
  CHECK(p.definition.author == "null");
  CHECK(p.definition.license == "true");
  CHECK_FALSE(p.definition.source_url.has_value());
  CHECK(p.canonical_rule_id("R1") == "demo@1.0:R1");
  CHECK(loads(replaced(base, R"("id":"R1")", R"("id":12)")).definition.rules[0].id == "12");
  // The number's text as written, not as a double prints it.
  CHECK(loads(replaced(base, R"("version":"1.0.0")", R"("version":1e3)")).definition.version == "1e3");
  // A check's `type` is a string member too; other check members are typed.
  CHECK(loads(with_check(R"({"type":7})")).checks[0].type == lint::check_type::unsupported);
}

TEST_CASE("duplicate keys are refused at any depth, in members that are otherwise ignored too") {
  CHECK(errors_of(replaced(base, R"("name":"demo",)", R"("name":"demo","name":"other",)")) ==
        lines{"[duplicate_member] /name: demo.json: duplicate key \"name\""});
  CHECK(errors_of(with_check(R"({"type":"event_count","min":1,"min":2})")) ==
        lines{"[duplicate_member] /rules/0/check/min: demo.json: duplicate key \"min\""});
  CHECK(errors_of(replaced(base, R"("description":"r",)", R"("description":"r","x":{"a":1,"\u0061":2},)")) ==
        lines{"[duplicate_member] /rules/0/x/a: demo.json: duplicate key \"a\""});
  // JSON syntax errors come from the strict reader, with their position.
  auto p = lint::load_pack("{\"name\":\n  \"demo\",}", demo);
  REQUIRE_FALSE(p.has_value());
  CHECK(p.error().front().code == errc::unexpected_character);
  CHECK(p.error().front().line == 2);
  CHECK(p.error().front().source == "demo.json");
  CHECK(p.error().front().format().starts_with("demo.json:2:10: "));
}

TEST_CASE("errors carry the position of the member in the pack text") {
  const std::string text =
      "{\n  \"name\": \"demo\", \"version\": \"1\", \"kind\": \"quality\", \"description\": \"\",\n"
      "  \"author\": \"\", \"license\": \"\", \"requires\": {\"assay_min_version\": \"1.0\"},\n"
      "  \"rules\": [\n    {\"id\": \"R1\", \"severity\": \"error\", \"description\": \"\",\n"
      "     \"check\": {\"type\": \"event_count\", \"min\": 0}}\n  ],\n  \"extra\": 1\n}";
  auto p = lint::load_pack(text, demo);
  REQUIRE_FALSE(p.has_value());
  REQUIRE(p.error().size() == 2);
  CHECK(p.error().items[0].format() == "demo.json:6:46: event_count.min must be > 0 (at /rules/0/check/min)");
  CHECK(p.error().items[1].format() == "demo.json:8:3: unknown member \"extra\" (not allowed here) (at /extra)");
}

// Found with fuzz_pack (tests/fuzz/regressions/pack-yaml-quadratic-positions.bin): every node's
// position was counted from the start of the text, so reading took time quadratic in its size
// (here, half a megabyte on one line, minutes). A position after 100,000 nodes, its column in code
// points.
TEST_CASE("a large pack reads in linear time, positions exact after many nodes") {
  std::string notes = R"("description":"r","notes":[)";
  for (int i = 0; i < 100000; ++i)
    notes += "\"\xC3\xA9\",";
  notes += "0],";
  const std::string text = replaced(replaced(base, R"("description":"r",)", notes), R"("min":1)", R"("min":0)");
  REQUIRE(text.size() == 500247);
  auto p = lint::load_pack(text, demo);
  REQUIRE_FALSE(p.has_value());
  REQUIRE(p.error().size() == 1);
  CHECK(p.error().front().code == errc::rule_violation);
  CHECK(p.error().front().format() == "demo.json:1:400243: event_count.min must be > 0 (at /rules/0/check/min)");
}

TEST_CASE("x-assay.requires_signals in both spellings; signals must be registered") {
  const std::string nested =
      replaced(base, R"("rules":)", R"("x-assay":{"requires_signals":["tool_calls","run_inputs"]},"rules":)");
  const std::string flat =
      replaced(base, R"("rules":)", R"("x-assay.requires_signals":["tool_calls","run_inputs"],"rules":)");
  const lint::loaded_pack a = loads(nested), b = loads(flat);
  CHECK(a.digest == b.digest);
  CHECK(a.digest != loads(base).digest);
  CHECK(a.requires_signals() == std::vector<std::string>{"tool_calls", "run_inputs"});
  CHECK(b.requires_signals() == a.requires_signals());
  CHECK_FALSE(b.definition.x_assay_requires_signals.has_value());  // normalized to the object form
  CHECK(assay::json::to_canonical(*lint::digest_document(a.definition).find("x-assay")).value() ==
        R"({"requires_signals":["tool_calls","run_inputs"]})");
  // No signals: no x-assay in the digest, as a reference pack.
  CHECK(loads(replaced(base, R"("rules":)", R"("x-assay":{"requires_signals":[]},"rules":)")).digest ==
        loads(base).digest);
  CHECK(loads(replaced(base, R"("rules":)", R"("x-assay":{},"rules":)")).digest == loads(base).digest);

  CHECK(
      errors_of(replaced(nested, R"("rules":)", R"("x-assay.requires_signals":["tool_calls"],"rules":)")) ==
      lines{"[rule_violation] /x-assay.requires_signals: demo.json: x-assay.requires_signals is given twice: as a key "
            "and inside x-assay"});
  const std::string registered =
      " (registered: environment_posture, human_approvals, model_identity, policy_decisions, prompt_lineage, "
      "rng_seeds, run_inputs, sandbox_posture, tool_calls, tool_io_bodies)";
  CHECK(errors_of(replaced(nested, R"("run_inputs")", R"("ticket_refs")")) ==
        lines{"[enum_mismatch] /x-assay/requires_signals/1: demo.json: unknown signal \"ticket_refs\"" + registered});
  CHECK(errors_of(replaced(flat, R"("run_inputs")", R"("ticket_refs")")) ==
        lines{"[enum_mismatch] /x-assay.requires_signals/1: demo.json: unknown signal \"ticket_refs\"" + registered});
  CHECK(errors_of(replaced(nested, R"("run_inputs")", R"("Run_Inputs")")) ==
        lines{"[pattern_mismatch] /x-assay/requires_signals/1: demo.json: \"Run_Inputs\" does not match the pattern "
              "^[a-z0-9][a-z0-9_.-]*[a-z0-9]$"});
  CHECK(errors_of(replaced(nested, R"({"requires_signals")", R"({"signals":[],"requires_signals")")) ==
        lines{"[unknown_member] /x-assay/signals: demo.json: unknown member \"signals\" (not allowed here)"});

  // A caller's registry extends v0.
  lint::signal_registry reg = lint::signal_registry::v0();
  reg.add({"ticket_refs", {{"acme.ticket.linked", {"/data/ticket"}}}});
  const lint::loaded_pack c = loads(replaced(nested, R"("run_inputs")", R"("ticket_refs")"), {.signals = &reg});
  CHECK(c.requires_signals() == std::vector<std::string>{"tool_calls", "ticket_refs"});
}

TEST_CASE("signal registry v0") {
  const lint::signal_registry& reg = lint::signal_registry::v0();
  std::vector<std::string> names;
  for (const auto& d : reg.all())
    names.push_back(d.name);
  CHECK(names == std::vector<std::string>{"environment_posture", "human_approvals", "model_identity",
                                          "policy_decisions", "prompt_lineage", "rng_seeds", "run_inputs",
                                          "sandbox_posture", "tool_calls", "tool_io_bodies"});
  std::vector<std::pair<std::string, double>> critical;
  double total = 0;
  for (const auto* d : reg.replay_critical()) {
    critical.emplace_back(d->name, d->replay_weight);
    total += d->replay_weight;
  }
  CHECK(critical == std::vector<std::pair<std::string, double>>{
                        {"model_identity", 0.2}, {"rng_seeds", 0.2}, {"run_inputs", 0.3}, {"tool_io_bodies", 0.3}});
  CHECK(total == doctest::Approx(1.0));
  const auto* model = reg.find("model_identity");
  REQUIRE(model != nullptr);
  REQUIRE(model->found_in.size() == 2);
  CHECK(model->found_in[0].event_type == "assay.model.invoked");
  CHECK(model->found_in[0].pointers == std::vector<std::string>{"/data/model"});
  CHECK(model->found_in[1].event_type == "*");
  CHECK(model->found_in[1].pointers == std::vector<std::string>{"/data/gen_ai.request.model"});
  CHECK(reg.find("policy_decisions")->found_in[0].pointers.empty());
  CHECK(reg.find("tool_io_bodies")->found_in[0].pointers ==
        std::vector<std::string>{"/data/arguments", "/data/result"});
  CHECK(reg.find("sandbox_posture")->found_in[0].event_type == "assay.profile.finished");
  CHECK(reg.find("nope") == nullptr);
  // Adding replaces a signal of the same name.
  lint::signal_registry mine = reg;
  mine.add({"rng_seeds", {{"acme.seed"}}, 0.5});
  CHECK(mine.find("rng_seeds")->replay_weight == 0.5);
  CHECK(mine.all().size() == reg.all().size());
}

TEST_CASE("built-in packs load without YAML; replay-readiness requires the replay-critical signals") {
  std::vector<std::string> names;
  for (const lint::builtin_pack& b : lint::builtin_packs())
    names.emplace_back(b.name);
  CHECK(names == std::vector<std::string>{"cicd-starter", "replay-readiness"});
  CHECK(lint::default_pack_name == "cicd-starter");
  CHECK(lint::find_builtin_pack("nope") == nullptr);

  auto builtin = [](std::string_view name) {
    const lint::builtin_pack* b = lint::find_builtin_pack(name);
    REQUIRE(b != nullptr);
    auto p = lint::load_pack(b->text, {lint::pack_source::origin::built_in, std::string(name)});
    REQUIRE_MESSAGE(p.has_value(), p.error().format());
    return std::move(*p);
  };
  const lint::loaded_pack cicd = builtin("cicd-starter");
  CHECK(cicd.source.label() == "built-in pack cicd-starter");
  CHECK(cicd.source.report_value() == "built-in");
  CHECK(cicd.digest == "sha256:3d42ff5434ced5d0aa1f9639daeb7a7e74313783d45143e2c72c6515dbace4cc");
  // The reference's cicd-starter rules under a version of its own (SPEC §10).
  CHECK(cicd.definition.version == "1.0.0+assay");
  std::vector<std::string> ids;
  std::vector<lint::check_type> types;
  for (std::size_t i = 0; i < cicd.checks.size(); ++i) {
    ids.push_back(static_cast<const std::string&>(cicd.definition.rules[i].id));
    types.push_back(cicd.checks[i].type);
  }
  CHECK(ids == std::vector<std::string>{"CICD-001", "CICD-002", "CICD-003", "CICD-004"});
  CHECK(types == std::vector<lint::check_type>{lint::check_type::event_count, lint::check_type::event_pairs,
                                               lint::check_type::event_field_present,
                                               lint::check_type::event_field_present});
  CHECK(cicd.checks[1].start_pattern == "assay.profile.started");
  CHECK(cicd.checks[1].finish_pattern == "assay.profile.finished");
  CHECK(cicd.requires_signals().empty());

  const lint::loaded_pack replay = builtin("replay-readiness");
  CHECK(replay.digest == "sha256:9e8e3cb0a6e71d86a579b265d92d3826faed0ba22852417c37425998085f8a43");
  std::vector<std::string> critical;
  for (const auto* d : lint::signal_registry::v0().replay_critical())
    critical.push_back(d->name);
  CHECK(replay.requires_signals() == critical);
  // Both are valid pack-v1 documents as they are.
  for (const lint::builtin_pack& b : lint::builtin_packs()) {
    auto r = assay::contracts::find("pack-v1")->validate(b.text, {});
    CHECK_MESSAGE(r.has_value(), b.name << ": " << r.error().format());
  }
}

TEST_CASE("explain: a rule found by short or canonical id, described and its help rendered for a terminal") {
  const lint::builtin_pack* b = lint::find_builtin_pack("cicd-starter");
  REQUIRE(b != nullptr);
  auto p = lint::load_pack(b->text, {lint::pack_source::origin::built_in, "cicd-starter"});
  REQUIRE(p.has_value());
  const std::vector<lint::loaded_pack> packs{std::move(*p)};
  const auto by_short = lint::find_rule(packs, "CICD-004");
  const auto by_canonical = lint::find_rule(packs, "cicd-starter@1.0.0+assay:CICD-004");
  REQUIRE(by_short.has_value());
  REQUIRE(by_canonical.has_value());
  CHECK(by_short->index == 3);
  CHECK(by_canonical->index == 3);
  CHECK_FALSE(lint::find_rule(packs, "cicd-starter@1.0.0:CICD-004").has_value());  // the reference's version
  CHECK(lint::describe_rule(packs, *by_short) ==
        "cicd-starter@1.0.0+assay:CICD-004 (info)\n"
        "  Some event names the build that ran (data.build_id or data.version).\n"
        "  pack: cicd-starter@1.0.0+assay (built-in)\n"
        "  check: {\"any_of\":null,\"in_data\":false,\"paths_any_of\":[\"/data/build_id\",\"/data/version\"],"
        "\"type\":\"event_field_present\"}\n"
        "  looks at: every event\n");
  CHECK(
      lint::rule_help(packs, *by_short) ==
      "  help:\n"
      "    CICD-004: build identity\n"
      "    ------------------------\n"
      "\n"
      "    Naming the build that produced the evidence is the first step towards provenance (SLSA-style "
      "attestations).\n"
      "\n"
      "    To fix:\n"
      "    \xE2\x80\xA2 Put `build_id` or `version` in the data of an event, e.g. the run's `assay.profile.started`.\n"
      "    \xE2\x80\xA2 Lint again: `assay evidence lint bundle.tar.gz`\n");
  const auto builtin = lint::find_rule(packs, "ASSAY-W001");
  REQUIRE(builtin.has_value());
  CHECK(lint::describe_rule(packs, *builtin) ==
        "ASSAY-W001 (warning)\n  Subject may contain a secret (API key, token, password pattern)\n"
        "  built-in rule: checked on every event of every bundle\n");
  CHECK(lint::rule_help(packs, *builtin).empty());
  CHECK_FALSE(lint::find_rule(packs, "CICD-999").has_value());

  // Each Markdown construct the renderer knows, and what it leaves alone.
  CHECK(lint::render_markdown_for_terminal("# Top #\n\n\n## Sub **bold**\n> quoted `x`\n>   kept\n"
                                           "- item [link](https://e.x/a)\n  * nested __strong__\n"
                                           "```sh\nrun **this**\n```\n1. numbered\r\n\n") ==
        "  Top\n  ===\n\n  Sub bold\n  --------\n  \xE2\x94\x82 quoted `x`\n  \xE2\x94\x82   kept\n"
        "  \xE2\x80\xA2 item link <https://e.x/a>\n    \xE2\x80\xA2 nested strong\n      run **this**\n"
        "  1. numbered\n");
}

namespace {
struct narrow_ref {  // a pack reference whose version must be digits
  assay::pattern<"^[0-9]+$"> version;
};
}  // namespace

TEST_CASE("ref_of: every report's pack reference filled from the loaded pack, member by member") {
  const lint::builtin_pack* b = lint::find_builtin_pack("cicd-starter");
  REQUIRE(b != nullptr);
  auto p = lint::load_pack(b->text, {lint::pack_source::origin::built_in, "cicd-starter"});
  REQUIRE(p.has_value());
  const std::string digest = "sha256:3d42ff5434ced5d0aa1f9639daeb7a7e74313783d45143e2c72c6515dbace4cc";
  // Each as its report writes it: the members it declares, no more.
  CHECK(assay::encode(lint::ref_of<assay::contracts::lint_v1::pack_ref>(*p).value()).value() ==
        R"({"digest":")" + digest +
            R"(","kind":"quality","name":"cicd-starter","source":"built-in","version":"1.0.0+assay"})");
  CHECK(assay::encode(lint::ref_of<assay::contracts::soak::pack_ref>(*p).value()).value() ==
        R"({"digest":")" + digest +
            R"(","kind":"quality","name":"cicd-starter","source":"built-in","version":"1.0.0+assay"})");
  CHECK(assay::encode(lint::ref_of<assay::contracts::closure_v1::pack_ref>(*p).value()).value() ==
        R"({"digest":")" + digest + R"(","kind":"quality","name":"cicd-starter","version":"1.0.0+assay"})");
  CHECK(assay::encode(lint::ref_of<assay::contracts::intoto_v1::pack_ref>(*p).value()).value() ==
        R"({"digest":")" + digest + R"(","name":"cicd-starter","version":"1.0.0+assay"})");
  // A member the reference type cannot hold is refused with the pack and the member named.
  auto refused = lint::ref_of<narrow_ref>(*p);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == assay::errc::pattern_mismatch);
  CHECK(refused.error().message.rfind("built-in pack cicd-starter: version: ", 0) == 0);
}
