// assay/evidence/recorder.hpp — recording a run as it happens and finishing it as a bundle.
//
//   auto run = assay::evidence::recorder::make({.source = "urn:assay:my-runtime",
//                                               .producer = {"my-runtime", "1.4.0", std::nullopt}});
//   if (!run) ...                                           // every bad option, with its pointer
//   if (auto seq = run->append("assay.tool.decision", decision); !seq) ...   // refused: why
//   auto gz = run->finish();                                // the .tar.gz bytes
//   run->finish_to("run.tar.gz");                           // or written to a file, atomically
//
// The recorder fills the envelope of every event (docs/evidence.md): specversion, id = run_id:seq, seq,
// time (RFC 3339 UTC with 0, 3, 6 or 9 fraction digits, the fewest that are exact), producer,
// git, privacy flags and the content hash. Its options are checked when it is made (the source
// a URI, the run id without ':', the producer named, everything valid UTF-8); each event when it
// is appended, as `assay validate evidence-event-v1` would check it: its type, trace context and
// payload. A payload of a known event type (contracts/known_payloads.hpp) is held to that type's
// contract whatever C++ type carries it (a json::value, a struct of your own); a listed payload
// type must be recorded under its own event type. A refused event leaves no trace.
//
// Each event is written once, as its line of events.ndjson: the envelope's members in canonical
// order around the payload's canonical bytes, which are hashed once for the content hash as
// they stand. In memory, finish() checks the verifier's limits, writes the manifest and packs
// the lines as they are: nothing is parsed again. With a journal (recorder_options::journal,
// journal.hpp) each line goes to a file as it is appended, and nothing per event is kept in
// memory: a run that crashes leaves its journal, which recover_journal() turns into a bundle;
// finish_to() packs a finished one. append() may be called from any number of threads.
#pragma once

#include "assay/error.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
#include "assay/evidence/atomic_file.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/journal.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/separate.hpp"
#include "assay/version.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::evidence {

// What a recorder does with the values a payload's privacy classes call sensitive
// (docs/privacy.md): generalizes them before the event is hashed (the default: evidence is safe
// by default for storage), or keeps them as written, an explicit choice. A forbidden value is
// dropped either way.
enum class privacy_mode : std::uint8_t { redact, keep_sensitive };

struct recorder_options {
  std::string source = "urn:assay:runtime";  // a URI: contains ':', not first
  std::string run_id{};                      // no ':'; default: a live run id (UUIDv7)
  producer_info producer = {"assay", std::string(assay::version), std::nullopt};  // name and version not empty
  std::optional<std::string> policy_id{};
  // The clock, replaceable for reproducible runs (called under the recorder's lock).
  std::function<std::chrono::system_clock::time_point()> clock = [] { return std::chrono::system_clock::now(); };
  // Where every event's line is written as it is appended (journal.hpp); none: kept in memory.
  std::optional<journal_options> journal{};
  privacy_mode privacy = privacy_mode::redact;
};

// Envelope members an event may set beyond its payload.
struct event_extras {
  std::optional<std::string> subject{};
  std::optional<std::string> traceparent{};
  std::optional<std::string> tracestate{};
  bool pii = false;
  bool secrets = false;
};

