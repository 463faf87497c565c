// Writing bundles (SPEC §6): events as JSON texts or DOM values, content hashes computed or
// checked, seq order, the rules and limits of the verifier refused before anything is written,
// and the gzip stream over pieces.
#include "support.hpp"

#include "reflect/check_error.hpp"

#include "assay/evidence/archive.hpp"
#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "events.hpp"
#include "streamed.hpp"

#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace ev = assay::evidence;
namespace json = assay::json;
using assay::errc;
using assay_test::check_errors;
using assay_test::lines_of;
using assay_test::make_event;
using assay_test::make_events;
using assay_test::streamed;

namespace {

// The events as non-canonical texts: indented, members in input order.
std::vector<std::string> texts_of(const std::vector<json::value>& events) {
  std::vector<std::string> out;
  for (const auto& e : events)
    out.push_back(json::to_pretty(e));
  return out;
}

// `v` without its member `name`.
json::value without(const json::value& v, std::string_view name) {
  json::object o;
  for (const auto& m : v.as_object())
    if (m.name != name)
      o.push_back(m);
  return json::value(std::move(o));
}

std::vector<std::string_view> views(const std::vector<std::string>& texts) {
  return {texts.begin(), texts.end()};
}

ev::bundle_files files_of(const std::vector<std::string>& texts, const ev::bundle_options& opt = {}) {
  return ev::build_bundle_files(views(texts), opt).value();
}

assay::error error_of(const std::vector<std::string>& texts, const ev::bundle_options& opt = {}) {
  auto r = ev::write_bundle(views(texts), opt);
  REQUIRE_FALSE(r.has_value());
  REQUIRE(r.error().size() == 1);
  return r.error().front();
}

}  // namespace

TEST_CASE("events as JSON texts: canonical lines, content hashes computed, checked or filled in for null") {
  auto evs = make_events(3);
  evs[1].set("assaycontenthash", ev::content_hash(evs[1]).value());  // present and right
  evs[2].set("assaycontenthash", nullptr);                           // null: computed
  const auto texts = texts_of(evs);
  const auto files = files_of(texts);
  CHECK(files.events == lines_of(make_events(3)));
  CHECK(files.event_count == 3);
  CHECK(files.run_id == "run-1");
  // The DOM path gives the same files.
  const auto dom = ev::build_bundle_files(evs).value();
  CHECK(dom.events == files.events);
  CHECK(dom.manifest == files.manifest);
  CHECK(dom.run_root == files.run_root);
  // And the same bundle, which verifies.
  const auto gz = ev::write_bundle(views(texts)).value();
  CHECK(gz == ev::write_bundle(evs).value());
  CHECK(ev::verify_bundle_bytes(gz).has_value());
}

TEST_CASE("events out of order are written in seq order; the producer is the seq-0 event's") {
  auto evs = make_events(3);
  evs[0].set("assayproducer", "first-producer");
  evs[0].set("assaygit", "abc1234");
  const std::vector<json::value> shuffled = {evs[2], evs[0], evs[1]};
  const auto files = files_of(texts_of(shuffled));
  CHECK(files.events == lines_of(evs));
  CHECK(files.manifest.find(R"("producer":{"git":"abc1234","name":"first-producer","version":"1.0.0"})") !=
        std::string::npos);
  // Without a producer in the seq-0 event: refused at that event's input position (the envelope
  // requires one).
  auto e = ev::build_bundle_files(std::vector<json::value>{evs[1], without(evs[0], "assayproducer")});
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(),
               {{errc::missing_member, R"(required member "assayproducer" is missing)", "/1/assayproducer"}});
  // A producer given in the options wins.
  ev::bundle_options opt;
  opt.producer = ev::producer_info{"given", "2.0", std::nullopt};
  CHECK(files_of(texts_of(shuffled), opt).manifest.find(R"("producer":{"name":"given","version":"2.0"})") !=
        std::string::npos);
}

