// assay/soak/targets.hpp — where a soak's bundles come from (docs/soak.md, docs/cli.md `sim soak`): one
// bundle every run, the bundles of a directory in name order (cycling), or a command run once
// per seed that writes a bundle.
//
//   assay::soak::bundle_bytes_target one(bytes);                        // --target B (read once)
//   auto dir = assay::soak::directory_target::open("bundles/");         // --target-dir D
//   assay::soak::command_target cmd("./agent --seed {seed} --out {out}", work_dir);   // --exec
//
// A command runs through /bin/sh -c in its own process group, with `{seed}` replaced by the run's
// seed (decimal) and `{out}` by a path of its own (a fresh directory per run, removed once the
// bundle is judged); its standard input is /dev/null, its standard output discarded, its standard
// error kept for the message of a failed run (the last line). A non-zero exit or a signal is
// `subprocess_failed`; exiting 0 without a bundle at {out}, `bundle_invalid`; a command still
// running when the time budget ends is killed with its whole process group,
// `time_budget_exceeded`; a command still running when a stop_request is set (a signal to the
// soak) is killed the same way, `interrupted`. Whatever the command left running in its group is
// killed when it exits. The command starts with no signal blocked and SIGINT, SIGTERM, SIGHUP and
// SIGPIPE at their default action, whatever the soak's own threads block. POSIX only.
#pragma once

#include "assay/error.hpp"
#include "assay/json/lex.hpp"
#include "assay/soak/engine.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace assay::soak {

// The same bundle, in memory, for every run (it must outlive the target).
class bundle_bytes_target final : public target {
 public:
  explicit bundle_bytes_target(std::string_view bytes) : bytes_(bytes) {}
  produced produce(std::uint64_t, std::uint64_t, clock::time_point) override { return {{}, bytes_, {}}; }

 private:
  std::string_view bytes_;
};

// The regular files of a directory (names starting with '.' left out), in byte order of their
// names; run i reads the ((i - 1) mod n)-th.
class directory_target final : public target {
 public:
  static result<directory_target> open(const std::string& dir) {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec)
      return make_error(errc::io_error, "cannot read the directory " + dir + ": " + ec.message());
    directory_target t;
    for (const auto& entry : it) {
      const std::string name = entry.path().filename().string();
      if (name.empty() || name.front() == '.')
        continue;
      std::error_code fec;
      if (entry.is_regular_file(fec))
        t.files_.push_back(entry.path().string());
    }
    if (t.files_.empty())
      return make_error(errc::invalid_argument, "the directory " + dir + " holds no bundle (no regular file)");
    std::sort(t.files_.begin(), t.files_.end());
    return t;
  }
  const std::vector<std::string>& files() const noexcept { return files_; }
  produced produce(std::uint64_t index, std::uint64_t, clock::time_point) override {
    return {files_[static_cast<std::size_t>((index - 1) % files_.size())], {}, {}};
  }

 private:
  directory_target() = default;
  std::vector<std::string> files_;
};

// A command template, run once per seed.
class command_target final : public target {
 public:
  // `work_dir`: an existing directory where each run gets its own directory (run-<index>).
  // `stop`: a request (with its wake_fd, when it has one) that ends the commands in flight.
  command_target(std::string command, std::string work_dir, const stop_request* stop = nullptr)
      : command_(std::move(command)), work_dir_(std::move(work_dir)), stop_(stop) {}

  // The command of a run: every {seed} and {out} replaced (the path is single-quoted for the
  // shell when it holds anything but [A-Za-z0-9_./-]).
  std::string command_for(std::uint64_t seed, const std::string& out) const {
    std::string r;
    for (std::size_t i = 0; i < command_.size();) {
      if (command_.compare(i, 6, "{seed}") == 0) {
        r += std::to_string(seed);
        i += 6;
      } else if (command_.compare(i, 5, "{out}") == 0) {
        r += shell_word(out);
        i += 5;
      } else {
        r += command_[i++];
      }
    }
    return r;
  }

