// Privacy classes and redaction (SPEC §9), and the P56b tool-definition digest (SPEC §8).
#include "support.hpp"

#include "assay/contracts/event.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/tool_definition.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <string>
#include <utility>
#include <vector>

namespace json = assay::json;
namespace ev = assay::evidence;
namespace contracts = assay::contracts;
using assay::errc;

// A payload with every privacy class (test-only; outside an anonymous namespace for clang 14).
namespace redact_test {
struct nested {
  std::string path;
  std::string note;
  static constexpr assay::field_info assay_fields[] = {{.field = "path", .privacy = assay::privacy::sensitive}};
};
struct payload {
  static constexpr std::string_view event_type = "test.redact";
  std::string label;
  std::string command;
  std::optional<std::string> api_secret{};
  std::optional<std::string> email{};
  std::optional<json::value> blob{};
  std::vector<nested> items;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "command", .privacy = assay::privacy::sensitive},
      {.field = "api_secret", .privacy = assay::privacy::forbidden_secret},
      {.field = "email", .privacy = assay::privacy::forbidden_pii},
      {.field = "blob", .privacy = assay::privacy::forbidden_secret},
  };
};
}  // namespace redact_test

namespace {

std::string redacted(std::string_view s) {
  ev::redaction r;
  return ev::redact_string(s, r);
}

json::value parse(std::string_view text) {
  auto v = json::parse(text);
  REQUIRE_MESSAGE(v.has_value(), text);
  return *v;
}

std::string canonical(const json::value& v) {
  return json::to_canonical(v).value();
}

}  // namespace

// A typed event of payload P with the envelope every test here shares, its data default.
template <class P>
contracts::evidence_event<P> typed_event(std::string type) {
  contracts::evidence_event<P> e;
  e.type = std::move(type);
  e.source = "urn:test";
  e.id = "r:0";
  e.time = "2026-01-01T00:00:00Z";
  e.assayrunid = "r";
  e.assayseq = 0;
  e.assayproducer = "p";
  e.assayproducerversion = "1";
  return e;
}

TEST_CASE("secret markers: every marker, case-insensitive, cut after the marker") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Authorization: Bearer abc.def", "Authorization: Bearer ***"},
      {"AUTHORIZATION: BEARER abc", "AUTHORIZATION: BEARER ***"},
      {"authorization: Basic dXNlcjpwYXNz", "authorization: ***"},
      {"https://x/?token=abc&b=1", "https://x/?token=***"},
      {"TOKEN=abc", "TOKEN=***"},
      {"key=v1", "key=***"},
      {"Key=v1 more", "Key=***"},
      {"curl -H 'Bearer xyz'", "curl -H 'Bearer ***"},
      {"api_key=123", "api_key=***"},
      {"APIKEY=123", "APIKEY=***"},
      {"secret=s3", "secret=***"},
      {"Password=hunter2 tail", "Password=***"},
      {"session=abc", "session=***"},
      {"Cookie=a=b", "Cookie=***"},
      {"X-Api-Key: 123", "X-Api-Key:***"},
      {"x-token: 9", "x-token:***"},
      {"--token=xyz", "--token=***"},
      {"run --my-api-token=xyz --v", "run --my-api-token=***"},
      {"--db_password=pw", "--db_password=***"},
      {"--Client-Secret=abc", "--Client-Secret=***"},
      {"--signing-key=abc", "--signing-key=***"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.first);
    CHECK(redacted(c.first) == c.second);
  }
  // First match in list order wins: "token=" comes before "password=".
  CHECK(redacted("password=a token=b") == "password=a token=***");
  // Nothing secret: unchanged.
  for (std::string_view s : {"--verbose", "--name=x", "plain text", "keys are here", "tokenless"})
    CHECK(redacted(s) == s);
  CHECK_FALSE(ev::cut_secret("--output=file").has_value());
}

