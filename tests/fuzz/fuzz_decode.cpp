// libFuzzer target: typed decoding and encoding of two contracts (soak-report-v1, closure-v1).
//
// The input is used twice.
//
// As JSON text, for each contract T:
//   - assay::decode<T> never crashes; on failure every error has a code and a message;
// and when decoding succeeds:
//   - assay::validate(x) and assay::encode(x) succeed (a decoded value satisfies its type), but
//     for an integer beyond 2^53: decoded exactly, it is refused by encode (JSON cannot carry it);
//   - decode(encode(x)) succeeds and encodes to the same bytes; encode_to a sink agrees;
//   - the typed encoding equals json::canonicalize(input): decoding keeps every member, and the
//     typed writer and the DOM writer must agree byte for byte on the same document;
//   - decoding the parsed document's root node (decode_node.hpp) agrees with decoding its
//     canonical text: both succeed with the same encoding, or both fail with the same violations
//     (code, message, pointer; the node's carry no position).
//
// As raw bytes feeding the fields of a soak report and a closure report built in C++ (strings,
// integers up to 2^63, arbitrary doubles, map keys), so that the round trip is exercised on far
// more values than text that happens to decode: when encode(x) succeeds,
//   - the bytes are canonical (json::canonicalize leaves them unchanged);
//   - decode<T> accepts them and re-encoding gives the same bytes.
// Any mismatch aborts.
#include "fuzz_fail.hpp"
#include "assay/contracts/closure.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/decode_node.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include <string_view>

namespace {

[[noreturn]] void fail(const char* contract, const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_decode [" + std::string(contract) + "]", what, detail);
}

// Every error says an integer is beyond what a JSON number holds exactly (decoded, not encodable).
bool beyond_json(const assay::errors& errs) {
  for (const auto& e : errs)
    if (e.message.find("cannot be written exactly") == std::string::npos)
      return false;
  return true;
}

std::vector<std::string> violations(const assay::errors& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs)
    out.push_back(e.pointer + '\n' + e.message + '\n' + std::string(assay::name(e.code)));
  std::sort(out.begin(), out.end());
  return out;
}

// The node decoder against the text decoder, on a document the strict parser accepts.
template <class T>
void node_agrees(const char* contract, std::string_view text) {
  auto doc = assay::json::document::parse(text);
  if (!doc)
    return;
  const std::string canonical = doc->canonical();
  auto from_node = assay::decode<T>(*doc, 0);
  auto from_text = assay::decode<T>(canonical);
  if (from_node.has_value() != from_text.has_value())
    fail(contract, "decoding the node and its canonical text disagree", canonical);
  if (from_node) {
    auto a = assay::encode(*from_node), b = assay::encode(*from_text);
    if (a.has_value() != b.has_value() || (a && *a != *b))
      fail(contract, "the node and its text decode to different values", canonical);
    return;
  }
  for (const auto& e : from_node.error())
    if (e.offset != assay::error::npos || e.line != 0)
      fail(contract, "a node's violation has a byte position", e.format());
  // Past the error cap the two may keep different violations.
  if (from_node.error().size() < 1000 && violations(from_node.error()) != violations(from_text.error()))
    fail(contract, "the node and its text have different violations",
         from_node.error().format() + " | " + from_text.error().format());
}

template <class T>
void round_trip(const char* contract, std::string_view text) {
  node_agrees<T>(contract, text);
  auto x = assay::decode<T>(text);
  if (!x) {
    const auto& errs = x.error();
    if (errs.empty())
      fail(contract, "decode failed without an error");
    for (const auto& e : errs) {
      if (e.code == assay::errc::ok || e.message.empty())
        fail(contract, "error without code or message", e.format());
      (void)e.format();
      (void)e.format_pointer_line();
    }
    return;
  }
  auto valid = assay::validate(*x);
  if (!valid && beyond_json(valid.error()))
    return;
  if (!valid)
    fail(contract, "a decoded value does not validate", valid.error().format());
  auto e1 = assay::encode(*x);
  if (!e1)
    fail(contract, "a decoded value does not encode", e1.error().format());

  auto y = assay::decode<T>(*e1);
  if (!y)
    fail(contract, "the encoding does not decode", y.error().format() + " | " + *e1);
  auto e2 = assay::encode(*y);
  if (!e2)
    fail(contract, "the re-decoded value does not encode", e2.error().format());
  if (*e2 != *e1)
    fail(contract, "decode(encode(x)) encodes differently", *e1 + " | " + *e2);

  std::string via_sink;
  assay::json::string_sink sink{&via_sink};
  if (!assay::reflect::encode_to(sink, *x))
    fail(contract, "encode_to failed where encode succeeded");
  if (via_sink != *e1)
    fail(contract, "encode_to and encode differ");

  auto jcs = assay::json::canonicalize(text);
  if (!jcs)
    fail(contract, "decoded but json::canonicalize rejects the input", jcs.error().format());
  if (*jcs != *e1)
    fail(contract, "typed encoding differs from the JCS form of the input", *jcs + " | " + *e1);
}