namespace detail {

// How deeply canonical JSON nests (a scalar: 0).
inline std::uint32_t nesting_depth(std::string_view json) noexcept {
  std::uint32_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

// An upper bound of the nesting depth of canonical JSON (a scalar: 0): its '{' and '[' bytes,
// counted without regard to strings (vectorized, where nesting_depth reads byte by byte).
inline std::uint32_t nesting_depth_bound(std::string_view json) noexcept {
  std::size_t n = 0;
  for (const char c : json)
    n += static_cast<std::size_t>(c == '{' || c == '[');
  return n > 0xffffffffu ? 0xffffffffu : static_cast<std::uint32_t>(n);
}

// `"name":` and `s` as a JSON string, appended to out; false when s is not valid UTF-8.
inline bool append_member(std::string& out, std::string_view name, std::string_view s) {
  out += ",\"";
  out += name;
  out += "\":";
  json::string_sink sink{&out};
  json::writer<json::string_sink> w(sink);
  return json::write_string(w, s);
}

// Where the check of a contract member reports: into a list, at a pointer.
struct report_into {
  errors& out;
  std::string_view pointer;
  void operator()(errc code, std::string message) {
    out.items.push_back(make_error(code, std::move(message), std::string(pointer)));
  }
};

// `value` checked as the member type C checks it (and as valid UTF-8), into `out`.
template <class C = std::string>
void check_member(errors& out, std::string_view pointer, std::string_view value) {
  report_into report{out, pointer};
  if (!json::is_valid_utf8(value)) {
    report(errc::invalid_utf8, "string is not valid UTF-8");
    return;
  }
  if constexpr (!std::is_same_v<C, std::string>)
    C::assay_check(value, report);
}

// The errors of a payload validated on its own, placed under `under` (they have no position: the
// bytes they were found in are the recorder's, not the caller's).
inline void add_under(errors& out, errors found, std::string_view under) {
  for (auto& e : found.items) {
    e.pointer = std::string(under) + e.pointer;
    e.offset = error::npos;
    e.line = 0;
    e.column = 0;
    out.items.push_back(std::move(e));
  }
}

}  // namespace detail

template <class = void>
class basic_recorder {
 public:
  // A recorder for a run with these options, or every option that is wrong, with its pointer
  // into recorder_options (/source, /run_id, /producer/name, ...). With a journal, its file is
  // created here; one already at that path is refused (it may be an unfinished run's).
  static results<basic_recorder> make(recorder_options o = {}) {
    errors bad;
    detail::check_member<contracts::event_v1::source_uri>(bad, "/source", o.source);
    if (!o.run_id.empty())
      detail::check_member<contracts::event_v1::run_id>(bad, "/run_id", o.run_id);
    detail::check_member<non_empty>(bad, "/producer/name", o.producer.name);
    detail::check_member<non_empty>(bad, "/producer/version", o.producer.version);
    if (o.producer.git)
      detail::check_member(bad, "/producer/git", *o.producer.git);
    if (o.policy_id)
      detail::check_member(bad, "/policy_id", *o.policy_id);
    if (!o.clock)
      bad.items.push_back(make_error(errc::invalid_argument, "no clock", "/clock"));
    if (o.journal && o.journal->path.empty())
      bad.items.push_back(make_error(errc::invalid_argument, "no journal path", "/journal/path"));
    if (!bad.empty())
      return bad;
    basic_recorder r(std::move(o));
    if (r.opt_.journal) {
      const std::string& path = r.opt_.journal->path;
      const bool syncs = r.opt_.journal->sync.when != durability::mode::never;
      if (const int e = r.st_->journal.file.create(path, syncs); e == EEXIST) {
        return errors(make_error(errc::io_error,
                                 "a journal already exists at " + path +
                                     ": an unfinished run's? Recover it (assay evidence recover " + path +
                                     " --out B.tar.gz) or remove it",
                                 "/journal/path"));
      } else if (e != 0) {
        return errors(detail::file_error(errc::io_error, "cannot create the journal", path, e));
      }
      if (syncs)
        detail::sync_directory_of(path);  // the journal's name survives a power loss too
    }
    return r;
  }

  const std::string& run_id() const noexcept { return opt_.run_id; }
  // The events recorded so far.
  std::uint64_t size() const {
    std::lock_guard<std::mutex> lock(st_->mu);
    return st_->count;
  }
  // The journal's path, when the recorder writes one.
  const std::string* journal_path() const noexcept { return opt_.journal ? &opt_.journal->path : nullptr; }

  // The canonical line of event `seq` (without its newline), while the run is in memory; none
  // when seq was not recorded, or when the lines are in a journal instead.
  std::optional<std::string> line(std::uint64_t seq) const {
    std::lock_guard<std::mutex> lock(st_->mu);
    if (opt_.journal || seq >= st_->count)
      return std::nullopt;
    return std::string(line_locked(seq));
  }
  // Event `seq` as a DOM value (read from its line), when line(seq) has it.
  std::optional<json::value> event(std::uint64_t seq) const {
    auto l = line(seq);
    if (!l)
      return std::nullopt;
    return json::parse(*l).value();
  }

