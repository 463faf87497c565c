// Shared pieces of the reference CLI: exit codes (SPEC §17), input and output.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"

#include <CLI/CLI.hpp>

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
