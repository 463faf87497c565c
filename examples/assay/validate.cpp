// assay validate NAME [FILE] — decode FILE as contract NAME; every violation on stderr as
// "<json pointer>: <reason>", exit 1; not JSON at all: exit 2.
#include "cli.hpp"
#include "contracts.hpp"
#include "verbs.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace assay_cli {

namespace {

struct validate_args {
  std::string name;
  std::string file;
  std::uint64_t max_bytes = default_max_bytes;
};

int validate(const validate_args& a) {
  if (!has_contract(a.name)) {
    return usage_error("validate", unknown_contract(a.name));
  }
  auto text = input::open(a.file, a.max_bytes);
  if (!text)
    return fail("validate", text.error());
  auto r = validate_contract(a.name, text->bytes());
  if (r)
    return finish("validate", write_file("-", printable(input_name(a.file)) + ": valid " + a.name + "\n"));
  const auto& errs = r.error();
  if (errs.size() == 1 && assay::is_syntax_error(errs.front().code))
    return fail("validate", errs.front(), input_name(a.file) + " is not valid JSON");
  for (const auto& e : errs)
    print_line(stderr, e.format_pointer_line());
  return exit_failed;
}

}  // namespace

void add_validate(CLI::App& parent, dispatcher& d) {
  auto* sub = parent.add_subcommand("validate", "Validate a JSON document against a contract");
  auto a = std::make_shared<validate_args>();
  sub->add_option("NAME", a->name, "Contract name (see assay schema --list)")->required();
  sub->add_option("FILE", a->file, "JSON document (standard input when absent or -)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return validate(*a); });
}

}  // namespace assay_cli
