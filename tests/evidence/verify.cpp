// Bundle verification (SPEC §7): every error code from a crafted bundle, each limit at its
// boundary, the reference bundles and conformance corpora, and exhaustive tamper detection.
#include "support.hpp"

#include "assay/contracts/soak_report.hpp"
#include "assay/evidence/payload_check.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "events.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

namespace ev = assay::evidence;
namespace json = assay::json;
using assay::errc;
using assay_test::bundle;
using assay_test::gz;
using assay_test::lines_of;
using assay_test::make_event;
using assay_test::make_events;
using assay_test::manifest_for;
using assay_test::pack;

namespace {

errc code_of(const std::string& gzbytes, const ev::bundle_limits& lim = {}) {
  auto r = ev::verify_bundle_bytes(gzbytes, lim);
  return r ? errc::ok : r.error().code;
}

std::string code_name(errc c) {
  return std::string(assay::name(c));
}
std::string code_name(ev::code c) {
  return std::string(ev::name(c));
}

#define CHECK_CODE(bytes, expected) CHECK_EQ(code_name(code_of(bytes)), code_name(expected))
#define CHECK_CODE_LIM(bytes, lim, expected) CHECK_EQ(code_name(code_of(bytes, lim)), code_name(expected))

// A raw tar header with a given type flag and name.
std::string raw_member(const std::string& name, char type, const std::string& body, const std::string& link = {}) {
  auto h = ev::tar_header(name, body.size()).value();
  h[156] = type;
  std::copy(link.begin(), link.end(), h.begin() + 157);
  std::fill(h.begin() + 148, h.begin() + 156, ' ');
  unsigned sum = 0;
  for (char c : h)
    sum += static_cast<unsigned char>(c);
  char buf[8];
  std::snprintf(buf, sizeof buf, "%07o", sum);
  std::copy(buf, buf + 8, h.begin() + 148);
  std::string out(h.data(), h.size());
  out += body;
  out.append((512 - body.size() % 512) % 512, '\0');
  return out;
}

}  // namespace

TEST_CASE("a written bundle verifies and reports its facts") {
  auto gzbytes = ev::write_bundle(make_events(3)).value();
  auto r = ev::verify_bundle_bytes(gzbytes);
  REQUIRE(r.has_value());
  CHECK(r->event_count == 3);
  CHECK(r->run_id == "run-1");
  CHECK(r->producer.name == "assay-test");
  CHECK(r->time_start == "2026-01-02T03:04:05Z");
  CHECK(r->bundle_id.size() == 71);
  CHECK(ev::write_bundle(make_events(3)).value() == gzbytes);  // deterministic
}

TEST_CASE("the pass gives what a wing needs: the file's, the manifest's and the events' digests, each line's number") {
  auto gzbytes = ev::write_bundle(make_events(3)).value();
  struct lines {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;  // (seq, line number)
    void on_event(const ev::verified_event& e) { seen.emplace_back(e.seq, e.line_number); }
  } v;
  auto r = ev::verify_bundle_bytes(gzbytes, {}, v);
  REQUIRE(r.has_value());
  auto sha = [](std::string_view b) { return "sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(b).hex(); };
  CHECK(r->file_sha256 == sha(gzbytes));
  CHECK(r->manifest_sha256 == sha(r->manifest));
  CHECK(r->manifest_fields.run_id == "run-1");
  CHECK(r->manifest_fields.event_count.value() == 3);
  REQUIRE(r->manifest_fields.files.events.has_value());
  const std::string listed = r->manifest_fields.files.events->sha256;
  CHECK(r->events_sha256 == (listed.rfind("sha256:", 0) == 0 ? listed : "sha256:" + listed));
  CHECK(v.seen == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 1}, {1, 2}, {2, 3}});
  // The same through a file: the digest is of the bytes read, whichever the source.
  const auto path = std::filesystem::temp_directory_path() / ("assay-verify-digest-" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out << gzbytes;
  }
  auto f = ev::verify_bundle_file(path.string());
  std::filesystem::remove(path);
  REQUIRE(f.has_value());
  CHECK(f->file_sha256 == r->file_sha256);
}

TEST_CASE("a failure of the pass is the bundle's, or a visitor's own refusal, told by its kind") {
  auto gzbytes = ev::write_bundle(make_events(3)).value();
  struct refuses {  // a limit of its own, as the OTel exporter's max_spans
    std::optional<assay::error> on_event(const ev::verified_event& e) {
      if (e.seq == 1)
        return assay::make_error(errc::above_maximum, "more than one event");
      return std::nullopt;
    }
  } own;
  auto r = ev::verify_bundle_bytes(gzbytes, {}, own);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == errc::above_maximum);
  CHECK(r.error().message == "line 2 of events.ndjson: more than one event");
  CHECK_FALSE(ev::is_verification_failure(r.error()));
  auto bad = ev::verify_bundle_bytes(gzbytes.substr(0, gzbytes.size() - 1));
  REQUIRE_FALSE(bad.has_value());
  CHECK(ev::is_verification_failure(bad.error()));
  CHECK_FALSE(ev::is_verification_failure(assay::make_error(errc::io_error, "cannot read")));
}

TEST_CASE("a bundle of many inflate blocks verifies (blocks are recycled)") {
  auto events = make_events(6000);
  for (auto& e : events)
    e.find("data")->set("pad", std::string(200 + e.find("assayseq")->as_number(), 'p'));
  auto gzbytes = ev::write_bundle(events).value();
  std::size_t seen = 0;
  auto r = ev::verify_bundle_bytes(gzbytes, {}, [&](const ev::verified_event&) { ++seen; });
  REQUIRE(r.has_value());
  CHECK(r->event_count == 6000);
  CHECK(seen == 6000);
}

TEST_CASE("the reference determinism vector") {
  auto e =
      json::parse(
          R"({"specversion":"1.0","type":"assay.determinism.test","source":"urn:assay:determinism-test",)"
          R"("id":"run_golden_test_12345:0","time":"2023-11-14T22:13:20Z","datacontenttype":"application/json",)"
          R"("assayrunid":"run_golden_test_12345","assayseq":0,"assayproducer":"assay-evidence-test",)"
          R"("assayproducerversion":"0.1.0-test","assaygit":"abc1234","assaypii":false,"assaysecrets":false,)"
          R"("data":{"seq":0,"message":"This is a deterministic test event","nested":{"z_field":3,"a_field":1,"m_field":2}}})")
          .value();
  CHECK(ev::content_hash(e).value() == "sha256:0c441e99738e5d82e386f794c1ffc6686723715d85e3c7528936b481b61abf2a");
  auto files = ev::build_bundle_files({e}).value();
  CHECK(files.run_root == "sha256:736ad83b9382697228ab6d7ef6e2821f96d9a29ff7ac2adeacbec076d10c5535");
  CHECK(files.manifest.find(
            "\"producer\":{\"git\":\"abc1234\",\"name\":\"assay-evidence-test\",\"version\":\"0.1.0-test\"}") !=
        std::string::npos);
}

