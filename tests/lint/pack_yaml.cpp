// YAML packs (SPEC §10) through libyaml: the nine open packs of the Rust reference load with its
// digests, from LF, CRLF, CR-only and NEL line ends alike, also as pack-v1 JSON; YAML's scalars,
// block styles, line breaks, aliases and tags mean what they mean to the reference; control
// characters and alias bombs are refused; errors carry line and column; a corpus of 306 pack
// variants gives the reference's outcome (recorded, and live when the reference binary is at
// hand); and ~200 deterministic mutations of the nine packs give the reference's outcome live.
#include "support.hpp"

#include "assay/contracts/registry.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/lint/resolve.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
namespace lint = assay::lint;
using assay::errc;

namespace {

// The reference's digests of its nine open packs (assay-ref pack-digest, 5.4.0).
const std::map<std::string, std::string> reference_digests = {
    {"a2a-discovery-card-followup", "sha256:48fbf21530f4d0109a8e9f421474da43d5c676c9299568030a61a7ddd29c767a"},
    {"a2a-signal-followup", "sha256:fd587cb179ea481cd5530757fee941c3ad5a1b25edde0902df66dc5dd206c766"},
    {"cicd-starter", "sha256:11a648dad0f37781b296a5403c7ed2240cdece1531e05221b8aa39c3c7b06e1c"},
    {"eu-ai-act-baseline", "sha256:97f10c43ae49e52261ee997ddcc7cc9a3c4a1f5c27d1403629fd27d24f1feb99"},
    {"mandate-baseline", "sha256:74fe34930e0a1ff2321826ccbd93d86a3160c4ade9ccad96b865a32a5885e841"},
    {"mcp-signal-followup", "sha256:be3196de38fec33228dcf484ab9dcc88c4bdc8ff6befe9efd42b74e25036dc0f"},
    {"owasp-agentic-a3-a5-signal-followup", "sha256:26107a5d37dc5c179c1d88d54b2e64aa1a70f4bfbf43e775f6f7e0e85cd7ec62"},
    {"owasp-agentic-control-evidence-baseline",
     "sha256:9f26ea483fb507b6270263d943dd886ef30276fd18f5e3a6ac65d678ae5e41a9"},
    {"soc2-baseline", "sha256:e3de126dcb064f5aa0eb3ba768fdd9f96a831362ba9c0f0bb8a33539194a3d9e"},
};

fs::path reference_packs_dir() {
  const fs::path c = assay_test::conformance_dir();
  return c.empty() ? fs::path() : c / "assay-upstream" / "packs";
}

lint::loaded_pack yaml_loads(const std::string& text, std::string name = "p.yaml") {
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, std::move(name)}, lint::yaml_options());
  REQUIRE_MESSAGE(p.has_value(), p.error().format());
  return std::move(*p);
}

// The first error, formatted.
std::string yaml_error(const std::string& text) {
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "p.yaml"}, lint::yaml_options());
  REQUIRE_MESSAGE(!p.has_value(), "loaded: " << text);
  return p.error().front().format();
}

std::vector<std::string> yaml_errors(const std::string& text) {
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "p.yaml"}, lint::yaml_options());
  REQUIRE_MESSAGE(!p.has_value(), "loaded: " << text);
  std::vector<std::string> out;
  for (const auto& e : p.error())
    out.push_back(e.format());
  return out;
}

const std::string head =
    "name: p\nversion: \"1.0.0\"\nkind: security\ndescription: d\nauthor: a\nlicense: l\n"
    "requires:\n  assay_min_version: \">=1.0\"\nrules:\n";

// `head` and one rule with this check (YAML lines at the check's indentation).
std::string with_check(const std::string& check) {
  return head + "  - id: R1\n    severity: error\n    description: r\n    check:\n" + check;
}

// The assay-ref binary: $ASSAY_REF, else `assay-ref` on the PATH; empty when neither.
// Runs `assay-ref pack-digest` on the files; one output line per file.
std::vector<std::string> reference_digest_lines(const fs::path& bin, const std::vector<fs::path>& files) {
  std::string cmd = "'" + bin.string() + "' pack-digest";
  for (const auto& f : files)
    cmd += " '" + f.string() + "'";
  cmd += " 2>&1";
  std::vector<std::string> out;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string line;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) {
    line += buf.data();
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      out.push_back(line);
      line.clear();
    }
  }
  ::pclose(pipe);
  return out;
}

struct variant {
  std::string name;
  std::string reference;  // "ok sha256:…" or "error"
  std::string here;       // what SPEC §10 wants here, when it differs ("" = the reference's)
  std::string text;
};

std::vector<variant> read_variants() {
  const std::string all =
      assay_test::read_file(assay_test::source_root() / "tests" / "lint" / "reference_variants.txt");
  std::vector<variant> out;
  std::stringstream in(all);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#### ", 0) != 0) {
      if (!out.empty())
        out.back().text += line + "\n";
      continue;
    }
    const std::string rest = line.substr(5);
    if (rest.rfind("reference: ", 0) == 0)
      out.back().reference = rest.substr(11);
    else if (rest.rfind("here: ", 0) == 0)
      out.back().here = rest.substr(6, rest.find("  (") - 6);
    else
      out.push_back({rest, "", "", ""});
  }
  return out;
}

