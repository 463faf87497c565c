// assay/closure/observer.hpp — completeness and closure (docs/packs.md), a visitor of the one verification
// pass.
//
//   auto packs = assay::lint::load_packs(values);
//   assay::closure::observer c(*packs);
//   auto v = assay::evidence::verify_bundle_bytes(bytes, {}, c);        // alone, or beside a linter
//   if (v) { assay::contracts::closure_report r = c.report(); }   // linked to the file by its sha256
//
// Each signal the packs require (x-assay.requires_signals) and each replay-critical signal of the
// registry is looked for where the registry says it is found: an event whose type matches one of
// its places and that has a value at one of that place's pointers (a place without pointers: the
// event alone). A value that is a redaction commitment (docs/privacy.md: {alg, digest, size_bytes}) shows
// the signal redacted; any other value, or a null-free match without pointers, shows it captured;
// captured wins. A place whose event type occurs without a value at any of its pointers shows the
// signal missing — except the place "*" (any event), whose events say nothing of the signal's
// absence. Nothing at all: unknown. The report is computed from the bundle and the packs alone
// (no clock): the same inputs give the same canonical bytes.
#pragma once

#include "assay/contracts/closure.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/event_data.hpp"
#include "assay/json/printable.hpp"
#include "assay/lint/event_view.hpp"
#include "assay/lint/glob.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/signals.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::closure {

// What the pass showed of a signal; a later state wins over an earlier one.
enum class signal_state : std::uint8_t { unknown, missing, redacted, captured };

constexpr std::string_view name(signal_state s) noexcept {
  switch (s) {
    case signal_state::captured:
      return "captured";
    case signal_state::redacted:
      return "redacted";
    case signal_state::missing:
      return "missing";
    case signal_state::unknown:
      break;
  }
  return "unknown";
}

// One signal after the pass.
struct signal_outcome {
  const lint::signal_definition* def = nullptr;
  bool required = false;  // named by a pack's requires_signals
  signal_state state = signal_state::unknown;
  std::optional<lint::event_location> at;                       // captured or redacted: the first event that showed it
  std::string at_pointer;                                       // ... and where in it
  std::optional<contracts::closure_v1::commitment> commitment;  // redacted: the first commitment
  std::string absent_type;          // missing: the first event type seen without any pointer
  std::uint64_t absent_events = 0;  // missing: events of the places' types without any pointer
};

// The places a signal is looked for, as "<event type glob>" or "<glob>#<pointer>".
inline std::vector<std::string> evidence_paths(const lint::signal_definition& d) {
  std::vector<std::string> out;
  for (const lint::signal_place& p : d.found_in) {
    if (p.pointers.empty())
      out.push_back(p.event_type);
    for (const std::string& ptr : p.pointers)
      out.push_back(p.event_type + "#" + ptr);
  }
  return out;
}

template <class = void>
class basic_observer {
 public:
  // Tracks the packs' required signals and the registry's replay-critical ones. Every signal the
  // packs name must be registered (load_packs has checked it against the same registry). The
  // packs and the registry must outlive the observer.
  explicit basic_observer(std::span<const lint::loaded_pack> packs,
                          const lint::signal_registry& registry = lint::signal_registry::v0())
      : packs_(packs) {
    auto track = [&](const lint::signal_definition* d, bool required) {
      const auto at = std::find_if(signals_.begin(), signals_.end(), [&](const tracked& t) { return t.out.def == d; });
      if (at != signals_.end()) {
        at->out.required = at->out.required || required;
        return;
      }
      tracked t;
      t.out.def = d;
      t.out.required = required;
      for (const lint::signal_place& p : d->found_in) {
        place pl;
        pl.type = lint::glob::compile(p.event_type);
        pl.any_event = p.event_type == "*";
        for (const std::string& ptr : p.pointers)
          pl.pointers.push_back(lint::event_pointer::parse(ptr));
        t.places.push_back(std::move(pl));
      }
      signals_.push_back(std::move(t));
    };
    for (const lint::loaded_pack& p : packs)
      for (const std::string& s : p.requires_signals())
        if (const lint::signal_definition* d = registry.find(s))
          track(d, true);
    for (const lint::signal_definition* d : registry.replay_critical())
      track(d, false);
    std::sort(signals_.begin(), signals_.end(),
              [](const tracked& a, const tracked& b) { return a.out.def->name < b.out.def->name; });
  }

