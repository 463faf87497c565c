// assay/lint/event_view.hpp — JSON Pointers into an event as lint sees it (docs/packs.md), and the
// findings' shared pieces (locations, fingerprints).
//
// An event is seen as the reference models it: its envelope members only (an unknown envelope member is
// invisible; an optional member written as null is absent; assaycontenthash is always there).
// A pointer "" or "/" is the whole event, a missing leading '/' is added, "~1" and "~0" are
// unescaped, array indices are decimal without a sign or leading zero.
//
//   auto p = assay::lint::event_pointer::parse("data/tool");   // same as "/data/tool"
//   std::size_t node = p.find(doc);                            // npos when absent
#pragma once

#include "assay/hash/hash.hpp"
#include "assay/json/document.hpp"
#include "assay/lint/pack.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::lint {

class event_pointer {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // Any text is a pointer here (the reference never refuses one): a token the document does not
  // have simply finds nothing.
  static event_pointer parse(std::string_view text) {
    event_pointer p;
    p.text_ = std::string(text);
    if (text.empty() || text == "/") {
      p.whole_ = true;
      return p;
    }
    if (text.front() == '/')
      text.remove_prefix(1);
    std::size_t start = 0;
    while (true) {
      const std::size_t slash = text.find('/', start);
      std::string token(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
      p.tokens_.push_back(unescape(token));
      if (slash == std::string_view::npos)
        break;
      start = slash + 1;
    }
    p.envelope_member_ = is_envelope_member(p.tokens_.front());
    p.optional_member_ = is_optional_member(p.tokens_.front());
    return p;
  }

  const std::string& text() const noexcept { return text_; }

  // The member of the event's root the pointer starts with: empty for the whole event, or for a
  // first token no event has (the linter looks up each such member once per event).
  std::string_view root_member() const noexcept {
    return whole_ || !envelope_member_ ? std::string_view() : std::string_view(tokens_.front());
  }

  // The node the pointer names in an event document, or npos. `envelope` restricts the first
  // token to the members the event model has (false: any member, for the manifest).
  std::size_t find(const json::document& doc, bool envelope = true) const {
    if (whole_)
      return 0;
    if (envelope && !envelope_member_)
      return npos;
    return find_from(doc, doc.find_member(0, tokens_.front()), envelope);
  }

  // find(doc) for an event whose root member root_member() is at node `member` (0: absent).
  std::size_t find_in_event(const json::document& doc, std::size_t member) const {
    if (whole_)
      return 0;
    if (!envelope_member_)
      return npos;
    return find_from(doc, member, true);
  }

  // Members of an event (docs/evidence.md).  // Members of an event (docs/evidence.md).
  static bool is_envelope_member(std::string_view name) noexcept {
    static constexpr std::string_view names[] = {"specversion",
                                                 "type",
                                                 "source",
                                                 "id",
                                                 "time",
                                                 "datacontenttype",
                                                 "subject",
                                                 "traceparent",
                                                 "tracestate",
                                                 "assayrunid",
                                                 "assayseq",
                                                 "assayproducer",
                                                 "assayproducerversion",
                                                 "assaygit",
                                                 "assaypolicyid",
                                                 "assaypii",
                                                 "assaysecrets",
                                                 "assaycontenthash",
                                                 "assaysemanticdigest",
                                                 "assaydigestprofile",
                                                 "data"};
    for (std::string_view n : names)
      if (n == name)
        return true;
    return false;
  }
  // Members the reference leaves out when they have no value.
  static bool is_optional_member(std::string_view name) noexcept {
    return name == "subject" || name == "traceparent" || name == "tracestate" || name == "assaypolicyid" ||
           name == "assaysemanticdigest" || name == "assaydigestprofile";
  }

 private:
  // The rest of the walk, from the node of the first token's member (0: absent).
  std::size_t find_from(const json::document& doc, std::size_t at, bool envelope) const {
    if (at == 0 || (envelope && optional_member_ && doc.nodes()[at].kind == json::kind::null))
      return npos;
    for (std::size_t k = 1; k < tokens_.size(); ++k) {
      const std::string& t = tokens_[k];
      const json::document::node& n = doc.nodes()[at];
      if (n.kind == json::kind::object) {
        const std::size_t m = doc.find_member(at, t);
        if (m == 0)
          return npos;
        at = m;
      } else if (n.kind == json::kind::array) {
        const std::optional<std::size_t> index = parse_index(t);
        if (!index || *index >= n.count)
          return npos;
        std::size_t j = at + 1;
        for (std::size_t skip = 0; skip < *index; ++skip)
          j = doc.next(j);
        at = j;
      } else {
        return npos;
      }
    }
    return at;
  }

  static std::string unescape(const std::string& t) {
    // "~1" to '/' over the whole token first, then "~0" to '~', as the reference replaces them.
    auto replace = [](const std::string& in, char digit, char with) {
      std::string out;
      for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '~' && i + 1 < in.size() && in[i + 1] == digit) {
          out += with;
          ++i;
        } else {
          out += in[i];
        }
      }
      return out;
    };
    return replace(replace(t, '1', '/'), '0', '~');
  }
  static std::optional<std::size_t> parse_index(std::string_view t) {
    if (t.empty() || (t[0] == '0' && t.size() != 1) || t.size() > 19)
      return std::nullopt;
    std::size_t v = 0;
    for (char c : t) {
      if (c < '0' || c > '9')
        return std::nullopt;
      v = v * 10 + static_cast<std::size_t>(c - '0');
    }
    return v;
  }

  std::string text_;
  std::vector<std::string> tokens_;
  bool whole_ = false;
  bool envelope_member_ = false;  // the first token is a member of the event model
  bool optional_member_ = false;  // ... one the reference leaves out when it is null
};

// --- findings -------------------------------------------------------------------------------------

// Where a finding is: an event of events.ndjson.
struct event_location {
  std::uint64_t seq = 0;
  std::uint64_t line = 0;  // 1-based line in events.ndjson
  std::string event_type;
};

inline std::string sha256_hex(std::string_view bytes) {
  return hash::digest_bytes<hash::sha256>(bytes).hex();
}

// The fingerprint of a built-in rule's finding: sha256 of "<id>:<seq>:<line>".
inline std::string builtin_fingerprint(std::string_view rule_id, const event_location& at) {
  return "sha256:" + sha256_hex(std::string(rule_id) + ":" + std::to_string(at.seq) + ":" + std::to_string(at.line));
}

// The fingerprint of a pack rule's finding: sha256 of "<canonical id>:<seq>:<line>|global:<pack digest>".
inline std::string pack_fingerprint(std::string_view canonical_id, const std::optional<event_location>& at,
                                    std::string_view pack_digest) {
  const std::string where = at ? std::to_string(at->seq) + ":" + std::to_string(at->line) : std::string("global");
  return "sha256:" + sha256_hex(std::string(canonical_id) + ":" + where + ":" + std::string(pack_digest));
}

// SARIF's primaryLocationLineHash of a pack rule's finding: hex sha256 of
// "<canonical id>:<uri>:<line>:<pack digest>", uri events.ndjson at the event's line when located,
// else the bundle path as given at line 1.
inline std::string location_line_hash(std::string_view canonical_id, const std::optional<event_location>& at,
                                      std::string_view bundle_path, std::string_view pack_digest) {
  const std::string uri = at ? std::string("events.ndjson") : std::string(bundle_path);
  const std::string line = at ? std::to_string(at->line) : std::string("1");
  return sha256_hex(std::string(canonical_id) + ":" + uri + ":" + line + ":" + std::string(pack_digest));
}

}  // namespace assay::lint
