// Compile-time conformance: a consumer's own struct against a contract. Everything here is a
// static_assert; the test cases only exist so that the file is a test like the others.
#include "support.hpp"

#include "assay/contracts/closure.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/conform.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conform_test {

// --- a small contract -----------------------------------------------------------------------

struct c_inner {
  assay::non_empty name;
  std::optional<assay::bounded<int, 0>> count{};
};

struct contract {
  assay::const_string<"c-v1"> schema_version;
  assay::bounded<double, 0, 1> rate;
  assay::bounded<std::int64_t, 1> runs;
  assay::one_of<"a", "b"> mode;
  std::vector<c_inner> items;
  std::map<std::string, assay::bounded<std::int64_t, 1>> counts;
  assay::nullable<std::int64_t> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string x_ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "x_ext", .json_name = "x-ext"}};
};

// Same JSON shape, different C++ types, different declaration order.
struct u_inner {
  std::optional<long> count{};
  std::string name;
};
struct same_shape {
  std::string mode;            // one_of → string
  int rate;                    // an integer where the contract has a number
  long long runs;              // bounded<int64> → integer
  std::string schema_version;  // const_string → string
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<assay::non_empty> note{};
  std::vector<int> data;  // json::value in the contract takes anything
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(assay::conforms_to<same_shape, contract>);
static_assert(assay::conforms_to<contract, contract>);

// Fixed arrays and lists are both JSON arrays. (A std::array of std::string as a member makes
// g++ 12 crash inside Boost.PFR's field counting, so the element type here is a number.)
struct c_numbers {
  assay::list<assay::bounded<double, 0>, 1> values;
};
struct u_numbers {
  std::array<int, 3> values;
};
static_assert(assay::conforms_to<u_numbers, c_numbers>);
static_assert(!assay::conforms_to<c_numbers, u_numbers>);  // numbers where integers are wanted
struct u_strings {
  std::vector<std::string> values;
};
static_assert(!assay::conforms_to<u_strings, c_numbers>);

// Unique items are a constraint like the bounds: not compared. A plain std::vector stands for a
// unique_list (its items are checked when the value is encoded through the contract), and a
// unique_list for a plain array.
struct c_labels {
  assay::unique_list<assay::non_empty, 1> labels;
};
struct u_labels {
  std::vector<std::string> labels;
};
static_assert(assay::conforms_to<u_labels, c_labels>);
static_assert(assay::conforms_to<c_labels, u_labels>);
static_assert(!assay::conforms_to<c_numbers, c_labels>);  // the item types still have to agree

// --- negative cases, each differing from same_shape in one respect ---------------------------

struct missing_member {  // no "x-ext"
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
};
static_assert(!assay::conforms_to<missing_member, contract>);

struct extra_member {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  std::optional<int> extra{};  // even an optional extra member is not in the contract
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<extra_member, contract>);

struct wrong_name {  // "x_ext" instead of "x-ext": same count, one name differs
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string x_ext;
};
static_assert(!assay::conforms_to<wrong_name, contract>);

struct optional_where_required {
  std::optional<std::string> mode{};  // required in the contract
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<optional_where_required, contract>);

struct required_where_optional {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::string note;  // optional in the contract
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<required_where_optional, contract>);

struct string_for_integer {
  std::string mode;
  int rate;
  std::string runs;  // integer in the contract
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<string_for_integer, contract>);

struct number_for_integer {
  std::string mode;
  int rate;
  double runs;  // a number where the contract wants an integer: not the other way round
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<number_for_integer, contract>);

struct bool_for_string {
  bool mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<bool_for_string, contract>);

struct u_inner_bad {  // name is an integer
  std::optional<long> count{};
  int name;
};
struct nested_mismatch {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner_bad> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<nested_mismatch, contract>);

struct u_inner_required_count {  // count required in the nested struct
  long count;
  std::string name;
};
struct nested_required_mismatch {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner_required_count> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<nested_required_mismatch, contract>);

struct not_nullable {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  int first;  // the contract allows null here
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<not_nullable, contract>);

struct array_for_map {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::vector<int> counts;  // an object in the contract
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<array_for_map, contract>);

struct struct_for_map {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  u_inner counts;  // a struct where the contract has a map
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<struct_for_map, contract>);

struct map_value_mismatch {
  std::string mode;
  int rate;
  long long runs;
  std::string schema_version;
  std::vector<u_inner> items;
  std::map<std::string, std::string> counts;  // values are integers in the contract
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<map_value_mismatch, contract>);

struct any_for_string {  // the contract's "any" takes anything, but not the other way round
  std::string mode;
  int rate;
  long long runs;
  assay::json::value schema_version;
  std::vector<u_inner> items;
  std::map<std::string, int> counts;
  assay::nullable<int> first;
  std::optional<std::string> note{};
  assay::json::value data;
  std::string ext;
  static constexpr assay::field_info assay_fields[] = {{.field = "ext", .json_name = "x-ext"}};
};
static_assert(!assay::conforms_to<any_for_string, contract>);

// Non-structs never conform.
static_assert(!assay::conforms_to<int, contract>);
static_assert(!assay::conforms_to<contract, int>);

// --- the real contracts ------------------------------------------------------------------

// A consumer's soak report: plain standard types throughout.
struct my_limits {
  long max_bundle_bytes, max_decode_bytes, max_manifest_bytes, max_events_bytes, max_events, max_line_bytes,
      max_path_len, max_json_depth;
};
struct my_pack {
  std::string name, version;
  std::optional<std::string> kind{}, digest{}, source{};
};
struct my_policy {
  std::string pass_on_severity_at_or_above;
  std::optional<bool> stop_on_first_failure{};
  std::optional<int> max_failures{};
};
struct my_results {
  int runs, passes, failures, infra_errors;
  int pass_rate;  // integer where the contract has a number: allowed
  bool pass_all;
  std::optional<assay::nullable<int>> first_failure_at{};
  std::optional<std::map<std::string, int>> violations_by_rule{}, infra_errors_by_kind{};
  std::optional<std::vector<double>> pass_rate_ci95{};
};
struct my_run {
  int index;
  std::string status;
  long duration_ms;
  std::optional<std::vector<std::string>> violated_rules{};
  std::optional<std::string> infra_error_kind{}, infra_error_message{};
};
struct my_soak_report {
  std::string schema_version, mode;
  std::optional<std::string> generated_at{}, assay_version{}, suite{};
  long iterations;
  std::uint64_t seed;
  long time_budget_secs;
  my_limits limits;
  std::vector<my_pack> packs;
  std::optional<my_policy> decision_policy{};
  my_results results;
  std::optional<std::vector<my_run>> runs{};
};
static_assert(assay::conforms_to<my_soak_report, assay::contracts::soak_report>);
static_assert(assay::conforms_to<assay::contracts::soak_report, assay::contracts::soak_report>);
static_assert(!assay::conforms_to<my_soak_report, assay::contracts::closure_report>);

// first_failure_at without null: not the same JSON.
struct my_results_no_null {
  int runs, passes, failures, infra_errors;
  double pass_rate;
  bool pass_all;
  std::optional<int> first_failure_at{};
  std::optional<std::map<std::string, int>> violations_by_rule{}, infra_errors_by_kind{};
  std::optional<std::vector<double>> pass_rate_ci95{};
};
struct my_soak_report_no_null {
  std::string schema_version, mode;
  std::optional<std::string> generated_at{}, assay_version{}, suite{};
  long iterations;
  std::uint64_t seed;
  long time_budget_secs;
  my_limits limits;
  std::vector<my_pack> packs;
  std::optional<my_policy> decision_policy{};
  my_results_no_null results;
  std::optional<std::vector<my_run>> runs{};
};
static_assert(!assay::conforms_to<my_soak_report_no_null, assay::contracts::soak_report>);

// A consumer's closure report.
struct my_detail {
  std::string status;
  std::optional<std::string> reason{};
  std::optional<std::vector<std::string>> evidence_paths{};
  struct commitment_t {
    std::string alg, digest;
    std::optional<long> size_bytes{};
  };
  std::optional<commitment_t> commitment{};
};
struct my_completeness {
  std::vector<std::string> required, captured, redacted, unknown;
  std::optional<std::map<std::string, my_detail>> by_signal{};
};
struct my_scoring {
  std::string method;
  std::map<std::string, float> weights;
};
struct my_closure {
  double score;
  std::string confidence;
  std::vector<std::string> captured, missing;
  std::optional<std::vector<std::string>> uncontrolled_dependencies{};
  std::optional<my_scoring> scoring{};
};
struct my_pack_ref {
  std::string name, version;
  std::optional<std::string> kind{}, digest{};
};
struct my_closure_report {
  std::string schema_version;
  std::optional<std::string> generated_at{}, bundle_digest{};
  std::optional<std::vector<my_pack_ref>> pack_context{};
  my_completeness completeness;
  my_closure closure;
};
static_assert(assay::conforms_to<my_closure_report, assay::contracts::closure_report>);

// closure's pack_ref has no "source": the soak pack_ref does not fit there.
struct my_closure_report_soak_packs {
  std::string schema_version;
  std::optional<std::string> generated_at{}, bundle_digest{};
  std::optional<std::vector<my_pack>> pack_context{};
  my_completeness completeness;
  my_closure closure;
};
static_assert(!assay::conforms_to<my_closure_report_soak_packs, assay::contracts::closure_report>);

// A consumer's trial ledger (finding-v1's input): its label lists are plain vectors.
struct my_trial {
  long trial_index;
  std::string route;
  bool succeeded;
  std::string transcript_ref;
  struct evidence_t {
    std::string oracle, observed;
  } evidence;
  std::optional<std::string> framing{}, probe_id{}, technique_id{}, mutation_id{};
};
struct my_binding {
  std::string hypothesis_id;
  std::optional<std::vector<std::string>> owasp_asi{}, atlas{};
  std::optional<std::string> graph_ref{};
};
struct my_ledger {
  std::string intent;
  std::optional<std::string> case_family{};
  std::optional<std::vector<std::string>> techniques{}, mutations{}, framings{};
  std::vector<my_trial> trial_results;
  std::optional<std::string> miss_summary{};
  std::optional<my_binding> hypothesis_binding{};
};
static_assert(assay::conforms_to<my_ledger, assay::contracts::trial_ledger>);

}  // namespace conform_test

