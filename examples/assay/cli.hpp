// What every verb of the reference CLI shares (docs/cli.md): exit codes, how an action is chosen,
// how errors are printed, how inputs are read and files written. Definitions that need CLI11 or
// system calls are in cli.cpp; this header includes neither CLI11 nor any assay header above
// error.hpp and the sanitizer json/printable.hpp, so a verb pays only for the library headers it includes itself.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/atomic_file.hpp"
#include "assay/json/printable.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace assay_cli {

enum exit_code : int {
  exit_ok = 0,      // success / pass
  exit_failed = 1,  // input processed and failed (invalid document, bundle, violations)
  exit_usage = 2,   // usage error, or input that is not what it should be (not JSON)
  exit_io = 3,      // I/O error
};

// The exit code of a library error: not JSON at all (syntax, reader limits) -> 2, I/O -> 3,
// anything else (the input was read and failed a check) -> 1.
inline int exit_for(const assay::error& e) noexcept {
  if (assay::is_syntax_error(e.code))
    return exit_usage;
  if (e.code == assay::errc::io_error)
    return exit_io;
  return exit_failed;
}

// How much of an echoed untrusted value (an unknown word, a run id) a message shows.
inline constexpr std::size_t echo_cap = 120;

// The one sanitizer (assay/json/printable.hpp, docs/cli.md): every line the CLI prints of untrusted
// text goes through printable() (one line) or printable_lines() (text whose own newlines stay).
using assay::json::printable;
using assay::json::printable_lines;

// One line on stderr: "assay <command>: <message>" ("assay: <message>" for no command), the
// message made printable.
inline void print_error(std::string_view command, std::string_view message) {
  const std::string line = printable(message);
  if (command.empty())
    std::fprintf(stderr, "assay: %s\n", line.c_str());
  else
    std::fprintf(stderr, "assay %.*s: %s\n", static_cast<int>(command.size()), command.data(), line.c_str());
}

// A usage error of `command` (an argument or an option's value it does not take): the message,
// then where that command's usage is, as the parser's own errors say it; returns exit_usage.
inline int usage_error(std::string_view command, std::string_view message) {
  print_error(command, message);
  std::fprintf(stderr, "run 'assay %.*s --help' for usage\n", static_cast<int>(command.size()), command.data());
  return exit_usage;
}

// One printable line on `f` (a validation line, a code name and its message).
inline void print_line(std::FILE* f, std::string_view text) {
  std::fprintf(f, "%s\n", printable(text).c_str());
}

// Prints `e` (after `context: ` when given) as the error of `command`; returns its exit code.
inline int fail(std::string_view command, const assay::error& e, std::string_view context = {}) {
  print_error(command, context.empty() ? e.format() : std::string(context) + ": " + e.format());
  return exit_for(e);
}

// A bundle that could not be read (an I/O error, as `command`'s) or did not verify (its code name
// first, then its message, docs/cli.md); returns the exit code.
inline int fail_bundle(std::string_view command, const assay::error& e) {
  if (e.code == assay::errc::io_error)
    return fail(command, e);
  print_line(stderr, std::string(assay::name(e.code)) + ": " + e.message);
  return exit_for(e);
}

// The exit code of an outcome: 0, or its error printed as the error of `command`.
inline int finish(std::string_view command, const assay::result<void>& r) {
  return r ? exit_ok : fail(command, r.error());
}

// --- actions ---------------------------------------------------------------------------------

// A verb's action returns the process exit code.
using action = std::function<int()>;

// Remembers the action of the verb chosen on the command line.
class dispatcher {
 public:
  // Runs `a` when `verb` is the subcommand chosen.
  void on(CLI::App* verb, action a);
  int run() const;

 private:
  action chosen_;
};

// --- numbers on the command line ---------------------------------------------------------------

// `text` as a number from 0 to 1 (a score, a rate): decimal or exponent notation, the whole of
// it; nullopt for anything else (empty, "nan", "inf", "1.5", "-0.1", "0.5x").
inline std::optional<double> parse_unit_interval(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0 || v > 1)
    return std::nullopt;
  return v;
}

// `v` with `decimals` digits after the point, for the summaries people read (reports keep every
// digit).
inline std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// --- input -----------------------------------------------------------------------------------

// How much a JSON input may hold unless --max-bytes says otherwise.
inline constexpr std::uint64_t default_max_bytes = 256ull << 20;

// Adds `--max-bytes N` (N with an optional k, m, g suffix, powers of 1024) to `verb`.
void add_max_bytes(CLI::App* verb, std::uint64_t& max_bytes);

// True for the path that means standard input or output.
inline bool is_std_stream(std::string_view path) noexcept {
  return path.empty() || path == "-";
}

// How an input is named in messages: its path, or <stdin>.
inline std::string input_name(const std::string& path) {
  return is_std_stream(path) ? std::string("<stdin>") : path;
}

// Reads `path` ("-": standard input) as it arrives and calls `each` with every line that holds
// something — as assay::json::next_ndjson_line finds them: its text without the line end, its
// 1-based number and its byte offset in the whole input — as soon as the line is complete, so a
// producer that writes one event at a time has each taken when it is written. Memory holds one
// line; no more than `max_bytes` are read (more is refused, errc::size_limit). A directory is
// refused. `each` returns false to stop the reading. With `last`, a last line without its newline
// (the producer stopped while writing it) is not taken but described there.
struct unterminated_line {
  std::size_t number = 0;  // 1-based
  std::size_t bytes = 0;
};
assay::result<void> read_lines(const std::string& path, std::uint64_t max_bytes, std::string_view limit_option,
                               const std::function<bool(std::string_view, std::size_t, std::size_t)>& each,
                               unterminated_line* last = nullptr);

