// The lint engine (SPEC §11) over crafted bundles: each check type with its exact outcome and
// message, scoping, the pointer rules, value typing, globs, the conditional subset and its
// unsupported shapes, engine_min_version, unsupported checks by pack kind, the six built-in
// rules, fingerprints and the --max-results cap. JSON packs only (no YAML library needed).
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/report.hpp"
#include "assay/reflect/schema.hpp"

#include <string>
#include <vector>

namespace lint = assay::lint;
namespace json = assay::json;
using assay_test::event;
using assay_test::make_event;

namespace {

// A pack of one kind with the given rules (each a JSON object text).
std::string pack_text(const std::vector<std::string>& rules, std::string_view kind = "security",
                      std::string_view name = "demo") {
  std::string r;
  for (const auto& x : rules)
    r += (r.empty() ? "" : ",") + x;
  return R"({"name":")" + std::string(name) + R"(","version":"1.0.0","kind":")" + std::string(kind) +
         R"(","description":"d","author":"a","license":"l",)" +
         (kind == "compliance" ? R"("disclaimer":"Not legal advice.",)" : "") +
         R"("requires":{"assay_min_version":">=5.0"},"rules":[)" + r + "]}";
}

std::string rule(std::string_view id, std::string_view check, std::string_view extra = "",
                 std::string_view sev = "error") {
  return R"({"id":")" + std::string(id) + R"(","severity":")" + std::string(sev) + R"(","description":"x",)" +
         std::string(extra) + R"("check":)" + std::string(check) + "}";
}

lint::loaded_pack load(const std::string& text) {
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "demo.json"});
  REQUIRE_MESSAGE(p.has_value(), (p ? std::string() : p.error().front().format()));
  return std::move(*p);
}

lint::lint_result run(std::vector<json::value> events, const std::vector<lint::loaded_pack>& packs,
                      lint::lint_options opts = {}) {
  // Packed without the writer's checks: the lint rules look at envelopes and data as other
  // writers make them (unknown envelope members, nulls, payloads shaped for the rules).
  const std::string bytes = assay_test::bundle(assay_test::lines_of(std::move(events)));
  auto l = lint::linter::create(packs, opts);
  REQUIRE(l.has_value());
  auto v = assay::evidence::verify_bundle_bytes(bytes, {}, *l);
  REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
  return l->take();
}

// The one pack rule's result and its finding message ("" when none).
struct outcome_of {
  lint::outcome status;
  std::string message;
  std::string reason;
  std::string severity;
};

outcome_of one_rule(const std::vector<json::value>& events, const std::string& rule_json,
                    std::string_view kind = "security") {
  std::vector<lint::loaded_pack> packs{load(pack_text({rule_json}, kind))};
  const auto r = run(events, packs);
  REQUIRE(r.rules.size() == 7);  // six built-ins and the pack's one
  const lint::rule_result& x = r.rules.back();
  outcome_of out{x.status, "", x.reason, ""};
  for (const auto& f : r.findings)
    if (f.rule == 6) {
      out.message = f.message;
      out.severity = std::string(lint::name(f.level()));
    }
  return out;
}

std::vector<json::value> basic() {
  return {event(0, "assay.profile.started"), event(1, "assay.tool.decision", R"({"tool":"t","decision":"allow"})"),
          event(2, "assay.profile.finished", R"({"n":1,"f":1.5,"s":"1","b":true,"z":null,"a":[1,2]})")};
}

}  // namespace

TEST_CASE("event_count: scoped events against min, with the reference's messages") {
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_count","min":3})")).status == lint::outcome::pass);
  auto o = one_rule(basic(), rule("R", R"({"type":"event_count","min":4})"));
  CHECK(o.status == lint::outcome::violated);
  CHECK(o.message == "Bundle contains 3 events (minimum: 4)");
  CHECK(o.severity == "error");
  o = one_rule(basic(),
               rule("R", R"({"type":"event_count","min":2})", R"("event_types":["assay.tool.decision","x.y"],)"));
  CHECK(o.message == "Scoped events for event_types [assay.tool.decision, x.y] contain 1 events (minimum: 2)");
}

TEST_CASE("event_pairs: existence of each end, in any order, and malformed globs") {
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"*.finished",)"
                                    R"("finish_pattern":"*.started"})"))
            .status == lint::outcome::pass);
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"a.*","finish_pattern":"*.started"})"))
            .message == "Missing start event matching 'a.*'");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"*","finish_pattern":"b"})")).message ==
        "Missing finish event matching 'b'");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"a","finish_pattern":"b"})")).message ==
        "Missing both start (a) and finish (b) events");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"[a","finish_pattern":"b"})")).message ==
        "Invalid start pattern: [a");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_pairs","start_pattern":"*","finish_pattern":"{a"})")).message ==
        "Invalid finish pattern: {a");
  // Scoped: the start is outside the scope.
  CHECK(one_rule(basic(), rule("R",
                               R"({"type":"event_pairs","start_pattern":"*.started",)"
                               R"("finish_pattern":"*.finished"})",
                               R"("event_types":["assay.profile.finished"],)"))
            .message == "Missing start event matching '*.started'");
}

TEST_CASE("globs: *, ?, classes, alternatives, escapes, whole type, case") {
  auto g = [](std::string_view p, std::string_view t) { return lint::glob::compile(p).value().matches(t); };
  CHECK(g("*", ""));
  CHECK(g("a*c", "a/b/c"));
  CHECK(g("assay.?ool.decision", "assay.tool.decision"));
  CHECK_FALSE(g("assay.tool", "assay.tool.decision"));
  CHECK_FALSE(g("Assay.*", "assay.x"));
  CHECK(g("[a-c]x", "bx"));
  CHECK_FALSE(g("[!a-c]x", "bx"));
  CHECK(g("[]]", "]"));
  CHECK(g("x.{started,finished}", "x.finished"));
  CHECK_FALSE(g("x.{started,finished}", "x.start"));
  CHECK(g("a\\*", "a*"));
  CHECK_FALSE(g("a\\*", "ab"));
  CHECK_FALSE(g("?", "\xC3\xA9"));  // `?` is one byte: é is two (SPEC §11)
  CHECK(g("??", "\xC3\xA9"));
  CHECK_FALSE(g("x.?", "x.\xC3\xA9"));
  for (std::string_view bad : {"[a", "{a,b", "{a,{b}}", "a\\", "[z-a]"})
    CHECK(lint::glob::build(bad).status == lint::glob_status::malformed);
}

