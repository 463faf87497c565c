// Compile-time baseline for (a): the same soak report members as assay's soak_report, as plain
// structs read and written with nlohmann-json (optional members omitted when absent, the nullable
// first_failure_at kept apart from an absent one). Parses a report and dumps it (sorted keys).
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plain {

using nlohmann::json;

template <class T>
void get_opt(const json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end())
    out = it->template get<T>();
}
template <class T>
void put_opt(json& j, const char* key, const std::optional<T>& v) {
  if (v)
    j[key] = *v;
}

struct limits {
  std::int64_t max_bundle_bytes, max_decode_bytes, max_manifest_bytes, max_events_bytes, max_events, max_line_bytes,
      max_path_len, max_json_depth;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(limits, max_bundle_bytes, max_decode_bytes, max_manifest_bytes, max_events_bytes,
                                   max_events, max_line_bytes, max_path_len, max_json_depth)

struct pack_ref {
  std::string name, version;
  std::optional<std::string> kind, digest, source;
};
void to_json(json& j, const pack_ref& p) {
  j = json{{"name", p.name}, {"version", p.version}};
  put_opt(j, "kind", p.kind);
  put_opt(j, "digest", p.digest);
  put_opt(j, "source", p.source);
}
void from_json(const json& j, pack_ref& p) {
  j.at("name").get_to(p.name);
  j.at("version").get_to(p.version);
  get_opt(j, "kind", p.kind);
  get_opt(j, "digest", p.digest);
  get_opt(j, "source", p.source);
}

struct decision_policy {
  std::string pass_on_severity_at_or_above;
  std::optional<bool> stop_on_first_failure;
  std::optional<std::int64_t> max_failures;
};
void to_json(json& j, const decision_policy& d) {
  j = json{{"pass_on_severity_at_or_above", d.pass_on_severity_at_or_above}};
  put_opt(j, "stop_on_first_failure", d.stop_on_first_failure);
  put_opt(j, "max_failures", d.max_failures);
}
void from_json(const json& j, decision_policy& d) {
  j.at("pass_on_severity_at_or_above").get_to(d.pass_on_severity_at_or_above);
  get_opt(j, "stop_on_first_failure", d.stop_on_first_failure);
  get_opt(j, "max_failures", d.max_failures);
}

struct results {
  std::int64_t runs, passes, failures, infra_errors;
  double pass_rate;
  bool pass_all = false;
  std::optional<std::optional<std::int64_t>> first_failure_at;  // absent, null or a run
  std::optional<std::map<std::string, std::int64_t>> violations_by_rule, infra_errors_by_kind;
  std::optional<std::array<double, 2>> pass_rate_ci95;
};
void to_json(json& j, const results& r) {
  j = json{{"runs", r.runs},           {"passes", r.passes},
           {"failures", r.failures},   {"infra_errors", r.infra_errors},
           {"pass_rate", r.pass_rate}, {"pass_all", r.pass_all}};
  if (r.first_failure_at)
    j["first_failure_at"] = *r.first_failure_at ? json(**r.first_failure_at) : json(nullptr);
  put_opt(j, "violations_by_rule", r.violations_by_rule);
  put_opt(j, "infra_errors_by_kind", r.infra_errors_by_kind);
  put_opt(j, "pass_rate_ci95", r.pass_rate_ci95);
}
void from_json(const json& j, results& r) {
  j.at("runs").get_to(r.runs);
  j.at("passes").get_to(r.passes);
  j.at("failures").get_to(r.failures);
  j.at("infra_errors").get_to(r.infra_errors);
  j.at("pass_rate").get_to(r.pass_rate);
  j.at("pass_all").get_to(r.pass_all);
  if (auto it = j.find("first_failure_at"); it != j.end())
    r.first_failure_at = it->is_null() ? std::optional<std::int64_t>() : it->get<std::int64_t>();
  get_opt(j, "violations_by_rule", r.violations_by_rule);
  get_opt(j, "infra_errors_by_kind", r.infra_errors_by_kind);
  get_opt(j, "pass_rate_ci95", r.pass_rate_ci95);
}

struct run_result {
  std::int64_t index;
  std::string status;
  std::int64_t duration_ms;
  std::optional<std::vector<std::string>> violated_rules;
  std::optional<std::string> infra_error_kind, infra_error_message;
};
void to_json(json& j, const run_result& r) {
  j = json{{"index", r.index}, {"status", r.status}, {"duration_ms", r.duration_ms}};
  put_opt(j, "violated_rules", r.violated_rules);
  put_opt(j, "infra_error_kind", r.infra_error_kind);
  put_opt(j, "infra_error_message", r.infra_error_message);
}
void from_json(const json& j, run_result& r) {
  j.at("index").get_to(r.index);
  j.at("status").get_to(r.status);
  j.at("duration_ms").get_to(r.duration_ms);
  get_opt(j, "violated_rules", r.violated_rules);
  get_opt(j, "infra_error_kind", r.infra_error_kind);
  get_opt(j, "infra_error_message", r.infra_error_message);
}

struct soak_report {
  std::string schema_version, mode;
  std::optional<std::string> generated_at, assay_version, suite;
  std::int64_t iterations;
  std::uint64_t seed;
  std::int64_t time_budget_secs;
  plain::limits limits;
  std::vector<pack_ref> packs;
  std::optional<plain::decision_policy> decision_policy;
  plain::results results;
  std::optional<std::vector<run_result>> runs;
};
void to_json(json& j, const soak_report& s) {
  j = json{{"schema_version", s.schema_version},
           {"mode", s.mode},
           {"iterations", s.iterations},
           {"seed", s.seed},
           {"time_budget_secs", s.time_budget_secs},
           {"limits", s.limits},
           {"packs", s.packs},
           {"results", s.results}};
  put_opt(j, "generated_at", s.generated_at);
  put_opt(j, "assay_version", s.assay_version);
  put_opt(j, "suite", s.suite);
  put_opt(j, "decision_policy", s.decision_policy);
  put_opt(j, "runs", s.runs);
}
void from_json(const json& j, soak_report& s) {
  j.at("schema_version").get_to(s.schema_version);
  j.at("mode").get_to(s.mode);
  get_opt(j, "generated_at", s.generated_at);
  get_opt(j, "assay_version", s.assay_version);
  get_opt(j, "suite", s.suite);
  j.at("iterations").get_to(s.iterations);
  j.at("seed").get_to(s.seed);
  j.at("time_budget_secs").get_to(s.time_budget_secs);
  j.at("limits").get_to(s.limits);
  j.at("packs").get_to(s.packs);
  get_opt(j, "decision_policy", s.decision_policy);
  j.at("results").get_to(s.results);
  get_opt(j, "runs", s.runs);
}

}  // namespace plain

int main(int argc, char** argv) {
  if (argc != 2)
    return 2;
  std::ifstream in(argv[1], std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    const auto report = nlohmann::json::parse(text).get<plain::soak_report>();
    const std::string bytes = nlohmann::json(report).dump();
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
