// assay jcs [FILE] — the canonical (RFC 8785) bytes of FILE on stdout, nothing else.
#include "cli.hpp"
#include "verbs.hpp"

#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace assay_cli {

namespace {

// A sink onto a C stream.
struct file_sink {
  std::FILE* f;
  bool failed = false;
  void write(const char* p, std::size_t n) {
    if (std::fwrite(p, 1, n, f) != n)
      failed = true;
  }
};

struct jcs_args {
  std::string file;
  std::uint64_t max_bytes = default_max_bytes;
};

int jcs(const jcs_args& a) {
  auto text = input::open(a.file, a.max_bytes);
  if (!text)
    return fail("jcs", text.error());
  // The flat document: no allocation per value (parsed input always has a canonical form).
  auto doc = assay::json::document::parse(text->bytes());
  if (!doc)
    return fail("jcs", doc.error(), input_name(a.file));
  file_sink out{stdout};
  {
    assay::json::writer<file_sink> w(out);
    doc->write_canonical(w);
  }
  if (out.failed || std::fflush(stdout) != 0)
    return fail("jcs", assay::make_error(assay::errc::io_error,
                                         std::string("cannot write to standard output: ") + std::strerror(errno)));
  return exit_ok;
}

}  // namespace

void add_jcs(CLI::App& parent, dispatcher& d) {
  auto* sub = parent.add_subcommand("jcs", "Print the RFC 8785 canonical form of a JSON document");
  auto a = std::make_shared<jcs_args>();
  sub->add_option("FILE", a->file, "JSON document (standard input when absent or -)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return jcs(*a); });
}

}  // namespace assay_cli
