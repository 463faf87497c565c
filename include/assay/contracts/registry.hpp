// assay/contracts/registry.hpp — every contract by its name (SPEC §17), type-erased, so that
// tools can list, validate and print schemas of contracts chosen at run time.
#pragma once

#include "assay/contracts/closure.hpp"
#include "assay/contracts/dsse.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/manifest.hpp"
#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/pack.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/error.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

struct contract {
  std::string_view name;                                                      // "soak-report-v1"
  json::value (*schema)();                                                    // generated JSON Schema
  results<void> (*validate)(std::string_view text, const json::limits& lim);  // strict decode
};

template <class T>
constexpr contract make_contract(std::string_view name) {
  return contract{
      name,
      [] { return assay::schema<T>(); },
      [](std::string_view text, const json::limits& lim) -> results<void> {
        auto r = assay::decode<T>(text, lim);
        if (!r)
          return r.error();
        return {};
      },
  };
}

// Every contract of SPEC §17, in name order: the reports and documents, then each payload under
// its event type. (The trial ledger a finding is computed from is an input, not a §17 contract.)
inline std::span<const contract> all() {
  static const std::vector<contract> list = [] {
    std::vector<contract> l{
        make_contract<closure_report>("closure-v1"),
        make_contract<dsse_envelope>("dsse-envelope-v1"),
        contract{"evidence-event-v1", [] { return assay::schema<evidence_event<>>(); },
                 [](std::string_view text, const json::limits& lim) -> results<void> {
                   auto r = read_event(text, lim);
                   if (!r)
                     return r.error();
                   return {};
                 }},
        make_contract<finding>("finding-v1"),
        make_contract<intoto_statement>("intoto-statement-v1"),
        make_contract<lint_report>("lint-report-v1"),
        make_contract<manifest>("manifest-v1"),
        make_contract<otel_export_report>("otel-export-report-v1"),
        make_contract<pack>("pack-v1"),
        make_contract<soak_report>("soak-report-v1"),
    };
    for (const event_type_entry& e : event_types())
      l.push_back(contract{e.type, e.schema, e.validate_payload});
    std::sort(l.begin(), l.end(), [](const contract& a, const contract& b) { return a.name < b.name; });
    return l;
  }();
  return list;
}

inline const contract* find(std::string_view name) {
  for (const contract& c : all())
    if (c.name == name)
      return &c;
  return nullptr;
}

// True for the codes that mean "this is not JSON at all" (error.hpp).
using assay::is_syntax_error;

}  // namespace assay::contracts
