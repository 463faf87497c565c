// assay evidence export-otel B --out spans.jsonl --report R [--max-spans N] [--spans-per-line N]
// [--include-sensitive] — the bundle's events as OTLP/JSON TracesData lines and the
// otel-export-report-v1 of what the mapping lost (docs/otel.md), in the one verification pass.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/atomic_file.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/otel/exporter.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include <sys/stat.h>

namespace assay_cli {

namespace {

struct export_args {
  bundle_input bundle;
  std::string out;
  std::string report;
  std::uint64_t max_spans = assay::otel::export_options{}.max_spans;
  std::size_t spans_per_line = assay::otel::export_options{}.spans_per_line;
  bool include_sensitive = false;
};

std::string summary(const assay::contracts::otel_export_report& r, std::uint64_t line_count) {
  const auto& loss = r.mapping_loss;
  std::string out = "exported " + std::to_string(r.events_read.value()) + " event(s) as " +
                    std::to_string(r.spans_written.value()) + " span(s) in " + std::to_string(line_count) +
                    " line(s) (semantic conventions " + std::string(r.semconv_version) + ")\n";
  out += "mapping loss: " + std::to_string(loss.totals.dropped_attributes.value()) + " attribute(s) dropped, " +
         std::to_string(loss.totals.unmapped_events.value()) + " event(s) without a mapping\n";
  for (const auto& [type, n] : loss.unmapped_events)
    out += "  unmapped " + printable(type) + ": " + std::to_string(n.value()) + "\n";
  return out;
}

// Where the spans wait for the end of the pass (otel::export_options::spill_dir): beside the
// temporary of --out, in the directory of the file it replaces (links followed, as the writer
// follows them), which holds the lines next; for standard output, a FIFO or a device, TMPDIR or
// /tmp.
std::string spill_dir_for(const std::string& out) {
  std::string target;
  struct stat st {};
  if (!is_std_stream(out) && assay::evidence::file_io::resolve_links(out, target) == 0 &&
      (::stat(target.c_str(), &st) != 0 || S_ISREG(st.st_mode)))
    return assay::evidence::file_io::directory_of(target);
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

int run_export(const export_args& a) {
  constexpr std::string_view command = "evidence export-otel";
  // The lines and the report are written all or none (docs/cli.md): both are opened first (an
  // output that cannot be is named before the pass), and both appear, whole, only once the last
  // byte of each is written.
  output_set files;
  auto file = files.add(a.out);
  if (!file)
    return fail(command, file.error());
  auto report_file = files.add(a.report);
  if (!report_file)
    return fail(command, report_file.error());
  assay::otel::bundle_exporter x({.max_spans = a.max_spans,
                                  .spans_per_line = a.spans_per_line,
                                  .include_sensitive = a.include_sensitive,
                                  .spill_dir = spill_dir_for(a.out)});
  if (const verified_input v = verify_input(a.bundle, x); !v.result)
    return v.fail(command);  // --max-spans refuses here, as the exporter's own error: nothing written
  // The spans wait in the spill file during the pass; then the lines go to --out as they are made
  // (one line in memory at a time), and the report to --report, its dropped attributes read back
  // from the spill: memory stays flat however many events the bundle holds.
  std::uint64_t lines = 0;
  auto report = x.finish_to(
      [&](std::string_view line) {
        ++lines;
        return (*file)->write(line);
      },
      [&](std::string_view bytes) { return (*report_file)->write(bytes); });
  if (!report) {  // an output's own error when one failed (nothing renamed), else the export's
    for (output_file* f : {*file, *report_file})
      if (auto w = f->prepare(); !w)
        return fail(command, w.error());
    return fail(command, report.error());
  }
  (*report_file)->write("\n");  // a report's bytes end with a newline (report_bytes)
  if (auto w = files.commit(); !w)
    return fail(command, w.error());
  if (is_std_stream(a.out))
    return exit_ok;
  return finish(command, write_file("-", printable_lines(summary(*report, lines))));
}

}  // namespace

void add_evidence_export_otel(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("export-otel", "The bundle as OpenTelemetry spans, OTLP/JSON");
  auto a = std::make_shared<export_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_option("--out", a->out, "Write the TracesData lines (JSON Lines) here; - for standard output")->required();
  sub->add_option("--report", a->report, "Write the otel-export-report-v1 JSON here")->required();
  in_range(sub->add_option("--max-spans", a->max_spans,
                           "Refuse (exit 1, nothing written) an export of more than N spans (default 200000: "
                           "any bundle the default limits read)"),
           1, max_otel_spans);
  in_range(sub->add_option("--spans-per-line", a->spans_per_line, "Spans in one TracesData line (default 512)"), 1,
           max_otel_spans);
  sub->add_flag("--include-sensitive", a->include_sensitive,
                "Export sensitive values as written, not generalized (forbidden ones never leave)");
  d.on(sub, [a] { return run_export(*a); });
}

}  // namespace assay_cli