// The reference's readings of the corner cases (each checked against assay-ref lint; the oracle
// differential in engine_reference.cpp holds a few hundred more).
TEST_CASE("globs: the reference's corner cases") {
  auto g = [](std::string_view p, std::string_view t) { return lint::glob::compile(p).value().matches(t); };
  auto bad = [](std::string_view p) { return lint::glob::build(p).status == lint::glob_status::malformed; };
  // empty alternatives are dropped; a group of empty ones, and a stray `}`, match the empty run
  CHECK(g("x{,a}", "xa"));
  CHECK_FALSE(g("x{,a}", "x"));
  CHECK(g("x{}y", "xy"));
  CHECK(g("x{,}y", "xy"));
  CHECK(g("a}b", "ab"));
  CHECK(g("a,b", "a,b"));
  // classes: `]` first, `-` first or last, `^` as `!`, `\` is itself, a range's end moved by `-x`
  CHECK(bad("[!]"));
  CHECK(g("[!]]", "a"));
  CHECK_FALSE(g("[!]]", "]"));
  CHECK(g("[a-]", "-"));
  CHECK(g("[-a]", "-"));
  CHECK(g("[^a]", "b"));
  CHECK_FALSE(g("[^a]", "a"));
  CHECK(g("[\\]", "\\"));
  CHECK(g("[a-b-d]", "c"));
  CHECK(bad("[a--]"));
  CHECK(bad("["));
  CHECK(bad("[]"));
  // a non-ASCII character in a class is its bytes, each alone
  CHECK(g("[\xC3\xA9]", "\xC3"));
  CHECK(g("[\xC3\xA9][\xC3\xA9]", "\xC3\xA9"));
  CHECK_FALSE(g("[\xC3\xA9]", "\xC3\xA9"));
  CHECK(g("[!a]", "\xC3"));
  // `**`: a run, except alone between separators
  CHECK(g("**", "a/b"));
  CHECK(g("**/a", "a"));
  CHECK(g("**/a", "x/y/a"));
  CHECK_FALSE(g("*/a", "a"));
  CHECK(g("a/**", "a/"));
  CHECK(g("a/**", "a/x/y"));
  CHECK_FALSE(g("a/**", "a"));
  CHECK(g("a/**/b", "a/b"));
  CHECK(g("a/**/b", "a/x/y/b"));
  CHECK_FALSE(g("a/**/b", "ab"));
  CHECK(g("a**b", "ab"));
  CHECK(g("{**/a,b}", "a"));
  // escapes, nesting, unclosed
  CHECK(g("\\{a\\}", "{a}"));
  CHECK(bad("a\\"));
  CHECK(bad("{a,{b,c}}"));
  CHECK(bad("{a"));
  CHECK(g("x*", "x\n"));  // `*` crosses every byte, a line break too
}

// SPEC §10: a glob compiles to at most max_states states, a class being one state whatever its
// length; matching a long subject against the largest globs stays linear.
TEST_CASE("globs: bounded size, a 75,000-character class, linear matching") {
  std::string wide = "[" + std::string(75000, 'x') + "y]";
  for (int i = 0; i < 12; ++i)
    wide += "{a,b}";
  const auto w = lint::glob::build(wide);
  REQUIRE(w.status == lint::glob_status::ok);
  CHECK(w.glob->states() == 1 + 1 + 12 * 3);
  CHECK(w.glob->matches("yabababababab"));
  CHECK_FALSE(w.glob->matches("zabababababab"));
  CHECK(lint::glob::build(std::string(lint::glob::max_states - 1, 'a')).status == lint::glob_status::ok);
  CHECK(lint::glob::build(std::string(lint::glob::max_states, 'a')).status == lint::glob_status::too_large);
  CHECK(lint::glob::build(std::string(5000, '*')).status == lint::glob_status::ok);  // one run
  // malformed wins over too large, as the reference reads the whole glob first
  CHECK(lint::glob::build(std::string(5000, 'a') + "[").status == lint::glob_status::malformed);
  // issue 29's second glob: 4,096 alternatives in the reference's expansion, 760 states here
  std::string p;
  for (int i = 0; i < 12; ++i)
    p += "{a,a}";
  p += "*" + std::string(720, 'a') + "b";
  const auto g = lint::glob::build(p);
  REQUIRE(g.status == lint::glob_status::ok);
  CHECK(g.glob->states() == 760);
  CHECK_FALSE(g.glob->matches(std::string(1000, 'a')));
  CHECK(g.glob->matches(std::string(999, 'a') + "b"));
  CHECK_FALSE(g.glob->matches(std::string(731, 'a') + "b"));  // 12 + 720 a's at least
  CHECK(g.glob->matches(std::string(732, 'a') + "b"));
}

TEST_CASE("event_type_exists") {
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_type_exists","pattern":"assay.tool.*"})")).status ==
        lint::outcome::pass);
  auto o = one_rule(basic(), rule("R", R"({"type":"event_type_exists","pattern":"assay.net.*"})", "", "warning"));
  CHECK(o.message == "No event found matching type pattern 'assay.net.*'");
  CHECK(o.severity == "warning");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_type_exists","pattern":"a[b"})")).message ==
        "Invalid pattern: a[b");
  CHECK(one_rule(basic(), rule("R", R"({"type":"event_type_exists","pattern":"assay.tool.*"})",
                               R"("event_types":["assay.profile.started"],)"))
            .status == lint::outcome::violated);
}

