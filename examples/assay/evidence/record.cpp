// assay evidence record [EVENTS.ndjson] --out B.tar.gz [--run-id ID] [--source URI]
//   [--producer NAME@VERSION] [--policy-id ID] [--pack P]… [--journal J [--sync POLICY]] — a
// bundle from minimal events, as a harness in any language writes them: one JSON object per
// line, {"type", "data", "subject"?, "time"?, "traceparent"?, "tracestate"?, "pii"?,
// "secrets"?}. The C++ recorder fills the envelope of each (id, seq, time, producer, content
// hash), exactly as it does for a C++ runtime; every line's problems are reported at once, each
// with its line and pointer. Values the payloads' privacy classes call sensitive are generalized
// unless --keep-sensitive. With --journal, each event is in J as soon as its line is read: a
// harness killed mid-run, or input that fails (a refused or torn line, a full disk, --max-bytes),
// leaves J with every event taken, for `assay evidence recover`. Without it the run streams
// through a journal of the verb's own beside the output, removed at the end: memory stays flat.
// --profile opens the run with assay.profile.started and closes it with assay.profile.finished
// only on a clean end: input that ends inside a line is a failure.
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

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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
  std::string profile;
  bool keep_sensitive = false;
};

using clock = std::chrono::system_clock;

// The last whole second the clock's time points hold (nanoseconds in 64 bits: 2262-04-11T23:47:16Z).
constexpr std::int64_t last_clock_second =
    std::chrono::duration_cast<std::chrono::seconds>(clock::duration::max()).count();

// An RFC 3339 time as the clock's time point: nullopt before 1970, after the clock's last second
// or finer than a nanosecond.
std::optional<clock::time_point> time_point_of(std::string_view text) {
  const auto at = assay::json::parse_instant(text);
  if (!at || at->seconds < 0 || at->seconds >= last_clock_second || at->fraction.size() > 9)
    return std::nullopt;
  std::string digits(at->fraction);
  digits.resize(9, '0');
  return clock::time_point(std::chrono::duration_cast<clock::duration>(std::chrono::seconds(at->seconds) +
                                                                       std::chrono::nanoseconds(std::stoll(digits))));
}

// The subject the reference gives a profile's lifecycle events.
constexpr std::string_view profile_subject = "urn:assay:phase:profile";

