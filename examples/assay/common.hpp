// Shared pieces of the reference CLI: exit codes (SPEC §17), input and output.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace assay_cli {

enum exit_code : int {
  exit_ok = 0,      // success / pass
  exit_failed = 1,  // input processed and failed (invalid document, bundle, violations)
  exit_usage = 2,   // usage error, or input that is not what it should be (not JSON)
  exit_io = 3,      // I/O error
};

// A command's action returns the process exit code.
using action = std::function<int()>;

// Each command adds its subcommand to the app and sets the action to run when chosen.
struct command_set {
  CLI::App& app;
  action* chosen;
  void on(CLI::App* sub, action a) {
    sub->callback([this, a = std::move(a)] { *chosen = a; });
  }
};

inline void print_error(std::string_view command, const std::string& message) {
  std::fprintf(stderr, "assay %.*s: %s\n", static_cast<int>(command.size()), command.data(), message.c_str());
}

// Reads a whole file, or standard input for "" or "-".
inline assay::result<std::string> read_input(const std::string& path) {
  const bool is_stdin = path.empty() || path == "-";
  std::FILE* f = is_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return assay::make_error(assay::errc::io_error, "cannot open " + path + ": " + std::strerror(errno));
  }
  std::string data;
  // A regular file is read in one call of its size; a pipe in growing chunks.
  if (!is_stdin && std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    if (size > 0) {
      data.resize(static_cast<std::size_t>(size));
      data.resize(std::fread(data.data(), 1, data.size(), f));
    }
  }
  char buf[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    data.append(buf, n);
    if (n < sizeof buf)
      break;
  }
  const bool failed = std::ferror(f) != 0;
  if (!is_stdin)
    std::fclose(f);
  if (failed)
    return assay::make_error(assay::errc::io_error, "cannot read " + (is_stdin ? std::string("standard input") : path));
  return data;
}

inline std::string input_name(const std::string& path) {
  return path.empty() || path == "-" ? std::string("<stdin>") : path;
}

// A sink onto a C stream.
// The bytes of an input: a regular file is mapped (no copy; pages come straight from the page
// cache), anything else (standard input, a pipe) is read into memory.
class input_bytes {
 public:
  input_bytes() = default;
  explicit input_bytes(std::string s) : owned_(std::move(s)) {}
  input_bytes(const input_bytes&) = delete;
  input_bytes& operator=(const input_bytes&) = delete;
  input_bytes(input_bytes&& o) noexcept : owned_(std::move(o.owned_)), map_(o.map_), size_(o.size_) {
    o.map_ = nullptr;
    o.size_ = 0;
  }
  input_bytes& operator=(input_bytes&&) = delete;
  ~input_bytes() {
    if (map_ != nullptr)
      ::munmap(map_, size_);
  }

  static assay::result<input_bytes> open(const std::string& path) {
    if (path.empty() || path == "-") {
      auto text = read_input(path);
      if (!text)
        return text.error();
      return input_bytes(std::move(*text));
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return assay::make_error(assay::errc::io_error, "cannot open " + path + ": " + std::strerror(errno));
    struct stat st {};
    input_bytes in;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* m = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (m != MAP_FAILED) {
        in.map_ = m;
        in.size_ = static_cast<std::size_t>(st.st_size);
        ::close(fd);
        return in;
      }
    }
    ::close(fd);
    auto text = read_input(path);  // not mappable (empty, special file): read it
    if (!text)
      return text.error();
    return input_bytes(std::move(*text));
  }

  std::string_view view() const noexcept {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(owned_);
  }

 private:
  std::string owned_;
  void* map_ = nullptr;
  std::size_t size_ = 0;
};

struct file_sink {
  std::FILE* f;
  bool failed = false;
  void write(const char* p, std::size_t n) {
    if (std::fwrite(p, 1, n, f) != n)
      failed = true;
  }
};

inline int write_stdout(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "assay: cannot write to standard output\n");
    return exit_io;
  }
  return exit_ok;
}

}  // namespace assay_cli
