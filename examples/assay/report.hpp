// Reading a document as a contract, every violation reported; writing a report: any reflected
// contract, encoded as its canonical (RFC 8785) bytes.
#pragma once

#include "cli.hpp"

#include "assay/reflect/codec.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace assay_cli {

// Reports why the document at `path` is not a valid `what`: its syntax error (exit 2), or a line
// naming it and then one line `<pointer>: <reason>` per violation (exit 1).
inline int report_violations(std::string_view command, const std::string& path, std::string_view what,
                             const assay::errors& errs) {
  if (errs.size() == 1 && (assay::is_syntax_error(errs.front().code) || errs.front().code == assay::errc::io_error))
    return fail(command, errs.front(), input_name(path) + " is not valid JSON");
  const std::size_t n = errs.size();
  print_error(command, input_name(path) + ": not a valid " + std::string(what) + " (" + std::to_string(n) +
                           (n == 1 ? " violation)" : " violations)"));
  for (const auto& e : errs)
    print_line(stderr, e.format_pointer_line());
  return exit_failed;
}

// Decodes the document at `path` as T ("-" or empty: standard input) into `out`. On failure
// prints what is wrong (a syntax error as one line; otherwise one line `<pointer>: <reason>` per
// violation after a line naming the input and the contract `what`) and returns the exit code.
template <class T>
int read_contract(std::string_view command, const std::string& path, std::uint64_t max_bytes, std::string_view what,
                  T& out) {
  auto text = input::open(path, max_bytes);
  if (!text)
    return fail(command, text.error());
  auto r = assay::decode<T>(text->bytes());
  if (r) {
    out = std::move(*r);
    return exit_ok;
  }
  return report_violations(command, path, what, r.error());
}

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
