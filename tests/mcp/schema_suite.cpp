// The official JSON Schema Test Suite (conformance/json-schema-test-suite/tests/draft2020-12 and
// draft7, the required files: not optional/) against mcp/schema.hpp. Every test of every case
// runs; a test passes when its schema compiles and the instance's verdict is the expected one.
// schema_suite_expected_failures.txt lists, with the reason, each test expected not to pass: the
// run fails both when another test does not pass and when a listed one passes (a stale list).
#include "support.hpp"

#include "assay/json/value.hpp"
#include "assay/mcp/schema.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace json = assay::json;
namespace mcp = assay::mcp;

namespace {

// "file / case description / test description" (file relative to tests/), from the lines of
// the list that are not comments; the reason follows "  # ".
std::set<std::string> expected_failures() {
  const std::string text =
      assay_test::read_file(assay_test::source_root() / "tests" / "mcp" / "schema_suite_expected_failures.txt");
  std::set<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    const std::size_t reason = line.find("  # ");
    REQUIRE_MESSAGE(reason != std::string::npos, "a line of the list without a reason: " << line);
    out.insert(line.substr(0, reason));
  }
  return out;
}

}  // namespace

TEST_CASE("JSON Schema Test Suite: draft 2020-12 and draft-07" * doctest::test_suite("conformance")) {
  const fs::path root = assay_test::conformance_dir();
  if (root.empty())
    return;
  const fs::path tests = root / "json-schema-test-suite" / "tests";
  REQUIRE(fs::is_directory(tests / "draft2020-12"));
  REQUIRE(fs::is_directory(tests / "draft7"));
  const std::set<std::string> listed = expected_failures();
  std::set<std::string> failed_listed;
  std::vector<std::string> unexpected;
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;  // draft -> passed, expected to fail
  const auto start = std::chrono::steady_clock::now();
  for (const char* draft : {"draft2020-12", "draft7"}) {
    mcp::schema_options opt;
    opt.default_dialect =
        std::string_view(draft) == "draft7" ? mcp::schema_dialect::draft7 : mcp::schema_dialect::draft2020_12;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(tests / draft))
      if (e.is_regular_file() && e.path().extension() == ".json")
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const std::string name = std::string(draft) + "/" + f.filename().string();
      auto cases = json::parse(assay_test::read_file(f));
      REQUIRE_MESSAGE(cases, name);
      for (const json::value& c : cases->as_array()) {
        const std::string case_name = c.find("description")->as_string();
        auto compiled = mcp::compile_schema(*c.find("schema"), opt);
        for (const json::value& t : c.find("tests")->as_array()) {
          const std::string key = name + " / " + case_name + " / " + t.find("description")->as_string();
          bool pass = false;
          std::string why;
          if (!compiled) {
            why = "compile error: " + compiled.error().message;
          } else {
            const auto v = compiled->validate(*t.find("data"));
            pass = v.empty() == t.find("valid")->as_bool();
            CHECK_MESSAGE(compiled->valid(*t.find("data")) == v.empty(), key);  // both paths agree
            if (!pass)
              why = v.empty() ? "accepted" : "refused: " + v[0].path + ": " + v[0].message;
          }
          if (listed.count(key) != 0) {
            if (pass) {
              unexpected.push_back("listed but passes: " + key);
            } else {
              failed_listed.insert(key);
              ++counts[draft].second;
            }
          } else if (!pass) {
            unexpected.push_back("fails: " + key + " (" + why + ")");
          } else {
            ++counts[draft].first;
          }
        }
      }
    }
  }
  for (const std::string& k : listed)
    if (failed_listed.count(k) == 0 &&
        std::find(unexpected.begin(), unexpected.end(), "listed but passes: " + k) == unexpected.end())
      unexpected.push_back("listed but not in the suite: " + k);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  for (const auto& [draft, n] : counts)
    MESSAGE(draft << ": " << n.first << " passed, " << n.second << " expected to fail");
  MESSAGE("the suite ran in " << ms << " ms");
  for (const std::string& u : unexpected)
    MESSAGE(u);
  CHECK(unexpected.empty());
}
