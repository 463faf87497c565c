// assay/json/pointer.hpp — RFC 6901 JSON Pointer: escaping, parsing, building.
//
// Resolving a pointer against a document lives with the DOM (value.hpp: json::find).
#pragma once

#include "assay/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace assay::json {

// "~" → "~0", "/" → "~1".
inline std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// A parsed pointer: its reference tokens, unescaped.
class pointer {
 public:
  pointer() = default;

  // Parses `text` ("" is the whole document; otherwise it starts with '/'). "~" must be followed
  // by '0' or '1'.
  static result<pointer> parse(std::string_view text) {
    pointer p;
    if (text.empty())
      return p;
    if (text.front() != '/') {
      return make_error(errc::invalid_pointer, "a JSON Pointer must be empty or start with '/'");
    }
    std::string token;
    for (std::size_t i = 1; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == '/') {
        p.tokens_.push_back(std::move(token));
        token.clear();
        continue;
      }
      if (text[i] == '~') {
        if (i + 1 < text.size() && (text[i + 1] == '0' || text[i + 1] == '1')) {
          token += text[i + 1] == '0' ? '~' : '/';
          ++i;
          continue;
        }
        return make_error(errc::invalid_pointer, "'~' in a JSON Pointer must be followed by '0' or '1'");
      }
      token += text[i];
    }
    return p;
  }

  const std::vector<std::string>& tokens() const noexcept { return tokens_; }
  bool empty() const noexcept { return tokens_.empty(); }

  pointer& push(std::string_view token) {
    tokens_.emplace_back(token);
    return *this;
  }
  pointer& push(std::size_t index) {
    tokens_.push_back(std::to_string(index));
    return *this;
  }

  std::string to_string() const {
    std::string out;
    for (const auto& t : tokens_) {
      out += '/';
      out += escape_pointer_token(t);
    }
    return out;
  }

  // An array index token: "0" or [1-9][0-9]*, fitting in size_t. "-" (past the end) is not an
  // index that resolves.
  static bool parse_index(std::string_view t, std::size_t& out) noexcept {
    if (t.empty() || t.size() > 19)
      return false;
    if (t.size() > 1 && t.front() == '0')
      return false;
    std::size_t v = 0;
    for (char c : t) {
      if (c < '0' || c > '9')
        return false;
      v = v * 10 + static_cast<std::size_t>(c - '0');
    }
    out = v;
    return true;
  }

  friend bool operator==(const pointer&, const pointer&) = default;

 private:
  std::vector<std::string> tokens_;
};

}  // namespace assay::json
