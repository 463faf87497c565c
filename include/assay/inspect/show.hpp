// assay/inspect/show.hpp — a bundle for a person to look at (docs/inspect.md): the manifest's summary and
// a table of its events (seq, time, type, subject) sized to the terminal, or for a script
// {"manifest": …, "events": […], "verified": bool}.
//
//   assay::inspect::show_options o;            // verify first, a table 100 columns wide
//   auto r = assay::inspect::show_bundle_file("run.tar.gz", o, stdout);
//   if (!r) ... r.error().code names the check that failed; nothing was written
//
// The events are gathered in the bundle's one verification pass (a visitor) and held in a spool
// — memory up to 1 MiB, then an unnamed temporary file — until the pass ends, so memory stays
// flat on any number of events and a bundle that fails shows nothing: with verification, what
// is printed verified. `verify = false` reads the bundle without checks (read_unverified.hpp):
// the output's first line says so, and lines that are not JSON are listed, not fatal.
#pragma once

#include "assay/contracts/show.hpp"
#include "assay/error.hpp"
#include "assay/evidence/read_unverified.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/inspect/spool.hpp"
#include "assay/inspect/text.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::inspect {

struct show_options {
  enum class format { table, json };
  format fmt = format::table;
  bool verify = true;
  std::size_t width = 100;  // the terminal's columns (table)
  bool colour = false;      // ANSI colour (table; a terminal only)
  evidence::bundle_limits limits{};
  std::size_t spool_memory = 1u << 20;  // rows held in memory before they go to a temporary file
};

// What a show found, beside what it printed.
struct show_summary {
  bool verified = false;
  std::uint64_t events = 0;      // rows shown
  std::uint64_t unreadable = 0;  // without verification: lines and members that could not be read
};

namespace detail {

// The facts of the summary lines, from the manifest (and, verified, the pass).
struct facts {
  std::string bundle_id, run_id, producer, time_start, time_end, manifest_json = "null";
  std::string file_sha256;      // of the bundle file's bytes (not the run root, which bundle_id is)
  std::string packs, mappings;  // x-assay (docs/evidence.md): the packs applied, the framework mappings
  // The manifest members of those, as JSON Pointers: the producer's claim, which no digest covers
  // (editing them leaves the bundle verifying), so never shown as verified.
  std::vector<std::string> claimed;
  std::optional<std::uint64_t> manifest_events;
};

// What a pass gathers: rows (table) or event lines (json) into the spool, and the widths.
template <class = void>
class basic_gatherer {
 public:
  basic_gatherer(const show_options& o, spool& s) : opt_(o), spool_(s) {}

  // manifest.json as the unverified reader has it: its facts read from the bytes, if they are JSON.
  void manifest(std::string_view bytes) {
    auto doc = json::document::parse(bytes);
    if (!doc) {
      problem("manifest.json", "not JSON: " + doc.error().message);
      return;
    }
    canonical_manifest(bytes);
    const auto& n = doc->nodes();
    if (n[0].kind != json::kind::object) {
      problem("manifest.json", "not a JSON object");
      return;
    }
    const auto [bundle, count, producer, run] =
        doc->find_members<4>(0, {"bundle_id", "event_count", "producer", "run_id"});
    auto text = [&](std::size_t at) {
      return at != 0 && n[at].kind == json::kind::string ? std::string(doc->string_at(at)) : std::string();
    };
    facts_.bundle_id = text(bundle);
    facts_.run_id = text(run);
    if (count != 0 && n[count].kind == json::kind::number && doc->integer_token_at(count) && doc->number_at(count) >= 0)
      facts_.manifest_events = static_cast<std::uint64_t>(doc->number_at(count));
    if (producer != 0 && n[producer].kind == json::kind::object) {
      const auto [name, version] = doc->find_members<2>(producer, {"name", "version"});
      facts_.producer = text(name) + (text(version).empty() ? "" : " " + text(version));
    }
  }

  // manifest.json as the pass read it: its facts as the pass decoded them.
  void manifest(const evidence::bundle_manifest& m) {
    canonical_manifest(m.bytes);
    facts_.bundle_id = m.fields.bundle_id;
    facts_.run_id = m.fields.run_id;
    facts_.manifest_events = static_cast<std::uint64_t>(m.fields.event_count.value());
    facts_.producer =
        m.fields.producer.name + (m.fields.producer.version.empty() ? "" : " " + m.fields.producer.version);
    if (const auto x = m.fields.other.find("x-assay"); x != m.fields.other.end())
      provenance(x->second);
  }

