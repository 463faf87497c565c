// The export in flat memory (issue 42): the spill store's chains read back as appended, in a file
// and in memory alike; an export whose spans and dropped attributes wait in a spill file writes the
// same lines and the same report bytes as one that holds them in memory, and as the report value
// encoded whole — for bundles, every upstream conformance stream, and runs interleaved event by
// event through add(); a spill that cannot be written is an error that names its directory.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "upstream_streams.hpp"
#include "assay/evidence/spill.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/otel/exporter.hpp"
#include "assay/reflect/codec.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace json = assay::json;
namespace otel = assay::otel;
using assay::evidence::spill_store;
using assay_test::event;

namespace {

using assay_test::temp_dir;

// Every record of `c`, in order.
std::vector<std::string> records(spill_store& s, const spill_store::chain& c) {
  std::vector<std::string> out;
  std::string bytes;
  for (std::uint64_t at = c.first; at != spill_store::end;) {
    auto next = s.read(at, bytes);
    REQUIRE_MESSAGE(next.has_value(), (next ? std::string() : next.error().format()));
    out.push_back(bytes);
    at = *next;
  }
  return out;
}

// What an export wrote: the lines, the streamed report bytes, and the summary returned.
struct written {
  std::string lines, report;
  std::uint64_t line_count = 0;
  assay::contracts::otel_export_report summary;
};

using feed = std::function<void(otel::exporter&)>;

written streamed(const feed& f, otel::export_options o) {
  otel::exporter x({"p", "1", std::nullopt}, o);
  f(x);
  written w;
  auto r = x.finish_to(
      [&](std::string_view line) {
        w.lines += line;
        ++w.line_count;
        return true;
      },
      [&](std::string_view bytes) {
        w.report += bytes;
        return true;
      });
  REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().format()));
  w.summary = *r;
  return w;
}

// The export of `f` spilled to a file, in memory, and as a value: the same bytes each way.
void same_every_way(const feed& f, otel::export_options o = {}) {
  temp_dir d;
  const written mem = streamed(f, o);
  otel::export_options spilled = o;
  spilled.spill_dir = d.path;
  const written file = streamed(f, spilled);
  CHECK(file.lines == mem.lines);
  CHECK(file.report == mem.report);
  CHECK(file.line_count == mem.line_count);
  CHECK(std::filesystem::is_empty(d.path));  // the spill file has no name
  // The report as a value (finish()), encoded whole, is the streamed bytes; so is finish() spilled.
  otel::exporter x({"p", "1", std::nullopt}, o);
  f(x);
  const auto whole = x.finish();
  CHECK(whole.lines == mem.lines);
  CHECK(assay::encode(whole.report).value() == mem.report);
  otel::exporter y({"p", "1", std::nullopt}, spilled);
  f(y);
  const auto whole_spilled = y.finish();
  CHECK(whole_spilled.lines == mem.lines);
  CHECK(assay::encode(whole_spilled.report).value() == mem.report);
  // The summary is the report but for its dropped attributes, which its totals count.
  auto summary = mem.summary;
  CHECK(summary.mapping_loss.dropped_attributes.empty());
  summary.mapping_loss.dropped_attributes = whole.report.mapping_loss.dropped_attributes;
  CHECK(assay::encode(summary).value() == mem.report);
  CHECK(mem.summary.spans_written.value() > 0);
}

feed of_bundle(const std::string& gz) {
  return [gz](otel::exporter& x) {
    struct visitor {
      otel::exporter* x;
      void on_manifest(const assay::evidence::bundle_manifest& m) {
        x->set_service({m.fields.producer.name, m.fields.producer.version, m.fields.producer.git});
      }
      std::optional<assay::error> on_event(const assay::evidence::verified_event& e) {
        if (auto r = x->add(e); !r)
          return r.error();
        return std::nullopt;
      }
    } v{&x};
    auto r = assay::evidence::verify_bundle_bytes(gz, {}, v);
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().format()));
  };
}

