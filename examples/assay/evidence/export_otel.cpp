// assay evidence export-otel B --out spans.jsonl --report R [--max-spans N] [--spans-per-line N]
// [--include-sensitive] — the bundle's events as OTLP/JSON TracesData lines and the
// otel-export-report-v1 of what the mapping lost (docs/otel.md), in the one verification pass.
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/otel/exporter.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>

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

int run_export(const export_args& a) {
  constexpr std::string_view command = "evidence export-otel";
  assay::otel::bundle_exporter x(
      {.max_spans = a.max_spans, .spans_per_line = a.spans_per_line, .include_sensitive = a.include_sensitive});
  if (const verified_input v = verify_input(a.bundle, x); !v.result)
    return v.fail(command);  // --max-spans refuses here, as the exporter's own error: nothing written
  // The lines go to the file as they are made (one line in memory at a time). The lines and the
  // report are written all or none (docs/cli.md): both are opened first, and both appear, whole,
  // only once the last byte of each is written.
  output_set files;
  auto file = files.add(a.out);
  if (!file)
    return fail(command, file.error());
  auto report_file = files.add(a.report);
  if (!report_file)
    return fail(command, report_file.error());
  std::uint64_t lines = 0;
  auto report = x.finish_to([&](std::string_view line) {
    ++lines;
    return (*file)->write(line);
  });
  if (!report) {  // a line could not be written: that output's error, nothing renamed
    auto w = files.commit();
    return fail(command, w ? report.error() : w.error());
  }
  auto report_text = report_bytes(*report);
  if (!report_text)
    return fail(command, report_text.error());
  (*report_file)->write(*report_text);
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
                           "Refuse (exit 1, nothing written) an export of more than N spans (default 100000)"),
           1, max_otel_spans);
  in_range(sub->add_option("--spans-per-line", a->spans_per_line, "Spans in one TracesData line (default 512)"), 1,
           max_otel_spans);
  sub->add_flag("--include-sensitive", a->include_sensitive,
                "Also export the payload members classed sensitive (tool arguments and results)");
  d.on(sub, [a] { return run_export(*a); });
}

}  // namespace assay_cli