// A file name beside `path` (or in the temporary directory, for standard output) that nothing
// holds, for a journal the verb removes itself: the run streams through it, so that memory stays
// flat however long the input is.
std::string private_journal_beside(const std::string& path) {
  std::string dir;
  if (is_std_stream(path)) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  } else {
    dir = assay::evidence::file_io::directory_of(path);
  }
  std::string name = dir + "/.assay-record-" + std::to_string(::getpid()) + "-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    return dir + "/.assay-record-" + std::to_string(::getpid()) + ".journal";
  ::close(fd);
  ::unlink(name.c_str());  // the recorder creates it anew, exclusively
  return name;
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
  std::optional<assay::contracts::profile_started> profile;
  if (!a.profile.empty()) {
    const std::size_t at = a.profile.rfind('@');
    profile.emplace();
    profile->profile_name = at == std::string::npos ? a.profile : a.profile.substr(0, at);
    profile->profile_version = at == std::string::npos ? std::string("1.0") : a.profile.substr(at + 1);
    profile->total_runs_aggregated = 1;
    if (profile->profile_name.empty() || profile->profile_version.empty())
      return usage("--profile " + printable(a.profile, echo_cap) + ": expected NAME or NAME@VERSION, e.g. ci@1.0");
  }
  // A journal the user names is kept on every failure; without one the run streams through a
  // journal of the verb's own, removed whatever happens.
  const bool own_journal = a.journal.empty();
  std::optional<assay::evidence::journal_options> journal;
  if (!own_journal) {
    const auto policy = assay::evidence::durability::parse(a.sync);
    if (!policy)
      return usage("--sync " + printable(a.sync, echo_cap) +
                   ": expected event, N (every N events), Tms (every T milliseconds) or never");
    if (a.journal == a.out)
      return usage("--journal and --out name the same file: the bundle would replace the journal");
    journal = assay::evidence::journal_options{a.journal, *policy};
  } else if (a.sync != "event") {
    return usage("--sync applies to a journal: give --journal J");
  } else {
    journal = assay::evidence::journal_options{private_journal_beside(a.out), assay::evidence::durability::never(),
                                               std::string()};
  }
  auto epoch = assay::json::source_date_epoch();
  if (!epoch)
    return fail(command, epoch.error());
  if (*epoch && **epoch >= last_clock_second)
    return usage("SOURCE_DATE_EPOCH " + std::to_string(**epoch) +
                 " is after 2262-04-11T23:47:16Z, the last instant an event time can hold here");
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
  auto made =
      assay::evidence::recorder::make({.source = a.source,
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
                                       .journal = journal,
                                       .privacy = a.keep_sensitive ? assay::evidence::privacy_mode::keep_sensitive
                                                                   : assay::evidence::privacy_mode::redact});
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
  // The verb's own journal goes with the verb; a named one stays until the bundle is written.
  struct journal_remover {
    const std::string* path;
    ~journal_remover() {
      if (path != nullptr)
        ::unlink(path->c_str());
    }
  } remover{own_journal ? &journal->path : nullptr};
  // What a failure says about the events already taken: with a named journal they are kept.
  auto kept = [&](int code) {
    if (!own_journal) {
      print_error(command, "the journal " + printable(a.journal, echo_cap) + " keeps the " +
                               std::to_string(run.size()) + " event(s) recorded: assay evidence recover " +
                               printable(a.journal, echo_cap) + " --out B.tar.gz");
    }
    return code;
  };

  const std::string name = input_name(a.events);
  std::size_t reported = 0;
  bool syntax = false;
  std::optional<assay::error> io_failure;  // the journal could not take an event: stop
  auto report = [&](const assay::json::ndjson_line& line, const assay::error& e) {
    if (reported++ < 1000)
      print_error(command, name + ": " + printable(at_line(line, e)));
    syntax = syntax || assay::is_syntax_error(e.code);
  };
  // The counts a profile's finished event gives.
  std::int64_t counts[4] = {0, 0, 0, 0};  // network, filesystem, processes, sandbox degradations
  auto append = [&](std::string_view type, const auto& data, const assay::evidence::event_extras& extras) {
    auto seq = run.append(type, data, extras);
    if (!seq) {
      for (const auto& e : seq.error())
        if (e.code == assay::errc::io_error)
          io_failure = e;
      return seq;
    }
    const auto c = assay::contracts::capability_of(type);
    if (c != assay::contracts::capability::none)
      ++counts[static_cast<int>(c)];
    if (type == assay::contracts::sandbox_degraded::event_type)
      ++counts[3];
    return seq;
  };
  if (profile) {
    if (auto seq =
            append(assay::contracts::profile_started::event_type, *profile, {.subject = std::string(profile_subject)});
        !seq) {
      for (const auto& e : seq.error())
        print_error(command, "--profile: " + printable(e.message));
      return kept(io_failure ? exit_io : exit_failed);
    }
  }
  // Each line is taken as soon as it is read: with a journal, an event is on disk once its line
  // has been written to the input.
  unterminated_line torn{};
  auto read = read_lines(
      a.events, a.max_bytes, "--max-bytes",
      [&](std::string_view text, std::size_t number, std::size_t offset) {
        const assay::json::ndjson_line line{text, number, offset};
        auto in = assay::decode<record_line>(line.text);
        if (!in) {
          for (const auto& e : in.error())
            report(line, e);
          return true;
        }
        event_time.reset();
        if (in->time) {
          event_time = time_point_of(*in->time);
          if (!event_time) {
            report(line, assay::make_error(assay::errc::format_mismatch,
                                           "the time is before 1970, after 2262-04-11T23:47:16Z (the last an event "
                                           "time can hold here) or has more than 9 fraction digits",
                                           "/time"));
            return true;
          }
        }
        const assay::evidence::event_extras extras{.subject = in->subject,
                                                   .traceparent = in->traceparent,
                                                   .tracestate = in->tracestate,
                                                   .pii = in->pii.value_or(false),
                                                   .secrets = in->secrets.value_or(false)};
        auto seq = append(std::string_view(in->type), in->data.value_or(assay::json::object{}), extras);
        if (!seq && !io_failure)
          for (const auto& e : seq.error())
            report(line, e);
        return !io_failure;
      },
      &torn);
  if (reported > 1000)
    print_error(command, std::to_string(reported - 1000) + " more problem(s) not shown");
  if (io_failure) {
    print_error(command, printable(io_failure->message));
    return kept(exit_io);
  }
  if (!read) {
    fail(command, read.error());
    return kept(exit_for(read.error()));
  }
  if (torn.bytes != 0) {
    print_error(command, name + ": the input ended inside line " + std::to_string(torn.number) + " (" +
                             std::to_string(torn.bytes) +
                             " bytes without a newline): the producer stopped while writing it; every line must "
                             "end with a newline");
    return kept(exit_usage);
  }
  if (reported > 0)
    return kept(syntax ? exit_usage : exit_failed);
  if (run.size() == 0) {
    print_error(command, name + ": no event: a bundle holds at least one");
    return kept(exit_failed);
  }
  if (profile) {  // a clean end: the input closed after a whole line
    assay::contracts::profile_finished done;
    done.network_count = counts[0];
    done.files_count = counts[1];
    done.processes_count = counts[2];
    done.sandbox_degradation_count = counts[3];
    event_time.reset();
    if (auto seq =
            append(assay::contracts::profile_finished::event_type, done, {.subject = std::string(profile_subject)});
        !seq) {
      for (const auto& e : seq.error())
        print_error(command, "--profile: " + printable(e.message));
      return kept(io_failure ? exit_io : exit_failed);
    }
  }
  const std::uint64_t events = run.size();
  assay::result<assay::evidence::journal_summary> done = assay::make_error(assay::errc::io_error, "");
  if (is_std_stream(a.out)) {
    std::fflush(stdout);
    auto out = assay::evidence::atomic_file::standard_output();
    done = run.finish_into(out, assay::evidence::file_io::directory_of(journal->path), stamp);
  } else {
    done = run.finish_to(a.out, stamp);
  }
  remover.path = nullptr;  // packed: finish removed it (or, on failure, a named journal stays)
  if (!done) {
    if (own_journal)
      ::unlink(journal->path.c_str());
    fail(command, done.error());
    return kept(assay::evidence::is_verification_failure(done.error()) ? exit_failed : exit_io);
  }
  if (!is_std_stream(a.out))
    std::printf("recorded %llu event(s) of run %s into %s\n", static_cast<unsigned long long>(events),
                printable(run.run_id(), echo_cap).c_str(), printable(a.out).c_str());
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
                  "Write each event to this file (mode 0600) as it is read: a killed run, or one whose input "
                  "failed, is recovered from it (assay evidence recover); removed once the bundle is written");
  sub->add_option("--sync", a->sync,
                  "When the journal is forced to disk: event (after each, the default), N (every N events), "
                  "Tms (every T milliseconds) or never");
  sub->add_option("--profile", a->profile,
                  "Open the run with assay.profile.started (NAME@VERSION; VERSION 1.0 when absent) and close it "
                  "with assay.profile.finished, its counts derived, only when the input ends cleanly");
  sub->add_flag("--keep-sensitive", a->keep_sensitive,
                "Keep values the payloads' privacy classes call sensitive as written (default: generalized, "
                "docs/privacy.md; forbidden values are dropped either way)");
  add_max_bytes(sub, a->max_bytes);
  add_limits(sub, a->limits);
  d.on(sub, [a] { return record(*a); });
}

}  // namespace assay_cli
