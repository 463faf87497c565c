// assay/contracts/sorted.hpp — the rule of lists that reports keep "sorted and unique" (closure's
// signals and dependencies, a diff's subjects): each item after the one before it in code point
// order (the byte order of UTF-8). A rule rather than "uniqueItems", so that a schema that must
// stay equal to a normative file stays equal.
#pragma once

#include "assay/reflect/checks.hpp"
#include "assay/reflect/constraints.hpp"

#include <string>
#include <string_view>

namespace assay::contracts {

// Every item that repeats the one before it or sorts before it is reported at its index. `at` is
// the list's pointer relative to the object the rule belongs to, `name` the list as messages call
// it.
template <class List>
void check_sorted_unique(rules& r, const std::string& at, std::string_view name, const List& list) {
  for (std::size_t i = 1; i < list.size(); ++i) {
    const std::string_view before = list[i - 1];
    const std::string_view item = list[i];
    if (before < item)
      continue;
    const std::string where = at + "/" + std::to_string(i);
    const std::string rule = std::string(name) + " must be sorted and unique: item " + std::to_string(i);
    if (item == before) {
      r.fail(where, rule + " repeats item " + std::to_string(i - 1) + " (" + reflect::quoted(item) + ")");
    } else {
      r.fail(where, rule + " (" + reflect::quoted(item) + ") sorts before item " + std::to_string(i - 1) + " (" +
                        reflect::quoted(before) + ")");
    }
  }
}

}  // namespace assay::contracts