std::string outcome(const assay::results<lint::loaded_pack>& p) {
  return p ? "ok " + p->digest : "error";
}

}  // namespace

TEST_CASE("the reference's nine open packs load with its digests, and validate as pack-v1 JSON" *
          doctest::test_suite("conformance")) {
  const fs::path dir = reference_packs_dir();
  if (dir.empty())
    return;
  std::size_t seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml")
      continue;
    ++seen;
    const std::string name = entry.path().stem().string();
    CAPTURE(name);
    const std::string text = assay_test::read_file(entry.path());
    const lint::loaded_pack p = yaml_loads(text, entry.path().filename().string());
    CHECK(p.definition.name == name);
    REQUIRE(reference_digests.count(name) == 1);
    CHECK(p.digest == reference_digests.at(name));

    // The same pack as JSON: valid pack-v1, and the strict reader loads it with the same digest.
    auto tree = lint::read_yaml_pack(text, {});
    REQUIRE(tree.has_value());
    auto json = lint::to_json<assay::contracts::pack>(*tree);
    REQUIRE(json.has_value());
    const std::string as_json = assay::json::to_canonical(*json).value();
    auto valid = assay::contracts::find("pack-v1")->validate(as_json, {});
    CHECK_MESSAGE(valid.has_value(), valid.error().format());
    auto from_json = lint::load_pack(as_json, {lint::pack_source::origin::file, name + ".json"});
    REQUIRE_MESSAGE(from_json.has_value(), from_json.error().format());
    CHECK(from_json->digest == p.digest);
  }
  CHECK(seen == 9);
}

TEST_CASE("SPEC §10 digest vectors" * doctest::test_suite("conformance")) {
  const fs::path dir = reference_packs_dir();
  if (dir.empty())
    return;
  CHECK(yaml_loads(assay_test::read_file(dir / "soc2-baseline.yaml")).digest ==
        "sha256:e3de126dcb064f5aa0eb3ba768fdd9f96a831362ba9c0f0bb8a33539194a3d9e");
  CHECK(yaml_loads(assay_test::read_file(dir / "cicd-starter.yaml")).digest ==
        "sha256:11a648dad0f37781b296a5403c7ed2240cdece1531e05221b8aa39c3c7b06e1c");
}

TEST_CASE("differential: the reference loads the nine packs to the same digests" * doctest::test_suite("oracle")) {
  const fs::path bin = assay_test::reference_binary();
  const fs::path dir = reference_packs_dir();
  REQUIRE_FALSE(bin.empty());
  REQUIRE_FALSE(dir.empty());
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".yaml")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  const std::vector<std::string> ref = reference_digest_lines(bin, files);
  REQUIRE(ref.size() == files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const lint::loaded_pack p = yaml_loads(assay_test::read_file(files[i]));
    CHECK(ref[i] == std::string(p.definition.name) + " " + p.definition.version + " " + p.digest);
  }
}

TEST_CASE("306 pack variants: the reference's outcome, recorded and (when at hand) live") {
  const std::vector<variant> variants = read_variants();
  REQUIRE(variants.size() == 306);
  std::size_t differing = 0;
  for (const variant& v : variants) {
    CAPTURE(v.name);
    CAPTURE(v.text);
    REQUIRE((v.reference == "error" || v.reference.rfind("ok sha256:", 0) == 0));
    const auto p = lint::load_pack(v.text, {lint::pack_source::origin::file, v.name}, lint::yaml_options());
    const std::string want = v.here.empty() ? v.reference : v.here;
    CHECK(outcome(p) == want);
    if (!v.here.empty())
      ++differing;
  }
  CHECK(differing == 2);  // a duplicate key in an ignored member; x-assay

  const fs::path bin = assay_test::reference_binary();
  if (bin.empty()) {
    MESSAGE("assay-ref not found (set ASSAY_REF or put it on the PATH): recorded outcomes used");
    return;
  }
  const fs::path tmp = fs::temp_directory_path() / ("assay-lint-variants-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::vector<fs::path> files;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    files.push_back(tmp / ("v" + std::to_string(i) + ".yaml"));
    std::ofstream(files.back(), std::ios::binary) << variants[i].text;
  }
  const std::vector<std::string> ref = reference_digest_lines(bin, files);
  fs::remove_all(tmp);
  REQUIRE(ref.size() == variants.size());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    CAPTURE(variants[i].name);
    const std::string live = ref[i].rfind("ERROR ", 0) == 0 ? "error" : "ok " + ref[i].substr(ref[i].rfind(' ') + 1);
    CHECK(live == variants[i].reference);
  }
}

