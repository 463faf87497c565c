// The recorder's journal: lines on disk as they are appended, the bundle packed from them when
// the run finishes, and recovered from them when it did not; appends from many threads; a child
// killed while it appends.
#include "support.hpp"

#include "assay/contracts/payloads.hpp"
#include "assay/evidence/journal.hpp"
#include "assay/evidence/recorder.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/json/value.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cstddef>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

namespace ev = assay::evidence;
namespace c = assay::contracts;
namespace fs = std::filesystem;
using namespace std::chrono;

namespace {

// A directory of its own for each test case, removed after it.
struct scratch_dir {
  fs::path path;
  explicit scratch_dir(const std::string& name)
      : path(fs::temp_directory_path() / ("assay-journal-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

std::string read_all(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The lines of a journal that is being written: the file less the zero bytes its recorder
// reserved after them (checked to be zeros, and a whole number of pages).
std::string live_lines(const std::string& p) {
  const std::string all = read_all(p);
  const std::size_t end = all.find_last_not_of('\0') + 1;
  CHECK(all.find('\0') == end);
  CHECK(all.size() % 4096 == 0);
  CHECK(all.size() >= ev::detail::journal_file::window_bytes);
  return all.substr(0, end);
}

void write_all(const std::string& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

c::tool_decision decision(int i) {
  c::tool_decision d{.tool = "tool_" + std::to_string(i % 7), .decision = "allow", .reason_code = "ok"};
  if (i % 3 == 0)
    d.decision = "deny";
  return d;
}

ev::recorder_options options(system_clock::time_point& t, std::optional<ev::journal_options> journal) {
  return {.source = "urn:assay:test",
          .run_id = "run-j",
          .producer = {"rt", "1.0.0", std::nullopt},
          .clock = [&t] { return t += milliseconds{1}; },
          .journal = std::move(journal)};
}

// The events a verified bundle holds, or the verifier's error code name.
std::string verdict(const std::string& bundle) {
  auto v = ev::verify_bundle_file(bundle);
  if (!v)
    return std::string(assay::name(v.error().code)) + ": " + v.error().message;
  return "ok " + std::to_string(v->event_count);
}

}  // namespace

TEST_CASE("a journaled run: the journal is events.ndjson, and finish_to packs the in-memory run's bundle") {
  scratch_dir dir("same");
  auto t1 = system_clock::time_point{seconds{1700000000}};
  auto t2 = t1;
  auto memory = ev::recorder::make(options(t1, std::nullopt)).value();
  auto journaled =
      ev::recorder::make(options(t2, ev::journal_options{dir / "run.journal", ev::durability::every(8)})).value();
  REQUIRE(journaled.journal_path() != nullptr);
  CHECK(*journaled.journal_path() == dir / "run.journal");
  CHECK(memory.journal_path() == nullptr);
  for (int i = 0; i < 50; ++i) {
    REQUIRE(memory.append(c::tool_decision::event_type, decision(i)).value() == static_cast<std::uint64_t>(i));
    REQUIRE(journaled.append(c::tool_decision::event_type, decision(i)).value() == static_cast<std::uint64_t>(i));
  }
  // Each line is in the file when append() returns: the journal is events.ndjson so far, then
  // zero bytes (the space reserved for the next lines).
  std::string lines;
  for (std::uint64_t i = 0; i < 50; ++i)
    lines += memory.line(i).value() + "\n";
  CHECK(live_lines(dir / "run.journal") == lines);
  CHECK_FALSE(journaled.line(0));  // in the journal, not in memory
  CHECK_FALSE(memory.line(50));    // not recorded
  CHECK(journaled.size() == 50);

  const std::string expected = memory.finish().value();
  CHECK(journaled.finish().value() == expected);  // read back from the journal
  const auto summary = journaled.finish_to(dir / "run.tar.gz").value();
  CHECK(read_all(dir / "run.tar.gz") == expected);
  CHECK(summary.events == 50);
  CHECK(summary.torn_bytes == 0);
  CHECK(summary.bundle_id == ev::verify_bundle_bytes(expected).value().bundle_id);
  CHECK(summary.sha256 == "sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(expected).hex());
  CHECK_FALSE(fs::exists(dir / "run.journal"));  // removed once the bundle is written
  // The run is over: no more events, and no second bundle.
  const auto late = journaled.append(c::tool_decision::event_type, decision(0));
  REQUIRE_FALSE(late);
  CHECK(late.error().front().message == "the run was finished: its bundle is " + dir / "run.tar.gz");
  CHECK_FALSE(journaled.finish_to(dir / "again.tar.gz"));
  CHECK_FALSE(fs::exists(dir / "again.tar.gz"));

  // In memory, finish_to writes the same bytes.
  const auto mem_summary = memory.finish_to(dir / "memory.tar.gz").value();
  CHECK(read_all(dir / "memory.tar.gz") == expected);
  CHECK(mem_summary.sha256 == summary.sha256);
  CHECK(mem_summary.bundle_id == summary.bundle_id);
  // No temporary is left beside the bundles.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"memory.tar.gz", "run.tar.gz"});
}

TEST_CASE("a journal already on disk is refused, not overwritten; a journal that cannot be created is named") {
  scratch_dir dir("exists");
  write_all(dir / "run.journal", "earlier run\n");
  auto t = system_clock::time_point{seconds{1700000000}};
  const auto r = ev::recorder::make(options(t, ev::journal_options{dir / "run.journal"}));
  REQUIRE_FALSE(r);
  CHECK(r.error().front().pointer == "/journal/path");
  CHECK(r.error().front().message == "a journal already exists at " + dir / "run.journal" +
                                         ": an unfinished run's? Recover it (assay evidence recover " +
                                         dir / "run.journal" + " --out B.tar.gz) or remove it");
  CHECK(read_all(dir / "run.journal") == "earlier run\n");
  const auto missing = ev::recorder::make(options(t, ev::journal_options{dir / "no/such/dir/run.journal"}));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().front().message ==
        "cannot create the journal " + dir / "no/such/dir/run.journal" + ": No such file or directory");
  const auto empty = ev::recorder::make(options(t, ev::journal_options{""}));
  REQUIRE_FALSE(empty);
  CHECK(empty.error().front().pointer == "/journal/path");
}

TEST_CASE("recovery: a journal cut at every byte of its last two lines gives the bundle of its whole lines") {
  scratch_dir dir("torn");
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make(options(t, ev::journal_options{dir / "run.journal", ev::durability::never()})).value();
  for (int i = 0; i < 6; ++i)
    REQUIRE(run.append(c::tool_decision::event_type, decision(i)));
  const std::string journal = live_lines(dir / "run.journal");
  // Where each line starts.
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i + 1 < journal.size(); ++i)
    if (journal[i] == '\n')
      starts.push_back(i + 1);
  REQUIRE(starts.size() == 6);
  // The bundle of the first k whole events, as a recorder in memory would write it.
  std::vector<std::string> prefix_bundles(7);
  for (std::size_t k = 1; k <= 6; ++k) {
    auto t2 = system_clock::time_point{seconds{1700000000}};
    auto mem = ev::recorder::make(options(t2, std::nullopt)).value();
    for (std::size_t i = 0; i < k; ++i)
      REQUIRE(mem.append(c::tool_decision::event_type, decision(static_cast<int>(i))));
    prefix_bundles[k] = mem.finish().value();
  }
  for (std::size_t cut = starts[4]; cut <= journal.size(); ++cut) {
    CAPTURE(cut);
    write_all(dir / "cut.journal", journal.substr(0, cut));
    const auto r = ev::recover_journal(dir / "cut.journal", dir / "cut.tar.gz");
    REQUIRE(r);
    // Whole lines: those ended by a newline; the rest is the torn line.
    const std::size_t whole = cut == journal.size() ? 6 : (cut >= starts[5] ? 5 : 4);
    const std::size_t whole_end = whole == 6 ? journal.size() : starts[whole];
    CHECK(r->events == whole);
    CHECK(r->torn_bytes == cut - whole_end);
    CHECK(read_all(dir / "cut.tar.gz") == prefix_bundles[whole]);
    CHECK(verdict(dir / "cut.tar.gz") == "ok " + std::to_string(whole));
    CHECK(read_all(dir / "cut.journal") == journal.substr(0, cut));  // left as it was
    // As a crash leaves it: the bytes copied so far, then the reserved space's zero bytes.
    const std::string crashed = journal.substr(0, cut) + std::string(8192 - cut % 4096, '\0');
    write_all(dir / "cut.journal", crashed);
    const auto z = ev::recover_journal(dir / "cut.journal", dir / "cut.tar.gz");
    REQUIRE(z);
    CHECK(z->events == whole);
    CHECK(z->torn_bytes == cut - whole_end);
    CHECK(read_all(dir / "cut.tar.gz") == prefix_bundles[whole]);
    CHECK(read_all(dir / "cut.journal") == crashed);
  }
  // finish_to (not a recovery) refuses a journal whose last line is cut.
  write_all(dir / "cut.journal", journal.substr(0, journal.size() - 1));
  const auto strict = ev::detail::pack_journal(dir / "cut.journal", dir / "strict.tar.gz", false, {});
  REQUIRE_FALSE(strict);
  CHECK(strict.error().message == dir / "cut.journal" + ": line 6: the last line has no newline (" +
                                      std::to_string(journal.size() - 1 - starts[5]) + " bytes)");
  CHECK_FALSE(fs::exists(dir / "strict.tar.gz"));
}

TEST_CASE("recovery refuses a journal that was changed, naming the line and the verifier's code") {
  scratch_dir dir("changed");
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make(options(t, ev::journal_options{dir / "run.journal"})).value();
  for (int i = 0; i < 4; ++i)
    REQUIRE(run.append(c::tool_decision::event_type, decision(i)));
  const std::string journal = live_lines(dir / "run.journal");
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < journal.size();) {
    const std::size_t nl = journal.find('\n', at);
    lines.push_back(journal.substr(at, nl - at));
    at = nl + 1;
  }
  auto joined = [](const std::vector<std::string>& ls) {
    std::string out;
    for (const auto& l : ls)
      out += l + "\n";
    return out;
  };
  auto refusal = [&](const std::string& text) {
    write_all(dir / "bad.journal", text);
    const auto r = ev::recover_journal(dir / "bad.journal", dir / "bad.tar.gz");
    CHECK_FALSE(fs::exists(dir / "bad.tar.gz"));
    return r ? std::string("recovered") : std::string(assay::name(r.error().code)) + ": " + r.error().message;
  };
  const std::string where = dir / "bad.journal" + ": line ";
  {  // a line dropped: the sequence has a gap
    auto ls = lines;
    ls.erase(ls.begin() + 2);
    CHECK(refusal(joined(ls)) == "ContractSequenceGap: " + where + "3: sequence gap: seq 3 follows 1 (at /assayseq)");
  }
  {  // the payload edited: the content hash no longer matches
    auto ls = lines;
    const auto at = ls[1].find("\"tool_1\"");
    REQUIRE(at != std::string::npos);
    ls[1].replace(at, 8, "\"tool_9\"");
    const std::string r = refusal(joined(ls));
    CHECK(r.rfind("IntegrityEventHash: " + where + "2: assaycontenthash does not match the content (expected sha256:",
                  0) == 0);
  }
  {  // a space added: the same event, but not the line that was written
    auto ls = lines;
    ls[0].insert(1, " ");
    CHECK(refusal(joined(ls)) == "ContractInvalidJson: " + where +
                                     "1: the line is not the event's canonical form (the journal was changed after "
                                     "it was written)");
  }
  {  // an empty line
    auto ls = lines;
    ls.insert(ls.begin() + 1, "");
    CHECK(refusal(joined(ls)) == "unexpected_end: " + where + "2: input ended where a value was expected");
  }
  CHECK(refusal("") == "ContractInvalidJson: " + dir / "bad.journal" + ": the journal holds no complete event");
  CHECK(refusal("{\"a\":") == "ContractInvalidJson: " + dir / "bad.journal" + ": the journal holds no complete event");
  // The bundle never replaces its journal.
  write_all(dir / "self.journal", journal);
  const auto self = ev::recover_journal(dir / "self.journal", dir / "self.journal");
  REQUIRE_FALSE(self);
  CHECK(self.error().message == "the bundle " + dir / "self.journal" + " would replace the journal " +
                                    dir / "self.journal" + ": write it to another file");
  CHECK(read_all(dir / "self.journal") == journal);
  const auto none = ev::recover_journal(dir / "absent.journal", dir / "x.tar.gz");
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "cannot open the journal " + dir / "absent.journal" + ": No such file or directory");
}

TEST_CASE("a journal longer than its window, and a line longer than one: the same bytes as in memory") {
  // Without syncs, and synced every 64 events: then each sync writes back the pages of the window
  // that the lines since the last one dirtied, and a window's lines are synced before the next
  // window is mapped (journal_file::sync, remap).
  const std::pair<const char*, ev::durability> policies[] = {{"never", ev::durability::never()},
                                                             {"every-64", ev::durability::every(64)}};
  for (const auto& named : policies) {
    const std::string name = named.first;  // (not a structured binding: CAPTURE cannot take one)
    const ev::durability policy = named.second;
    CAPTURE(name);
    scratch_dir dir(std::string("windows-") + name);
    auto t1 = system_clock::time_point{seconds{1700000000}};
    auto t2 = t1;
    auto memory = ev::recorder::make(options(t1, std::nullopt)).value();
    auto journaled = ev::recorder::make(options(t2, ev::journal_options{dir / "run.journal", policy})).value();
    // A payload larger than a window: its line reserves a window of its own.
    const std::string half(ev::detail::journal_file::window_bytes / 2 + 5000, 'x');  // a string's limit is 1 MiB
    auto big = assay::json::parse(R"({"a":")" + half + R"(","b":")" + half + R"("})").value();
    std::uint64_t bytes = 0;
    for (int i = 0; bytes < 3 * ev::detail::journal_file::window_bytes; ++i) {
      if (i == 700)
        REQUIRE(journaled.append("example.note", big).value() == memory.append("example.note", big).value());
      else
        REQUIRE(journaled.append(c::tool_decision::event_type, decision(i)).value() ==
                memory.append(c::tool_decision::event_type, decision(i)).value());
      bytes += memory.line(static_cast<std::uint64_t>(i)).value().size() + 1;
    }
    std::string lines;
    for (std::uint64_t i = 0; i < memory.size(); ++i)
      lines += memory.line(i).value() + "\n";
    CHECK(live_lines(dir / "run.journal") == lines);
    ev::bundle_options o;
    o.limits.max_line_bytes = 4u << 20;
    const std::string expected = memory.finish(o).value();
    REQUIRE(journaled.finish_to(dir / "run.tar.gz", o));
    CHECK(read_all(dir / "run.tar.gz") == expected);
  }
}

TEST_CASE("a recorder destroyed before finish_to leaves its journal holding its lines alone") {
  scratch_dir dir("left");
  auto t = system_clock::time_point{seconds{1700000000}};
  std::string lines;
  {
    auto run =
        ev::recorder::make(options(t, ev::journal_options{dir / "run.journal", ev::durability::every(4)})).value();
    for (int i = 0; i < 9; ++i)
      REQUIRE(run.append(c::tool_decision::event_type, decision(i)));
    lines = live_lines(dir / "run.journal");
  }
  CHECK(read_all(dir / "run.journal") == lines);  // the reserved space cut off
  const auto r = ev::recover_journal(dir / "run.journal", dir / "run.tar.gz");
  REQUIRE(r);
  CHECK(r->events == 9);
  CHECK(r->torn_bytes == 0);
}

TEST_CASE("appends from many threads: dense unique seqs, each thread's in its order, lines never interleaved") {
  scratch_dir dir("threads");
  for (const bool journaled : {false, true}) {
    CAPTURE(journaled);
    auto t = system_clock::time_point{seconds{1700000000}};
    std::optional<ev::journal_options> j;
    if (journaled)
      j = ev::journal_options{dir / "run.journal", ev::durability::never()};
    auto run = ev::recorder::make(options(t, j)).value();
    constexpr int threads = 4, per_thread = 500;
    std::vector<std::vector<std::uint64_t>> seqs(threads);
    std::atomic<bool> go{false};
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k) {
      pool.emplace_back([&, k] {
        while (!go.load())
          std::this_thread::yield();
        for (int i = 0; i < per_thread; ++i)
          seqs[k].push_back(run.append(c::tool_decision::event_type, decision(k * per_thread + i)).value());
      });
    }
    go = true;
    for (auto& th : pool)
      th.join();
    std::vector<bool> seen(threads * per_thread, false);
    for (const auto& s : seqs) {
      CHECK(std::is_sorted(s.begin(), s.end()));
      for (const auto q : s) {
        REQUIRE(q < seen.size());
        CHECK_FALSE(seen[q]);
        seen[q] = true;
      }
    }
    CHECK(run.size() == threads * per_thread);
    const auto summary = run.finish_to(dir / "run.tar.gz").value();
    CHECK(summary.events == threads * per_thread);
    CHECK(verdict(dir / "run.tar.gz") == "ok " + std::to_string(threads * per_thread));
    fs::remove(dir / "run.tar.gz");
  }
}

// A child that appends from four threads without end, killed with SIGKILL at a random moment
// after its 21st event; its journal recovered into `bundle`. Checks that every seq an append
// returned is in the bundle, and returns the bundle's event count.
std::uint64_t killed_and_recovered(const scratch_dir& dir, int trial, std::mt19937& random, const std::string& bundle) {
  const std::string journal = dir / ("run" + std::to_string(trial) + ".journal");
  const std::string acked = dir / ("acked" + std::to_string(trial));
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child: four threads append without end; each seq returned is written to its own
    // file once append() has returned (what the run was told was recorded).
    ::close(ready[0]);
    auto t = system_clock::time_point{seconds{1700000000}};
    auto run = ev::recorder::make(options(t, ev::journal_options{journal, ev::durability::every_event()}));
    if (!run)
      ::_exit(3);
    std::vector<std::thread> pool;
    for (int k = 0; k < 4; ++k) {
      pool.emplace_back([&, k] {
        std::ofstream out(acked + "." + std::to_string(k));
        for (int i = 0;; ++i) {
          auto s = run->append(c::tool_decision::event_type, decision(i));
          if (!s)
            ::_exit(4);
          out << *s << "\n" << std::flush;
          if (k == 0 && i == 20)
            (void)!::write(ready[1], "r", 1);
        }
      });
    }
    for (auto& th : pool)
      th.join();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  std::this_thread::sleep_for(milliseconds(std::uniform_int_distribution<int>(0, 40)(random)));
  REQUIRE(::kill(child, SIGKILL) == 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);

  // Every seq an append returned is in the recovered bundle.
  std::uint64_t highest_acked = 0;
  std::size_t acked_count = 0;
  for (int k = 0; k < 4; ++k) {
    std::ifstream in(acked + "." + std::to_string(k));
    std::uint64_t s = 0;
    while (in >> s) {
      highest_acked = std::max(highest_acked, s);
      ++acked_count;
    }
  }
  REQUIRE(acked_count > 20);
  const auto r = ev::recover_journal(journal, bundle);
  REQUIRE_MESSAGE(r, r.error().format());
  CHECK(r->events > highest_acked);
  // A kill while a line was being copied leaves it torn (no newline): an event whose append had
  // not returned. Any other line is whole.
  CHECK(r->torn_bytes < 1024);
  CHECK(verdict(bundle) == "ok " + std::to_string(r->events));
  return r->events;
}

TEST_CASE("a child killed while four threads append: recovery holds every event it recorded") {
  scratch_dir dir("kill");
  std::mt19937 random(20261128);
  for (int trial = 0; trial < 3; ++trial) {
    CAPTURE(trial);
    killed_and_recovered(dir, trial, random, dir / "recovered.tar.gz");
    fs::remove(dir / "recovered.tar.gz");
  }
}

TEST_CASE("the reference verifies what was recovered from a killed run" * doctest::test_suite("oracle")) {
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_MESSAGE(!ref.empty(), "assay-ref not found");
  scratch_dir dir("kill-ref");
  std::mt19937 random(1128);
  for (int trial = 0; trial < 2; ++trial) {
    CAPTURE(trial);
    const std::string bundle = dir / ("recovered" + std::to_string(trial) + ".tar.gz");
    const std::uint64_t events = killed_and_recovered(dir, trial, random, bundle);
    const std::string out = dir / "ref.txt";
    CHECK(std::system((ref.string() + " verify " + bundle + " > " + out + " 2>&1").c_str()) == 0);
    const std::string said = read_all(out);
    CHECK_MESSAGE(said.find("event_count: " + std::to_string(events) + "\n") != std::string::npos, said);
  }
}

#if defined(__x86_64__)
namespace {

// From here on this process's mmap of a file shared (MAP_SHARED) fails with ENODEV, as on a file
// system that cannot map files: a seccomp filter, so that nothing in the library is told. False
// when the kernel refuses the filter.
bool shared_mappings_refused() {
  struct sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),  // flags (low half)
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_SHARED, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENODEV & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {static_cast<unsigned short>(sizeof program / sizeof program[0]), program};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0;
}

// In a child whose shared mappings fail: a journaled run (one line longer than a window, a sync
// every 64 events or none) written one write(2) per line, its file exactly its lines while it
// records, and packed into the in-memory run's bundle byte for byte; then a recorder destroyed
// unfinished leaves its lines. 0 when all held; otherwise what did not, on stderr.
int unmapped_journal_child(const scratch_dir& dir) {
  if (!shared_mappings_refused())
    return 10;
  void* probe = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (probe != MAP_FAILED || errno != ENODEV)
    return 11;
  int failed = 0;
  auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "unmapped journal: %s\n", what.c_str());
    failed = 1;
  };
  for (const ev::durability policy : {ev::durability::never(), ev::durability::every(64)}) {
    const std::string journal = dir / "run.journal", bundle = dir / "run.tar.gz";
    auto t1 = system_clock::time_point{seconds{1700000000}};
    auto t2 = t1;
    auto memory = ev::recorder::make(options(t1, std::nullopt)).value();
    auto journaled = ev::recorder::make(options(t2, ev::journal_options{journal, policy})).value();
    const std::string half(ev::detail::journal_file::window_bytes / 2 + 5000, 'x');
    auto big = assay::json::parse(R"({"a":")" + half + R"(","b":")" + half + R"("})").value();
    std::string lines;
    for (int i = 0; i < 3000; ++i) {
      auto a = i == 700 ? journaled.append("example.note", big)
                        : journaled.append(c::tool_decision::event_type, decision(i));
      auto b = i == 700 ? memory.append("example.note", big) : memory.append(c::tool_decision::event_type, decision(i));
      if (!a || !b || *a != *b) {
        fail("append " + std::to_string(i) + (a ? "" : ": " + a.error().front().format()));
        return 1;
      }
      lines += memory.line(static_cast<std::uint64_t>(i)).value() + "\n";
    }
    if (read_all(journal) != lines)  // no space reserved: nothing after the lines
      fail("the journal is not its lines alone");
    ev::bundle_options o;
    o.limits.max_line_bytes = 4u << 20;
    if (auto r = journaled.finish_to(bundle, o); !r)
      fail("finish_to: " + r.error().format());
    else if (read_all(bundle) != memory.finish(o).value())
      fail("the bundle differs from the in-memory run's");
    if (fs::exists(journal))
      fail("finish_to left the journal");
    fs::remove(bundle);
  }
  {
    auto t = system_clock::time_point{seconds{1700000000}};
    const std::string journal = dir / "left.journal";
    std::string lines;
    {
      auto run = ev::recorder::make(options(t, ev::journal_options{journal, ev::durability::every(4)})).value();
      for (int i = 0; i < 9; ++i) {
        if (!run.append(c::tool_decision::event_type, decision(i)))
          fail("append to the unfinished run");
      }
      lines = read_all(journal);
    }
    if (read_all(journal) != lines || std::count(lines.begin(), lines.end(), '\n') != 9)
      fail("the unfinished run's journal is not its nine lines");
    const auto r = ev::recover_journal(journal, dir / "left.tar.gz");
    if (!r || r->events != 9 || r->torn_bytes != 0)
      fail("recovery of the unfinished run");
  }
  return failed;
}

}  // namespace

