// assay/evidence/verify.hpp — reading and verifying an evidence bundle in one streaming pass
// (SPEC §7).
//
//   auto r = assay::evidence::verify_bundle_file("run.tar.gz");
//   if (!r) std::puts(assay::name(r.error().code).data());   // e.g. "IntegrityEventHash"
//
// The compressed source is inflated on a helper thread (zlib) while this thread reads the tar
// stream (libarchive), splits events.ndjson into lines, parses each strictly and hashes it:
// memory stays at a few inflate blocks plus the longest line. Every check of SPEC §7 runs in
// the specified order and fails with the reference verifier's code name (assay::errc values
// from 500; assay::error_class() gives Integrity/Contract/Limits/Security). Messages name what
// is wrong without echoing untrusted bytes at length.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/checks.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace assay::evidence {

// The eight limits of the reader; defaults from the reference verifier.
struct bundle_limits {
  std::uint64_t max_bundle_bytes = 100ull << 20;
  std::uint64_t max_decode_bytes = 1ull << 30;
  std::uint64_t max_manifest_bytes = 10ull << 20;
  std::uint64_t max_events_bytes = 500ull << 20;
  std::uint64_t max_events = 100000;
  std::uint64_t max_line_bytes = 1ull << 20;
  std::uint64_t max_path_len = 256;
  std::uint64_t max_json_depth = 64;

  // From a JSON object with exactly these eight members, each an integer >= 1.
  static result<bundle_limits> from_json(std::string_view text) {
    auto doc = json::parse(text);
    if (!doc)
      return doc.error();
    if (!doc->is_object())
      return make_error(errc::type_mismatch, "limits must be a JSON object");
    bundle_limits l;
    struct field {
      const char* name;
      std::uint64_t bundle_limits::*member;
    };
    static constexpr field fields[] = {
        {"max_bundle_bytes", &bundle_limits::max_bundle_bytes},
        {"max_decode_bytes", &bundle_limits::max_decode_bytes},
        {"max_manifest_bytes", &bundle_limits::max_manifest_bytes},
        {"max_events_bytes", &bundle_limits::max_events_bytes},
        {"max_events", &bundle_limits::max_events},
        {"max_line_bytes", &bundle_limits::max_line_bytes},
        {"max_path_len", &bundle_limits::max_path_len},
        {"max_json_depth", &bundle_limits::max_json_depth},
    };
    for (const auto& m : doc->as_object()) {
      const field* f = nullptr;
      for (const auto& c : fields)
        if (m.name == c.name)
          f = &c;
      if (f == nullptr) {
        return make_error(errc::unknown_member, "unknown limit \"" + json::detail::quoted_for_message(m.name) + "\"",
                          "/" + json::escape_pointer_token(m.name));
      }
      const double d = m.value.is_number() ? m.value.as_number() : -1;
      if (!(d >= 1 && d <= 9007199254740992.0 && d == static_cast<double>(static_cast<std::uint64_t>(d)))) {
        return make_error(errc::below_minimum, std::string(f->name) + " must be an integer of at least 1",
                          "/" + std::string(f->name));
      }
      l.*(f->member) = static_cast<std::uint64_t>(d);
    }
    for (const auto& c : fields) {
      if (doc->find(c.name) == nullptr) {
        return make_error(errc::missing_member, std::string("limit \"") + c.name + "\" is missing",
                          "/" + std::string(c.name));
      }
    }
    return l;
  }
};

struct producer_info {
  std::string name;
  std::string version;
  std::optional<std::string> git;
};

// What a verified bundle yields.
struct verified_bundle {
  std::string run_id;
  std::string bundle_id;
  std::uint64_t event_count = 0;
  producer_info producer;
  std::string time_start;  // the earliest event time, as written
  std::string time_end;    // the latest event time, as written
  std::string manifest;    // the manifest bytes
};

// Called for every event line that passed its checks, in order (the line without its newline).
using event_visitor = std::function<void(std::string_view line, const json::document& event)>;

namespace detail {

inline error verify_error(errc code, std::string message) {
  return make_error(code, std::move(message));
}

// The source of compressed bytes: a file or a buffer.
class byte_source {
 public:
  explicit byte_source(std::FILE* f) : file_(f) {
    // A regular file's size is known before anything is read (SPEC §7 checks it first).
    if (std::fseek(f, 0, SEEK_END) == 0) {
      const long n = std::ftell(f);
      if (n >= 0)
        size_ = static_cast<std::uint64_t>(n);
      std::fseek(f, 0, SEEK_SET);
    }
  }
  explicit byte_source(std::string_view bytes) : mem_(bytes), size_(bytes.size()) {}