TEST_CASE("YAML scalars: string members take the text, other members the core schema") {
  auto replaced = [](std::string s, std::string_view from, std::string_view to) {
    const auto at = s.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, "not found: " << from);
    return s.replace(at, from.size(), to);
  };
  const std::string pack = with_check("      type: event_count\n      min: 1\n");
  const lint::loaded_pack plain = yaml_loads(pack);
  // version: 1.0 is "1.0", not the number 1.
  CHECK(yaml_loads(replaced(pack, "version: \"1.0.0\"", "version: 1.0")).definition.version == "1.0");
  CHECK(yaml_loads(replaced(pack, "version: \"1.0.0\"", "version: 1.10")).definition.version == "1.10");
  CHECK(yaml_loads(replaced(pack, "version: \"1.0.0\"", "version: !!int 7")).definition.version == "7");
  // A required string written as null is the text; an optional one is absent.
  CHECK(yaml_loads(replaced(pack, "author: a", "author: ~")).definition.author == "~");
  CHECK(yaml_loads(replaced(pack, "author: a", "author:")).definition.author == "");
  CHECK(yaml_loads(replaced(pack, "author: a", "author: null")).definition.author == "null");
  for (const char* absent :
       {"source_url:", "source_url: ~", "source_url: null", "source_url: NULL", "source_url: !!null null"}) {
    CAPTURE(absent);
    const lint::loaded_pack p = yaml_loads(replaced(pack, "license: l", std::string("license: l\n") + absent));
    CHECK_FALSE(p.definition.source_url.has_value());
    CHECK(p.digest == plain.digest);
  }
  CHECK(*yaml_loads(replaced(pack, "license: l", "license: l\nsource_url: \"~\"")).definition.source_url == "~");
  // Block scalars keep YAML's meaning.
  CHECK(yaml_loads(replaced(pack, "description: d", "description: |\n  one\n  two\n")).definition.description ==
        "one\ntwo\n");
  CHECK(yaml_loads(replaced(pack, "description: d", "description: >-\n  one\n  two\n\n  three\n"))
            .definition.description == "one two\nthree");
  CHECK(yaml_loads(replaced(pack, "description: d", "description: \"a\\tb\\u00e9\"")).definition.description ==
        "a\tb\xc3\xa9");
  // Aliases are expanded.
  const lint::loaded_pack aliased =
      yaml_loads(replaced(pack, "description: d\nauthor: a", "description: &d d\nauthor: *d"));
  CHECK(aliased.definition.author == "d");

  // Check members are typed: a quoted number is a string, a float is no integer.
  auto min_error = [&](const std::string& min) {
    return yaml_error(with_check("      type: event_count\n      min: " + min + "\n"));
  };
  CHECK(min_error("\"1\"") ==
        "p.yaml:15:12: event_count.min must be an integer > 0, found a string (at /rules/0/check/min)");
  CHECK(min_error("1.0") == "p.yaml:15:12: event_count.min must be an integer > 0, found 1.0 (at /rules/0/check/min)");
  CHECK(min_error("!!str 3") ==
        "p.yaml:15:12: event_count.min must be an integer > 0, found a string (at /rules/0/check/min)");
  CHECK(min_error("!foo 3") == "p.yaml:15:12: unsupported YAML tag \"!foo\" (at /rules/0/check/min)");
  CHECK(min_error("yes") ==
        "p.yaml:15:12: event_count.min must be an integer > 0, found a string (at /rules/0/check/min)");
  CHECK(yaml_loads(with_check("      type: event_count\n      min: 0x10\n")).checks[0].min == 16);
  CHECK(yaml_loads(with_check("      type: event_count\n      min: +3\n")).checks[0].min == 3);
  CHECK(yaml_loads(with_check("      type: event_count\n      min: !!int 3\n")).checks[0].min == 3);
  // value_equals: YAML's types (012 is a string in YAML 1.2; 1e3 a number; .nan has no JSON form: null).
  auto value_of = [&](const std::string& v) {
    const lint::loaded_pack p =
        yaml_loads(with_check("      type: json_path_exists\n      paths: [/a]\n      value_equals: " + v + "\n"));
    // As the pack's digest covers it (its definition); lint compares the node as written.
    const assay::json::value* said = p.definition.rules[0].check.member("value_equals");
    return said != nullptr ? assay::json::to_canonical(*said).value() : std::string("absent");
  };
  CHECK(value_of("012") == "\"012\"");
  CHECK(value_of("1e3") == "1000");
  CHECK(value_of("0x1F") == "31");
  CHECK(value_of("-0o17") == "-15");
  CHECK(value_of("true") == "true");
  CHECK(value_of("True") == "true");
  CHECK(value_of("yes") == "\"yes\"");
  CHECK(value_of("~") == "absent");
  CHECK(value_of("\"~\"") == "\"~\"");
  CHECK(value_of("1e400") == "\"1e400\"");
  CHECK(value_of("{a: [1, ~, x]}") == R"({"a":[1,null,"x"]})");
  CHECK(value_of("!!float 2") == "2");
  // A check's type is a string member: `type: 5` is the unsupported type "5".
  CHECK(yaml_loads(with_check("      type: 5\n")).checks[0].type == lint::check_type::unsupported);
}