  // Appends an event of `type` with `data` (a reflected payload, or a json::value). Returns its
  // seq, or every violation, each with its pointer into the event (/type, /traceparent,
  // /data/...): the event is then not recorded. A result to look at, never to drop.
  //
  // Safe from any number of threads at once. The seqs are dense and unique, given in the order
  // appends complete: of two appends, the one that returned first has the lower seq, and one
  // thread's events are in the order it appended them. The payload is encoded, checked and
  // hashed before the recorder is locked; the lock covers numbering, the line's assembly and
  // its write to the journal (and the fdatasync the durability policy asks for). With a
  // journal the line is in the file when append() returns; when the write fails, the event is
  // not recorded and the journal is cut back to the events before it.
  template <class Payload>
  [[nodiscard]] results<std::uint64_t> append(std::string_view type, const Payload& data,
                                              const event_extras& extras = {}) {
    thread_local scratch mine;  // this thread's buffers: no allocation per append once they have grown
    const bool known_type = !mine.type.empty() && type == mine.type;  // as the last append's: checked
    errors bad = check_event<Payload>(type, extras, known_type);
    // The payload is written into the projection the content hash covers, after its start; once
    // hashed, the projection's first byte becomes the comma that makes it the line's ,"data":<payload>.
    std::string& projection = mine.projection;
    projection.assign(projection_before_data);
    {
      json::string_sink sink{&projection};
      if constexpr (std::is_same_v<Payload, json::value>) {
        if (auto r = json::to_sink(sink, data); !r) {
          detail::add_under(bad, errors(r.error()), "/data");
          return bad;
        }
      } else if (auto r = reflect::encode_to(sink, data); !r) {
        auto all = assay::validate(data);
        detail::add_under(bad, all ? errors(r.error()) : all.error(), "/data");
        return bad;
      }
    }
    const std::string_view payload = std::string_view(projection).substr(projection_before_data.size());
    if constexpr (!contracts::listed_payload<Payload, contracts::known_payloads>) {
      // Not the listed type itself (which its encoding checked): held to the contract of a
      // known type all the same.
      if (const auto* known = contracts::find_event_type(type)) {
        if (auto r = known->validate_data(payload, json::limits{}); !r)
          detail::add_under(bad, r.error(), "/data");
      }
    }
    if (!bad.empty())
      return bad;
    if (!known_type) {
      if (auto e = mine.take_type(type))
        return errors(std::move(*e));
    }
    // Safe by default (docs/privacy.md): the privacy classes of the type applied before the event
    // is hashed, when they can change anything (a quick look first; most payloads have nothing).
    event_extras redacted;
    const event_extras* ex = &extras;
    if (may_redact<Payload>(mine, payload, extras)) {
      if (auto e = apply_privacy(mine, projection, type, extras, redacted))
        return errors(std::move(*e));
      ex = &redacted;
    }
    const std::size_t data_size = projection.size();  // of {"data":<payload>
    // In memory, how deeply the event may nest, for finish() to check against the limits.
    const std::uint32_t depth =
        opt_.journal
            ? 0
            : 1 + detail::nesting_depth_bound(std::string_view(projection).substr(projection_before_data.size()));
    if (ex->subject) {
      auto t = projection_after_data(datacontenttype, specversion, ex->subject, type);
      if (!t)
        return errors(t.error());
      projection += *t;
    } else {
      projection += mine.after_data;
    }
    const auto h = content_hash_of_projection(projection);
    projection.resize(data_size);
    projection.front() = ',';

    const line_parts parts = parts_of(mine, h, projection, *ex);

    std::lock_guard<std::mutex> lock(st_->mu);
    if (st_->refusal)
      return errors(*st_->refusal);
    const std::uint64_t seq = st_->count;
    char seq_digits[24];
    const auto seq_size = static_cast<std::size_t>(std::to_chars(seq_digits, seq_digits + 24, seq).ptr - seq_digits);
    char time[32];
    const std::size_t time_size = json::format_rfc3339_to(time, opt_.clock());
    const std::size_t size = parts.size + 2 * seq_size + time_size + 1;
    auto fill = [&](char* p) {  // the line but its newline, copied where it goes
      auto put = [&p](std::string_view piece) {
        std::memcpy(p, piece.data(), piece.size());
        p += piece.size();
      };
      put(line_start);
      put(std::string_view(parts.hex, sizeof parts.hex));
      put(parts.before_seq);
      put(std::string_view(seq_digits, seq_size));
      put(projection);
      put(before_id_seq_);
      put(std::string_view(seq_digits, seq_size));
      put(parts.before_time);
      put(std::string_view(time, time_size));
      put(parts.after_time);
    };
    if (opt_.journal) {
      if (auto e = st_->journal.put(size, fill, opt_.journal->path, opt_.journal->sync))
        return errors(std::move(*e));
    } else {
      const std::size_t start = st_->lines.size();
      st_->lines.resize(start + size);
      fill(st_->lines.data() + start);
      st_->lines.back() = '\n';
      st_->starts.push_back(start);
      st_->depths.push_back(depth);
    }
    ++st_->count;
    return seq;
  }

