// assay mcp check P [--allow-unenforced] — a gate policy loaded as `mcp wrap` loads it and every
// tool's argument schema compiled (docs/mcp.md): exit 0 with its name, version, digest and what it
// enforces; exit 1 with every problem as FILE:LINE:COL: message; 2 for a usage error, 3 when the
// file cannot be read.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "mcp.hpp"

#include "assay/mcp/check.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace assay_cli {

namespace mcp = assay::mcp;

std::optional<mcp::checked_policy> read_policy(std::string_view command, const std::string& path, bool allow_unenforced,
                                               bool& io) {
  io = false;
  auto in = input::open(path, mcp::max_policy_bytes, input::over_limit::refuse, "a policy's size");
  if (!in) {
    io = in.error().code == assay::errc::io_error;
    fail(command, in.error());
    return std::nullopt;
  }
  auto c = mcp::check_policy(in->bytes(), path, {.allow_unenforced = allow_unenforced});
  if (!c) {
    for (const auto& e : c.error())
      print_line(stderr, e.format());
    return std::nullopt;
  }
  return std::move(*c);
}

void add_allow_unenforced(CLI::App* verb, bool& flag) {
  verb->add_flag("--allow-unenforced", flag,
                 "Accept controls this gate records but does not enforce (approval_required, restrict_scope, "
                 "redact_args, signatures)");
}

namespace {

struct check_args {
  std::string policy;
  bool allow_unenforced = false;
};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? std::string("none") : out;
}

int check(const check_args& a) {
  bool io = false;
  const auto c = read_policy("mcp check", a.policy, a.allow_unenforced, io);
  if (!c)
    return io ? exit_io : exit_failed;
  const mcp::loaded_policy& p = c->policy;
  std::vector<std::string> allow, deny, schemas, pins;
  for (const auto& t : p.allow)
    allow.push_back(t.text());
  for (const std::string& k : p.allow_classes)
    allow.push_back("class " + k);
  for (const auto& t : p.deny)
    deny.push_back(t.text());
  for (const std::string& k : p.deny_classes)
    deny.push_back("class " + k);
  for (const auto& [tool, s] : p.schemas)
    schemas.push_back(tool);
  for (const auto& [tool, pin] : p.pins)
    pins.push_back(tool);
  std::string limits;
  if (p.max_requests_total)
    limits += "max_requests_total " + std::to_string(*p.max_requests_total);
  if (p.max_tool_calls_total)
    limits +=
        (limits.empty() ? "" : ", ") + std::string("max_tool_calls_total ") + std::to_string(*p.max_tool_calls_total);
  const char* unconstrained = p.unconstrained == mcp::unconstrained_mode::deny    ? "deny"
                              : p.unconstrained == mcp::unconstrained_mode::allow ? "allow"
                                                                                  : "warn";
  std::string out = "ok " + printable(*p.model.name, echo_cap) + " version " + printable(p.policy_version(), echo_cap) +
                    " " + p.digest + "\n";
  out += "  allow: " + printable(p.has_allowlist ? joined(allow) : std::string("every tool (no allow list)")) + "\n";
  out += "  deny: " + printable(joined(deny)) + "\n";
  out += "  schemas: " + printable(joined(schemas)) + "; a tool without one: " + unconstrained + "\n";
  out += "  pins: " + printable(joined(pins)) + "\n";
  out += "  limits: " + (limits.empty() ? std::string("none") : limits) + "\n";
  if (!p.unenforced_controls.empty())
    out += "  NOT ENFORCED (recorded only, --allow-unenforced): " + printable(joined(p.unenforced_controls)) + "\n";
  std::fputs(out.c_str(), stdout);
  return exit_ok;
}

}  // namespace

void add_mcp_check(CLI::App& mcp_group, dispatcher& d) {
  auto* sub = mcp_group.add_subcommand(
      "check", "Check a gate policy: loaded as mcp wrap loads it, every argument schema compiled (exit 1: problems)");
  auto a = std::make_shared<check_args>();
  sub->add_option("POLICY", a->policy, "The policy (the reference's v2 YAML; v1 migrated)")->required();
  add_allow_unenforced(sub, a->allow_unenforced);
  d.on(sub, [a] { return check(*a); });
}

}  // namespace assay_cli
