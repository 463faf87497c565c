// assay/lint/signals.hpp — the signal registry (docs/packs.md, registry v0).
//
// A signal is a kind of evidence a pack can require (`x-assay.requires_signals`): the registry
// says where evidence of each one is found, as event-type globs with JSON Pointers into the event,
// any one place sufficing. Packs may only name registered signals; completeness and closure
// (docs/packs.md) look the signals up here. Callers extend a copy of the v0 table:
//
//   auto reg = assay::lint::signal_registry::v0();
//   reg.add({.name = "ticket_refs", .found_in = {{"acme.ticket.linked", {"/data/ticket"}}}});
//   assay::lint::pack_options opts{.signals = &reg};
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

// One place evidence of a signal can be found: an event whose `type` matches `event_type` (a
// glob of docs/packs.md; "*" is any event) and, when `pointers` is not empty, that has a value at one
// of them (RFC 6901, into the whole event).
struct signal_place {
  std::string event_type;
  std::vector<std::string> pointers{};
};

struct signal_definition {
  std::string name;                    // the key packs name: [a-z0-9][a-z0-9_.-]*[a-z0-9]
  std::vector<signal_place> found_in;  // any one place suffices
  double replay_weight = 0;  // > 0: replay-critical, with this weight (docs/packs.md closure; to the millionth)
  std::string description{};
};

class signal_registry {
 public:
  // Registry v0 of docs/packs.md.
  static const signal_registry& v0() {
    static const signal_registry reg = [] {
      signal_registry r;
      r.add({"policy_decisions", {{"assay.tool.decision"}}, 0, "Policy decisions on tool calls."});
      r.add({"tool_calls", {{"assay.tool.call", {"/data/tool"}}}, 0, "Tool invocations."});
      r.add({"tool_io_bodies",
             {{"assay.tool.call", {"/data/arguments", "/data/result"}}},
             0.3,
             "The input and output bodies of tool calls."});
      r.add({"model_identity",
             {{"assay.model.invoked", {"/data/model"}}, {"*", {"/data/gen_ai.request.model"}}},
             0.2,
             "Which model served each inference."});
      r.add({"run_inputs", {{"assay.run.input", {"/data/input"}}}, 0.3, "The run's inputs."});
      r.add({"rng_seeds", {{"assay.run.seed", {"/data/seed"}}}, 0.2, "The random seeds the run used."});
      r.add({"prompt_lineage", {{"assay.prompt.lineage", {"/data/prompt_digest"}}}, 0, "Prompt digests."});
      r.add({"human_approvals", {{"assay.approval.recorded"}}, 0, "Human decisions on gated actions."});
      r.add({"environment_posture", {{"assay.env.filtered"}}, 0, "How the environment was filtered."});
      r.add({"sandbox_posture",
             {{"assay.profile.finished", {"/data/sandbox_degradation_count"}}},
             0,
             "Whether the sandbox ran degraded."});
      return r;
    }();
    return reg;
  }

  // Adds a signal, or replaces the one of the same name.
  void add(signal_definition d) {
    auto it = std::lower_bound(defs_.begin(), defs_.end(), d.name,
                               [](const signal_definition& a, const std::string& n) { return a.name < n; });
    if (it != defs_.end() && it->name == d.name)
      *it = std::move(d);
    else
      defs_.insert(it, std::move(d));
  }

  const signal_definition* find(std::string_view name) const noexcept {
    auto it = std::lower_bound(defs_.begin(), defs_.end(), name,
                               [](const signal_definition& a, std::string_view n) { return a.name < n; });
    return it != defs_.end() && it->name == name ? &*it : nullptr;
  }

  // Every signal, sorted by name.
  const std::vector<signal_definition>& all() const noexcept { return defs_; }

  // The replay-critical signals (weight > 0), sorted by name.
  std::vector<const signal_definition*> replay_critical() const {
    std::vector<const signal_definition*> out;
    for (const signal_definition& d : defs_)
      if (d.replay_weight > 0)
        out.push_back(&d);
    return out;
  }

  // "a, b, c": the names, for messages.
  std::string names() const {
    std::string out;
    for (const signal_definition& d : defs_)
      out += (out.empty() ? "" : ", ") + d.name;
    return out;
  }

 private:
  std::vector<signal_definition> defs_;
};

}  // namespace assay::lint
