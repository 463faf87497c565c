// assay/mcp/detail/schema_eval.hpp — a compiled schema applied to one node of a json::document:
// the checks of each subschema in order, in-place applicators and references followed with the
// dynamic scope of `$dynamicRef`, annotations (evaluated members and items) collected only where
// an unevaluated* keyword reads them, and every violation reported with the instance pointer.
//
// Bounded whatever the instance: nesting of evaluation is limited (a reference cycle that never
// reaches deeper into the instance ends there), so is the number of subschema applications, and
// uniqueItems sorts the canonical forms of the items instead of comparing every pair.
#pragma once

#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/number.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/printable.hpp"
#include "assay/mcp/detail/schema_program.hpp"
#include "assay/mcp/schema_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::mcp::detail {

// The instance location being evaluated, as a chain up to the root: built into a pointer only
// when a violation is reported.
struct path_link {
  const path_link* up = nullptr;
  std::size_t name = 0;  // the member name's node, or 0 for an array index
  std::size_t index = 0;
};

// What the subschemas that passed at one instance location evaluated (for unevaluated*).
struct annotations {
  std::vector<std::size_t> props;  // name nodes of the members evaluated
  std::size_t items = 0;           // items [0, items) evaluated
  bool all_items = false;
  std::vector<std::size_t> contained;  // items that matched "contains"

  void merge(const annotations& o) {
    props.insert(props.end(), o.props.begin(), o.props.end());
    items = std::max(items, o.items);
    all_items = all_items || o.all_items;
    contained.insert(contained.end(), o.contained.begin(), o.contained.end());
  }
};

inline std::string type_names(std::uint32_t types) {
  static constexpr std::pair<std::uint32_t, std::string_view> names[] = {
      {t_object, "an object"},   {t_array, "an array"},    {t_string, "a string"}, {t_number, "a number"},
      {t_integer, "an integer"}, {t_boolean, "a boolean"}, {t_null, "null"}};
  std::vector<std::string_view> parts;
  for (const auto& [bit, name] : names)
    if ((types & bit) != 0 && !(bit == t_integer && (types & t_number) != 0))
      parts.push_back(name);
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k != 0)
      out += k + 1 == parts.size() ? " or " : ", ";
    out += parts[k];
  }
  return out;
}

inline std::string number_text(double d) {
  return json::number_to_string(d);
}

class evaluator {
 public:
  evaluator(const program& p, const json::document& d, const schema_options& o, bool report)
      : p_(p), d_(d), max_violations_(o.max_violations), max_depth_(o.max_eval_depth), report_(report) {
    budget_ = o.max_evaluations + o.evaluations_per_value * d.nodes().size();
  }

  bool run(std::size_t at) {
    const bool ok = eval(p_.root, at, nullptr, nullptr, report_);
    if (!ok && report_ && violations_.empty())
      violations_.push_back({"", "does not match the schema"});
    return ok;
  }
  std::vector<schema_violation>& violations() noexcept { return violations_; }

 private:
  bool full() const noexcept { return violations_.size() >= max_violations_; }

  void fail(const path_link* at, bool report, std::string message) {
    if (report && !full() && !aborted_)
      violations_.push_back({path_text(at), std::move(message)});
  }