// Events of one run, renumbered, with every kind of thing the mapping learns late: the root
// (profile.started after other events), an MCP definition after a call of its tool, a foreign
// trace, members with no attribute form, sensitive arguments.
std::vector<json::value> late_learning_events() {
  std::vector<json::value> ev = {
      event(0, "assay.tool.call",
            R"j({"tool":"read_file","call_id":"c-1","arguments":{"path":"/home/a/x"},"x":null})j"),
      event(1, "assay.model.invoked", R"({"model":"gpt-4o","provider":"openai","operation":"chat"})"),
      event(2, "vendor.thing", R"({"a":1})"),
      event(3, "assay.profile.started", R"({"profile_name":"ci","profile_version":"2","total_runs_aggregated":1})"),
      event(
          4, "assay.tool.decision",
          R"j({"tool":"read_file","decision":"allow","reason_code":"ok","tool_definition_source":"mcp.tools/list"})j"),
      event(5, "assay.tool.call", R"j({"call_id":"c-2","arguments":{"q":[1,"a"]},"e":{}})j"),
      event(6, "assay.profile.finished", R"({"files_count":1})"),
  };
  ev[1].set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  ev[5].set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  ev[5].set("tracestate", "k=v");
  for (std::size_t i = 0; i < ev.size(); ++i)
    ev[i].set("time", "2026-01-02T03:04:0" + std::to_string(i) + ".25Z");
  return ev;
}

// `runs` runs of `per_run` events each, interleaved event by event, as a runtime would add them
// (each to `add`, until it returns false): each run's root, trace and MCP marks learned part-way.
void interleaved_events(std::size_t runs, std::size_t per_run, const std::function<bool(const std::string&)>& add) {
  {
    for (std::size_t i = 0; i < per_run; ++i) {
      for (std::size_t r = 0; r < runs; ++r) {
        const std::string run = "run-" + std::to_string(r);
        json::value e = json::parse(R"({"specversion":"1.0","source":"urn:t","assaycontenthash":"sha256:00"})").value();
        e.set("assayrunid", run);
        e.set("id", run + ":" + std::to_string(i));
        e.set("assayseq", static_cast<double>(i));
        e.set("time", "2026-01-02T03:" + std::to_string(10 + i % 50) + ":0" + std::to_string(r % 10) + "Z");
        const char* type = "assay.tool.call";
        std::string data = R"({"tool":"t)" + std::to_string(i % 5) + R"(","call_id":"c)" + std::to_string(i) +
                           R"(","arguments":{"path":"/home/u/f)" + std::to_string(i) + R"(.txt","n":null}})";
        if (i == per_run / 2) {
          type = "assay.profile.started";
          data = R"({"profile_name":"p","profile_version":"1"})";
        } else if (i % 97 == 3) {
          type = "assay.tool.decision";
          data = R"({"tool":"t)" + std::to_string(i % 5) +
                 R"(","decision":"allow","reason_code":"ok","tool_definition_source":"mcp.tools/list"})";
        } else if (i % 31 == 0) {
          type = "assay.model.invoked";
          data = R"({"model":"m","provider":"x","operation":"chat","big":")" + std::string(100000 * (i == 62), 'b') +
                 R"("})";
        } else if (i % 13 == 0) {
          type = "vendor.other";
        }
        e.set("type", type);
        e.set("data", json::parse(data).value());
        if (i % 17 == 5)
          e.set("traceparent", "00-" + std::string(31, 'a') + std::to_string(r % 10) + "-00f067aa0ba902b7-01");
        if (!add(json::to_canonical(e).value()))
          return;
      }
    }
  }
}

feed interleaved(std::size_t runs, std::size_t per_run) {
  return [=](otel::exporter& x) {
    interleaved_events(runs, per_run, [&](const std::string& e) {
      auto r = x.add(e);
      REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().format()));
      return true;
    });
  };
}

}  // namespace

TEST_CASE("the spill store: chains read back as appended, in a file and in memory") {
  temp_dir d;
  auto file = spill_store::open_in(d.path);
  REQUIRE(file.has_value());
  spill_store mem;
  CHECK(mem.in_memory());
  CHECK_FALSE(file->in_memory());
  std::vector<std::vector<std::string>> want(3);
  spill_store::chain fc[3], mc[3];
  for (std::size_t i = 0; i < 20000; ++i) {
    const std::size_t c = (i * 7) % 3 == 0 ? 0 : (i % 5 == 0 ? 1 : 2);
    std::string bytes = std::to_string(i) + std::string(i % 40, 'x');
    if (i == 777)
      bytes = std::string(300000, 'L');  // larger than a block
    if (i == 778)
      bytes.clear();
    want[c].push_back(bytes);
    REQUIRE(file->append(fc[c], bytes).has_value());
    REQUIRE(mem.append(mc[c], bytes).has_value());
  }
  CHECK(file->size() == mem.size());
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(fc[c].records == want[c].size());
    CHECK(records(*file, fc[c]) == want[c]);
    CHECK(records(mem, mc[c]) == want[c]);
  }
  // Appends after reads, and a chain read twice.
  REQUIRE(file->append(fc[1], "after").has_value());
  want[1].push_back("after");
  CHECK(records(*file, fc[1]) == want[1]);
  CHECK(records(*file, fc[1]) == want[1]);
  // Moved, the store keeps its records; an offset that is no record is an error, not a crash.
  spill_store moved = std::move(*file);
  CHECK(records(moved, fc[2]) == want[2]);
  std::string out;
  CHECK_FALSE(moved.read(moved.size() - 3, out).has_value());
}

