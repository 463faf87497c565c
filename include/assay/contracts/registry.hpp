// assay/contracts/registry.hpp — every contract by its name (docs/cli.md), type-erased, so that
// tools can list, validate and print schemas of contracts chosen at run time.
//
//   for (const auto& c : assay::contracts::all()) ...      // name order
//   const auto* c = assay::contracts::find("soak-report-v1");   // nullptr when unknown
//   auto ok = c->validate(text, {});                           // results<void>
//
// The table holds a decoder and a schema generator for every contract: compiling them is most of
// the cost of this header, so `all` and `find` are templates over the payload types listed (the
// known ones by default) and the table is compiled only in a translation unit that calls them.
// Including this header alone parses every contract and instantiates nothing. To validate or
// describe one contract known at compile time, include its own header and call
// assay::decode<T> / assay::schema<T> instead.
#pragma once

#include "assay/contracts/closure.hpp"
#include "assay/contracts/dsse.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
#include "assay/contracts/evidence_diff.hpp"
#include "assay/contracts/finding.hpp"
#include "assay/contracts/intoto.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/manifest.hpp"
#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/pack.hpp"
#include "assay/contracts/soak_drift.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/error.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <vector>

namespace assay::contracts {

struct contract {
  std::string_view name;                                                      // "soak-report-v1"
  json::value (*schema)();                                                    // generated JSON Schema
  results<void> (*validate)(std::string_view text, const json::limits& lim);  // strict decode
};

// The entry of contract T under `name`: its schema, and a strict decode of T.
template <class T>
contract make_contract(std::string_view name) {
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

// Every contract of docs/cli.md, in name order: the reports and documents, then each payload of
// `Payloads` under its event type. An event is validated as read_event<Payloads> reads it (its
// payload too when its type is listed). (The trial ledger a finding is computed from is an
// input, not a contract of the CLI.)
template <class Payloads = known_payloads>
std::span<const contract> all() {
  static const std::vector<contract> list = [] {
    std::vector<contract> l{
        make_contract<closure_report>("closure-v1"),
        make_contract<dsse_envelope>("dsse-envelope-v1"),
        contract{"evidence-event-v1", [] { return assay::schema<evidence_event<>>(); },
                 [](std::string_view text, const json::limits& lim) -> results<void> {
                   auto r = read_event<Payloads>(text, lim);
                   if (!r)
                     return r.error();
                   return {};
                 }},
        make_contract<evidence_diff>("evidence-diff-v1"),
        make_contract<finding>("finding-v1"),
        make_contract<intoto_statement>("intoto-statement-v1"),
        make_contract<lint_report>("lint-report-v1"),
        make_contract<manifest>("manifest-v1"),
        make_contract<otel_export_report>("otel-export-report-v1"),
        make_contract<pack>("pack-v1"),
        make_contract<soak_drift>("soak-drift-v1"),
        make_contract<soak_report>("soak-report-v1"),
    };
    for (const contract& c : Payloads::table([]<class P>() { return make_contract<P>(P::event_type); }))
      l.push_back(c);
    std::sort(l.begin(), l.end(), [](const contract& a, const contract& b) { return a.name < b.name; });
    return l;
  }();
  return list;
}

template <class Payloads = known_payloads>
const contract* find(std::string_view name) {
  for (const contract& c : all<Payloads>())
    if (c.name == name)
      return &c;
  return nullptr;
}

// True for the codes that mean "this is not JSON at all" (error.hpp).
using assay::is_syntax_error;

}  // namespace assay::contracts