TEST_CASE("container errors") {
  const std::string events = lines_of(make_events(2));
  const std::string man = json::to_canonical(manifest_for(events)).value();
  CHECK_CODE(pack({{"manifest.json", man}, {"events.ndjson", events}}), errc::ok);
  CHECK_CODE(pack({{"events.ndjson", events}, {"manifest.json", man}}), ev::code::ContractFileOrder);
  CHECK_CODE(pack({{"manifest.json", man}}), ev::code::ContractMissingFile);
  CHECK_CODE(pack({}), ev::code::ContractMissingManifest);
  CHECK_CODE(pack({{"manifest.json", man}, {"events.ndjson", events}, {"extra.txt", "x"}}),
             ev::code::ContractUnexpectedFile);
  CHECK_CODE(pack({{"manifest.json", man}, {"manifest.json", man}}), ev::code::ContractDuplicateFile);
  CHECK_CODE(pack({{"manifest.json", man}, {"../events.ndjson", events}}), ev::code::SecurityPathTraversal);
  CHECK_CODE(pack({{"manifest.json", man}, {"a/../../events.ndjson", events}}), ev::code::SecurityPathTraversal);
  CHECK_CODE(pack({{"/manifest.json", man}}), ev::code::SecurityAbsolutePath);
  CHECK_CODE(pack({{"./manifest.json", man}}), ev::code::ContractUnexpectedFile);
  // links, directories, devices
  std::string end(1024, '\0');
  CHECK_CODE(gz(raw_member("manifest.json", '2', "", "/etc/passwd") + end), ev::code::SecurityPathTraversal);
  CHECK_CODE(gz(raw_member("manifest.json", '0', man) + raw_member("events.ndjson", '1', "", "manifest.json") + end),
             ev::code::SecurityPathTraversal);
  CHECK_CODE(gz(raw_member("manifest.json", '5', "") + end), ev::code::ContractUnexpectedFile);
  CHECK_CODE(gz(raw_member("manifest.json", '3', "") + end), ev::code::ContractUnexpectedFile);
  // a tar header whose checksum is wrong
  std::string bad = raw_member("manifest.json", '0', man) + end;
  bad[148] = '7';
  CHECK_CODE(gz(bad), ev::code::IntegrityTar);
}

// A header's checksum, recomputed after an edit.
void reseal(std::string& tar, std::size_t at) {
  std::fill(tar.begin() + static_cast<std::ptrdiff_t>(at + 148), tar.begin() + static_cast<std::ptrdiff_t>(at + 156),
            ' ');
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i)
    sum += static_cast<unsigned char>(tar[at + i]);
  char buf[8];
  std::snprintf(buf, sizeof buf, "%07o", sum);
  std::copy(buf, buf + 8, tar.begin() + static_cast<std::ptrdiff_t>(at + 148));
}

// A pax record "<len> key=value\n".
std::string pax(const std::string& key, const std::string& value) {
  const std::string body = " " + key + "=" + value + "\n";
  std::size_t len = body.size() + 1;
  while (std::to_string(len).size() + body.size() != len)
    ++len;
  return std::to_string(len) + body;
}

std::string error_of(const std::string& gzbytes) {
  auto r = ev::verify_bundle_bytes(gzbytes);
  return r ? std::string("ok") : std::string(assay::name(r.error().code)) + ": " + r.error().message;
}

TEST_CASE("tar: the bytes verified are the bytes every reader extracts") {
  const std::string events = lines_of(make_events(2));
  const std::string man = json::to_canonical(manifest_for(events)).value();
  const std::string end(1024, '\0');
  const std::string good = raw_member("manifest.json", '0', man) + raw_member("events.ndjson", '0', events) + end;
  REQUIRE(error_of(gz(good)) == "ok");

  // Names from a GNU long name, a pax record and a POSIX ustar prefix are read as every reader does.
  CHECK(error_of(gz(raw_member("././@LongLink", 'L', std::string("manifest.json") + '\0') +
                    raw_member("ignored", '0', man) + raw_member("events.ndjson", '0', events) + end)) == "ok");
  CHECK(error_of(gz(raw_member("PaxHeaders/x", 'x', pax("path", "manifest.json") + pax("mtime", "0")) +
                    raw_member("ignored", '0', man) + raw_member("events.ndjson", '0', events) + end)) == "ok");
  {
    std::string posix = raw_member("events.ndjson", '0', events);
    std::memcpy(posix.data() + 257,
                "ustar\0"
                "00",
                8);
    std::memcpy(posix.data() + 345, "dir", 3);
    reseal(posix, 0);
    CHECK(error_of(gz(raw_member("manifest.json", '0', man) + posix + end)) ==
          "ContractUnexpectedFile: unexpected archive member \"dir/events.ndjson\"");
  }
  // The archive ends at its first zero block: what follows is never read; so does a stream that
  // ends on a header boundary.
  CHECK(error_of(gz(good + raw_member("extra.txt", '0', "x"))) == "ok");
  CHECK(error_of(gz(raw_member("manifest.json", '0', man) + raw_member("events.ndjson", '0', events))) == "ok");

  // Refused: a sparse member (old GNU 'S', and pax GNU.sparse.*), whose data blocks are not its
  // bytes in order.
  CHECK(error_of(gz(raw_member("manifest.json", '0', man) + raw_member("events.ndjson", 'S', events) + end)) ==
        "IntegrityTar: archive member \"events.ndjson\" is a sparse file (its data blocks are not its bytes in order)");
  CHECK(error_of(gz(raw_member("manifest.json", '0', man) +
                    raw_member("PaxHeaders/x", 'x', pax("GNU.sparse.map", "0,10")) +
                    raw_member("events.ndjson", '0', events) + end)) ==
        "IntegrityTar: archive member \"events.ndjson\" is a sparse file (its data blocks are not its bytes in order)");
  // A NUL inside a name from a pax record (a reader that cuts there sees manifest.json, Python's
  // tarfile a traversal) or a GNU long name.
  CHECK(
      error_of(gz(raw_member("PaxHeaders/x", 'x', pax("path", std::string("manifest.json\0../../../../tmp/evil", 34))) +
                  raw_member("manifest.json", '0', man) + raw_member("events.ndjson", '0', events) + end)) ==
      "IntegrityTar: a pax extended header has a NUL inside a record");
  CHECK(error_of(gz(raw_member("././@LongLink", 'L', std::string("manifest.json\0../../x", 21)) +
                    raw_member("manifest.json", '0', man) + raw_member("events.ndjson", '0', events) + end)) ==
        "IntegrityTar: a GNU long name holds a NUL");
  // A malformed pax record (this one's length is off by one: it would hide path=../../x).
  for (const std::string& bad :
       {std::string("17 path=../../x\n"), std::string("x path=y\n"), std::string("015 path=../../x\n"),
        std::string("16 path../../x\n"), pax("path", "manifest.json") + "garbage"}) {
    CAPTURE(bad);
    CHECK(error_of(gz(raw_member("PaxHeaders/x", 'x', bad) + raw_member("manifest.json", '0', man) +
                      raw_member("events.ndjson", '0', events) + end)) ==
          "IntegrityTar: a pax extended header has a malformed record");
  }
  CHECK(error_of(gz(raw_member("GlobalHead", 'g', pax("path", "manifest.json")) + good)) ==
        "IntegrityTar: a global pax header sets \"path\" for every member");
  CHECK(error_of(gz(raw_member("GlobalHead", 'g', pax("comment", "fine")) + good)) == "ok");
  // An unknown type flag is not a regular file.
  for (const char t : {'Z', 'V', 'M', 'N', '8', 'A'}) {
    CAPTURE(t);
    CHECK(error_of(gz(raw_member("manifest.json", t, man) + raw_member("events.ndjson", '0', events) + end)) ==
          "IntegrityTar: archive member \"manifest.json\" has an unknown type");
  }
  // An extended header with no member after it; a stream cut inside a member or a header.
  CHECK(error_of(gz(raw_member("manifest.json", '0', man) + raw_member("PaxHeaders/x", 'x', pax("path", "a")) + end)) ==
        "IntegrityTar: the archive ends after an extended header, without its member");
  CHECK(error_of(gz(good.substr(0, 512 + 10))) == "IntegrityTar: the archive ends inside member \"manifest.json\"");
  CHECK(error_of(gz(good.substr(0, 100))) == "IntegrityTar: the archive ends inside a header");
  {
    std::string magic = good;
    magic[257] = 'x';
    reseal(magic, 0);
    CHECK(error_of(gz(magic)) == "IntegrityTar: a tar header is neither ustar nor GNU (its magic is wrong)");
    std::string size = good;
    size[124] = '9';
    reseal(size, 0);
    CHECK(error_of(gz(size)) == "IntegrityTar: a tar header has an invalid size field");
  }
}

