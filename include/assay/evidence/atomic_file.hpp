// assay/evidence/atomic_file.hpp — the one writer of every file that holds evidence, for the
// library and the CLI alike: a bundle, a report, an envelope, spans.
//
//   auto out = assay::evidence::atomic_file::open("run.tar.gz");   // nothing at the target yet
//   if (!out) ...                                                    // why, with the path
//   out->write(bytes); ...                                           // false once a write failed
//   if (auto c = out->commit(); !c) ...                              // whole, or the target untouched
//
// A regular file (or a name that is not there yet) is written to a temporary beside it, synced
// and renamed over it on commit(): the target is whole or as it was; a temporary not committed
// is removed when the writer is destroyed. The new file's mode is the old file's when there was
// one, else 0666 less the umask (the kernel applies it: the temporary is created with 0666), so
// it is never wider than the user asked. A target that is a symbolic link is written through:
// the file it names is replaced and the link kept. A FIFO or a character device is written in
// place (a rename would hide the bytes from its reader), as is standard output. A directory is
// refused. Every descriptor is opened close-on-exec.
#pragma once

#include "assay/error.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace assay::evidence {

namespace file_io {

// The whole of `bytes` to `fd`, through short writes and interrupted calls: 0 or the errno.
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

// An unnamed file in `dir` (gone when closed; mode 0600, close-on-exec), or -1 with errno.
inline int scratch_file_in(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
    return fd;
  std::string name = (dir.empty() ? std::string(".") : dir) + "/.assay-scratch.XXXXXX";  // no O_TMPFILE here
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0)
    ::unlink(name.c_str());
  return fd;
}

inline error file_error(errc code, std::string_view what, const std::string& path, int err) {
  return make_error(code, std::string(what) + " " + path + ": " + std::strerror(err));
}

// The file a path names once its symbolic links are followed (the links themselves stay): the
// path itself when it is no link; a link whose target is missing gives that target's path (a new
// file is made there). 0, or the errno (ELOOP after 40 links).
inline int resolve_links(const std::string& path, std::string& out) {
  out = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(out.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
      return 0;
    if (hops == 40)
      return ELOOP;
    std::string to(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    const ::ssize_t n = ::readlink(out.c_str(), to.data(), to.size());
    if (n < 0)
      return errno;
    to.resize(static_cast<std::size_t>(n));
    if (to.empty())
      return ENOENT;
    if (to.front() != '/') {
      const auto slash = out.rfind('/');
      if (slash != std::string::npos)
        to = out.substr(0, slash + 1) + to;
    }
    out = std::move(to);
  }
}

}  // namespace file_io

