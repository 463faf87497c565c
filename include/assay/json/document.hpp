// assay/json/document.hpp — a read-only parsed document on a flat tape.
//
// `json::document` is what the library uses when it only needs to look at JSON, not to edit it:
// canonicalizing a file, hashing events, linting. One strict pass of the reader (SPEC §1,
// duplicates included) fills a vector of fixed-size nodes; strings without escapes stay views
// into the input (which must outlive the document), escaped ones are decoded into one side
// buffer. No allocation per value, so reading and canonicalizing run at memory speed compared
// with the general-purpose DOM of value.hpp.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace assay::json {

class document {
 public:
  struct node {
    json::kind kind;
    bool decoded;           // string: content lives in the side buffer (it had escapes)
    std::uint32_t count;    // string: byte length; array/object: number of elements/members
    std::uint64_t payload;  // string: offset; number: bit pattern; bool: 0/1;
                            // array/object: index one past the container's last node
  };

  // Parses `text` strictly. The document keeps views into `text`.
  static result<document> parse(std::string_view text, const limits& lim = {}) {
    document d;
    d.input_ = text;
    cursor c(text, lim);
    d.nodes_.reserve(text.size() / 8 + 16);
    builder b{d, c, {}};
    if (!b.value() || !c.finish())
      return c.error();
    return d;
  }

  const std::vector<node>& nodes() const noexcept { return nodes_; }
  const node& root() const noexcept { return nodes_.front(); }

  std::string_view string_at(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    const char* base = n.decoded ? side_.data() : input_.data();
    return std::string_view(base + n.payload, n.count);
  }
  double number_at(std::size_t i) const noexcept {
    double d;
    std::memcpy(&d, &nodes_[i].payload, sizeof d);
    return d;
  }
  // Index of the node after the value at i (its next sibling).
  std::size_t next(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    return (n.kind == kind::array || n.kind == kind::object) ? static_cast<std::size_t>(n.payload) : i + 1;
  }

  // Writes the RFC 8785 form of the value at node `at` (the whole document by default). Never
  // fails: parsed input is finite and valid UTF-8.
  template <class W>
  void write_canonical(W& w, std::size_t at = 0) const {
    std::vector<entry> scratch;
    write(w, at, scratch);
  }

  std::string canonical() const {
    std::string out;
    out.reserve(input_.size());
    string_sink s{&out};
    {
      writer<string_sink> w(s);
      write_canonical(w);
    }
    return out;
  }

  // The value at node i as a DOM value (for callers that need to edit it).
  value to_value(std::size_t i = 0) const {
    const node& n = nodes_[i];
    switch (n.kind) {
      case kind::null:
        return value(nullptr);
      case kind::boolean:
        return value(n.payload != 0);
      case kind::number:
        return value(number_at(i));
      case kind::string:
        return value(std::string(string_at(i)));
      case kind::array: {
        json::array a;
        a.reserve(n.count);
        for (std::size_t j = i + 1; j < n.payload; j = next(j))
          a.push_back(to_value(j));
        return value(std::move(a));
      }
      case kind::object: {
        json::object o;
        o.reserve(n.count);
        for (std::size_t j = i + 1; j < n.payload; j = next(j + 1))
          o.push_back(member{std::string(string_at(j)), to_value(j + 1)});
        return value(std::move(o));
      }
    }
    return value();
  }

 private:
  struct entry {
    std::string_view name;
    std::size_t name_node;
    std::size_t value_node;
  };

  struct builder {
    document& d;
    cursor& c;
    std::vector<std::string_view> names;  // names of the objects being read, stacked

    std::size_t push(kind k, std::uint32_t count, std::uint64_t payload, bool decoded = false) {
      d.nodes_.push_back(node{k, decoded, count, payload});
      return d.nodes_.size() - 1;
    }

    void push_string(std::string_view s) {
      const char* in = d.input_.data();
      if (s.data() >= in && s.data() + s.size() <= in + d.input_.size()) {
        push(kind::string, static_cast<std::uint32_t>(s.size()), static_cast<std::uint64_t>(s.data() - in));
      } else {
        const std::size_t at = d.side_.size();
        d.side_.append(s);
        push(kind::string, static_cast<std::uint32_t>(s.size()), at, true);
      }
    }