TEST_CASE("YAML errors: syntax, duplicate keys at any depth, documents, encoding, budgets") {
  CHECK(yaml_error("name: [p\n") ==
        "p.yaml:2:1: YAML: did not find expected ',' or ']' (while parsing a flow sequence)");
  CHECK(yaml_error("name: p\nkind: x\nname: q\n") == "p.yaml:3:1: duplicate key \"name\" (at /name)");
  const std::string check = with_check("      type: event_count\n      min: 1\n      min: 2\n");
  CHECK(yaml_error(check) == "p.yaml:16:7: duplicate key \"min\" (at /rules/0/check/min)");
  // In a value of any JSON (a condition) and in a member the reference ignores.
  CHECK(yaml_error(with_check("      type: conditional\n      condition: {all: [{path: /a, equals: 1, path: /b}]}\n"
                              "      then: {type: json_path_exists, paths: [/c]}\n")) ==
        "p.yaml:15:47: duplicate key \"path\" (at /rules/0/check/condition/all/0/path)");
  CHECK(yaml_error(head + "  - id: R1\n    severity: info\n    description: r\n    notes: {a: 1, a: 2}\n"
                          "    check: {type: event_count, min: 1}\n") ==
        "p.yaml:13:19: duplicate key \"a\" (at /rules/0/notes/a)");
  // The same key spelt two ways is the same key.
  CHECK(yaml_error("name: p\n\"name\": q\n") == "p.yaml:2:1: duplicate key \"name\" (at /name)");

  CHECK(yaml_error("name: p\n---\nname: q\n") == "p.yaml:2:1: a pack is one YAML document; a second one starts here");
  CHECK(yaml_error("") == "p.yaml: empty pack: no YAML document");
  CHECK(yaml_error("# only a comment\n") == "p.yaml: empty pack: no YAML document");
  CHECK(yaml_error("\xEF\xBB\xBFname: p\n") == "p.yaml:1:1: a byte-order mark is not allowed at the start of a pack");
  CHECK(yaml_error("name: \xC3\x28\n") == "p.yaml: a pack must be UTF-8 text");
  CHECK(yaml_error("? [a]\n: x\n") == "p.yaml:1:3: a mapping key must be a scalar");
  CHECK(yaml_error("- 1\n") == "p.yaml:1:1: expected an object, found an array");

  // Aliases are expanded within a node budget and the depth limit.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'h'; ++c)
    bomb += std::string(1, c) + ": &" + c + " [*" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
            ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + "]\n";
  auto b = lint::load_pack(bomb, {}, lint::yaml_options());
  REQUIRE_FALSE(b.has_value());
  CHECK(b.error().front().code == errc::size_limit);
  std::string deep = "name: " + std::string(70, '[') + std::string(70, ']') + "\n";
  auto d = lint::load_pack(deep, {}, lint::yaml_options());
  REQUIRE_FALSE(d.has_value());
  CHECK(d.error().front().code == errc::depth_limit);
  CHECK(d.error().front().format() == "pack:1:70: nesting deeper than 64 levels (at /name" + [] {
    std::string p;
    for (int i = 0; i < 63; ++i)
      p += "/0";
    return p;
  }() + ")");
}

// Found with fuzz_pack (tests/fuzz/regressions/pack-yaml-quadratic-positions.bin): a 64 KiB list
// took seconds to read, as every node's position was counted from the start of the text. A
// position after 100,000 nodes (a megabyte), its column in code points.
TEST_CASE("a large YAML pack reads in linear time, positions exact after many nodes") {
  std::string text = head + "  - id: R1\n    severity: error\n    description: r\n    notes:\n";
  for (int i = 0; i < 100000; ++i)
    text += "      - \xC3\xA9\n";
  text += "    check: {type: event_count, min: 0}\n";
  CHECK(yaml_errors(text) ==
        std::vector<std::string>{"p.yaml:100014:37: event_count.min must be > 0 (at /rules/0/check/min)"});
}

// A mapping holds at most 10,000 members, as a JSON object does (json::limits::max_members); the
// duplicate-key search compares each key with those before it, and 120,000 keys took 24 s.
TEST_CASE("YAML mappings have the JSON reader's member limit") {
  std::string text = "name: p\nnotes:\n";
  for (int i = 0; i < 10000; ++i)
    text += "  k" + std::to_string(i) + ": 1\n";
  auto ok = lint::load_pack(text, {lint::pack_source::origin::file, "p.yaml"}, lint::yaml_options());
  REQUIRE_FALSE(ok.has_value());
  CHECK(ok.error().front().code != errc::member_limit);
  text += "  k10000: 1\n";
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "p.yaml"}, lint::yaml_options());
  REQUIRE_FALSE(p.has_value());
  REQUIRE(p.error().size() == 1);
  CHECK(p.error().front().code == errc::member_limit);
  CHECK(p.error().front().format() == "p.yaml:10003:3: mapping has more than 10000 members (at /notes)");
}

