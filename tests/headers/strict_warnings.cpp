// Compiled, not run, by tests/headers/meson.build with every warning a careful consumer turns on
// (-Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wpedantic -Werror) under both
// compilers: the public headers must stay quiet in a consumer's build. Including them is not
// enough, as most of the library is templates that warn only when instantiated, so this program
// instantiates the main paths: every contract's decoder and schema (through the registry), the
// recorder, the writer and the verifier with a visitor, redaction, digests of both kinds, packs,
// the intervals, and a finding computed from a ledger and rendered.
#include "assay/assay.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace c = assay::contracts;
namespace ev = assay::evidence;

namespace {

struct counter {  // a bundle visitor
  std::size_t events = 0;
  std::string last;
  void on_event(const ev::verified_event& e) {
    ++events;
    last = std::string(e.line);
  }
};

int run() {
  for (const c::contract& k : c::all()) {
    (void)k.schema();
    if (k.validate("{}", {}))
      return 1;
  }

  auto made = ev::recorder::make({.source = "urn:assay:warnings", .producer = {"warnings", "0.1.0", std::nullopt}});
  if (!made)
    return 1;
  ev::recorder& rec = *made;
  if (!rec.append(c::tool_decision::event_type,
                  c::tool_decision{.tool = "read_file", .decision = "allow", .reason_code = "P_ALLOW"}))
    return 1;
  auto gz = rec.finish();
  if (!gz)
    return 1;
  counter n;
  auto verified = ev::verify_bundle_bytes(*gz, {}, n);
  if (!verified || n.events != 1)
    return 1;

  auto dom = assay::json::parse(R"({"b":[1,2.5,"x"],"a":null})");
  if (!dom)
    return 1;
  auto canonical = assay::json::to_canonical(*dom);
  auto d1 = assay::hash::digest_string_of("sha256", *dom);
  auto d2 = assay::hash::digest_of<assay::hash::sha256>(c::tool_decision{});
  auto event = assay::json::parse(n.last);
  if (!event || !canonical || !d1 || !d2)
    return 1;
  if (!ev::redact_event(*event))
    return 1;

  auto pack = assay::lint::load_pack_ref("cicd-starter");
  if (!pack)
    return 1;

  c::soak_report report;
  auto text = assay::encode(report);
  auto back = assay::decode<c::soak_report>(text ? *text : std::string());
  const auto w = assay::stats::wilson(17, 20);
  const auto j = assay::stats::jeffreys(17, 20);
  assay::findings::accumulator acc("intent");
  acc.append(c::finding_v1::trial_result{});
  auto finding = acc.finding();
  const auto html = finding ? assay::findings::render_html(*finding) : assay::results<std::string>(std::string());
  const auto md = finding ? assay::findings::render_markdown(*finding) : assay::results<std::string>(std::string());
  const std::string packet = html && md ? *html + *md : std::string();
  std::printf("%d %f %f %zu\n", back.has_value(), w.low, j.high, packet.size());
  return 0;
}

}  // namespace

int main() {
  return run();
}
