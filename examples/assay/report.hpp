// Writing a report: any reflected contract, encoded as its canonical (RFC 8785) bytes.
#pragma once

#include "cli.hpp"

#include "assay/reflect/codec.hpp"

#include <string>

namespace assay_cli {

// Writes `value` to `path` ("-": standard output) as its canonical bytes and a newline, through
// write_file. A value that breaks its own contract is not written: the error says why.
template <class Contract>
assay::result<void> write_report(const Contract& value, const std::string& path) {
  auto bytes = assay::encode(value);
  if (!bytes) {
    auto e = bytes.error().front();
    e.message = "the report breaks its contract: " + e.format_pointer_line();
    e.pointer.clear();
    return e;
  }
  bytes->push_back('\n');
  return write_file(path, *bytes);
}

}  // namespace assay_cli