TEST_CASE("the first broken rule in seq order is the one reported, at the event's input position") {
  auto evs = make_events(3);
  evs[1].set("source", "urn:assay:other");
  evs[2].set("assaycontenthash", "sha256:" + std::string(64, '0'));
  // In input order = seq order: seq 1's source comes before seq 2's hash.
  auto e = error_of(texts_of(evs));
  CHECK(e.code == ev::code::ContractInvalidEvent);
  CHECK(e.pointer == "/1/source");
  CHECK(e.message == "seq 1: source differs from the first event's");
  // Shuffled: the same event is reported, at its new input position.
  e = error_of(texts_of({evs[2], evs[0], evs[1]}));
  CHECK(e.code == ev::code::ContractInvalidEvent);
  CHECK(e.pointer == "/2/source");
  // But every event must first be an object with a valid seq: that is checked before the rules.
  auto t = texts_of(evs);
  t.push_back("[1]");
  e = error_of(t);
  CHECK(e.code == ev::code::ContractInvalidJson);
  CHECK(e.pointer == "/3");
  CHECK(e.message == "the event is not a JSON object");
  auto bad_seq = make_event(3);
  bad_seq.set("assayseq", -1);
  t.back() = json::to_pretty(bad_seq);
  e = error_of(t);
  CHECK(e.code == ev::code::ContractInvalidJson);
  CHECK(e.pointer == "/3/assayseq");
  CHECK(e.message == "member \"assayseq\" must be an integer >= 0");
  // Each rule of the stream, with the verifier's code.
  auto one = [](auto edit) {
    auto v = make_events(3);
    edit(v);
    return error_of(texts_of(v));
  };
  e = one([](auto& v) { v[1].set("assayseq", 0); });  // two seq 0: the second is a gap
  CHECK(e.code == ev::code::ContractSequenceGap);
  CHECK(e.pointer == "/1/assayseq");
  e = one([](auto& v) { v.erase(v.begin()); });
  CHECK(e.code == ev::code::ContractSequenceStart);
  CHECK(e.pointer == "/0/assayseq");
  e = one([](auto& v) { v[2].set("assayrunid", "run-2"); });
  CHECK(e.code == ev::code::ContractRunIdMismatch);
  CHECK(e.message == "the run id at seq 2 differs from the first event's");
  e = one([](auto& v) { v[0].set("specversion", "0.3"); });
  CHECK(e.code == ev::code::ContractSchemaVersion);
  CHECK(e.pointer == "/0/specversion");
  e = one([](auto& v) { v[1].set("id", "run-1:7"); });
  CHECK(e.code == ev::code::ContractInvalidEvent);
  CHECK(e.pointer == "/1/id");
  e = one([](auto& v) { v[1].set("time", "yesterday"); });
  CHECK(e.code == ev::code::ContractInvalidJson);
  CHECK(e.pointer == "/1/time");
  // A member missing: every event's contract violations, each with its true reason, rather than
  // the verifier's first code.
  e = one([](auto& v) { v[0] = without(v[0], "data"); });
  CHECK(e.code == assay::errc::missing_member);
  CHECK(e.pointer == "/0/data");
  CHECK(e.message == "required member \"data\" is missing");
  e = one([](auto& v) {
    for (auto& x : v) {
      x.set("assayrunid", "a:b");
      x.set("id", "a:b:" + std::to_string(static_cast<int>(x.find("assayseq")->as_number())));
    }
  });
  CHECK(e.code == ev::code::ContractInvalidEvent);
  CHECK(e.pointer == "/0/assayrunid");
}

TEST_CASE("a text that is not JSON keeps the reader's code and position") {
  auto t = texts_of(make_events(2));
  t[1] = R"({"a":1,})";
  auto e = error_of(t);
  CHECK(assay::is_syntax_error(e.code));
  CHECK(e.code == errc::unexpected_character);
  CHECK(e.pointer == "/1");
  CHECK(e.line == 1);
  CHECK(e.column == 8);
  CHECK(e.offset == 7);
  t[1] = R"({"a":1,"a":2})";
  e = error_of(t);
  CHECK(e.code == errc::duplicate_member);
  CHECK(e.pointer == "/1/a");
}