TEST_CASE("a file system that cannot map the journal: one write(2) per line, the same bundle") {
  scratch_dir dir("unmapped");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0)
    ::_exit(unmapped_journal_child(dir));
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  // 10: this kernel refused the seccomp filter (the case cannot be made here); 11: the filter
  // did not make a shared mapping fail.
  CHECK(WEXITSTATUS(status) == 0);
}
#endif

TEST_CASE("finish_to packs the journal its recorder wrote and removes only that file, whatever the path names") {
  scratch_dir dir("replaced");
  auto ta = system_clock::time_point{seconds{1700000000}};
  auto tb = ta;
  const std::string j = dir / "run.journal";
  auto a = ev::recorder::make(options(ta, ev::journal_options{j, ev::durability::never()})).value();
  for (int i = 0; i < 3; ++i)
    REQUIRE(a.append(c::tool_decision::event_type, decision(i)));
  // Run A's journal is removed from under it; run B makes a new one of the same name.
  REQUIRE(::unlink(j.c_str()) == 0);
  auto bo = options(tb, ev::journal_options{j, ev::durability::never()});
  bo.run_id = "run-b";
  auto b = ev::recorder::make(bo).value();
  for (int i = 0; i < 5; ++i)
    REQUIRE(b.append(c::tool_decision::event_type, decision(i)));
  const auto sa = a.finish_to(dir / "a.tar.gz");
  REQUIRE(sa);
  CHECK(sa->events == 3);
  CHECK(verdict(dir / "a.tar.gz") == "ok 3");
  auto va = ev::verify_bundle_file(dir / "a.tar.gz");
  REQUIRE(va);
  CHECK(va->run_id == "run-j");
  CHECK(fs::exists(j));  // B's journal, untouched
  const auto sb = b.finish_to(dir / "b.tar.gz");
  REQUIRE(sb);
  CHECK(sb->events == 5);
  CHECK(verdict(dir / "b.tar.gz") == "ok 5");
  CHECK_FALSE(fs::exists(j));
}