  // The total size when known in advance.
  std::optional<std::uint64_t> size() const noexcept { return size_; }

  // Up to n bytes; 0 at the end. Sets failed() on a read error.
  std::size_t read(unsigned char* out, std::size_t n) {
    if (file_ != nullptr) {
      const std::size_t got = std::fread(out, 1, n, file_);
      if (got < n && std::ferror(file_))
        failed_ = true;
      return got;
    }
    const std::size_t got = std::min(n, mem_.size() - pos_);
    std::memcpy(out, mem_.data() + pos_, got);
    pos_ += got;
    return got;
  }
  bool failed() const noexcept { return failed_; }

 private:
  std::FILE* file_ = nullptr;
  std::string_view mem_;
  std::size_t pos_ = 0;
  std::optional<std::uint64_t> size_;
  bool failed_ = false;
};

// Inflates the source on a helper thread into a bounded ring of blocks.
class inflater {
 public:
  static constexpr std::size_t block_size = 256 << 10;
  static constexpr std::size_t blocks_in_flight = 4;

  inflater(byte_source& src, const bundle_limits& lim) : src_(src), lim_(lim) {
    worker_ = std::thread([this] { run(); });
  }
  ~inflater() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  inflater(const inflater&) = delete;
  inflater& operator=(const inflater&) = delete;

  // The next decompressed block (empty at the end or on error). The previous block returned is
  // released by this call.
  std::string_view next() {
    std::unique_lock<std::mutex> lock(mu_);
    if (current_) {
      free_.push_back(std::move(current_));
      cv_.notify_all();
    }
    cv_.wait(lock, [&] { return !ready_.empty() || done_; });
    if (ready_.empty())
      return {};
    current_ = std::move(ready_.front());
    ready_.pop_front();
    return std::string_view(current_->data.data(), current_->size);
  }

  // After next() returned empty: the error that ended the stream, if any.
  std::optional<error> failure() {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }

 private:
  struct block {
    std::vector<char> data = std::vector<char>(block_size);
    std::size_t size = 0;
  };

  void finish(std::optional<error> e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (e && !error_)
      error_ = std::move(e);
    done_ = true;
    cv_.notify_all();
  }

  std::unique_ptr<block> take_free() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !free_.empty() || stop_; });
    if (stop_)
      return nullptr;
    auto b = std::move(free_.back());
    free_.pop_back();
    b->size = 0;  // a recycled block
    return b;
  }

  void publish(std::unique_ptr<block> b) {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(std::move(b));
    cv_.notify_all();
  }

  void run() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (std::size_t i = 0; i < blocks_in_flight; ++i)
        free_.push_back(std::make_unique<block>());
    }
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
      finish(verify_error(errc::IntegrityGzip, "cannot initialise the gzip decoder"));
      return;
    }
    struct guard {
      z_stream* z;
      ~guard() { inflateEnd(z); }
    } g{&z};
    std::vector<unsigned char> in(64 << 10);
    std::uint64_t source_bytes = 0;
    std::uint64_t decoded = 0;
    bool ended = false;  // the gzip member is complete (CRC and length checked by zlib)
    auto out = take_free();
    if (!out)
      return finish(std::nullopt);
    for (;;) {
      if (z.avail_in == 0) {
        const std::size_t n = src_.read(in.data(), in.size());
        if (src_.failed())
          return finish(verify_error(errc::IntegrityGzip, "cannot read the bundle"));
        source_bytes += n;
        if (source_bytes > lim_.max_bundle_bytes) {
          return finish(verify_error(errc::LimitBundleBytes, "the bundle is larger than the limit of " +
                                                                 std::to_string(lim_.max_bundle_bytes) + " bytes"));
        }
        if (n == 0) {
          if (!ended)
            return finish(verify_error(errc::IntegrityGzip, "the gzip stream is truncated"));
          break;
        }
        z.next_in = in.data();
        z.avail_in = static_cast<uInt>(n);
      }
      if (ended)
        return finish(verify_error(errc::IntegrityGzip, "unexpected bytes after the end of the gzip stream"));
      z.next_out = reinterpret_cast<Bytef*>(out->data.data() + out->size);
      z.avail_out = static_cast<uInt>(block_size - out->size);
      const uInt before = z.avail_out;
      const int rc = inflate(&z, Z_NO_FLUSH);
      const std::size_t produced = before - z.avail_out;
      out->size += produced;
      decoded += produced;
      if (decoded > lim_.max_decode_bytes) {
        return finish(verify_error(errc::LimitDecodeBytes, "the bundle decompresses to more than the limit of " +
                                                               std::to_string(lim_.max_decode_bytes) + " bytes"));
      }
      if (rc == Z_STREAM_END) {
        ended = true;
      } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
        const char* why = z.msg != nullptr ? z.msg : "corrupt data";
        return finish(verify_error(errc::IntegrityGzip, std::string("the gzip stream is invalid: ") + why));
      }
      if (out->size == block_size) {
        publish(std::move(out));
        out = take_free();
        if (!out)
          return finish(std::nullopt);
      }
    }
    if (out && out->size != 0)
      publish(std::move(out));
    finish(std::nullopt);
  }

  byte_source& src_;
  bundle_limits lim_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<block>> ready_;
  std::vector<std::unique_ptr<block>> free_;
  std::unique_ptr<block> current_;
  std::optional<error> error_;
  bool done_ = false;
  bool stop_ = false;
  std::thread worker_;
};

