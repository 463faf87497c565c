// Helpers for asserting assay::error values exactly (code, message, pointer, position).
#pragma once

#include "support.hpp"

#include "assay/error.hpp"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace assay_test {

struct expected_error {
  assay::errc code;
  std::string_view message;
  std::string_view pointer;
  std::size_t offset = assay::error::npos;  // npos: an error not tied to input (encoding)
  std::size_t line = 0;
  std::size_t column = 0;
};

inline std::string code_name(assay::errc c) {
  return std::string(assay::name(c));
}

inline void check_error(const assay::error& e, const expected_error& x) {
  INFO("error: " << e.format() << " [" << code_name(e.code) << "]");
  CHECK(code_name(e.code) == code_name(x.code));
  CHECK(e.message == std::string(x.message));
  CHECK(e.pointer == std::string(x.pointer));
  CHECK(e.offset == x.offset);
  CHECK(e.line == x.line);
  CHECK(e.column == x.column);
}

inline void check_errors(const assay::errors& es, std::initializer_list<expected_error> xs) {
  INFO("errors:\n" << es.format());
  REQUIRE(es.size() == xs.size());
  std::size_t i = 0;
  for (const auto& x : xs) {
    CAPTURE(i);
    check_error(es.items[i++], x);
  }
}

}  // namespace assay_test
