// The shared pieces of cli.hpp that need CLI11 or system calls.
#include "cli.hpp"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace assay_cli {

void dispatcher::on(CLI::App* verb, action a) {
  verb->callback([this, a = std::move(a)] { chosen_ = a; });
}

int dispatcher::run() const {
  return chosen_ ? chosen_() : exit_usage;
}

namespace {

// A byte count with an optional k, m or g suffix (powers of 1024) made plain ("64k" -> "65536");
// the reason when it is not one (or is 0).
std::string to_byte_count(std::string& text) {
  if (!text.empty() && text.front() == '-')  // negative: never a count, whatever follows
    return printable(text, echo_cap) + " is out of range [1, " + std::to_string(max_input_bytes) + "]";
  std::uint64_t n = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (n > (UINT64_MAX - 9) / 10)
      return printable(text, echo_cap) + " is out of range [1, " + std::to_string(max_input_bytes) + "]";
    n = n * 10 + static_cast<unsigned>(text[i] - '0');
  }
  const std::size_t digits = i;
  unsigned shift = 0;
  if (digits > 0 && i + 1 == text.size()) {
    const char unit = static_cast<char>(text[i] | 0x20);
    shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : 64;
    ++i;
  }
  if (digits == 0 || i != text.size() || shift == 64)
    return "a byte count, with an optional k, m or g suffix, is expected";
  if (n == 0 || n > (max_input_bytes >> shift))
    return printable(text, echo_cap) + " is out of range [1, " + std::to_string(max_input_bytes) + "]";
  text = std::to_string(n << shift);
  return {};
}

}  // namespace

void add_max_bytes(CLI::App* verb, std::uint64_t& max_bytes) {
  verb->add_option("--max-bytes", max_bytes, "Refuse an input larger than this (default 256m, at most 1024g)")
      ->transform(CLI::Validator(to_byte_count, "BYTES[k|m|g]"));
}

std::string range_error(std::string_view text, std::uint64_t min, std::uint64_t max) {
  const std::string bounds = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  const std::string_view digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
  const bool integer =
      !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!integer)
    return printable(text, echo_cap) + " is not an integer in " + bounds;
  bool within = digits.size() == text.size();  // not negative
  if (within) {                                // compared as decimal text: no value is too long to compare
    const std::string_view trimmed = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    const std::string lo = std::to_string(min), hi = std::to_string(max);
    auto less = [](std::string_view a, std::string_view b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    };
    within = !less(trimmed, lo) && !less(hi, trimmed);
  } else {  // "-0" is 0
    within = min == 0 && digits.find_first_not_of('0') == std::string_view::npos;
  }
  return within ? std::string() : printable(text, echo_cap) + " is out of range " + bounds;
}

CLI::Option* in_range(CLI::Option* opt, std::uint64_t min, std::uint64_t max) {
  auto check = [min, max](std::string& text) {
    std::string e = range_error(text, min, max);
    if (e.empty()) {  // plain decimal for CLI11, which reads a leading 0 as octal: "010" is 10
      const std::size_t first = text.find_first_not_of("-0");
      text = first == std::string::npos ? std::string("0") : text.substr(first);
    }
    return e;
  };
  return opt->transform(CLI::Validator(check, "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]"));
}

namespace {

assay::error io_error(std::string message) {
  return assay::make_error(assay::errc::io_error, std::move(message));
}

std::string reason(int err) {
  return std::strerror(err);
}

class fd_closer {
 public:
  explicit fd_closer(int fd) : fd_(fd) {}
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  ~fd_closer() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  void release() noexcept { fd_ = -1; }

 private:
  int fd_;
};

assay::error too_large(const std::string& name, std::uint64_t max_bytes, std::string_view option) {
  std::string message = name + " is larger than the limit of " + std::to_string(max_bytes) + " bytes";
  if (!option.empty())
    message += " (" + std::string(option) + ")";
  return assay::make_error(assay::errc::size_limit, std::move(message));
}

// The descriptor of an input ("-": standard input, not to be closed) and its status; a
// directory refused.
assay::result<int> open_input(const std::string& path, const std::string& name, struct stat& st) {
  int fd = STDIN_FILENO;
  if (!is_std_stream(path)) {
    do
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
      return io_error("cannot open " + path + ": " + reason(errno));
  }
  fd_closer closer(fd == STDIN_FILENO ? -1 : fd);
  if (::fstat(fd, &st) != 0)
    return io_error("cannot read " + name + ": " + reason(errno));
  if (S_ISDIR(st.st_mode))
    return io_error(name + " is a directory");
  closer.release();
  return fd;
}

using assay::evidence::file_io::read_some;

}  // namespace

input::input(input&& o) noexcept
    : owned_(std::move(o.owned_)), map_(std::exchange(o.map_, nullptr)), size_(std::exchange(o.size_, 0)) {}

input::~input() {
  if (map_ != nullptr)
    ::munmap(map_, size_);
}

void input::release(std::size_t offset) const noexcept {
  if (map_ == nullptr)
    return;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t upto = std::min(offset, size_) / page * page;
  if (upto > 0)
    ::madvise(map_, upto, MADV_DONTNEED);
}

