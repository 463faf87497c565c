// Every verb of the CLI, one registration function each: it adds its subcommand to `parent` (the
// application for a top-level verb, its noun's group otherwise) and gives `d` its action.
// main.cpp calls them all; each is defined in its own translation unit.
#pragma once

#include "cli.hpp"

namespace assay_cli {

// Top level: jcs.cpp, digest.cpp, schema.cpp, validate.cpp.
void add_jcs(CLI::App& parent, dispatcher& d);
void add_digest(CLI::App& parent, dispatcher& d);
void add_schema(CLI::App& parent, dispatcher& d);
void add_validate(CLI::App& parent, dispatcher& d);

// `assay evidence ...`: evidence/<verb>.cpp.
void add_evidence_bundle(CLI::App& evidence, dispatcher& d);
void add_evidence_record(CLI::App& evidence, dispatcher& d);
void add_evidence_recover(CLI::App& evidence, dispatcher& d);
void add_evidence_verify(CLI::App& evidence, dispatcher& d);
void add_evidence_redact(CLI::App& evidence, dispatcher& d);
void add_evidence_lint(CLI::App& evidence, dispatcher& d);
void add_evidence_closure(CLI::App& evidence, dispatcher& d);
void add_evidence_attest(CLI::App& evidence, dispatcher& d);
void add_evidence_verify_attestation(CLI::App& evidence, dispatcher& d);
void add_evidence_show(CLI::App& evidence, dispatcher& d);
void add_evidence_diff(CLI::App& evidence, dispatcher& d);
void add_evidence_export_otel(CLI::App& evidence, dispatcher& d);

// `assay sim ...`: sim/<verb>.cpp.
void add_sim_soak(CLI::App& sim, dispatcher& d);
void add_sim_drift(CLI::App& sim, dispatcher& d);
void add_sim_merge(CLI::App& sim, dispatcher& d);

// `assay finding ...`: finding/<verb>.cpp.
void add_finding_stats(CLI::App& finding, dispatcher& d);
void add_finding_render(CLI::App& finding, dispatcher& d);

// `assay pack ...`: pack/<verb>.cpp.
void add_pack_check(CLI::App& pack, dispatcher& d);
void add_pack_show(CLI::App& pack, dispatcher& d);

// `assay mcp ...`: mcp/<verb>.cpp.
void add_mcp_wrap(CLI::App& mcp, dispatcher& d);
void add_mcp_check(CLI::App& mcp, dispatcher& d);

}  // namespace assay_cli