  // The bundle of everything recorded so far (with a journal: read back from it).
  result<std::string> finish(bundle_options o = {}) const {
    if (!o.producer)
      o.producer = opt_.producer;
    std::lock_guard<std::mutex> lock(st_->mu);
    if (opt_.journal) {
      if (st_->refusal)
        return *st_->refusal;
      return journal_bytes(o);
    }
    auto b = finish_locked(o);
    if (!b)
      return b.error();
    return std::move(b->first);
  }

  // The bundle of everything recorded, written to `path` whole or not at all (a temporary beside
  // it, synced and renamed over it). With a journal, the bundle is packed from the journal in
  // blocks, with memory that stays flat however many events there are; once it is written the
  // journal is removed and the recorder takes no more events. When it fails, the journal stays
  // as it was (finish_to may be called again, or the journal recovered).
  result<journal_summary> finish_to(const std::string& path, bundle_options o = {}) {
    if (opt_.journal) {  // the file this recorder wrote, through its descriptor
      std::lock_guard<std::mutex> lock(st_->mu);
      struct stat mine {
      }, there{};
      if (st_->journal.file.fd() >= 0 && ::fstat(st_->journal.file.fd(), &mine) == 0 &&
          ::stat(path.c_str(), &there) == 0 && there.st_dev == mine.st_dev && there.st_ino == mine.st_ino) {
        return make_error(errc::invalid_argument, "the bundle " + path + " would replace the journal " +
                                                      opt_.journal->path + ": write it to another file");
      }
    }
    auto out = atomic_file::open(path);
    if (!out)
      return out.error();
    return finish_into(*out, detail::directory_of(path), std::move(o));
  }

  // The same into an output already open (atomic_file::standard_output() too), committed here;
  // `scratch_dir` holds the events while the manifest waits for their digest (with a journal).
  result<journal_summary> finish_into(atomic_file& out, const std::string& scratch_dir, bundle_options o = {}) {
    if (!o.producer)
      o.producer = opt_.producer;
    std::lock_guard<std::mutex> lock(st_->mu);
    if (st_->refusal)
      return *st_->refusal;
    if (!opt_.journal) {
      auto b = finish_locked(o);
      if (!b)
        return b.error();
      out.write(b->first);
      if (auto c = out.commit(); !c)
        return c.error();
      return journal_summary{st_->count, 0, std::nullopt, std::move(b->second),
                             hash::digest_bytes<hash::sha256>(b->first).to_string()};
    }
    const std::string& journal = opt_.journal->path;
    detail::journal_file& file = st_->journal.file;
    if (const int e = file.sync(); e != 0)
      return detail::file_error(errc::io_error, "cannot sync the journal", journal, e);
    struct stat mine {
    }, there{};
    if (::fstat(file.fd(), &mine) != 0)
      return detail::file_error(errc::io_error, "cannot read the journal", journal, errno);
    auto summary = detail::pack_journal_fd(file.fd(), opt_.journal->name.value_or(journal), out, scratch_dir, false, o,
                                           file.bytes());
    if (!summary)
      return summary;
    (void)file.close();
    // Removed only while its name is still this recorder's file (another run may have made a
    // journal of that name since).
    if (::stat(journal.c_str(), &there) == 0 && there.st_dev == mine.st_dev && there.st_ino == mine.st_ino) {
      ::unlink(journal.c_str());
      detail::sync_directory_of(journal);
    }
    st_->refusal = make_error(errc::invalid_argument, "the run was finished: its bundle is " + out.path());
    return summary;
  }