  void on_end(const evidence::verified_bundle& b) { file_sha256_ = b.file_sha256; }

  void on_event(const evidence::verified_event& e) {
    for (tracked& t : signals_) {
      if (t.out.state == signal_state::captured)
        continue;
      for (place& p : t.places) {
        if (!p.type || !p.type->matches(e.type))
          continue;
        see(t, p, e);
        if (t.out.state == signal_state::captured)
          break;
      }
    }
    if (e.type == "assay.tool.call") {
      const std::size_t flag = e.doc.find_member(e.data, "nondeterministic");
      if (flag != 0 && e.doc.nodes()[flag].kind == json::kind::boolean && e.doc.nodes()[flag].payload != 0)
        dependencies_.push_back("tool:" + evidence::tool_of(e).value_or("(unnamed)"));
    } else if (e.type == "assay.net.access" || e.type == "assay.net.connect") {
      // Every network event type the reference's exporters write (docs/packs.md): ours, and its profile
      // mapping's connect events.
      dependencies_.push_back("network:" + (e.subject ? std::string(*e.subject) : std::string("(no subject)")));
    } else if (e.type == "assay.process.exec") {
      dependencies_.push_back("process:" + (e.subject ? std::string(*e.subject) : std::string("(no subject)")));
    }
  }

  // Every tracked signal, sorted by name.
  std::vector<signal_outcome> outcomes() const {
    std::vector<signal_outcome> out;
    for (const tracked& t : signals_)
      out.push_back(t.out);
    return out;
  }

  // The report of docs/packs.md (closure-v1), after a pass that verified.
  contracts::closure_report report() const {
    namespace v1 = contracts::closure_v1;
    contracts::closure_report out;
    if (!file_sha256_.empty())
      out.bundle_digest = file_sha256_;  // the pass's digest of the bundle file
    std::vector<v1::pack_ref> refs;
    for (const lint::loaded_pack& p : packs_) {
      v1::pack_ref ref = lint::ref_of<v1::pack_ref>(p).value();  // a loaded pack meets its constraints
      const bool listed = std::any_of(refs.begin(), refs.end(), [&](const v1::pack_ref& q) {
        return q.name == ref.name && q.version == ref.version && q.digest == ref.digest;
      });
      if (!listed)
        refs.push_back(std::move(ref));
    }
    out.pack_context = std::move(refs);

    auto signal = [&](std::vector<v1::signal>& list, const std::string& name) {
      v1::signal s;
      s = name;
      list.push_back(std::move(s));
    };
    std::map<std::string, v1::signal_detail> by_signal;
    for (const tracked& t : signals_) {
      if (!t.out.required)
        continue;
      const signal_outcome& s = t.out;
      signal(out.completeness.required, s.def->name);
      signal(s.state == signal_state::captured   ? out.completeness.captured
             : s.state == signal_state::redacted ? out.completeness.redacted
                                                 : out.completeness.unknown,
             s.def->name);
      v1::signal_detail d;
      d.status = decltype(d.status)::of(s.state);
      d.reason = reason(s);
      std::vector<non_empty> paths;
      for (const std::string& p : evidence_paths(*s.def)) {
        non_empty n;
        n = p;
        paths.push_back(std::move(n));
      }
      d.evidence_paths = std::move(paths);
      if (s.state == signal_state::redacted)
        d.commitment = s.commitment;
      by_signal.emplace(s.def->name, std::move(d));
    }
    out.completeness.by_signal = std::move(by_signal);

    const score_parts sp = score();
    out.closure.score = decltype(out.closure.score)(sp.score);
    for (const tracked& t : signals_) {
      if (t.out.def->replay_weight <= 0)
        continue;
      signal(t.out.state == signal_state::captured ? out.closure.captured : out.closure.missing, t.out.def->name);
    }
    std::vector<non_empty> deps;
    for (const std::string& d : dependencies()) {
      non_empty n;
      n = d;
      deps.push_back(std::move(n));
    }
    out.closure.confidence = decltype(out.closure.confidence)::parse(confidence(sp.score, deps.empty())).value();
    out.closure.uncontrolled_dependencies = std::move(deps);
    v1::scoring scoring;
    scoring.method = decltype(scoring.method)::parse("weighted_ratio_v1").value();
    for (const tracked& t : signals_)
      if (t.out.def->replay_weight > 0)
        scoring.weights.emplace(t.out.def->name,
                                typename decltype(scoring.weights)::mapped_type(t.out.def->replay_weight));
    out.closure.scoring = std::move(scoring);
    return out;
  }