TEST_CASE("conformance is decided at compile time") {
  // The static_asserts above are the test; conforms_to is also usable at run time.
  CHECK(assay::conforms_to<conform_test::same_shape, conform_test::contract>);
  CHECK_FALSE(assay::conforms_to<conform_test::missing_member, conform_test::contract>);
}

TEST_CASE("a conforming struct with repeated items does not decode as a contract that wants them unique") {
  const conform_test::u_labels mine{{"a", "b", "a"}};
  auto bytes = assay::encode(mine);  // fine as a plain vector
  REQUIRE(bytes.has_value());
  CHECK(*bytes == R"({"labels":["a","b","a"]})");
  auto as_contract = assay::decode<conform_test::c_labels>(*bytes);
  REQUIRE_FALSE(as_contract.has_value());
  REQUIRE(as_contract.error().size() == 1);
  CHECK(as_contract.error().front().code == assay::errc::duplicate_item);
  CHECK(as_contract.error().front().pointer == "/labels/2");
  CHECK(as_contract.error().front().message == R"(item 2 repeats item 0 ("a"))");
}

TEST_CASE("a conforming struct's bytes decode as the contract") {
  conform_test::my_closure_report mine{};
  mine.schema_version = "closure-v1";
  mine.completeness.required = {"tool_calls"};
  mine.completeness.captured = {"tool_calls"};
  mine.closure.score = 1;
  mine.closure.confidence = "high";
  auto bytes = assay::encode(mine);
  REQUIRE(bytes.has_value());
  auto as_contract = assay::decode<assay::contracts::closure_report>(*bytes);
  REQUIRE_MESSAGE(as_contract.has_value(), as_contract.error().format());
  CHECK(assay::encode(*as_contract).value() == *bytes);
}