TEST_CASE("events.ndjson messages: the line an overflow is on; whitespace alone is a blank line") {
  const std::string events = lines_of(make_events(2));
  const std::size_t first = events.find('\n');
  ev::bundle_limits lim;
  lim.max_line_bytes = first - 1;  // line 1 is one byte too long
  auto r = ev::verify_bundle_bytes(bundle(events), lim);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "line 1 of events.ndjson is longer than " + std::to_string(first - 1) + " bytes");
  for (const std::string blank : {"", " ", "\t \t", "  \r"}) {
    CAPTURE(blank);
    const std::string with_blank = events.substr(0, first + 1) + blank + "\n" + events.substr(first + 1);
    r = ev::verify_bundle_bytes(bundle(with_blank));
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(r.error().code) == "ContractInvalidEvent");
    CHECK(r.error().message == "line 2 of events.ndjson is blank");
  }
}

TEST_CASE("integer members are read as the reference reads them: integer tokens only") {
  const std::string events = lines_of(make_events(2));
  REQUIRE(error_of(bundle(events)) == "ok");
  // assayseq: 0.0, 1e0, -0, a fraction too small to see, an underflow, past 2^53.
  for (const std::string seq : {"0.0", "0e0", "0.0000000000000000001", "1e-400", "-0.0"}) {
    CAPTURE(seq);
    std::string edited = events;
    const std::size_t at = edited.find("\"assayseq\":0");
    REQUIRE(at != std::string::npos);
    edited.replace(at, 12, "\"assayseq\":" + seq);
    CHECK(error_of(bundle(edited)) ==
          "ContractInvalidJson: line 1 of events.ndjson: member \"assayseq\" must be an integer");
  }
  for (const std::string seq : {"-0", "9007199254740993", "9007199254740992"}) {
    CAPTURE(seq);
    std::string edited = events;
    const std::size_t at = edited.find("\"assayseq\":0");
    edited.replace(at, 12, "\"assayseq\":" + seq);
    CHECK(error_of(bundle(edited)) ==
          "ContractInvalidJson: line 1 of events.ndjson: member \"assayseq\" must be an integer >= 0");
  }
  // The manifest's schema_version, event_count and files bytes.
  const std::string man = json::to_canonical(manifest_for(events)).value();
  auto with = [&](const std::string& from, const std::string& to) {
    std::string m = man;
    const std::size_t at = m.find(from);
    REQUIRE(at != std::string::npos);
    m.replace(at, from.size(), to);
    return error_of(pack({{"manifest.json", m}, {"events.ndjson", events}}));
  };
  CHECK(with("\"schema_version\":1", "\"schema_version\":1.0") ==
        "ContractInvalidJson: manifest.json: \"schema_version\" must be an integer");
  CHECK(with("\"schema_version\":1", "\"schema_version\":2") ==
        "ContractSchemaVersion: manifest.json: unsupported schema_version (1 is supported)");
  CHECK(with("\"event_count\":2", "\"event_count\":2.0") ==
        "ContractInvalidJson: manifest.json: \"event_count\" must be an integer");
  CHECK(with("\"event_count\":2", "\"event_count\":2e0") ==
        "ContractInvalidJson: manifest.json: \"event_count\" must be an integer");
  const std::string bytes = "\"bytes\":" + std::to_string(events.size());
  CHECK(with(bytes, bytes + ".0") ==
        "ContractInvalidJson: manifest.json: \"files.events.ndjson\" must have an integer \"bytes\" and a string "
        "\"sha256\"");
}

TEST_CASE("tar: the code is a function of the bytes, not of the inflater thread's timing") {
  // A bad tar header, then 600 KiB more, then a bad CRC: the gzip stream is bad, whichever the
  // tar reader meets first.
  std::string tar(512, 'x');
  tar += std::string(600 << 10, 'y');
  std::string bytes = gz(tar);
  bytes[bytes.size() - 8] ^= 1;
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    REQUIRE(code_name(code_of(bytes)) == "IntegrityGzip");
  }
}

TEST_CASE("gzip errors: truncation, CRC, length, trailing bytes, not gzip") {
  const std::string good = bundle(lines_of(make_events(2)));
  REQUIRE(code_of(good) == errc::ok);
  for (std::size_t cut :
       {std::size_t{1}, std::size_t{9}, std::size_t{20}, good.size() / 2, good.size() - 8, good.size() - 1}) {
    CAPTURE(cut);
    CHECK_CODE(good.substr(0, cut), ev::code::IntegrityGzip);
  }
  std::string crc = good;
  crc[crc.size() - 8] ^= 1;  // CRC32
  CHECK_CODE(crc, ev::code::IntegrityGzip);
  std::string len = good;
  len[len.size() - 1] ^= 1;  // ISIZE
  CHECK_CODE(len, ev::code::IntegrityGzip);
  CHECK_CODE(good + "x", ev::code::IntegrityGzip);
  CHECK_CODE(std::string("not a gzip stream at all"), ev::code::IntegrityGzip);
  CHECK_CODE(std::string(), ev::code::IntegrityGzip);
}

