// What the `assay evidence` verbs share: reading the limits, opening and verifying a bundle,
// reporting a bundle that does not verify (evidence.hpp).
#include "evidence.hpp"
#include "../packs.hpp"

#include <string>

namespace assay_cli {

void add_limits(CLI::App* verb, std::string& limits) {
  verb->add_option("--limits", limits,
                   "A JSON object with any of the eight reader limits (the others keep their defaults)");
}

assay::result<assay::evidence::bundle_limits> read_limits(const std::string& path, bool& not_limits) {
  not_limits = false;
  if (path.empty())
    return assay::evidence::bundle_limits{};
  auto text = input::open(path, default_max_bytes, input::over_limit::refuse, "");
  if (!text)
    return text.error();
  auto l = assay::evidence::bundle_limits::from_json(text->bytes());
  if (!l) {
    not_limits = true;
    auto e = l.error();
    e.message = input_name(path) + ": " + e.format();
    e.offset = assay::error::npos;
    e.pointer.clear();
    return e;
  }
  return *l;
}

std::optional<int> read_limits_option(std::string_view command, const std::string& path,
                                      assay::evidence::bundle_limits& out) {
  bool not_limits = false;
  auto l = read_limits(path, not_limits);
  if (!l) {
    if (not_limits) {
      print_error(command, l.error().message);
      return exit_usage;
    }
    return fail(command, l.error());
  }
  out = *l;
  return std::nullopt;
}

std::optional<int> read_bundle_stamp(std::string_view command, const std::string& limits,
                                     const std::vector<std::string>& packs, bundle_stamp& out) {
  if (auto code = read_limits_option(command, limits, out.limits))
    return code;
  if (!packs.empty()) {
    auto loaded = load_stamp_packs(command, packs);
    if (!loaded)
      return exit_io;  // a pack that does not load, or packs lint refuses together (the error printed)
    out.packs_applied = assay::lint::refs_of<assay::contracts::manifest_v1::pack_applied>(*loaded);
    out.mappings = assay::lint::mappings_of<assay::contracts::manifest_v1::mapping>(*loaded);
  }
  return std::nullopt;
}

int verified_input::fail(std::string_view command, std::string_view role) const {
  assay::error e = result.error();
  if (usage) {
    print_error(command, e.message);
    return exit_usage;
  }
  if (!role.empty())
    e.message = std::string(role) + ": " + e.message;
  if (!assay::evidence::is_verification_failure(e))  // I/O, or a visitor's own refusal
    return assay_cli::fail(command, e);
  return fail_bundle(command, e);
}

}  // namespace assay_cli