TEST_CASE("YAML errors name the pack, the member and its line") {
  const std::string text =
      "name: Bad_Name\nversion: 1\nkind: compliance\ndescription: d\nauthor: a\nlicense: l\n"
      "requires:\n  assay_min_version: \">=1.0\"\n  os: linux\nrules:\n"
      "  - id: R1\n    severity: fatal\n    description: r\n    check: {type: event_pairs}\n";
  CHECK(yaml_errors(text) ==
        std::vector<std::string>{
            "p.yaml:1:7: \"Bad_Name\" does not match the pattern ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$ (at /name)",
            "p.yaml:9:3: unknown member \"os\" (not allowed here) (at /requires/os)",
            "p.yaml:12:15: \"fatal\" is not one of \"error\", \"Error\", \"warning\", \"Warning\", \"warn\", \"Warn\", "
            "\"info\", \"Info\" (at /rules/0/severity)",
            "p.yaml:14:5: event_pairs requires start_pattern (at /rules/0/check/start_pattern)",
            "p.yaml:14:5: event_pairs requires finish_pattern (at /rules/0/check/finish_pattern)",
        });
}

TEST_CASE("x-assay in YAML, both spellings") {
  const std::string pack = with_check("      type: event_count\n      min: 1\n");
  const lint::loaded_pack nested = yaml_loads(pack + "x-assay:\n  requires_signals: [tool_calls, rng_seeds]\n");
  const lint::loaded_pack flat = yaml_loads(pack + "x-assay.requires_signals:\n  - tool_calls\n  - rng_seeds\n");
  CHECK(nested.digest == flat.digest);
  CHECK(nested.requires_signals() == std::vector<std::string>{"tool_calls", "rng_seeds"});
  CHECK(yaml_error(pack + "x-assay: {requires_signals: [tool_calls]}\nx-assay.requires_signals: [rng_seeds]\n") ==
        "p.yaml:17:27: x-assay.requires_signals is given twice: as a key and inside x-assay (at "
        "/x-assay.requires_signals)");
  CHECK(yaml_error(pack + "x-assay: {requires_signals: [tool_calls, secrets]}\n") ==
        "p.yaml:16:42: unknown signal \"secrets\" (registered: environment_posture, human_approvals, model_identity, "
        "policy_decisions, prompt_lineage, rng_seeds, run_inputs, sandbox_posture, tool_calls, tool_io_bodies) (at "
        "/x-assay/requires_signals/1)");
}

// --- line breaks, control characters, alias budgets (SPEC §10, "Reading packs safely") ------------

namespace {

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// "name version digest" as `assay-ref pack-digest` prints it, or "error".
std::string digest_line(const std::string& text) {
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "p.yaml"}, lint::yaml_options());
  if (!p)
    return "error";
  return std::string(p->definition.name) + " " + p->definition.version + " " + p->digest;
}

// A pack whose rule R1 has `severity: error`, then on what YAML reads as the next line (after
// `brk`) its event_types.
std::string severity_then_event_types(std::string_view brk) {
  return head + "  - id: R1\n    severity: error" + std::string(brk) +
         "    event_types: [nothing.here]\n    description: r\n    check: {type: event_count, min: 1}\n";
}

// The event_types of the first rule ({"(absent)"} when it has none).
std::vector<std::string> event_types_of(const lint::loaded_pack& p) {
  const auto& types = p.definition.rules.at(0).event_types;
  if (!types)
    return {"(absent)"};
  std::vector<std::string> out;
  for (const auto& t : *types)
    out.emplace_back(t);
  return out;
}

}  // namespace

TEST_CASE("the nine packs load with the reference's digests from LF, CRLF, CR-only and NEL line ends" *
          doctest::test_suite("conformance")) {
  const fs::path dir = reference_packs_dir();
  if (dir.empty())
    return;
  std::size_t seen = 0;
  for (const auto& entry : reference_digests) {  // not a structured binding: clang 14 cannot capture one
    const std::string& name = entry.first;
    const std::string& digest = entry.second;
    const std::string lf = assay_test::read_file(dir / (name + ".yaml"));
    REQUIRE(lf.find('\r') == std::string::npos);
    for (std::string_view brk : {"\n", "\r\n", "\r", "\xC2\x85"}) {
      CAPTURE(name);
      CAPTURE(brk.size());
      const lint::loaded_pack p = yaml_loads(replace_all(lf, "\n", brk), name + ".yaml");
      CHECK(p.digest == digest);
      ++seen;
    }
  }
  CHECK(seen == 36);
}