TEST_CASE("spilled exports are byte-identical to in-memory ones: bundles") {
  const std::string one = assay_test::bundle(assay_test::lines_of(late_learning_events()));
  same_every_way(of_bundle(one));
  same_every_way(of_bundle(one), {.spans_per_line = 1});
  same_every_way(of_bundle(one), {.include_sensitive = true});
  std::vector<json::value> many;
  for (std::size_t i = 0; i < 3000; ++i)
    many.push_back(event(i, "assay.tool.call",
                         R"({"tool":"t","arguments":{"path":"/home/u/)" + std::to_string(i) + R"("},"x":null})"));
  same_every_way(of_bundle(assay_test::bundle(assay_test::lines_of(std::move(many)))), {.spans_per_line = 100});
}

TEST_CASE("spilled exports are byte-identical to in-memory ones: runs interleaved through add()") {
  same_every_way(interleaved(5, 2000), {.spans_per_line = 7});
  same_every_way(interleaved(1, 50));
}

TEST_CASE("spilled exports are byte-identical: every upstream ndjson stream" * doctest::test_suite("conformance")) {
  assay_test::for_each_upstream_bundle([](const std::string& gz, std::size_t) { same_every_way(of_bundle(gz)); });
}

TEST_CASE("a spill that cannot be written: an error naming its directory, every later call too") {
  temp_dir d;
  const std::string missing = d.path + "/no-such-dir";
  otel::exporter x({"p", "1", std::nullopt}, {.spill_dir = missing});
  const std::string ev =
      R"({"assaycontenthash":"sha256:00","assayrunid":"r","data":{"tool":"t"},"id":"r:0","time":"2026-01-01T00:00:00Z",)"
      R"("type":"assay.tool.call"})";
  auto r = x.add(ev);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == assay::errc::io_error);
  CHECK(r.error().message == "cannot write the spill file in " + missing + ": No such file or directory");
  CHECK_FALSE(x.add(ev).has_value());
  const auto f = x.finish_to([](std::string_view) { return true; }, [](std::string_view) { return true; });
  REQUIRE_FALSE(f.has_value());
  CHECK(f.error().message == r.error().message);  // no export that leaves the events out

  // A file larger than the process may write (RLIMIT_FSIZE: EFBIG), in a child.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{256 * 1024, 256 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    otel::exporter big({"p", "1", std::nullopt}, {.spill_dir = d.path});
    std::string message;
    interleaved_events(2, 3000, [&](const std::string& e) { return big.add(e).has_value(); });
    auto done = big.finish_to([](std::string_view) { return true; }, [](std::string_view) { return true; });
    if (!done)
      message = done.error().message;
    ::_exit(message == "cannot write the spill file in " + d.path + ": File too large" ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a sink that refuses: an I/O error, and the exporter empty afterwards") {
  const feed f = of_bundle(assay_test::bundle(assay_test::lines_of(late_learning_events())));
  temp_dir d;
  otel::exporter x({"p", "1", std::nullopt}, {.spill_dir = d.path});
  f(x);
  auto lines = x.finish_to([](std::string_view) { return false; }, [](std::string_view) { return true; });
  REQUIRE_FALSE(lines.has_value());
  CHECK(lines.error().message == "the TracesData lines could not be written");
  f(x);
  auto report = x.finish_to([](std::string_view) { return true; }, [](std::string_view) { return false; });
  REQUIRE_FALSE(report.has_value());
  CHECK(report.error().message == "the report could not be written");
  const auto empty = x.finish();
  CHECK(empty.lines.empty());
  CHECK(empty.report.events_read.value() == 0);
}