 private:
  // What appends share, behind one lock (held by pointer: the recorder stays movable).
  struct journal_state {
    detail::journal_file file;
    std::uint64_t unsynced = 0;  // lines written since the last fdatasync
    std::chrono::steady_clock::time_point synced = std::chrono::steady_clock::now();

    // A line of `size` bytes to the file (journal_file::put), and the sync the policy asks for;
    // on failure the line is taken back and the error returned (the event is not recorded).
    template <class Fill>
    std::optional<error> put(std::size_t size, Fill& fill, const std::string& path, const durability& d) {
      if (const int e = file.put(size, fill); e != 0)
        return detail::file_error(errc::io_error, "cannot write the journal", path, e);
      ++unsynced;
      bool sync = false;
      switch (d.when) {
        case durability::mode::every_event:
          sync = true;
          break;
        case durability::mode::every_n_events:
          sync = unsynced >= d.events;
          break;
        case durability::mode::interval:
          sync = std::chrono::steady_clock::now() - synced >= d.period;
          break;
        case durability::mode::never:
          break;
      }
      if (sync) {
        if (const int e = file.sync(); e != 0) {
          file.take_back(size);
          return detail::file_error(errc::io_error, "cannot sync the journal", path, e);
        }
        unsynced = 0;
        synced = std::chrono::steady_clock::now();
      }
      return std::nullopt;
    }
  };
  struct shared_state {
    mutable std::mutex mu;
    std::uint64_t count = 0;
    std::string lines;                  // in memory: events.ndjson so far
    std::vector<std::size_t> starts;    // in memory: where each event's line starts
    std::vector<std::uint32_t> depths;  // in memory: how deeply each event may nest (a bound)
    journal_state journal;
    std::optional<error> refusal;  // why no more events are taken (the run was finished)
    // Destroyed, the journal_file closes the journal, which stays: a run that was not finished
    // can be recovered.
  };

  explicit basic_recorder(recorder_options o) : opt_(std::move(o)), st_(std::make_unique<shared_state>()) {
    if (opt_.run_id.empty())
      opt_.run_id = live_run_id();
    // The envelope members every event shares, written once (make() checked they are UTF-8);
    // see line_parts for the layout.
    std::string after_hash = "\"";  // closes the hash: ","assaygit":..,"assaypii":
    detail::append_member(after_hash, "assaygit", opt_.producer.git.value_or("unknown"));
    after_hash += ",\"assaypii\":";
    std::string after_pii;  // ,"assaypolicyid"?,"assayproducer",..,"assaysecrets":
    if (opt_.policy_id)
      detail::append_member(after_pii, "assaypolicyid", *opt_.policy_id);
    detail::append_member(after_pii, "assayproducer", opt_.producer.name);
    detail::append_member(after_pii, "assayproducerversion", opt_.producer.version);
    detail::append_member(after_pii, "assayrunid", opt_.run_id);
    after_pii += ",\"assaysecrets\":";
    for (int k = 0; k < 4; ++k) {
      before_seq_[k] =
          after_hash + (k >= 2 ? "true" : "false") + after_pii + (k % 2 == 1 ? "true" : "false") + ",\"assayseq\":";
    }
    before_id_seq_ = ",\"datacontenttype\":\"application/json\"";
    detail::append_member(before_id_seq_, "id", opt_.run_id);
    before_id_seq_.back() = ':';  // the run id's closing quote: the seq follows
    before_subject_ = "\"";       // closes the id
    detail::append_member(before_subject_, "source", opt_.source);
    before_subject_ += ",\"specversion\":\"1.0\"";
    before_time_ = before_subject_ + ",\"time\":\"";
  }

