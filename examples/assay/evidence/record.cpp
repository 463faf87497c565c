// assay evidence record [EVENTS.ndjson] --out B.tar.gz [--run-id ID] [--source URI]
//   [--producer NAME@VERSION] [--policy-id ID] [--pack P]… [--journal J [--sync POLICY]] — a
// bundle from minimal events, as a harness in any language writes them: one JSON object per
// line, {"type", "data", "subject"?, "time"?, "traceparent"?, "tracestate"?, "pii"?,
// "secrets"?}. The C++ recorder fills the envelope of each (id, seq, time, producer, content
// hash), exactly as it does for a C++ runtime; every line's problems are reported at once, each
// with its line and pointer. With --journal, each event is in J as soon as its line is read: a
// harness killed mid-run leaves J for `assay evidence recover`.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/recorder.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

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
  std::string journal;
  std::string sync = "event";
  std::string limits;
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
  auto usage = [&](const std::string& what) { return usage_error(command, what); };
  assay::evidence::producer_info producer{"assay-record", std::string(assay::version), std::nullopt};
  if (!a.producer.empty()) {
    const std::size_t at = a.producer.rfind('@');
    if (at == std::string::npos || at == 0 || at + 1 == a.producer.size())
      return usage("--producer " + printable(a.producer, echo_cap) + ": expected NAME@VERSION, e.g. my-harness@1.2.0");
    producer.name = a.producer.substr(0, at);
    producer.version = a.producer.substr(at + 1);
  }
  std::optional<assay::evidence::journal_options> journal;
  if (!a.journal.empty()) {
    const auto policy = assay::evidence::durability::parse(a.sync);
    if (!policy)
      return usage("--sync " + printable(a.sync, echo_cap) +
                   ": expected event, N (every N events), Tms (every T milliseconds) or never");
    if (is_std_stream(a.out))
      return usage("--journal needs --out to name a file (the bundle is packed from the journal into it)");
    if (a.journal == a.out)
      return usage("--journal and --out name the same file: the bundle would replace the journal");
    journal = assay::evidence::journal_options{a.journal, *policy};
  } else if (a.sync != "event") {
    return usage("--sync applies to a journal: give --journal J");
  }
  auto epoch = assay::json::source_date_epoch();
  if (!epoch)
    return fail(command, epoch.error());
  bundle_stamp given;
  if (auto code = read_bundle_stamp(command, a.limits, a.packs, given))
    return *code;
  assay::evidence::bundle_options stamp;
  stamp.packs_applied = std::move(given.packs_applied);
  stamp.mappings = std::move(given.mappings);
  stamp.limits = given.limits;

  // The time of the event being appended: its own, SOURCE_DATE_EPOCH, or now.
  std::optional<clock::time_point> event_time;
  const std::optional<std::int64_t> fixed_time = *epoch;
  auto made = assay::evidence::recorder::make({.source = a.source,
                                               .run_id = a.run_id,
                                               .producer = producer,
                                               .policy_id = a.policy_id,
                                               .clock =
                                                   [&event_time, fixed_time] {
                                                     if (event_time)
                                                       return *event_time;
                                                     if (fixed_time)
                                                       return clock::time_point(std::chrono::seconds(*fixed_time));
                                                     return clock::now();
                                                   },
                                               .journal = journal});
  if (!made) {
    int code = exit_usage;
    for (const auto& e : made.error()) {
      if (e.code == assay::errc::io_error)
        code = exit_io;  // the journal could not be created (or one is there already)
      print_error(command, (e.pointer == "/run_id"            ? "--run-id: "
                            : e.pointer == "/source"          ? "--source: "
                            : e.pointer == "/policy_id"       ? "--policy-id: "
                            : e.pointer == "/journal/path"    ? "--journal: "
                            : e.code == assay::errc::io_error ? "--journal: "
                                                              : "--producer: ") +
                               printable(e.message));
    }
    return code;
  }
  assay::evidence::recorder& run = *made;

  const std::string name = input_name(a.events);
  std::size_t reported = 0;
  bool syntax = false;
  auto report = [&](const assay::json::ndjson_line& line, const assay::error& e) {
    if (reported++ < 1000)
      print_error(command, name + ": " + printable(at_line(line, e)));
    syntax = syntax || assay::is_syntax_error(e.code);
  };
  // Each line is taken as soon as it is read: with a journal, an event is on disk once its line
  // has been written to the input.
  auto read = read_lines(
      a.events, a.max_bytes, "--max-bytes", [&](std::string_view text, std::size_t number, std::size_t offset) {
        const assay::json::ndjson_line line{text, number, offset};
        auto in = assay::decode<record_line>(line.text);
        if (!in) {
          for (const auto& e : in.error())
            report(line, e);
          return;
        }
        event_time.reset();
        if (in->time) {
          event_time = time_point_of(*in->time);
          if (!event_time) {
            report(line, assay::make_error(assay::errc::format_mismatch,
                                           "the time is before 1970 or has more than 9 fraction digits", "/time"));
            return;
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
      });
  if (reported > 1000)
    print_error(command, std::to_string(reported - 1000) + " more problem(s) not shown");
  // Refused as a whole: no bundle, and no journal (the verb ended on purpose; a journal is for
  // a run that did not).
  auto refused = [&](int code) {
    if (journal)
      ::unlink(journal->path.c_str());
    return code;
  };
  if (!read) {
    fail(command, read.error());
    return refused(exit_for(read.error()));
  }
  if (reported > 0)
    return refused(syntax ? exit_usage : exit_failed);
  if (run.size() == 0) {
    print_error(command, name + ": no event: a bundle holds at least one");
    return refused(exit_failed);
  }
  if (journal) {
    if (auto s = run.finish_to(a.out, stamp); !s)
      return fail(command, s.error());  // the journal stays: recover it, or record again
  } else {
    auto gz = run.finish(stamp);
    if (!gz)
      return fail(command, gz.error());
    if (auto w = write_file(a.out, *gz); !w)
      return fail(command, w.error());
  }
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
  sub->add_option("--journal", a->journal,
                  "Write each event to this file as it is read (a killed run can be recovered from it: "
                  "assay evidence recover); removed once the bundle is written");
  sub->add_option("--sync", a->sync,
                  "When the journal is forced to disk: event (after each, the default), N (every N events), "
                  "Tms (every T milliseconds) or never");
  add_max_bytes(sub, a->max_bytes);
  add_limits(sub, a->limits);
  d.on(sub, [a] { return record(*a); });
}

}  // namespace assay_cli