// Hands out the fuzz input as typed values; zeros once it runs out.
class bytes_source {
 public:
  bytes_source(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  std::uint64_t u64(int bytes = 8) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
      v = (v << 8) | take();
    return v;
  }
  std::int64_t i64(int bytes = 8) { return static_cast<std::int64_t>(u64(bytes)); }
  bool flag() { return (take() & 1) != 0; }
  double any_double() {
    const std::uint64_t bits = u64();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  // A string of up to 15 bytes, any bytes (invalid UTF-8 must make encode fail, not crash).
  std::string text() {
    const std::size_t len = take() % 16;
    std::string s;
    for (std::size_t i = 0; i < len; ++i)
      s.push_back(static_cast<char>(take()));
    return s;
  }
  // A signal key matching ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$ (mostly).
  std::string signal() {
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789_.-";
    const std::size_t len = 2 + take() % 6;
    std::string s;
    for (std::size_t i = 0; i < len; ++i)
      s.push_back(alphabet[take() % (sizeof alphabet - 1)]);
    return s;
  }
  std::size_t count(std::size_t max) { return take() % (max + 1); }

 private:
  std::uint8_t take() { return pos_ < n_ ? p_[pos_++] : 0; }
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

assay::contracts::soak_report build_soak(bytes_source& in) {
  namespace soak = assay::contracts::soak;
  assay::contracts::soak_report r;
  if (in.flag())
    r.generated_at = in.text();
  if (in.flag())
    r.assay_version = in.text();
  if (in.flag())
    r.suite = in.text();
  const std::int64_t passes = in.i64(2), failures = in.i64(1), infra = in.i64(1);
  const std::int64_t runs = passes + failures + infra == 0 ? 1 : passes + failures + infra;
  r.iterations = runs + (in.flag() ? 0 : in.i64(1));
  r.seed = in.u64();
  r.time_budget_secs = in.flag() ? in.i64() : 1 + in.i64(2);
  r.limits = {in.i64(), in.i64(4), in.i64(4), in.i64(4), in.i64(4), in.i64(4), in.i64(2), in.i64(1)};
  const std::size_t packs = in.count(3);
  for (std::size_t i = 0; i < packs; ++i) {
    soak::pack_ref p{in.text(), in.text(), std::nullopt, std::nullopt, std::nullopt};
    if (in.flag())
      p.kind = in.text();
    if (in.flag())
      p.digest = in.text();
    if (in.flag())
      p.source = in.text();
    r.packs.push_back(std::move(p));
  }
  if (in.flag()) {
    soak::decision_policy d;
    d.pass_on_severity_at_or_above = *soak::severity::parse(soak::severity::values[in.count(2)]);
    if (in.flag())
      d.stop_on_first_failure = in.flag();
    if (in.flag())
      d.max_failures = in.i64(2);
    r.decision_policy = d;
  }
  r.results.runs = runs;
  r.results.passes = passes + (runs == 1 && passes + failures + infra == 0 ? 1 : 0);
  r.results.failures = failures;
  r.results.infra_errors = infra;
  r.results.pass_rate =
      in.flag() ? in.any_double() : static_cast<double>(r.results.passes.value()) / static_cast<double>(runs);
  r.results.pass_all = failures == 0 && infra == 0 && r.iterations.value() == runs;
  if (in.flag()) {
    using at = assay::nullable<assay::bounded<std::int64_t, 1>>;
    r.results.first_failure_at = in.flag() ? at() : at(in.i64(2));
  }
  if (in.flag()) {
    r.results.violations_by_rule.emplace();
    const std::size_t n = in.count(4);
    for (std::size_t i = 0; i < n; ++i)
      r.results.violations_by_rule->emplace(in.text(), in.i64(2));
  }
  if (in.flag()) {
    const double lo = in.any_double(), hi = in.any_double();
    r.results.pass_rate_ci95 = {{lo, hi}};
  }
  if (in.flag()) {
    std::vector<soak::run_result> list;
    const std::size_t n = in.count(4);
    for (std::size_t i = 0; i < n; ++i) {
      soak::run_result run;
      run.index = in.i64();
      run.status = *decltype(run.status)::parse(decltype(run.status)::values[in.count(2)]);
      run.duration_ms = in.i64();
      if (in.flag()) {
        run.violated_rules.emplace();
        const std::size_t k = in.count(2);
        for (std::size_t j = 0; j < k; ++j)
          run.violated_rules->emplace_back(in.text());
      }
      if (in.flag())
        run.infra_error_message = in.text();
      list.push_back(std::move(run));
    }
    r.runs = std::move(list);
  }
  return r;
}

assay::contracts::closure_report build_closure(bytes_source& in) {
  namespace cv = assay::contracts::closure_v1;
  assay::contracts::closure_report r;
  if (in.flag())
    r.bundle_digest = in.text();
  // Each signal with the part it goes to; the lists are sorted and unique (SPEC §13), so that
  // most built reports are valid and make the round trip.
  std::map<std::string, std::size_t> parts;
  const std::size_t n = in.count(5);
  for (std::size_t i = 0; i < n; ++i) {
    std::string s = in.signal();
    const std::size_t part = in.count(2);
    parts.emplace(std::move(s), part);
  }
  for (const auto& [name, part] : parts) {
    cv::signal s;
    s = name;
    r.completeness.required.push_back(s);
    switch (part) {
      case 0:
        r.completeness.captured.push_back(s);
        break;
      case 1:
        r.completeness.redacted.push_back(s);
        break;
      default:
        r.completeness.unknown.push_back(s);
        break;
    }
  }
  if (in.flag()) {
    r.completeness.by_signal.emplace();
    const std::size_t k = in.count(3);
    for (std::size_t i = 0; i < k; ++i) {
      cv::signal_detail d;
      d.status = *decltype(d.status)::parse(decltype(d.status)::values[in.count(3)]);
      if (in.flag())
        d.reason = in.text();
      if (in.flag())
        d.commitment = cv::commitment{in.text(), in.text(), in.i64()};
      r.completeness.by_signal->emplace(in.text(), std::move(d));
    }
  }
  r.closure.score = in.flag() ? in.any_double() : static_cast<double>(in.count(255)) / 255.0;
  r.closure.confidence = *decltype(r.closure.confidence)::parse(decltype(r.closure.confidence)::values[in.count(2)]);
  if (in.flag()) {
    cv::scoring sc;
    const std::size_t k = in.count(4);
    for (std::size_t i = 0; i < k; ++i)
      sc.weights.emplace(in.text(), in.any_double());
    r.closure.scoring = std::move(sc);
  }
  return r;
}

template <class T>
void typed_round_trip(const char* contract, const T& x) {
  auto e1 = assay::encode(x);
  if (!e1)
    return;  // the bytes made a value its type rejects: nothing to compare
  auto c = assay::json::canonicalize(*e1);
  if (!c)
    fail(contract, "encode produced bytes the reader rejects", c.error().format() + " | " + *e1);
  if (*c != *e1)
    fail(contract, "encode produced non-canonical bytes", *e1 + " | " + *c);
  auto y = assay::decode<T>(*e1);
  if (!y)
    fail(contract, "encode produced bytes decode rejects", y.error().format() + " | " + *e1);
  auto e2 = assay::encode(*y);
  if (!e2 || *e2 != *e1)
    fail(contract, "encode(decode(encode(x))) differs", *e1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  round_trip<assay::contracts::soak_report>("soak-report-v1", text);
  round_trip<assay::contracts::closure_report>("closure-v1", text);

  bytes_source in(data, size);
  typed_round_trip("soak-report-v1 (built)", build_soak(in));
  typed_round_trip("closure-v1 (built)", build_closure(in));
  return 0;
}
