// assay/evidence/verify.hpp — verifying an evidence bundle in one streaming pass (docs/evidence.md), and
// handing what it verified to visitors.
//
//   auto r = assay::evidence::verify_bundle_file("run.tar.gz");
//   if (!r) std::puts(assay::name(r.error().code).data());   // e.g. "IntegrityEventHash"
//
//   struct count_types {
//     std::map<std::string, int> n;
//     void on_event(const assay::evidence::verified_event& e) { ++n[std::string(e.type)]; }
//   };
//   count_types types;
//   my_linter lint;
//   auto r = assay::evidence::verify_bundle_file("run.tar.gz", {}, types, lint);   // one pass
//
// The compressed source is inflated on a helper thread while this thread reads the tar stream
// (archive_read.hpp), splits events.ndjson into lines, parses each strictly and hashes it:
// memory stays at a few inflate blocks plus the longest line. Every check of docs/evidence.md runs in
// the specified order and fails with the reference verifier's code (codes.hpp). Messages name
// what is wrong without echoing untrusted bytes at length.
//
// A visitor has any of these members, each optional:
//   on_manifest(const bundle_manifest&)    manifest.json, read, before any event
//   on_event(const verified_event&)        each event, in file order, once its checks passed
//   on_end(const verified_bundle&)         when the whole bundle verified
// or is a callable taking `const verified_event&` (an on_event alone). Every visitor given sees
// the same pass; a bundle that fails stops it, so a visitor has seen only events that verified,
// and on_end is called only for a bundle that verified. A visitor may hold the events to more
// than docs/evidence.md does: an on_event that returns std::optional<assay::error> refuses the event with
// the error it returns, which fails the pass there (its message after the event's line, "line 3
// of events.ndjson: ..."); payload_check.hpp holds each payload to its contract that way.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/archive_read.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/hash/hash.hpp"
#include "assay/hash/sha256_each.hpp"
#include "assay/json/document.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <thread>
#include <mutex>
#include <condition_variable>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace assay::evidence {

// Reads manifest.json as the verifier does (docs/evidence.md step 3): strict JSON within the depth limit,
// decoded as manifest_view; the errors are the reference's (codes.hpp, manifest_error). Its
// integers are read as the reference reads them, as unsigned integers: written as integers
// (schema_version 1.0 or event_count 3.0 is refused). (A template only so that the decoder is
// compiled where a bundle is verified, not wherever this header is included.)
template <class = void>
result<manifest_view> read_manifest(std::string_view bytes, const bundle_limits& lim = {}) {
  json::limits jl;
  jl.max_depth = lim.max_json_depth;
  jl.integers_as_written = true;
  auto m = assay::decode<manifest_view>(bytes, jl);
  if (!m)
    return manifest_error(m.error());
  return std::move(*m);
}

// --- visitors ------------------------------------------------------------------------------------

template <class V>
concept sees_manifest = requires(V& v, const bundle_manifest& m) {
  v.on_manifest(m);
};
template <class V>
concept sees_events = requires(V& v, const verified_event& e) {
  v.on_event(e);
};
template <class V>
concept sees_end = requires(V& v, const verified_bundle& b) {
  v.on_end(b);
};
template <class V>
concept event_callback = std::invocable<V&, const verified_event&>;
// A visitor that may refuse an event: on_event returns the error that fails the pass there.
template <class V>
concept refuses_events = requires(V& v, const verified_event& e) {
  { v.on_event(e) } -> std::convertible_to<std::optional<error>>;
};

// Something verify_bundle can hand what it verifies to (a visitor with none of the three
// members, say with a misspelt one, is refused).
template <class V>
concept bundle_visitor = sees_manifest<V> || sees_events<V> || sees_end<V> || event_callback<V>;

