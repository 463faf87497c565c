// assay mcp wrap --policy P [--bundle B] [--journal J] [--sync S] [--label L] [--dry-run]
//   [--record-bodies] [--keep-sensitive] [--allow-unenforced] [--max-line-bytes N] [--quiet] --
//   CMD ARGS… — an MCP stdio server behind the gate (docs/mcp.md). The client speaks to
// this process's standard input and output; the server runs in its own process group with its
// standard error inherited. Each client line is read strictly and decided (assay::mcp::gate)
// before anything reaches the server; server lines pass byte for byte. The session is journaled
// as it happens and packed into B (B.2.tar.gz, … past 100,000 events) on every end the gate sees:
// the client's end of input (the server's stdin is closed and the server awaited), the server
// exiting, SIGINT/SIGTERM/SIGHUP (forwarded to the server's group; a second one kills it).
//
// One thread, one poll loop: the server's stdin is written without blocking from a queue (the
// client is not read while the queue holds more than a bound), so a server that writes while it
// is not reading never deadlocks the gate; a client line longer than --max-line-bytes is hashed
// as it passes and refused, never held whole.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "mcp.hpp"

#include "assay/evidence/atomic_file.hpp"
#include "assay/hash/hash.hpp"
#include "assay/mcp/gate.hpp"
#include "assay/mcp/session_log.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace assay_cli {

namespace {

namespace mcp = assay::mcp;
namespace ev = assay::evidence;
namespace file_io = assay::evidence::file_io;

struct wrap_args {
  std::string policy;
  std::string bundle = "mcp-session.tar.gz";
  std::string journal;
  std::string sync = "64";
  std::string label = "default-mcp-server";
  bool dry_run = false;
  bool record_bodies = false;
  bool keep_sensitive = false;
  bool allow_unenforced = false;
  bool quiet = false;
  std::uint64_t max_line_bytes = std::uint64_t{4} << 20;
  std::vector<std::string> command;
};

constexpr std::string_view verb = "mcp wrap";

// The lines of a byte stream, each held up to `max` bytes; a longer one is hashed as it passes
// and handed on as its size and sha256.
class line_splitter {
 public:
  explicit line_splitter(std::size_t max) : max_(max) {}

  // on_line(std::string_view line), on_long(std::size_t bytes, std::string sha256_hex): each
  // returns false to stop.
  template <class Line, class Long>
  bool feed(std::string_view chunk, Line&& on_line, Long&& on_long) {
    while (!chunk.empty()) {
      const std::size_t nl = chunk.find('\n');
      take(chunk.substr(0, nl == std::string_view::npos ? chunk.size() : nl));
      if (nl == std::string_view::npos)
        return true;
      chunk.remove_prefix(nl + 1);
      if (!end_line(on_line, on_long))
        return false;
    }
    return true;
  }
  // The last line, when the stream ended without its newline.
  template <class Line, class Long>
  bool finish(Line&& on_line, Long&& on_long) {
    return bytes_ == 0 || end_line(on_line, on_long);
  }

 private:
  void take(std::string_view piece) {
    bytes_ += piece.size();
    if (!sha_ && buf_.size() + piece.size() <= max_) {
      buf_.append(piece);
      return;
    }
    if (!sha_) {
      sha_.emplace();
      sha_->update(buf_.data(), buf_.size());
      std::string().swap(buf_);
    }
    sha_->update(piece.data(), piece.size());
  }
  template <class Line, class Long>
  bool end_line(Line& on_line, Long& on_long) {
    bool go;
    if (sha_) {
      go = on_long(bytes_, assay::hash::digest<assay::hash::sha256>(sha_->final()).hex());
      sha_.reset();
    } else {
      go = on_line(std::string_view(buf_));
    }
    buf_.clear();
    bytes_ = 0;
    return go;
  }

