// assay evidence bundle --events IN.ndjson --out B.tar.gz [--pack P]… — a bundle from events, one
// JSON event per line (docs/evidence.md, docs/cli.md); with packs, the manifest's x-assay records them and their
// rules' framework mappings.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/writer.hpp"
#include "assay/inspect/spool.hpp"
#include "assay/json/ndjson.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace assay_cli {

namespace {

struct bundle_args {
  std::string events;
  std::string out;
  std::uint64_t max_bytes = default_max_bytes;
  bool unchecked_payloads = false;
  std::vector<std::string> packs;
  std::string limits;
};

// An error about the events, placed on its line: the pointer's first token is the event's
// position among the lines (0-based).
std::string placed(const std::vector<assay::json::ndjson_line>& lines, const assay::error& e) {
  std::size_t index = lines.size();
  if (e.pointer.size() > 1 && e.pointer[0] == '/') {
    const auto end = e.pointer.find('/', 1);
    index =
        std::strtoul(e.pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1).c_str(), nullptr, 10);
  }
  return index < lines.size() ? at_line(lines[index], e) : e.format();
}

assay::evidence::bundle_options options_of(const bundle_args& a, const bundle_stamp& s) {
  assay::evidence::bundle_options opt;
  opt.check_payloads = !a.unchecked_payloads;
  opt.packs_applied = s.packs_applied;
  opt.mappings = s.mappings;
  opt.limits = s.limits;
  return opt;
}

// What `evidence bundle` says when it wrote a file (nothing when the bundle went to stdout).
int written(const bundle_args& a, std::uint64_t events, std::string_view run_id, std::string_view bundle_id) {
  if (!is_std_stream(a.out))
    std::printf("%s\n", printable("bundled " + std::to_string(events) + " event(s) of run " + std::string(run_id) +
                                  " into " + a.out + " (bundle_id " + std::string(bundle_id) + ")")
                            .c_str());
  return exit_ok;
}

// The normal case in one pass with flat memory: events in seq order that break no rule are
// written as they are read, the compressed body held in a spool until the head is known. The
// exit code, or nothing when the events need write_bundle() (to be sorted, or for it to name
// their faults; nothing has been written then).
std::optional<int> stream_bundle(const bundle_args& a, const bundle_stamp& s, const input& text) {
  constexpr std::string_view command = "evidence bundle";
  assay::inspect::spool body;
  assay::evidence::bundle_stream stream(
      [&body](std::string_view b) {
        body.put(b);
        return !body.failure();
      },
      options_of(a, s));
  const std::string_view bytes = text.bytes();
  std::size_t at = 0, number = 0, released = 0;
  assay::json::ndjson_line line{};
  while (assay::json::next_ndjson_line(bytes, at, number, line)) {
    if (!stream.add(line.text))
      return std::nullopt;
    if (at - released >= (std::size_t{8} << 20)) {  // what was read is let go, 8 MiB at a time
      text.release(line.offset);
      released = line.offset;
    }
  }
  auto ends = stream.finish();
  if (!ends && ends.error().code == assay::evidence::needs_write_bundle)
    return std::nullopt;
  if (!ends)
    return fail(command, ends.error());
  auto out = output_file::open(a.out);
  if (!out)
    return fail(command, out.error());
  out->write(ends->head);
  if (auto e = body.replay([&](std::string_view b) { return out->write(b); }))
    return fail(command, *e);
  out->write(ends->tail);
  if (auto c = out->commit(); !c)
    return fail(command, c.error());
  return written(a, ends->event_count, ends->run_id, ends->bundle_id);
}

int bundle(const bundle_args& a) {
  constexpr std::string_view command = "evidence bundle";
  bundle_stamp s;
  if (auto code = read_bundle_stamp(command, a.limits, a.packs, s))
    return *code;
  auto text = input::open(a.events, a.max_bytes, input::over_limit::refuse, "--max-bytes", input::access::sequential);
  if (!text)
    return fail(command, text.error());
  if (auto code = stream_bundle(a, s, *text))
    return *code;
  const auto lines = assay::json::ndjson_lines(text->bytes());
  std::vector<std::string_view> events;
  events.reserve(lines.size());
  for (const auto& line : lines)
    events.push_back(line.text);
  // The options in their own scope: a local that lives to every return below made g++ 12 -O3
  // warn (-Wmaybe-uninitialized, spuriously) about destroying its producer on the early exits.
  auto files = assay::evidence::build_bundle_files(events, options_of(a, s));
  if (!files) {
    const std::string name = input_name(a.events);
    const assay::errors all = files.error();
    const assay::error& first = all.front();
    // A line that is not JSON: the input is not what it should be (exit 2); else the events
    // were read and refused, each violation named by its code (exit 1).
    if (assay::is_syntax_error(first.code)) {
      print_error(command, name + ": " + placed(lines, first));
    } else {
      for (const auto& e : all)
        print_error(command, std::string(assay::name(e.code)) + ": " + name + ": " + placed(lines, e));
    }
    return exit_for(first);
  }
  auto gz = assay::evidence::pack_bundle(*files, options_of(a, s));
  if (!gz)
    return fail(command, gz.error());
  if (auto w = write_file(a.out, *gz); !w)
    return fail(command, w.error());
  return written(a, files->event_count, files->run_id, files->run_root);
}

}  // namespace

void add_evidence_bundle(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("bundle", "Write a bundle from events, one JSON event per line");
  auto a = std::make_shared<bundle_args>();
  sub->add_option("--events", a->events, "Events, one per line (NDJSON; - for standard input)")->required();
  sub->add_option("--out", a->out, "The bundle to write (.tar.gz; - for standard output)")->required();
  sub->add_flag("--unchecked-payloads", a->unchecked_payloads,
                "Re-pack other producers' events as they are: payloads of known types are not held to their "
                "contracts (the envelope still is)");
  sub->add_option("--pack", a->packs,
                  "Record in the manifest's x-assay the packs applied (their digests) and their rules' article_refs "
                  "(mappings), resolved as lint resolves them; comma lists allowed");
  add_max_bytes(sub, a->max_bytes);
  add_limits(sub, a->limits);
  d.on(sub, [a] { return bundle(*a); });
}

}  // namespace assay_cli
