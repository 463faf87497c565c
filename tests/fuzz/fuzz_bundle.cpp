// libFuzzer target: the bundle reader and verifier (SPEC §7), and the writer/verifier agreement.
//
// The first byte chooses how the rest is used:
//   0  as a whole .tar.gz: verify_bundle_bytes never crashes, hangs or reads past its limits; a
//      bundle it accepts has consistent facts (a sha256 bundle id equal to the run root text the
//      manifest gave, an event count within the limit);
//   1  as a tar archive, gzipped here first (so the mutations reach the tar and member checks
//      rather than dying at the gzip CRC);
//   2  as events.ndjson: when write_bundle accepts its lines (with small limits), the bundle
//      written must verify under the same limits, with the same event count, run id and run
//      root (the writer refuses what the verifier would reject), and the DOM path must write
//      the same bytes.
// In modes 0 and 1 the same bytes are also shown (inspect/show.hpp), as a table and as JSON,
// verified and not: a verified show fails exactly when verification does, with its code, and
// shows as many events; every JSON output is strict JSON, verified or not.
// A bundle that verifies is also exported to OpenTelemetry (otel/exporter.hpp): the export
// succeeds, its report keeps its contract (totals that add up, no more unmapped events than
// read), every line is strict JSON, and the run's root span is written.
// In mode 0, when the build has ISA-L, the gzip stream is also inflated by zlib and by ISA-L
// (evidence/gunzip.hpp): both accept it with the same bytes, or both refuse it as IntegrityGzip.
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/evidence/archive.hpp"
#include "assay/inspect/show.hpp"
#include "assay/json/document.hpp"
#include "assay/otel/exporter.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/ndjson.hpp"
#include "assay/json/value.hpp"
#include "../evidence/streamed.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ev = assay::evidence;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_bundle", what, detail);
}

// Small limits: a mutated size field must not make the reader allocate or inflate much.
ev::bundle_limits small_limits() {
  ev::bundle_limits l;
  l.max_bundle_bytes = 1 << 20;
  l.max_decode_bytes = 4 << 20;
  l.max_manifest_bytes = 64 << 10;
  l.max_events_bytes = 2 << 20;
  l.max_events = 2000;
  l.max_line_bytes = 64 << 10;
  l.max_path_len = 256;
  l.max_json_depth = 32;
  return l;
}

void check_accepted(const assay::result<ev::verified_bundle>& r, const ev::bundle_limits& lim) {
  if (!r) {
    if (r.error().message.empty())
      fail("an error without a message", assay::name(r.error().code));
    return;
  }
  if (r->event_count > lim.max_events)
    fail("more events than the limit accepted");
  if (r->bundle_id.size() != 71 || r->bundle_id.compare(0, 7, "sha256:") != 0)
    fail("an accepted bundle id that is not a sha256 digest", r->bundle_id);
}

// What show_bundle writes for `bytes` with `o`, and its outcome.
std::pair<assay::result<assay::inspect::show_summary>, std::string> shown(std::string_view bytes,
                                                                          const assay::inspect::show_options& o) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  if (f == nullptr)
    fail("open_memstream failed");
  ev::byte_source src(bytes);
  auto r = assay::inspect::show_bundle(src, o, f);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return {std::move(r), std::move(out)};
}

void check_shown(std::string_view bytes, const assay::result<ev::verified_bundle>& verified,
                 const ev::bundle_limits& lim) {
  for (bool verify : {true, false}) {
    for (auto fmt : {assay::inspect::show_options::format::table, assay::inspect::show_options::format::json}) {
      assay::inspect::show_options o;
      o.verify = verify;
      o.fmt = fmt;
      o.limits = lim;
      o.width = 60;
      o.spool_memory = 256;  // the temporary file is used as soon as anything is gathered
      auto [r, out] = shown(bytes, o);
      if (verify) {
        if (r.has_value() != verified.has_value())
          fail("show and verify disagree on whether the bundle verifies");
        if (!r) {
          if (r.error().code != verified.error().code)
            fail("show failed with another code than verify", assay::name(r.error().code));
          if (!out.empty())
            fail("a bundle that failed was shown", out);
          continue;
        }
        if (r->events != verified->event_count)
          fail("show shows another number of events than verify counted");
      }
      if (r && fmt == assay::inspect::show_options::format::json) {
        if (out.empty() || out.back() != '\n')
          fail("show's JSON does not end in a newline", out);
        if (auto d = assay::json::document::parse(std::string_view(out).substr(0, out.size() - 1)); !d)
          fail("show wrote JSON that does not parse", d.error().message);
      }
      if (!r && r.error().message.empty())
        fail("a show error without a message", assay::name(r.error().code));
    }
  }
}