TEST_CASE("manifest errors") {
  const std::string events = lines_of(make_events(2));
  CHECK_CODE(pack({{"manifest.json", "{not json"}, {"events.ndjson", events}}), ev::code::ContractInvalidJson);
  CHECK_CODE(pack({{"manifest.json", "{\"a\":1,\"a\":1}"}, {"events.ndjson", events}}), ev::code::ContractInvalidJson);
  CHECK_CODE(bundle(events, [](json::value& m) { m.set("schema_version", 2); }), ev::code::ContractSchemaVersion);
  CHECK_CODE(bundle(events, [](json::value& m) { m.set("run_id", 5); }), ev::code::ContractInvalidJson);
  CHECK_CODE(bundle(events, [](json::value& m) { m.find("files")->as_object().clear(); }),
             ev::code::ContractMissingFile);
  std::string deep = "{\"x\":" + std::string(64, '[') + std::string(64, ']') + "}";  // 65 levels
  CHECK_CODE(pack({{"manifest.json", deep}, {"events.ndjson", events}}), ev::code::LimitJsonDepth);
}

TEST_CASE("events errors, in the order of SPEC §7") {
  const auto evs = make_events(3);
  const std::string good = lines_of(evs);
  CHECK_CODE(bundle(good), errc::ok);
  // declared tar size differs from files.bytes
  CHECK_CODE(bundle(good,
                    [](json::value& m) {
                      auto* f = m.find("files")->find("events.ndjson");
                      f->set("bytes", f->find("bytes")->as_number() + 1);
                    }),
             ev::code::IntegrityFileSizeMismatch);
  CHECK_CODE(bundle("\xEF\xBB\xBF" + good), ev::code::ContractInvalidJson);
  CHECK_CODE(bundle(good + "\n"), ev::code::ContractInvalidEvent);  // a blank line
  CHECK_CODE(bundle("{" + good), ev::code::ContractInvalidJson);
  // CRLF and a missing final newline are accepted
  std::string crlf;
  for (char c : good)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK_CODE(bundle(crlf), errc::ok);
  CHECK_CODE(bundle(good.substr(0, good.size() - 1)), errc::ok);

  auto with = [&](std::size_t i, const std::function<void(json::value&)>& edit, bool rehash = true) {
    auto copy = evs;
    edit(copy[i]);
    std::string out;
    for (std::size_t k = 0; k < copy.size(); ++k) {
      if (rehash || k != i)
        copy[k].set("assaycontenthash", ev::content_hash(copy[k]).value());
      out += json::to_canonical(copy[k]).value() + "\n";
    }
    return out;
  };
  CHECK_CODE(bundle(with(1, [](json::value& e) { e.set("specversion", "0.3"); })), ev::code::ContractSchemaVersion);
  // content hash: wrong, uppercase, absent
  CHECK_CODE(bundle(with(
                 1, [](json::value& e) { e.find("data")->set("n", 99); }, false)),
             ev::code::IntegrityEventHash);
  {
    auto copy = evs;
    for (auto& e : copy)
      e.set("assaycontenthash", ev::content_hash(e).value());
    std::string h = copy[1].find("assaycontenthash")->as_string();
    for (std::size_t i = 7; i < h.size(); ++i)
      h[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(h[i])));
    copy[1].set("assaycontenthash", h);
    std::string out;
    for (auto& e : copy)
      out += json::to_canonical(e).value() + "\n";
    CHECK_CODE(bundle(out), ev::code::IntegrityEventHash);
    copy[1].as_object().erase(std::find_if(copy[1].as_object().begin(), copy[1].as_object().end(),
                                           [](const json::member& m) { return m.name == "assaycontenthash"; }));
    out.clear();
    for (auto& e : copy)
      out += json::to_canonical(e).value() + "\n";
    CHECK_CODE(bundle(out), ev::code::IntegrityEventHash);
  }
  auto reseq = [](std::uint64_t s) {
    return [s](json::value& e) {
      e.set("assayseq", static_cast<double>(s));
      e.set("id", "run-1:" + std::to_string(s));
    };
  };
  CHECK_CODE(bundle(with(0, reseq(1))), ev::code::ContractSequenceStart);
  CHECK_CODE(bundle(with(2, reseq(3))), ev::code::ContractSequenceGap);
  CHECK_CODE(bundle(with(1,
                         [](json::value& e) {
                           e.set("assayrunid", "run-2");
                           e.set("id", "run-2:1");
                         })),
             ev::code::ContractRunIdMismatch);
  CHECK_CODE(bundle(with(1, [](json::value& e) { e.set("source", "urn:assay:other"); })),
             ev::code::ContractInvalidEvent);
  CHECK_CODE(bundle(with(0, [](json::value& e) { e.set("source", "no-colon"); })), ev::code::ContractInvalidEvent);
  CHECK_CODE(bundle(with(0, [](json::value& e) { e.set("source", ":leading"); })), ev::code::ContractInvalidEvent);
  CHECK_CODE(bundle(with(1, [](json::value& e) { e.set("id", "run-1:7"); })), ev::code::ContractInvalidEvent);
  {
    std::vector<json::value> colon{make_event(0, "a:b")};
    CHECK_CODE(bundle(lines_of(colon)), ev::code::ContractInvalidEvent);
  }
  // step 5: bytes and sha256 of the raw file
  CHECK_CODE(bundle(good,
                    [](json::value& m) {
                      m.find("files")->find("events.ndjson")->set("sha256", "sha256:" + std::string(64, '0'));
                    }),
             ev::code::IntegrityManifestHash);
  CHECK_CODE(bundle(good,
                    [](json::value& m) {
                      auto* f = m.find("files")->find("events.ndjson");
                      f->set("sha256", f->find("sha256")->as_string().substr(7));  // no prefix: accepted
                    }),
             errc::ok);
  {
    auto* f = +[](json::value& m) {
      auto* s = m.find("files")->find("events.ndjson");
      std::string h = s->find("sha256")->as_string();
      for (std::size_t i = 7; i < h.size(); ++i)
        h[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(h[i])));
      s->set("sha256", h);
    };
    CHECK_CODE(bundle(good, f), ev::code::IntegrityManifestHash);
  }
  // step 6
  CHECK_CODE(bundle("", [](json::value& m) { m.set("event_count", 0); }), ev::code::ContractInvalidEvent);
  CHECK_CODE(bundle(good, [](json::value& m) { m.set("event_count", 4); }), ev::code::ContractSequenceGap);
  CHECK_CODE(bundle(good,
                    [](json::value& m) {
                      m.set("run_root", "sha256:" + std::string(64, 'a'));
                      m.set("bundle_id", "sha256:" + std::string(64, 'a'));
                    }),
             ev::code::IntegrityRunRootMismatch);
  CHECK_CODE(bundle(good, [](json::value& m) { m.set("bundle_id", "sha256:" + std::string(64, 'b')); }),
             ev::code::ContractBundleIdMismatch);
}