TEST_CASE("the verifier's limits are the writer's, each at its boundary") {
  const auto evs = make_events(3);
  const auto texts = texts_of(evs);
  const auto files = files_of(texts);
  auto passes = [&](const ev::bundle_options& opt) {
    auto gz = ev::write_bundle(views(texts), opt);
    REQUIRE(gz.has_value());
    auto v = ev::verify_bundle_bytes(*gz, opt.limits);  // and the verifier agrees
    CHECK_MESSAGE(v.has_value(),
                  (v ? std::string() : std::string(assay::name(v.error().code)) + ": " + v.error().message));
  };
  auto fails = [&](const ev::bundle_options& opt, ev::code code, std::string_view pointer = "") {
    auto e = error_of(texts, opt);
    CHECK_EQ(assay::name(e.code), ev::name(code));
    CHECK(e.pointer == pointer);
  };
  std::size_t longest = 0;
  for (std::size_t at = 0, nl; (nl = files.events.find('\n', at)) != std::string::npos; at = nl + 1)
    longest = std::max(longest, nl - at);
  ev::bundle_options opt;
  opt.limits.max_line_bytes = longest;
  passes(opt);
  opt.limits.max_line_bytes = longest - 1;
  fails(opt, ev::code::LimitLineBytes, "/0");

  opt = {};
  opt.limits.max_events = 3;
  passes(opt);
  opt.limits.max_events = 2;
  fails(opt, ev::code::LimitTotalEvents);

  // The manifest nests 3 levels (files, events.ndjson); these events 2 (data).
  opt = {};
  opt.limits.max_json_depth = 3;
  passes(opt);
  opt.limits.max_json_depth = 2;
  fails(opt, ev::code::LimitJsonDepth);
  auto deep = evs;
  deep[1].find("data")->set("a", json::parse(R"({"b":{"c":1}})").value());  // 4 levels
  const auto deep_texts = texts_of(deep);
  opt.limits.max_json_depth = 4;
  CHECK(ev::verify_bundle_bytes(ev::write_bundle(views(deep_texts), opt).value(), opt.limits).has_value());
  opt.limits.max_json_depth = 3;
  auto e = error_of(deep_texts, opt);
  CHECK(e.code == ev::code::LimitJsonDepth);
  CHECK(e.pointer == "/1/data/a/b");

  opt = {};
  opt.limits.max_events_bytes = files.events.size();
  passes(opt);
  opt.limits.max_events_bytes = files.events.size() - 1;
  fails(opt, ev::code::LimitFileSize);

  opt = {};
  opt.limits.max_manifest_bytes = files.manifest.size();
  passes(opt);
  opt.limits.max_manifest_bytes = files.manifest.size() - 1;
  fails(opt, ev::code::LimitFileSize);

  const auto pad = [](std::size_t n) { return (n + 511) / 512 * 512; };
  const std::size_t tar_size = 512 + pad(files.manifest.size()) + 512 + pad(files.events.size()) + 1024;
  opt = {};
  opt.limits.max_decode_bytes = tar_size;
  passes(opt);
  opt.limits.max_decode_bytes = tar_size - 1;
  fails(opt, ev::code::LimitDecodeBytes);

  const std::size_t gz_size = ev::write_bundle(views(texts)).value().size();
  opt = {};
  opt.limits.max_bundle_bytes = gz_size;
  passes(opt);
  opt.limits.max_bundle_bytes = gz_size - 1;
  fails(opt, ev::code::LimitBundleBytes);
}

TEST_CASE("gzip over pieces equals gzip of their concatenation, on any number of threads") {
  std::mt19937_64 rng(7);
  std::string whole;
  std::vector<std::string> parts;
  // Pieces that end just before, on and after block boundaries, and one smaller than the
  // 32 KiB dictionary window that precedes a block.
  for (std::size_t n : {std::size_t(1 << 20) - 10, std::size_t(20), std::size_t(1000), std::size_t(3 << 20),
                        std::size_t(1), std::size_t(0), std::size_t(700000)}) {
    std::string p(n, '\0');
    for (auto& c : p)
      c = static_cast<char>("abcdefgh{}\":,0123"[rng() % 18]);
    whole += p;
    parts.push_back(std::move(p));
  }
  const std::vector<std::string_view> pieces(parts.begin(), parts.end());
  const auto one = ev::gzip(whole, 1).value();
  CHECK(ev::gzip(pieces, 1).value() == one);
  CHECK(ev::gzip(pieces, 2).value() == one);
  CHECK(ev::gzip(pieces, 3).value() == one);
  CHECK(ev::gzip(whole, 4).value() == one);
  // It is a gzip stream of those bytes: the verifier's inflater reads it back through a bundle.
  CHECK(ev::gzip(std::string_view(), 2).value() == ev::gzip(std::string_view(), 1).value());
  // tar_of: the pieces of a tar stream concatenate to what write_tar writes.
  const std::string b(513, 'x');
  std::string tar;
  ev::write_tar(tar, {{"a.txt", "hello"}, {"b.txt", b}}).value();
  auto t = ev::tar_of({{"a.txt", "hello"}, {"b.txt", b}}).value();
  std::string joined;
  for (auto p : t.pieces)
    joined += p;
  CHECK(joined == tar);
  CHECK(t.size == tar.size());
  CHECK(tar.size() == 512 + 512 + 512 + 1024 + 1024);
}

