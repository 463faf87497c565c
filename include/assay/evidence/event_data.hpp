// assay/evidence/event_data.hpp — members of a verified event's `data` that several wings read
// the same way: a redaction commitment (docs/privacy.md) and the tool an event names.
#pragma once

#include "assay/evidence/bundle.hpp"
#include "assay/json/document.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::evidence {

// A redaction commitment: exactly {alg, digest, size_bytes}, alg "sha256", digest "sha256:…",
// size_bytes an integer 0 .. 2^53. Views into the document.
struct commitment_view {
  std::string_view digest;
  std::int64_t size_bytes = 0;
};

inline std::optional<commitment_view> commitment_at(const json::document& doc, std::size_t at) {
  const auto& nodes = doc.nodes();
  if (nodes[at].kind != json::kind::object || nodes[at].count != 3)
    return std::nullopt;
  const auto [alg, digest, size] = doc.find_members<3>(at, {"alg", "digest", "size_bytes"});
  if (alg == 0 || digest == 0 || size == 0)
    return std::nullopt;
  if (nodes[alg].kind != json::kind::string || doc.string_at(alg) != "sha256" ||
      nodes[digest].kind != json::kind::string || !doc.string_at(digest).starts_with("sha256:") ||
      nodes[size].kind != json::kind::number || !doc.integer_token_at(size))
    return std::nullopt;
  const double bytes = doc.number_at(size);
  if (!(bytes >= 0 && bytes <= 9007199254740992.0))
    return std::nullopt;
  return commitment_view{doc.string_at(digest), static_cast<std::int64_t>(bytes)};
}

// The tool `e` names in data.tool: the name, or for a redacted name its commitment's digest;
// nullopt when data has no tool, or one that is neither (an empty string, a number).
inline std::optional<std::string> tool_of(const verified_event& e) {
  const std::size_t tool = e.doc.find_member(e.data, "tool");
  if (tool == 0)
    return std::nullopt;
  if (e.doc.nodes()[tool].kind == json::kind::string) {
    if (e.doc.string_at(tool).empty())
      return std::nullopt;
    return std::string(e.doc.string_at(tool));
  }
  if (auto c = commitment_at(e.doc, tool))
    return std::string(c->digest);
  return std::nullopt;
}

}  // namespace assay::evidence