TEST_CASE("event_field_present: paths_any_of, any_of with and without in_data, pointer rules") {
  auto ok = [](std::string_view check) { return one_rule(basic(), rule("R", check)).status == lint::outcome::pass; };
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["/data/tool"]})"));
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["data/tool"]})"));  // leading / added
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":[""]})"));           // the whole event
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["/"]})"));
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["/data/z"]})"));  // null counts as present
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["/data/a/1"]})"));
  CHECK_FALSE(ok(R"({"type":"event_field_present","paths_any_of":["/data/a/2"]})"));
  CHECK_FALSE(ok(R"({"type":"event_field_present","paths_any_of":["/data/a/01"]})"));
  CHECK(ok(R"({"type":"event_field_present","any_of":["decision"],"in_data":true})"));
  CHECK(ok(R"({"type":"event_field_present","any_of":["assayrunid"]})"));
  CHECK(ok(R"({"type":"event_field_present","paths_any_of":["/assaycontenthash"]})"));
  CHECK_FALSE(ok(R"({"type":"event_field_present","paths_any_of":["/subject"]})"));  // absent in make_event
  auto o = one_rule(basic(), rule("R", R"({"type":"event_field_present","any_of":["x","y"],"in_data":true})"));
  CHECK(o.message == "No event contains any of the required fields: /data/x, /data/y");
  // An unknown envelope member is invisible; an optional member written as null is absent.
  auto events = basic();
  events[0].set("extra", "v");
  events[0].set("traceparent", nullptr);
  CHECK(one_rule(events, rule("R", R"({"type":"event_field_present","paths_any_of":["/extra","/traceparent"]})"))
            .status == lint::outcome::violated);
  // ~1 and ~0 in a token
  events[0].set("data", json::parse(R"({"a/b":{"c~d":1}})").value());
  CHECK(one_rule(events, rule("R", R"({"type":"event_field_present","paths_any_of":["/data/a~1b/c~0d"]})")).status ==
        lint::outcome::pass);
}

TEST_CASE("json_path_exists and value_equals typing") {
  auto check = [](std::string_view path, std::string_view value) {
    return one_rule(basic(), rule("R", R"({"type":"json_path_exists","paths":[")" + std::string(path) +
                                           R"("],"value_equals":)" + std::string(value) + "}"));
  };
  CHECK(check("/data/n", "1").status == lint::outcome::pass);
  CHECK(check("/data/n", "1.0").message == "No event has path /data/n equal to 1.0");  // 1 ≠ 1.0
  CHECK(check("/data/f", "1.5").status == lint::outcome::pass);
  CHECK(check("/data/f", "15e-1").status == lint::outcome::pass);
  CHECK(check("/data/f", R"("1.5")").message == R"(No event has path /data/f equal to "1.5")");
  CHECK(check("/data/s", "1").status == lint::outcome::violated);  // "1" ≠ 1
  CHECK(check("/data/s", R"("1")").status == lint::outcome::pass);
  CHECK(check("/data/b", "true").status == lint::outcome::pass);
  CHECK(check("/data/b", R"("true")").message == R"(No event has path /data/b equal to "true")");
  CHECK(check("/data/z", "null").status == lint::outcome::pass);
  CHECK(check("/data/a", "[1,2]").status == lint::outcome::pass);
  CHECK(check("/data/a", "[2,1]").message == "No event has path /data/a equal to [2,1]");
  CHECK(check("/data/decision", R"("allow")").status == lint::outcome::pass);
  CHECK(one_rule(basic(), rule("R", R"({"type":"json_path_exists","paths":["/data/q","/data/r"]})")).message ==
        "No event contains paths: /data/q, /data/r");
  CHECK(lint::literal::float_text(0.5) == "0.5");
  CHECK(lint::literal::float_text(1e20) == "1e20");
  CHECK(lint::literal::float_text(1.5e-7) == "1.5e-7");
  CHECK(lint::literal::float_text(123456.0) == "123456.0");
  CHECK(lint::literal::float_text(0.0001) == "0.0001");
}

TEST_CASE("manifest_field: the manifest as modelled, required or a warning that passes") {
  CHECK(one_rule(basic(), rule("R", R"({"type":"manifest_field","path":"/producer/name"})")).status ==
        lint::outcome::pass);
  CHECK(one_rule(basic(), rule("R", R"({"type":"manifest_field","path":"files/events.ndjson/sha256"})")).status ==
        lint::outcome::pass);
  auto o = one_rule(basic(), rule("R", R"({"type":"manifest_field","path":"/x-assay","required":true})"));
  CHECK(o.status == lint::outcome::violated);
  CHECK(o.message == "Manifest missing field: /x-assay");
  CHECK(o.severity == "error");
  o = one_rule(basic(), rule("R", R"({"type":"manifest_field","path":"/license"})"));
  CHECK(o.status == lint::outcome::pass);
  CHECK(o.message == "Manifest missing field: /license");
  CHECK(o.severity == "warning");
}

