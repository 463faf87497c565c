// assay/json/node_cursor.hpp — the reading interface of json::cursor over one value of a parsed
// document, so that a typed decoder reads a node of a document as it reads text.
//
//   auto doc = assay::json::document::parse(line).value();
//   assay::json::node_cursor c(doc, doc.find_member(0, "data"));
//   // ... the calls a decoder makes of json::cursor: expect_value(), enter_object(), ...
//
// A document holds values, not their spellings: a node cursor reads each value as its canonical
// (RFC 8785) form writes it — a number as the text JCS gives its double, members in the order
// the document has them. The document was checked when it was parsed (syntax, limits,
// duplicate names), so the only errors are the ones a caller raises with fail(); they carry the
// value's JSON Pointer, from the node read, and no byte position (offsets here are node
// indices, which mean nothing to a reader).
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/lex.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace assay::json {

class node_cursor {
 public:
  // Reads the value at node `at` of `doc` (which must outlive the cursor). `integers_as_written`
  // does not apply: the document keeps no spelling, so 1.0 reads as the integer 1, as its
  // canonical text "1" would.
  node_cursor(const document& doc, std::size_t at, const json::limits& lim = {})
      : doc_(doc), i_(at), stop_(doc.next(at)), lim_(lim) {
    lim_.integers_as_written = false;
  }
  node_cursor(const node_cursor&) = delete;
  node_cursor& operator=(const node_cursor&) = delete;

  bool ok() const noexcept { return !failed_; }
  const assay::error& error() const noexcept { return err_; }
  const json::limits& limits() const noexcept { return lim_; }
  const document& doc() const noexcept { return doc_; }
  // Positions are node indices: the node to be read next, the member name read last, and the
  // value classified last.
  std::size_t offset() const noexcept { return i_; }
  std::size_t name_offset() const noexcept { return name_node_; }
  std::size_t value_offset() const noexcept { return i_; }

  token peek() {
    if (failed_)
      return token::error;
    if (i_ >= stop_ || (!frames_.empty() && i_ >= frames_.back().end))
      return token::end;
    switch (doc_.nodes()[i_].kind) {
      case kind::object:
        return token::object;
      case kind::array:
        return token::array;
      case kind::string:
        return token::string;
      case kind::number:
        return token::number;
      case kind::boolean:
        return token::boolean;
      case kind::null:
        return token::null;
    }
    return token::error;
  }
  token expect_value() {
    const token t = peek();
    if (t == token::end) {
      fail(errc::unexpected_end, i_, "no value where one was expected");
      return token::error;
    }
    return t;
  }

  // --- containers -----------------------------------------------------------------------

  bool enter_object() { return enter(token::object, "an object"); }
  bool enter_array() { return enter(token::array, "an array"); }

  bool next_member(std::string_view& name) {
    if (failed_)
      return false;
    frame& f = frames_.back();
    if (i_ >= f.end)
      return leave();
    name_node_ = i_;
    name = f.name = doc_.string_at(i_++);
    ++f.count;
    return true;
  }
  bool next_element() {
    if (failed_)
      return false;
    frame& f = frames_.back();
    if (i_ >= f.end)
      return leave();
    ++f.count;
    return true;
  }

  // --- scalars ----------------------------------------------------------------------------

  bool read_string(std::string_view& out) {
    if (!at(token::string, "a string"))
      return false;
    out = doc_.string_at(i_++);
    return true;
  }
  bool read_number(double& out) {
    if (!at(token::number, "a number"))
      return false;
    out = doc_.number_at(i_++);
    return true;
  }
  // The number's canonical text, described as json::cursor describes a number it reads; `out`
  // views a buffer of the cursor, valid until the next number is read.
  bool read_number_token(lex::number_shape& out) {
    if (!at(token::number, "a number"))
      return false;
    number_.clear();
    string_writer w{&number_};
    write_number(w, doc_.number_at(i_++));  // a parsed number is finite
    const char* p = number_.data();
    lex::problem ignored;
    lex::scan_number(p, number_.data() + number_.size(), out, ignored);
    return true;
  }
  bool read_bool(bool& out) {
    if (!at(token::boolean, "true or false"))
      return false;
    out = doc_.nodes()[i_++].payload != 0;
    return true;
  }
  bool read_null() {
    if (!at(token::null, "null"))
      return false;
    ++i_;
    return true;
  }
  // After the value: nothing can follow it in a node.
  bool finish() const noexcept { return !failed_; }

  // Reads past the next value.
  bool skip() {
    if (expect_value() == token::error)
      return false;
    i_ = doc_.next(i_);
    return true;
  }
  // The next value as a DOM value.
  bool read_value(value& out) {
    if (expect_value() == token::error)
      return false;
    out = doc_.to_value(i_);
    i_ = doc_.next(i_);
    return true;
  }
  // The canonical text of the value at node `at`.
  std::string canonical_at(std::size_t at) const { return doc_.canonical_at(at); }

  // The document refused duplicate names when it was parsed.
  bool check_unique_name(std::string_view) const noexcept { return !failed_; }

  // --- errors -----------------------------------------------------------------------------

  // The pointer of the value being read, from the node the cursor started at.
  std::string pointer() const {
    std::string out;
    for (const frame& f : frames_) {
      if (f.count == 0)
        continue;
      out += '/';
      out += f.object ? escape_pointer_token(f.name) : std::to_string(f.count - 1);
    }
    return out;
  }
  assay::error make_error(errc code, std::size_t /*node*/, std::string message, std::string pointer_override = {},
                          bool use_override = false) const {
    assay::error e;
    e.code = code;
    e.message = std::move(message);
    e.pointer = use_override ? std::move(pointer_override) : pointer();
    return e;
  }
  bool fail(errc code, std::size_t at, std::string message) { return fail(make_error(code, at, std::move(message))); }
  bool fail(assay::error e) {
    if (!failed_) {
      err_ = std::move(e);
      failed_ = true;
    }
    return false;
  }

 private:
  struct frame {
    std::size_t end;        // one past the container's last node
    std::size_t count = 0;  // members or elements entered
    bool object;
    std::string_view name = {};  // the member being read
  };

  bool at(token want, const char* what) {
    const token t = expect_value();
    if (t == token::error)
      return false;
    if (t != want)
      return fail(errc::type_mismatch, i_, std::string("expected ") + what);
    return true;
  }
  bool enter(token want, const char* what) {
    if (!at(want, what))
      return false;
    frames_.push_back(frame{static_cast<std::size_t>(doc_.nodes()[i_].payload), 0, want == token::object});
    ++i_;
    return true;
  }
  bool leave() {
    frames_.pop_back();
    return false;
  }

  const document& doc_;
  std::size_t i_;
  std::size_t stop_;
  json::limits lim_;
  std::vector<frame> frames_;
  std::size_t name_node_ = 0;
  std::string number_;
  bool failed_ = false;
  assay::error err_;
};

inline bool skip_value(node_cursor& c) {
  return c.skip();
}
inline bool read_value(node_cursor& c, value& out) {
  return c.read_value(out);
}

}  // namespace assay::json
