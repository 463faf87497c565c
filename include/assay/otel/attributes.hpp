// assay/otel/attributes.hpp — OTLP/JSON attribute values (docs/otel.md) built from the nodes of a
// parsed event, and the record of what could not be built.
//
//   assay::otel::attribute_set attrs;
//   attrs.add_node("gen_ai.tool.name", doc, node, "/data/tool", "e:3", loss);   // typed AnyValue
//   std::vector<contracts::otlp_v1::key_value> list = attrs.list();                // in key order
//
// An AnyValue (contracts/otlp.hpp) in the OTLP JSON encoding: {"stringValue": s}, {"intValue":
// "<decimal>"} (64-bit integers as strings), {"boolValue": b}, {"doubleValue": d}, {"arrayValue":
// {"values": [...]}}.
// An attribute is a primitive or a homogeneous array of primitives; so a JSON object becomes one
// attribute per member, its keys joined with '.' (`gen_ai.tool.name.digest` for a redacted name),
// and what has no attribute form is recorded as lost with its JSON Pointer and the reason: null,
// an empty object, an array of mixed or non-primitive items, a key already taken.
#pragma once

#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/otlp.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/separate.hpp"

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::otel {

// What a mapping dropped: one entry per member left out (the report's dropped_attributes).
using loss_list = std::vector<contracts::otel_v1::dropped_attribute>;

inline void record_loss(loss_list& loss, std::string_view event_id, std::string member, std::string reason) {
  contracts::otel_v1::dropped_attribute d;
  d.event_id = std::string(event_id);
  d.member = std::move(member);
  d.reason = std::move(reason);
  loss.push_back(std::move(d));
}

// `/name` appended to the JSON Pointer `out`, the name escaped (RFC 6901).
inline void append_pointer_token(std::string& out, std::string_view name) {
  out += '/';
  for (char c : name) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
}

// A JSON Pointer one level below `parent`: its member `name`, escaped (RFC 6901).
inline std::string child_pointer(std::string_view parent, std::string_view name) {
  std::string out(parent);
  append_pointer_token(out, name);
  return out;
}

// An OTLP type named through V (deferred_t, assay/separate.hpp): the code of these templates
// is compiled only where they are used.
template <class V, class T>
using otlp = deferred_t<V, T>;

namespace detail {

// A number's AnyValue: intValue when it is written as an integer that fits 64 bits (its
// decimal text), else doubleValue.
template <class V = void>
otlp<V, contracts::otlp_v1::primitive_value> number_value(const json::document& doc, std::size_t i) {
  otlp<V, contracts::otlp_v1::primitive_value> out;
  if (doc.integer_token_at(i)) {
    const std::string text = doc.canonical_at(i);
    const bool digits = !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos;
    if (digits) {
      std::int64_t n = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
      if (r.ec == std::errc() && r.ptr == text.data() + text.size()) {
        out.int_value = otlp<V, contracts::otlp_v1::int64_text>(std::to_string(n));
        return out;
      }
    }
  }
  out.double_value = doc.number_at(i);
  return out;
}

}  // namespace detail

// The AnyValue of a primitive node (string, boolean, number); nullopt for anything else.
template <class V = void>
std::optional<otlp<V, contracts::otlp_v1::primitive_value>> primitive_value(const json::document& doc, std::size_t i) {
  const auto& n = doc.nodes()[i];
  otlp<V, contracts::otlp_v1::primitive_value> out;
  switch (n.kind) {
    case json::kind::string:
      out.string_value = std::string(doc.string_at(i));
      return out;
    case json::kind::boolean:
      out.bool_value = n.payload != 0;
      return out;
    case json::kind::number:
      return detail::number_value<V>(doc, i);
    default:
      return std::nullopt;
  }
}

// A primitive as an attribute's value.
template <class V = void>
otlp<V, contracts::otlp_v1::any_value> any_value_of(otlp<V, contracts::otlp_v1::primitive_value> p) {
  otlp<V, contracts::otlp_v1::any_value> v;
  v.string_value = std::move(p.string_value);
  v.int_value = std::move(p.int_value);
  v.double_value = p.double_value;
  v.bool_value = p.bool_value;
  return v;
}

template <class V = void>
otlp<V, contracts::otlp_v1::any_value> string_value(std::string_view s) {
  otlp<V, contracts::otlp_v1::any_value> v;
  v.string_value = std::string(s);
  return v;
}

// The attributes of one span (or span event, or resource): key -> AnyValue, in key order.
template <class V = void>
class basic_attribute_set {
 public:
  // Sets `key` to `v` unless the key is taken; false when it was.
  bool set(std::string_view key, otlp<V, contracts::otlp_v1::any_value> v) {
    return attrs_.emplace(std::string(key), std::move(v)).second;
  }

  bool contains(std::string_view key) const { return attrs_.find(std::string(key)) != attrs_.end(); }
  const otlp<V, contracts::otlp_v1::any_value>* find(std::string_view key) const {
    const auto it = attrs_.find(std::string(key));
    return it == attrs_.end() ? nullptr : &it->second;
  }

  // Adds the node `i` of `doc` (found at `pointer` of the event `event_id`) under `key`: a
  // primitive as itself, an array of primitives of one kind as an arrayValue, an object as one
  // attribute per member (key.member, recursively). Anything else is recorded in `loss`. The
  // walk keeps its own stack, and one key and one pointer that grow and shrink with it: any
  // depth the reader admitted is walked, in memory linear in the depth.
  void add_node(std::string_view key, const json::document& doc, std::size_t i, std::string_view pointer,
                std::string_view event_id, loss_list& loss) {
    struct level {
      std::size_t next, end, key_size, pointer_size;  // the object's next member, its end, its key and pointer
    };
    std::vector<level> stack;
    std::string k(key), p(pointer);
    for (;;) {
      const auto& n = doc.nodes()[i];
      if (n.kind == json::kind::object) {
        if (n.count == 0)
          record_loss(loss, event_id, p, "an empty object has no attribute form");
        else
          stack.push_back({i + 1, static_cast<std::size_t>(n.payload), k.size(), p.size()});
      } else {
        add_leaf(k, doc, i, p, event_id, loss);
      }
      // The next member of the innermost object that has one left.
      while (!stack.empty() && stack.back().next >= stack.back().end)
        stack.pop_back();
      if (stack.empty())
        return;
      level& l = stack.back();
      const std::size_t j = l.next;
      l.next = doc.next(j + 1);
      const std::string_view name = doc.string_at(j);
      k.resize(l.key_size);
      k += '.';
      k += name;
      p.resize(l.pointer_size);
      append_pointer_token(p, name);
      i = j + 1;
    }
  }

  // The attributes in key order.
  std::vector<otlp<V, contracts::otlp_v1::key_value>> list() const {
    std::vector<otlp<V, contracts::otlp_v1::key_value>> out;
    out.reserve(attrs_.size());
    for (const auto& [k, v] : attrs_)
      out.push_back({non_empty(k), v});  // keys are never empty: each names an envelope or a payload member
    return out;
  }

  std::size_t size() const noexcept { return attrs_.size(); }

 private:
  // An arrayValue of the array at `i` when its items are primitives of one kind (or none).
  static std::optional<otlp<V, contracts::otlp_v1::array_value>> array_value(const json::document& doc, std::size_t i) {
    const auto& n = doc.nodes()[i];
    otlp<V, contracts::otlp_v1::array_value> out;
    for (std::size_t j = i + 1; j < n.payload; j = doc.next(j)) {
      auto v = primitive_value<V>(doc, j);
      if (!v || (!out.values.empty() && !same_kind(out.values.front(), *v)))
        return std::nullopt;
      out.values.push_back(std::move(*v));
    }
    return out;
  }
  static bool same_kind(const otlp<V, contracts::otlp_v1::primitive_value>& a,
                        const otlp<V, contracts::otlp_v1::primitive_value>& b) {
    return a.string_value.has_value() == b.string_value.has_value() &&
           a.int_value.has_value() == b.int_value.has_value() &&
           a.double_value.has_value() == b.double_value.has_value() &&
           a.bool_value.has_value() == b.bool_value.has_value();
  }

  // A node that is not an object: a primitive, an array, or null.
  void add_leaf(const std::string& key, const json::document& doc, std::size_t i, const std::string& pointer,
                std::string_view event_id, loss_list& loss) {
    const auto& n = doc.nodes()[i];
    if (n.kind == json::kind::null) {
      record_loss(loss, event_id, pointer, "null has no OpenTelemetry attribute form");
      return;
    }
    otlp<V, contracts::otlp_v1::any_value> v;
    if (n.kind == json::kind::array) {
      auto a = array_value(doc, i);
      if (!a) {
        record_loss(loss, event_id, pointer,
                    "an attribute array holds primitives of one type only (strings, integers, doubles or booleans)");
        return;
      }
      v.array_value = std::move(*a);
    } else {
      v = any_value_of<V>(*primitive_value<V>(doc, i));
    }
    if (!set(key, std::move(v)))
      record_loss(loss, event_id, pointer, "attribute key " + key + " already used");
  }

  std::map<std::string, otlp<V, contracts::otlp_v1::any_value>> attrs_;
};
using attribute_set = basic_attribute_set<>;

}  // namespace assay::otel

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::otel {
ASSAY_EXTERN_TEMPLATE contracts::otlp_v1::primitive_value detail::number_value<void>(const json::document&,
                                                                                     std::size_t);
ASSAY_EXTERN_TEMPLATE std::optional<contracts::otlp_v1::primitive_value> primitive_value<void>(const json::document&,
                                                                                               std::size_t);
ASSAY_EXTERN_TEMPLATE contracts::otlp_v1::any_value any_value_of<void>(contracts::otlp_v1::primitive_value);
ASSAY_EXTERN_TEMPLATE contracts::otlp_v1::any_value string_value<void>(std::string_view);
ASSAY_EXTERN_TEMPLATE class basic_attribute_set<void>;
}  // namespace assay::otel
#endif
