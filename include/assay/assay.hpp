// assay/assay.hpp — the whole library in one include, floor by floor (json -> reflect -> hash /
// stats / contracts -> evidence -> lint). Each header also stands on its own: include only the
// floors you use to keep compile times down (assay/contracts/soak_report.hpp alone needs Boost
// headers only).
#pragma once

// The error type every floor reports with.
#include "assay/error.hpp"
#include "assay/result.hpp"
#include "assay/separate.hpp"
#include "assay/version.hpp"

// json/: the RFC 8259 reader and its lexer, DOM, read-only document, RFC 8785 writer, RFC 3339 times.
#include "assay/json/big_array.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/node_cursor.hpp"
#include "assay/json/inline.hpp"
#include "assay/json/lex.hpp"
#include "assay/json/name_set.hpp"
#include "assay/json/nearest.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/number.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"

// reflect/: structs as contracts: constraint types, decode, encode, JSON Schema, conformance.
#include "assay/reflect/checks.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/conform.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/decode.hpp"
#include "assay/reflect/decode_node.hpp"
#include "assay/reflect/diagnostics.hpp"
#include "assay/reflect/ecma_pattern.hpp"
#include "assay/reflect/encode.hpp"
#include "assay/reflect/fields.hpp"
#include "assay/reflect/metadata.hpp"
#include "assay/reflect/pattern.hpp"
#include "assay/reflect/pattern_unicode.hpp"
#include "assay/reflect/regex.hpp"
#include "assay/reflect/schema.hpp"
#include "assay/reflect/untyped.hpp"

// hash/: digest policies, digest strings, hashing canonical bytes.
#include "assay/hash/digest_of.hpp"
#include "assay/hash/hash.hpp"
#include "assay/hash/policy.hpp"
#include "assay/hash/sha256_each.hpp"
#include "assay/hash/sink.hpp"

// stats/: confidence intervals of a success rate.
#include "assay/stats/interval.hpp"
#include "assay/stats/jeffreys.hpp"

// contracts/: every normative document as a reflected type.
#include "assay/contracts/bundle.hpp"
#include "assay/contracts/closure.hpp"
#include "assay/contracts/dsse.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/evidence_diff.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/manifest.hpp"
#include "assay/contracts/mcp_policy.hpp"
#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/otlp.hpp"
#include "assay/contracts/pack.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/sarif.hpp"
#include "assay/contracts/show.hpp"
#include "assay/contracts/soak_drift.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/contracts/sorted.hpp"

// evidence/: recording, writing, verifying and redacting evidence bundles.
#include "assay/evidence/archive.hpp"
#include "assay/evidence/archive_read.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_data.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/read_unverified.hpp"
#include "assay/evidence/atomic_file.hpp"
#include "assay/evidence/journal.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/spill.hpp"
#include "assay/evidence/tool_definition.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"

// lint/: policy packs (the YAML reader only where libyaml is installed), the lint engine and
// its reports.
#include "assay/attest/attest.hpp"
#include "assay/attest/dsse.hpp"
#include "assay/attest/keys.hpp"

#include "assay/lint/builtin_packs.hpp"
#include "assay/lint/builtin_rules.hpp"
#include "assay/closure/observer.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/event_view.hpp"
#include "assay/lint/explain.hpp"
#include "assay/lint/glob.hpp"
#include "assay/lint/literal.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/pack_document.hpp"
#if __has_include(<yaml.h>)
#include "assay/lint/pack_yaml.hpp"
// mcp/: the MCP gate's policy and the gate (the policy is YAML: libyaml; the argument schemas below)
#include "assay/mcp/check.hpp"
#include "assay/mcp/gate.hpp"
#include "assay/mcp/policy.hpp"
#include "assay/mcp/session_log.hpp"
#endif
#include "assay/lint/report.hpp"
#include "assay/lint/resolve.hpp"
#include "assay/lint/signals.hpp"

#include "assay/otel/attributes.hpp"
#include "assay/otel/exporter.hpp"
#include "assay/otel/mapping.hpp"
#include "assay/soak/drift.hpp"
#include "assay/soak/merge.hpp"
#include "assay/soak/engine.hpp"
#include "assay/soak/targets.hpp"
#include "assay/inspect/diff.hpp"
#include "assay/inspect/show.hpp"
#include "assay/inspect/spool.hpp"
#include "assay/inspect/text.hpp"

// findings/: the finding computed from a trial ledger, and its review packets.
#include "assay/findings/render.hpp"
#include "assay/findings/stats.hpp"

// mcp/: the tool-call boundary: JSON Schema of tool arguments.
#include "assay/mcp/meta_schemas.hpp"
#include "assay/mcp/schema.hpp"
#include "assay/mcp/schema_options.hpp"
