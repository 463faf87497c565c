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
#include "assay/evidence/atomic_file.hpp"
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
  // How the errors of packing it name it: its path when none; "" for a journal of the caller's own
  // that no user knows of (the error then says only what is wrong).
  std::optional<std::string> name{};
};

// What packing a journal found.
// Recovery: zero bytes between whole lines and more bytes, where pages of the journal never
// reached the disk (a power loss after writes the disk took out of order).
struct journal_hole {
  std::uint64_t at = 0;           // the byte offset of the first zero byte
  std::uint64_t zero_bytes = 0;   // how many
  std::uint64_t after_bytes = 0;  // the bytes after them, not recovered
};

struct journal_summary {
  std::uint64_t events = 0;      // the events of the bundle
  std::uint64_t torn_bytes = 0;  // recovery: the bytes of a line cut short (at the end, or before a hole), dropped
  std::optional<journal_hole> hole{};  // recovery: where the whole lines stopped before the end
  std::string bundle_id;               // the manifest's bundle_id (the run root)
  std::string sha256;                  // of the bundle file, "sha256:<hex>"
};

namespace detail {

using file_io::directory_of;
using file_io::file_error;
using file_io::read_some;
using file_io::scratch_file_in;
using file_io::sync_directory_of;
using file_io::write_all;

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