TEST_CASE("YAML line breaks are LF, CR, CRLF, NEL, LS and PS, as the reference reads them") {
  // A comment ends at any of them: the next line is a member of the rule, not more comment.
  const std::string lf = severity_then_event_types("\n");
  const lint::loaded_pack want = yaml_loads(lf);
  CHECK(event_types_of(want) == std::vector<std::string>{"nothing.here"});
  for (std::string_view brk : {" #\r", " # note\r", "\r", "\r\n", " #\r\n", "\xC2\x85", " #\xC2\x85", "\xE2\x80\xA8",
                               " #\xE2\x80\xA8", "\xE2\x80\xA9", " # x\xE2\x80\xA9"}) {
    CAPTURE(brk);
    const lint::loaded_pack p = yaml_loads(severity_then_event_types(brk));
    CHECK(event_types_of(p) == std::vector<std::string>{"nothing.here"});
    CHECK(p.digest == want.digest);
  }
  // Positions count those breaks too: the error is on line 3 of a CR-only text.
  CHECK(yaml_error("name: p\rkind: x\rname: q\r") == "p.yaml:3:1: duplicate key \"name\" (at /name)");
  CHECK(yaml_error("name: p\xE2\x80\xA8kind: x\xC2\x85name: q\n") == "p.yaml:3:1: duplicate key \"name\" (at /name)");
}

TEST_CASE("control characters other than TAB, LF and CR are refused, wherever they are") {
  const std::string pack = with_check("      type: event_count\n      min: 1\n");
  const std::size_t at = pack.find("description: d") + 13;  // the d
  REQUIRE(at == 53);
  const std::vector<std::pair<std::string, std::string>> controls{{std::string(1, '\0'), "0000"},
                                                                  {"\x0B", "000B"},
                                                                  {"\x0C", "000C"},
                                                                  {"\x01", "0001"},
                                                                  {"\x1B", "001B"},
                                                                  {"\x7F", "007F"},
                                                                  {"\xC2\x80", "0080"}};
  for (const auto& control : controls) {  // not a structured binding: clang 14 cannot capture one
    const std::string& byte = control.first;
    const std::string& hex = control.second;
    CAPTURE(hex);
    std::string text = pack;
    CHECK(yaml_error(text.insert(at, byte)) == "p.yaml:4:14: YAML: control characters are not allowed (U+" + hex + ")");
    // In a comment too, and in a quoted string.
    CHECK(yaml_error(pack + "# note " + byte + "\n") ==
          "p.yaml:16:8: YAML: control characters are not allowed (U+" + hex + ")");
    std::string quoted = pack;
    CHECK(yaml_error(quoted.replace(at, 1, "\"d" + byte + "\"")) ==
          "p.yaml:4:16: YAML: control characters are not allowed (U+" + hex + ")");
  }
  auto nul = lint::load_pack(pack + std::string(1, '\0'), {}, lint::yaml_options());
  REQUIRE_FALSE(nul.has_value());
  CHECK(nul.error().front().code == errc::unescaped_control);
  // TAB is a character like any other inside a scalar or a comment.
  std::string tab = pack;
  CHECK(yaml_loads(tab.replace(at, 1, "\"d\td\"")).definition.description == "d\td");
  CHECK(yaml_loads(pack + "# a\tcomment\n").digest == yaml_loads(pack).digest);
}

// Issue 29: a 257 KB pack whose aliases repeat a 256 KiB string 64 × 64 times reached 4.3 GB and
// loaded. The expanded text is budgeted in bytes: it fails at the alias that passes 8 MiB.
TEST_CASE("an alias bomb on bytes is refused at the alias that passes the budget") {
  std::string text = head + "  - id: R1\n    severity: error\n    description: r\n    notes:\n      s: &s " +
                     std::string(256 << 10, 'a') + "\n      l: &l [";
  std::vector<std::size_t> aliases;
  for (int i = 0; i < 64; ++i) {
    text += i == 0 ? "" : ", ";
    aliases.push_back(text.size());
    text += "*s";
  }
  text += "]\n      m: [";
  for (int i = 0; i < 64; ++i)
    text += i == 0 ? "*l" : ", *l";
  text += "]\n    check: {type: event_count, min: 1}\n";
  CHECK(text.size() == 262914);
  // Scalar text before the list: the keys and values of `head` and the rule, then the string (a
  // little over 256 KiB); each alias adds 256 KiB, so the 31st (l/30) takes the total past 8 MiB.
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "bomb.yaml"}, lint::yaml_options());
  REQUIRE_FALSE(p.has_value());
  REQUIRE(p.error().size() == 1);
  CHECK(p.error().front().code == errc::size_limit);
  CHECK(p.error().front().offset == aliases[30]);
  CHECK(p.error().front().format() == "bomb.yaml:15:" + std::to_string(aliases[30] - text.rfind('\n', aliases[30])) +
                                          ": more than 8388608 bytes of scalar text (aliases expanded) (at "
                                          "/rules/0/notes/l/30)");
  // With 30 aliases of the string it loads: the budget is what is refused, not aliases.
  std::string small = head + "  - id: R1\n    severity: error\n    description: r\n    notes:\n      s: &s " +
                      std::string(256 << 10, 'a') + "\n      l: [";
  for (int i = 0; i < 30; ++i)
    small += i == 0 ? "*s" : ", *s";
  small += "]\n    check: {type: event_count, min: 1}\n";
  CHECK(yaml_loads(small).definition.rules.size() == 1);
}

