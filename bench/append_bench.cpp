// append_bench: what one recorder::append costs the agent that calls it, against what a runtime
// author already pays to log a line — spdlog's synchronous file logger writing the same JSON text,
// the same logger flushed after every line (each line in the kernel when the call returns, the
// journal's promise), and a plain fwrite of it — measured in the same run, on 1 and 4 threads.
//
//   append_bench [DIR]          the cost table (files in DIR, default: the working directory)
//   append_bench --rss N [DIR]  peak RSS of a run of N events recorded with a journal (and
//                               packed with finish_to), and of the same run in memory
//
// Each append of a typed assay.tool.decision validates the payload, writes its canonical bytes,
// hashes them (content hash), numbers the event and, with a journal, writes its line to the file
// (copied into its shared mapping of the file) and syncs it as the durability policy says. Every
// call is timed on its own (steady_clock around it); the table gives the median, the 99th
// percentile and the mean over all threads' calls (the mean holds the costs a median skips: the
// recorder's page faults as its journal grows, the logger's write(2) of its full buffer), and
// each row's median as a ratio to spdlog's. Two rows on one thread time parts of an append alone:
// the payload's encoding (validated canonical bytes), then that and its content hash.
#include "assay/contracts/payloads.hpp"
#include "assay/evidence/journal.hpp"
#include "assay/evidence/recorder.hpp"

#ifdef ASSAY_BENCH_SPDLOG
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ev = assay::evidence;
namespace c = assay::contracts;
using clock_type = std::chrono::steady_clock;

namespace {

c::tool_decision decision(std::uint64_t i) {
  c::tool_decision d{.tool = "read_file", .decision = "allow", .reason_code = "P_ALLOWLIST"};
  d.tool_call_id = "call_" + std::to_string(i);
  d.principal = "agent-7";
  if (i % 5 == 0)
    d.decision = "deny";
  return d;
}

struct row {
  std::string name;
  double median_ns = 0, p99_ns = 0, mean_ns = 0;
  std::size_t calls = 0;
};

// Runs `one(thread, i)` `per_thread` times on each of `threads` threads, timing every call.
row timed(const std::string& name, int threads, std::size_t per_thread,
          const std::function<void(int, std::size_t)>& one) {
  std::vector<std::vector<std::int64_t>> ns(static_cast<std::size_t>(threads));
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k) {
    pool.emplace_back([&, k] {
      auto& mine = ns[static_cast<std::size_t>(k)];
      mine.reserve(per_thread);
      while (!go.load())
        std::this_thread::yield();
      for (std::size_t i = 0; i < per_thread; ++i) {
        const auto t0 = clock_type::now();
        one(k, i);
        mine.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now() - t0).count());
      }
    });
  }
  go = true;
  for (auto& t : pool)
    t.join();
  std::vector<std::int64_t> all;
  for (auto& v : ns)
    all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  row r;
  r.name = name;
  r.calls = all.size();
  r.median_ns = static_cast<double>(all[all.size() / 2]);
  r.p99_ns = static_cast<double>(all[std::min(all.size() - 1, all.size() * 99 / 100)]);
  double sum = 0;
  for (const auto v : all)
    sum += static_cast<double>(v);
  r.mean_ns = sum / static_cast<double>(all.size());
  return r;
}

std::string file_system_of(const std::string& dir) {
  struct statfs s {};
  if (::statfs(dir.c_str(), &s) != 0)
    return "unknown";
  switch (static_cast<unsigned long>(s.f_type)) {
    case 0xEF53:
      return "ext4";
    case 0x01021994:
      return "tmpfs";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x794c7630:
      return "overlayfs";
    default:
      return "other";
  }
}

ev::recorder make_recorder(std::optional<ev::journal_options> j) {
  return ev::recorder::make({.source = "urn:assay:bench", .producer = {"bench", "1", std::nullopt}, .journal = j})
      .value();
}

// The decisions appended, made before the clock starts (a runtime holds its decision already).
const std::vector<c::tool_decision>& decisions() {
  static const std::vector<c::tool_decision> all = [] {
    std::vector<c::tool_decision> v;
    for (std::uint64_t i = 0; i < 1024; ++i)
      v.push_back(decision(i));
    return v;
  }();
  return all;
}