  // Creates the file at `path`, mode 0600 (it holds the run's events as they are); one already
  // there is refused (errno EEXIST). `syncs`: the recorder's durability policy calls sync(); a
  // window's lines are then synced before it is unmapped, so that sync() finds the lines not
  // synced yet in the window mapped.
  int create(const std::string& path, bool syncs) {
    syncs_ = syncs;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    return fd_ < 0 ? errno : 0;
  }
  // The bytes of the lines written so far.
  std::uint64_t bytes() const noexcept { return bytes_; }
  // The journal's descriptor (-1 once closed): packing reads the file the recorder wrote, not
  // whatever its path names by then.
  int fd() const noexcept { return fd_; }

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
// error's pointer, past the event's index, names the member ("at /data/decision"). A journal
// without a name (journal_options::name "") is not named, nor its line.
inline error journal_line_error(const std::string& path, std::uint64_t number, const error& e) {
  std::string where;
  if (e.pointer.size() > 1) {
    const auto member = e.pointer.find('/', 1);
    if (member != std::string::npos)
      where = " (at " + e.pointer.substr(member) + ")";
  }
  error out = make_error(
      e.code, path.empty() ? e.message + where : path + ": line " + std::to_string(number) + ": " + e.message + where);
  out.line = number;
  return out;
}

// Reads `in` from its start: pread from `offset` where it can seek, read(2) where it cannot (a
// pipe, a FIFO: `<(cat journal)`). The bytes read, 0 at the end, -1 with errno.
struct journal_reader {
  int fd;
  bool seekable = true;
  std::uint64_t offset = 0;
  ::ssize_t next(char* buf, std::size_t n) {
    for (;;) {
      const ::ssize_t got = seekable ? ::pread(fd, buf, n, static_cast<off_t>(offset)) : ::read(fd, buf, n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 && seekable && errno == ESPIPE && offset == 0) {
        seekable = false;
        continue;
      }
      if (got > 0)
        offset += static_cast<std::uint64_t>(got);
      return got;
    }
  }
};

// Packs the journal read from `in` (named `name` in messages; `length` bytes of it, or all of
// it) into the bundle `target` (see the top of this file); `scratch_dir` holds the events while
// the manifest waits for their digest. With `recovering`, the whole lines before the first zero
// byte are packed and the rest reported: a last line without its newline (a write a crash cut
// short) in torn_bytes; zero bytes to the end (the space a recorder reserved) ignored; zero bytes
// followed by more (pages written back out of order before a power loss) a hole, reported with
// what follows it. Without it, anything but whole lines is refused like any other fault.
template <class = void>
result<journal_summary> pack_journal_fd(int in, const std::string& name, atomic_file& target,
                                        const std::string& scratch_dir, bool recovering, const bundle_options& opt,
                                        std::optional<std::uint64_t> length = std::nullopt) {
  owned_fd body(scratch_file_in(scratch_dir));
  if (body.fd < 0)
    return file_error(errc::io_error, "cannot create a scratch file in", scratch_dir, errno);
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
        return file_error(errc::io_error, "cannot write the scratch file in", scratch_dir, body_error);
      const error why =
          stream.refusal() ? *stream.refusal() : make_error(code::LimitFileSize, "the events are too many");
      return journal_line_error(name, number, why);
    }
    const std::string_view canonical = stream.line();
    if (canonical.substr(0, canonical.size() - 1) != line) {
      return journal_line_error(name, number,
                                make_error(code::ContractInvalidJson,
                                           "the line is not the event's canonical form (the journal was changed "
                                           "after it was written)"));
    }
    return std::nullopt;
  };
  journal_reader reader{in};
  std::uint64_t unread = length.value_or(~std::uint64_t{0});
  bool in_zeros = false;       // recovering: past the whole lines, in zero bytes
  std::uint64_t zero_at = 0;   // where they start
  std::uint64_t fragment = 0;  // the bytes of a line cut short before them
  while (unread > 0) {
    const std::uint64_t at = reader.offset;
    const ::ssize_t n = reader.next(buf.get(), static_cast<std::size_t>(std::min<std::uint64_t>(unread, 1 << 20)));
    if (n < 0)
      return file_error(errc::io_error, "cannot read the journal", name, errno);
    if (n == 0)
      break;
    unread -= static_cast<std::uint64_t>(n);
    std::string_view chunk(buf.get(), static_cast<std::size_t>(n));
    if (summary.hole) {
      summary.hole->after_bytes += chunk.size();
      continue;
    }
    while (!chunk.empty()) {
      if (in_zeros) {
        const std::size_t data = chunk.find_first_not_of('\0');
        if (data == std::string_view::npos)
          break;
        const std::uint64_t data_at = at + static_cast<std::uint64_t>(n) - chunk.size() + data;
        summary.hole = journal_hole{zero_at, data_at - zero_at, chunk.size() - data};
        break;
      }
      const auto nl = chunk.find('\n');
      const std::string_view line = chunk.substr(0, nl);
      if (recovering) {
        if (const auto zero = line.find('\0'); zero != std::string_view::npos) {
          fragment = pending.size() + zero;
          pending.clear();
          in_zeros = true;
          zero_at = at + static_cast<std::uint64_t>(n) - chunk.size() + zero;
          chunk.remove_prefix(zero);
          continue;
        }
      }
      if (nl == std::string_view::npos) {
        pending.append(chunk);
        if (pending.size() > opt.limits.max_line_bytes) {
          return journal_line_error(
              name, number + 1,
              make_error(code::LimitLineBytes,
                         "the line is longer than " + std::to_string(opt.limits.max_line_bytes.value()) + " bytes"));
        }
        break;
      }
      std::optional<error> e;
      if (pending.empty()) {
        e = take(line);
      } else {
        pending.append(line);
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
      return journal_line_error(name, number + 1,
                                make_error(code::ContractInvalidJson, "the last line has no newline (" +
                                                                          std::to_string(pending.size()) + " bytes)"));
    }
    fragment = pending.size();
  }
  summary.torn_bytes = fragment;
  if (number == 0) {
    std::string why = name + ": the journal holds no complete event";
    if (summary.hole)
      why += " before a hole of " + std::to_string(summary.hole->zero_bytes) + " zero bytes at byte " +
             std::to_string(summary.hole->at);
    return make_error(code::ContractInvalidJson, why);
  }
  auto ends = stream.finish();
  if (!ends)
    return ends.error();
  if (body_error != 0)
    return file_error(errc::io_error, "cannot write the scratch file in", scratch_dir, body_error);
  hash::sha256::state sha;
  auto put = [&](std::string_view b) -> result<void> {
    sha.update(b.data(), b.size());
    if (!target.write(b))
      return file_error(errc::io_error, "cannot write", target.path(), target.error_code());
    return {};
  };
  if (auto w = put(ends->head); !w)
    return w.error();
  // The body is read back once, into the target and the digest.
  if (::lseek(body.fd, 0, SEEK_SET) < 0)
    return file_error(errc::io_error, "cannot read back the scratch file in", scratch_dir, errno);
  for (;;) {
    const ::ssize_t n = read_some(body.fd, buf.get(), 1 << 20);
    if (n < 0)
      return file_error(errc::io_error, "cannot read back the scratch file in", scratch_dir, errno);
    if (n == 0)
      break;
    if (auto w = put(std::string_view(buf.get(), static_cast<std::size_t>(n))); !w)
      return w.error();
  }
  if (auto w = put(ends->tail); !w)
    return w.error();
  if (auto c = target.commit(); !c)
    return c.error();
  summary.events = number;
  summary.bundle_id = std::move(ends->bundle_id);
  summary.sha256 = hash::digest<hash::sha256>(sha.final()).to_string();
  return summary;
}

