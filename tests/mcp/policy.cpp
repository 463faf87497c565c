// The MCP gate's policy (SPEC §19.1): the reference's example policies load (v1 ones migrated)
// with the digests pinned here, the model holds every member, and each refusal of §19.1 is a
// load error at its line and column.
#include "support.hpp"

#include "assay/mcp/policy.hpp"

#include <string>

namespace mcp = assay::mcp;

namespace {

mcp::loaded_policy loads(const std::string& text, mcp::policy_options o = {}) {
  auto p = mcp::load_policy(text, "p.yaml", o);
  REQUIRE_MESSAGE(p, (p ? std::string() : p.error().format()));
  return std::move(*p);
}

std::string refusal(const std::string& text, mcp::policy_options o = {}) {
  auto p = mcp::load_policy(text, "p.yaml", o);
  REQUIRE_FALSE(p);
  return p.error().format();
}

}  // namespace

TEST_CASE("tool-name patterns: the reference's five forms, and a star inside refused") {
  using f = mcp::tool_pattern::form;
  CHECK(mcp::tool_pattern::parse("read_file")->kind() == f::exact);
  CHECK(mcp::tool_pattern::parse("read*")->kind() == f::prefix);
  CHECK(mcp::tool_pattern::parse("**file")->kind() == f::suffix);
  CHECK(mcp::tool_pattern::parse("*fil*")->kind() == f::substring);
  CHECK(mcp::tool_pattern::parse("***")->kind() == f::substring);
  CHECK(mcp::tool_pattern::parse("***")->matches(""));
  CHECK(mcp::tool_pattern::parse("read*")->matches("read_file"));
  CHECK_FALSE(mcp::tool_pattern::parse("read*")->matches("xread"));
  CHECK(mcp::tool_pattern::parse("*file")->matches("read_file"));
  CHECK_FALSE(mcp::tool_pattern::parse("*file")->matches("file_read"));
  CHECK(mcp::tool_pattern::parse("*ad_fi*")->matches("read_file"));
  CHECK_FALSE(mcp::tool_pattern::parse("read_file")->matches("read_file2"));
  CHECK_FALSE(mcp::tool_pattern::parse("read_*_file"));
  CHECK_FALSE(mcp::tool_pattern::parse("*a*b*"));
}

TEST_CASE("the model as loaded: every member present, legacy lists merged, classes a sorted set") {
  const auto p = loads(R"(version: "2.0"
name: demo
allow: [b]
tools:
  allow: [a]
tool_classes:
  t: ["z", "a", "z"]
limits:
  max_tool_calls_total: 3
)");
  CHECK(*assay::encode(p.model) ==
        R"({"allow":null,"constraints":[],"deny":null,"discovery":null,"enforcement":{"unconstrained_tools":"warn"},)"
        R"("kill_switch":null,"limits":{"max_requests_total":null,"max_tool_calls_total":3},"name":"demo",)"
        R"("runtime_monitor":null,"schemas":{},"signatures":null,"tool_classes":{"t":["a","z"]},"tool_pins":{},)"
        R"("tools":{"allow":["a","b"],"allow_classes":null,"approval_required":null,"approval_required_classes":null,)"
        R"("deny":null,"deny_classes":null,"redact_args":null,"redact_args_classes":null,"redact_args_contract":null,)"
        R"("restrict_scope":null,"restrict_scope_classes":null,"restrict_scope_contract":null},"version":"2.0"})");
  CHECK(p.has_allowlist);
  REQUIRE(p.allow.size() == 2);
  CHECK(p.allow[1].text() == "b");
  CHECK(p.max_tool_calls_total == 3);
  CHECK_FALSE(p.max_requests_total);
  CHECK(p.digest == "sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(*assay::encode(p.model)).hex());
  // No version and no name: both "".
  CHECK(*loads("{}").model.version == "");
  CHECK(loads("{}").policy_version() == "unspecified");
}

TEST_CASE("v1 constraints become schemas (list and map form), replacing a schema of the same tool") {
  const auto list = loads(R"(version: "1.0"
schemas:
  read_file: {type: string}
constraints:
  - tool: read_file
    params:
      path: {matches: "^/a/.*"}
      mode: {matches: "^r$"}
)");
  CHECK(*list.model.version == "2.0");
  CHECK(*assay::json::to_canonical(list.schemas.at("read_file")) ==
        R"({"additionalProperties":true,"properties":{"mode":{"minLength":1,"pattern":"^r$","type":"string"},)"
        R"("path":{"minLength":1,"pattern":"^/a/.*","type":"string"}},"required":["mode","path"],"type":"object"})");
  const auto map = loads(R"(constraints:
  read_file:
    path: "^/a/.*"
    mode: {matches: "^r$"}
)");
  CHECK(*map.model.version == "2.0");
  CHECK(*assay::json::to_canonical(map.schemas.at("read_file")) ==
        *assay::json::to_canonical(list.schemas.at("read_file")));
  CHECK(map.digest == list.digest);  // the same policy once loaded: the replaced schema is gone
  // With no constraints nothing is migrated: "1.0" stays "1.0".
  CHECK(*loads("version: \"1.0\"\nconstraints: []\n").model.version == "1.0");
}

TEST_CASE("shared $defs are merged into each object schema; a name in both is refused") {
  const auto p = loads(R"(schemas:
  $defs:
    path: {type: string}
  read_file:
    type: object
    properties:
      p: {$ref: "#/$defs/path"}
)");
  CHECK(p.schemas.count("$defs") == 0);
  CHECK(*assay::json::to_canonical(p.schemas.at("read_file")) ==
        R"({"$defs":{"path":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/path"}},"type":"object"})");
  CHECK(
      refusal(R"(schemas:
  $defs:
    path: {type: string}
  read_file:
    $defs:
      path: {type: integer}
)") ==
      "p.yaml:6:7: the $defs name \"path\" is both shared (schemas.$defs) and the tool \"read_file\"'s own: rename one "
      "(at /schemas/read_file/$defs/path)");
}

