// assay jcs [FILE] — the canonical (RFC 8785) bytes of FILE on stdout, nothing else.
#pragma once

#include "common.hpp"

#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"

namespace assay_cli {

inline void add_jcs(command_set& cs) {
  auto* sub = cs.app.add_subcommand("jcs", "Print the RFC 8785 canonical form of a JSON document");
  auto file = std::make_shared<std::string>();
  sub->add_option("FILE", *file, "JSON document (standard input when absent)");
  cs.on(sub, [file]() -> int {
    auto text = input_bytes::open(*file);
    if (!text) {
      print_error("jcs", text.error().message);
      return exit_io;
    }
    // The flat document: no allocation per value (parsed input always has a canonical form).
    auto doc = assay::json::document::parse(text->view());
    if (!doc) {
      print_error("jcs", input_name(*file) + ": " + doc.error().format());
      return exit_usage;
    }
    file_sink out{stdout};
    {
      assay::json::writer<file_sink> w(out);
      doc->write_canonical(w);
    }
    if (out.failed || std::fflush(stdout) != 0) {
      print_error("jcs", "cannot write to standard output");
      return exit_io;
    }
    return exit_ok;
  });
}

}  // namespace assay_cli