TEST_CASE("the writer refuses what the verifier would reject") {
  auto evs = make_events(3);
  evs[1].set("assaycontenthash", "sha256:" + std::string(64, '0'));
  auto r = ev::write_bundle(evs);
  REQUIRE(!r.has_value());
  CHECK(r.error().front().code == ev::code::IntegrityEventHash);
  CHECK(r.error().front().pointer == "/1/assaycontenthash");

  evs = make_events(3);
  evs[2].set("assayseq", 5);
  CHECK(ev::write_bundle(evs).error().front().code == ev::code::ContractSequenceGap);
  evs = make_events(3);
  std::swap(evs[0], evs[2]);  // out of order in the input: sorted by seq
  CHECK(ev::write_bundle(evs).value() == ev::write_bundle(make_events(3)).value());
  CHECK(ev::write_bundle(std::vector<json::value>{}).error().front().code == ev::code::ContractInvalidEvent);
}

TEST_CASE("x-assay: packs applied and mappings go into the manifest, which decodes as manifest-v1") {
  ev::bundle_options opt;
  ev::pack_applied pack;
  pack.name = "eu-ai-act-baseline";
  pack.version = "1.0.0";
  pack.digest = "sha256:f47d932cdad4bde369ed0a7cf26fdcf4077777296346c4102d9017edbc62a070";
  pack.kind = "compliance";
  opt.packs_applied.push_back(pack);
  ev::mapping map;
  map.rule = "eu-ai-act-baseline@1.0.0:EU12-001";
  map.framework = "eu-ai-act";
  map.ref = "Article 12(1)";
  opt.mappings.push_back(map);
  auto files = ev::build_bundle_files(make_events(2), opt).value();
  const std::string x =
      R"j("x-assay":{"mappings":[{"framework":"eu-ai-act","ref":"Article 12(1)","rule":"eu-ai-act-baseline@1.0.0:EU12-001"}],)j"
      R"("packs_applied":[{"digest":"sha256:f47d932cdad4bde369ed0a7cf26fdcf4077777296346c4102d9017edbc62a070",)"
      R"("kind":"compliance","name":"eu-ai-act-baseline","version":"1.0.0"}]}})";
  CHECK(files.manifest.size() > x.size());
  CHECK(files.manifest.compare(files.manifest.size() - x.size(), x.size(), x) == 0);
  auto m = assay::decode<assay::contracts::manifest>(files.manifest);
  REQUIRE(m.has_value());
  CHECK(assay::encode(*m).value() == files.manifest);
  CHECK(m->x_assay->packs_applied->at(0).name == "eu-ai-act-baseline");
  // The bundle verifies, and the verifier keeps the manifest.
  auto gz = ev::write_bundle(make_events(2), opt).value();
  CHECK(ev::verify_bundle_bytes(gz).has_value());
  // Without additions there is no x-assay member.
  CHECK(ev::build_bundle_files(make_events(2)).value().manifest.find("x-assay") == std::string::npos);
  // A pack the manifest contract refuses is refused before anything is written (a kind outside
  // the enum does not even compile: one_of takes only its literals).
  opt.packs_applied[0].digest = std::string("sha256:f47d");
  auto bad = ev::build_bundle_files(make_events(2), opt);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().front().code == errc::pattern_mismatch);
  CHECK(bad.error().front().pointer == "/x-assay/packs_applied/0/digest");
}

