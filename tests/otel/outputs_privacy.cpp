// Nothing leaves in the clear (SPEC §9, docs/privacy.md): every payload type the registry knows
// (contracts::known_payloads) × every member that is not public, and one additive member of each,
// × every output that goes to another system from a bundle — the OTLP export and its report, the
// diff report (JSON and text), the lint report and its SARIF log — with values that carry a home
// path and a secret marker: none reaches an output as written.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/inspect/diff.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/builtin_packs.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/report.hpp"
#include "assay/otel/exporter.hpp"
#include "assay/reflect/codec.hpp"

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

namespace json = assay::json;
namespace otel = assay::otel;
namespace lint = assay::lint;

namespace {

constexpr std::string_view home_path = "/home/alice/secret.txt";
constexpr std::string_view secret = "token=abc123";
// What must not appear: the home directory and the secret's value.
constexpr std::string_view leaks[] = {"/home/alice", "abc123"};

struct planted {
  std::string type, member;  // the member planted (its JSON name), or the subject ("")
};

// A string value carrying both, and a nested one: an object with an array.
json::value planted_value() {
  json::value inner = json::object{};
  json::array list;
  list.emplace_back(std::string(home_path));
  list.emplace_back("Authorization: Bearer abc123");
  inner.set("paths", json::value(std::move(list)));
  inner.set("text", std::string(home_path) + " " + std::string(secret));
  json::value v = json::object{};
  v.set("s", std::string(home_path) + "?" + std::string(secret));
  v.set("nested", std::move(inner));
  return v;
}

// One event per (type, member that is not public), one per type with an additive member, and the
// subject where the type classes it sensitive: every planted value in an event of its own.
std::vector<json::value> planted_events(std::vector<planted>& what) {
  std::vector<json::value> out;
  const auto add = [&](std::string_view type, std::string_view member, bool as_string) {
    json::value data = json::object{};
    if (!member.empty())
      data.set(member, as_string ? json::value(std::string(home_path) + " " + std::string(secret)) : planted_value());
    json::value e = assay_test::event(0, type, json::to_canonical(data).value());
    if (member.empty())
      e.set("subject", std::string(home_path) + " " + std::string(secret));
    out.push_back(std::move(e));
    what.push_back({std::string(type), std::string(member)});
  };
  assay::contracts::known_payloads::table([&]<class P>() {
    using info = assay::reflect::struct_info<P>;
    assay::reflect::for_each_index<P>([&](auto I) {
      if constexpr (info::is_member[I.value]) {
        if (info::privacy_classes[I.value] != assay::privacy::public_) {
          add(P::event_type, info::json_names[I.value], true);
          add(P::event_type, info::json_names[I.value], false);
        }
      }
    });
    add(P::event_type, "x_planted", true);  // additive: sensitive
    add(P::event_type, "x_planted", false);
    if constexpr (assay::evidence::detail::subject_privacy_of<P>() == assay::privacy::sensitive)
      add(P::event_type, "", true);
    return 0;
  });
  // An event type the registry does not know: all of its data is sensitive.
  add("vendor.thing", "anything", false);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].set("assayseq", static_cast<double>(i));
    out[i].set("id", "run-1:" + std::to_string(i));
    char t[64];
    std::snprintf(t, sizeof t, "2026-01-02T03:%02zu:%02zu.25Z", (i / 60) % 60, i % 60);
    out[i].set("time", std::string(t));
  }
  return out;
}

void check_clean(std::string_view output, std::string_view name) {
  for (std::string_view leak : leaks)
    CHECK_MESSAGE(output.find(leak) == std::string_view::npos, name << " carries " << leak);
}

}  // namespace