TEST_CASE("recovery: zero bytes between whole lines are a hole; the lines before it recovered, the rest reported") {
  scratch_dir dir("hole");
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make(options(t, ev::journal_options{dir / "run.journal", ev::durability::never()})).value();
  for (int i = 0; i < 8; ++i)
    REQUIRE(run.append(c::tool_decision::event_type, decision(i)));
  const std::string journal = live_lines(dir / "run.journal");
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i + 1 < journal.size(); ++i)
    if (journal[i] == '\n')
      starts.push_back(i + 1);
  REQUIRE(starts.size() == 8);
  auto t2 = system_clock::time_point{seconds{1700000000}};
  auto mem = ev::recorder::make(options(t2, std::nullopt)).value();
  for (int i = 0; i < 3; ++i)
    REQUIRE(mem.append(c::tool_decision::event_type, decision(i)));
  const std::string three = mem.finish().value();
  // A hole from the start of line 4 into line 5; a hole from inside line 4.
  for (const std::size_t inside : {std::size_t{0}, std::size_t{17}}) {
    CAPTURE(inside);
    std::string holed = journal;
    const std::size_t at = starts[3] + inside, end = starts[4] + 20;
    std::fill(holed.begin() + static_cast<std::ptrdiff_t>(at), holed.begin() + static_cast<std::ptrdiff_t>(end), '\0');
    write_all(dir / "holed.journal", holed + std::string(4096, '\0'));
    const auto r = ev::recover_journal(dir / "holed.journal", dir / "holed.tar.gz");
    REQUIRE(r);
    CHECK(r->events == 3);
    CHECK(r->torn_bytes == inside);
    REQUIRE(r->hole);
    CHECK(r->hole->at == at);
    CHECK(r->hole->zero_bytes == end - at);
    CHECK(r->hole->after_bytes == holed.size() + 4096 - end);
    CHECK(read_all(dir / "holed.tar.gz") == three);
  }
  // A hole before any whole line: nothing to recover, said with where the hole is.
  std::string first = journal;
  std::fill(first.begin(), first.begin() + 10, '\0');
  write_all(dir / "first.journal", first);
  const auto none = ev::recover_journal(dir / "first.journal", dir / "first.tar.gz");
  REQUIRE_FALSE(none);
  CHECK(none.error().message == dir / "first.journal" +
                                    ": the journal holds no complete event before a hole of 10 "
                                    "zero bytes at byte 0");
  CHECK_FALSE(fs::exists(dir / "first.tar.gz"));
}

