// assay/reflect/decode_node.hpp — decode a reflected value from a node of a parsed document,
// with every constraint of its type enforced, as decode() does from text.
//
//   auto doc = assay::json::document::parse(line).value();
//   auto r = assay::decode<tool_decision>(doc, doc.find_member(0, "data"));  // results<tool_decision>
//
// The decoder of decode.hpp, reading the document's nodes through json::node_cursor instead of
// bytes: a wing that holds an event's document (the verifier's pass does) decodes its payload
// without writing it back to text. The result is decode()'s on the node's canonical text, except
// that violations carry their pointer (relative to the node) and no byte position, and
// `integers_as_written` does not apply (a document keeps values, not spellings).
#pragma once

#include "assay/error.hpp"
#include "assay/json/document.hpp"
#include "assay/json/node_cursor.hpp"
#include "assay/reflect/decode.hpp"

#include <cstddef>

namespace assay {

template <class T>
results<T> decode(const json::document& doc, std::size_t node, const json::limits& lim = {}) {
  json::node_cursor c(doc, node, lim);
  T out{};
  auto r = reflect::decode_from(c, out);
  if (!r)
    return r.error();
  return out;
}

}  // namespace assay