TEST_CASE("home paths on Linux, macOS and Windows become ~/**/<last component>") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/home/alice/projects/app/main.rs", "~/**/main.rs"},
      {"/home/alice/.ssh/", "~/**/.ssh"},
      {"/Users/bob/Library/notes.txt", "~/**/notes.txt"},
      {"/root/.bashrc", "~/**/.bashrc"},
      {"C:\\Users\\Carol\\Documents\\report.pdf", "~/**/report.pdf"},
      {"c:\\users\\carol\\x.txt", "~/**/x.txt"},
      {"D:/Users/dave/src/a.cpp", "~/**/a.cpp"},
      {"open /home/alice/a.txt and /Users/bob/b.txt", "open ~/**/a.txt and ~/**/b.txt"},
      {"--config=/home/alice/.cfg", "--config=~/**/.cfg"},
      {"\"/home/eve/f\"", "\"~/**/f\""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.first);
    CHECK(redacted(c.first) == c.second);
  }
  // Not under a home directory, or the home directory itself: unchanged.
  for (std::string_view s : {"/usr/bin/env", "/home", "/home/alice", "/home/alice/", "/var/home/x/y", "/tmp/home/a/b",
                             "C:\\Program Files\\x.exe", "relative/home/a/b"})
    CHECK(redacted(s) == s);
  std::size_t n = 0;
  CHECK(ev::generalize_home_paths("/home/a/x /root/y", n) == "~/**/x ~/**/y");
  CHECK(n == 2);
}

TEST_CASE("a typed payload: public kept, sensitive generalized, forbidden dropped and flagged") {
  json::value data = parse(R"({"label":"/home/alice/keep","command":"deploy --token=abc","api_secret":"s",
      "email":"a@b.c","blob":{"k":1},"items":[{"path":"/home/alice/w/x.txt","note":"/home/alice/n"}]})");
  const auto r = ev::redact_payload<redact_test::payload>(data);
  CHECK(
      canonical(data) ==
      R"({"command":"deploy --token=***","items":[{"note":"/home/alice/n","path":"~/**/x.txt"}],"label":"/home/alice/keep"})");
  CHECK(r.secrets == 1);
  CHECK(r.paths == 1);
  CHECK(r.dropped == 3);
  CHECK(r.committed == 0);
  CHECK(r.set_secrets);
  CHECK(r.set_pii);
}

TEST_CASE("commitments replace forbidden values that can hold one") {
  json::value data = parse(R"({"label":"l","command":"c","api_secret":"s","blob":{"k":1},"items":[]})");
  ev::redact_options opt;
  opt.commitments = true;
  const auto r = ev::redact_payload<redact_test::payload>(data, opt);
  // blob (any JSON) takes a commitment over the canonical bytes {"k":1}; api_secret (a string) is dropped.
  const std::string digest = assay::hash::digest_bytes<assay::hash::sha256>(std::string_view(R"({"k":1})")).to_string();
  CHECK(canonical(data) == R"({"blob":{"alg":"sha256","digest":")" + digest +
                               R"(","size_bytes":7},"command":"c","items":[],"label":"l"})");
  CHECK(r.committed == 1);
  CHECK(r.dropped == 1);
  CHECK(r.set_secrets);
  CHECK_FALSE(r.set_pii);
}