  std::string path_text(const path_link* at) const {
    std::vector<const path_link*> chain;
    for (; at != nullptr; at = at->up)
      chain.push_back(at);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      out += '/';
      out += (*it)->name != 0 ? json::escape_pointer_token(json::printable(d_.string_at((*it)->name), 64))
                              : std::to_string((*it)->index);
    }
    return out;
  }

  std::string name_of(std::size_t name_node) const { return json::quote_for_message(d_.string_at(name_node)); }

  // The budget or the depth overrun: the instance is invalid, once said.
  bool abort(const path_link* at, std::string message) {
    if (!aborted_) {
      aborted_ = true;
      if (report_) {
        if (full())
          violations_.pop_back();
        violations_.push_back({path_text(at), std::move(message)});
      }
    }
    return false;
  }

  bool eval(std::uint32_t n, std::size_t at, const path_link* path, annotations* out, bool report) {
    if (aborted_)
      return false;
    if (++evaluations_ > budget_)
      return abort(path, "too costly to validate against the schema");
    if (depth_ >= max_depth_)
      return abort(path, "too deeply nested to validate against the schema");
    const schema_node& s = p_.nodes[n];
    if (s.kind == schema_node::always)
      return true;
    if (s.kind == schema_node::never) {
      fail(path, report, "is not allowed here (the schema is false)");
      return false;
    }
    ++depth_;
    const bool entered = scope_.empty() || scope_.back() != s.resource;
    if (entered)
      scope_.push_back(s.resource);
    annotations local;
    annotations* ann = out != nullptr || s.unevaluated ? &local : nullptr;
    bool ok = true;
    for (const check& c : s.list) {
      if (!ok && (!report || full()))
        break;
      if (!apply(c, at, path, ann, report))
        ok = false;
      if (aborted_) {
        ok = false;
        break;
      }
    }
    if (entered)
      scope_.pop_back();
    --depth_;
    if (ok && out != nullptr)
      out->merge(local);
    return ok;
  }

  bool is_integer(std::size_t at) const {
    const double x = d_.number_at(at);
    return std::isfinite(x) && std::floor(x) == x;
  }

  static std::size_t code_points(std::string_view s) {
    std::size_t k = 0;
    for (const char c : s)
      k += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return k;
  }

  bool apply(const check& c, std::size_t at, const path_link* path, annotations* ann, bool report);
  bool apply_object(const check& c, std::size_t at, const path_link* path, annotations* ann, bool report);
  bool apply_array(const check& c, std::size_t at, const path_link* path, annotations* ann, bool report);

  const program& p_;
  const json::document& d_;
  std::size_t max_violations_, max_depth_;
  bool report_;
  std::size_t budget_ = 0, evaluations_ = 0, depth_ = 0;
  bool aborted_ = false;
  std::vector<std::uint32_t> scope_;  // the dynamic scope: resources entered, outermost first
  std::vector<schema_violation> violations_;
};