assay::result<input> input::open(const std::string& path, std::uint64_t max_bytes, over_limit mode,
                                 std::string_view limit_option, access how) {
  const std::string name = input_name(path);
  struct stat st {};
  const auto opened = open_input(path, name, st);
  if (!opened)
    return opened.error();
  const int fd = *opened;
  fd_closer closer(fd == STDIN_FILENO ? -1 : fd);
  input in;
  // A regular file read from its start is mapped. (Standard input redirected from a file may
  // have been read in part already: it is read from where it stands.)
  const bool mappable = S_ISREG(st.st_mode) && st.st_size > 0 && (fd != STDIN_FILENO || ::lseek(fd, 0, SEEK_CUR) == 0);
  if (mappable) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > max_bytes && mode == over_limit::refuse)
      return too_large(name, max_bytes, limit_option);
    if (size <= SIZE_MAX) {
      // Over the limit, the mapping is made but not read: the reader refuses it by its size.
      const int populate = size <= max_bytes && how == access::whole ? MAP_POPULATE : 0;
      void* m = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE | populate, fd, 0);
      if (m != MAP_FAILED) {
        if (how == access::sequential)
          ::madvise(m, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
        in.map_ = m;
        in.size_ = static_cast<std::size_t>(size);
        return in;
      }
    }
  }
  // A stream (or a file that cannot be mapped, or one whose size says nothing, as in /proc):
  // read in growing chunks, never more than max_bytes + 1 bytes, so an endless pipe stops.
  const std::uint64_t want = max_bytes == UINT64_MAX ? max_bytes : max_bytes + 1;
  std::string& data = in.owned_;
  std::size_t used = 0;
  while (used < want) {
    if (used == data.size()) {
      const std::uint64_t grown = data.size() < (64u << 10) ? (64u << 10) : data.size() * 2;
      data.resize(static_cast<std::size_t>(grown < want ? grown : want));
    }
    const ssize_t n = read_some(fd, data.data() + used, data.size() - used);
    if (n < 0)
      return io_error("cannot read " + name + ": " + reason(errno));
    if (n == 0)
      break;
    used += static_cast<std::size_t>(n);
  }
  data.resize(used);
  if (used > max_bytes && mode == over_limit::refuse)
    return too_large(name, max_bytes, limit_option);
  return in;
}

assay::result<void> read_lines(const std::string& path, std::uint64_t max_bytes, std::string_view limit_option,
                               const std::function<bool(std::string_view, std::size_t, std::size_t)>& each,
                               unterminated_line* last) {
  const std::string name = input_name(path);
  struct stat st {};
  const auto opened = open_input(path, name, st);
  if (!opened)
    return opened.error();
  const int fd = *opened;
  fd_closer closer(fd == STDIN_FILENO ? -1 : fd);
  std::string pending;             // the bytes of lines not yet complete
  std::size_t pending_offset = 0;  // where they start in the input
  std::size_t number = 0;          // lines seen
  std::uint64_t total = 0;
  bool go_on = true;
  auto take = [&](std::string_view line, std::size_t offset) {
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (go_on && line.find_first_not_of(" \t") != std::string_view::npos)
      go_on = each(line, number, offset);
  };
  std::string chunk(64u << 10, '\0');
  while (go_on) {
    const ssize_t n = read_some(fd, chunk.data(), chunk.size());
    if (n < 0)
      return io_error("cannot read " + name + ": " + reason(errno));
    if (n == 0)
      break;
    // The lines within the limit are taken even when the chunk passes it.
    const bool over = total + static_cast<std::uint64_t>(n) > max_bytes;
    const auto within = over ? static_cast<std::size_t>(max_bytes - total) : static_cast<std::size_t>(n);
    total += static_cast<std::uint64_t>(n);
    const std::size_t fresh = pending.size();  // a long line is searched once, not once per chunk
    pending.append(chunk.data(), within);
    std::size_t at = 0;
    for (std::size_t nl; go_on && (nl = pending.find('\n', std::max(at, fresh))) != std::string::npos; at = nl + 1)
      take(std::string_view(pending).substr(at, nl - at), pending_offset + at);
    if (over)
      return too_large(name, max_bytes, limit_option);
    pending.erase(0, at);
    pending_offset += at;
  }
  if (go_on && !pending.empty()) {
    if (last != nullptr && pending.find_first_not_of(" \t\r") != std::string::npos) {
      *last = unterminated_line{number + 1, pending.size()};
    } else {
      take(pending, pending_offset);
    }
  }
  return {};
}

assay::result<output_file> output_file::open(const std::string& path) {
  output_file out;
  out.path_ = path;
  if (is_std_stream(path))
    return out;
  auto f = assay::evidence::atomic_file::open(path);
  if (!f)
    return f.error();
  out.file_.emplace(std::move(*f));
  return out;
}

bool output_file::write(std::string_view bytes) {
  if (file_)
    return file_->write(bytes);
  if (err_ != 0 || prepared_)
    return false;
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size())
    err_ = errno != 0 ? errno : EIO;
  return err_ == 0;
}

assay::result<void> output_file::prepare() {
  if (file_)
    return file_->prepare();
  if (!prepared_) {
    prepared_ = true;
    if (err_ == 0 && std::fflush(stdout) != 0)
      err_ = errno;
  }
  if (err_ != 0)
    return io_error("cannot write to standard output: " + reason(err_));
  return {};
}

assay::result<void> output_file::publish() {
  if (file_)
    return file_->publish();
  return prepare();
}

assay::result<void> output_file::commit() {
  if (auto p = prepare(); !p)
    return p;
  return publish();
}

assay::result<output_file*> output_set::add(const std::string& path) {
  auto f = output_file::open(path);
  if (!f)
    return f.error();
  files_.push_back(std::move(*f));
  return &files_.back();
}

assay::result<void> output_set::commit() {
  for (output_file& f : files_)
    if (auto p = f.prepare(); !p)
      return p;  // nothing renamed yet: every target as it was
  for (output_file& f : files_)
    if (auto p = f.publish(); !p)
      return p;
  return {};
}

assay::result<void> write_file(const std::string& path, std::string_view bytes) {
  auto out = output_file::open(path);
  if (!out)
    return out.error();
  out->write(bytes);
  return out->commit();
}

}  // namespace assay_cli
