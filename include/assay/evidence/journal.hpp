// assay/evidence/journal.hpp — a run's events.ndjson written to disk as it is recorded, and the
// bundle packed from it: when the run finishes, or after it crashed.
//
//   // a recorder that journals (recorder.hpp): every appended line reaches the file at once
//   auto run = assay::evidence::recorder::make({.journal = {{"run.journal", durability::every(64)}}});
//   ... run->append(...) ...
//   run->finish_to("run.tar.gz");                 // packed from the journal; the journal removed
//
//   // after a crash: everything the journal durably holds, as a bundle
//   auto r = assay::evidence::recover_journal("run.journal", "run.tar.gz");
//   // r->events, r->torn_bytes (a last line cut short by the crash, dropped)
//
// The journal holds exactly the bytes of events.ndjson: one canonical event per line, each
// with its content hash, seqs from 0 without a gap, one run id. Each appended line is copied
// into a shared mapping of the file before append() returns (journal_file below): it is then in
// the kernel's page cache, so a process that is killed loses none of them; the durability
// policy says when they are also forced to the disk (journal_file::sync), which is what a
// machine that loses power keeps. While the run records, zero bytes follow the lines (space
// reserved ahead); a journal closed by its recorder has none, and recovery ignores them.
// Packing reads the journal in blocks, checks every line as the verifier will
// (docs/evidence.md) and that it is in canonical form, and streams the bundle into a temporary
// file beside the target that is synced and renamed over it: memory stays flat however long
// the run was, and the target is whole or untouched.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/hash/hash.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace assay::evidence {

// When a journal's lines are forced to the disk (journal_file::sync). Every line reaches the kernel before
// append() returns whatever the policy: a killed process loses nothing; the policy bounds what a
// machine that loses power can lose.
struct durability {
  enum class mode { every_event, every_n_events, interval, never };
  mode when = mode::every_event;
  std::uint64_t events = 1;             // every_n_events: synced after each N-th event
  std::chrono::milliseconds period{0};  // interval: synced by the first append T after the last sync

  static durability every_event() { return {}; }
  static durability every(std::uint64_t n) { return {mode::every_n_events, n == 0 ? 1 : n, {}}; }
  static durability every(std::chrono::milliseconds t) { return {mode::interval, 1, t}; }
  static durability never() { return {mode::never, 1, {}}; }