struct archive_deleter {
  void operator()(struct archive* a) const noexcept { archive_read_free(a); }
};

// The per-line checks of events.ndjson (SPEC §7 step 4) and what they accumulate.
class event_checker {
 public:
  event_checker(const bundle_limits& lim, std::string_view manifest_run_id, event_visitor visit)
      : lim_(lim), stream_(std::string(manifest_run_id)), visit_(std::move(visit)) {}

  // Feeds raw bytes of events.ndjson. Returns an error as soon as a check fails.
  std::optional<error> feed(std::string_view bytes) {
    bytes_ += bytes.size();
    raw_.write(bytes.data(), bytes.size());
    while (!bytes.empty()) {
      const auto nl = bytes.find('\n');
      if (nl == std::string_view::npos) {
        if (carry_.size() + bytes.size() > lim_.max_line_bytes + 1)
          return line_too_long();
        carry_.append(bytes);
        return std::nullopt;
      }
      std::string_view line = bytes.substr(0, nl);
      bytes.remove_prefix(nl + 1);
      if (!carry_.empty()) {
        if (carry_.size() + line.size() > lim_.max_line_bytes + 1)
          return line_too_long();
        carry_.append(line);
        auto e = line_done(carry_);
        carry_.clear();
        if (e)
          return e;
      } else if (auto e = line_done(line)) {
        return e;
      }
    }
    return std::nullopt;
  }

  // At the end of events.ndjson (a last line without '\n' is accepted).
  std::optional<error> end() {
    if (!carry_.empty()) {
      std::string last;
      last.swap(carry_);
      if (auto e = line_done(last))
        return e;
    }
    return std::nullopt;
  }

  std::uint64_t bytes() const noexcept { return bytes_; }
  std::uint64_t events() const noexcept { return stream_.events(); }
  std::string raw_sha256() { return raw_.finish().to_string(); }
  std::string run_root() { return root_.finish(); }
  const std::string& time_start() const noexcept { return stream_.time_start(); }
  const std::string& time_end() const noexcept { return stream_.time_end(); }

 private:
  error line_too_long() const {
    return verify_error(errc::LimitLineBytes, "line " + std::to_string(lines_ + 1) +
                                                  " of events.ndjson is longer than " +
                                                  std::to_string(lim_.max_line_bytes) + " bytes");
  }