TEST_CASE("each limit at its boundary") {
  const std::string events = lines_of(make_events(3));
  const std::string man = json::to_canonical(manifest_for(events)).value();
  const std::string b = pack({{"manifest.json", man}, {"events.ndjson", events}});
  ev::bundle_limits lim;

  lim = {};
  lim.max_bundle_bytes = b.size();
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_bundle_bytes = b.size() - 1;
  CHECK_CODE_LIM(b, lim, ev::code::LimitBundleBytes);

  const std::size_t decoded =
      man.size() + events.size() + 512 * 2 + (512 - man.size() % 512) % 512 + (512 - events.size() % 512) % 512 + 1024;
  lim = {};
  lim.max_decode_bytes = decoded;
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_decode_bytes = decoded - 1;
  CHECK_CODE_LIM(b, lim, ev::code::LimitDecodeBytes);

  lim = {};
  lim.max_path_len = 13;  // "manifest.json", "events.ndjson"
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_path_len = 12;
  CHECK_CODE_LIM(b, lim, ev::code::LimitPathLength);

  lim = {};
  lim.max_manifest_bytes = man.size();
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_manifest_bytes = man.size() - 1;
  CHECK_CODE_LIM(b, lim, ev::code::LimitFileSize);

  lim = {};
  lim.max_events_bytes = events.size();
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_events_bytes = events.size() - 1;
  CHECK_CODE_LIM(b, lim, ev::code::LimitFileSize);

  lim = {};
  lim.max_events = 3;
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_events = 2;
  CHECK_CODE_LIM(b, lim, ev::code::LimitTotalEvents);

  std::size_t longest = 0;
  for (std::size_t start = 0; start < events.size();) {
    const std::size_t nl = events.find('\n', start);
    longest = std::max(longest, nl - start);
    start = nl + 1;
  }
  lim = {};
  lim.max_line_bytes = longest;
  CHECK_CODE_LIM(b, lim, errc::ok);
  lim.max_line_bytes = longest - 1;
  CHECK_CODE_LIM(b, lim, ev::code::LimitLineBytes);

  // json depth: data nested to 63 arrays inside the event object = 64 levels
  auto nested = [](int levels) {
    auto e = make_event(0);
    json::value v = json::array{};
    for (int i = 1; i < levels; ++i)
      v = json::array{std::move(v)};
    e.set("data", std::move(v));
    return lines_of({e});
  };
  CHECK_CODE(bundle(nested(63)), errc::ok);
  CHECK_CODE(bundle(nested(64)), ev::code::LimitJsonDepth);

  // a gzip bomb stops at max_decode_bytes with flat memory
  std::string zeros(64 << 20, '\0');
  std::string bomb = gz(zeros);
  lim = {};
  lim.max_decode_bytes = 1 << 20;
  CHECK_CODE_LIM(bomb, lim, ev::code::LimitDecodeBytes);
}

TEST_CASE("limits from JSON: any of the eight members, the others at their defaults") {
  auto ok = ev::bundle_limits::from_json(
      R"({"max_bundle_bytes":1,"max_decode_bytes":2,"max_manifest_bytes":3,"max_events_bytes":4,"max_events":5,)"
      R"("max_line_bytes":6,"max_path_len":7,"max_json_depth":8})");
  REQUIRE(ok.has_value());
  CHECK(ok->max_events == 5);
  CHECK(ok->max_json_depth == 8);
  auto some = ev::bundle_limits::from_json(R"({"max_events":5,"max_json_depth":9})");
  REQUIRE(some.has_value());
  CHECK(some->max_events == 5);
  CHECK(some->max_json_depth == 9);
  const ev::bundle_limits defaults;
  CHECK(some->max_bundle_bytes == defaults.max_bundle_bytes);
  CHECK(some->max_decode_bytes == defaults.max_decode_bytes);
  CHECK(some->max_manifest_bytes == defaults.max_manifest_bytes);
  CHECK(some->max_events_bytes == defaults.max_events_bytes);
  CHECK(some->max_line_bytes == defaults.max_line_bytes);
  CHECK(some->max_path_len == defaults.max_path_len);
  auto none = ev::bundle_limits::from_json("{}");
  REQUIRE(none.has_value());
  CHECK(none->max_events == 100000u);
  CHECK(none->max_json_depth == 64u);
  // Still strict: unknown members, wrong types, values below 1, not an object.
  auto unknown = ev::bundle_limits::from_json(R"({"max_events":5,"max_evnets":6})");
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().code == errc::unknown_member);
  CHECK(unknown.error().pointer == "/max_evnets");
  CHECK(unknown.error().message == "unknown member \"max_evnets\" (not allowed here)");
  auto zero = ev::bundle_limits::from_json(R"({"max_line_bytes":0})");
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().code == errc::below_minimum);
  CHECK(zero.error().pointer == "/max_line_bytes");
  CHECK(ev::bundle_limits::from_json(R"({"max_events":"5"})").error().code == errc::type_mismatch);
  CHECK(ev::bundle_limits::from_json("[]").error().code == errc::type_mismatch);
  CHECK(ev::bundle_limits::from_json(
            R"({"max_bundle_bytes":1,"max_decode_bytes":2,"max_manifest_bytes":3,"max_events_bytes":4,"max_events":5,)"
            R"("max_line_bytes":6,"max_path_len":7,"max_json_depth":8,"other":1})")
            .error()
            .code == errc::unknown_member);
  CHECK(ev::bundle_limits::from_json(
            R"({"max_bundle_bytes":0,"max_decode_bytes":2,"max_manifest_bytes":3,"max_events_bytes":4,"max_events":5,)"
            R"("max_line_bytes":6,"max_path_len":7,"max_json_depth":8})")
            .error()
            .pointer == "/max_bundle_bytes");
}

TEST_CASE("tamper: flipping any single byte of events.ndjson is detected") {
  const std::string events = lines_of(make_events(2));
  const std::string man = json::to_canonical(manifest_for(events)).value();
  REQUIRE(code_of(pack({{"manifest.json", man}, {"events.ndjson", events}})) == errc::ok);
  std::size_t undetected = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    for (unsigned char bit : {0x01, 0x20, 0x80}) {
      std::string t = events;
      t[i] = static_cast<char>(t[i] ^ bit);
      if (code_of(pack({{"manifest.json", man}, {"events.ndjson", t}})) == errc::ok)
        ++undetected;
    }
  }
  CHECK(undetected == 0);
}