TEST_CASE("files: journals 0600, bundles 0666 less the umask, an existing bundle's mode kept, links written through") {
  scratch_dir dir("modes");
  auto t = system_clock::time_point{seconds{1700000000}};
  const mode_t old = ::umask(027);
  auto run = ev::recorder::make(options(t, ev::journal_options{dir / "run.journal", ev::durability::never()})).value();
  REQUIRE(run.append(c::tool_decision::event_type, decision(0)));
  CHECK((fs::status(dir / "run.journal").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  REQUIRE(run.finish_to(dir / "new.tar.gz"));
  ::umask(old);
  CHECK((fs::status(dir / "new.tar.gz").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  // An existing 0600 file stays 0600; a symbolic link stays a link, its target replaced.
  write_all(dir / "target.tar.gz", "old");
  fs::permissions(dir / "target.tar.gz", fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink(dir / "target.tar.gz", dir / "link.tar.gz");
  auto t2 = system_clock::time_point{seconds{1700000000}};
  auto mem = ev::recorder::make(options(t2, std::nullopt)).value();
  REQUIRE(mem.append(c::tool_decision::event_type, decision(0)));
  REQUIRE(mem.finish_to(dir / "link.tar.gz"));
  CHECK(fs::is_symlink(dir / "link.tar.gz"));
  CHECK(verdict(dir / "target.tar.gz") == "ok 1");
  CHECK((fs::status(dir / "target.tar.gz").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  // A directory is refused, and nothing is left beside it.
  fs::create_directories(dir / "a-dir");
  auto w = ev::atomic_file::open(dir / "a-dir");
  REQUIRE_FALSE(w);
  CHECK(w.error().message == "cannot write " + dir / "a-dir" + ": Is a directory");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path))
    ++entries;
  CHECK(entries == 4);  // new.tar.gz, target.tar.gz, link.tar.gz, a-dir: no temporary, no journal
}

TEST_CASE("the recorder redacts by default: sensitive members and additive ones generalized before the hash") {
  auto t = system_clock::time_point{seconds{1700000000}};
  auto run = ev::recorder::make(options(t, std::nullopt)).value();
  c::tool_decision d = decision(0);
  d.reason = "denied /home/alice/.ssh/id_rsa, header Authorization: Bearer abc.def";
  d.extra["cmd"] = assay::json::value("deploy --api-token=s3cr3t");
  REQUIRE(run.append(c::tool_decision::event_type, d));
  // The same through a DOM payload and a subject of a type whose subject is sensitive.
  auto dom = assay::json::parse(R"({"hits":2,"file":"/Users/bob/secrets/plan.md"})").value();
  REQUIRE(run.append(c::fs_access::event_type, dom, {.subject = std::string("/home/carol/work/x.c")}));
  // A payload with nothing to redact is written as given.
  REQUIRE(run.append(c::tool_decision::event_type, decision(1)));
  const auto e0 = run.event(0).value();
  CHECK(e0.find("data")->find("reason")->as_string() == "denied ~/**/id_rsa, header Authorization: Bearer ***");
  CHECK(e0.find("data")->find("cmd")->as_string() == "deploy --api-token=***");
  const auto e1 = run.event(1).value();
  CHECK(e1.find("data")->find("file")->as_string() == "~/**/plan.md");
  CHECK(e1.find("subject")->as_string() == "~/**/x.c");
  const auto e2 = run.event(2).value();
  CHECK(e2.find("data")->find("reason") == nullptr);
  const std::string gz = run.finish().value();
  auto v = ev::verify_bundle_bytes(gz);
  REQUIRE(v);
  CHECK(v->event_count == 3);

  auto t2 = system_clock::time_point{seconds{1700000000}};
  auto keep_opts = options(t2, std::nullopt);
  keep_opts.privacy = ev::privacy_mode::keep_sensitive;
  auto kept = ev::recorder::make(keep_opts).value();
  REQUIRE(kept.append(c::tool_decision::event_type, d));
  CHECK(kept.event(0).value().find("data")->find("reason")->as_string() ==
        "denied /home/alice/.ssh/id_rsa, header Authorization: Bearer abc.def");
}