TEST_CASE("redact_event: known and unknown types, flags, fresh content hash") {
  const std::string head =
      R"({"assaycontenthash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","assaygit":"unknown","assaypii":false,"assayproducer":"p","assayproducerversion":"1","assayrunid":"r","assaysecrets":false,"assayseq":0,)";
  const std::string tail =
      R"(,"datacontenttype":"application/json","id":"r:0","source":"urn:x","specversion":"1.0","time":"2026-01-01T00:00:00Z",)";
  SUBCASE("assay.tool.call: arguments and result are sensitive, tool is public") {
    json::value e =
        parse(head + R"("data":{"tool":"/home/a/bin/t","arguments":["--password=x","/Users/b/f.txt"],"result":"ok"})" +
              tail + R"("type":"assay.tool.call"})");
    auto r = ev::redact_event(e);
    REQUIRE(r.has_value());
    CHECK(r->secrets == 1);
    CHECK(r->paths == 1);
    CHECK(canonical(*e.find("data")) ==
          R"({"arguments":["--password=***","~/**/f.txt"],"result":"ok","tool":"/home/a/bin/t"})");
    // The content hash is that of {data, datacontenttype, specversion, type}, recomputed.
    const std::string h =
        "sha256:" +
        assay::hash::digest_bytes<assay::hash::sha256>(
            std::string_view(
                R"({"data":{"arguments":["--password=***","~/**/f.txt"],"result":"ok","tool":"/home/a/bin/t"},"datacontenttype":"application/json","specversion":"1.0","type":"assay.tool.call"})"))
            .hex();
    CHECK(e.find("assaycontenthash")->as_string() == h);
    CHECK(e.find("assaysecrets")->as_bool() == false);
  }
  SUBCASE("an unknown type: every string is sensitive") {
    json::value e =
        parse(head + R"("data":{"a":{"b":"key=1"},"c":["/root/x"],"n":1})" + tail + R"("type":"vendor.x"})");
    auto r = ev::redact_event(e);
    REQUIRE(r.has_value());
    CHECK(canonical(*e.find("data")) == R"({"a":{"b":"key=***"},"c":["~/**/x"],"n":1})");
    CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
  }
  SUBCASE("nothing to redact: the data is unchanged and the hash is the correct one") {
    json::value e =
        parse(head + R"("data":{"hits":3},"subject":"example.com:443")" + tail + R"("type":"assay.net.access"})");
    auto r = ev::redact_event(e);
    REQUIRE(r.has_value());
    CHECK_FALSE(r->changed());
    CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
  }
  SUBCASE("assay.fs.access: members it does not declare are sensitive; its subject is a path") {
    json::value e = parse(
        head +
        R"("data":{"hits":2,"file":"/home/alice/.ssh/id_rsa","cmdline":"curl password=hunter2","seen_by":{"dir":["/Users/bob/x/y.txt"]},"note":7},"subject":"/home/alice/.ssh/id_rsa")" +
        tail + R"("type":"assay.fs.access"})");
    auto r = ev::redact_event(e);
    REQUIRE(r.has_value());
    CHECK(r->secrets == 1);
    CHECK(r->paths == 3);
    CHECK(canonical(*e.find("data")) ==
          R"({"cmdline":"curl password=***","file":"~/**/id_rsa","hits":2,"note":7,"seen_by":{"dir":["~/**/y.txt"]}})");
    CHECK(e.find("subject")->as_string() == "~/**/id_rsa");
    CHECK(e.find("assaycontenthash")->as_string() == ev::content_hash(e).value());
  }
  SUBCASE("assay.net.access: a subject carrying a secret is cut; a plain host:port stays") {
    json::value e = parse(head + R"("data":{"hits":1,"via":"token=abc"},"subject":"proxy token=s3cr3t")" + tail +
                          R"("type":"assay.net.access"})");
    auto r = ev::redact_event(e);
    REQUIRE(r.has_value());
    CHECK(r->secrets == 2);
    CHECK(canonical(*e.find("data")) == R"({"hits":1,"via":"token=***"})");
    CHECK(e.find("subject")->as_string() == "proxy token=***");
  }
  SUBCASE("an event without data or type is refused") {
    json::value e = parse(R"({"type":"x"})");
    CHECK(ev::redact_event(e).error().code == errc::missing_member);
    json::value f = parse(R"({"data":{},"type":1})");
    CHECK(ev::redact_event(f).error().code == errc::type_mismatch);
    json::value g = parse("[]");
    CHECK(ev::redact_event(g).error().code == errc::type_mismatch);
  }
}

TEST_CASE("redact_event on a typed event keeps it valid and sets the flag") {
  auto e = typed_event<redact_test::payload>("test.redact");
  e.data.label = "l";
  e.data.command = "login password=pw";
  e.data.email = "x@y";
  auto r = ev::redact_event(e);
  REQUIRE(r.has_value());
  CHECK(e.data.command == "login password=***");
  CHECK_FALSE(e.data.email.has_value());
  CHECK(e.assaypii);
  CHECK_FALSE(e.assaysecrets);
  REQUIRE(e.assaycontenthash.has_value());
  CHECK(e.assaycontenthash->size() == 71);
}