  // The closure score: Σ weights of the captured replay-critical signals / Σ all their weights.
  // The sums are exact (each weight counted in millionths, as an integer) and the ratio is rounded
  // once: 0.7, never the 0.7000000000000001 of adding doubles; (0.1 + 0.2) / 1.1 is 3/11. 0 when
  // the registry has no replay-critical signal.
  struct score_parts {
    double captured = 0, total = 0, score = 0;
  };
  score_parts score() const {
    std::int64_t captured = 0, total = 0;
    for (const tracked& t : signals_) {
      const double w = t.out.def->replay_weight;
      if (!(w > 0))
        continue;
      const auto units = static_cast<std::int64_t>(std::llround(std::min(w, 1e9) * 1e6));
      total += units;
      if (t.out.state == signal_state::captured)
        captured += units;
    }
    score_parts s;
    s.captured = static_cast<double>(captured) / 1e6;
    s.total = static_cast<double>(total) / 1e6;
    if (total > 0)
      s.score = static_cast<double>(captured) / static_cast<double>(total);
    return s;
  }

  // "high" when the score is 1 and nothing is uncontrolled; "medium" when the score is at least
  // 0.5; else "low" (docs/packs.md).
  static std::string confidence(double score, bool no_dependencies) {
    if (score >= 1 && no_dependencies)
      return "high";
    return score >= 0.5 ? "medium" : "low";
  }