TEST_CASE("conditional: the supported subset, located at the first event missing the path") {
  std::vector<json::value> events{event(0, "assay.tool.decision", R"({"decision":"allow","mandate_id":"m"})"),
                                  event(1, "assay.tool.decision", R"({"decision":"allow"})"),
                                  event(2, "assay.tool.decision", R"({"decision":"deny"})"),
                                  event(3, "assay.tool.decision", R"({"decision":"allow"})")};
  const std::string check = R"({"type":"conditional","condition":{"all":[{"path":"/data/decision","equals":"allow"}]},)"
                            R"("then":{"type":"json_path_exists","paths":["/data/mandate_id"]}})";
  std::vector<lint::loaded_pack> packs{load(pack_text({rule("C", check)}))};
  const auto r = run(events, packs);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].message ==
        "3 events matched the condition, but 2 matching events were missing required path: /data/mandate_id");
  REQUIRE(r.findings[0].location.has_value());
  CHECK(r.findings[0].location->seq == 1);
  CHECK(r.findings[0].location->line == 2);
  CHECK(r.findings[0].location->event_type == "assay.tool.decision");
  // Located: the fingerprint hashes "<id>:<seq>:<line>:<digest>".
  CHECK(r.findings[0].fingerprint == "sha256:" + lint::sha256_hex("demo@1.0.0:C:1:2:" + packs[0].digest));
  CHECK(r.findings[0].location_hash == lint::sha256_hex("demo@1.0.0:C:events.ndjson:2:" + packs[0].digest));
  // No matching event: pass.
  CHECK(one_rule({event(0, "a")}, rule("C", check)).status == lint::outcome::pass);
  CHECK(one_rule({event(0, "assay.tool.decision", R"({"decision":"allow"})")}, rule("C", check)).message ==
        "1 event matched the condition, but 1 matching event was missing required path: /data/mandate_id");
}

TEST_CASE("conditional shapes outside the subset: skipped with the reason, or a compliance finding") {
  const std::string p = "Unsupported conditional shape for engine v1.1: ";
  auto reason = [&](std::string_view cond, std::string_view then) {
    auto o = one_rule(basic(), rule("C", R"({"type":"conditional","condition":)" + std::string(cond) + R"(,"then":)" +
                                             std::string(then) + "}"));
    CHECK(o.status == lint::outcome::skipped);
    CHECK(o.message.empty());
    return o.reason;
  };
  const std::string then = R"({"type":"json_path_exists","paths":["/data/x"]})";
  CHECK(reason(R"({"any":[]})", then) == p + "unsupported condition shape: unknown field `any`, expected `all`");
  CHECK(reason(R"({"all":[]})", then) == p + "condition.all must contain at least one clause");
  CHECK(reason(R"({"all":[{"path":"/a"}]})", then) == p + "unsupported condition shape: missing field `equals`");
  CHECK(reason(R"({"all":[{"path":"","equals":1}]})", then) == p + "conditional clause path cannot be empty");
  CHECK(reason(R"({"all":[{"path":"/a","equals":[1]}]})", then) ==
        p + "conditional clause equals must be a JSON scalar or null");
  const std::string cond = R"({"all":[{"path":"/a","equals":null}]})";
  CHECK(reason(cond, R"({"type":"event_count","paths":["/x"]})") == p + "conditional then must use json_path_exists");
  CHECK(reason(cond, R"({"type":"json_path_exists","paths":["/x","/y"]})") ==
        p + "conditional then json_path_exists must contain exactly one required path");
  CHECK(reason(cond, R"({"type":"json_path_exists","paths":[""]})") == p + "conditional then path cannot be empty");
  CHECK(reason(cond, R"({"type":"json_path_exists","paths":["/x"],"min":1})") ==
        p + "unsupported then shape: unknown field `min`, expected one of `type` or `paths`");
  auto o = one_rule(basic(), rule("C", R"({"type":"conditional","condition":{"all":[]},"then":)" + then + "}"),
                    "compliance");
  CHECK(o.status == lint::outcome::violated);
  CHECK(o.message == "Cannot execute rule: " + p +
                         "condition.all must contain at least one clause. Compliance packs require all rules to be "
                         "executable.");
}

TEST_CASE("unknown check types and engine_min_version, by pack kind") {
  auto o = one_rule(basic(), rule("U", R"({"type":"future_check","x":1})"));
  CHECK(o.status == lint::outcome::skipped);
  CHECK(o.reason == "Unknown check type 'unsupported'");
  o = one_rule(basic(), rule("U", R"({"type":"future_check"})", "", "warning"), "compliance");
  CHECK(o.status == lint::outcome::violated);
  CHECK(o.severity == "warning");
  CHECK(o.message ==
        "Cannot execute rule: Unknown check type 'unsupported'. Compliance packs require all rules to be executable.");
  o = one_rule(basic(), rule("V", R"({"type":"event_count","min":1})", R"("engine_min_version":"1.3",)"));
  CHECK(o.status == lint::outcome::skipped);
  CHECK(o.reason == "Rule requires engine v1.3, current is v1.2");
  CHECK(one_rule(basic(), rule("V", R"({"type":"event_count","min":1})", R"("engine_min_version":"1.2",)")).status ==
        lint::outcome::pass);
  CHECK(one_rule(basic(), rule("V", R"({"type":"event_count","min":1})", R"("engine_min_version":"1",)")).status ==
        lint::outcome::skipped);  // unparsable counts as above
  CHECK(lint::engine_satisfies("0.9"));
  CHECK(lint::engine_satisfies("1.2.7"));
  CHECK_FALSE(lint::engine_satisfies("2.0"));
  CHECK_FALSE(lint::engine_satisfies("v1.0"));
}