// The bytes of an input, opened once. A regular file is mapped (its size is checked before
// anything is read); standard input ("" or "-"), a pipe, a FIFO or a device is read, never past
// `max_bytes` + 1 bytes. A directory is refused.
class input {
 public:
  // What to do with an input larger than `max_bytes`.
  enum class over_limit {
    refuse,  // an error (errc::size_limit, exit 2) naming the limit
    pass,    // hand it on for a reader with its own size check (a regular file whole, as mapped
             // but not read; a stream cut after max_bytes + 1 bytes)
  };

  // How the bytes will be read.
  enum class access {
    whole,       // all of them, soon: a mapped file is read in at once
    sequential,  // from first to last, once: a mapped file is read in as it is reached, and
                 // release() lets go of what was read (memory stays flat; bytes() still holds all)
  };

  // `limit_option` is the option that sets `max_bytes`, named when an input is refused.
  static assay::result<input> open(const std::string& path, std::uint64_t max_bytes,
                                   over_limit mode = over_limit::refuse, std::string_view limit_option = "--max-bytes",
                                   access how = access::whole);

  // Lets go of the memory of the bytes before `offset` of a mapped input (read in again from the
  // file if they are used again); nothing for an input that was read.
  void release(std::size_t offset) const noexcept;

  input(input&& o) noexcept;
  input(const input&) = delete;
  input& operator=(const input&) = delete;
  input& operator=(input&&) = delete;
  ~input();

  std::string_view bytes() const noexcept {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(owned_);
  }

 private:
  input() = default;
  std::string owned_;
  void* map_ = nullptr;
  std::size_t size_ = 0;
};

// --- output ----------------------------------------------------------------------------------

// An output written in pieces to `path` ("-": standard output, through stdio): a file through the
// library's one writer, assay::evidence::atomic_file (a temporary beside the target renamed over
// it on commit; the mode kept or 0666 less the umask; links written through; a FIFO or device in
// place). Errors name the path and the reason ("No space left on device"); after one, writes do
// nothing and commit() returns it.
class output_file {
 public:
  static assay::result<output_file> open(const std::string& path);

  bool write(std::string_view bytes);  // false once anything failed
  assay::result<void> commit();        // prepare(), then publish()

  // The two halves of commit(), for output_set: prepare() makes the bytes durable in the
  // temporary (standard output flushed, a device closed: those are then done); publish() renames
  // the temporary over the target.
  assay::result<void> prepare();
  assay::result<void> publish();

 private:
  output_file() = default;
  std::string path_;
  std::optional<assay::evidence::atomic_file> file_;  // none: standard output
  bool prepared_ = false;
  int err_ = 0;
};

// Several outputs of one verb, written all or none (docs/cli.md: `--out` + `--report`, `--report` +
// `--sarif`): every output is opened (its temporary made beside its target) before any is
// written, and commit() renames them only once every one is complete. When one cannot be opened,
// written or synced, no target is created or changed: the temporaries are removed when the set
// is destroyed without a commit.
//
//   output_set set;
//   auto report = set.add(a.report);  // each error names its path
//   auto sarif = set.add(a.sarif);
//   (*report)->write(...); (*sarif)->write(...);
//   set.commit();
class output_set {
 public:
  // One more output; the pointer stays valid while the set lives.
  assay::result<output_file*> add(const std::string& path);
  // Prepares every output, then publishes each; the first error is returned.
  assay::result<void> commit();

 private:
  std::deque<output_file> files_;
};

// Writes `bytes` to `path` as one output_file.
assay::result<void> write_file(const std::string& path, std::string_view bytes);

// --- numeric options (docs/cli.md) ----------------------------------------------------------------
//
// Every numeric option of every verb is declared through in_range(): its value must be a decimal
// integer within [min, max], checked while the command line is parsed, before anything runs. A
// value outside (negative, too large, past 2^64) is a usage error, exit 2, in one shape:
//   assay: --max-results: 18446744073709551615 is out of range [0, 1000000]
// and a value that is no integer at all: `--jobs: x is not an integer in [1, 256]`. Nothing
// silently means "unlimited". The bounds are documented in docs/cli.md ("Numeric options").

// The largest integer a report's JSON number holds exactly (2^53).
inline constexpr std::uint64_t max_exact_json_integer = 9007199254740992ull;
// Shared bounds: runs of a soak (and its --max-failures), soak jobs at once, a soak's time budget
// (365 days, so that no deadline overflows the clock), lint findings, OpenTelemetry spans.
inline constexpr std::uint64_t max_soak_iterations = 1000000;
inline constexpr std::uint64_t max_soak_jobs = 256;
inline constexpr std::uint64_t max_time_budget_secs = 365ull * 24 * 3600;
inline constexpr std::uint64_t max_lint_results = 1000000;
inline constexpr std::uint64_t max_otel_spans = 1000000;
// --max-bytes: 1 TiB.
inline constexpr std::uint64_t max_input_bytes = 1ull << 40;

// The message for `text` given to an option bounded by [min, max], or "" when it is within.
std::string range_error(std::string_view text, std::uint64_t min, std::uint64_t max);

// Bounds the option `opt` (an integer option of any type) to [min, max]; returns it.
CLI::Option* in_range(CLI::Option* opt, std::uint64_t min, std::uint64_t max);

}  // namespace assay_cli