namespace detail {

// The visitors of one pass behind one pointer, and what to call for each step (nullptr when no
// visitor has the member: the pass then skips the work of preparing it).
struct visit_hooks {
  void* visitors = nullptr;
  void (*manifest)(void*, const bundle_manifest&) = nullptr;
  std::optional<error> (*event)(void*, const verified_event&) = nullptr;  // an error refuses the event
  void (*end)(void*, const verified_bundle&) = nullptr;
};

template <class V>
void visit_manifest(V& v, const bundle_manifest& m) {
  if constexpr (sees_manifest<V>)
    v.on_manifest(m);
}
template <class V>
std::optional<error> visit_event(V& v, const verified_event& e) {
  if constexpr (refuses_events<V>)
    return v.on_event(e);
  else if constexpr (sees_events<V>)
    v.on_event(e);
  else if constexpr (event_callback<V>)
    v(e);
  return std::nullopt;
}
template <class V>
void visit_end(V& v, const verified_bundle& b) {
  if constexpr (sees_end<V>)
    v.on_end(b);
}

template <class... V>
visit_hooks hooks_for(std::tuple<V&...>& visitors) {
  using all = std::tuple<V&...>;
  visit_hooks h;
  h.visitors = &visitors;
  if constexpr ((sees_manifest<V> || ...)) {
    h.manifest = [](void* p, const bundle_manifest& m) {
      std::apply([&](auto&... v) { (visit_manifest(v, m), ...); }, *static_cast<all*>(p));
    };
  }
  if constexpr (((sees_events<V> || event_callback<V>) || ...)) {
    h.event = [](void* p, const verified_event& e) {
      std::optional<error> refused;  // the first visitor to refuse the event ends its visit
      std::apply([&](auto&... v) { ((refused ? void() : void(refused = visit_event(v, e))), ...); },
                 *static_cast<all*>(p));
      return refused;
    };
  }
  if constexpr ((sees_end<V> || ...)) {
    h.end = [](void* p, const verified_bundle& b) {
      std::apply([&](auto&... v) { (visit_end(v, b), ...); }, *static_cast<all*>(p));
    };
  }
  return h;
}

// The per-line checks of events.ndjson (docs/evidence.md step 4) and what they accumulate.
//
// Two stages on two threads: the lines are gathered in batches; a worker parses each batch's
// events and checks their content hashes (most of the work), while this thread hashes the raw
// bytes, gathers the next batch and takes the parsed events in order through the stream's
// rules and the visitors. The first failing line is reported, as one pass would: a line's
// checks run in line order whatever thread found its fault.
template <class = void>
class basic_event_checker {
 public:
  basic_event_checker(const bundle_limits& lim, std::string_view manifest_run_id, const visit_hooks& hooks)
      : lim_(lim), stream_(std::string(manifest_run_id)), hooks_(hooks) {}
  basic_event_checker(const basic_event_checker&) = delete;
  basic_event_checker& operator=(const basic_event_checker&) = delete;
  ~basic_event_checker() {
    if (worker_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
      }
      wake_.notify_all();
      worker_.join();
    }
  }

  // Feeds raw bytes of events.ndjson. Returns an error once a check fails (all lines before the
  // failing one checked).
  std::optional<error> feed(std::string_view bytes) {
    if (failed_)
      return failed_;
    bytes_ += bytes.size();
    raw_.write(bytes.data(), bytes.size());
    while (!bytes.empty()) {
      const auto nl = bytes.find('\n');
      if (nl == std::string_view::npos) {
        if (carry_.size() + bytes.size() > lim_.max_line_bytes + 1)
          return fail_after_pending(line_too_long());
        carry_.append(bytes);
        return std::nullopt;
      }
      std::string_view line = bytes.substr(0, nl);
      bytes.remove_prefix(nl + 1);
      if (!carry_.empty()) {
        if (carry_.size() + line.size() > lim_.max_line_bytes + 1)
          return fail_after_pending(line_too_long());
        carry_.append(line);
        auto e = take_line(carry_);
        carry_.clear();
        if (e)
          return e;
      } else if (auto e = take_line(line)) {
        return e;
      }
    }
    return std::nullopt;
  }

  // At the end of events.ndjson (a last line without '\n' is accepted).
  std::optional<error> end() {
    if (failed_)
      return failed_;
    if (!carry_.empty()) {
      std::string last;
      last.swap(carry_);
      if (auto e = take_line(last))
        return e;
    }
    return fail(drain());
  }

  std::uint64_t bytes() const noexcept { return bytes_; }
  std::uint64_t events() const noexcept { return stream_.events(); }
  std::string raw_sha256() { return raw_.finish().to_string(); }
  std::string run_root() { return root_.finish(); }
  const std::string& time_start() const noexcept { return stream_.time_start(); }
  const std::string& time_end() const noexcept { return stream_.time_end(); }