  std::optional<error> line_done(std::string_view line) {
    ++lines_;
    const std::string where = "line " + std::to_string(lines_) + " of events.ndjson";
    if (lines_ == 1 && line.size() >= 3 && std::memcmp(line.data(), "\xEF\xBB\xBF", 3) == 0) {
      return verify_error(errc::ContractInvalidJson, "byte-order mark at the start of events.ndjson");
    }
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.size() > lim_.max_line_bytes)
      return line_too_long();
    if (line.empty())
      return verify_error(errc::ContractInvalidEvent, where + " is blank");
    if (lines_ > lim_.max_events) {
      return verify_error(errc::LimitTotalEvents,
                          "events.ndjson has more than the limit of " + std::to_string(lim_.max_events) + " events");
    }
    json::limits jl;
    jl.max_depth = lim_.max_json_depth;
    auto parsed = json::document::parse(line, jl);
    if (!parsed) {
      const error& pe = parsed.error();
      return verify_error(pe.code == errc::depth_limit ? errc::LimitJsonDepth : errc::ContractInvalidJson,
                          where + " is not valid JSON: " + pe.format());
    }
    const json::document& doc = *parsed;
    auto at = [&](const event_violation& v) { return verify_error(v.code, where + ": " + v.message); };
    event_fields f;
    if (auto v = read_event_fields(doc, f))
      return at(*v);
    // Content hash: present, and equal to the recomputed one.
    if (!detail::is_string_node(doc, f.content_hash))
      return verify_error(errc::IntegrityEventHash, where + ": the event has no content hash");
    auto computed = content_hash(doc, 0);
    if (!computed)
      return verify_error(errc::IntegrityEventHash, where + ": " + computed.error().message);
    if (*computed != doc.string_at(f.content_hash))
      return verify_error(errc::IntegrityEventHash, where + ": content hash mismatch at seq " + std::to_string(f.seq));
    if (auto v = stream_.next(doc, f))
      return at(*v);
    root_.add(*computed);
    if (visit_)
      visit_(line, doc);
    return std::nullopt;
  }

  bundle_limits lim_;
  event_stream stream_;
  event_visitor visit_;
  hash::hash_sink<hash::sha256> raw_{hash::sink_options{static_cast<std::size_t>(-1)}};  // both cores are busy
  run_root_builder root_;
  std::string carry_;
  std::uint64_t bytes_ = 0, lines_ = 0;
};

// The manifest members the verifier needs.
struct manifest_view {
  std::string run_id, run_root, bundle_id, events_sha256;
  std::uint64_t event_count = 0;
  std::optional<std::uint64_t> events_bytes;  // nullopt: files has no events.ndjson
  producer_info producer;
};

inline result<manifest_view> read_manifest(std::string_view bytes, const bundle_limits& lim) {
  json::limits jl;
  jl.max_depth = lim.max_json_depth;
  auto doc = json::parse(bytes, jl);
  if (!doc) {
    return verify_error(doc.error().code == errc::depth_limit ? errc::LimitJsonDepth : errc::ContractInvalidJson,
                        "manifest.json is not valid JSON: " + doc.error().format());
  }
  const json::value& m = *doc;
  auto bad = [](const std::string& what) { return verify_error(errc::ContractInvalidJson, "manifest.json: " + what); };
  if (!m.is_object())
    return bad("not a JSON object");
  auto integer = [](const json::value* v, std::uint64_t& out) {
    if (v == nullptr || !v->is_number())
      return false;
    const double d = v->as_number();
    if (!(d >= 0 && d <= 9007199254740992.0) || d != static_cast<double>(static_cast<std::uint64_t>(d)))
      return false;
    out = static_cast<std::uint64_t>(d);
    return true;
  };
  auto string = [](const json::value* v, std::string& out) {
    if (v == nullptr || !v->is_string())
      return false;
    out = v->as_string();
    return true;
  };
  manifest_view out;
  std::uint64_t version = 0;
  const json::value* sv = m.find("schema_version");
  if (sv == nullptr || !sv->is_number())
    return bad("\"schema_version\" must be an integer");
  if (!integer(sv, version) || version != 1) {
    return verify_error(errc::ContractSchemaVersion, "manifest.json: unsupported schema_version (1 is supported)");
  }
  if (!string(m.find("run_id"), out.run_id))
    return bad("\"run_id\" must be a string");
  if (!string(m.find("run_root"), out.run_root))
    return bad("\"run_root\" must be a string");
  if (!string(m.find("bundle_id"), out.bundle_id))
    return bad("\"bundle_id\" must be a string");
  if (!integer(m.find("event_count"), out.event_count))
    return bad("\"event_count\" must be an integer");
  const json::value* producer = m.find("producer");
  if (producer == nullptr || !producer->is_object() || !string(producer->find("name"), out.producer.name) ||
      !string(producer->find("version"), out.producer.version)) {
    return bad("\"producer\" must be an object with string members \"name\" and \"version\"");
  }
  if (const json::value* git = producer->find("git")) {
    if (!git->is_string())
      return bad("\"producer.git\" must be a string");
    out.producer.git = git->as_string();
  }
  const json::value* files = m.find("files");
  if (files == nullptr || !files->is_object())
    return bad("\"files\" must be an object");
  if (const json::value* ev = files->find("events.ndjson")) {
    std::uint64_t b = 0;
    if (!ev->is_object() || !integer(ev->find("bytes"), b) || !string(ev->find("sha256"), out.events_sha256)) {
      return bad("\"files.events.ndjson\" must have an integer \"bytes\" and a string \"sha256\"");
    }
    out.events_bytes = b;
  }
  return out;
}