TEST_CASE("the writer refuses what evidence-event-v1 rejects: every violation, each with its pointer") {
  auto evs = make_events(5);
  evs[0].set("type", "assay.tool.decision");
  evs[0].set("data", json::parse(R"({"tool":"t","decision":"maybe","reason_code":"r"})").value());
  evs[1].set("type", "");
  evs[2].set("traceparent", "garbage");
  evs[3].set("type", "assay.profile.started");
  evs[3].set("data", json::parse(R"({"profile_name":"p","profile_version":"1","total_runs_aggregated":-1})").value());
  // A tool decision's payload recorded as a file access.
  evs[4].set("type", "assay.fs.access");
  evs[4].set("data", json::parse(R"({"tool":"t","decision":"allow","reason_code":"r"})").value());
  const auto texts = texts_of(evs);
  auto r = ev::write_bundle(views(texts));
  REQUIRE_FALSE(r.has_value());
  check_errors(
      r.error(),
      {{errc::enum_mismatch, R"("maybe" is not one of "allow", "deny", "requires_approval", "error")",
        "/0/data/decision"},
       {errc::too_short, "string is shorter than the minimum length 1", "/1/type"},
       {errc::pattern_mismatch, R"("garbage" does not match the pattern ^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$)",
        "/2/traceparent"},
       {errc::below_minimum, "-1 is less than the minimum 0", "/3/data/total_runs_aggregated"},
       {errc::missing_member, R"(required member "hits" is missing)", "/4/data/hits"}});
  // The DOM path and build_bundle_files say the same.
  CHECK(ev::write_bundle(evs).error().format() == r.error().format());
  CHECK(ev::build_bundle_files(views(texts)).error().format() == r.error().format());
  // Out of seq order: still every violation, by input position.
  const std::vector<json::value> shuffled = {evs[4], evs[0], evs[1], evs[2], evs[3]};
  auto s = ev::write_bundle(shuffled);
  REQUIRE_FALSE(s.has_value());
  REQUIRE(s.error().size() == 5);
  CHECK(s.error().items[0].pointer == "/0/data/hits");
  CHECK(s.error().items[1].pointer == "/1/data/decision");

  // Re-packing other producers' events: the payloads are not checked, the envelope still is.
  ev::bundle_options unchecked;
  unchecked.check_payloads = false;
  auto u = ev::write_bundle(views(texts), unchecked);
  REQUIRE_FALSE(u.has_value());
  check_errors(u.error(), {{errc::too_short, "string is shorter than the minimum length 1", "/1/type"},
                           {errc::pattern_mismatch,
                            R"("garbage" does not match the pattern ^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$)",
                            "/2/traceparent"}});
  evs[1].set("type", "assay.test");
  evs[2].set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  auto gz = ev::write_bundle(evs, unchecked);
  REQUIRE(gz.has_value());
  CHECK_FALSE(ev::write_bundle(evs).has_value());  // checked, it is refused
  // The verifier keeps the reference's checks: the bundle verifies; with the payload contracts,
  // the first payload that breaks one fails it.
  CHECK(ev::verify_bundle_bytes(*gz).has_value());
  ev::payload_check contracts;
  auto v = ev::verify_bundle_bytes(*gz, {}, contracts);
  REQUIRE_FALSE(v.has_value());
  CHECK(assay::name(v.error().code) == "ContractInvalidEvent");
  CHECK(v.error().message ==
        R"(line 1 of events.ndjson: seq 0 ("assay.tool.decision"): /data/decision: "maybe" is not )"
        R"(one of "allow", "deny", "requires_approval", "error")");
  CHECK(v.error().pointer == "/data/decision");
}

TEST_CASE("valid known payloads pass the writer and the payload check, beside other visitors") {
  auto evs = make_events(2);
  evs[1].set("type", "assay.fs.access");
  evs[1].set("data", json::parse(R"({"hits":3,"file":"/w/a","runs_seen":1,"collector":"x"})").value());
  auto gz = ev::write_bundle(evs);
  REQUIRE(gz.has_value());
  ev::payload_check contracts;
  std::size_t seen = 0;
  auto v = ev::verify_bundle_bytes(*gz, {}, contracts, [&](const ev::verified_event&) { ++seen; });
  REQUIRE(v.has_value());
  CHECK(seen == 2);
}

