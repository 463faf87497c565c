// record_session — a C++ agent runtime records a short session as evidence, writes the bundle,
// and verifies what it wrote, as the Rust `assay` would.
//
//   record_session OUT.tar.gz
#include "assay/contracts/payloads.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace c = assay::contracts;
namespace ev = assay::evidence;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record_session OUT.tar.gz\n");
    return 2;
  }
  auto made = ev::recorder::make({.source = "urn:assay:example:record-session",
                                  .run_id = "",
                                  .producer = {"record-session-example", "0.1.0", std::nullopt},
                                  .policy_id = "policy:default"});
  auto check = [](const auto& r, const char* what) {
    if (!r) {
      std::fprintf(stderr, "refused %s:\n%s\n", what, r.error().format().c_str());
      std::exit(1);
    }
  };
  check(made, "the recorder's options");
  ev::recorder& run = *made;
  check(run.append(
            c::profile_started::event_type,
            c::profile_started{.profile_name = "coding-agent", .profile_version = "1.2.0", .total_runs_aggregated = 1}),
        "profile started");
  check(run.append(c::env_filtered::event_type,
                   c::env_filtered{.mode = "strict",
                                   .passed_keys = {"HOME", "PATH"},
                                   .dropped_keys = {"AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY"},
                                   .counters = {{"dropped", 2}, {"passed", 2}}}),
        "environment filtering");
  // What a replay needs (docs/packs.md): the model that served the run and the seed it drew from.
  check(run.append("assay.model.invoked",
                   assay::json::parse(R"({"model":"example-model-1","provider":"example"})").value()),
        "the model");
  check(run.append("assay.run.seed", assay::json::parse(R"({"seed":42})").value()), "the seed");
  c::tool_decision read{.tool = "read_file", .decision = "allow", .reason_code = "P_ALLOW_READ"};
  read.policy_digest = "sha256:1f39a541bdfda88c46f6561084909883101e93f0fc7a5e041b408ce38d340069";
  check(run.append(c::tool_decision::event_type, read, {.subject = "tool:read_file"}), "a tool decision");
  check(run.append(
            "assay.tool.call",
            assay::json::parse(R"({"tool":"read_file","call_id":"c1","arguments":{"path":"src/main.cpp"}})").value(),
            {.subject = "tool:read_file"}),
        "a tool call");
  check(run.append(c::tool_decision::event_type,
                   c::tool_decision{.tool = "shell_exec", .decision = "deny", .reason_code = "E_POLICY_DENY"},
                   {.subject = "tool:shell_exec"}),
        "a tool decision");

  // A runtime bug: a half-filled policy snapshot cluster. The payload type refuses it.
  c::tool_decision broken{.tool = "write_file", .decision = "requires_approval", .reason_code = "P_ASK"};
  broken.policy_snapshot_digest = "sha256:00";
  if (auto r = run.append(c::tool_decision::event_type, broken); !r) {
    std::printf("a deliberate runtime bug (a half-filled policy snapshot), refused before it became evidence:\n");
    for (const auto& e : r.error())
      std::printf("  %s\n", e.format_pointer_line().c_str());
  }

  check(run.append(c::profile_finished::event_type,
                   c::profile_finished{
                       .files_count = 1, .network_count = 0, .processes_count = 0, .sandbox_degradation_count = 0}),
        "profile finished");

  auto gz = run.finish();
  if (!gz) {
    std::fprintf(stderr, "%s\n", gz.error().format().c_str());
    return 1;
  }
  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr || std::fwrite(gz->data(), 1, gz->size(), f) != gz->size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 3;
  }
  auto v = ev::verify_bundle_file(argv[1]);
  if (!v) {
    std::fprintf(stderr, "%s: %s\n", std::string(assay::name(v.error().code)).c_str(), v.error().message.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu bytes): run %s, %llu events, bundle_id %s\n", argv[1], gz->size(), v->run_id.c_str(),
              static_cast<unsigned long long>(v->event_count), v->bundle_id.c_str());
  return 0;
}