  // x-assay (docs/evidence.md), as the producer wrote it: the packs applied ("name@version digest") and
  // the mappings ("framework ref"), each list on one line; a member of another shape is shown "?".
  void provenance(const json::value& x) {
    auto text = [](const json::value& o, std::string_view name) {
      const json::value* v = o.is_object() ? o.find(name) : nullptr;
      return v != nullptr && v->is_string() ? v->as_string() : std::string("?");
    };
    auto each = [&](std::string_view member, auto&& show) {
      const json::value* list = x.is_object() ? x.find(member) : nullptr;
      if (list == nullptr)
        return std::string();
      if (!list->is_array())
        return std::string("?");
      std::string out = std::to_string(list->as_array().size()) + ":";
      for (const json::value& item : list->as_array())
        out += (out.back() == ':' ? " " : ", ") + show(item);
      return out;
    };
    facts_.packs = each("packs_applied", [&](const json::value& p) {
      return text(p, "name") + "@" + text(p, "version") + " " + text(p, "digest");
    });
    facts_.mappings =
        each("mappings", [&](const json::value& m) { return text(m, "framework") + " " + text(m, "ref"); });
    for (const std::string_view member : {"packs_applied", "mappings"})
      if (x.is_object() && x.find(member) != nullptr)
        facts_.claimed.push_back("/x-assay/" + std::string(member));
  }

  // Keeps the earliest and latest RFC 3339 time seen, each parsed once (without verification:
  // with it, the pass finds them).
  void time_in(std::string_view t) {
    const auto at = json::parse_instant(t);
    if (!at)
      return;
    if (!earliest_ || *at < *earliest_) {
      earliest_ = at;
      facts_.time_start = std::string(t);
    }
    if (!latest_ || *latest_ < *at) {
      latest_ = at;
      facts_.time_end = std::string(t);
    }
  }

  // An event: its line (json), or its row (table).
  void event(std::string_view line, std::optional<std::uint64_t> seq, std::string_view time, std::string_view type,
             std::string_view subject) {
    ++events_;
    if (opt_.fmt == show_options::format::json) {
      spool_.put(events_ == 1 ? "" : ",");
      spool_.put(line);
      return;
    }
    const std::string cells[4] = {seq ? std::to_string(*seq) : "?", printable(time), printable(type),
                                  printable(subject)};
    for (std::size_t i = 0; i < 4; ++i)
      widths_[i] = std::max(widths_[i], width_of(cells[i]));
    spool_.put_record(std::array<std::string_view, 4>{cells[0], cells[1], cells[2], cells[3]});
  }

  // Something that could not be read (without verification only).
  void problem(std::string at, std::string why) { problems_.emplace_back(std::move(at), std::move(why)); }

  facts& fact() noexcept { return facts_; }
  std::uint64_t events() const noexcept { return events_; }
  const std::vector<std::pair<std::string, std::string>>& problems() const noexcept { return problems_; }
  // The widest cell of each column (seq, time, type, subject), headings included.
  const std::array<std::size_t, 4>& widths() const noexcept { return widths_; }

 private:
  // The manifest's canonical form, which `show --json` prints (the table does not).
  void canonical_manifest(std::string_view bytes) {
    if (opt_.fmt != show_options::format::json)
      return;
    if (auto c = json::canonicalize(bytes))
      facts_.manifest_json = std::move(*c);
  }