inline bool evaluator::apply(const check& c, std::size_t at, const path_link* path, annotations* ann, bool report) {
  const json::kind k = d_.nodes()[at].kind;
  switch (c.kind) {
    case op::type: {
      std::uint32_t bit = 0;
      switch (k) {
        case json::kind::null:
          bit = t_null;
          break;
        case json::kind::boolean:
          bit = t_boolean;
          break;
        case json::kind::object:
          bit = t_object;
          break;
        case json::kind::array:
          bit = t_array;
          break;
        case json::kind::string:
          bit = t_string;
          break;
        case json::kind::number:
          bit = t_number | (is_integer(at) ? t_integer : 0u);
          break;
      }
      if ((c.types & bit) != 0)
        return true;
      fail(path, report, "must be " + type_names(c.types));
      return false;
    }
    case op::const_value:
    case op::enum_values: {
      if (std::binary_search(c.names.begin(), c.names.end(), d_.canonical_at(at)))
        return true;
      std::string all;
      for (const std::string& e : c.names)
        all += (all.empty() ? "" : ", ") + e;
      if (c.kind == op::const_value)
        fail(path, report, all.size() <= 120 ? "must be " + json::printable(all) : "must be the value of \"const\"");
      else
        fail(path, report,
             all.size() <= 120 ? "must be one of " + json::printable(all) : "must be one of the values of \"enum\"");
      return false;
    }
    case op::multiple_of:
    case op::maximum:
    case op::exclusive_maximum:
    case op::minimum:
    case op::exclusive_minimum: {
      if (k != json::kind::number)
        return true;
      const double x = d_.number_at(at);
      const bool ok = c.kind == op::multiple_of         ? is_multiple_of(x, c.number)
                      : c.kind == op::maximum           ? x <= c.number
                      : c.kind == op::exclusive_maximum ? x < c.number
                      : c.kind == op::minimum           ? x >= c.number
                                                        : x > c.number;
      if (!ok) {
        const char* what = c.kind == op::multiple_of         ? "a multiple of "
                           : c.kind == op::maximum           ? "at most "
                           : c.kind == op::exclusive_maximum ? "less than "
                           : c.kind == op::minimum           ? "at least "
                                                             : "greater than ";
        fail(path, report, "must be " + std::string(what) + number_text(c.number));
      }
      return ok;
    }
    case op::max_length:
    case op::min_length: {
      if (k != json::kind::string)
        return true;
      const std::size_t len = code_points(d_.string_at(at));
      const bool ok = c.kind == op::max_length ? len <= c.count : len >= c.count;
      if (!ok)
        fail(path, report,
             std::string("must be ") + (c.kind == op::max_length ? "at most " : "at least ") + std::to_string(c.count) +
                 (c.count == 1 ? " character" : " characters") + " long");
      return ok;
    }
    case op::pattern: {
      if (k != json::kind::string)
        return true;
      const reflect::ecma_pattern& re = p_.patterns[c.pattern];
      const reflect::pattern_result m = re.search(d_.string_at(at));
      if (m == reflect::pattern_result::match)
        return true;
      fail(path, report,
           (m == reflect::pattern_result::too_complex ? "is too costly to match against the pattern "
                                                      : "must match the pattern ") +
               json::printable(re.source(), 200));
      return false;
    }
    case op::ref:
      return eval(c.sub, at, path, ann, report);
    case op::dynamic_ref: {
      std::uint32_t target = c.sub;
      if (c.dynamic) {
        for (const std::uint32_t r : scope_) {
          const auto& anchors = p_.resources[r].dynamic_anchors;
          if (auto it = anchors.find(c.text); it != anchors.end()) {
            target = it->second;
            break;
          }
        }
      }
      return eval(target, at, path, ann, report);
    }
    case op::all_of: {
      bool ok = true;
      for (const std::uint32_t s : c.subs) {
        if (!ok && (!report || full()))
          break;
        ok = eval(s, at, path, ann, report) && ok;
      }
      return ok;
    }
    case op::any_of:
    case op::one_of: {
      std::size_t passed = 0;
      for (const std::uint32_t s : c.subs) {
        if (eval(s, at, path, ann, false))
          ++passed;
        if (ann == nullptr && ((c.kind == op::any_of && passed == 1) || passed == 2))
          break;
      }
      if (c.kind == op::any_of ? passed >= 1 : passed == 1)
        return true;
      fail(path, report,
           c.kind == op::any_of ? std::string("must match at least one schema of \"anyOf\"")
                                : "must match exactly one schema of \"oneOf\" (" +
                                      std::string(passed == 0 ? "none" : "more") + " matched)");
      return false;
    }
    case op::not_schema:
      if (!eval(c.sub, at, path, nullptr, false))
        return true;
      fail(path, report, "must not match the schema of \"not\"");
      return false;
    case op::if_then_else: {
      const bool cond = eval(c.sub, at, path, ann, false);
      const std::uint32_t next = cond ? c.sub2 : c.sub3;
      return next == no_node || eval(next, at, path, ann, report);
    }
    default:
      break;
  }
  if (k == json::kind::object)
    return apply_object(c, at, path, ann, report);
  if (k == json::kind::array)
    return apply_array(c, at, path, ann, report);
  return true;
}

