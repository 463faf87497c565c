// assay/mcp/session_log.hpp — where a gate's session is recorded (docs/mcp.md): a journal packed
// into a bundle when the session ends, and, when a session reaches the verifiers' default event
// limit (100,000, the reference's fixed limit), that bundle finished and the session gone on in
// the next, B.2.tar.gz, B.3.tar.gz, … — each a run of its own, whose assay.profile.started names
// the session (the first part's run id) and its part number, so that every part verifies in the
// reference.
//
//   auto log = assay::mcp::session_log::open({.bundle = "s.tar.gz", .recorder = {...}});  // s.journal
//   assay::mcp::basic_gate<assay::mcp::session_log> gate(policy, *log, schemas);
//   ...
//   log->finish();   // packs the last part; log->bundles() lists every part written
//
// A part that is not packed (a killed gate, a failure) leaves its journal for `assay evidence
// recover`; the parts before it are bundles already.
#pragma once

#include "assay/contracts/payloads.hpp"
#include "assay/error.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::mcp {

struct session_log_options {
  std::string bundle;     // the first part's bundle (B.tar.gz)
  std::string journal{};  // its journal; default: B.journal (B without .tar.gz)
  evidence::durability sync = evidence::durability::every(64);
  evidence::recorder_options recorder{};  // source, producer, clock, privacy (journal and run_id: per part)
  std::uint64_t max_events = 100000;      // events per part, its lifecycle events included
};

// Part `n` (1-based) of a path: the path itself for the first; then `suffix` (".tar.gz",
// ".journal") kept last, "s.tar.gz" → "s.2.tar.gz", or ".N" appended when the path lacks it.
inline std::string part_path(const std::string& path, std::uint64_t n, std::string_view suffix) {
  if (n <= 1)
    return path;
  const std::string number = "." + std::to_string(n);
  if (path.size() > suffix.size() && std::string_view(path).ends_with(suffix))
    return path.substr(0, path.size() - suffix.size()) + number + std::string(suffix);
  return path + number;
}

class session_log {
 public:
  static results<session_log> open(session_log_options o) {
    if (o.max_events < 3)
      return errors(make_error(errc::invalid_argument, "a part holds at least 3 events (started, one, finished)"));
    if (o.journal.empty()) {
      constexpr std::string_view gz = ".tar.gz";
      const std::string& b = o.bundle;
      o.journal = (b.size() > gz.size() && std::string_view(b).ends_with(gz) ? b.substr(0, b.size() - gz.size()) : b) +
                  ".journal";
    }
    if (o.journal == o.bundle)
      return errors(make_error(errc::invalid_argument, "the journal and the bundle are the same file"));
    session_log log(std::move(o));
    if (auto r = log.begin_part(); !r)
      return r.error();
    return log;
  }

  // The recorder's append, rolling over to the next part first when this one is full. Every
  // assay.profile.started gets the members `session` and `part`; the one given first is kept for
  // the parts after it.
  template <class Payload>
  results<std::uint64_t> append(std::string_view type, const Payload& data, const evidence::event_extras& x = {}) {
    if constexpr (std::is_same_v<Payload, contracts::profile_started>) {
      started_ = data;
      return append_started();
    } else {
      // The last slot of a part is its assay.profile.finished.
      const bool closing = std::is_same_v<Payload, contracts::profile_finished>;
      if (!closing && started_ && run_->size() + 1 >= opt_.max_events)
        if (auto r = roll_over(); !r)
          return r.error();
      return run_->append(type, data, x);
    }
  }

  // Packs the current part into its bundle (its journal removed).
  results<evidence::journal_summary> finish() {
    auto r = run_->finish_to(bundle_path(), bundle_options_);
    if (!r)
      return errors(r.error());
    bundles_.push_back(bundle_path());
    return *r;
  }

  std::uint64_t part() const noexcept { return part_; }
  const std::string& session_id() const noexcept { return session_; }
  std::string bundle_path() const { return part_path(opt_.bundle, part_, ".tar.gz"); }
  std::string journal_path() const { return part_path(opt_.journal, part_, ".journal"); }
  const std::vector<std::string>& bundles() const noexcept { return bundles_; }
  const evidence::recorder& recorder() const { return *run_; }
  // Stamped into every part's manifest (packs applied, limits).
  evidence::bundle_options bundle_options_{};

 private:
  explicit session_log(session_log_options o) : opt_(std::move(o)) {}

  results<void> begin_part() {
    evidence::recorder_options ro = opt_.recorder;
    ro.run_id.clear();  // each part a run of its own
    ro.journal = evidence::journal_options{journal_path(), opt_.sync};
    auto made = evidence::recorder::make(std::move(ro));
    if (!made)
      return made.error();
    run_.emplace(std::move(*made));
    if (session_.empty())
      session_ = run_->run_id();
    return {};
  }

  results<std::uint64_t> append_started() {
    contracts::profile_started e = *started_;
    e.extra["session"] = json::value(session_);
    e.extra["part"] = json::value(static_cast<double>(part_));
    return run_->append(contracts::profile_started::event_type, e, {});
  }

  // Closes this part (assay.profile.finished, end_reason "rollover"), packs it and opens the next.
  results<void> roll_over() {
    contracts::profile_finished done;
    done.files_count = 0;
    done.network_count = 0;
    done.processes_count = 1;
    done.sandbox_degradation_count = 0;
    done.extra["end_reason"] = json::value("rollover");
    done.extra["next_part"] = json::value(static_cast<double>(part_ + 1));
    if (auto r = run_->append(contracts::profile_finished::event_type, done, {}); !r)
      return r.error();
    if (auto r = finish(); !r)
      return r.error();
    ++part_;
    if (auto r = begin_part(); !r)
      return r;
    if (auto r = append_started(); !r)
      return r.error();
    return {};
  }

  session_log_options opt_;
  std::optional<evidence::recorder> run_;
  std::optional<contracts::profile_started> started_;
  std::string session_;
  std::uint64_t part_ = 1;
  std::vector<std::string> bundles_;
};

}  // namespace assay::mcp