TEST_CASE("g3_authorization_context_present") {
  auto g3 = [](std::string_view data, std::string_view type = "assay.tool.decision") {
    return one_rule({event(0, type, data)}, rule("G", R"({"type":"g3_authorization_context_present"})")).status ==
           lint::outcome::pass;
  };
  CHECK(g3(R"({"principal":"alice@example.com","auth_scheme":" JWT_Bearer ","auth_issuer":"https://i/"})"));
  CHECK(g3(R"({"principal":"alice","auth_scheme":"oauth2","auth_issuer":"iss"})"));
  CHECK_FALSE(g3(R"({"principal":"alice","auth_scheme":"oauth2","auth_issuer":"iss"})", "assay.tool.call"));
  CHECK_FALSE(g3(R"({"principal":"  ","auth_scheme":"oauth2","auth_issuer":"iss"})"));
  CHECK_FALSE(g3(R"({"principal":"Bearer abc","auth_scheme":"oauth2","auth_issuer":"iss"})"));
  CHECK_FALSE(g3(R"({"principal":"eyJhbGci.eyJzdWIi.c2lnbmF0","auth_scheme":"oauth2","auth_issuer":"iss"})"));
  CHECK(g3(R"({"principal":"eyJhbGci.eyJ.c2lnbmF0","auth_scheme":"oauth2","auth_issuer":"iss"})"));  // part < 4
  CHECK_FALSE(g3(R"({"principal":"a","auth_scheme":"basic","auth_issuer":"iss"})"));
  CHECK_FALSE(g3(R"({"principal":"a","auth_scheme":"oauth2","auth_issuer":""})"));
  CHECK_FALSE(g3(R"({"principal":"a","auth_scheme":"oauth2","auth_issuer":")" + std::string(2049, 'i') + R"("})"));
  CHECK(g3(R"({"principal":"a","auth_scheme":"oauth2","auth_issuer":")" + std::string(2048, 'i') + R"("})"));
  CHECK_FALSE(g3(R"({"principal":"a","auth_scheme":"oauth2"})"));
  CHECK(one_rule({event(0, "x")}, rule("G", R"({"type":"g3_authorization_context_present"})")).message ==
        "No assay.tool.decision event satisfies G3 v1 policy-projected authorization context (principal + allowlisted "
        "auth_scheme + auth_issuer with G3 string discipline).");
}

TEST_CASE("built-in rules, located at their event, with the reference's fingerprints") {
  json::value secret = event(0, "assay.test");
  secret.set("subject", "Authorization: BEARER abc");
  json::value pii = event(1, "assay.test");
  pii.set("subject", "alice");
  pii.set("assaypii", true);
  pii.set("assaysecrets", true);
  json::value src = event(2, "assay.test");
  src.set("subject", "ghp_x");
  src.set("assaysecrets", true);
  std::vector<json::value> events{secret, pii, src};
  for (auto& e : events)
    e.set("source", "urn:x");
  events[2].set("source", "urn:x");
  const auto r = run(events, {});
  REQUIRE(r.findings.size() == 4);
  CHECK(r.findings[0].rule_id == "ASSAY-W001");
  CHECK(r.findings[0].message == "Subject may contain a secret (matched pattern 'Bearer ')");
  CHECK(r.findings[0].fingerprint == "sha256:" + lint::sha256_hex("ASSAY-W001:0:1"));
  CHECK(r.findings[1].rule_id == "ASSAY-W003");
  CHECK(r.findings[1].message == "Subject appears to contain a secret but contains_secrets flag is false");
  CHECK(r.findings[2].rule_id == "ASSAY-W002");
  CHECK(r.findings[2].message == "Event marked as containing PII has a non-empty subject — consider redacting");
  CHECK(r.findings[2].location->seq == 1);
  CHECK(r.findings[2].location->line == 2);
  CHECK(r.findings[3].rule_id == "ASSAY-W001");
  CHECK(r.findings[3].message == "Subject may contain a secret (matched pattern 'ghp_')");
  CHECK(r.rules[0].status == lint::outcome::violated);
  CHECK(r.rules[2].status == lint::outcome::pass);

  std::vector<json::value> plain{event(0, "assay.test")};
  plain[0].set("source", "spiffe://x");
  const auto i = run(plain, {});
  REQUIRE(i.findings.size() == 1);
  CHECK(i.findings[0].message == "Source 'spiffe://x' does not follow urn: or https:// convention");
  CHECK(i.findings[0].level() == lint::severity::info);
}

TEST_CASE("ASSAY-W004 and ASSAY-W005: denied-call observations and retained views") {
  auto observation = [](std::uint64_t seq, std::string_view schema, std::string_view code) {
    return event(seq, "assay.proxy.observed",
                 R"({"schema":")" + std::string(schema) + R"(","caller_visible_error":{"code":)" + std::string(code) +
                     R"(,"origin":"assay-proxy"},"call":{"tool_name":"fs.write","target_digest":"sha256:aa"}})");
  };
  auto decision = [](std::uint64_t seq, std::string_view d, std::string_view extra = "") {
    return event(seq, "assay.enforcement",
                 R"({"schema":"assay.enforcement_decision.v0","tool":{"name":"fs.write"},)"
                 R"("action":{"target_digest":"sha256:aa"},"decision":")" +
                     std::string(d) + "\"" + std::string(extra) + "}");
  };
  auto w004 = [&](std::vector<json::value> events) {
    std::vector<std::string> out;
    for (const auto& f : run(std::move(events), {}).findings)
      out.push_back(f.rule_id + " " + f.message);
    return out;
  };
  CHECK(w004({observation(0, "assay.denied_call_observation.v0", "-32042")}) ==
        std::vector<std::string>{"ASSAY-W004 Denied-call observation for 'fs.write' is not backed by a digest-bound "
                                 "assay.enforcement_decision.v0 deny record"});
  // A deny record later in the bundle binds it.
  CHECK(w004({observation(0, "assay.denied_call_observation.v1", "-31999"), decision(1, "deny")}).empty());
  CHECK(w004({decision(0, "allow"), observation(1, "assay.denied_call_observation.v1", "-31999")}) ==
        std::vector<std::string>{
            "ASSAY-W004 Denied-call observation for 'fs.write' is contradicted by a digest-bound allow record"});
  // Cross-paired code and schema, or a float code, are no marker.
  CHECK(w004({observation(0, "assay.denied_call_observation.v1", "-32042")}).empty());
  CHECK(w004({observation(0, "assay.denied_call_observation.v0", "-32043")}).empty());
  CHECK(w004({decision(0, "allow", R"(,"approval_retained_view":"structured_meta_jcs")")}).empty());
  CHECK(w004({decision(0, "allow", R"(,"approval_retained_view":"blob")")}) ==
        std::vector<std::string>{"ASSAY-W005 Approval basis declares unknown retained view 'blob' — fail-closed: "
                                 "content-review claims cap at incomplete"});
  CHECK(w004({decision(0, "allow", R"(,"approval_retained_view":7)")}) ==
        std::vector<std::string>{"ASSAY-W005 Approval basis declares an empty or non-string retained view — "
                                 "fail-closed: content-review claims cap at incomplete"});
}

TEST_CASE("collisions, duplicates, order and the --max-results cap") {
  const std::string a = pack_text({rule("R1", R"({"type":"event_count","min":9})", "", "info"),
                                   rule("R2", R"({"type":"event_type_exists","pattern":"none"})", "", "error"),
                                   rule("R3", R"({"type":"event_type_exists","pattern":"none2"})", "", "warning")});
  std::vector<lint::loaded_pack> packs{load(a), load(a)};
  auto r = run(basic(), packs);
  CHECK(r.rules.size() == 9);  // the second copy's rules were already run
  REQUIRE(r.findings.size() == 3);
  CHECK(r.findings[0].rule_id == "demo@1.0.0:R1");
  CHECK(r.findings[0].fingerprint == "sha256:" + lint::sha256_hex("demo@1.0.0:R1:global:" + packs[0].digest));
  CHECK(r.findings[0].location_hash == lint::sha256_hex("demo@1.0.0:R1:bundle.tar.gz:1:" + packs[0].digest));
  CHECK(r.highest == lint::severity::error);
  CHECK(r.fails(lint::severity::error));
  CHECK_FALSE(r.fails(std::nullopt));

  r = run(basic(), packs, {.max_results = 2, .bundle_path = "b.tgz"});
  CHECK(r.dropped == 1);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].rule_id == "demo@1.0.0:R2");  // highest severity first
  CHECK(r.findings[1].rule_id == "demo@1.0.0:R3");
  CHECK(r.findings[1].location_hash == lint::sha256_hex("demo@1.0.0:R3:b.tgz:1:" + packs[0].digest));
  CHECK(r.rules[6].status == lint::outcome::violated);  // R1's finding was dropped, not its outcome

  std::vector<lint::loaded_pack> compliance{
      load(pack_text({rule("R1", R"({"type":"event_count","min":1})")})),
      load(pack_text({rule("R1", R"({"type":"event_count","min":1})")}, "compliance"))};
  auto l = lint::linter::create(compliance);
  REQUIRE_FALSE(l.has_value());
  CHECK(l.error().message ==
        "rule \"demo@1.0.0:R1\" is defined by two packs (demo.json and demo.json); a compliance pack's rule ids must "
        "be unique");
}