  const show_options& opt_;
  spool& spool_;
  facts facts_;
  std::uint64_t events_ = 0;
  std::optional<json::instant> earliest_, latest_;
  std::vector<std::pair<std::string, std::string>> problems_;
  std::array<std::size_t, 4> widths_{3, 4, 4, 7};  // the headings' widths
};
using gatherer = basic_gatherer<>;

// The verification pass's visitor: each verified event to the gatherer.
struct verified_rows {
  gatherer& g;
  void on_manifest(const evidence::bundle_manifest& m) { g.manifest(m); }
  void on_event(const evidence::verified_event& e) {
    g.event(e.line, e.seq, e.time, e.type, e.subject.value_or(std::string_view()));
  }
};

// The unverified reader's reader: each line parsed for what a row shows, if it can be.
struct unverified_rows {
  gatherer& g;
  json::limits lim;
  void on_manifest(std::string_view bytes) { g.manifest(bytes); }
  void on_end(std::string_view file_sha256) { g.fact().file_sha256 = file_sha256; }
  void on_line(std::uint64_t line, std::string_view bytes) {
    const std::string at = "events.ndjson line " + std::to_string(line);
    if (bytes.find_first_not_of(" \t") == std::string_view::npos) {
      g.problem(at, "an empty line");
      return;
    }
    auto doc = json::document::parse(bytes, lim);
    if (!doc) {
      g.problem(at, "not JSON: " + doc.error().message);
      return;
    }
    const auto& n = doc->nodes();
    if (n[0].kind != json::kind::object) {
      g.problem(at, "not a JSON object");
      return;
    }
    const auto [seq, subject, time, type] = doc->find_members<4>(0, {"assayseq", "subject", "time", "type"});
    auto text = [&](std::size_t i) {
      return i != 0 && n[i].kind == json::kind::string ? doc->string_at(i) : std::string_view();
    };
    std::optional<std::uint64_t> s;
    if (seq != 0 && n[seq].kind == json::kind::number && doc->integer_token_at(seq) && doc->number_at(seq) >= 0 &&
        doc->number_at(seq) <= 9007199254740992.0)
      s = static_cast<std::uint64_t>(doc->number_at(seq));
    g.time_in(text(time));
    g.event(bytes, s, text(time), text(type), text(subject));
  }
  void on_long_line(std::uint64_t line, std::uint64_t bytes) {
    g.problem(
        "events.ndjson line " + std::to_string(line),
        "a line of " + std::to_string(bytes) + " bytes, over the limit of " + std::to_string(lim.max_input_bytes));
  }
  void on_other(const evidence::tar_member& m) {
    g.problem("archive member " + printable(m.path), m.regular ? "not read (not a member of a bundle)" : "not a file");
  }
};

inline std::string pad(std::string s, std::size_t w) {
  const std::size_t have = width_of(s);
  if (have < w)
    s.append(w - have, ' ');
  return s;
}

// The summary lines above the table.
inline std::string summary_lines(const facts& f, const show_summary& s, const gatherer& g) {
  std::string out;
  if (!s.verified)
    out += "not verified (--no-verify): nothing below has been checked\n";
  auto line = [&](std::string_view name, const std::string& value) {
    out += pad(std::string(name), 10) + (value.empty() ? "?" : printable(value)) + "\n";
  };
  line("bundle_id", f.bundle_id);
  line("file", f.file_sha256);
  line("run", f.run_id);
  line("producer", f.producer);
  // x-assay is the producer's word: no digest covers it, so it is said to be claimed, beside
  // "verified" or not.
  if (!f.packs.empty())
    line("packs", f.packs + " (claimed, not verified)");
  if (!f.mappings.empty())
    line("mappings", f.mappings + " (claimed, not verified)");
  std::string events = std::to_string(s.events);
  if (!s.verified)
    events += f.manifest_events ? " read (the manifest says " + std::to_string(*f.manifest_events) + ")" : " read";
  if (!f.time_start.empty())
    events += ", " + f.time_start + " .. " + f.time_end;
  line("events", events);
  line("verified", s.verified ? "ok" : "no");
  for (const auto& [at, why] : g.problems())
    out += "unreadable " + printable(at) + ": " + printable(why) + "\n";
  return out;
}

// The table: a heading and a row per event, columns two spaces apart, the seq right-aligned. When
// the type and subject columns do not fit in `o.width`, they share what is left (the type half of
// it, at least 12 when there is room, more when the subjects are short) and long cells are
// shortened in the middle: a row is never wider than the terminal, unless the seq and time
// columns alone are.
inline std::optional<error> write_table(spool& sp, const gatherer& g, const show_options& o, std::FILE* out) {
  const auto& w = g.widths();
  const std::size_t fixed = w[0] + w[1] + 6;
  const std::size_t avail = o.width > fixed ? o.width - fixed : 0;
  std::size_t type_w = w[2], subject_w = w[3];
  if (type_w + subject_w > avail) {
    type_w = std::min(w[2], avail >= 24 ? std::max<std::size_t>(12, avail / 2) : avail / 2);
    subject_w = std::min(w[3], avail - type_w);
    type_w = std::min(w[2], avail - subject_w);  // what a short subject column leaves
  }
  const char* bold = o.colour ? "\x1b[1m" : "";
  const char* cyan = o.colour ? "\x1b[36m" : "";
  const char* reset = o.colour ? "\x1b[0m" : "";
  auto line = [&](const std::array<std::string, 4>& c, bool heading) {
    std::string l = heading ? bold : "";
    l += std::string(w[0] - std::min(w[0], width_of(c[0])), ' ') + c[0] + "  " + pad(c[1], w[1]) + "  ";
    if (!heading)
      l += cyan;
    l += pad(shorten_middle(c[2], type_w), type_w);
    if (!heading)
      l += reset;
    l += "  " + shorten_middle(c[3], subject_w);
    while (!l.empty() && l.back() == ' ')
      l.pop_back();
    if (heading)
      l += reset;
    l += "\n";
    return std::fwrite(l.data(), 1, l.size(), out) == l.size();
  };
  auto write_failed = [] {
    return make_error(errc::io_error, std::string("cannot write the output: ") + std::strerror(errno));
  };
  if (!line({"SEQ", "TIME", "TYPE", "SUBJECT"}, true))
    return write_failed();
  if (auto e = sp.rewind())
    return e;
  std::array<std::string, 4> cells;
  while (sp.read_record(cells))
    if (!line(cells, false))
      return write_failed();
  return sp.failure();
}

}  // namespace detail