class atomic_file {
 public:
  // A writer of `path` (see the top of this file); nothing at the target changes before commit().
  static result<atomic_file> open(const std::string& path) {
    atomic_file f;
    f.path_ = path;
    const auto cannot = [&path](int err) { return file_io::file_error(errc::io_error, "cannot write", path, err); };
    if (const int e = file_io::resolve_links(path, f.target_); e != 0)
      return cannot(e);
    struct stat st {};
    const bool exists = ::stat(f.target_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
      return cannot(EISDIR);
    if (exists && !S_ISREG(st.st_mode)) {  // a FIFO, a device: nothing to replace
      f.fd_ = ::open(f.target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (f.fd_ < 0)
        return cannot(errno);
      f.in_place_ = true;
      return f;
    }
    const std::size_t slash = f.target_.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : f.target_.substr(0, slash + 1);
    const std::string base = f.target_.substr(slash == std::string::npos ? 0 : slash + 1);
    // A fresh name beside the target, created with 0666 so that the umask (and a default ACL)
    // applies as to any new file; an existing target's mode is then given to it.
    static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    constexpr std::uint64_t golden = 0x9e3779b97f4a7c15u, mul = 6364136223846793005u, inc = 1442695040888963407u;
    std::uint64_t seed = static_cast<std::uint64_t>(::getpid());
    seed = seed * golden ^ static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&f)) ^
           static_cast<std::uint64_t>(::time(nullptr));
    for (int attempt = 0; attempt < 100; ++attempt) {
      seed = seed * mul + inc;
      std::string suffix(8, '0');
      for (std::size_t i = 0; i < suffix.size(); ++i)
        suffix[i] = digits[(seed >> (8 + 6 * i)) % 36];
      f.temp_ = dir + "." + base + ".tmp-" + suffix;
      f.fd_ = ::open(f.temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (f.fd_ >= 0 || errno != EEXIST)
        break;
    }
    if (f.fd_ < 0) {
      f.temp_.clear();
      return cannot(errno);
    }
    if (exists && ::fchmod(f.fd_, st.st_mode & 07777) != 0)
      f.err_ = errno;
    return f;
  }
  // Standard output, written in place (never closed).
  static atomic_file standard_output() {
    atomic_file f;
    f.path_ = "<stdout>";
    f.fd_ = STDOUT_FILENO;
    f.in_place_ = true;
    f.borrowed_ = true;
    return f;
  }

  atomic_file(atomic_file&& o) noexcept
      : path_(std::move(o.path_)),
        target_(std::move(o.target_)),
        temp_(std::move(o.temp_)),
        fd_(std::exchange(o.fd_, -1)),
        in_place_(o.in_place_),
        borrowed_(o.borrowed_),
        prepared_(o.prepared_),
        done_(std::exchange(o.done_, true)),
        err_(o.err_) {}
  atomic_file& operator=(atomic_file&&) = delete;
  ~atomic_file() {
    if (fd_ >= 0 && !borrowed_)
      ::close(fd_);
    if (!in_place_ && !done_ && !temp_.empty())
      ::unlink(temp_.c_str());
  }

  const std::string& path() const noexcept { return path_; }
  // The descriptor written to (-1 once prepared).
  int fd() const noexcept { return fd_; }

  // The bytes after those written before: false once anything failed (commit() says what).
  bool write(std::string_view bytes) noexcept {
    if (err_ != 0 || prepared_ || fd_ < 0)
      return false;
    err_ = file_io::write_all(fd_, bytes);
    return err_ == 0;
  }
  // The first write error, or 0.
  int error_code() const noexcept { return err_; }

  // prepare(), then publish().
  result<void> commit() {
    if (auto p = prepare(); !p)
      return p;
    return publish();
  }
  // The first half of commit(), for a set of outputs written all or none: the bytes made durable
  // in the temporary (a FIFO or device closed, standard output left open: those are then done).
  result<void> prepare() {
    if (prepared_)
      return err_ == 0 ? result<void>() : failed(err_);
    prepared_ = true;
    if (in_place_) {
      done_ = true;
      if (!borrowed_ && ::close(std::exchange(fd_, -1)) != 0 && err_ == 0)
        err_ = errno;
      return err_ == 0 ? result<void>() : failed(err_);
    }
    if (err_ == 0 && ::fsync(fd_) != 0)
      err_ = errno;
    if (::close(std::exchange(fd_, -1)) != 0 && err_ == 0)
      err_ = errno;
    return err_ == 0 ? result<void>() : failed(err_);  // the destructor removes the temporary
  }
  // The second half: the temporary renamed over the target, the rename synced.
  result<void> publish() {
    if (!prepared_)
      if (auto p = prepare(); !p)
        return p;
    if (done_)
      return {};
    if (err_ == 0 && ::rename(temp_.c_str(), target_.c_str()) != 0)
      err_ = errno;
    if (err_ != 0)
      return failed(err_);
    done_ = true;
    file_io::sync_directory_of(target_);
    return {};
  }

 private:
  atomic_file() = default;
  error failed(int e) const { return file_io::file_error(errc::io_error, "cannot write", path_, e); }

  std::string path_, target_, temp_;
  int fd_ = -1;
  bool in_place_ = false, borrowed_ = false, prepared_ = false, done_ = false;
  int err_ = 0;
};

}  // namespace assay::evidence