TEST_CASE(
    "refusals: strings typed strictly, unknown keys, glob-looking patterns, unenforced controls, runtime features") {
  CHECK(refusal("version: 2.0\n").find("p.yaml:1:10: ") == 0);
  CHECK(refusal("tools:\n  alow: [a]\n") ==
        "p.yaml:2:3: unknown key \"alow\"; did you mean \"allow\"? (at /tools/alow)");
  CHECK(refusal("tools:\n  deny: [ok, \"read_*_file\"]\n")
            .find("p.yaml:2:14: tool pattern \"read_*_file\" has a * inside") == 0);
  // A legacy root item is placed where it was written.
  CHECK(refusal("deny: [\"a*b\"]\ntools:\n  deny: [x]\n").find("p.yaml:1:8: tool pattern \"a*b\"") == 0);
  CHECK(refusal("tools:\n  approval_required: [x]\n") ==
        "p.yaml:2:3: tools.approval_required is not enforced by this gate (the reference accepts it and enforces "
        "nothing); remove it, or load with --allow-unenforced to record it unenforced (at /tools/approval_required)");
  const auto p =
      loads("tools:\n  approval_required: [x]\nsignatures:\n  check_descriptions: true\n", {.allow_unenforced = true});
  CHECK(p.unenforced_controls == std::vector<std::string>{"tools.approval_required", "signatures"});
  REQUIRE(p.obligations.size() == 1);
  CHECK(p.obligations[0].type == "approval_required");
  CHECK(refusal("kill_switch: {enabled: true}\n", {.allow_unenforced = true})
            .find("p.yaml:1:1: kill_switch is a runtime feature of the reference") == 0);
  CHECK(
      refusal("tool_pins:\n  t: {server_id: s, tool_name: t, schema_hash: abc, meta_hash: abc}\n").find("p.yaml:2:") ==
      0);
  CHECK(refusal("a: [\n").find("p.yaml:") == 0);
  CHECK(refusal(std::string(mcp::max_policy_bytes + 1, ' ')).find("p.yaml: a policy is at most 4194304 bytes") == 0);
}

TEST_CASE("the reference's example policies load, with our digests" * doctest::test_suite("conformance")) {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return;
  const auto at = dir / "assay-upstream" / "mcp-policies";
  auto load = [&](const char* file, bool unenforced) {
    auto p = mcp::load_policy(assay_test::read_file(at / file), file, {.allow_unenforced = unenforced});
    REQUIRE_MESSAGE(p, (p ? std::string() : p.error().format()));
    return std::move(*p);
  };
  CHECK(load("examples__mcp-quickstart__policy.yaml", false).digest ==
        "sha256:b69bec5dd89d9b4d23ddb50d6bb19c6131b7788a06e676571f019f6c3b1bc847");
  CHECK(load("scripts__ci__fixtures__tool_taxonomy__policy_tool_class_block_network.yaml", false).digest ==
        "sha256:959d087b935d2275a973fb38e58734743c9f7394dd3dd43052c7025bab6d3c8e");
  CHECK(load("tests__fixtures__mcp__strict_policy.yaml", false).digest ==
        "sha256:294fdb136efb20c6c823857fb9755debc74a179b78c36d8d3b29e900565df169");
  // v1 policies with `signatures`: refused unless --allow-unenforced, then migrated.
  const auto hardened = load("crates__assay-cli__packs__hardened-policy.yaml", true);
  CHECK(hardened.digest == "sha256:e9ca478debdb6bb4ee5c237adac94c511f2a8ecfb6107dcee5c33eee1ee3ac63");
  CHECK(*hardened.model.version == "2.0");
  CHECK(hardened.schemas.size() == 2);
  CHECK(load("crates__assay-cli__packs__default-policy.yaml", true).digest ==
        "sha256:188369f1278380f4cfd88293efa60c0d53fbd26fe0ddd80cd449e18ca2f2c478");
  auto dev = mcp::load_policy(assay_test::read_file(at / "crates__assay-cli__packs__dev-policy.yaml"), "dev.yaml");
  REQUIRE_FALSE(dev);
  CHECK(dev.error().format().find("dev.yaml:27:1: signatures is not enforced by this gate") == 0);
  // The reference ignores an unknown root key; here it is an error.
  auto block = mcp::load_policy(assay_test::read_file(at / "tests__fixtures__mcp__blocklist_policy.yaml"), "b.yaml");
  REQUIRE_FALSE(block);
  CHECK(block.error().format() == "b.yaml:1:1: unknown key \"blocklist\" (at /blocklist)");
}