int cost_table(const std::string& dir) {
  // The JSON text the loggers write: the line the recorder writes for the same decision.
  auto sample = make_recorder(std::nullopt);
  (void)sample.append(c::tool_decision::event_type, decision(0)).value();
  const std::string line = sample.line(0).value();
  std::printf("append_bench: one append of a typed assay.tool.decision (%zu-byte line); files in %s (%s)\n",
              line.size() + 1, dir.c_str(), file_system_of(dir).c_str());
  std::vector<row> rows;
  for (const int threads : {1, 4}) {
    const std::size_t fast = 200000 / static_cast<std::size_t>(threads);
    const std::size_t synced = 2000 / static_cast<std::size_t>(threads);
    const std::string t = " (" + std::to_string(threads) + " thread" + (threads > 1 ? "s" : "") + ")";
#ifdef ASSAY_BENCH_SPDLOG
    {
      const std::string path = dir + "/bench-spdlog.log";
      std::remove(path.c_str());
      auto logger = spdlog::basic_logger_mt("bench" + std::to_string(threads), path, true);
      logger->set_pattern("%v");
      rows.push_back(
          timed("spdlog basic_file_sink_mt" + t, threads, fast, [&](int, std::size_t) { logger->info(line); }));
      logger->flush();
      spdlog::drop("bench" + std::to_string(threads));
      std::remove(path.c_str());
    }
    {  // flushed after each line: each line in the kernel when the call returns, as the journal's
      const std::string path = dir + "/bench-spdlog-flush.log";
      std::remove(path.c_str());
      auto logger = spdlog::basic_logger_mt("bench-flush" + std::to_string(threads), path, true);
      logger->set_pattern("%v");
      logger->flush_on(spdlog::level::trace);
      rows.push_back(timed("spdlog basic_file_sink_mt, flush_on every line" + t, threads, fast,
                           [&](int, std::size_t) { logger->info(line); }));
      spdlog::drop("bench-flush" + std::to_string(threads));
      std::remove(path.c_str());
    }
#endif
    {
      const std::string path = dir + "/bench-fwrite.log";
      std::FILE* f = std::fopen(path.c_str(), "wb");
      rows.push_back(timed("fwrite of the line" + t, threads, fast, [&](int, std::size_t) {
        std::fwrite(line.data(), 1, line.size(), f);
        std::fputc('\n', f);
      }));
      std::fclose(f);
      std::remove(path.c_str());
    }
    if (threads == 1) {  // what an append is made of: its payload's encoding, then its content hash
      std::string projection;
      const std::string after =
          ev::projection_after_data("application/json", "1.0", std::nullopt, c::tool_decision::event_type).value();
      rows.push_back(timed("part: the payload encoded and validated" + t, threads, fast, [&](int, std::size_t i) {
        projection.assign(ev::projection_before_data);
        assay::json::string_sink sink{&projection};
        (void)assay::reflect::encode_to(sink, decisions()[i % 1024]).value();
      }));
      rows.push_back(timed("part: and its content hash" + t, threads, fast, [&](int, std::size_t i) {
        projection.assign(ev::projection_before_data);
        assay::json::string_sink sink{&projection};
        (void)assay::reflect::encode_to(sink, decisions()[i % 1024]).value();
        projection += after;
        const auto h = ev::content_hash_of_projection(projection);
        asm volatile("" : : "r"(&h) : "memory");
      }));
    }
    {
      auto run = make_recorder(std::nullopt);
      rows.push_back(timed("recorder, in memory" + t, threads, fast, [&](int k, std::size_t i) {
        (void)run.append(c::tool_decision::event_type, decisions()[(static_cast<std::size_t>(k) * fast + i) % 1024])
            .value();
      }));
    }
    const std::pair<std::string, ev::durability> policies[] = {
        {"never", ev::durability::never()},
        {"every 64 events", ev::durability::every(64)},
        {"every 10 ms", ev::durability::every(std::chrono::milliseconds(10))},
        {"every event", ev::durability::every_event()},
    };
    for (const auto& [label, policy] : policies) {
      const std::string path = dir + "/bench.journal";
      std::remove(path.c_str());
      auto run = make_recorder(ev::journal_options{path, policy});
      const std::size_t n = policy.when == ev::durability::mode::every_event ? synced : fast;
      rows.push_back(timed("recorder, journal, fdatasync " + label + t, threads, n, [&](int k, std::size_t i) {
        (void)run.append(c::tool_decision::event_type, decisions()[(static_cast<std::size_t>(k) * n + i) % 1024])
            .value();
      }));
      std::remove(path.c_str());
    }
  }
  double anchor[5] = {0, 0, 0, 0, 0};  // spdlog's buffered logger, by thread count
  for (const auto& r : rows)
    if (r.name.rfind("spdlog basic_file_sink_mt (", 0) == 0)
      anchor[r.name.find("(4") != std::string::npos ? 4 : 1] = r.median_ns;
  std::printf("%-58s %10s %10s %10s %10s %s\n", "", "calls", "median ns", "p99 ns", "mean ns", "median / spdlog's");
  for (const auto& r : rows) {
    const double a = anchor[r.name.find("(4") != std::string::npos ? 4 : 1];
    std::printf("%-58s %10zu %10.0f %10.0f %10.0f ", r.name.c_str(), r.calls, r.median_ns, r.p99_ns, r.mean_ns);
    if (a > 0)
      std::printf("%.2f\n", r.median_ns / a);
    else
      std::printf("(no spdlog)\n");
  }
  return 0;
}

