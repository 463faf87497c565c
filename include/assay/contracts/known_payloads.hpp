// assay/contracts/known_payloads.hpp — the payload types of the event types the library knows,
// as one list for every table built over them: reading events (events.hpp), the registry
// (registry.hpp) and the redactor (evidence/redact.hpp).
//
// Naming the list instantiates nothing: a table over it is built, and its entries' decoders and
// schemas compiled, only where `table` is called. A versioned type (`assay.env.filtered.v2`) is
// one more payload struct in the list beside the old one.
#pragma once

#include "assay/contracts/payloads.hpp"

#include <array>
#include <cstddef>
#include <type_traits>

namespace assay::contracts {

template <class... P>
struct payload_list {
  static constexpr std::size_t size = sizeof...(P);

  // One entry per payload type, in list order: `make.template operator()<P>()` for each P.
  template <class F>
  static auto table(F make) {
    using entry = std::common_type_t<decltype(make.template operator()<P>())...>;
    return std::array<entry, sizeof...(P)>{make.template operator()<P>()...};
  }
};

// The payload types of the known event types, in name order.
using known_payloads = payload_list<approval_recorded, env_filtered, fs_access, mcp_refused, mcp_tools_listed,
                                    model_invoked, net_access, profile_finished, profile_started, prompt_lineage,
                                    run_input, run_seed, sandbox_degraded, tool_call, tool_decision>;

}  // namespace assay::contracts