  // An event's line is these pieces, in this order (the envelope's members in canonical order
  // around the payload's canonical bytes):
  //   {"assaycontenthash":"sha256:   <hex>   ","assaygit":..,"assaypii":..,"assaypolicyid"?,
  //   "assayproducer":..,"assayproducerversion":..,"assayrunid":..,"assaysecrets":..,"assayseq":
  //   <seq>   ,"data":   <payload>   ,"datacontenttype":"application/json","id":"<run id>:
  //   <seq>   ","source":..,"specversion":"1.0","subject"?,"time":"   <time>
  //   ","traceparent"?,"tracestate"?,"type":..}
  // The seq and the time are known only under the lock; everything else is made before it, and
  // the line is copied where it goes (the journal's mapping, the in-memory lines) piece by piece.
  static constexpr std::string_view line_start = R"({"assaycontenthash":"sha256:)";
  struct line_parts {
    char hex[64];
    std::string_view before_seq;   // ","assaygit":.. to "assayseq":
    std::string_view before_time;  // ","source":.. to "time":"
    std::string_view after_time;   // ", the trace context, the type, }
    std::size_t size;              // of the line but the seq, the time and the newline
  };
  static constexpr std::string_view datacontenttype = "application/json";
  static constexpr std::string_view specversion = "1.0";
  // What an append needs per thread.
  struct scratch {
    std::string projection;   // what the content hash covers, then the line's ,"data":<payload>
    std::string before_time;  // when the event has a subject
    std::string after_time;   // when it has trace context
    // The type of the last event appended (checked, and the payload's type if it has one), and
    // what it makes: the projection after the data (without subject), the line's end.
    std::string type;
    std::string after_data;
    std::string type_end;                              // ","type":"<type>"}
    const detail::redactor_entry* redactor = nullptr;  // its privacy classes; none: an unknown type

    std::optional<error> take_type(std::string_view t) {
      type.clear();
      redactor = detail::find_redactor(t);
      auto a = projection_after_data(datacontenttype, specversion, std::nullopt, t);
      if (!a)
        return a.error();
      after_data = std::move(*a);
      type_end.assign("\"");
      detail::append_member(type_end, "type", t);
      type_end += '}';
      type = t;
      return std::nullopt;
    }
  };

  // False when the privacy classes cannot change the event: a listed payload type with no
  // member that is not public, or a payload (and sensitive subject) in which no sensitive rule
  // can match; kept sensitive values leave only a type's forbidden members to drop.
  template <class Payload>
  bool may_redact(const scratch& mine, std::string_view payload, const event_extras& extras) const {
    if (mine.redactor != nullptr && mine.redactor->has_forbidden)
      return true;
    if (opt_.privacy == privacy_mode::keep_sensitive)
      return false;
    if constexpr (contracts::listed_payload<Payload, contracts::known_payloads>) {
      if constexpr (!detail::holds_class<Payload, false>())
        return false;
    }
    if (may_need_redaction(payload))
      return true;
    return extras.subject && mine.redactor != nullptr && mine.redactor->subject == privacy::sensitive &&
           may_need_redaction(*extras.subject);
  }