  // The policy as text: "event" (every event), "N" (every N events), "Tms" (every T
  // milliseconds), "never" — what `assay evidence record --sync` takes. None for anything else
  // (N and T from 1 to 10^9, digits only).
  static std::optional<durability> parse(std::string_view text) {
    if (text == "event")
      return every_event();
    if (text == "never")
      return never();
    const bool ms = text.size() > 2 && text.substr(text.size() - 2) == "ms";
    const std::string_view digits = ms ? text.substr(0, text.size() - 2) : text;
    if (digits.empty() || digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    std::uint64_t n = 0;
    for (const char c : digits)
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
    if (n == 0 || n > 1000000000)
      return std::nullopt;
    return ms ? every(std::chrono::milliseconds(static_cast<std::int64_t>(n))) : every(n);
  }
};

struct journal_options {
  std::string path;  // created; a file already there is refused (an unfinished run's?)
  durability sync = durability::every_event();
};

// What packing a journal found.
struct journal_summary {
  std::uint64_t events = 0;      // the events of the bundle
  std::uint64_t torn_bytes = 0;  // recovery: the bytes of a last line without its newline, dropped
  std::string bundle_id;         // the manifest's bundle_id (the run root)
  std::string sha256;            // of the bundle file, "sha256:<hex>"
};

namespace detail {

inline error file_error(errc code, std::string_view what, const std::string& path, int err) {
  return make_error(code, std::string(what) + " " + path + ": " + std::strerror(err));
}

// The whole of `bytes` to `fd`, through short writes and interrupted calls.
inline int write_all(int fd, std::string_view bytes) noexcept {
  while (!bytes.empty()) {
    const ::ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// read(2), again when a signal interrupted it: the bytes read, 0 at the end, -1 with errno.
inline ::ssize_t read_some(int fd, char* buf, std::size_t n) noexcept {
  for (;;) {
    const ::ssize_t got = ::read(fd, buf, n);
    if (got >= 0 || errno != EINTR)
      return got;
  }
}

inline std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The directory entry of `path` (created, renamed, removed) made durable: best effort, since
// some file systems cannot sync a directory.
inline void sync_directory_of(const std::string& path) {
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

// A file that replaces `path` whole or not at all: written to a temporary beside it, synced and
// renamed over it by commit(); removed when destroyed uncommitted. A scratch file (unnamed, in
// the same directory) holds bytes that must wait for others to be known first.
class replacing_file {
 public:
  static result<replacing_file> open(const std::string& path) {
    replacing_file f;
    f.target_ = path;
    f.temp_ = path + ".tmp.XXXXXX";
    f.fd_ = ::mkstemp(f.temp_.data());
    if (f.fd_ < 0)
      return file_error(errc::io_error, "cannot create a temporary file for", path, errno);
    ::fchmod(f.fd_, 0644);
    return f;
  }
  replacing_file(replacing_file&& o) noexcept
      : target_(std::move(o.target_)), temp_(std::move(o.temp_)), fd_(std::exchange(o.fd_, -1)) {}
  replacing_file& operator=(replacing_file&&) = delete;
  ~replacing_file() {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(temp_.c_str());
    }
  }

  result<void> write(std::string_view bytes) {
    if (const int e = write_all(fd_, bytes))
      return file_error(errc::io_error, "cannot write", target_, e);
    return {};
  }
  // Synced, renamed over the target, the rename itself synced.
  result<void> commit() {
    if (::fsync(fd_) != 0)
      return file_error(errc::io_error, "cannot sync", target_, errno);
    if (::close(std::exchange(fd_, -1)) != 0) {
      const int e = errno;
      ::unlink(temp_.c_str());
      return file_error(errc::io_error, "cannot close", target_, e);
    }
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
      const int e = errno;
      ::unlink(temp_.c_str());
      return file_error(errc::io_error, "cannot rename the temporary file over", target_, e);
    }
    sync_directory_of(target_);
    return {};
  }
  // An unnamed file in the target's directory (gone when closed), or -1 with errno.
  int scratch() const {
    int fd = ::open(directory_of(target_).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
      return fd;
    std::string name = target_ + ".scratch.XXXXXX";  // a file system without O_TMPFILE
    fd = ::mkstemp(name.data());
    if (fd >= 0)
      ::unlink(name.c_str());
    return fd;
  }

 private:
  replacing_file() = default;
  std::string target_, temp_;
  int fd_ = -1;
};

// An open file descriptor, closed when destroyed.
struct owned_fd {
  int fd = -1;
  owned_fd() = default;
  explicit owned_fd(int f) : fd(f) {}
  owned_fd(owned_fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  owned_fd& operator=(owned_fd&& o) noexcept {
    if (this != &o) {
      if (fd >= 0)
        ::close(fd);
      fd = std::exchange(o.fd, -1);
    }
    return *this;
  }
  ~owned_fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

// The journal a recorder writes. Each line is copied into a shared mapping of the file: the
// bytes are in the kernel's page cache as soon as they are copied, so a process that is killed
// loses none of them, and an append makes no system call (a write(2) per line cost more than the
// rest of an append together). The file is reserved ahead in windows of window_bytes
// (posix_fallocate: a full disk is an error of the append that needs the space, never a SIGBUS
// later), so while the run records, the lines are followed by zero bytes; close() cuts them off,
// and recovery ignores them (no line holds a zero byte: JSON escapes it). A line's newline is
// stored after the rest of it, so a line that has its newline is whole; a kill during the copy
// leaves a torn last line without one. The policy's syncs write back the pages the lines dirtied
// (sync() below). Where the file cannot be mapped, each line is one write(2) instead.
// Not thread-safe: the recorder calls it under its lock.
class journal_file {
 public:
  static constexpr std::size_t window_bytes = std::size_t{1} << 20;

  journal_file() = default;
  journal_file(const journal_file&) = delete;
  journal_file& operator=(const journal_file&) = delete;
  ~journal_file() { (void)close(); }

  // Creates the file at `path`; one already there is refused (errno EEXIST). `syncs`: the
  // recorder's durability policy calls sync(); a window's lines are then synced before it is
  // unmapped, so that sync() finds the lines not synced yet in the window mapped.
  int create(const std::string& path, bool syncs) {
    syncs_ = syncs;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    return fd_ < 0 ? errno : 0;
  }
  // The bytes of the lines written so far.
  std::uint64_t bytes() const noexcept { return bytes_; }

  // A line of `size` bytes (its newline included) after the others: fill(dst) writes all but
  // the newline into dst, which is then stored after them. 0, or the errno of what failed
  // (nothing of the line is then in the journal).
  template <class Fill>
  int put(std::size_t size, Fill&& fill) {
    if (unmappable_) {
      thread_local std::string line;
      line.resize(size);
      fill(line.data());
      line.back() = '\n';
      const int e = write_all(fd_, line);
      if (e == 0)
        bytes_ += size;
      else
        (void)!::ftruncate(fd_, static_cast<off_t>(bytes_));  // a part written, cut off
      return e;
    }
    if (map_ == nullptr || bytes_ + size > map_at_ + map_size_) {
      if (const int e = remap(size); e != 0)
        return e;
      if (unmappable_)
        return put(size, fill);
    }
    char* at = map_ + (bytes_ - map_at_);
    fill(at);
    std::atomic_signal_fence(std::memory_order_release);  // the newline last: a line with one is whole
    at[size - 1] = '\n';
    bytes_ += size;
    return 0;
  }
  // The last line put, taken back (its sync failed): its bytes zeroed, as if never written.
  void take_back(std::size_t line_size) {
    bytes_ -= line_size;
    if (unmappable_)
      (void)!::ftruncate(fd_, static_cast<off_t>(bytes_));
    else
      std::memset(map_ + (bytes_ - map_at_), 0, line_size);
  }
  // Every line so far forced to the disk: 0 or the errno. When the lines not synced yet are all
  // in the current window, msync(MS_SYNC) of their pages (on Linux, fdatasync(2) of that range,
  // the metadata needed to read them included): the window's reserved pages that hold no line
  // yet are neither written back nor made read-only, so writing a line there later costs no page
  // fault. Otherwise (lines in a window since unmapped, or no mapping) fdatasync of the file.
  int sync() {
    int e = 0;
    if (map_ != nullptr && synced_ >= map_at_) {
      const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
      const std::uint64_t from = (synced_ - map_at_) / page * page;
      e = ::msync(map_ + from, static_cast<std::size_t>(bytes_ - map_at_ - from), MS_SYNC) == 0 ? 0 : errno;
    } else {
      e = ::fdatasync(fd_) == 0 ? 0 : errno;
    }
    if (e == 0)
      synced_ = bytes_;
    return e;
  }

  // The mapping undone and the reserved space cut off, so that the file holds the lines alone;
  // then closed. 0 or the errno of what failed.
  int close() {
    if (fd_ < 0)
      return 0;
    int e = unmap();
    if (!unmappable_ && ::ftruncate(fd_, static_cast<off_t>(bytes_)) != 0 && e == 0)
      e = errno;
    ::close(std::exchange(fd_, -1));
    return e;
  }

 private:
  int unmap() {
    if (map_ == nullptr)
      return 0;
    const int e = ::munmap(map_, map_size_) == 0 ? 0 : errno;
    map_ = nullptr;
    return e;
  }
  // A window mapped from the page that holds bytes_ on, large enough for a line of `need` bytes,
  // its space reserved in the file first.
  int remap(std::size_t need) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t at = bytes_ / page * page;
    const std::uint64_t size = std::max<std::uint64_t>(window_bytes, (bytes_ - at + need + page - 1) / page * page);
    if (at + size > reserved_) {
      int e = 0;
      do {  // (a signal that interrupts the allocation is not a full disk)
        e = ::posix_fallocate(fd_, static_cast<off_t>(reserved_), static_cast<off_t>(at + size - reserved_));
      } while (e == EINTR);
      if (e != 0)
        return e;
      reserved_ = at + size;
    }
    if (syncs_ && map_ != nullptr && synced_ < bytes_) {
      if (const int e = sync(); e != 0)
        return e;
    }
    if (const int e = unmap(); e != 0)
      return e;
    void* m = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                     static_cast<off_t>(at));
    if (m == MAP_FAILED) {
      const int e = errno;
      if (bytes_ == 0 && (e == ENODEV || e == EACCES || e == EINVAL)) {
        // A file system that cannot map files: one write(2) per line, the reserved space given back.
        unmappable_ = true;
        return ::ftruncate(fd_, 0) == 0 ? 0 : errno;
      }
      return e;
    }
#ifdef MADV_POPULATE_WRITE
    // The window's pages faulted in writable now, in one call, rather than one trap per page as
    // the lines reach them (best effort: older kernels refuse it, and then the traps happen).
    (void)::madvise(m, static_cast<std::size_t>(size), MADV_POPULATE_WRITE);
#endif
    map_ = static_cast<char*>(m);
    map_at_ = at;
    map_size_ = static_cast<std::size_t>(size);
    return 0;
  }

  int fd_ = -1;
  char* map_ = nullptr;
  std::uint64_t map_at_ = 0;    // the file offset of map_[0]
  std::size_t map_size_ = 0;    // the window's bytes
  std::uint64_t bytes_ = 0;     // the lines written
  std::uint64_t reserved_ = 0;  // the file's size: the lines and the space reserved after them
  std::uint64_t synced_ = 0;    // the lines' bytes on the disk at the last sync
  bool syncs_ = false;
  bool unmappable_ = false;
};

// The journal's line `number` (1-based) refused: where, why, and the verifier's code. The
// error's pointer, past the event's index, names the member ("at /data/decision").
inline error journal_line_error(const std::string& path, std::uint64_t number, const error& e) {
  std::string where;
  if (e.pointer.size() > 1) {
    const auto member = e.pointer.find('/', 1);
    if (member != std::string::npos)
      where = " (at " + e.pointer.substr(member) + ")";
  }
  error out = make_error(e.code, path + ": line " + std::to_string(number) + ": " + e.message + where);
  out.line = number;
  return out;
}

// The length of the file `fd` of `size` bytes without the zero bytes at its end (the space a
// journal_file reserved and a crash left): 0 to `size`, or -1 with errno.
inline std::int64_t length_without_zero_tail(int fd, std::uint64_t size) {
  char buf[1 << 14];
  while (size > 0) {
    const std::uint64_t n = std::min<std::uint64_t>(size, sizeof buf);
    const std::uint64_t from = size - n;
    std::uint64_t got = 0;
    while (got < n) {
      const ::ssize_t r = ::pread(fd, buf + got, static_cast<std::size_t>(n - got), static_cast<off_t>(from + got));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        if (r == 0)
          errno = EIO;  // shorter than fstat said: changed while read
        return -1;
      }
      got += static_cast<std::uint64_t>(r);
    }
    for (std::uint64_t i = n; i > 0; --i)
      if (buf[i - 1] != '\0')
        return static_cast<std::int64_t>(from + i);
    size = from;
  }
  return 0;
}

// Packs the first `length` bytes of the journal at `path` (none: all of it, less a tail of zero
// bytes) into the bundle at `out` (see the top of this file). With `recovering`, a last line
// without its newline (a write a crash cut short) is dropped and counted; else it is refused
// like any other fault.
template <class = void>
result<journal_summary> pack_journal(const std::string& path, const std::string& out, bool recovering,
                                     const bundle_options& opt, std::optional<std::uint64_t> length = std::nullopt) {
  owned_fd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.fd < 0)
    return file_error(errc::io_error, "cannot open the journal", path, errno);
  struct stat journal_stat {
  }, out_stat{};
  if (::fstat(in.fd, &journal_stat) != 0)
    return file_error(errc::io_error, "cannot read the journal", path, errno);
  if (::stat(out.c_str(), &out_stat) == 0 && journal_stat.st_dev == out_stat.st_dev &&
      journal_stat.st_ino == out_stat.st_ino) {
    return make_error(errc::invalid_argument,
                      "the bundle " + out + " would replace the journal " + path + ": write it to another file");
  }
  if (!length) {
    const std::int64_t n = length_without_zero_tail(in.fd, static_cast<std::uint64_t>(journal_stat.st_size));
    if (n < 0)
      return file_error(errc::io_error, "cannot read the journal", path, errno);
    length = static_cast<std::uint64_t>(n);
  }
  std::uint64_t unread = *length;
  auto target = replacing_file::open(out);
  if (!target)
    return target.error();
  owned_fd body(target->scratch());
  if (body.fd < 0)
    return file_error(errc::io_error, "cannot create a scratch file beside", out, errno);
  int body_error = 0;
  basic_bundle_stream<void> stream(
      [&](std::string_view b) {
        body_error = write_all(body.fd, b);
        return body_error == 0;
      },
      opt, true);

  journal_summary summary;
  std::string pending;  // a line read in part, waiting for the rest of it
  std::unique_ptr<char[]> buf(new char[1 << 20]);
  std::uint64_t number = 0;
  auto take = [&](std::string_view line) -> std::optional<error> {
    ++number;
    if (!stream.add(line)) {
      if (body_error != 0)
        return file_error(errc::io_error, "cannot write the scratch file beside", out, body_error);
      const error why =
          stream.refusal() ? *stream.refusal() : make_error(code::LimitFileSize, "the events are too many");
      return journal_line_error(path, number, why);
    }
    const std::string_view canonical = stream.line();
    if (canonical.substr(0, canonical.size() - 1) != line) {
      return journal_line_error(path, number,
                                make_error(code::ContractInvalidJson,
                                           "the line is not the event's canonical form (the journal was changed "
                                           "after it was written)"));
    }
    return std::nullopt;
  };
  while (unread > 0) {
    const ::ssize_t n = read_some(in.fd, buf.get(), static_cast<std::size_t>(std::min<std::uint64_t>(unread, 1 << 20)));
    if (n < 0)
      return file_error(errc::io_error, "cannot read the journal", path, errno);
    if (n == 0)
      break;
    unread -= static_cast<std::uint64_t>(n);
    std::string_view chunk(buf.get(), static_cast<std::size_t>(n));
    for (;;) {
      const auto nl = chunk.find('\n');
      if (nl == std::string_view::npos) {
        pending.append(chunk);
        if (pending.size() > opt.limits.max_line_bytes) {
          return journal_line_error(
              path, number + 1,
              make_error(code::LimitLineBytes,
                         "the line is longer than " + std::to_string(opt.limits.max_line_bytes.value()) + " bytes"));
        }
        break;
      }
      std::optional<error> e;
      if (pending.empty()) {
        e = take(chunk.substr(0, nl));
      } else {
        pending.append(chunk.substr(0, nl));
        e = take(pending);
        pending.clear();
      }
      if (e)
        return *e;
      chunk.remove_prefix(nl + 1);
    }
  }
  if (!pending.empty()) {
    if (!recovering) {
      return journal_line_error(path, number + 1,
                                make_error(code::ContractInvalidJson, "the last line has no newline (" +
                                                                          std::to_string(pending.size()) + " bytes)"));
    }
    summary.torn_bytes = pending.size();
  }
  if (number == 0)
    return make_error(code::ContractInvalidJson, path + ": the journal holds no complete event");
  auto ends = stream.finish();
  if (!ends)
    return ends.error();
  if (body_error != 0)
    return file_error(errc::io_error, "cannot write the scratch file beside", out, body_error);
  hash::sha256::state sha;
  sha.update(ends->head.data(), ends->head.size());
  if (auto w = target->write(ends->head); !w)
    return w.error();
  // The body is read back once, into the target and the digest.
  if (::lseek(body.fd, 0, SEEK_SET) < 0)
    return file_error(errc::io_error, "cannot read back the scratch file beside", out, errno);
  for (;;) {
    const ::ssize_t n = read_some(body.fd, buf.get(), 1 << 20);
    if (n < 0)
      return file_error(errc::io_error, "cannot read back the scratch file beside", out, errno);
    if (n == 0)
      break;
    const std::string_view b(buf.get(), static_cast<std::size_t>(n));
    sha.update(b.data(), b.size());
    if (auto w = target->write(b); !w)
      return w.error();
  }
  sha.update(ends->tail.data(), ends->tail.size());
  if (auto w = target->write(ends->tail); !w)
    return w.error();
  if (auto c = target->commit(); !c)
    return c.error();
  summary.events = number;
  summary.bundle_id = std::move(ends->bundle_id);
  summary.sha256 = hash::digest<hash::sha256>(sha.final()).to_string();
  return summary;
}

}  // namespace detail

// The bundle of everything the journal of an unfinished run holds, written to `out` (atomically):
// every complete line checked as the verifier checks an event (docs/evidence.md) and held to its
// canonical form; a last line without its newline — a write the crash cut short — dropped and
// counted in torn_bytes; anything else wrong refused with the journal's line number and the
// verifier's code. The journal itself is left as it was. A recovered run has no
// assay.profile.finished event: the default pack's lifecycle rule says so, as it should.
template <class = void>
result<journal_summary> recover_journal(const std::string& journal, const std::string& out,
                                        const bundle_options& opt = {}) {
  return detail::pack_journal(journal, out, true, opt);
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE result<journal_summary> detail::pack_journal<void>(const std::string&, const std::string&, bool,
                                                                         const bundle_options&,
                                                                         std::optional<std::uint64_t>);
ASSAY_EXTERN_TEMPLATE result<journal_summary> recover_journal<void>(const std::string&, const std::string&,
                                                                    const bundle_options&);
}  // namespace assay::evidence
#endif