TEST_CASE("many event types: scope and globs decided once per type, and past the per-type memo") {
  std::vector<json::value> events;
  for (std::uint64_t i = 0; i < 1200; ++i)
    events.push_back(event(i, "t.type" + std::to_string(i)));
  const std::string scoped = R"("event_types":["t.type1100","t.type1150"],)";
  std::vector<lint::loaded_pack> packs{load(pack_text(
      {rule("R1", R"({"type":"event_type_exists","pattern":"t.type1199"})"),
       rule("R2", R"({"type":"event_pairs","start_pattern":"t.type5","finish_pattern":"t.type11?9"})"),
       rule("R3", R"({"type":"event_count","min":2})", scoped), rule("R4", R"({"type":"event_count","min":3})", scoped),
       rule("R5", R"({"type":"event_type_exists","pattern":"t.type1100"})", scoped),
       rule("R6", R"({"type":"event_type_exists","pattern":"t.type5"})", scoped)}))};
  const auto r = run(events, packs);
  REQUIRE(r.rules.size() == 12);
  CHECK(r.rules[6].status == lint::outcome::pass);
  CHECK(r.rules[7].status == lint::outcome::pass);
  CHECK(r.rules[8].status == lint::outcome::pass);
  CHECK(r.rules[9].status == lint::outcome::violated);
  CHECK(r.rules[10].status == lint::outcome::pass);
  CHECK(r.rules[11].status == lint::outcome::violated);
  std::vector<std::string> messages;
  for (const auto& f : r.findings)
    if (f.rule >= 6)
      messages.push_back(f.message);
  CHECK(messages ==
        std::vector<std::string>{"Scoped events for event_types [t.type1100, t.type1150] contain 2 events (minimum: 3)",
                                 "No event found matching type pattern 't.type5'"});
}

TEST_CASE("pointers of several rules in one pass: each finds its own member") {
  std::vector<json::value> events = basic();
  events[1].set("subject", "s");
  events[2].set("assaypolicyid", nullptr);  // null: absent to the reference
  std::vector<lint::loaded_pack> packs{
      load(pack_text({rule("P1", R"({"type":"json_path_exists","paths":["/data/tool"],"value_equals":"t"})"),
                      rule("P2", R"({"type":"json_path_exists","paths":["subject"]})"),
                      rule("P3", R"({"type":"json_path_exists","paths":["/assaypolicyid"]})"),
                      rule("P4", R"({"type":"json_path_exists","paths":["/data/a/1"],"value_equals":2})"),
                      rule("P5", R"({"type":"json_path_exists","paths":["/data/a/2"]})"),
                      rule("P6", R"({"type":"json_path_exists","paths":["/unknown"]})"),
                      rule("P7", R"({"type":"json_path_exists","paths":[""]})"),
                      rule("P8", R"({"type":"json_path_exists","paths":["/data/z"]})")}))};
  const auto r = run(events, packs);
  REQUIRE(r.rules.size() == 14);
  const lint::outcome want[] = {lint::outcome::pass, lint::outcome::pass,     lint::outcome::violated,
                                lint::outcome::pass, lint::outcome::violated, lint::outcome::violated,
                                lint::outcome::pass, lint::outcome::pass};
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(r.rules[6 + i].status == want[i]);
  }
}