TEST_CASE("nothing leaves in the clear: every known payload type and member, every output") {
  std::vector<planted> what;
  auto events = planted_events(what);
  REQUIRE(events.size() > 2 * assay::contracts::known_payloads::size);
  const std::string bundle = assay_test::bundle(assay_test::lines_of(events));

  // The OTLP export and its report.
  otel::bundle_exporter x;
  REQUIRE(assay::evidence::verify_bundle_bytes(bundle, {}, x).has_value());
  const auto out = x.finish();
  check_clean(out.lines, "the OTLP lines");
  const std::string report = assay::encode(out.report).value();
  check_clean(report, "the export report");

  // Each value changed is named in the report, with the class that changed it; the decision's
  // reason (declared sensitive) exactly.
  const auto& dropped = out.report.mapping_loss.dropped_attributes;
  std::size_t reason_at = 0;
  while (reason_at < what.size() &&
         !(what[reason_at].type == "assay.tool.decision" && what[reason_at].member == "reason"))
    ++reason_at;
  REQUIRE(reason_at + 1 < what.size());
  std::vector<std::string> got_s, got_o;
  for (const auto& d : dropped) {
    if (d.reason != "sensitive" && d.reason != "forbidden")
      continue;  // what the mapping itself could not carry (a decision without a tool, ...)
    if (d.event_id == "run-1:" + std::to_string(reason_at))
      got_s.push_back(std::string(d.member) + " " + std::string(d.reason));
    if (d.event_id == "run-1:" + std::to_string(reason_at + 1))
      got_o.push_back(std::string(d.member) + " " + std::string(d.reason));
  }
  CHECK(got_s == std::vector<std::string>{"/data/reason sensitive"});
  CHECK(got_o == std::vector<std::string>{"/data/reason/nested/paths/0 sensitive",
                                          "/data/reason/nested/paths/1 sensitive", "/data/reason/nested/text sensitive",
                                          "/data/reason/s sensitive"});
  // And the span carries the reason generalized.
  CHECK(out.lines.find(R"("assay.decision.reason","value":{"stringValue":"~/**/secret.txt token=***"})") !=
        std::string::npos);
  // The report is still its contract's.
  CHECK(assay::decode<assay::contracts::otel_export_report>(report).has_value());
  // Asked for as written (include_sensitive), they are: the opt-in is explicit.
  otel::bundle_exporter kept({.include_sensitive = true});
  REQUIRE(assay::evidence::verify_bundle_bytes(bundle, {}, kept).has_value());
  CHECK(kept.finish().lines.find("/home/alice/secret.txt token=abc123") != std::string::npos);

  // The diff report, against a baseline of one event.
  const std::string base = assay_test::bundle(assay_test::lines_of({events.front()}));
  assay::evidence::byte_source sa(base), sb(bundle);
  auto d = assay::inspect::diff_bundles(sa, sb);
  REQUIRE(std::holds_alternative<assay::contracts::evidence_diff>(d));
  const auto& diff = std::get<assay::contracts::evidence_diff>(d);
  check_clean(assay::encode(diff).value(), "the diff report");
  check_clean(assay::inspect::diff_text(diff), "the diff text");
  CHECK(!diff.filesystem.added.empty());  // the fs subject is there, generalized
  CHECK(diff.filesystem.added.front() == "~/**/secret.txt token=***");

  // The lint report, its text and its SARIF log, under every built-in pack.
  std::vector<lint::loaded_pack> packs;
  for (const lint::builtin_pack& p : lint::builtin_packs()) {
    auto loaded = lint::load_pack(p.text, {lint::pack_source::origin::built_in, std::string(p.name)});
    REQUIRE(loaded.has_value());
    packs.push_back(std::move(*loaded));
  }
  auto l = lint::linter::create(packs, {});
  REQUIRE(l.has_value());
  REQUIRE(assay::evidence::verify_bundle_bytes(bundle, {}, *l).has_value());
  const auto r = l->take();
  check_clean(assay::encode(lint::make_report(r, packs)).value(), "the lint report");
  check_clean(lint::text_report(r, lint::severity::warning), "the lint text");
  check_clean(assay::encode(lint::sarif_log(r, packs)).value(), "the SARIF log");
}