// Member path checks of SPEC §7 step 2 (after the length and size checks).
inline std::optional<error> check_path(std::string_view path) {
  if (!path.empty() && path.front() == '/') {
    return verify_error(errc::SecurityAbsolutePath, "archive member has an absolute path");
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::string_view part = path.substr(start, slash == std::string_view::npos ? path.npos : slash - start);
    if (part == "..")
      return verify_error(errc::SecurityPathTraversal, "archive member path contains '..'");
    if (slash == std::string_view::npos)
      break;
    start = slash + 1;
  }
  return std::nullopt;
}

}  // namespace detail

// Verifies a bundle read from `source` (one pass, bounded memory).
inline result<verified_bundle> verify_bundle(detail::byte_source& source, const bundle_limits& lim = {},
                                             const event_visitor& visit = {}) {
  using detail::verify_error;
  if (source.size() && *source.size() > lim.max_bundle_bytes) {
    return verify_error(errc::LimitBundleBytes,
                        "the bundle is larger than the limit of " + std::to_string(lim.max_bundle_bytes) + " bytes");
  }
  detail::inflater inflate(source, lim);
  std::unique_ptr<struct archive, detail::archive_deleter> a(archive_read_new());
  archive_read_support_format_tar(a.get());
  archive_read_support_filter_none(a.get());
  struct reader_state {
    detail::inflater* inf;
    std::string_view block;
  } rs{&inflate, {}};
  auto read_cb = [](struct archive*, void* ctx, const void** buf) -> la_ssize_t {
    auto* st = static_cast<reader_state*>(ctx);
    st->block = st->inf->next();
    *buf = st->block.data();
    return static_cast<la_ssize_t>(st->block.size());
  };
  // The stream's own error (gzip, limits) wins over what libarchive makes of a cut stream.
  auto stream_error = [&](errc fallback, const std::string& what) -> error {
    if (auto e = inflate.failure())
      return *e;
    return verify_error(fallback, what);
  };
  if (archive_read_open(a.get(), &rs, nullptr, read_cb, nullptr) != ARCHIVE_OK) {
    return stream_error(errc::IntegrityTar, "cannot read the tar stream");
  }

  verified_bundle out;
  std::optional<detail::manifest_view> manifest;
  bool seen_manifest = false, seen_events = false;
  std::size_t index = 0;
  for (;; ++index) {
    struct archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF)
      break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      return stream_error(errc::IntegrityTar, std::string("invalid tar stream: ") + archive_error_string(a.get()));
    }
    const char* raw_path = archive_entry_pathname(entry);
    const std::string path = raw_path != nullptr ? raw_path : "";
    if (path.size() > lim.max_path_len) {
      return verify_error(errc::LimitPathLength,
                          "archive member path is longer than " + std::to_string(lim.max_path_len) + " bytes");
    }
    const la_int64_t declared = archive_entry_size(entry);
    const std::uint64_t max_size = path == "manifest.json" ? lim.max_manifest_bytes : lim.max_events_bytes;
    if (declared < 0 || static_cast<std::uint64_t>(declared) > max_size) {
      return verify_error(errc::LimitFileSize,
                          "a declared member size exceeds the limit of " + std::to_string(max_size) + " bytes");
    }
    if (auto e = detail::check_path(path))
      return *e;
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFLNK || archive_entry_hardlink(entry) != nullptr) {
      return verify_error(errc::SecurityPathTraversal, "archive member is a link (not allowed)");
    }
    if (path != "manifest.json" && path != "events.ndjson") {
      return verify_error(errc::ContractUnexpectedFile,
                          "unexpected archive member \"" + json::detail::quoted_for_message(path) + "\"");
    }
    if (type != AE_IFREG)
      return verify_error(errc::ContractUnexpectedFile, "archive member \"" + path + "\" is not a regular file");
    if ((path == "manifest.json" && seen_manifest) || (path == "events.ndjson" && seen_events)) {
      return verify_error(errc::ContractDuplicateFile, "archive member \"" + path + "\" appears twice");
    }
    if (index == 0 && path != "manifest.json") {
      return verify_error(errc::ContractFileOrder, "the first archive member must be manifest.json");
    }
    if (path == "manifest.json") {
      seen_manifest = true;
      std::string bytes;
      bytes.reserve(static_cast<std::size_t>(declared));
      char buf[65536];
      for (;;) {
        const la_ssize_t n = archive_read_data(a.get(), buf, sizeof buf);
        if (n < 0)
          return stream_error(errc::IntegrityTar,
                              std::string("cannot read manifest.json: ") + archive_error_string(a.get()));
        if (n == 0)
          break;
        bytes.append(buf, static_cast<std::size_t>(n));
      }
      auto m = detail::read_manifest(bytes, lim);
      if (!m)
        return m.error();
      manifest = std::move(*m);
      out.manifest = std::move(bytes);
      continue;
    }
    // events.ndjson
    seen_events = true;
    if (!manifest->events_bytes) {
      return verify_error(errc::ContractMissingFile, "the manifest does not list events.ndjson");
    }
    if (static_cast<std::uint64_t>(declared) != *manifest->events_bytes) {
      return verify_error(errc::IntegrityFileSizeMismatch, "events.ndjson is " + std::to_string(declared) +
                                                               " bytes in the archive, the manifest says " +
                                                               std::to_string(*manifest->events_bytes));
    }
    detail::event_checker check(lim, manifest->run_id, visit);
    for (;;) {
      const void* buf = nullptr;
      std::size_t size = 0;
      la_int64_t offset = 0;
      const int r = archive_read_data_block(a.get(), &buf, &size, &offset);
      if (r == ARCHIVE_EOF)
        break;
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
        return stream_error(errc::IntegrityTar,
                            std::string("cannot read events.ndjson: ") + archive_error_string(a.get()));
      }
      if (auto e = check.feed(std::string_view(static_cast<const char*>(buf), size)))
        return *e;
    }
    if (auto e = check.end())
      return *e;
    if (check.bytes() != *manifest->events_bytes) {
      return verify_error(errc::IntegrityFileSizeMismatch, "events.ndjson has " + std::to_string(check.bytes()) +
                                                               " bytes, the manifest says " +
                                                               std::to_string(*manifest->events_bytes));
    }
    std::string want = manifest->events_sha256;
    if (want.rfind("sha256:", 0) != 0)
      want = "sha256:" + want;
    if (check.raw_sha256() != want) {
      return verify_error(errc::IntegrityManifestHash, "the sha256 of events.ndjson differs from the manifest's");
    }
    if (check.events() == 0)
      return verify_error(errc::ContractInvalidEvent, "the bundle has no events");
    if (check.events() != manifest->event_count) {
      return verify_error(errc::ContractSequenceGap, "the bundle has " + std::to_string(check.events()) +
                                                         " events, the manifest says " +
                                                         std::to_string(manifest->event_count));
    }
    const std::string root = check.run_root();
    if (root != manifest->run_root)
      return verify_error(errc::IntegrityRunRootMismatch, "the recomputed run_root differs from the manifest's");
    if (manifest->bundle_id != root)
      return verify_error(errc::ContractBundleIdMismatch, "bundle_id must equal run_root");
    out.event_count = check.events();
    out.time_start = check.time_start();
    out.time_end = check.time_end();
  }
  // Read the gzip stream to its end so its CRC and length are checked (and a stream that is
  // all padding, a gzip bomb, meets max_decode_bytes).
  while (!inflate.next().empty()) {
  }
  if (auto e = inflate.failure())
    return *e;
  if (!seen_manifest)
    return verify_error(errc::ContractMissingManifest, "the bundle has no manifest.json");
  if (!seen_events)
    return verify_error(errc::ContractMissingFile, "the bundle has no events.ndjson");
  out.run_id = manifest->run_id;
  out.bundle_id = manifest->bundle_id;
  out.producer = manifest->producer;
  return out;
}

inline result<verified_bundle> verify_bundle_bytes(std::string_view bytes, const bundle_limits& lim = {},
                                                   const event_visitor& visit = {}) {
  detail::byte_source src(bytes);
  return verify_bundle(src, lim, visit);
}

inline result<verified_bundle> verify_bundle_file(const std::string& path, const bundle_limits& lim = {},
                                                  const event_visitor& visit = {}) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr)
    return make_error(errc::io_error, "cannot open " + path + ": " + std::strerror(errno));
  struct closer {
    std::FILE* f;
    ~closer() { std::fclose(f); }
  } c{f};
  detail::byte_source src(f);
  return verify_bundle(src, lim, visit);
}

}  // namespace assay::evidence
