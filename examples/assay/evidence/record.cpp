// assay evidence record [EVENTS.ndjson] --out B.tar.gz [--run-id ID] [--source URI]
//   [--producer NAME@VERSION] [--policy-id ID] [--pack P]… — a bundle from minimal events, as a
// harness in any language writes them: one JSON object per line, {"type", "data", "subject"?,
// "time"?, "traceparent"?, "tracestate"?, "pii"?, "secrets"?}. The C++ recorder fills the
// envelope of each (id, seq, time, producer, content hash), exactly as it does for a C++ runtime;
// every line's problems are reported at once, each with its line and pointer.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/recorder.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace assay_cli {

namespace {

// One line of input: what the harness knows about an event; the recorder adds the rest.
struct record_line {
  assay::non_empty type;
  std::optional<assay::json::value> data{};  // {} when absent
  std::optional<std::string> subject{};
  std::optional<assay::date_time> time{};  // default: the clock, or SOURCE_DATE_EPOCH when set
  std::optional<std::string> traceparent{};
  std::optional<std::string> tracestate{};
  std::optional<bool> pii{};
  std::optional<bool> secrets{};
};

struct record_args {
  std::string events = "-";
  std::string out;
  std::string run_id;
  std::string source = "urn:assay:cli:record";
  std::string producer;
  std::optional<std::string> policy_id;
  std::vector<std::string> packs;
  std::uint64_t max_bytes = default_max_bytes;
};

using clock = std::chrono::system_clock;

// An RFC 3339 time as the clock's time point: nullopt before 1970 or finer than a nanosecond.
std::optional<clock::time_point> time_point_of(std::string_view text) {
  const auto at = assay::json::parse_instant(text);
  if (!at || at->seconds < 0 || at->fraction.size() > 9)
    return std::nullopt;
  std::string digits(at->fraction);
  digits.resize(9, '0');
  return clock::time_point(std::chrono::duration_cast<clock::duration>(std::chrono::seconds(at->seconds) +
                                                                       std::chrono::nanoseconds(std::stoll(digits))));
}

int record(const record_args& a) {
  constexpr std::string_view command = "evidence record";
  auto usage = [&](const std::string& what) {
    print_error(command, what);
    return exit_usage;
  };
  assay::evidence::producer_info producer{"assay-record", std::string(assay::version), std::nullopt};
  if (!a.producer.empty()) {
    const std::size_t at = a.producer.rfind('@');
    if (at == std::string::npos || at == 0 || at + 1 == a.producer.size())
      return usage("--producer " + printable(a.producer, echo_cap) + ": expected NAME@VERSION, e.g. my-harness@1.2.0");
    producer.name = a.producer.substr(0, at);
    producer.version = a.producer.substr(at + 1);
  }
  auto epoch = assay::json::source_date_epoch();
  if (!epoch)
    return fail(command, epoch.error());
  assay::evidence::bundle_options stamp;
  if (!a.packs.empty()) {
    auto packs = load_cli_packs(command, a.packs);
    if (!packs)
      return exit_io;  // a pack that does not load
    stamp.packs_applied = assay::lint::refs_of<assay::evidence::pack_applied>(*packs);
    stamp.mappings = assay::lint::mappings_of<assay::evidence::mapping>(*packs);
  }

  // The time of the event being appended: its own, SOURCE_DATE_EPOCH, or now.
  std::optional<clock::time_point> event_time;
  const std::optional<std::int64_t> fixed_time = *epoch;
  auto made = assay::evidence::recorder::make({.source = a.source,
                                               .run_id = a.run_id,
                                               .producer = producer,
                                               .policy_id = a.policy_id,
                                               .clock = [&event_time, fixed_time] {
                                                 if (event_time)
                                                   return *event_time;
                                                 if (fixed_time)
                                                   return clock::time_point(std::chrono::seconds(*fixed_time));
                                                 return clock::now();
                                               }});
  if (!made) {
    for (const auto& e : made.error())
      print_error(command, (e.pointer == "/run_id"      ? "--run-id: "
                            : e.pointer == "/source"    ? "--source: "
                            : e.pointer == "/policy_id" ? "--policy-id: "
                                                        : "--producer: ") +
                               printable(e.message));
    return exit_usage;
  }
  assay::evidence::recorder& run = *made;

  auto text = input::open(a.events, a.max_bytes, input::over_limit::refuse, "--max-bytes", input::access::sequential);
  if (!text)
    return fail(command, text.error());
  const std::string name = input_name(a.events);
  std::size_t reported = 0;
  bool syntax = false;
  auto report = [&](const assay::json::ndjson_line& line, const assay::error& e) {
    if (reported++ < 1000)
      print_error(command, name + ": " + printable(at_line(line, e)));
    syntax = syntax || assay::is_syntax_error(e.code);
  };
  const std::string_view bytes = text->bytes();
  std::size_t at = 0, number = 0;
  assay::json::ndjson_line line{};
  while (assay::json::next_ndjson_line(bytes, at, number, line)) {
    auto in = assay::decode<record_line>(line.text);
    if (!in) {
      for (const auto& e : in.error())
        report(line, e);
      continue;
    }
    event_time.reset();
    if (in->time) {
      event_time = time_point_of(*in->time);
      if (!event_time) {
        report(line, assay::make_error(assay::errc::format_mismatch,
                                       "the time is before 1970 or has more than 9 fraction digits", "/time"));
        continue;
      }
    }
    const assay::evidence::event_extras extras{.subject = in->subject,
                                               .traceparent = in->traceparent,
                                               .tracestate = in->tracestate,
                                               .pii = in->pii.value_or(false),
                                               .secrets = in->secrets.value_or(false)};
    auto seq = run.append(std::string_view(in->type), in->data.value_or(assay::json::object{}), extras);
    if (!seq)
      for (const auto& e : seq.error())
        report(line, e);
  }
  if (reported > 1000)
    print_error(command, std::to_string(reported - 1000) + " more problem(s) not shown");
  if (reported > 0)
    return syntax ? exit_usage : exit_failed;
  if (run.size() == 0) {
    print_error(command, name + ": no event: a bundle holds at least one");
    return exit_failed;
  }
  auto gz = run.finish(stamp);
  if (!gz)
    return fail(command, gz.error());
  if (auto w = write_file(a.out, *gz); !w)
    return fail(command, w.error());
  if (!is_std_stream(a.out))
    std::printf("recorded %llu event(s) of run %s into %s\n", static_cast<unsigned long long>(run.size()),
                printable(run.run_id()).c_str(), printable(a.out).c_str());
  return exit_ok;
}

}  // namespace

void add_evidence_record(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand(
      "record", "Write a bundle from minimal events ({type, data, subject?, time?} per line), the envelope filled in");
  auto a = std::make_shared<record_args>();
  sub->add_option("EVENTS", a->events, "Minimal events, one JSON object per line (default: standard input)");
  sub->add_option("--out", a->out, "The bundle to write (.tar.gz; - for standard output)")->required();
  sub->add_option("--run-id", a->run_id, "The run id (no ':'; default: a new UUIDv7)");
  sub->add_option("--source", a->source, "The events' source, a URI (default: urn:assay:cli:record)");
  sub->add_option("--producer", a->producer, "NAME@VERSION of the producer (default: assay-record@<assay's version>)");
  sub->add_option("--policy-id", a->policy_id, "The policy the run was under (assaypolicyid)");
  sub->add_option("--pack", a->packs,
                  "Record in the manifest's x-assay the packs applied and their rules' article_refs; comma lists "
                  "allowed");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return record(*a); });
}

}  // namespace assay_cli