  // The payload in `projection` (after projection_before_data) with its type's privacy classes
  // applied (redact.hpp), written back in canonical form, and the envelope's flags and subject
  // as the redaction leaves them, into `out`. An error when the payload cannot be read back (it
  // nests deeper than redaction reads) or breaks its contract once redacted.
  std::optional<error> apply_privacy(const scratch& mine, std::string& projection, std::string_view type,
                                     const event_extras& extras, event_extras& out) const {
    json::limits lim;
    lim.max_depth = 4096;
    lim.max_members = static_cast<std::size_t>(-1);
    lim.max_string_chars = static_cast<std::size_t>(-1);
    auto v = json::parse(std::string_view(projection).substr(projection_before_data.size()), lim);
    if (!v)
      return make_error(v.error().code, "the payload cannot be redacted: " + v.error().message, "/data");
    const redact_options ro{.keep_sensitive = opt_.privacy == privacy_mode::keep_sensitive};
    redaction r;
    if (mine.redactor != nullptr)
      mine.redactor->redact(*v, ro, r);
    else if (!ro.keep_sensitive)
      redact_strings(*v, r);
    out = extras;
    if (!ro.keep_sensitive && extras.subject && mine.redactor != nullptr &&
        mine.redactor->subject == privacy::sensitive)
      out.subject = redact_string(*extras.subject, r);
    out.pii = out.pii || r.set_pii;
    out.secrets = out.secrets || r.set_secrets;
    if (!r.changed())
      return std::nullopt;
    projection.resize(projection_before_data.size());
    json::string_sink sink{&projection};
    if (auto w = json::to_sink(sink, *v); !w)
      return make_error(w.error().code, "the redacted payload cannot be written: " + w.error().message, "/data");
    if (const auto* known = contracts::find_event_type(type)) {
      if (auto c =
              known->validate_data(std::string_view(projection).substr(projection_before_data.size()), json::limits{});
          !c) {
        error e = c.error().front();
        e.message = "once redacted, the payload breaks its contract: " + e.message;
        e.pointer = "/data" + e.pointer;
        return e;
      }
    }
    return std::nullopt;
  }

