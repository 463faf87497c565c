// Hand-written soak-report-v1 and closure-v1 documents, in canonical (JCS) form, shared by the
// contract tests.
#pragma once

#include <string>

namespace assay_test::docs {

// Every optional member present.
inline const std::string soak_full =
    R"({"assay_version":"0.1.0",)"
    R"("decision_policy":{"max_failures":3,"pass_on_severity_at_or_above":"error","stop_on_first_failure":false},)"
    R"("generated_at":"2023-11-14T22:13:20Z",)"
    R"("iterations":4,)"
    R"("limits":{"max_bundle_bytes":104857600,"max_decode_bytes":1073741824,"max_events":100000,)"
    R"("max_events_bytes":524288000,"max_json_depth":64,"max_line_bytes":1048576,"max_manifest_bytes":10485760,)"
    R"("max_path_len":256},)"
    R"("mode":"soak",)"
    R"("packs":[{"digest":"sha256:f47d932cdad4bde369ed0a7cf26fdcf4077777296346c4102d9017edbc62a070",)"
    R"("kind":"compliance","name":"eu-ai-act-baseline","source":"built-in","version":"1.0.0"},)"
    R"({"name":"cicd-starter","version":"0.1.0"}],)"
    R"("results":{"failures":1,"first_failure_at":2,"infra_errors":1,"infra_errors_by_kind":{"subprocess_failed":1},)"
    R"("pass_all":false,"pass_rate":0.5,"pass_rate_ci95":[0.15,0.85],"passes":2,"runs":4,)"
    R"("violations_by_rule":{"cicd-starter@0.1.0:events-present":2,"eu-ai-act-baseline@1.0.0:EU12-001":1}},)"
    R"("runs":[{"duration_ms":120,"index":1,"status":"pass"},)"
    R"({"duration_ms":98,"index":2,"status":"fail","violated_rules":["eu-ai-act-baseline@1.0.0:EU12-001",)"
    R"("cicd-starter@0.1.0:events-present"]},)"
    R"({"duration_ms":0,"index":3,"infra_error_kind":"subprocess_failed","infra_error_message":"exit status 2",)"
    R"("status":"infra_error"},)"
    R"({"duration_ms":101,"index":4,"status":"pass","violated_rules":["cicd-starter@0.1.0:events-present"]}],)"
    R"("schema_version":"soak-report-v1",)"
    R"("seed":42,)"
    R"("suite":"nightly",)"
    R"("time_budget_secs":3600})";

// Only the required members.
inline const std::string soak_minimal =
    R"({"iterations":1,)"
    R"("limits":{"max_bundle_bytes":1,"max_decode_bytes":1,"max_events":1,"max_events_bytes":1,"max_json_depth":1,)"
    R"("max_line_bytes":1,"max_manifest_bytes":1,"max_path_len":1},)"
    R"("mode":"soak",)"
    R"("packs":[{"name":"p","version":"1"}],)"
    R"("results":{"failures":0,"infra_errors":0,"pass_all":true,"pass_rate":1,"passes":1,"runs":1},)"
    R"("schema_version":"soak-report-v1",)"
    R"("seed":0,)"
    R"("time_budget_secs":1})";

inline const std::string closure_full =
    R"({"bundle_digest":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",)"
    R"("closure":{"captured":["model_identity","run_inputs"],"confidence":"medium",)"
    R"("missing":["rng_seeds","tool_io_bodies"],"score":0.5,)"
    R"("scoring":{"method":"weighted_ratio_v1","weights":{"model_identity":0.2,"rng_seeds":0.2,"run_inputs":0.3,)"
    R"("tool_io_bodies":0.3}},)"
    R"("uncontrolled_dependencies":["network:api.example.com:443","tool:web_search"]},)"
    R"("completeness":{"by_signal":{)"
    R"("human_approvals":{"evidence_paths":["/data/approver"],"reason":"no assay.approval.recorded event",)"
    R"("status":"unknown"},)"
    R"("policy_decisions":{"status":"captured"},)"
    R"("tool_io_bodies":{"commitment":{"alg":"sha256",)"
    R"("digest":"sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae","size_bytes":1024},)"
    R"("evidence_paths":["/data/arguments","/data/result"],"status":"redacted"}},)"
    R"("captured":["policy_decisions"],"redacted":["tool_io_bodies"],)"
    R"("required":["human_approvals","policy_decisions","tool_io_bodies"],"unknown":["human_approvals"]},)"
    R"("generated_at":"2023-11-14T22:13:20.5Z",)"
    R"("pack_context":[{"digest":"sha256:f47d932cdad4bde369ed0a7cf26fdcf4077777296346c4102d9017edbc62a070",)"
    R"("kind":"compliance","name":"eu-ai-act-baseline","version":"1.0.0"},{"name":"cicd-starter","version":"0.1.0"}],)"
    R"("schema_version":"closure-v1"})";

inline const std::string closure_minimal = R"({"closure":{"captured":[],"confidence":"low","missing":[],"score":0},)"
                                           R"("completeness":{"captured":[],"redacted":[],"required":[],"unknown":[]},)"
                                           R"("schema_version":"closure-v1"})";

}  // namespace assay_test::docs
