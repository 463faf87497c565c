// Writing a report: any reflected contract, encoded as its canonical (RFC 8785) bytes.
#pragma once

#include "cli.hpp"

#include "assay/reflect/codec.hpp"

#include <string>
#include <utility>

namespace assay_cli {

// The bytes of a report: `value`'s canonical bytes and a newline. A value that breaks its own
// contract has none: the error says why.
template <class Contract>
assay::result<std::string> report_bytes(const Contract& value) {
  auto bytes = assay::encode(value);
  if (!bytes) {
    auto e = bytes.error().front();
    e.message = "the report breaks its contract: " + e.format_pointer_line();
    e.pointer.clear();
    return e;
  }
  bytes->push_back('\n');
  return std::move(*bytes);
}

// Writes `value` to `path` ("-": standard output) as report_bytes, through write_file.
template <class Contract>
assay::result<void> write_report(const Contract& value, const std::string& path) {
  auto bytes = report_bytes(value);
  if (!bytes)
    return bytes.error();
  return write_file(path, *bytes);
}

}  // namespace assay_cli