TEST_CASE("P56b: the bounded projection of an MCP tool definition and its digest") {
  const json::value def = parse(R"({
    "name": "read_file",
    "title": "Read file",
    "description": "  Reads a file\n\t",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    "annotations": {"readOnlyHint": true},
    "x-vendor": {"cost": 3},
    "_meta": {"k": "v"}
  })");
  CHECK(
      canonical(ev::tool_definition_projection(def).value()) ==
      R"({"description":"Reads a file","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"},"name":"read_file"})");
  CHECK(ev::tool_definition_digest(def).value() ==
        "sha256:fd81bdbb6a7a5c3b16c208a6364dc21ad8a3d00399927ddb012520841c9d2220");
  // Server-scoped: server_id joins the projection.
  CHECK(ev::tool_definition_digest(def, "fs-server").value() ==
        "sha256:0d01a309c494faa8ad0052fd442b4d991f15da3a9a0d521d21239906b838c4a2");
  // The same tool spelled with input_schema and other white space: the same digest.
  const json::value same = parse(
      R"({"input_schema":{"required":["path"],"type":"object","properties":{"path":{"type":"string"}}},"name":"read_file","description":"\u00a0Reads a file\u3000"})");
  CHECK(ev::tool_definition_digest(same).value() == ev::tool_definition_digest(def).value());
  // Only a name.
  CHECK(ev::tool_definition_digest(parse(R"({"name":"ping","outputSchema":{}})")).value() ==
        "sha256:3f1b5ce7170804143ea6c840825f11e1fce1aed30dba5b7f0d83220f84066889");
  // Inner white space and case are kept: a different description, a different digest.
  CHECK(ev::tool_definition_digest(parse(R"({"name":"read_file","description":"Reads  a file"})")).value() !=
        ev::tool_definition_digest(parse(R"({"name":"read_file","description":"Reads a file"})")).value());
  CHECK(ev::trim_white_space(" \t\n\xC2\xA0x y\xE2\x80\xA8 ") == "x y");
  CHECK(ev::trim_white_space("\xC3\xA9") == "\xC3\xA9");
  // Bad definitions.
  CHECK(ev::tool_definition_digest(parse(R"({"description":"x"})")).error().code == errc::missing_member);
  CHECK(ev::tool_definition_digest(parse(R"({"name":""})")).error().code == errc::type_mismatch);
  CHECK(ev::tool_definition_digest(parse(R"({"name":" \t"})")).error().code == errc::type_mismatch);
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a","inputSchema":[]})")).error().pointer == "/inputSchema");
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a","input_schema":true})")).error().pointer == "/input_schema");
  // The reference's omissions (SPEC §19.4): a description that is not a string, or blank, is left
  // out; inputSchema wins over input_schema; a blank server id is no server scope.
  const std::string bare = ev::tool_definition_digest(parse(R"({"name":"a"})")).value();
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a","description":1})")).value() == bare);
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a","description":" \n "})")).value() == bare);
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a"})"), "  ").value() == bare);
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a","inputSchema":{},"input_schema":{"type":"x"}})")).value() ==
        ev::tool_definition_digest(parse(R"({"name":"a","input_schema":{}})")).value());
  CHECK(ev::tool_definition_digest(parse(R"({"name":"a"})"), " s ").value() ==
        ev::tool_definition_digest(parse(R"({"name":"a"})"), "s").value());
  CHECK(ev::tool_definition_digest(parse("[]")).error().code == errc::type_mismatch);
}

TEST_CASE("a typed fs.access event: its extra members and its subject are redacted as in JSON") {
  auto make = [] {
    auto e = typed_event<contracts::fs_access>("assay.fs.access");
    e.subject = "/home/alice/project/.env";
    e.data.hits = 1;
    e.data.file = "/home/alice/project/.env";
    e.data.extra.emplace("cmdline", json::value("psql password=pw"));
    return e;
  };
  auto typed = make();
  const auto r = ev::redact_event(typed);
  REQUIRE(r.has_value());
  CHECK(r->secrets == 1);
  CHECK(r->paths == 2);
  REQUIRE(typed.subject.has_value());
  CHECK(*typed.subject == "~/**/.env");
  CHECK(typed.data.extra.at("cmdline").as_string() == "psql password=***");
  // The same as the JSON form, redacted.
  json::value dom = parse(assay::encode(make()).value());
  REQUIRE(ev::redact_event(dom).has_value());
  CHECK(assay::encode(typed).value() == canonical(dom));
}