// Shows a bundle read from `source` on `out` as `o` says. With verification, a bundle that fails
// is the error of the check it failed, and nothing is written.
template <class V = void>
result<show_summary> show_bundle(evidence::byte_source& source, const show_options& o, std::FILE* out) {
  spool sp(o.spool_memory);
  detail::gatherer g(o, sp);
  show_summary s;
  s.verified = o.verify;
  if (o.verify) {
    detail::verified_rows rows{g};
    auto r = evidence::verify_bundle(source, o.limits, rows);
    if (!r)
      return r.error();
    g.fact().time_start = r->time_start;  // as the pass found them
    g.fact().time_end = r->time_end;
    g.fact().file_sha256 = r->file_sha256;
  } else {
    json::limits jl;
    jl.max_depth = o.limits.max_json_depth;
    jl.max_input_bytes = o.limits.max_line_bytes;
    detail::unverified_rows rows{g, jl};
    if (auto r = evidence::read_unverified(source, o.limits, rows); !r)
      return r.error();
  }
  if (auto e = sp.failure())
    return *e;
  s.events = g.events();
  s.unreadable = g.problems().size();
  std::string head;
  if (o.fmt == show_options::format::json) {
    head = "{\"manifest\":" + g.fact().manifest_json + ",\"events\":[";
  } else {
    head = detail::summary_lines(g.fact(), s, g) + "\n";
  }
  if (std::fwrite(head.data(), 1, head.size(), out) != head.size())
    return make_error(errc::io_error, std::string("cannot write the output: ") + std::strerror(errno));
  std::optional<error> failed;
  if (o.fmt == show_options::format::json) {
    failed = sp.replay(
        [&](std::string_view chunk) { return std::fwrite(chunk.data(), 1, chunk.size(), out) == chunk.size(); });
    std::string tail = std::string("],\"verified\":") + (s.verified ? "true" : "false");
    if (const auto& claimed = g.fact().claimed; !claimed.empty()) {
      auto list = assay::encode(claimed);
      if (!list)
        return list.error().front();
      tail += ",\"claimed\":" + *list;
    }
    if (!g.problems().empty()) {
      std::vector<deferred_t<V, contracts::show_v1::unreadable_part>> parts;  // compiled only where used
      for (const auto& [at, why] : g.problems())
        parts.push_back({non_empty(at), non_empty(why)});  // a place and a reason: never empty
      auto list = assay::encode(parts);
      if (!list)
        return list.error().front();
      tail += ",\"unreadable\":" + *list;
    }
    tail += "}\n";
    if (!failed && std::fwrite(tail.data(), 1, tail.size(), out) != tail.size())
      failed = make_error(errc::io_error, std::string("cannot write the output: ") + std::strerror(errno));
  } else {
    failed = detail::write_table(sp, g, o, out);
  }
  if (failed)
    return *failed;
  return s;
}

template <class = void>
result<show_summary> show_bundle_file(const std::string& path, const show_options& o, std::FILE* out) {
  return evidence::read_file_source(path, [&](evidence::byte_source& src) { return show_bundle(src, o, out); });
}

}  // namespace assay::inspect

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::inspect {
ASSAY_EXTERN_TEMPLATE class detail::basic_gatherer<void>;
ASSAY_EXTERN_TEMPLATE result<show_summary> show_bundle<void>(evidence::byte_source&, const show_options&, std::FILE*);
ASSAY_EXTERN_TEMPLATE result<show_summary> show_bundle_file<void>(const std::string&, const show_options&, std::FILE*);
}  // namespace assay::inspect
#endif