// Tags on null-looking text: a quoted scalar, or one tagged `!` or `!!str`, is the text; `!!null ~`
// is null (the reference reads them so: the differential test below has them too).
TEST_CASE("a quoted or string-tagged ~ is text, a plain !!null ~ is null") {
  const std::string pack = with_check("      type: event_count\n      min: 1\n");
  auto source_url = [&](const std::string& v) {
    const lint::loaded_pack p = yaml_loads(pack + "source_url: " + v + "\n");
    return p.definition.source_url ? "\"" + std::string(*p.definition.source_url) + "\"" : std::string("absent");
  };
  CHECK(source_url("!!null \"~\"") == "\"~\"");
  CHECK(source_url("!!null '~'") == "\"~\"");
  CHECK(source_url("!!str ~") == "\"~\"");
  CHECK(source_url("! ~") == "\"~\"");
  CHECK(source_url("\"~\"") == "\"~\"");
  CHECK(source_url("!!null ~") == "absent");
  CHECK(source_url("~") == "absent");
}

// Unknown anchors, and anchors used before they are defined (or inside themselves).
TEST_CASE("aliases name anchors defined before them") {
  CHECK(yaml_error("name: *a\nkind: &a x\n") == "p.yaml:1:7: alias of an unknown anchor \"a\" (at /name)");
  CHECK(yaml_error("name: &a [*a]\n") == "p.yaml:1:11: alias of an unknown anchor \"a\" (at /name/0)");
  // An anchor defined again names the later node from there on.
  const lint::loaded_pack p = yaml_loads(severity_then_event_types("\n") +
                                         "x-assay:\n  requires_signals: [&s tool_calls, "
                                         "&s rng_seeds, *s]\n");
  CHECK(p.requires_signals() == std::vector<std::string>{"tool_calls", "rng_seeds", "rng_seeds"});
}

// The reference (`assay-ref pack-digest`) and this reader on ~200 deterministic mutations of the
// nine packs: line-end conversions, inserted control characters and line breaks, comments ended by
// CR, anchors and aliases, duplicated keys, truncations and byte flips. Accept or refuse, and the
// digest, must agree.
TEST_CASE("differential: ~200 mutations of the nine packs read as the reference reads them" *
          doctest::test_suite("oracle")) {
  const fs::path bin = assay_test::reference_binary();
  const fs::path dir = reference_packs_dir();
  REQUIRE_FALSE(bin.empty());
  REQUIRE_FALSE(dir.empty());
  std::vector<std::pair<std::string, std::string>> packs;  // name, text
  for (const auto& [name, digest] : reference_digests)
    packs.emplace_back(name, assay_test::read_file(dir / (name + ".yaml")));
  REQUIRE(packs.size() == 9);

  std::vector<std::pair<std::string, std::string>> cases;  // what was done, text
  std::mt19937 rng(29);
  auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  auto lines_of = [](const std::string& t) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
      if (t[i] == '\n')
        starts.push_back(i + 1);
    return starts;
  };
  // A byte offset that does not split a UTF-8 sequence.
  auto boundary = [&](const std::string& t) {
    std::size_t at = below(t.size());
    while (at > 0 && (static_cast<unsigned char>(t[at]) & 0xC0) == 0x80)
      --at;
    return at;
  };
  const std::vector<std::string> inserted = {
      std::string(1, '\0'), "\x0B",         "\x0C",         "\x1F",    "\x7F", "\t", "\r",
      "\xC2\x85",           "\xE2\x80\xA8", "\xE2\x80\xA9", "\xC2\x80"};
  for (const auto& [name, lf] : packs) {
    for (const auto& [label, brk] : std::vector<std::pair<std::string, std::string>>{
             {"crlf", "\r\n"}, {"cr", "\r"}, {"nel", "\xC2\x85"}, {"ls", "\xE2\x80\xA8"}, {"ps", "\xE2\x80\xA9"}})
      cases.emplace_back(name + " " + label, replace_all(lf, "\n", brk));
    const std::vector<std::size_t> lines = lines_of(lf);
    for (int k = 0; k < 18; ++k) {
      std::string t = lf;
      std::string what;
      switch (k % 9) {
        case 0:
        case 1: {  // a control character or a line break inserted
          const std::string& c = inserted[below(inserted.size())];
          const std::size_t at = boundary(t);
          t.insert(at, c);
          what = "insert " + std::to_string(static_cast<unsigned char>(c[0])) + " at " + std::to_string(at);
          break;
        }
        case 2: {  // a line ended by a comment and CR
          const std::size_t line = 1 + below(lines.size() - 1);
          t.replace(lines[line] - 1, 1, k % 2 == 0 ? " #\r" : " # note\r");
          what = "comment+CR ending line " + std::to_string(line);
          break;
        }
        case 3: {  // severities: the first anchored, the others aliases of it
          std::size_t at = t.find("severity: ");
          REQUIRE(at != std::string::npos);
          t.insert(at + 10, "&sev ");
          for (at = t.find("severity: ", at + 10); at != std::string::npos; at = t.find("severity: ", at + 10))
            t.replace(at + 10, t.find('\n', at) - at - 10, "*sev");
          what = "severity aliases";
          break;
        }
        case 4: {  // a line given twice (a key twice, mostly)
          const std::size_t line = below(lines.size());
          const std::size_t end = t.find('\n', lines[line]);
          t.insert(lines[line], t.substr(lines[line], end - lines[line] + 1));
          what = "line " + std::to_string(line) + " twice";
          break;
        }
        case 5: {  // truncated
          const std::size_t at = 1 + below(t.size() - 1);
          t.resize(at);
          what = "truncated at " + std::to_string(at);
          break;
        }
        case 6:
        case 7: {  // a byte flipped
          const std::size_t at = below(t.size());
          t[at] = static_cast<char>(static_cast<unsigned char>(t[at]) ^ (1u + below(255)));
          what = "byte " + std::to_string(at) + " flipped";
          break;
        }
        case 8: {  // an alias before its anchor, or of none
          const std::size_t at = t.find("severity: ");
          t.insert(at + 10, k % 2 == 0 ? "*nowhere " : "&a ");
          if (k % 2 != 0)
            t.insert(t.find("description: ", at) + 13, "*a\n    x_note: ");
          what = k % 2 == 0 ? "unknown alias" : "alias of a severity in a description";
          break;
        }
      }
      cases.emplace_back(name + " " + what, std::move(t));
    }
  }
  // The cases of issue 29.
  cases.emplace_back("CR after a comment", severity_then_event_types(" #\r"));
  cases.emplace_back("LS after a comment", severity_then_event_types(" #\xE2\x80\xA8"));
  for (std::string_view v : {"!!null \"~\"", "!!str ~", "! ~", "!!null ~", "\"~\""})
    cases.emplace_back("source_url: " + std::string(v),
                       severity_then_event_types("\n") + "source_url: " + std::string(v) + "\n");
  REQUIRE(cases.size() == 9 * 23 + 2 + 5);

  const fs::path tmp = fs::temp_directory_path() / ("assay-yaml-mutations-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::vector<fs::path> files;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    files.push_back(tmp / ("m" + std::to_string(i) + ".yaml"));
    std::ofstream(files.back(), std::ios::binary) << cases[i].second;
  }
  const std::vector<std::string> ref = reference_digest_lines(bin, files);
  fs::remove_all(tmp);
  REQUIRE(ref.size() == cases.size());
  std::size_t refused = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(cases[i].first);
    const std::string theirs = ref[i].rfind("ERROR ", 0) == 0 ? "error" : ref[i];
    const std::string ours = digest_line(cases[i].second);
    CHECK_MESSAGE(ours == theirs, "reference: " << ref[i]);
    refused += theirs == "error" ? 1 : 0;
  }
  // Both outcomes are exercised.
  CHECK(refused > 50);
  CHECK(refused < cases.size() - 50);
}