  produced produce(std::uint64_t index, std::uint64_t seed, clock::time_point deadline) override {
    const std::string dir = work_dir_ + "/run-" + std::to_string(index);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (!std::filesystem::create_directory(dir, ec))
      return fail("io_error", "cannot create " + dir + ": " + ec.message());
    const std::string out = dir + "/bundle.tar.gz";
    const std::string err_path = dir + "/stderr";
    const std::string cmd = command_for(seed, out);

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawnattr_setpgroup(&attr, 0);  // its own process group, to kill it whole
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
      sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
      return fail("subprocess_failed", "cannot start /bin/sh: " + std::string(std::strerror(rc)));

    // Wait for the shell to exit without reaping it (WNOWAIT): while it is a zombie its id cannot
    // be reused, so killing its group afterwards reaches only what it left running. Where Linux
    // has pidfd_open, the wait sleeps until the exit, the deadline or a stop request (its
    // wake_fd); elsewhere it polls.
    const int pidfd = open_pidfd(pid);
    const int wake_fd = stop_ != nullptr ? stop_->wake_fd : -1;
    auto pause = std::chrono::milliseconds(1);
    bool budget_spent = false, interrupted = false;
    while (true) {
      siginfo_t info{};
      const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
      if (w == 0 && info.si_pid == pid)
        break;
      if (w < 0 && errno != EINTR) {
        ::kill(-pid, SIGKILL);
        break;
      }
      if (stop_ != nullptr && stop_->requested()) {
        interrupted = true;
        break;
      }
      const auto now = clock::now();
      if (now >= deadline) {
        budget_spent = true;
        break;
      }
      if (pidfd >= 0 && (stop_ == nullptr || wake_fd >= 0)) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        pollfd pfd[2] = {{pidfd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        ::poll(pfd, wake_fd >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left, 60'000)));
      } else {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(10));
      }
    }
    if (pidfd >= 0)
      ::close(pidfd);
    ::kill(-pid, SIGKILL);  // the command when the budget is spent, else what it left running
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (interrupted)
      return fail("interrupted",
                  "the soak was interrupted while the command was running; killed with its process group");
    if (budget_spent)
      return fail("time_budget_exceeded",
                  "the command was still running when the time budget ended; killed with its process group");
    if (WIFSIGNALED(status))
      return fail("subprocess_failed",
                  "the command was killed by signal " + std::to_string(WTERMSIG(status)) + last_line(err_path));
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
      return fail("subprocess_failed",
                  "the command exited with status " + std::to_string(WEXITSTATUS(status)) + last_line(err_path));
    if (!std::filesystem::is_regular_file(out, ec))
      return fail("bundle_invalid", "the command exited 0 but wrote no bundle to {out}" + last_line(err_path));
    return {out, {}, {}};
  }

  void finish(std::uint64_t index, const produced&) override {
    std::error_code ec;
    std::filesystem::remove_all(work_dir_ + "/run-" + std::to_string(index), ec);
  }

 private:
  // A descriptor that becomes readable when `pid` exits, or -1 where there is none.
  static int open_pidfd(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
  }

  static produced fail(std::string kind, std::string message) {
    return {{}, {}, infra_error{std::move(kind), std::move(message)}};
  }

  static std::string shell_word(const std::string& s) {
    const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
             c == '/' || c == '-';
    });
    if (plain && !s.empty())
      return s;
    std::string q = "'";
    for (char c : s)
      q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  }

  // "; last stderr line: ..." (at most 200 bytes of it), or "" when it wrote nothing.
  static std::string last_line(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
      return {};
    std::string tail(4096, '\0');
    std::fseek(f, 0, SEEK_END);
    const long size = std::ftell(f);
    const long from = size > 4096 ? size - 4096 : 0;
    std::fseek(f, from, SEEK_SET);
    tail.resize(std::fread(tail.data(), 1, tail.size(), f));
    std::fclose(f);
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r'))
      tail.pop_back();
    const std::size_t nl = tail.find_last_of('\n');
    std::string line = nl == std::string::npos ? tail : tail.substr(nl + 1);
    if (line.empty())
      return {};
    if (line.size() > 200)
      line = line.substr(0, 200) + "...";
    return "; last stderr line: " + well_formed(line);
  }

  // `s` with every byte that is not part of well-formed UTF-8 replaced by U+FFFD (a report is
  // JSON: its strings are Unicode).
  static std::string well_formed(std::string_view s) {
    std::string out;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
      if (*p < 0x80) {
        out += static_cast<char>(*p++);
        continue;
      }
      std::uint32_t cp = 0;
      const int len = json::decode_utf8(p, end, cp);
      if (len == 0) {
        out += "\xEF\xBF\xBD";
        ++p;
      } else {
        out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(len));
        p += len;
      }
    }
    return out;
  }

  std::string command_;
  std::string work_dir_;
  const stop_request* stop_ = nullptr;
};

}  // namespace assay::soak