void check_exported(std::string_view bytes, const assay::result<ev::verified_bundle>& verified,
                    const ev::bundle_limits& lim) {
  if (!verified)
    return;
  assay::otel::bundle_exporter x;
  if (auto r = ev::verify_bundle_bytes(bytes, lim, x); !r)
    fail("the export refused a bundle that verifies", assay::name(r.error().code));
  const auto out = x.finish();
  if (auto e = assay::encode(out.report); !e)
    fail("the export report breaks its contract", e.error().front().format());
  if (out.report.events_read.value() != static_cast<std::int64_t>(verified->event_count))
    fail("the export read another number of events than verify counted");
  if (out.report.spans_written.value() < 1 || out.line_count < 1)
    fail("no root span written");
  std::string_view rest = out.lines;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    if (nl == std::string_view::npos)
      fail("the last line has no newline");
    if (auto d = assay::json::document::parse(rest.substr(0, nl)); !d)
      fail("an exported line is not JSON", d.error().message);
    rest.remove_prefix(nl + 1);
  }
}

void verify_written(std::string_view ndjson) {
  const auto lines = assay::json::ndjson_lines(ndjson);
  if (lines.empty() || lines.size() > 200)
    return;
  std::vector<std::string_view> texts;
  for (const auto& l : lines)
    texts.push_back(l.text);
  ev::bundle_options opt;
  opt.threads = 1;
  opt.limits = small_limits();
  // The one-pass writer writes write_bundle's bytes, or declines.
  const auto stream = assay_test::streamed(texts, opt);
  if (!stream && stream.error().code != ev::needs_write_bundle)
    fail("the stream failed other than by declining", stream.error().format());
  if (auto whole = ev::write_bundle(texts, opt); stream && (!whole || *whole != *stream))
    fail("the stream wrote a bundle write_bundle did not write");
  auto files = ev::build_bundle_files(texts, opt);
  if (!files) {
    for (const auto& e : files.error())
      if (e.message.empty())
        fail("a writer error without a message", assay::name(e.code));
    return;
  }
  auto gz = ev::write_bundle(texts, opt);
  if (!gz) {
    // Only the container limits remain for pack_bundle to refuse.
    const auto c = gz.error().front().code;
    if (c != ev::code::LimitBundleBytes && c != ev::code::LimitDecodeBytes)
      fail("build_bundle_files accepted what write_bundle refused", gz.error().format());
    return;
  }
  auto r = ev::verify_bundle_bytes(*gz, opt.limits);
  if (!r)
    fail("a bundle the writer wrote does not verify",
         std::string(assay::name(r.error().code)) + ": " + r.error().message);
  if (r->event_count != files->event_count || r->run_id != files->run_id || r->bundle_id != files->run_root)
    fail("the verifier's facts differ from the writer's");
  // The same events as DOM values give the same bundle.
  std::vector<assay::json::value> dom;
  for (std::string_view t : texts)
    dom.push_back(assay::json::parse(t).value());
  auto from_dom = ev::write_bundle(dom, opt);
  if (!from_dom || *from_dom != *gz)
    fail("the DOM path and the text path wrote different bundles");
}

}  // namespace

// The inflater's output with `backend`, or why it stopped ("!Code").
std::string inflated(std::string_view gz, ev::gzip_backend backend, const ev::bundle_limits& lim) {
  ev::byte_source src(gz);
  ev::inflater in(src, lim, backend);
  std::string out;
  for (auto b = in.next(); !b.empty(); b = in.next())
    out.append(b);
  if (auto e = in.failure())
    return "!" + std::string(assay::name(e->code));
  return out;
}

void check_backends_agree(std::string_view gz, const ev::bundle_limits& lim) {
  if (!ev::gzip_backend_available(ev::gzip_backend::isal))
    return;
  const std::string z = inflated(gz, ev::gzip_backend::zlib, lim);
  const std::string s = inflated(gz, ev::gzip_backend::isal, lim);
  // A corrupt deflate stream may be caught by one decoder's rules and by the CRC after the
  // other: the code is the same, the bytes before the failure may differ.
  if (z != s && !(z == "!IntegrityGzip" && s == "!IntegrityGzip"))
    fail("zlib and ISA-L disagree on a gzip stream");
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const ev::bundle_limits lim = small_limits();
  switch (data[0] % 3) {
    case 0: {
      const auto r = ev::verify_bundle_bytes(body, lim);
      check_accepted(r, lim);
      check_backends_agree(body, lim);
      check_shown(body, r, lim);
      check_exported(body, r, lim);
      break;
    }
    case 1: {
      auto gz = ev::gzip(body, 1);
      if (!gz)
        fail("gzip failed", gz.error().message);
      const auto r = ev::verify_bundle_bytes(*gz, lim);
      check_accepted(r, lim);
      check_shown(*gz, r, lim);
      check_exported(*gz, r, lim);
      break;
    }
    default:
      verify_written(body);
      break;
  }
  return 0;
}