TEST_CASE("a typed event is redacted as its JSON form would be, without leaving C++") {
  auto make = [] {
    auto e = typed_event<redact_test::payload>("test.redact");
    e.subject = "tool:/home/alice/x";  // not data: never redacted
    e.data.label = "/home/alice/keep";
    e.data.command = "deploy --token=abc /home/alice/w/f.txt";
    e.data.api_secret = "s";
    e.data.email = "a@b.c";
    e.data.blob = parse(R"({"k":["key=1"],"z":1.5})");
    e.data.items = {{.path = "/Users/bob/a/b.txt", .note = "/Users/bob/n"},
                    {.path = "C:\\Users\\c\\d.txt", .note = ""}};
    return e;
  };
  for (const bool commitments : {false, true}) {
    CAPTURE(commitments);
    ev::redact_options opt;
    opt.commitments = commitments;
    auto typed = make();
    // The JSON form, redacted by the payload type's classes: flags set, the hash computed afresh.
    json::value dom = parse(assay::encode(make()).value());
    const auto d = ev::redact_payload<redact_test::payload>(*dom.find("data"), opt);
    if (d.set_secrets)
      dom.set("assaysecrets", true);
    if (d.set_pii)
      dom.set("assaypii", true);
    dom.set("assaycontenthash", ev::content_hash(dom).value());
    const auto r = ev::redact_event(typed, opt);
    REQUIRE(r.has_value());
    CHECK(r->changed());
    CHECK(assay::encode(typed).value() == canonical(dom));
    CHECK(r->paths == d.paths);
    CHECK(r->secrets == d.secrets);
    CHECK(r->dropped == d.dropped);
    CHECK(r->committed == d.committed);
    CHECK(r->set_secrets == d.set_secrets);
    CHECK(r->set_pii == d.set_pii);
  }
  // An event that breaks its contract is refused before anything changes.
  auto bad = make();
  bad.id = "r:1";
  auto r = ev::redact_event(bad);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().pointer == "/id");
  CHECK(bad.data.email.has_value());
}

TEST_CASE("a decision's additive members are sensitive, its typed members keep their classes (SPEC §8, §9)") {
  // Shaped like the reference's runtime decisions: typed members of every class, and additive
  // members (obligations, approval_*, a vendor's) that no type classifies.
  const std::string data =
      R"({"approval_note":"approved by /home/carol/notes/ok.txt","approval_state":"granted",)"
      R"("auth_issuer":"https://issuer.example/","auth_scheme":"jwt_bearer","decision":"error",)"
      R"("obligations":[{"params":{"header":"Authorization: Bearer abc.def"},"type":"forward"},{"type":"log"}],)"
      R"("principal":"alice@example.com","reason":"retry with --api-token=s3cr3t","reason_code":"E_UPSTREAM",)"
      R"("tool":"/home/carol/bin/tool","tool_call_id":"tc_1","x_vendor":{"k":[1,2],"path":"/Users/dan/x/y.json"}})";
  const std::string want =
      R"({"approval_note":"approved by ~/**/ok.txt","approval_state":"granted",)"
      R"("auth_issuer":"https://issuer.example/","auth_scheme":"jwt_bearer","decision":"error",)"
      R"("obligations":[{"params":{"header":"Authorization: Bearer ***"},"type":"forward"},{"type":"log"}],)"
      R"("principal":"alice@example.com","reason":"retry with --api-token=***","reason_code":"E_UPSTREAM",)"
      R"("tool":"/home/carol/bin/tool","tool_call_id":"tc_1","x_vendor":{"k":[1,2],"path":"~/**/y.json"}})";
  // The JSON path: the event's data by its type's classes; `tool` is public, so kept.
  json::value event = parse(assay::encode(typed_event<json::value>("assay.tool.decision")).value());
  event.set("data", parse(data));
  const auto r = ev::redact_event(event);
  REQUIRE(r.has_value());
  CHECK(r->secrets == 2);  // obligations' header, reason
  CHECK(r->paths == 2);    // approval_note, x_vendor.path
  CHECK_FALSE(r->set_secrets);
  CHECK_FALSE(r->set_pii);
  CHECK(canonical(*event.find("data")) == want);
  CHECK(event.find("assaycontenthash")->as_string() == ev::content_hash(event).value());
  // The typed path: the same classes on the C++ value, the same bytes.
  auto typed = typed_event<contracts::tool_decision>("assay.tool.decision");
  typed.data = assay::decode<contracts::tool_decision>(data).value();
  const auto t = ev::redact_event(typed);
  REQUIRE(t.has_value());
  CHECK(t->secrets == 2);
  CHECK(t->paths == 2);
  CHECK(assay::encode(typed.data).value() == want);
  CHECK(assay::encode(typed).value() == canonical(event));
}
