// assay evidence bundle | verify | redact — writing, verifying and redacting evidence (SPEC §6,
// §7, §9, §17).
#pragma once

#include "common.hpp"

#include "assay/evidence/redact.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/value.hpp"

#include <cstdlib>
#include <memory>
#include <string>
#include <variant>
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

// The events of an NDJSON file as DOM values (blank lines skipped, CRLF accepted), or the exit
// code of the error already reported.
inline std::variant<std::vector<assay::json::value>, int> read_events(std::string_view command,
                                                                      const std::string& path) {
  auto text = read_input(path);
  if (!text) {
    print_error(command, text.error().message);
    return exit_io;
  }
  std::vector<assay::json::value> events;
  for (const auto& line : assay::json::ndjson_lines(*text)) {
    auto ev = assay::json::parse(line.text);
    if (!ev) {
      print_error(command, input_name(path) + ": " + at_line(line, ev.error()));
      return exit_usage;
    }
    events.push_back(std::move(*ev));
  }
  return events;
}

inline int evidence_bundle(const std::string& events_path, const std::string& out_path) {
  auto text = input_bytes::open(events_path);
  if (!text) {
    print_error("evidence bundle", text.error().message);
    return exit_io;
  }
  const auto lines = assay::json::ndjson_lines(text->view());
  std::vector<std::string_view> events;
  events.reserve(lines.size());
  for (const auto& line : lines)
    events.push_back(line.text);
  auto gz = assay::evidence::write_bundle(events);
  if (!gz) {
    const auto& e = gz.error();
    // The pointer's first token is the event's position among the lines (0-based).
    std::string where;
    std::size_t index = lines.size();
    if (e.pointer.size() > 1 && e.pointer[0] == '/') {
      const auto end = e.pointer.find('/', 1);
      index = std::strtoul(e.pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1).c_str(), nullptr,
                           10);
    }
    const std::string message = index < lines.size() ? at_line(lines[index], e) : e.format();
    if (assay::is_syntax_error(e.code)) {  // a line that is not JSON: the input is not what it should be
      print_error("evidence bundle", input_name(events_path) + ": " + message);
      return exit_usage;
    }
    print_error("evidence bundle", std::string(assay::name(e.code)) + ": " + input_name(events_path) + ": " + message);
    return exit_failed;
  }
  std::FILE* f = std::fopen(out_path.c_str(), "wb");
  if (f == nullptr || std::fwrite(gz->data(), 1, gz->size(), f) != gz->size() || std::fclose(f) != 0) {
    print_error("evidence bundle", "cannot write " + out_path);
    return exit_io;
  }
  return exit_ok;
}

inline std::string json_string(std::string_view s) {
  std::string out;
  assay::json::string_sink sink{&out};
  assay::json::writer<assay::json::string_sink> w(sink);
  assay::json::write_string(w, s);
  w.flush();
  return out;
}

inline int evidence_verify(const std::string& path, const std::string& limits_path, bool as_json) {
  assay::evidence::bundle_limits limits;
  if (!limits_path.empty()) {
    auto text = read_input(limits_path);
    if (!text) {
      print_error("evidence verify", text.error().message);
      return exit_io;
    }
    auto l = assay::evidence::bundle_limits::from_json(*text);
    if (!l) {
      print_error("evidence verify", limits_path + ": " + l.error().format());
      return exit_usage;
    }
    limits = *l;
  }
  std::FILE* probe = std::fopen(path.c_str(), "rb");
  if (probe == nullptr) {
    print_error("evidence verify", "cannot open " + path + ": " + std::strerror(errno));
    return exit_io;
  }
  std::fclose(probe);
  auto r = assay::evidence::verify_bundle_file(path, limits);
  if (as_json) {
    std::string out = "{";
    if (r) {
      out += "\"bundle_id\":" + json_string(r->bundle_id) +
             ",\"class\":null,\"code\":null,\"event_count\":" + std::to_string(r->event_count) +
             ",\"message\":null,\"ok\":true,\"run_id\":" + json_string(r->run_id);
    } else {
      const auto& e = r.error();
      out += "\"bundle_id\":null,\"class\":" + json_string(assay::error_class(e.code)) +
             ",\"code\":" + json_string(assay::name(e.code)) +
             ",\"event_count\":null,\"message\":" + json_string(e.message) + ",\"ok\":false,\"run_id\":null";
    }
    out += "}\n";
    if (write_stdout(out) != exit_ok)
      return exit_io;
  } else if (r) {
    std::printf("verified %s: %llu events, run %s, bundle %s, %s .. %s\n", path.c_str(),
                static_cast<unsigned long long>(r->event_count), r->run_id.c_str(), r->bundle_id.c_str(),
                r->time_start.c_str(), r->time_end.c_str());
  }
  if (!r) {
    if (r.error().code == assay::errc::io_error) {
      print_error("evidence verify", r.error().message);
      return exit_io;
    }
    std::fprintf(stderr, "%s: %s\n", std::string(assay::name(r.error().code)).c_str(), r.error().message.c_str());
    return exit_failed;
  }
  return exit_ok;
}

// Events in, the same events redacted (SPEC §9) with fresh content hashes out, one per line.
inline int evidence_redact(const std::string& events_path, bool commitments) {
  auto read = read_events("evidence redact", events_path);
  if (const int* code = std::get_if<int>(&read))
    return *code;
  std::string out;
  assay::evidence::redact_options opt;
  opt.commitments = commitments;
  std::size_t index = 0;
  for (auto& ev : std::get<0>(read)) {
    auto r = assay::evidence::redact_event(ev, opt);
    auto line = r ? assay::json::to_canonical(ev) : assay::result<std::string>(r.error());
    if (!line) {
      print_error("evidence redact", "event " + std::to_string(index) + ": " + line.error().format());
      return exit_failed;
    }
    out += *line;
    out += '\n';
    ++index;
  }
  return write_stdout(out);
}

inline void add_evidence(command_set& cs) {
  auto* ev = cs.app.add_subcommand("evidence", "Evidence bundles: write, verify, redact");
  ev->require_subcommand(1);

  auto* b = ev->add_subcommand("bundle", "Write a bundle from events, one JSON event per line");
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  b->add_option("--events", *in, "Events, one per line (NDJSON)")->required();
  b->add_option("--out", *out, "The bundle to write (.tar.gz)")->required();
  cs.on(b, [in, out] { return evidence_bundle(*in, *out); });

  auto* v = ev->add_subcommand("verify", "Verify a bundle (SPEC §7)");
  auto path = std::make_shared<std::string>();
  auto limits = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  v->add_option("BUNDLE", *path, "The bundle (.tar.gz)")->required();
  v->add_option("--limits", *limits, "A JSON object with the eight reader limits");
  v->add_flag("--json", *as_json, "Print the result as one JSON object");
  cs.on(v, [path, limits, as_json] { return evidence_verify(*path, *limits, *as_json); });

  auto* r = ev->add_subcommand("redact", "Apply the privacy classes to events (SPEC §9); new content hashes");
  auto rin = std::make_shared<std::string>();
  auto commit = std::make_shared<bool>(false);
  r->add_option("EVENTS", *rin, "Events, one per line (standard input when absent)");
  r->add_flag("--commitments", *commit, "Replace forbidden values by commitments instead of dropping them");
  cs.on(r, [rin, commit] { return evidence_redact(*rin, *commit); });
}

}  // namespace assay_cli