// Issue 29: `assay pack check /dev/zero` grew without end. A pack file is read as a stream, at most
// 4 MiB and one byte: /dev/zero and a 5 MiB file are load errors naming the limit; 4 MiB loads.
TEST_CASE("a pack file is read up to 4 MiB") {
  CHECK(lint::max_pack_file_bytes == 4194304);
  auto zero = lint::load_pack_file("/dev/zero", lint::yaml_options());
  REQUIRE_FALSE(zero.has_value());
  REQUIRE(zero.error().size() == 1);
  CHECK(zero.error().front().code == errc::size_limit);
  CHECK(zero.error().front().format() == "pack file \"/dev/zero\" is larger than 4 MiB (4194304 bytes)");

  const std::string rule =
      "  - id: R1\n    severity: error\n    description: r\n    check: {type: event_count, min: 1}\n";
  const std::string at_cap = head + rule + "# " + std::string((4u << 20) - head.size() - rule.size() - 3, 'x') + "\n";
  REQUIRE(at_cap.size() == 4u << 20);
  const fs::path tmp = fs::temp_directory_path() / ("assay-pack-cap-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::ofstream(tmp / "at-cap.yaml", std::ios::binary) << at_cap;
  std::ofstream(tmp / "over.yaml", std::ios::binary) << at_cap << "#";
  std::ofstream(tmp / "five.yaml", std::ios::binary) << head << rule << "#" << std::string(5u << 20, 'x') << "\n";
  auto loads = lint::load_pack_file(tmp / "at-cap.yaml", lint::yaml_options());
  CHECK_MESSAGE(loads.has_value(), (loads ? "" : loads.error().format()));
  for (const char* name : {"over.yaml", "five.yaml"}) {
    const fs::path f = tmp / name;
    auto p = lint::load_pack_file(f, lint::yaml_options());
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().front().code == errc::size_limit);
    CHECK(p.error().front().format() == "pack file \"" + f.string() + "\" is larger than 4 MiB (4194304 bytes)");
  }
  fs::remove_all(tmp);
}