TEST_CASE("the report, the text and SARIF of a run") {
  std::vector<lint::loaded_pack> packs{load(pack_text(
      {rule("R1", R"({"type":"event_count","min":9})", "", "warning"), rule("R2", R"({"type":"nope"})", "", "info")}))};
  auto r = run(basic(), packs, {.bundle_path = "/tmp/a b%.tgz"});
  const auto report = lint::make_report(
      r, packs, {.fail_on = lint::severity::warning, .generated_at = "2026-01-01T00:00:00Z", .bundle_path = "x"});
  CHECK(assay::encode(report).has_value());  // the contract's rules hold
  CHECK(report.verdict == "fail");
  CHECK(report.fail_on == "warning");
  CHECK(report.summary.rules.value() == 8);
  CHECK(report.summary.passed.value() == 6);
  CHECK(report.summary.violated.value() == 1);
  CHECK(report.summary.skipped.value() == 1);
  CHECK(*report.results[7].reason == "Unknown check type 'unsupported'");
  CHECK(report.packs[0].source == "demo.json");
  CHECK(report.disclaimers.empty());
  CHECK(lint::make_report(r, packs, {.fail_on = lint::severity::error}).verdict == "pass");
  CHECK(lint::make_report(r, packs, {.fail_on = std::nullopt}).fail_on == "none");
  CHECK(lint::text_report(r, lint::severity::warning) ==
        "warning demo@1.0.0:R1: Bundle contains 3 events (minimum: 9)  [--explain demo@1.0.0:R1]\n"
        "skipped demo@1.0.0:R2: Unknown check type 'unsupported'\n"
        "8 rules: 6 passed, 1 violated, 1 skipped; 1 finding(s); fail-on warning: FAIL\n");
  const std::string sarif_text =
      assay::encode(lint::sarif_log(r, packs, {.tool_version = "9.9", .bundle_path = "/tmp/a b%.tgz"})).value();
  // The log is its contract's: it decodes strictly as contracts::sarif_log and encodes back to the
  // same bytes, and its schema is generated from the type.
  const auto decoded = assay::decode<assay::contracts::sarif_log>(sarif_text);
  REQUIRE(decoded.has_value());
  CHECK(assay::encode(*decoded).value() == sarif_text);
  CHECK(
      json::to_canonical(*json::find(assay::schema<assay::contracts::sarif_log>(), "/properties/$schema/const").value())
          .value() ==
      R"("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")");
  const json::value sarif = json::parse(sarif_text).value();
  const auto at = [&](std::string_view p) { return json::to_canonical(**json::find(sarif, p)).value(); };
  CHECK(at("/version") == R"("2.1.0")");
  CHECK(at("/runs/0/automationDetails/id") == R"("assay-evidence/lint/run-1/9.9")");
  CHECK(at("/runs/0/results/0/ruleId") == R"("demo@1.0.0:R1")");
  CHECK(at("/runs/0/results/0/level") == R"("warning")");
  CHECK(at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri") == R"("file:///tmp/a%20b%25.tgz")");
  CHECK(at("/runs/0/results/0/partialFingerprints/primaryLocationLineHash") ==
        '"' + lint::sha256_hex("demo@1.0.0:R1:/tmp/a b%.tgz:1:" + packs[0].digest) + '"');
  CHECK(at("/runs/0/tool/driver/rules/6/id") == R"("demo@1.0.0:R1")");
  CHECK_FALSE(json::find(sarif, "/runs/0/tool/driver/rules/7").has_value());  // R2 has no finding
  CHECK(lint::sarif_uri("events.ndjson") == "events.ndjson");
  CHECK(lint::sarif_uri("dir/b 1.tar.gz") == "dir/b%201.tar.gz");
  CHECK(lint::sarif_uri("/x/\xC3\xA9#?.tgz") == "file:///x/%C3%A9%23%3F.tgz");
  // No dot segments in a file URI (SARIF1002): a checkout's ../shared/... is written normalized.
  CHECK(lint::sarif_uri("/ci/checkout/../shared/./b.tar.gz") == "file:///ci/shared/b.tar.gz");
  CHECK(lint::sarif_uri("/../a//b/") == "file:///a/b");
  CHECK(lint::sarif_uri("../x/./y/../b.tgz") == "../x/b.tgz");
  CHECK(lint::sarif_uri("a/..") == ".");
  CHECK(lint::sarif_uri("") == "");
}

TEST_CASE("text report: a hostile string stays on its line, escaped by the one sanitizer") {
  // A tool name holding a newline could print a line of its own ("error FAKE@1:X: forged line");
  // ESC, direction overrides, isolates and marks could drive or reorder the terminal.
  const std::pair<std::string, std::string> cases[] = {
      {"a\\nerror FAKE@1:X: forged line", "a\\x0aerror FAKE@1:X: forged line"},
      {"a\\u001b[31mred", "a\\x1b[31mred"},
      {"a\xe2\x80\xae"
       "b",
       "a\\u202eb"},
      {"a\xe2\x81\xa6"
       "b",
       "a\\u2066b"},
      {"a\xe2\x80\x8f"
       "b",
       "a\\u200fb"},
      {"a\\u0085b\\u2028c", "a\\u0085b\\u2028c"},
  };
  for (const auto& c : cases) {
    const std::string& json_text = c.first;
    const std::string& shown = c.second;
    CAPTURE(json_text);
    const auto r = run({event(0, "assay.proxy.observed",
                              R"({"schema":"assay.denied_call_observation.v0","caller_visible_error":{"code":-32042,)"
                              R"("origin":"assay-proxy"},"call":{"tool_name":")" +
                                  json_text + R"(","target_digest":"sha256:aa"}})")},
                       {});
    CHECK(lint::text_report(r, lint::severity::error) ==
          "warning ASSAY-W004 at events.ndjson:1 (seq 0, assay.proxy.observed): Denied-call observation for '" + shown +
              "' is not backed by a digest-bound assay.enforcement_decision.v0 deny record  [--explain ASSAY-W004]\n"
              "6 rules: 5 passed, 1 violated, 0 skipped; 1 finding(s); fail-on error: pass\n");
  }
  // Rule ids from a pack are escaped too.
  std::vector<lint::loaded_pack> packs{load(pack_text({rule("R\\u202e1\\n2", R"({"type":"nope"})")}))};
  const auto r = run(basic(), packs);
  CHECK(lint::text_report(r, std::nullopt) ==
        "skipped demo@1.0.0:R\\u202e1\\x0a2: Unknown check type 'unsupported'\n"
        "7 rules: 6 passed, 0 violated, 1 skipped; 0 finding(s); fail-on none: pass\n");
}