TEST_CASE("the reference's bundles and conformance corpora" * doctest::test_suite("conformance")) {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return;
  const auto up = dir / "assay-upstream";
  CHECK(ev::verify_bundle_file((up / "bundles" / "test-bundle.tar.gz").string()).has_value());
  CHECK(ev::verify_bundle_file((up / "bundles" / "demo-bundle.tar.gz").string()).has_value());
  CHECK(ev::verify_bundle_file((up / "bundles" / "invalid-manifest.bundle.tar.gz").string()).error().code ==
        ev::code::ContractInvalidJson);
  // With the payload contracts (verify --contracts), both fail at their first payload that breaks
  // one: the reference writes fixtures that are not the payloads of SPEC §8.
  ev::payload_check contracts;
  auto t = ev::verify_bundle_file((up / "bundles" / "test-bundle.tar.gz").string(), {}, contracts);
  REQUIRE_FALSE(t.has_value());
  CHECK(ev::name(ev::code::ContractInvalidEvent) == assay::name(t.error().code));
  // (Their other members, build_id and the rest, are additive: kept, never refused.)
  CHECK(t.error().message == R"(line 1 of events.ndjson: seq 0 ("assay.profile.started"): /data/profile_name: )"
                             R"(required member "profile_name" is missing (and 2 more))");
  auto d = ev::verify_bundle_file((up / "bundles" / "demo-bundle.tar.gz").string(), {}, contracts);
  REQUIRE_FALSE(d.has_value());
  CHECK(d.error().message == R"(line 2 of events.ndjson: seq 1 ("assay.profile.finished"): /data/integrity_scope: )"
                             R"(expected a string, found null (and 1 more))");
  std::size_t vectors = 0;
  for (const char* corpus : {"conformance-v0", "conformance-v1"}) {
    auto manifest = json::parse(assay_test::read_file(up / corpus / "MANIFEST.json")).value();
    for (const auto& v : manifest.find("vectors")->as_array()) {
      const std::string id = v.find("id")->as_string();
      const std::string want = v.find("expected")->find("bundle_integrity")->as_string();
      auto r = ev::verify_bundle_file((up / corpus / (id + ".bundle.tar.gz")).string());
      CAPTURE(id);
      CHECK((r ? "pass" : "fail") == want);
      if (id == "bad-101-tampered-bundle")
        CHECK(r.error().code == ev::code::IntegrityEventHash);
      if (id == "bad-109-bundle-id-mismatch")
        CHECK(r.error().code == ev::code::ContractBundleIdMismatch);
      ++vectors;
    }
  }
  CHECK(vectors == 21);
}

TEST_CASE("every reference event stream recomputes and re-bundles" * doctest::test_suite("conformance")) {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return;
  std::size_t files = 0, lines = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir / "assay-upstream" / "ndjson")) {
    std::vector<json::value> events;
    std::istringstream in(assay_test::read_file(f.path()));
    std::string line;
    while (std::getline(in, line)) {
      auto d = json::document::parse(line).value();
      auto v = json::parse(line).value();
      CHECK(ev::content_hash(d).value() == v.find("assaycontenthash")->as_string());
      CHECK(ev::content_hash(v).value() == v.find("assaycontenthash")->as_string());
      CHECK(json::to_canonical(v).value() == line);  // the lines are canonical
      events.push_back(std::move(v));
      ++lines;
    }
    // Other producers' events, re-packed with every check (payloads included: SPEC §8), and
    // verified with the payload contracts too. (None of these streams holds a type the library
    // knows; the known types' additive members are exercised in tests/lint/engine_reference.cpp.)
    for (const auto& e : events)
      CHECK(assay::contracts::find_event_type(e.find("type")->as_string()) == nullptr);
    auto gzbytes = ev::write_bundle(events);
    CAPTURE(f.path().filename().string());
    REQUIRE_MESSAGE(gzbytes.has_value(), (gzbytes ? std::string() : gzbytes.error().format()));
    ev::payload_check contracts;
    CHECK(ev::verify_bundle_bytes(*gzbytes, {}, contracts).has_value());
    ++files;
  }
  CHECK(files == 33);
  CHECK(lines > 33);
}

TEST_CASE("the reference's own bundles re-written give the same manifest and events bytes" *
          doctest::test_suite("conformance")) {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return;
  for (const char* name : {"test-bundle.tar.gz", "demo-bundle.tar.gz"}) {
    std::string manifest, events_bytes;
    std::vector<json::value> events;
    auto r = ev::verify_bundle_file((dir / "assay-upstream" / "bundles" / name).string(), {},
                                    [&](const ev::verified_event& e) {
                                      events.push_back(json::parse(e.line).value());
                                      events_bytes.append(e.line).append("\n");
                                    });
    REQUIRE(r.has_value());
    ev::bundle_options as_they_are;
    as_they_are.check_payloads = false;
    auto files = ev::build_bundle_files(events, as_they_are).value();
    CAPTURE(name);
    CHECK_FALSE(ev::build_bundle_files(events).has_value());  // their payloads break their contracts
    CHECK(files.manifest == r->manifest);
    CHECK(files.events == events_bytes);
  }
}

namespace {

// A visitor with every member: what it saw, in order.
struct recording_visitor {
  std::vector<std::string> seen;
  void on_manifest(const ev::bundle_manifest& m) { seen.push_back("manifest " + m.fields.run_id); }
  void on_event(const ev::verified_event& e) {
    seen.push_back("event " + std::to_string(e.seq) + " " + std::string(e.type) + " " + std::string(e.content_hash));
  }
  void on_end(const ev::verified_bundle& b) { seen.push_back("end " + std::to_string(b.event_count)); }
};

}  // namespace