  line_parts parts_of(scratch& mine, const hash::digest<hash::sha256>& h, std::string_view data,
                      const event_extras& extras) const {
    line_parts parts;
    hash::write_hex(parts.hex, h.bytes().data(), h.bytes().size());
    parts.before_seq = before_seq_[(extras.pii ? 2 : 0) + (extras.secrets ? 1 : 0)];
    if (extras.subject) {
      mine.before_time.assign(before_subject_);
      detail::append_member(mine.before_time, "subject", *extras.subject);
      mine.before_time += R"(,"time":")";
      parts.before_time = mine.before_time;
    } else {
      parts.before_time = before_time_;
    }
    if (extras.traceparent || extras.tracestate) {
      mine.after_time.assign("\"");
      if (extras.traceparent)
        detail::append_member(mine.after_time, "traceparent", *extras.traceparent);
      if (extras.tracestate)
        detail::append_member(mine.after_time, "tracestate", *extras.tracestate);
      mine.after_time.append(mine.type_end, 1);
      parts.after_time = mine.after_time;
    } else {
      parts.after_time = mine.type_end;
    }
    parts.size = line_start.size() + sizeof parts.hex + parts.before_seq.size() + data.size() + before_id_seq_.size() +
                 parts.before_time.size() + parts.after_time.size();
    return parts;
  }

  std::string_view line_locked(std::uint64_t seq) const {
    const std::size_t end = seq + 1 < st_->starts.size() ? st_->starts[seq + 1] : st_->lines.size();
    return std::string_view(st_->lines).substr(st_->starts[seq], end - 1 - st_->starts[seq]);
  }

  // In memory: the bundle's bytes and its id (the run root), under the lock.
  result<std::pair<std::string, std::string>> finish_locked(const bundle_options& o) const {
    const bundle_limits& lim = o.limits;
    const std::uint64_t n = st_->count;
    if (auto e = detail::check_event_count(n, lim))
      return *e;
    run_root_builder root;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::string_view l = line_locked(i);
      if (st_->depths[i] > lim.max_json_depth && detail::nesting_depth(l) > lim.max_json_depth) {
        return detail::event_error(
            code::LimitJsonDepth, i, "",
            "the event nests deeper than " + std::to_string(lim.max_json_depth.value()) + " levels");
      }
      if (l.size() > lim.max_line_bytes) {
        return detail::event_error(
            code::LimitLineBytes, i, "",
            "the event's line would be longer than " + std::to_string(lim.max_line_bytes.value()) + " bytes");
      }
      root.add(l.substr(hash_offset, content_hash_size));
    }
    if (st_->lines.size() > lim.max_events_bytes) {
      return make_error(code::LimitFileSize, "events.ndjson would be larger than " +
                                                 std::to_string(lim.max_events_bytes.value()) + " bytes");
    }
    std::string run_root = root.finish();
    const detail::stream_facts facts{st_->lines.size(), hash::digest_bytes<hash::sha256>(st_->lines).to_string(),
                                     opt_.run_id, run_root, n};
    auto manifest = detail::write_manifest(facts, *o.producer, o);
    if (!manifest)
      return manifest.error();
    auto gz = pack_bundle(*manifest, st_->lines, o);
    if (!gz)
      return gz.error();
    return std::pair<std::string, std::string>(std::move(*gz), std::move(run_root));
  }

  // With a journal: the bundle of the journal's lines, read back whole (finish() returns bytes).
  result<std::string> journal_bytes(const bundle_options& o) const {
    std::string text(st_->journal.file.bytes(), '\0');
    detail::journal_reader in{st_->journal.file.fd()};
    std::size_t got = 0;
    while (got < text.size()) {
      const ::ssize_t n = in.next(text.data() + got, text.size() - got);
      if (n <= 0)
        return detail::file_error(errc::io_error, "cannot read the journal", opt_.journal->path, n < 0 ? errno : EIO);
      got += static_cast<std::size_t>(n);
    }
    std::vector<std::string_view> lines;
    lines.reserve(st_->count);
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t nl = text.find('\n', at);
      lines.emplace_back(text.data() + at, nl - at);
      at = nl + 1;
    }
    auto gz = write_bundle(std::span<const std::string_view>(lines), o);
    if (!gz)
      return gz.error().front();
    return std::move(*gz);
  }

  // Every violation of the envelope members the caller gives (docs/evidence.md) and of the payload's
  // contract: a listed payload type under its own type; any other payload of a known type
  // validated as that type's payload (its canonical bytes, `data`). A type this thread appended
  // last (`known_type`) passed already.
  template <class Payload>
  static errors check_event(std::string_view type, const event_extras& extras, bool known_type) {
    errors bad;
    if (!known_type)
      detail::check_member<non_empty>(bad, "/type", type);
    if (extras.subject)
      detail::check_member(bad, "/subject", *extras.subject);
    if (extras.traceparent) {
      const std::size_t before = bad.size();
      detail::check_member<contracts::event_v1::traceparent>(bad, "/traceparent", *extras.traceparent);
      if (bad.size() == before) {
        for (auto& v : contracts::event_v1::trace_id_violations(*extras.traceparent))
          bad.items.push_back(make_error(errc::rule_violation, std::move(v), "/traceparent"));
      }
    }
    if (extras.tracestate)
      detail::check_member(bad, "/tracestate", *extras.tracestate);
    if constexpr (requires { Payload::event_type; }) {
      if (!known_type && type != Payload::event_type)
        bad.items.push_back(make_error(errc::rule_violation,
                                       contracts::event_v1::payload_type_violation(Payload::event_type), "/type"));
    }
    return bad;
  }

  static constexpr std::size_t hash_offset = 21;        // {"assaycontenthash":"
  static constexpr std::size_t content_hash_size = 71;  // sha256:<64 hex>

  recorder_options opt_;
  std::string before_seq_[4];   // by pii * 2 + secrets
  std::string before_id_seq_;   // ,"datacontenttype":"application/json","id":"<run id>:
  std::string before_subject_;  // ","source":..,"specversion":"1.0"
  std::string before_time_;     // the same, then ,"time":"
  std::unique_ptr<shared_state> st_;
};
using recorder = basic_recorder<>;

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE class basic_recorder<void>;
}  // namespace assay::evidence
#endif