  std::size_t max_;
  std::string buf_;
  std::size_t bytes_ = 0;
  std::optional<assay::hash::sha256::state> sha_;
};

// The server: spawned in its own process group, its stdin and stdout pipes ours.
struct server_process {
  pid_t pid = -1;
  int in = -1;   // its standard input (ours to write)
  int out = -1;  // its standard output (ours to read)
};

int spawn_server(const std::vector<std::string>& command, server_process& s) {
  int to[2], from[2];
  if (::pipe2(to, O_CLOEXEC) != 0)
    return errno;
  if (::pipe2(from, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(to[0]);
    ::close(to[1]);
    return e;
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_adddup2(&actions, to[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from[1], 1);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD})
    sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  for (const std::string& a : command)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int rc = posix_spawnp(&s.pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(to[0]);
  ::close(from[1]);
  if (rc != 0) {
    ::close(to[1]);
    ::close(from[0]);
    return rc;
  }
  s.in = to[1];
  s.out = from[0];
  ::fcntl(s.in, F_SETFL, ::fcntl(s.in, F_GETFL) | O_NONBLOCK);
  return 0;
}

// The stderr line of a decision (names through the sanitizer; never an argument).
std::string decision_line(const mcp::client_verdict& v) {
  const mcp::decision& d = *v.decided;
  const std::string tool = printable(d.tool, echo_cap);
  const std::string why = d.reason_code + ": " + printable(d.reason, echo_cap * 2);
  if (v.would_deny)
    return "would_deny " + tool + " " + why;
  if (!d.allow)
    return "deny " + tool + " " + why;
  return d.reason.empty() ? "allow " + tool : "allow " + tool + " " + why;
}

// What ended the server: its exit status, or 128 + the signal.
int status_code(int status) {
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return 1;
}

int wrap(const wrap_args& a) {
  auto usage = [](const std::string& what) { return usage_error(verb, what); };
  if (a.command.empty())
    return usage("give the server's command after --, e.g. -- npx @modelcontextprotocol/server-filesystem /tmp");
  const auto sync = ev::durability::parse(a.sync);
  if (!sync)
    return usage("--sync " + printable(a.sync, echo_cap) +
                 ": expected event, N (every N events), Tms (every T milliseconds) or never");
  if (is_std_stream(a.bundle))
    return usage("--bundle must be a file: standard output is the client's");
  const std::string label(ev::trim_white_space(a.label));
  bool io = false;
  auto checked = read_policy(verb, a.policy, a.allow_unenforced, io);
  if (!checked)
    return exit_usage;  // the server is not started

  mcp::session_log_options lo;
  lo.bundle = a.bundle;
  lo.journal = a.journal;
  lo.sync = *sync;
  lo.recorder.source = "urn:assay:mcp-wrap:" + (label.empty() ? std::string("default-mcp-server") : label);
  lo.recorder.privacy = a.keep_sensitive ? ev::privacy_mode::keep_sensitive : ev::privacy_mode::redact;
  auto opened = mcp::session_log::open(lo);
  if (!opened) {
    for (const auto& e : opened.error())
      print_error(verb, (e.code == assay::errc::io_error ? "" : "--label/--bundle/--journal: ") + e.message);
    return opened.error().front().code == assay::errc::io_error ? exit_io : exit_usage;
  }
  mcp::session_log& log = *opened;

  // Signals: blocked here and read from a descriptor in the loop; the server starts with none
  // blocked and each at its default action.
  sigset_t watched;
  sigemptyset(&watched);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
    sigaddset(&watched, sig);
  ::sigprocmask(SIG_BLOCK, &watched, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a closed client or server is an EPIPE where it is written
  const int sigfd = ::signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sigfd < 0) {
    print_error(verb, std::string("cannot watch signals: ") + std::strerror(errno));
    ::unlink(log.journal_path().c_str());
    return exit_io;
  }

  server_process server;
  if (const int rc = spawn_server(a.command, server); rc != 0) {
    print_error(verb, "cannot start " + printable(a.command.front(), echo_cap) + ": " + std::strerror(rc));
    ::unlink(log.journal_path().c_str());
    return 127;
  }

  mcp::gate_options go;
  go.label = a.label;
  go.dry_run = a.dry_run;
  go.record_bodies = a.record_bodies;
  go.max_line_bytes = static_cast<std::size_t>(a.max_line_bytes);
  mcp::basic_gate<mcp::session_log> gate(checked->policy, log, checked->schemas, std::move(go));

  std::optional<assay::error> record_failure;
  std::optional<mcp::end_reason> why;
  bool client_open = true;       // the client's stdin is read
  bool client_listening = true;  // the client's stdout is written
  bool server_out_open = true;
  bool child_exited = false;
  int forwarded_signal = 0;
  std::string to_server;  // bytes for the server's stdin, from to_server_at
  std::size_t to_server_at = 0;
  bool close_server_in = false;  // once the queue is written
  constexpr std::size_t queue_bound = std::size_t{16} << 20;
  std::uint64_t allowed = 0, denied = 0, refused = 0;
  std::chrono::steady_clock::time_point drain_until{};

  auto stop = [&](mcp::end_reason r) {
    if (!why)
      why = r;
  };
  auto to_client = [&](std::string_view bytes) {
    if (!client_listening)
      return;
    if (file_io::write_all(1, bytes) != 0) {  // the client is gone: end as at its end of input
      client_listening = false;
      client_open = false;
      close_server_in = true;
      stop(mcp::end_reason::client_eof);
    }
  };
  auto gate_failed = [&](const assay::error& e) {
    record_failure = e;
    client_open = false;
    to_server.clear();
    to_server_at = 0;
    close_server_in = true;
    ::kill(-server.pid, SIGTERM);
    return false;
  };
  if (auto r = gate.start(); !r)
    gate_failed(r.error());

  auto on_verdict = [&](const mcp::client_verdict& v) {
    if (v.decided) {
      if (v.decided->allow)
        ++allowed;
      else
        ++denied;
      if (!a.quiet)
        std::fprintf(stderr, "%s\n", decision_line(v).c_str());
    } else if (!v.forward) {
      ++refused;
      if (!a.quiet)  // the code and the reason, never the line
        std::fprintf(stderr, "refused %s\n", printable(v.refusal, echo_cap * 2).c_str());
    }
    if (v.forward)
      return true;
    to_client(v.answer);  // with its newline
    return true;
  };
  line_splitter client_lines(static_cast<std::size_t>(a.max_line_bytes));
  line_splitter server_lines(static_cast<std::size_t>(a.max_line_bytes));
  auto client_line = [&](std::string_view line) {
    auto v = gate.on_client_line(line);
    if (!v)
      return gate_failed(v.error());
    if (v->forward) {
      to_server.append(line);
      to_server += '\n';
    }
    return on_verdict(*v);
  };
  auto client_long = [&](std::size_t bytes, std::string sha) {
    auto v = gate.on_overlong_client_line(bytes, std::move(sha));
    if (!v)
      return gate_failed(v.error());
    return on_verdict(*v);
  };
  auto server_line = [&](std::string_view line) {
    if (auto r = gate.on_server_line(line); !r)
      return gate_failed(r.error());
    return true;
  };
  auto server_long = [](std::size_t, const std::string&) { return true; };  // teaches nothing

  std::vector<char> buf(std::size_t{64} << 10);
  while (true) {
    if (child_exited && (!server_out_open || std::chrono::steady_clock::now() >= drain_until))
      break;
    // The queue written: the server's stdin closed when the client has ended.
    if (to_server_at == to_server.size()) {
      to_server.clear();
      to_server_at = 0;
      if (close_server_in && server.in >= 0) {
        ::close(server.in);
        server.in = -1;
      }
    }
    pollfd fds[4];
    int n = 0;
    int i_sig = n++;
    fds[i_sig] = {sigfd, POLLIN, 0};
    int i_client = -1, i_out = -1, i_in = -1;
    if (client_open && to_server.size() - to_server_at < queue_bound) {
      i_client = n++;
      fds[i_client] = {0, POLLIN, 0};
    }
    if (server_out_open) {
      i_out = n++;
      fds[i_out] = {server.out, POLLIN, 0};
    }
    if (server.in >= 0 && to_server_at < to_server.size()) {
      i_in = n++;
      fds[i_in] = {server.in, POLLOUT, 0};
    }
    int timeout = -1;
    if (child_exited)
      timeout = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(drain_until -
                                                                                       std::chrono::steady_clock::now())
                                     .count()) +
                1;
    if (::poll(fds, static_cast<nfds_t>(n), timeout) < 0) {
      if (errno == EINTR)
        continue;
      gate_failed(assay::make_error(assay::errc::io_error, std::string("poll: ") + std::strerror(errno)));
      break;
    }
    if (fds[i_sig].revents & POLLIN) {
      signalfd_siginfo si;
      while (::read(sigfd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
        const int sig = static_cast<int>(si.ssi_signo);
        if (sig == SIGCHLD)
          continue;
        stop(mcp::end_reason::signal);
        client_open = false;
        ::kill(-server.pid, forwarded_signal == 0 ? sig : SIGKILL);  // a second signal: killed
        forwarded_signal = sig;
      }
      if (!child_exited) {
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(server.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == server.pid) {
          child_exited = true;
          stop(mcp::end_reason::server_exit);
          // What it wrote before exiting is still read (a child it left holding the pipe: not for long).
          drain_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
        }
      }
    }
    if (i_in >= 0 && (fds[i_in].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ::ssize_t w = ::write(server.in, to_server.data() + to_server_at, to_server.size() - to_server_at);
      if (w > 0) {
        to_server_at += static_cast<std::size_t>(w);
      } else if (w < 0 && errno != EAGAIN && errno != EINTR) {  // the server closed its stdin
        to_server.clear();
        to_server_at = 0;
        ::close(server.in);
        server.in = -1;
      }
    }
    if (i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ::ssize_t got = file_io::read_some(server.out, buf.data(), buf.size());
      if (got <= 0) {
        server_out_open = false;
        server_lines.finish(server_line, server_long);
      } else {
        const std::string_view chunk(buf.data(), static_cast<std::size_t>(got));
        // Learned before it is passed on: a client that answers it is read after.
        if (!record_failure)
          server_lines.feed(chunk, server_line, server_long);
        to_client(chunk);
      }
    }
    if (i_client >= 0 && (fds[i_client].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ::ssize_t got = file_io::read_some(0, buf.data(), buf.size());
      if (got <= 0) {
        client_open = false;
        close_server_in = true;
        client_lines.finish(client_line, client_long);
        stop(mcp::end_reason::client_eof);
      } else {
        client_lines.feed(std::string_view(buf.data(), static_cast<std::size_t>(got)), client_line, client_long);
      }
    }
  }
  // Whatever the server left running in its group, then the server reaped.
  ::kill(-server.pid, SIGKILL);
  int status = 0;
  while (::waitpid(server.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (server.in >= 0)
    ::close(server.in);
  if (server.out >= 0)
    ::close(server.out);
  const int server_status = status_code(status);

  if (!record_failure) {
    if (auto r = gate.finish(why.value_or(mcp::end_reason::server_exit)); !r)
      record_failure = r.error();
  }
  if (!record_failure) {
    if (auto r = log.finish(); !r)
      record_failure = r.error().front();
  }
  if (record_failure) {
    print_error(verb, record_failure->message);
    print_error(verb, "the journal " + printable(log.journal_path(), echo_cap) +
                          " keeps what was recorded: assay evidence recover " +
                          printable(log.journal_path(), echo_cap) + " --out B.tar.gz");
    print_error(verb, "the server exited with status " + std::to_string(server_status));
    return exit_io;
  }
  if (!a.quiet) {
    std::string parts;
    for (const std::string& b : log.bundles())
      parts += (parts.empty() ? "" : ", ") + printable(b);
    std::fprintf(stderr,
                 "assay mcp wrap: %llu call(s) decided (%llu allowed, %llu denied), %llu line(s) refused; %s: %s\n",
                 static_cast<unsigned long long>(allowed + denied), static_cast<unsigned long long>(allowed),
                 static_cast<unsigned long long>(denied), static_cast<unsigned long long>(refused),
                 std::string(mcp::name(why.value_or(mcp::end_reason::server_exit))).c_str(), parts.c_str());
  }
  return server_status;
}

}  // namespace

void add_mcp_wrap(CLI::App& mcp_group, dispatcher& d) {
  auto* sub = mcp_group.add_subcommand(
      "wrap", "Run an MCP stdio server behind the gate: every tools/call decided before it runs, the session a bundle");
  auto a = std::make_shared<wrap_args>();
  sub->add_option("--policy", a->policy, "The gate policy (the reference's v2 YAML; v1 migrated)")->required();
  sub->add_option("--bundle", a->bundle,
                  "The session's bundle (default: mcp-session.tar.gz); past 100,000 events it goes on in "
                  "B.2.tar.gz, B.3.tar.gz, …");
  sub->add_option("--journal", a->journal,
                  "Journal the session here as it happens (mode 0600; default: B.journal beside the bundle); a "
                  "killed gate leaves it for assay evidence recover");
  sub->add_option("--sync", a->sync,
                  "When the journal is forced to disk: event, N (every N events; default 64), Tms (every T "
                  "milliseconds) or never");
  sub->add_option("--label", a->label,
                  "The server's id: in pins, tool definition digests and the events' source (default: "
                  "default-mcp-server)");
  sub->add_flag("--dry-run", a->dry_run,
                "Block nothing: a deny is forwarded, recorded as the reference records it, and printed would_deny");
  sub->add_flag("--record-bodies", a->record_bodies,
                "Record arguments and results as written (default: their sha256 and size only)");
  sub->add_flag("--keep-sensitive", a->keep_sensitive,
                "Keep values the payloads' privacy classes call sensitive as written (default: generalized)");
  add_allow_unenforced(sub, a->allow_unenforced);
  in_range(sub->add_option("--max-line-bytes", a->max_line_bytes,
                           "The longest client line read (default 4 MiB); a longer one is refused, never held"),
           1024, std::uint64_t{1} << 30);
  sub->add_flag("--quiet", a->quiet, "Print no line per decision on standard error");
  sub->add_option("CMD", a->command, "The server's command and its arguments, after --")->required()->expected(1, -1);
  d.on(sub, [a] { return wrap(*a); });
}

}  // namespace assay_cli
