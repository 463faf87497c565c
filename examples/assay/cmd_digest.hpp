// assay digest [--alg A] [FILE] — "<alg>:<hex>" of the canonical (RFC 8785) bytes of FILE.
#pragma once

#include "common.hpp"

#include "assay/hash/hash.hpp"
#include "assay/json/value.hpp"

namespace assay_cli {

inline void add_digest(command_set& cs) {
  auto* sub = cs.app.add_subcommand("digest", "Print the digest of a JSON document's canonical bytes");
  auto file = std::make_shared<std::string>();
  auto alg = std::make_shared<std::string>("sha256");
  sub->add_option("FILE", *file, "JSON document (standard input when absent)");
  sub->add_option("--alg", *alg, "sha256 (default), sha512, blake2b-512, xxh3-64, xxh3-128");
  cs.on(sub, [file, alg]() -> int {
    if (!assay::hash::is_algorithm(*alg)) {
      print_error("digest", assay::hash::unknown_algorithm(*alg).message);
      return exit_usage;
    }
    auto text = read_input(*file);
    if (!text) {
      print_error("digest", text.error().message);
      return exit_io;
    }
    auto doc = assay::json::parse(*text);
    if (!doc) {
      print_error("digest", input_name(*file) + ": " + doc.error().format());
      return exit_usage;
    }
    auto d = assay::hash::digest_string_of(*alg, *doc);
    if (!d) {
      print_error("digest", d.error().format());
      return exit_failed;
    }
    return write_stdout(*d + "\n");
  });
}

}  // namespace assay_cli