TEST_CASE("visitors: several in one pass, each member optional, events only once verified") {
  auto evs = make_events(4);
  evs[2].set("subject", "tool:x");
  const std::string gzbytes = ev::write_bundle(evs).value();
  recording_visitor all;
  std::vector<std::string> lines;
  std::vector<std::uint64_t> seqs;
  struct {
    std::size_t data_members = 0;
    std::optional<std::string> subject;
    void on_event(const ev::verified_event& e) {
      data_members += e.doc.nodes()[e.data].count;
      if (e.subject)
        subject = std::string(*e.subject);
    }
  } by_member;
  auto r = ev::verify_bundle_bytes(gzbytes, {}, all, by_member, [&](const ev::verified_event& e) {
    lines.emplace_back(e.line);
    seqs.push_back(e.seq);
    CHECK(e.id == "run-1:" + std::to_string(e.seq));
    CHECK(e.run_id == "run-1");
    CHECK(e.source == "urn:assay:test");
    CHECK(e.time == "2026-01-02T03:04:05Z");
    CHECK(ev::content_hash(e.doc).value() == e.content_hash);
  });
  REQUIRE(r.has_value());
  REQUIRE(all.seen.size() == 6);
  CHECK(all.seen.front() == "manifest run-1");
  CHECK(all.seen.back() == "end 4");
  for (std::uint64_t i = 0; i < 4; ++i) {
    CHECK(all.seen[1 + i].rfind("event " + std::to_string(i) + " assay.test sha256:", 0) == 0);
    CHECK(seqs[i] == i);
  }
  std::string joined;
  for (const auto& l : lines)
    joined += l + "\n";
  CHECK(joined == ev::build_bundle_files(evs).value().events);
  CHECK(by_member.data_members == 8);  // {"n","s"} in each event's data
  CHECK(by_member.subject == "tool:x");

  // A bundle that fails at seq 2: the visitors saw the manifest and seq 0 and 1, and no end.
  std::string events = lines_of(make_events(4));
  const std::size_t third = events.find("\"assayseq\":2");
  events[events.find("\"n\":2", third) + 4] = '7';  // still JSON, the content hash no longer matches
  recording_visitor partial;
  auto bad = ev::verify_bundle_bytes(bundle(events), {}, partial);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().code == ev::code::IntegrityEventHash);
  REQUIRE(partial.seen.size() == 3);
  CHECK(partial.seen[2].rfind("event 1 ", 0) == 0);
}

TEST_CASE("manifest.json as read: open where the reference is, the reference's codes otherwise") {
  const std::string events = lines_of(make_events(2));
  const json::value honest = manifest_for(events);
  auto read = [&](const std::function<void(json::value&)>& tweak) {
    json::value m = honest;
    tweak(m);
    return ev::read_manifest(json::to_canonical(m).value());
  };
  auto code_and_message = [&](const std::function<void(json::value&)>& tweak) {
    auto r = read(tweak);
    REQUIRE_FALSE(r.has_value());
    return code_name(r.error().code) + ": " + r.error().message;
  };
  // Accepted: members it does not know, no git, a sha256 without its prefix.
  auto m = read([](json::value& v) {
    v.set("x-later", json::parse(R"({"a":[1,{"b":null}]})").value());
    v.find("producer")->set("build", "ci");
    v.find("files")->set("other.txt", 1);
    auto* f = v.find("files")->find("events.ndjson");
    f->set("sha256", f->find("sha256")->as_string().substr(7));
  });
  REQUIRE(m.has_value());
  CHECK(m->run_id == "run-1");
  CHECK(m->event_count == 2);
  CHECK_FALSE(m->producer.git.has_value());
  CHECK(m->files.events->bytes == static_cast<std::int64_t>(events.size()));
  CHECK(m->files.events->sha256.size() == 64);
  CHECK(m->other.count("x-later") == 1);
  // Every manifest the writer writes reads back with its facts.
  auto files = ev::build_bundle_files(make_events(2)).value();
  auto back = ev::read_manifest(files.manifest).value();
  CHECK(back.run_root == files.run_root);
  CHECK(back.bundle_id == files.run_root);
  CHECK(back.files.events->bytes == static_cast<std::int64_t>(files.events.size()));
  // Refused, as the reference's codes and the verifier's messages.
  CHECK(code_and_message([](json::value& v) { v.set("schema_version", "1"); }) ==
        "ContractInvalidJson: manifest.json: \"schema_version\" must be an integer");
  for (double bad : {2.0, 0.0, -1.0}) {
    CAPTURE(bad);
    CHECK(code_and_message([&](json::value& v) { v.set("schema_version", bad); }) ==
          "ContractSchemaVersion: manifest.json: unsupported schema_version (1 is supported)");
  }
  // Not integers as the reference reads them (an unsigned integer): invalid, not unsupported.
  for (double bad : {1.5, 1e300}) {
    CAPTURE(bad);
    CHECK(code_and_message([&](json::value& v) { v.set("schema_version", bad); }) ==
          "ContractInvalidJson: manifest.json: \"schema_version\" must be an integer");
  }
  // The checks' order decides, not the members' order: schema_version before run_id.
  CHECK(code_and_message([](json::value& v) {
          v.set("schema_version", 2);
          v.set("run_id", 5);
        }) == "ContractSchemaVersion: manifest.json: unsupported schema_version (1 is supported)");
  CHECK(code_and_message([](json::value& v) {
          v.set("run_id", 5);
          v.set("event_count", -1);
        }) == "ContractInvalidJson: manifest.json: \"run_id\" must be a string");
  CHECK(code_and_message([](json::value& v) { v.set("event_count", 9007199254740994.0); }) ==
        "ContractInvalidJson: manifest.json: \"event_count\" must be an integer");
  CHECK(code_and_message([](json::value& v) { v.find("producer")->set("git", nullptr); }) ==
        "ContractInvalidJson: manifest.json: \"producer.git\" must be a string");
  CHECK(code_and_message([](json::value& v) {
          v.find("producer")->set("git", 1);
          v.find("producer")->set("name", 1);
        }) ==
        "ContractInvalidJson: manifest.json: \"producer\" must be an object with string members \"name\" and "
        "\"version\"");
  CHECK(code_and_message([](json::value& v) { v.set("files", json::array{}); }) ==
        "ContractInvalidJson: manifest.json: \"files\" must be an object");
  CHECK(code_and_message([](json::value& v) { v.find("files")->find("events.ndjson")->set("bytes", "1"); }) ==
        "ContractInvalidJson: manifest.json: \"files.events.ndjson\" must have an integer \"bytes\" and a string "
        "\"sha256\"");
  CHECK(code_name(ev::read_manifest("[]").error().code) == "ContractInvalidJson");
  CHECK(ev::read_manifest("[]").error().message == "manifest.json: not a JSON object");
  CHECK(ev::read_manifest("{\"a\":1,\"a\":2}").error().message.rfind("manifest.json is not valid JSON: ", 0) == 0);
  ev::bundle_limits shallow;
  shallow.max_json_depth = 2;
  CHECK(ev::read_manifest(json::to_canonical(honest).value(), shallow).error().code == ev::code::LimitJsonDepth);
}

TEST_CASE("the verdict as a contract: what verify --json prints") {
  auto ok = ev::verify_bundle_bytes(ev::write_bundle(make_events(3)).value());
  REQUIRE(ok.has_value());
  CHECK(assay::encode(ev::verify_result_of(ok)).value() == R"({"bundle_id":")" + ok->bundle_id +
                                                               R"(","class":null,"code":null,"event_count":3,)"
                                                               R"("message":null,"ok":true,"run_id":"run-1"})");
  auto bad = ev::verify_bundle_bytes("not a gzip stream");
  REQUIRE_FALSE(bad.has_value());
  CHECK(assay::encode(ev::verify_result_of(bad)).value() ==
        R"({"bundle_id":null,"class":"Integrity","code":"IntegrityGzip","event_count":null,"message":")" +
            bad.error().message + R"(","ok":false,"run_id":null})");
  auto missing = ev::verify_bundle_file("/nonexistent/bundle.tar.gz");
  const auto v = ev::verify_result_of(missing);
  CHECK(*v.code == "io_error");
  CHECK_FALSE(v.error_class.has_value());
  auto back = assay::decode<ev::verify_result>(assay::encode(v).value());
  REQUIRE(back.has_value());
  CHECK(*back->code == "io_error");
}

