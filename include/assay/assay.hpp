// assay/assay.hpp — the whole library in one include, floor by floor (json -> reflect -> hash /
// contracts -> evidence). Each header also stands on its own: include only the floors you use
// to keep compile times down (assay/contracts/soak_report.hpp alone needs Boost headers only).
#pragma once

// The error type every floor reports with.
#include "assay/error.hpp"

// json/: the RFC 8259 reader, DOM, read-only document, RFC 8785 canonical writer.
#include "assay/json/big_array.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/number.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"

// reflect/: reflected structs, their constraints, strict decode, canonical encode, JSON Schema.
#include "assay/reflect/checks.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/conform.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/fields.hpp"
#include "assay/reflect/pattern.hpp"
#include "assay/reflect/schema.hpp"

// hash/: digests of bytes, of JSON values and of reflected values.
#include "assay/hash/digest_of.hpp"
#include "assay/hash/hash.hpp"

// contracts/: every contract of SPEC §17, the known event types and the registry by name.
#include "assay/contracts/closure.hpp"
#include "assay/contracts/dsse.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/manifest.hpp"
#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/pack.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/contracts/registry.hpp"
#include "assay/contracts/soak_report.hpp"

// evidence/: recording, redacting, writing and verifying evidence bundles.
#include "assay/evidence/archive.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/tool_definition.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