inline bool evaluator::apply_object(const check& c, std::size_t at, const path_link* path, annotations* ann,
                                    bool report) {
  const auto& node = d_.nodes()[at];
  const std::size_t end = static_cast<std::size_t>(node.payload);
  switch (c.kind) {
    case op::max_properties:
    case op::min_properties: {
      const bool ok = c.kind == op::max_properties ? node.count <= c.count : node.count >= c.count;
      if (!ok)
        fail(path, report,
             std::string("must have ") + (c.kind == op::max_properties ? "at most " : "at least ") +
                 std::to_string(c.count) + (c.count == 1 ? " property" : " properties"));
      return ok;
    }
    case op::required: {
      bool ok = true;
      for (const std::string& name : c.names) {
        if (d_.find_member(at, name) == 0) {
          ok = false;
          fail(path, report, "required property " + json::quote_for_message(name) + " is missing");
        }
      }
      return ok;
    }
    case op::dependent_required: {
      bool ok = true;
      for (const auto& [name, needs] : c.dependencies) {
        if (d_.find_member(at, name) == 0)
          continue;
        for (const std::string& other : needs) {
          if (d_.find_member(at, other) == 0) {
            ok = false;
            fail(path, report,
                 "property " + json::quote_for_message(name) + " requires property " + json::quote_for_message(other));
          }
        }
      }
      return ok;
    }
    case op::dependent_schemas: {
      bool ok = true;
      for (const auto& [name, sub] : c.named) {
        if (!ok && (!report || full()))
          break;
        if (d_.find_member(at, name) != 0)
          ok = eval(sub, at, path, ann, report) && ok;
      }
      return ok;
    }
    case op::properties: {
      bool ok = true;
      for (std::size_t j = at + 1; j < end; j = d_.next(j + 1)) {
        if (!ok && (!report || full()))
          break;
        const std::string_view name = d_.string_at(j);
        const path_link here{path, j, 0};
        bool matched = false;
        auto it = std::lower_bound(c.named.begin(), c.named.end(), name,
                                   [](const auto& e, std::string_view n) { return e.first < n; });
        if (it != c.named.end() && it->first == name) {
          matched = true;
          ok = eval(it->second, j + 1, &here, nullptr, report) && ok;
        }
        for (const auto& [pattern, sub] : c.patterned) {
          const reflect::pattern_result m = p_.patterns[pattern].search(name);
          if (m == reflect::pattern_result::too_complex) {
            // Neither matched nor not: the member is refused, which both readings allow.
            matched = true;
            ok = false;
            fail(path, report,
                 "property name " + name_of(j) + " is too costly to match against the pattern " +
                     json::printable(p_.patterns[pattern].source(), 200));
          } else if (m == reflect::pattern_result::match) {
            matched = true;
            ok = eval(sub, j + 1, &here, nullptr, report) && ok;
          }
        }
        if (!matched && c.sub != no_node) {
          matched = true;
          if (p_.nodes[c.sub].kind == schema_node::never) {
            ok = false;
            fail(path, report, "additional property " + name_of(j) + " is not allowed");
          } else {
            ok = eval(c.sub, j + 1, &here, nullptr, report) && ok;
          }
        }
        if (matched && ann != nullptr)
          ann->props.push_back(j);
      }
      return ok;
    }
    case op::property_names: {
      bool ok = true;
      for (std::size_t j = at + 1; j < end; j = d_.next(j + 1)) {
        if (!ok && (!report || full()))
          break;
        if (!eval(c.sub, j, path, nullptr, false)) {
          ok = false;
          fail(path, report, "property name " + name_of(j) + " does not match \"propertyNames\"");
        }
      }
      return ok;
    }
    case op::unevaluated_properties: {
      std::vector<std::size_t> seen = ann->props;
      std::sort(seen.begin(), seen.end());
      bool ok = true;
      for (std::size_t j = at + 1; j < end; j = d_.next(j + 1)) {
        if (std::binary_search(seen.begin(), seen.end(), j))
          continue;
        if (!ok && (!report || full()))
          break;
        const path_link here{path, j, 0};
        if (p_.nodes[c.sub].kind == schema_node::never) {
          ok = false;
          fail(path, report, "unevaluated property " + name_of(j) + " is not allowed");
        } else if (eval(c.sub, j + 1, &here, nullptr, report)) {
          ann->props.push_back(j);
        } else {
          ok = false;
        }
      }
      return ok;
    }
    default:
      return true;
  }
}