 private:
  static constexpr std::size_t batch_lines = 1024, batch_bytes = 1u << 20;

  // A line gathered, and what the worker found in it.
  struct pending_line {
    std::size_t begin = 0, size = 0;  // in its batch's text
    std::uint64_t number = 0;         // 1-based, among the lines of events.ndjson
    std::optional<error> failure;
    json::document doc;
    event_fields f;
    std::size_t projection_begin = 0, projection_size = 0;  // in its batch's projections
    std::string computed;
  };
  struct batch {
    std::string text;
    std::vector<pending_line> lines;  // [0, used): this batch's (kept beyond: their buffers are reused)
    std::size_t used = 0;
    // What the lines' content hashes cover, one after another; the digests of those written.
    json::char_buffer projections;
    std::vector<std::string_view> messages;
    std::vector<hash::sha256_bytes> digests;
  };

  error line_too_long() const {
    return make_error(code::LimitLineBytes, "line " + std::to_string(numbered_ + 1) +
                                                " of events.ndjson is longer than " +
                                                std::to_string(lim_.max_line_bytes.value()) + " bytes");
  }
  static std::string where(std::uint64_t number) { return "line " + std::to_string(number) + " of events.ndjson"; }

  std::optional<error> fail(std::optional<error> e) {
    if (e && !failed_)
      failed_ = std::move(e);
    return failed_;
  }
  // `e`, found where the lines gathered so far end: unless one of them fails first.
  std::optional<error> fail_after_pending(error e) {
    if (auto first = drain())
      return fail(std::move(first));
    return fail(std::move(e));
  }