TEST_CASE("the codes: stable values, the reference's names, explicit classes, known to assay::name") {
  CHECK(static_cast<int>(ev::code::IntegrityGzip) == 500);
  CHECK(static_cast<int>(ev::code::ContractMissingManifest) == 506);
  CHECK(static_cast<int>(ev::code::LimitPathLength) == 518);
  CHECK(static_cast<int>(ev::code::SecurityAbsolutePath) == 526);
  std::size_t n = 0;
  for (int v = 500; v <= 526; ++v, ++n) {
    const auto c = ev::bundle_code(static_cast<errc>(v));
    REQUIRE(c.has_value());
    const std::string_view name = ev::name(*c), cls = ev::error_class(*c);
    CAPTURE(name);
    CHECK(assay::name(static_cast<errc>(v)) == name);
    CHECK(assay::error_class(static_cast<errc>(v)) == cls);
    CHECK(name.substr(0, cls == "Limits" ? 5 : cls.size()) == (cls == "Limits" ? "Limit" : cls));
    CHECK(ev::make_error(*c, "m").code == *c);
  }
  CHECK(n == 27);
  CHECK_FALSE(ev::bundle_code(static_cast<errc>(527)).has_value());
  CHECK(assay::name(static_cast<errc>(527)) == "unknown");
  CHECK(assay::error_class(errc::depth_limit).empty());
  CHECK(assay::name(errc::depth_limit) == "depth_limit");
  CHECK(ev::invalid_json_code(errc::depth_limit) == ev::code::LimitJsonDepth);
  CHECK(ev::invalid_json_code(errc::duplicate_member) == ev::code::ContractInvalidJson);
  CHECK_FALSE(ev::limit_code(errc::trailing_content).has_value());
  // The soak report records the limits as the verifier's own type.
  CHECK(std::is_same_v<assay::contracts::soak::limits, ev::bundle_limits>);
  CHECK(assay::encode(ev::bundle_limits{}).value() ==
        R"({"max_bundle_bytes":104857600,"max_decode_bytes":1073741824,"max_events":100000,)"
        R"("max_events_bytes":524288000,"max_json_depth":64,"max_line_bytes":1048576,"max_manifest_bytes":10485760,)"
        R"("max_path_len":256})");
}

TEST_CASE("many events: the first failing line is reported, whichever stage or batch finds its fault") {
  // 3000 events: several batches of the two-thread check. Each fault below is planted in one
  // line; where two are planted, the earlier line's must win.
  const auto evs = make_events(3000);
  const std::string good = lines_of(evs);
  std::vector<std::size_t> starts{0};  // where each line begins
  for (std::size_t at = 0; (at = good.find('\n', at)) != std::string::npos && at + 1 < good.size();)
    starts.push_back(++at);
  REQUIRE(starts.size() == 3000);
  auto line_of = [&](std::size_t i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : good.size();
    return good.substr(starts[i], end - starts[i]);
  };
  auto replaced = [&](std::vector<std::pair<std::size_t, std::string>> edits) {
    std::string out;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      std::string line = line_of(i);
      for (const auto& [at, with] : edits)
        if (at == i)
          line = with;
      out += line;
    }
    return out;
  };
  std::string bad_hash = line_of(1700);
  bad_hash[bad_hash.find("\"n\":1700") + 4] = '9';  // still JSON; the content hash no longer matches
  auto message_of = [](const std::string& events) {
    auto r = ev::verify_bundle_bytes(bundle(events));
    REQUIRE_FALSE(r.has_value());
    return std::string(assay::name(r.error().code)) + ": " + r.error().message;
  };
  CHECK_CODE(bundle(good), errc::ok);
  CHECK(message_of(replaced({{1700, bad_hash}})) ==
        "IntegrityEventHash: line 1701 of events.ndjson: content hash "
        "mismatch at seq 1700");
  // A blank line after it (found before parsing) does not overtake it; one before it does.
  CHECK(message_of(replaced({{1700, bad_hash}, {2900, "\n"}})).rfind("IntegrityEventHash: line 1701 ", 0) == 0);
  CHECK(message_of(replaced({{1700, bad_hash}, {1200, "  \n"}})) ==
        "ContractInvalidEvent: line 1201 of events.ndjson is blank");
  // Not JSON, in the last (partial) batch; an event out of order (found by the stream's rules).
  CHECK(message_of(replaced({{2999, "{\n"}}))
            .rfind("ContractInvalidJson: line 3000 of events.ndjson is not valid "
                   "JSON",
                   0) == 0);
  CHECK(message_of(replaced({{1100, line_of(1101)}, {1101, line_of(1100)}})) ==
        "ContractSequenceGap: line 1101 of events.ndjson: sequence gap: seq 1101 follows 1099");
  // A line too long, after a faulty one and before one.
  ev::bundle_limits lim;
  lim.max_line_bytes = line_of(0).size() + 100;
  const std::string long_line = "{\"x\":\"" + std::string(lim.max_line_bytes.value(), 'x') + "\"}\n";
  auto r = ev::verify_bundle_bytes(bundle(replaced({{1700, bad_hash}, {2500, long_line}})), lim);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == ev::code::IntegrityEventHash);
  r = ev::verify_bundle_bytes(bundle(replaced({{1700, bad_hash}, {1500, long_line}})), lim);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == ev::code::LimitLineBytes);
  CHECK(r.error().message.rfind("line 1501 of events.ndjson is longer than", 0) == 0);

  // The visitors see every event once, in order, and a refusal stops the pass at its line.
  std::uint64_t next = 0;
  bool in_order = true;
  auto ok = ev::verify_bundle_bytes(bundle(good), {}, [&](const ev::verified_event& e) {
    in_order = in_order && e.seq == next++ && std::string(e.line) + "\n" == line_of(e.seq);
  });
  REQUIRE(ok.has_value());
  CHECK(in_order);
  CHECK(next == 3000);
  struct refuser {
    std::uint64_t seen = 0;
    std::optional<assay::error> on_event(const ev::verified_event& e) {
      ++seen;
      if (e.seq == 2222)
        return assay::make_error(errc::invalid_argument, "not this one");
      return std::nullopt;
    }
  } refuse;
  auto refused = ev::verify_bundle_bytes(bundle(good), {}, refuse);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "line 2223 of events.ndjson: not this one");
  CHECK(refuse.seen == 2223);
}
