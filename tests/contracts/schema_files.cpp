// The schemas generated from the contract types (1) equal the normative schemas of the spec and
// (2) equal, byte for byte, the files checked in under schemas/ — the drift test: change a type
// without regenerating its file (`assay schema NAME > schemas/NAME.schema.json`) and this fails.
#include "support.hpp"

#include "assay/contracts/closure.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/schema.hpp"

#include <filesystem>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

// The normative schemas of the specification (../shared/spec/schemas beside the checkout).
fs::path normative_dir() {
  const fs::path p = assay_test::source_root() / ".." / "shared" / "spec" / "schemas";
  if (fs::is_directory(p))
    return p;
  const char* req = std::getenv("ASSAY_REQUIRE_CONFORMANCE");
  if (req && std::string(req) == "1")
    FAIL("normative schemas required but absent at '" << p.string() << "'");
  MESSAGE("normative schemas absent at '" << p.string() << "': comparison skipped");
  return {};
}

fs::path checked_in_dir() {
  return assay_test::source_root() / "schemas";
}

std::string file_name(std::string_view contract) {
  return std::string(contract) + ".schema.json";
}

// What `assay schema NAME` prints.
std::string cli_form(const assay::json::value& schema) {
  return assay::json::to_pretty(schema) + "\n";
}

void check_normative(std::string_view name, const assay::json::value& generated) {
  const fs::path dir = normative_dir();
  if (dir.empty())
    return;
  const fs::path file = dir / file_name(name);
  REQUIRE_MESSAGE(fs::exists(file), "no normative schema " << file.string());
  auto normative = assay::json::canonicalize(assay_test::read_file(file));
  REQUIRE_MESSAGE(normative.has_value(), file.string() << ": " << normative.error().format());
  auto ours = assay::json::to_canonical(generated);
  REQUIRE(ours.has_value());
  CHECK_MESSAGE(*ours == *normative, "the schema generated for " << name << " differs from " << file.string()
                                                                 << "\ngenerated: " << *ours
                                                                 << "\nnormative: " << *normative);
}

}  // namespace

TEST_CASE("generated schemas equal the normative schemas of the spec") {
  check_normative("soak-report-v1", assay::schema<assay::contracts::soak_report>());
  check_normative("closure-v1", assay::schema<assay::contracts::closure_report>());
  // Through the registry, too: the names map to these types.
  check_normative("soak-report-v1", assay::contracts::find("soak-report-v1")->schema());
  check_normative("closure-v1", assay::contracts::find("closure-v1")->schema());
}

TEST_CASE("every normative schema belongs to a registered contract" * doctest::test_suite("conformance")) {
  const fs::path dir = normative_dir();
  if (dir.empty())
    return;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".schema.json";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string contract = name.substr(0, name.size() - suffix.size());
    CAPTURE(contract);
    const auto* c = assay::contracts::find(contract);
    REQUIRE_MESSAGE(c != nullptr, "normative schema " << name << " has no contract in the registry");
    check_normative(contract, c->schema());
  }
}

TEST_CASE("checked-in schema files equal the generated schemas byte for byte (drift)") {
  const fs::path dir = checked_in_dir();
  REQUIRE_MESSAGE(fs::is_directory(dir), "no schemas/ directory at " << dir.string());
  std::set<std::string> expected_files;
  for (const auto& c : assay::contracts::all()) {
    const std::string name(c.name);
    CAPTURE(name);
    const fs::path file = dir / file_name(name);
    expected_files.insert(file_name(name));
    REQUIRE_MESSAGE(fs::exists(file), "contract " << name << " has no schema file: write it with `assay schema " << name
                                                  << " > schemas/" << file_name(name) << "`");
    const std::string on_disk = assay_test::read_file(file);
    const std::string generated = cli_form(c.schema());
    CHECK_MESSAGE(on_disk == generated, "schemas/"
                                            << file_name(name) << " is out of date with its type: regenerate it with "
                                            << "`assay schema " << name << " > schemas/" << file_name(name) << "`");
    // The file is a JSON Schema whose $id, when present, names the file.
    auto parsed = assay::json::parse(on_disk);
    REQUIRE(parsed.has_value());
    const auto* schema = parsed->find("$schema");
    REQUIRE(schema != nullptr);
    CHECK(schema->as_string() == "https://json-schema.org/draft/2020-12/schema");
    if (const auto* id = parsed->find("$id")) {
      const std::string& s = id->as_string();
      CHECK(s.size() > file_name(name).size());
      CHECK(s.compare(s.size() - file_name(name).size(), file_name(name).size(), file_name(name)) == 0);
    }
  }
  // No stale files for contracts that no longer exist.
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    CHECK_MESSAGE(expected_files.count(name) == 1, "schemas/" << name << " belongs to no registered contract");
  }
}

namespace drift_test {
// A type that differs from soak_report in one constraint: its schema must not equal the file.
struct soak_limits_changed {
  static constexpr std::string_view schema_id = assay::contracts::soak_report::schema_id;
  assay::bounded<std::int64_t, 0> iterations;  // minimum 0 instead of 1
};
}  // namespace drift_test

TEST_CASE("the drift comparison notices a changed type") {
  const fs::path file = checked_in_dir() / "soak-report-v1.schema.json";
  REQUIRE(fs::exists(file));
  const std::string on_disk = assay_test::read_file(file);
  CHECK(on_disk == cli_form(assay::schema<assay::contracts::soak_report>()));
  // Change one bound in the generated schema: the bytes differ.
  auto changed = assay::schema<assay::contracts::soak_report>();
  changed.find("properties")->find("iterations")->set("minimum", 0);
  CHECK(on_disk != cli_form(changed));
  // Add a member: they differ.
  auto added = assay::schema<assay::contracts::soak_report>();
  added.find("properties")->set("extra", assay::json::object{});
  CHECK(on_disk != cli_form(added));
  CHECK(on_disk != cli_form(assay::schema<drift_test::soak_limits_changed>()));
}

TEST_CASE("every payload's schema keeps additive members: \"additionalProperties\": true (SPEC §8)") {
  std::size_t payloads = 0;
  for (const auto& t : assay::contracts::event_types()) {
    CAPTURE(t.type);
    const auto* c = assay::contracts::find(t.type);
    REQUIRE(c != nullptr);
    const auto s = c->schema();
    const auto* additional = s.find("additionalProperties");
    REQUIRE(additional != nullptr);
    CHECK(assay::json::to_canonical(*additional).value() == "true");
    CHECK(s.find("patternProperties") == nullptr);
    CHECK(s.find("properties")->find("extra") == nullptr);  // the C++ member that keeps them is no property
    // The checked-in file says the same.
    const auto file = assay::json::parse(assay_test::read_file(checked_in_dir() / file_name(t.type))).value();
    CHECK(assay::json::to_canonical(*file.find("additionalProperties")).value() == "true");
    ++payloads;
  }
  CHECK(payloads == 15);
  // The members of the reference's runtime decisions that its packs read are typed.
  const auto d = assay::contracts::find("assay.tool.decision")->schema();
  for (const char* m : {"tool_call_id", "mandate_id", "principal", "auth_scheme", "auth_issuer", "reason"}) {
    CAPTURE(m);
    REQUIRE(d.find("properties")->find(m) != nullptr);
    CHECK(d.find("properties")->find(m)->find("type")->as_string() == "string");
  }
  CHECK(assay::json::to_canonical(*d.find("properties")->find("decision")->find("enum")).value() ==
        R"(["allow","deny","requires_approval","error"])");
}