inline bool evaluator::apply_array(const check& c, std::size_t at, const path_link* path, annotations* ann,
                                   bool report) {
  const auto& node = d_.nodes()[at];
  const std::size_t end = static_cast<std::size_t>(node.payload);
  const std::size_t n = node.count;
  switch (c.kind) {
    case op::max_items:
    case op::min_items: {
      const bool ok = c.kind == op::max_items ? n <= c.count : n >= c.count;
      if (!ok)
        fail(path, report,
             std::string("must have ") + (c.kind == op::max_items ? "at most " : "at least ") +
                 std::to_string(c.count) + (c.count == 1 ? " item" : " items"));
      return ok;
    }
    case op::unique_items: {
      // The canonical (RFC 8785) form of each item, sorted: equal items, in the JSON Schema
      // sense (1.0 equals 1, members in any order), have equal forms.
      std::string text;
      std::vector<std::pair<std::size_t, std::size_t>> spans;  // offset, end
      json::string_writer w{&text};
      for (std::size_t j = at + 1; j < end; j = d_.next(j)) {
        const std::size_t from = text.size();
        d_.write_canonical(w, j);
        spans.emplace_back(from, text.size());
      }
      std::vector<std::size_t> order(spans.size());
      for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      auto view = [&](std::size_t i) {
        return std::string_view(text).substr(spans[i].first, spans[i].second - spans[i].first);
      };
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return view(a) < view(b); });
      std::size_t first = unlimited, second = unlimited;
      for (std::size_t i = 1; i < order.size(); ++i) {
        if (view(order[i]) == view(order[i - 1])) {
          const std::size_t a = std::min(order[i], order[i - 1]), b = std::max(order[i], order[i - 1]);
          if (first == unlimited || b < second || (b == second && a < first)) {
            first = a;
            second = b;
          }
        }
      }
      if (first == unlimited)
        return true;
      fail(path, report,
           "must not contain equal items (items " + std::to_string(first) + " and " + std::to_string(second) + ")");
      return false;
    }
    case op::items: {
      bool ok = true;
      std::size_t i = 0;
      for (std::size_t j = at + 1; j < end; j = d_.next(j), ++i) {
        if (!ok && (!report || full()))
          break;
        const path_link here{path, 0, i};
        if (i < c.subs.size()) {
          ok = eval(c.subs[i], j, &here, nullptr, report) && ok;
        } else if (c.sub == no_node) {
          break;
        } else if (p_.nodes[c.sub].kind == schema_node::never) {
          fail(path, report,
               "must have at most " + std::to_string(c.subs.size()) + (c.subs.size() == 1 ? " item" : " items"));
          return false;
        } else {
          ok = eval(c.sub, j, &here, nullptr, report) && ok;
        }
      }
      if (ann != nullptr) {
        ann->items = std::max(ann->items, std::min(n, c.subs.size()));
        ann->all_items = ann->all_items || (c.sub != no_node && n > c.subs.size());
      }
      return ok;
    }
    case op::contains: {
      std::size_t matched = 0, i = 0;
      for (std::size_t j = at + 1; j < end; j = d_.next(j), ++i) {
        if (eval(c.sub, j, nullptr, nullptr, false)) {
          ++matched;
          if (ann != nullptr)
            ann->contained.push_back(i);
        }
        if (ann == nullptr && ((matched >= c.count && c.count2 == unlimited) || matched > c.count2))
          break;
      }
      if (matched < c.count) {
        fail(path, report,
             "must contain at least " + std::to_string(c.count) + (c.count == 1 ? " item" : " items") +
                 " matching \"contains\"");
        return false;
      }
      if (matched > c.count2) {
        fail(path, report,
             "must contain at most " + std::to_string(c.count2) + (c.count2 == 1 ? " item" : " items") +
                 " matching \"contains\"");
        return false;
      }
      return true;
    }
    case op::unevaluated_items: {
      if (ann->all_items)
        return true;
      std::vector<std::size_t> seen = ann->contained;
      std::sort(seen.begin(), seen.end());
      bool ok = true;
      std::size_t i = 0;
      for (std::size_t j = at + 1; j < end; j = d_.next(j), ++i) {
        if (i < ann->items || std::binary_search(seen.begin(), seen.end(), i))
          continue;
        if (!ok && (!report || full()))
          break;
        const path_link here{path, 0, i};
        if (p_.nodes[c.sub].kind == schema_node::never) {
          ok = false;
          fail(path, report, "unevaluated item " + std::to_string(i) + " is not allowed");
        } else {
          ok = eval(c.sub, j, &here, nullptr, report) && ok;
        }
      }
      if (ok)
        ann->all_items = true;
      return ok;
    }
    default:
      return true;
  }
}

}  // namespace assay::mcp::detail
