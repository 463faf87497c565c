// assay digest [--alg A] [FILE] — "<alg>:<hex>" of the canonical (RFC 8785) bytes of FILE.
#include "cli.hpp"
#include "verbs.hpp"

#include "assay/hash/hash.hpp"
#include "assay/json/value.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace assay_cli {

namespace {

struct digest_args {
  std::string file;
  std::string alg = "sha256";
  std::uint64_t max_bytes = default_max_bytes;
};

int digest(const digest_args& a) {
  if (!assay::hash::is_algorithm(a.alg)) {
    return usage_error("digest", assay::hash::unknown_algorithm(printable(a.alg, echo_cap)).message);
  }
  auto text = input::open(a.file, a.max_bytes);
  if (!text)
    return fail("digest", text.error());
  auto doc = assay::json::parse(text->bytes());
  if (!doc)
    return fail("digest", doc.error(), input_name(a.file));
  auto d = assay::hash::digest_string_of(a.alg, *doc);
  if (!d)
    return fail("digest", d.error());
  return finish("digest", write_file("-", *d + "\n"));
}

}  // namespace

void add_digest(CLI::App& parent, dispatcher& d) {
  auto* sub = parent.add_subcommand("digest", "Print the digest of a JSON document's canonical bytes");
  auto a = std::make_shared<digest_args>();
  sub->add_option("FILE", a->file, "JSON document (standard input when absent or -)");
  sub->add_option("--alg", a->alg, "sha256 (default), sha512, blake2b-512, xxh3-64, xxh3-128");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return digest(*a); });
}

}  // namespace assay_cli