namespace {

// Events whose events.ndjson has exactly `bytes` bytes (at least a few hundred per event),
// the bulk in each event's data.note.
std::vector<std::string> events_of_size(std::size_t n, std::size_t bytes) {
  auto evs = make_events(n);
  const std::size_t base = lines_of(evs).size() + n * std::string_view(R"(,"note":"")").size();
  REQUIRE(bytes >= base);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t share = (bytes - base) / n + (i + 1 == n ? (bytes - base) % n : 0);
    evs[i].find("data")->set("note", std::string(share, static_cast<char>('a' + i % 26)));
  }
  REQUIRE(lines_of(evs).size() == bytes);
  return texts_of(evs);
}

}  // namespace

TEST_CASE("where a bundle's gzip blocks end: the first MiB of events.ndjson with what precedes it, then MiBs") {
  constexpr std::size_t mib = 1 << 20;
  CHECK(ev::detail::bundle_cuts(2048, 100, 3172) == std::vector<std::size_t>{2148, 3172});
  CHECK(ev::detail::bundle_cuts(2048, mib, 2048 + mib + 1024) == std::vector<std::size_t>{2048 + mib, 3072 + mib});
  CHECK(ev::detail::bundle_cuts(2048, mib + 1, 2048 + mib + 1535) ==
        std::vector<std::size_t>{2048 + mib, 2049 + mib, 3583 + mib});
  CHECK(ev::detail::bundle_cuts(1024, 2 * mib + 5, 1024 + 2 * mib + 1531) ==
        std::vector<std::size_t>{1024 + mib, 1024 + 2 * mib, 1029 + 2 * mib, 2555 + 2 * mib});
  // The cuts must end the input.
  const std::string_view x = "abc";
  const std::vector<std::size_t> short_cuts{2};
  CHECK(ev::gzip(std::span<const std::string_view>(&x, 1), short_cuts).error().code == errc::invalid_argument);
}

TEST_CASE("a bundle_stream writes write_bundle's bytes, at every size around its blocks, on any number of threads") {
  constexpr std::size_t mib = 1 << 20;
  for (std::size_t bytes : std::vector<std::size_t>{0, 20000 - 1, mib - 1, mib, mib + 1, 2 * mib, 3 * mib + 77777}) {
    const auto texts = bytes == 0 ? texts_of(make_events(3)) : events_of_size(bytes < 100000 ? 7 : 40, bytes);
    const auto whole = ev::write_bundle(views(texts)).value();
    CAPTURE(bytes);
    CHECK(ev::verify_bundle_bytes(whole).has_value());
    for (unsigned threads : {1u, 2u, 3u}) {
      ev::bundle_options opt;
      opt.threads = threads;
      CHECK(streamed(texts, opt).value() == whole);
    }
  }
}

TEST_CASE("a bundle_stream declines what write_bundle must sort or refuse, and reports a body it cannot write") {
  auto texts = texts_of(make_events(4));
  std::swap(texts[1], texts[2]);  // out of seq order: write_bundle sorts them
  CHECK(streamed(texts).error().message == "declined");
  CHECK(ev::write_bundle(views(texts)).has_value());

  auto evs = make_events(3);
  evs[2].set("traceparent", "garbage");  // breaks evidence-event-v1
  CHECK(streamed(texts_of(evs)).error().message == "declined");

  CHECK(streamed(std::vector<std::string>{}).error().code == ev::needs_write_bundle);  // no event

  ev::bundle_options opt;
  opt.limits.max_events = 2;
  CHECK(streamed(texts_of(make_events(3)), opt).error().message == "declined");
  const auto big = events_of_size(30, 3 << 20);
  opt = {};
  opt.limits.max_bundle_bytes = ev::write_bundle(views(big)).value().size() - 1;
  CHECK(streamed(big, opt).error().code == ev::needs_write_bundle);  // as write_bundle: too large

  // A body that cannot be written (a full disk): an I/O error, not a fault of the events.
  ev::bundle_stream s([](std::string_view) { return false; });
  for (const auto& t : big)
    s.add(t);
  auto r = s.finish();
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == errc::io_error);
  CHECK(r.error().message == "cannot write the compressed stream");
}