  // The checks that need no parse, in the order one pass makes them; then the line is gathered.
  std::optional<error> take_line(std::string_view line) {
    if (numbered_ == 0 && line.size() >= 3 && std::memcmp(line.data(), "\xEF\xBB\xBF", 3) == 0)
      return fail_after_pending(make_error(code::ContractInvalidJson, "byte-order mark at the start of events.ndjson"));
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.size() > lim_.max_line_bytes)
      return fail_after_pending(line_too_long());  // line numbered_ + 1, not counted yet
    ++numbered_;
    // An empty line, or one of whitespace only (docs/evidence.md: an empty line is ContractInvalidEvent;
    // whitespace alone is no more an event than nothing is).
    if (std::all_of(line.begin(), line.end(), [](char c) { return json::lex::is_ws(static_cast<unsigned char>(c)); }))
      return fail_after_pending(make_error(code::ContractInvalidEvent, where(numbered_) + " is blank"));
    if (numbered_ > lim_.max_events) {
      return fail_after_pending(make_error(
          code::LimitTotalEvents,
          "events.ndjson has more than the limit of " + std::to_string(lim_.max_events.value()) + " events"));
    }
    batch& b = *filling_;
    if (b.used == b.lines.size())
      b.lines.emplace_back();
    pending_line& p = b.lines[b.used++];
    p.begin = b.text.size();
    p.size = line.size();
    p.number = numbered_;
    b.text.append(line);
    if (b.used >= batch_lines || b.text.size() >= batch_bytes)
      return fail(rotate());
    return std::nullopt;
  }

  // The full batch goes to the worker; the one it had is taken in order meanwhile.
  std::optional<error> rotate() {
    if (single_core_)  // no second core to parse on: the batch is checked here and now
      return drain();
    if (!worker_.joinable())
      worker_ = std::thread([this] { work(); });
    batch* done = wait_worker();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      in_flight_ = filling_;
    }
    wake_.notify_one();
    filling_ = done != nullptr ? done : &batches_[1];
    std::optional<error> e;
    if (done != nullptr)
      e = take_batch(*done);
    filling_->text.clear();
    filling_->used = 0;
    return e;
  }

  // Every line gathered so far, checked: the first error, if any.
  std::optional<error> drain() {
    batch* done = wait_worker();
    if (done != nullptr) {
      if (auto e = take_batch(*done))
        return e;
    }
    batch& b = *filling_;
    prepare(b);
    auto e = take_batch(b);
    b.text.clear();
    b.used = 0;
    return e;
  }

  // The batch the worker has, once it is done with it (none: nullptr).
  batch* wait_worker() {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return in_flight_ == nullptr || ready_; });
    batch* b = in_flight_;
    in_flight_ = nullptr;
    ready_ = false;
    return b;
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || (in_flight_ != nullptr && !ready_); });
      if (stop_)
        return;
      batch* b = in_flight_;
      lock.unlock();
      prepare(*b);
      lock.lock();
      ready_ = true;
      finished_.notify_one();
    }
  }

  // What needs only the line: its parse, its fields and its content hash. The projections that
  // content hashes cover are written one after another, then hashed two at a time
  // (hash/sha256_each.hpp): one at a time, hashing waited on itself.
  void prepare(batch& b) const {
    json::limits jl;
    jl.max_depth = lim_.max_json_depth;
    b.projections.clear();
    json::buffer_writer w{&b.projections};
    for (std::size_t i = 0; i < b.used; ++i) {
      pending_line& p = b.lines[i];
      p.failure.reset();
      p.projection_size = 0;
      const std::string_view line(b.text.data() + p.begin, p.size);
      auto parsed = json::document::parse(line, jl, std::move(p.doc));
      if (!parsed) {
        const error& pe = parsed.error();
        p.failure = make_error(invalid_json_code(pe.code), where(p.number) + " is not valid JSON: " + pe.format());
        p.doc = json::document{};
        continue;
      }
      p.doc = std::move(*parsed);
      p.f = event_fields{};
      if (auto v = read_event_fields(p.doc, p.f)) {
        p.failure = make_error(v->code, where(p.number) + ": " + v->message);
        continue;
      }
      // Content hash: present, and (below) equal to the recomputed one.
      if (!detail::is_string_node(p.doc, p.f.content_hash)) {
        p.failure = make_error(code::IntegrityEventHash, where(p.number) + ": the event has no content hash");
        continue;
      }
      const event_fields& f = p.f;
      p.projection_begin = b.projections.size();
      auto written = write_projection_at_nodes(w, p.doc, f.data, f.datacontenttype, f.specversion, f.subject, f.type);
      if (!written) {
        p.failure = make_error(code::IntegrityEventHash, where(p.number) + ": " + written.error().message);
        b.projections.resize_within(p.projection_begin);
        continue;
      }
      p.projection_size = b.projections.size() - p.projection_begin;
    }
    b.messages.clear();
    for (std::size_t i = 0; i < b.used; ++i) {
      const pending_line& p = b.lines[i];
      if (!p.failure)
        b.messages.emplace_back(b.projections.data() + p.projection_begin, p.projection_size);
    }
    b.digests.resize(b.messages.size());
    hash::sha256_each(b.messages.data(), b.messages.size(), b.digests.data());
    std::size_t j = 0;
    for (std::size_t i = 0; i < b.used; ++i) {
      pending_line& p = b.lines[i];
      if (p.failure)
        continue;
      p.computed.assign("sha256:");
      hash::append_hex(p.computed, b.digests[j++].data(), 32);
      if (p.computed != p.doc.string_at(p.f.content_hash)) {
        p.failure = make_error(code::IntegrityEventHash,
                               where(p.number) + ": content hash mismatch at seq " + std::to_string(p.f.seq));
      }
    }
  }

  // The batch's lines, in order, through the stream's rules and the visitors.
  std::optional<error> take_batch(batch& b) {
    for (std::size_t i = 0; i < b.used; ++i) {
      pending_line& p = b.lines[i];
      if (p.failure)
        return std::move(p.failure);
      const json::document& doc = p.doc;
      const event_fields& f = p.f;
      if (auto v = stream_.next(f))
        return make_error(v->code, where(p.number) + ": " + v->message);
      root_.add(p.computed);
      if (hooks_.event != nullptr) {
        const bool has_subject = detail::is_string_node(doc, f.subject);
        auto refused =
            hooks_.event(hooks_.visitors,
                         verified_event{f.seq, p.number, std::string_view(b.text.data() + p.begin, p.size), doc, f.data,
                                        doc.string_at(f.type), doc.string_at(f.source), doc.string_at(f.id),
                                        doc.string_at(f.time), doc.string_at(f.run_id), doc.string_at(f.content_hash),
                                        has_subject ? std::optional(doc.string_at(f.subject)) : std::nullopt, f.at});
        if (refused) [[unlikely]]
          return refused_event(std::move(*refused), p.number);
      }
    }
    return std::nullopt;
  }

  // An event a visitor refused: its error, placed on the event's line.
  ASSAY_COLD static error refused_event(error e, std::uint64_t number) {
    e.message = where(number) + ": " + e.message;
    return e;
  }

  bundle_limits lim_;
  event_stream stream_;
  visit_hooks hooks_;
  // Hashed on this thread: on two shared cores a third thread for it cost more than it saved
  // (verify of 90,000 events took twice as long under load), even with igzip's light inflate.
  hash::hash_sink<hash::sha256> raw_{hash::sink_options{static_cast<std::size_t>(-1)}};
  run_root_builder root_;
  std::string carry_;
  std::uint64_t bytes_ = 0, numbered_ = 0;
  std::optional<error> failed_;
  batch batches_[2];
  batch* filling_ = &batches_[0];
  // The worker: the batch it has (in_flight_), done when ready_.
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  batch* in_flight_ = nullptr;
  bool ready_ = false, stop_ = false;
  bool single_core_ = std::thread::hardware_concurrency() == 1;
  std::thread worker_;
};
using event_checker = basic_event_checker<>;

