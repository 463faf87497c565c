// assay evidence redact [IN.ndjson] [--commitments] — events in, the same events redacted
// (docs/privacy.md) with fresh content hashes out, one canonical line each.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/redact.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/value.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace assay_cli {

namespace {

struct redact_args {
  std::string events;
  bool commitments = false;
  std::uint64_t max_bytes = default_max_bytes;
};

int redact(const redact_args& a) {
  constexpr std::string_view command = "evidence redact";
  auto text = input::open(a.events, a.max_bytes);
  if (!text)
    return fail(command, text.error());
  // Every line is parsed before any is redacted: a file that is not NDJSON gives no output.
  std::vector<assay::json::value> events;
  for (const auto& line : assay::json::ndjson_lines(text->bytes())) {
    auto ev = assay::json::parse(line.text);
    if (!ev) {
      print_error(command, input_name(a.events) + ": " + at_line(line, ev.error()));
      return exit_for(ev.error());
    }
    events.push_back(std::move(*ev));
  }
  assay::evidence::redact_options opt;
  opt.commitments = a.commitments;
  std::string out;
  std::size_t index = 0;
  for (auto& ev : events) {
    auto r = assay::evidence::redact_event(ev, opt);
    auto line = r ? assay::json::to_canonical(ev) : assay::result<std::string>(r.error());
    if (!line)
      return fail(command, line.error(), "event " + std::to_string(index));
    out += *line;
    out += '\n';
    ++index;
  }
  return finish(command, write_file("-", out));
}

}  // namespace

void add_evidence_redact(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("redact", "Apply the privacy classes to events; new content hashes");
  auto a = std::make_shared<redact_args>();
  sub->add_option("EVENTS", a->events, "Events, one per line (standard input when absent or -)");
  sub->add_flag("--commitments", a->commitments, "Replace forbidden values by commitments instead of dropping them");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return redact(*a); });
}

}  // namespace assay_cli