TEST_CASE("value_equals: numbers in messages are printed as written, never rounded or cut; past 64 bits refused") {
  auto message = [](std::string_view value) {
    return one_rule(basic(), rule("R", R"({"type":"json_path_exists","paths":["/data/n"],"value_equals":)" +
                                           std::string(value) + "}"))
        .message;
  };
  // 2^64 - 1 as a double is 2^64, which no 64-bit integer holds (it printed as 0).
  CHECK(message("18446744073709551615") == "No event has path /data/n equal to 18446744073709551615");
  CHECK(message("-9223372036854775808") == "No event has path /data/n equal to -9223372036854775808");
  // Past 64 bits the reference refuses the pack (its JSON values hold no i128/u128), and so do we.
  auto refused = [](std::string_view value) {
    auto p = lint::load_pack(pack_text({rule("R", R"({"type":"json_path_exists","paths":["/data/n"],"value_equals":)" +
                                                      std::string(value) + "}")}),
                             {lint::pack_source::origin::file, "demo.json"});
    REQUIRE_FALSE(p.has_value());
    REQUIRE(p.error().size() == 1);
    const assay::error e = p.error().front();
    return e.source + ": " + e.message;  // the file, then the reason
  };
  CHECK(refused("18446744073709551616") ==
        "demo.json: rules[0].check.value_equals: invalid type: integer `18446744073709551616` as u128, expected any "
        "value (integers run from -2^63 to 2^64 - 1)");
  CHECK(refused("123456789012345678901234567890") ==
        "demo.json: rules[0].check.value_equals: invalid type: integer `123456789012345678901234567890` as u128, "
        "expected any value (integers run from -2^63 to 2^64 - 1)");
  CHECK(refused("[1,-9223372036854775809]") ==
        "demo.json: rules[0].check.value_equals[1]: invalid type: integer `-9223372036854775809` as i128, expected "
        "any value (integers run from -2^63 to 2^64 - 1)");
  CHECK(message("9007199254740993") == "No event has path /data/n equal to 9007199254740993");  // 2^53 + 1
  CHECK(message("[18446744073709551615]") == "No event has path /data/n equal to [18446744073709551615]");
  // Floats keep the reference's form.
  CHECK(message("2.5") == "No event has path /data/n equal to 2.5");
  CHECK(message("1e20") == "No event has path /data/n equal to 1e20");
}

TEST_CASE("SARIF: helpUri only from a source_url that is an absolute URI") {
  CHECK(lint::is_absolute_uri("https://example.com/packs/demo.yaml?x=1#r"));
  CHECK(lint::is_absolute_uri("urn:assay:pack:demo"));
  CHECK(lint::is_absolute_uri("https://example.com/a%20b"));
  CHECK_FALSE(lint::is_absolute_uri("not a uri"));
  CHECK_FALSE(lint::is_absolute_uri("packs/demo.yaml"));
  CHECK_FALSE(lint::is_absolute_uri("https://example.com/a b"));
  CHECK_FALSE(lint::is_absolute_uri("https://example.com/\n"));
  CHECK_FALSE(lint::is_absolute_uri("https://example.com/%2"));
  CHECK_FALSE(lint::is_absolute_uri("https://example.com/\xc3\xa9"));
  CHECK_FALSE(lint::is_absolute_uri("1http://x"));
  CHECK_FALSE(lint::is_absolute_uri(":x"));
  CHECK_FALSE(lint::is_absolute_uri(""));
  auto sarif_of = [](std::string_view source_url) {
    std::string text = pack_text({rule("R1", R"({"type":"event_count","min":9})")});
    text.insert(1, R"("source_url":")" + std::string(source_url) + R"(",)");
    std::vector<lint::loaded_pack> packs{load(text)};
    return json::parse(assay::encode(lint::sarif_log(run(basic(), packs), packs)).value()).value();
  };
  const json::value good = sarif_of("https://example.com/packs/demo.yaml");
  CHECK(json::to_canonical(**json::find(good, "/runs/0/tool/driver/rules/6/helpUri")).value() ==
        R"("https://example.com/packs/demo.yaml")");
  CHECK_FALSE(json::find(good, "/runs/0/invocations/0/toolExecutionNotifications").has_value());
  const json::value bad = sarif_of("not a uri");
  CHECK(json::find(bad, "/runs/0/tool/driver/rules/6/id").has_value());
  CHECK_FALSE(json::find(bad, "/runs/0/tool/driver/rules/6/helpUri").has_value());
  CHECK(json::to_canonical(**json::find(bad, "/runs/0/invocations/0/toolExecutionNotifications")).value() ==
        R"([{"descriptor":{"id":"ASSAY-LINT-HELPURI"},"level":"note","message":{"text":"pack demo@1.0.0: its )"
        R"(source_url is not an absolute URI, so its rules have no helpUri"}}])");
}