// Member path checks of docs/evidence.md step 2 (after the length and size checks).
inline std::optional<error> check_path(std::string_view path) {
  if (!path.empty() && path.front() == '/') {
    return make_error(code::SecurityAbsolutePath, "archive member has an absolute path");
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::string_view part = path.substr(start, slash == std::string_view::npos ? path.npos : slash - start);
    if (part == "..")
      return make_error(code::SecurityPathTraversal, "archive member path contains '..'");
    if (slash == std::string_view::npos)
      break;
    start = slash + 1;
  }
  return std::nullopt;
}

// The pass itself, for any visitors. (A template only so that it is compiled where a bundle is
// verified.)
template <class = void>
result<verified_bundle> verify_with(byte_source& source, const bundle_limits& lim, const visit_hooks& hooks) {
  if (source.size() && *source.size() > lim.max_bundle_bytes) {
    return make_error(code::LimitBundleBytes, "the bundle is larger than the limit of " +
                                                  std::to_string(lim.max_bundle_bytes.value()) + " bytes");
  }
  inflater inflate(source, lim);
  tar_reader tar(inflate);
  verified_bundle out;
  std::optional<manifest_view> manifest;
  bool seen_manifest = false, seen_events = false;
  tar_member member;
  for (std::size_t index = 0;; ++index) {
    auto more = tar.next(member);
    if (!more)
      return more.error();
    if (!*more)
      break;
    const std::string& path = member.path;
    if (path.size() > lim.max_path_len) {
      return make_error(code::LimitPathLength,
                        "archive member path is longer than " + std::to_string(lim.max_path_len.value()) + " bytes");
    }
    const std::uint64_t max_size = path == "manifest.json" ? lim.max_manifest_bytes : lim.max_events_bytes;
    if (member.size < 0 || static_cast<std::uint64_t>(member.size) > max_size) {
      return make_error(code::LimitFileSize,
                        "a declared member size exceeds the limit of " + std::to_string(max_size) + " bytes");
    }
    const auto declared = static_cast<std::uint64_t>(member.size);
    if (auto e = check_path(path))
      return *e;
    if (member.link)
      return make_error(code::SecurityPathTraversal, "archive member is a link (not allowed)");
    if (path != "manifest.json" && path != "events.ndjson") {
      return make_error(code::ContractUnexpectedFile, "unexpected archive member " + json::quote_for_message(path));
    }
    if (!member.regular)
      return make_error(code::ContractUnexpectedFile, "archive member \"" + path + "\" is not a regular file");
    if ((path == "manifest.json" && seen_manifest) || (path == "events.ndjson" && seen_events)) {
      return make_error(code::ContractDuplicateFile, "archive member \"" + path + "\" appears twice");
    }
    if (index == 0 && path != "manifest.json") {
      return make_error(code::ContractFileOrder, "the first archive member must be manifest.json");
    }
    if (path == "manifest.json") {
      seen_manifest = true;
      std::string bytes;
      bytes.reserve(static_cast<std::size_t>(declared));
      if (auto r = tar.read_all(bytes); !r)
        return r.error();
      auto m = read_manifest(bytes, lim);
      if (!m)
        return m.error();
      manifest = std::move(*m);
      out.manifest = std::move(bytes);
      if (hooks.manifest != nullptr)
        hooks.manifest(hooks.visitors, bundle_manifest{out.manifest, *manifest});
      continue;
    }
    // events.ndjson
    seen_events = true;
    const auto& listed = manifest->files.events;
    if (!listed)
      return make_error(code::ContractMissingFile, "the manifest does not list events.ndjson");
    const auto listed_bytes = static_cast<std::uint64_t>(listed->bytes.value());
    if (declared != listed_bytes) {
      return make_error(code::IntegrityFileSizeMismatch, "events.ndjson is " + std::to_string(declared) +
                                                             " bytes in the archive, the manifest says " +
                                                             std::to_string(listed_bytes));
    }
    event_checker check(lim, manifest->run_id, hooks);
    for (;;) {
      auto block = tar.read_block();
      if (!block)
        return block.error();
      if (block->empty())
        break;
      if (auto e = check.feed(*block))
        return *e;
    }
    if (auto e = check.end())
      return *e;
    if (check.bytes() != listed_bytes) {
      return make_error(code::IntegrityFileSizeMismatch, "events.ndjson has " + std::to_string(check.bytes()) +
                                                             " bytes, the manifest says " +
                                                             std::to_string(listed_bytes));
    }
    std::string want = listed->sha256;
    if (want.rfind("sha256:", 0) != 0)
      want = "sha256:" + want;
    if (check.raw_sha256() != want)
      return make_error(code::IntegrityManifestHash, "the sha256 of events.ndjson differs from the manifest's");
    if (check.events() == 0)
      return make_error(code::ContractInvalidEvent, "the bundle has no events");
    const auto listed_count = static_cast<std::uint64_t>(manifest->event_count.value());
    if (check.events() != listed_count) {
      return make_error(code::ContractSequenceGap, "the bundle has " + std::to_string(check.events()) +
                                                       " events, the manifest says " + std::to_string(listed_count));
    }
    const std::string root = check.run_root();
    if (root != manifest->run_root)
      return make_error(code::IntegrityRunRootMismatch, "the recomputed run_root differs from the manifest's");
    if (manifest->bundle_id != root)
      return make_error(code::ContractBundleIdMismatch, "bundle_id must equal run_root");
    out.event_count = check.events();
    out.events_sha256 = std::move(want);
    out.time_start = check.time_start();
    out.time_end = check.time_end();
  }
  if (auto e = inflate.drain())
    return *e;
  if (!seen_manifest)
    return make_error(code::ContractMissingManifest, "the bundle has no manifest.json");
  if (!seen_events)
    return make_error(code::ContractMissingFile, "the bundle has no events.ndjson");
  out.run_id = manifest->run_id;
  out.bundle_id = manifest->bundle_id;
  out.producer = {manifest->producer.name, manifest->producer.version, manifest->producer.git};
  out.file_sha256 = inflate.source_sha256();
  out.manifest_sha256 = hash::digest_bytes<hash::sha256>(out.manifest).to_string();
  out.manifest_fields = std::move(*manifest);
  if (hooks.end != nullptr)
    hooks.end(hooks.visitors, out);
  return out;
}

}  // namespace detail

