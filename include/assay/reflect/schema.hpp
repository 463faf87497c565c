// assay/reflect/schema.hpp — JSON Schema 2020-12 generated from a reflected type.
//
// The same types that drive decoding and encoding drive the schema, so the three cannot drift.
// Types with a static `schema_name` are emitted once under "$defs" and referenced with "$ref";
// all others are inlined. A root contract adds `schema_id` and `schema_title`.
#pragma once

#include "assay/json/value.hpp"
#include "assay/reflect/metadata.hpp"
#include "assay/reflect/untyped.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace assay::reflect {

struct schema_context {
  json::value defs = json::object{};
};

template <class T>
json::value schema_value(schema_context& ctx);

// What a constraint type's assay_schema() writes its keywords into: the schema of the value.
struct schema_keywords {
  json::value& s;

  void set(std::string_view keyword, double v) { s.set(keyword, v); }
  void set(std::string_view keyword, bool v) { s.set(keyword, v); }
  void set(std::string_view keyword, std::string_view v) { s.set(keyword, v); }
  template <std::size_t N>
  void set(std::string_view keyword, const std::array<std::string_view, N>& list) {
    json::array values;
    for (auto v : list)
      values.emplace_back(v);
    s.set(keyword, std::move(values));
  }
};

namespace detail {

// The keywords of T's constraint, if it has one.
template <class T>
void add_keywords(json::value& s) {
  if constexpr (requires(schema_keywords & k) { T::assay_schema(k); }) {
    schema_keywords k{s};
    T::assay_schema(k);
  }
}

inline json::value typed(std::string_view type) {
  json::value v = json::object{};
  v.set("type", type);
  return v;
}

inline json::value parse_default(std::string_view text) {
  auto v = json::parse(text);
  if (!v)
    throw std::logic_error("assay: field_info::default_json is not valid JSON: " + std::string(text));
  return std::move(*v);
}

// `text` as an ECMA-262 pattern that matches it literally.
inline std::string regex_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos)
      out += '\\';
    out += c;
  }
  return out;
}

template <class T>
json::value struct_schema(schema_context& ctx) {
  using info = struct_info<T>;
  json::value s = typed("object");
  if constexpr (info::has_extras) {
    using X = field_type<T, info::extras_index>;
    if (!X::prefix.empty()) {
      // Undeclared members only under the prefix (any value).
      json::value pattern = json::object{};
      pattern.set("^" + regex_escape(X::prefix), json::object{});
      s.set("patternProperties", std::move(pattern));
      s.set("additionalProperties", false);
    } else {
      s.set("additionalProperties", true);  // any other member, any value: said, not left implicit
    }
  } else {
    s.set("additionalProperties", false);
  }
  json::array required;
  for (std::size_t i = 0; i < info::size; ++i)
    if (info::required[i])
      required.emplace_back(info::json_names[i]);
  if (!required.empty())
    s.set("required", std::move(required));
  json::value props = json::object{};
  for_each_index<T>([&](auto I) {
    using F = field_type<T, I.value>;
    json::value p;
    if constexpr (is_extra_members<F>::value) {
      return;
    } else if constexpr (is_std_optional<F>::value) {
      p = schema_value<typename F::value_type>(ctx);
    } else {
      p = schema_value<F>(ctx);
    }
    if (const field_info* f = info::find_info(info::cpp_names[I.value])) {
      if (!f->description.empty())
        p.set("description", f->description);
      if (!f->default_json.empty())
        p.set("default", parse_default(f->default_json));
    }
    props.set(info::json_names[I.value], std::move(p));
  });
  s.set("properties", std::move(props));
  return s;
}

// The schema of T itself, never a reference.
template <class T>
json::value inline_schema(schema_context& ctx) {
  constexpr category cat = category_of<T>();
  static_assert(cat != category::unsupported, "assay: this type cannot be mapped to JSON");
  json::value s;
  if constexpr (cat == category::any) {
    s = json::object{};
  } else if constexpr (cat == category::boolean) {
    s = typed("boolean");
  } else if constexpr (cat == category::integer) {
    s = typed("integer");
    add_keywords<T>(s);
  } else if constexpr (cat == category::number) {
    s = typed("number");
    add_keywords<T>(s);
  } else if constexpr (cat == category::string || cat == category::enumeration) {
    s = typed("string");
    add_keywords<T>(s);
  } else if constexpr (cat == category::either) {
    s = json::object{};
    s.set("anyOf", json::array{schema_value<typename T::first_type>(ctx), schema_value<typename T::second_type>(ctx)});
  } else if constexpr (cat == category::nullable) {
    s = schema_value<typename T::value_type>(ctx);
    json::value* type = s.find("type");
    if (type != nullptr && type->is_string()) {
      *type = json::array{*type, json::value("null")};
      if (json::value* e = s.find("enum"))
        e->as_array().emplace_back(nullptr);
    } else {
      json::value any = json::object{};
      any.set("anyOf", json::array{std::move(s), typed("null")});
      s = std::move(any);
    }
  } else if constexpr (cat == category::fixed_array) {
    s = typed("array");
    s.set("minItems", static_cast<double>(std::tuple_size_v<T>));
    s.set("maxItems", static_cast<double>(std::tuple_size_v<T>));
    s.set("items", schema_value<typename T::value_type>(ctx));
  } else if constexpr (cat == category::array) {
    s = typed("array");
    add_keywords<T>(s);
    s.set("items", schema_value<typename T::value_type>(ctx));
  } else if constexpr (cat == category::map) {
    s = typed("object");
    s.set("additionalProperties", schema_value<typename T::mapped_type>(ctx));
  } else if constexpr (cat == category::object) {
    s = struct_schema<T>(ctx);
  }
  if constexpr (has_schema_description<T>)
    s.set("description", std::string_view(T::schema_description));
  return s;
}

}  // namespace detail

// The schema of T as it appears where T is used: a "$ref" for named types.
template <class T>
json::value schema_value(schema_context& ctx) {
  if constexpr (has_schema_name<T>) {
    const std::string_view def = T::schema_name;
    if (ctx.defs.find(def) == nullptr) {
      ctx.defs.set(def, json::value(nullptr));  // placeholder: recursion stops here
      json::value body = detail::inline_schema<T>(ctx);
      ctx.defs.set(def, std::move(body));
    }
    json::value ref = json::object{};
    ref.set("$ref", "#/$defs/" + std::string(def));
    return ref;
  } else {
    return detail::inline_schema<T>(ctx);
  }
}

}  // namespace assay::reflect

namespace assay {

// The JSON Schema 2020-12 of a contract type.
template <class T>
json::value schema() {
  reflect::schema_context ctx;
  json::value body = reflect::detail::inline_schema<T>(ctx);
  json::value root = json::object{};
  root.set("$schema", "https://json-schema.org/draft/2020-12/schema");
  if constexpr (requires { T::schema_id; })
    root.set("$id", std::string_view(T::schema_id));
  if constexpr (requires { T::schema_title; })
    root.set("title", std::string_view(T::schema_title));
  for (auto& m : body.as_object())
    root.set(m.name, std::move(m.value));
  if (!ctx.defs.as_object().empty())
    root.set("$defs", std::move(ctx.defs));
  return root;
}

}  // namespace assay