  // tool:<name>, network:<subject> and process:<subject>, sorted and unique.
  std::vector<std::string> dependencies() const {
    std::vector<std::string> out = dependencies_;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // Why a signal is in its state, in a sentence.
  static std::string reason(const signal_outcome& s) {
    auto where = [&] {
      std::string w = "events.ndjson line " + std::to_string(s.at->line) + " (" + json::printable(s.at->event_type);
      if (!s.at_pointer.empty())
        w += ", " + json::printable(s.at_pointer);
      return w + ")";
    };
    switch (s.state) {
      case signal_state::captured:
        return "found at " + where();
      case signal_state::redacted:
        return "only a redaction commitment was found, first at " + where();
      case signal_state::missing:
        return std::to_string(s.absent_events) +
               " event(s) of a type where it is recorded, none with a value there (first: " +
               json::printable(s.absent_type) + ")";
      case signal_state::unknown:
        break;
    }
    return "no event of a type where it is recorded";
  }

  // --explain closure.score: each replay-critical signal with its weight, its state and where it
  // was looked for; then the score, the confidence and the uncontrolled dependencies. Strings from
  // packs and the bundle are made printable (json/printable.hpp): each stays on its line.
  std::string explain_score() const {
    const score_parts sp = score();
    std::string out = "closure.score = " + number(sp.score) + " (weighted_ratio_v1: captured weight " +
                      number(sp.captured) + " of " + number(sp.total) + ")\n";
    for (const tracked& t : signals_) {
      if (t.out.def->replay_weight <= 0)
        continue;
      out += "  " + json::printable(t.out.def->name) + "  weight " + number(t.out.def->replay_weight) + "  " +
             std::string(name(t.out.state)) + "\n";
      std::string paths;
      for (const std::string& p : evidence_paths(*t.out.def))
        paths += (paths.empty() ? "" : ", ") + json::printable(p);
      out += "    looked for in: " + paths + "\n";
      out += "    " + reason(t.out) + "\n";
    }
    const std::vector<std::string> deps = dependencies();
    out += "confidence: " + confidence(sp.score, deps.empty()) + "\n";
    if (deps.empty()) {
      out += "uncontrolled dependencies: none\n";
    } else {
      out += "uncontrolled dependencies:\n";
      for (const std::string& d : deps)
        out += "  " + json::printable(d) + "\n";
    }
    return out;
  }

  // The required signals of a pack that the pass did not show captured ("name (state)").
  std::vector<std::string> not_captured(const lint::loaded_pack& p) const {
    std::vector<std::string> out;
    for (const std::string& s : p.requires_signals())
      for (const tracked& t : signals_)
        if (t.out.def->name == s && t.out.state != signal_state::captured)
          out.push_back(s + " (" + std::string(name(t.out.state)) + ")");
    return out;
  }

 private:
  struct place {
    std::optional<lint::glob> type;
    bool any_event = false;
    std::vector<lint::event_pointer> pointers;
  };
  struct tracked {
    signal_outcome out;
    std::vector<place> places;
  };

  // The commitment at `at` in closure-v1's form (event_data.hpp reads it).
  static std::optional<contracts::closure_v1::commitment> commitment_at(const json::document& doc, std::size_t at) {
    const auto view = evidence::commitment_at(doc, at);
    if (!view)
      return std::nullopt;
    contracts::closure_v1::commitment c;
    if (!assign(c.alg, "sha256") || !assign(c.digest, view->digest))
      return std::nullopt;
    c.size_bytes.emplace(view->size_bytes);
    return c;
  }

  void see(tracked& t, const place& p, const evidence::verified_event& e) {
    auto here = [&](std::string_view pointer) {
      t.out.at = lint::event_location{e.seq, e.line_number, std::string(e.type)};
      t.out.at_pointer = std::string(pointer);
    };
    if (p.pointers.empty()) {
      t.out.state = signal_state::captured;
      here("");
      return;
    }
    for (const lint::event_pointer& ptr : p.pointers) {
      const std::size_t at = ptr.find(e.doc);
      if (at == lint::event_pointer::npos || e.doc.nodes()[at].kind == json::kind::null)
        continue;
      if (auto c = commitment_at(e.doc, at)) {
        if (t.out.state < signal_state::redacted) {
          t.out.state = signal_state::redacted;
          t.out.commitment = std::move(*c);
          here(ptr.text());
        }
        continue;
      }
      t.out.state = signal_state::captured;
      t.out.commitment.reset();
      here(ptr.text());
      return;
    }
    // Past here, no value at any of the place's pointers.
    if (t.out.state >= signal_state::redacted || p.any_event)
      return;
    if (t.out.state == signal_state::unknown) {
      t.out.state = signal_state::missing;
      t.out.absent_type = std::string(e.type);
    }
    ++t.out.absent_events;
  }

  static std::string number(double v) { return json::number_to_string(v); }

  std::span<const lint::loaded_pack> packs_;
  std::vector<tracked> signals_;
  std::vector<std::string> dependencies_;
  std::string file_sha256_;
};
using observer = basic_observer<>;

}  // namespace assay::closure

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::closure {
ASSAY_EXTERN_TEMPLATE class basic_observer<void>;
}  // namespace assay::closure
#endif
