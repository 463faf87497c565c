// assay/mcp/detail/uri.hpp — URI references as JSON Schema resolves `$id` and `$ref`: RFC 3986
// §5.2 (parsing into components, merging paths, removing dot segments) and the percent-decoding
// of a fragment before it is read as a JSON Pointer (RFC 6901 §6).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace assay::mcp::detail {

struct uri_parts {
  std::string scheme, authority, path, query, fragment;
  bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

inline uri_parts parse_uri(std::string_view s) {
  uri_parts u;
  // A scheme: a letter, then letters, digits, '+', '-', '.', up to a ':' before any '/', '?', '#'.
  std::size_t colon = s.find_first_of(":/?#");
  if (colon != std::string_view::npos && colon > 0 && s[colon] == ':') {
    bool ok = (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z');
    for (std::size_t k = 1; k < colon && ok; ++k) {
      const char c = s[k];
      ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
           c == '.';
    }
    if (ok) {
      u.has_scheme = true;
      u.scheme = std::string(s.substr(0, colon));
      s.remove_prefix(colon + 1);
    }
  }
  if (const std::size_t hash = s.find('#'); hash != std::string_view::npos) {
    u.has_fragment = true;
    u.fragment = std::string(s.substr(hash + 1));
    s = s.substr(0, hash);
  }
  if (const std::size_t q = s.find('?'); q != std::string_view::npos) {
    u.has_query = true;
    u.query = std::string(s.substr(q + 1));
    s = s.substr(0, q);
  }
  if (s.substr(0, 2) == "//") {
    u.has_authority = true;
    s.remove_prefix(2);
    const std::size_t slash = s.find('/');
    u.authority = std::string(s.substr(0, slash));
    s = slash == std::string_view::npos ? std::string_view() : s.substr(slash);
  }
  u.path = std::string(s);
  return u;
}

// RFC 3986 §5.2.4.
inline std::string remove_dot_segments(std::string_view in) {
  std::string out;
  while (!in.empty()) {
    if (in.substr(0, 3) == "../") {
      in.remove_prefix(3);
    } else if (in.substr(0, 2) == "./") {
      in.remove_prefix(2);
    } else if (in.substr(0, 3) == "/./") {
      in.remove_prefix(2);
    } else if (in == "/.") {
      in = "/";
    } else if (in.substr(0, 4) == "/../" || in == "/..") {
      in = in.size() == 3 ? std::string_view("/") : in.substr(3);
      const std::size_t last = out.rfind('/');
      out.resize(last == std::string::npos ? 0 : last);
    } else if (in == "." || in == "..") {
      in = {};
    } else {
      const std::size_t next = in.find('/', 1);
      const std::size_t n = next == std::string_view::npos ? in.size() : next;
      out.append(in.substr(0, n));
      in.remove_prefix(n);
    }
  }
  return out;
}

inline std::string compose_uri(const uri_parts& u) {
  std::string out;
  if (u.has_scheme)
    out += u.scheme + ":";
  if (u.has_authority)
    out += "//" + u.authority;
  out += u.path;
  if (u.has_query)
    out += "?" + u.query;
  if (u.has_fragment)
    out += "#" + u.fragment;
  return out;
}

// The reference `ref` resolved against the absolute URI `base` (RFC 3986 §5.2.2).
inline std::string resolve_uri(std::string_view base, std::string_view ref) {
  const uri_parts r = parse_uri(ref);
  const uri_parts b = parse_uri(base);
  uri_parts t;
  if (r.has_scheme) {
    t = r;
    t.path = remove_dot_segments(r.path);
  } else {
    t.has_scheme = b.has_scheme;
    t.scheme = b.scheme;
    if (r.has_authority) {
      t.has_authority = true;
      t.authority = r.authority;
      t.path = remove_dot_segments(r.path);
      t.has_query = r.has_query;
      t.query = r.query;
    } else {
      t.has_authority = b.has_authority;
      t.authority = b.authority;
      if (r.path.empty()) {
        t.path = b.path;
        t.has_query = r.has_query || b.has_query;
        t.query = r.has_query ? r.query : b.query;
      } else {
        if (r.path.front() == '/') {
          t.path = remove_dot_segments(r.path);
        } else {
          std::string merged;
          if (b.has_authority && b.path.empty()) {
            merged = "/" + r.path;
          } else {
            const std::size_t last = b.path.rfind('/');
            merged = (last == std::string::npos ? std::string() : b.path.substr(0, last + 1)) + r.path;
          }
          t.path = remove_dot_segments(merged);
        }
        t.has_query = r.has_query;
        t.query = r.query;
      }
    }
  }
  t.has_fragment = r.has_fragment;
  t.fragment = r.fragment;
  return compose_uri(t);
}

// `uri` split at its first '#': the part before it and the fragment (empty when none).
inline std::pair<std::string, std::string> split_fragment(std::string_view uri) {
  const std::size_t hash = uri.find('#');
  if (hash == std::string_view::npos)
    return {std::string(uri), std::string()};
  return {std::string(uri.substr(0, hash)), std::string(uri.substr(hash + 1))};
}

// %XX sequences decoded; false when one is malformed.
inline bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  auto hex = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size() || hex(in[i + 1]) < 0 || hex(in[i + 2]) < 0)
      return false;
    out += static_cast<char>(hex(in[i + 1]) * 16 + hex(in[i + 2]));
    i += 2;
  }
  return true;
}

}  // namespace assay::mcp::detail