    bool value() {
      switch (c.expect_value()) {
        case token::object:
          return object();
        case token::array: {
          if (!c.enter_array())
            return false;
          const std::size_t at = push(kind::array, 0, 0);
          std::uint32_t n = 0;
          while (c.next_element()) {
            ++n;
            if (!value())
              return false;
          }
          if (!c.ok())
            return false;
          d.nodes_[at].count = n;
          d.nodes_[at].payload = d.nodes_.size();
          return true;
        }
        case token::string: {
          std::string_view s;
          if (!c.read_string(s))
            return false;
          push_string(s);
          return true;
        }
        case token::number: {
          double v = 0;
          if (!c.read_number(v))
            return false;
          std::uint64_t bits;
          std::memcpy(&bits, &v, sizeof bits);
          push(kind::number, 0, bits);
          return true;
        }
        case token::boolean: {
          bool b = false;
          if (!c.read_bool(b))
            return false;
          push(kind::boolean, 0, b ? 1 : 0);
          return true;
        }
        case token::null:
          if (!c.read_null())
            return false;
          push(kind::null, 0, 0);
          return true;
        default:
          return false;
      }
    }

    bool object() {
      if (!c.enter_object())
        return false;
      const std::size_t at = push(kind::object, 0, 0);
      const std::size_t base = names.size();
      std::string_view name;
      std::uint32_t n = 0;
      std::unordered_set<std::string_view> big;  // used past 16 members only
      while (c.next_member(name)) {
        // Store the name first: a view into the cursor's scratch would not survive.
        push_string(name);
        const std::string_view stored = d.string_view_of(d.nodes_.size() - 1);
        bool dup = false;
        if (n < 16) {
          for (std::size_t i = base; i < names.size(); ++i)
            dup = dup || names[i] == stored;
          names.push_back(stored);
        } else {
          if (big.empty())
            big.insert(names.begin() + static_cast<std::ptrdiff_t>(base), names.end());
          dup = !big.insert(stored).second;
        }
        if (dup) {
          return c.fail(c.make_error(errc::duplicate_member, c.name_offset(),
                                     "duplicate member name " + detail::quoted_for_message(stored)));
        }
        ++n;
        if (!value())
          return false;
      }
      names.resize(base);
      if (!c.ok())
        return false;
      d.nodes_[at].count = n;
      d.nodes_[at].payload = d.nodes_.size();
      return true;
    }
  };

  // Like string_at, but stable while the side buffer grows only if the string is in the input;
  // decoded names are re-viewed through a dedicated store to stay valid.
  std::string_view string_view_of(std::size_t i) {
    const node& n = nodes_[i];
    if (!n.decoded)
      return std::string_view(input_.data() + n.payload, n.count);
    // Decoded names: keep a stable copy (rare: names with escapes).
    stable_names_.emplace_back(side_.data() + n.payload, n.count);
    return stable_names_.back();
  }

  template <class W>
  void write(W& w, std::size_t i, std::vector<entry>& scratch) const {
    const node& n = nodes_[i];
    switch (n.kind) {
      case kind::null:
        w.write("null", 4);
        return;
      case kind::boolean:
        if (n.payload) {
          w.write("true", 4);
        } else {
          w.write("false", 5);
        }
        return;
      case kind::number:
        write_number(w, number_at(i));
        return;
      case kind::string:
        write_string_node(w, i);
        return;
      case kind::array: {
        w.put('[');
        bool first = true;
        for (std::size_t j = i + 1; j < n.payload; j = next(j)) {
          if (!first)
            w.put(',');
          first = false;
          write(w, j, scratch);
        }
        w.put(']');
        return;
      }
      case kind::object: {
        const std::size_t base = scratch.size();
        for (std::size_t j = i + 1; j < n.payload; j = next(j + 1))
          scratch.push_back(entry{string_at(j), j, j + 1});
        auto first = scratch.begin() + static_cast<std::ptrdiff_t>(base);
        auto less = [](const entry& a, const entry& b) { return utf16_less(a.name, b.name); };
        if (!std::is_sorted(first, scratch.end(), less))
          std::sort(first, scratch.end(), less);
        w.put('{');
        for (std::size_t k = base; k < scratch.size(); ++k) {
          if (k != base)
            w.put(',');
          write_string_node(w, scratch[k].name_node);
          w.put(':');
          const std::size_t v = scratch[k].value_node;
          write(w, v, scratch);
        }
        w.put('}');
        scratch.resize(base);
        return;
      }
    }
  }

  template <class W>
  void write_string_node(W& w, std::size_t i) const {
    const node& n = nodes_[i];
    if (!n.decoded) {
      // Raw input without escapes: no control characters, quotes or backslashes, valid UTF-8,
      // so its canonical form is the bytes themselves.
      w.put('"');
      w.write(input_.data() + n.payload, n.count);
      w.put('"');
    } else {
      write_string(w, string_at(i));
    }
  }

  std::string_view input_;
  std::vector<node> nodes_;
  std::string side_;
  std::deque<std::string> stable_names_;  // a deque: elements never move
};

}  // namespace assay::json