// Verifies a bundle read from `source` (one pass, bounded memory), handing what it verifies to
// every visitor.
template <bundle_visitor... V>
result<verified_bundle> verify_bundle(byte_source& source, const bundle_limits& lim = {}, V&&... visitors) {
  std::tuple<V&...> all(visitors...);
  return detail::verify_with(source, lim, detail::hooks_for(all));
}

template <bundle_visitor... V>
result<verified_bundle> verify_bundle_bytes(std::string_view bytes, const bundle_limits& lim = {}, V&&... visitors) {
  byte_source src(bytes);
  return verify_bundle(src, lim, visitors...);
}

template <bundle_visitor... V>
result<verified_bundle> verify_bundle_file(const std::string& path, const bundle_limits& lim = {}, V&&... visitors) {
  return read_file_source(path, [&](byte_source& src) { return verify_bundle(src, lim, visitors...); });
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE class detail::basic_event_checker<void>;
ASSAY_EXTERN_TEMPLATE result<manifest_view> read_manifest<void>(std::string_view, const bundle_limits&);
ASSAY_EXTERN_TEMPLATE result<verified_bundle> detail::verify_with<void>(byte_source&, const bundle_limits&,
                                                                        const detail::visit_hooks&);
}  // namespace assay::evidence
#endif