// The same from the journal at `path` into the bundle at `out` (written atomically, refused
// when it would replace the journal itself).
template <class = void>
result<journal_summary> pack_journal(const std::string& path, const std::string& out, bool recovering,
                                     const bundle_options& opt) {
  owned_fd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.fd < 0)
    return file_error(errc::io_error, "cannot open the journal", path, errno);
  struct stat journal_stat {
  }, out_stat{};
  if (::fstat(in.fd, &journal_stat) != 0)
    return file_error(errc::io_error, "cannot read the journal", path, errno);
  if (S_ISDIR(journal_stat.st_mode))
    return file_error(errc::io_error, "cannot read the journal", path, EISDIR);
  if (::stat(out.c_str(), &out_stat) == 0 && journal_stat.st_dev == out_stat.st_dev &&
      journal_stat.st_ino == out_stat.st_ino) {
    return make_error(errc::invalid_argument,
                      "the bundle " + out + " would replace the journal " + path + ": write it to another file");
  }
  auto target = atomic_file::open(out);
  if (!target)
    return target.error();
  return pack_journal_fd(in.fd, path, *target, directory_of(out), recovering, opt);
}

}  // namespace detail

// The bundle of everything the journal of an unfinished run holds, written to `out` (atomically):
// every complete line checked as the verifier checks an event (docs/evidence.md) and held to its
// canonical form; a last line without its newline — a write the crash cut short — dropped and
// counted in torn_bytes; zero bytes at the end (reserved space) ignored; zero bytes with more
// after them (pages lost in a power loss) a hole: the whole lines before it are recovered, the
// hole and what follows it reported (journal_summary::hole); anything else wrong refused with the
// journal's line number and the verifier's code. The journal may be a pipe or a FIFO; it is left
// as it was. A recovered run has no
// assay.profile.finished event: the default pack's lifecycle rule says so, as it should.
template <class = void>
result<journal_summary> recover_journal(const std::string& journal, const std::string& out,
                                        const bundle_options& opt = {}) {
  return detail::pack_journal(journal, out, true, opt);
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE result<journal_summary> detail::pack_journal_fd<void>(int, const std::string&, atomic_file&,
                                                                            const std::string&, bool,
                                                                            const bundle_options&,
                                                                            std::optional<std::uint64_t>);
ASSAY_EXTERN_TEMPLATE result<journal_summary> detail::pack_journal<void>(const std::string&, const std::string&, bool,
                                                                         const bundle_options&);
ASSAY_EXTERN_TEMPLATE result<journal_summary> recover_journal<void>(const std::string&, const std::string&,
                                                                    const bundle_options&);
}  // namespace assay::evidence
#endif
