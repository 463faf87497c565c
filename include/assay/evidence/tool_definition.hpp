// assay/evidence/tool_definition.hpp — the P56b tool-definition digest (docs/contracts.md).
//
// From an MCP tool definition (a `tools/list` entry, as JSON) the bounded projection
//   {name, description? (trimmed), input_schema?, server_id? (only when server-scoped)}
// is taken, everything else dropped (annotations, vendor members, titles), and its digest is
// `sha256:` + hex(sha256(JCS(projection))). It goes into `assay.tool.decision` as
// `tool_definition_digest`, with the four constant members of the P56b cluster.
#pragma once

#include "assay/error.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::evidence {

namespace detail {

inline bool is_white_space(std::uint32_t cp) noexcept {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// The length of the character starting at s[i] when it is Unicode White_Space, else 0.
inline std::size_t white_space_length(std::string_view s, std::size_t i) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  if (p[i] < 0x80)
    return is_white_space(p[i]) ? 1 : 0;
  std::uint32_t cp = 0;
  const int len = json::decode_utf8(p + i, p + s.size(), cp);
  return len > 0 && is_white_space(cp) ? static_cast<std::size_t>(len) : 0;
}

}  // namespace detail

// `s` without leading and trailing Unicode white space (White_Space property).
inline std::string_view trim_white_space(std::string_view s) noexcept {
  while (!s.empty()) {
    const std::size_t n = detail::white_space_length(s, 0);
    if (n == 0)
      break;
    s.remove_prefix(n);
  }
  while (!s.empty()) {
    std::size_t start = s.size() - 1;  // the last character's first byte
    while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80 && s.size() - start < 4)
      --start;
    const std::size_t n = detail::white_space_length(s, start);
    if (n == 0 || start + n != s.size())
      break;
    s.remove_suffix(n);
  }
  return s;
}

// The bounded projection of an MCP tool definition, as the reference's gate takes it (docs/mcp.md):
// `name` (a string not blank); `description` trimmed, left out when absent, not a string or
// blank; the input schema from `inputSchema`, else `input_schema`, which must be an object when
// given; `server_id` for a server-scoped tool, trimmed, left out when blank. A definition the
// reference would not bind (no name, a blank one, a schema that is not an object) is an error.
inline result<json::value> tool_definition_projection(const json::value& definition,
                                                      std::optional<std::string_view> server_id = std::nullopt) {
  if (!definition.is_object())
    return make_error(errc::type_mismatch, "a tool definition must be a JSON object");
  const json::value* name = definition.find("name");
  if (name == nullptr)
    return make_error(errc::missing_member, "a tool definition needs a name", "/name");
  if (!name->is_string() || trim_white_space(name->as_string()).empty())
    return make_error(errc::type_mismatch, "a tool definition's name must be a string that is not blank", "/name");
  json::value p = json::object{};
  p.set("name", name->as_string());
  if (const json::value* d = definition.find("description"); d != nullptr && d->is_string()) {
    const std::string_view text = trim_white_space(d->as_string());
    if (!text.empty())
      p.set("description", std::string(text));
  }
  const json::value* schema = definition.find("inputSchema");
  const bool camel = schema != nullptr;
  if (schema == nullptr)
    schema = definition.find("input_schema");
  if (schema != nullptr) {
    if (!schema->is_object())
      return make_error(errc::type_mismatch, "a tool definition's input schema must be an object",
                        camel ? "/inputSchema" : "/input_schema");
    p.set("input_schema", *schema);
  }
  if (server_id) {
    const std::string_view id = trim_white_space(*server_id);
    if (!id.empty())
      p.set("server_id", std::string(id));
  }
  return p;
}

// `sha256:<hex>` of the JCS of the projection.
inline result<std::string> tool_definition_digest(const json::value& definition,
                                                  std::optional<std::string_view> server_id = std::nullopt) {
  auto p = tool_definition_projection(definition, server_id);
  if (!p)
    return p.error();
  auto bytes = json::to_canonical(*p);
  if (!bytes)
    return bytes.error();
  return hash::digest_bytes<hash::sha256>(*bytes).to_string();
}

}  // namespace assay::evidence
