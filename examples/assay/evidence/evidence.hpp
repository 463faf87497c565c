// What the `assay evidence` verbs share: events files (NDJSON) and their errors.
#pragma once

#include "../cli.hpp"

#include "assay/evidence/bundle.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/json/ndjson.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay_cli {

// An error about the event on `line` of an events file: its position moved from the line to the
// file, or the line named when it has no position.
inline std::string at_line(const assay::json::ndjson_line& line, assay::error e) {
  if (!e.has_position())
    return "line " + std::to_string(line.number) + ": " + e.format();
  e.line = line.number;
  e.offset += line.offset;
  return e.format();
}

// --- a bundle to verify: what every verb that reads one shares ---------------------------------

// BUNDLE and --limits, as every verb that reads a bundle takes them.
struct bundle_input {
  std::string path;    // a file, or - for standard input
  std::string limits;  // a JSON object of reader limits; empty: the defaults
};

// Adds `--limits L.json` to `verb` (BUNDLE is each verb's to add: its help and position differ).
void add_limits(CLI::App* verb, std::string& limits);

// How opening and verifying a bundle ended: the pass's result, or an error before it (an input
// that cannot be read, a limits file that is not one: `usage` then).
struct verified_input {
  assay::result<assay::evidence::verified_bundle> result;
  bool usage = false;  // the error is the limits file's: a usage error (exit 2)
  // For a result that is an error: prints it as docs/cli.md says, as `command`'s (`role` — "baseline
  // B" — before the message when given), and returns the exit code: a bundle that does not
  // verify as its code and message, anything else (I/O, a visitor's own refusal) as the verb's
  // error.
  int fail(std::string_view command, std::string_view role = {}) const;
};

// The limits of `path` (defaults when empty), or the error naming the file; `not_limits` set when
// the file was read but holds no limits (a usage error).
assay::result<assay::evidence::bundle_limits> read_limits(const std::string& path, bool& not_limits);

// --limits (`path`, a file; empty: the defaults) read into `out`; or the exit code of the error,
// printed as `command`'s (a file that holds no limits: a usage error).
std::optional<int> read_limits_option(std::string_view command, const std::string& path,
                                      assay::evidence::bundle_limits& out);

// What a verb that writes a bundle takes beside its events (bundle, record, recover): the
// limits the bundle is held to (--limits) and the packs it was produced under (--pack: the packs
// applied and their rules' mappings, stamped into the manifest's x-assay).
struct bundle_stamp {
  std::vector<assay::contracts::manifest_v1::pack_applied> packs_applied;
  std::vector<assay::contracts::manifest_v1::mapping> mappings;
  assay::evidence::bundle_limits limits;
};

// Reads --limits (`limits`, a file; empty: the defaults) and loads --pack (`packs`) into `out`;
// or the exit code of the error, printed as `command`'s (a file that holds no limits: a usage
// error; a pack that does not load: 3).
std::optional<int> read_bundle_stamp(std::string_view command, const std::string& limits,
                                     const std::vector<std::string>& packs, bundle_stamp& out);

// Opens the bundle (once: a FIFO can be read only once), reads the limits, and verifies it in one
// pass with `visitors`. An input larger than max_bundle_bytes is left to the verifier, which
// refuses it by its size (LimitBundleBytes) before reading it.
template <class... V>
verified_input verify_input(const bundle_input& in, V&&... visitors) {
  bool not_limits = false;
  auto limits = read_limits(in.limits, not_limits);
  if (!limits)
    return {limits.error(), not_limits};
  auto bytes = input::open(in.path, limits->max_bundle_bytes, input::over_limit::pass);
  if (!bytes)
    return {bytes.error()};
  return {assay::evidence::verify_bundle_bytes(bytes->bytes(), *limits, std::forward<V>(visitors)...)};
}

// `verify --contracts`: the verification pass with evidence::payload_check as its visitor. In a
// translation unit of its own (verify_contracts.cpp): it compiles a decoder for every known
// payload, which the plain pass does without.
verified_input verify_input_with_contracts(const bundle_input& in);

}  // namespace assay_cli