// Peak RSS (KiB) of a child that records `n` events — with a journal then finish_to, or in
// memory then finish() — measured by the parent from the child's rusage.
long peak_rss_of(std::uint64_t n, bool journal, const std::string& dir) {
  const pid_t child = ::fork();
  if (child == 0) {
    const std::string j = dir + "/rss.journal", out = dir + "/rss.tar.gz";
    std::remove(j.c_str());
    std::optional<ev::journal_options> o;
    if (journal)
      o = ev::journal_options{j, ev::durability::every(4096)};
    auto run = make_recorder(o);
    for (std::uint64_t i = 0; i < n; ++i)
      (void)run.append(c::tool_decision::event_type, decision(i)).value();
    ev::bundle_options b;  // the default limits stop at 100,000 events and 500 MiB of them
    b.threads = 1;
    b.limits.max_events = n;
    b.limits.max_events_bytes = n * 1024;
    b.limits.max_decode_bytes = n * 1024 + (1u << 20);
    b.limits.max_bundle_bytes = n * 1024 + (1u << 20);
    std::optional<assay::error> failed;
    if (journal) {
      if (auto r = run.finish_to(out, b); !r)
        failed = r.error();
    } else if (auto r = run.finish(b); !r) {
      failed = r.error();
    }
    if (failed)
      std::fprintf(stderr, "append_bench --rss: %s\n", failed->format().c_str());
    const bool ok = !failed;
    std::remove(out.c_str());
    std::remove(j.c_str());
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  struct rusage ru {};
  ::wait4(child, &status, 0, &ru);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return ru.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--rss") == 0) {
    const std::uint64_t n = std::strtoull(argv[2], nullptr, 10);
    const std::string dir = argc >= 4 ? argv[3] : ".";
    const long with_journal = peak_rss_of(n, true, dir);
    const long in_memory = peak_rss_of(n, false, dir);
    std::printf("append_bench --rss: %llu events of assay.tool.decision\n", static_cast<unsigned long long>(n));
    std::printf("  journal + finish_to: peak RSS %.1f MiB\n", static_cast<double>(with_journal) / 1024.0);
    std::printf("  in memory + finish:  peak RSS %.1f MiB\n", static_cast<double>(in_memory) / 1024.0);
    return with_journal < 0 || in_memory < 0 ? 1 : 0;  // a child that failed said why
  }
  return cost_table(argc >= 2 ? argv[1] : ".");
}
