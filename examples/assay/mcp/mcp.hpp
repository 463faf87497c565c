// What the `assay mcp` verbs share: a policy file read and checked.
#pragma once

#include "../cli.hpp"

#include "assay/mcp/check.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace assay_cli {

// The policy at `path`, loaded and its schemas compiled (assay::mcp::check_policy); or nullopt,
// each problem printed on stderr as FILE:LINE:COL: message (for `command`). `io` is set when the
// file could not be read.
std::optional<assay::mcp::checked_policy> read_policy(std::string_view command, const std::string& path,
                                                      bool allow_unenforced, bool& io);

// --allow-unenforced, as both verbs take it.
void add_allow_unenforced(CLI::App* verb, bool& flag);

}  // namespace assay_cli
