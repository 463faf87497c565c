// libFuzzer target: recovering a journal (evidence/journal.hpp) — the file a recorder leaves when
// its run never finished, as a crash, a full disk or a hand may leave it.
//
// The input is the journal's bytes. recover_journal never crashes or hangs, and:
//   - when it refuses, it writes no bundle and says why (a message);
//   - when it recovers, the bundle verifies, with as many events as it says; its events.ndjson
//     is the journal's whole lines before its first zero byte, byte for byte (nothing reordered,
//     nothing rewritten), and what follows up to the first zero byte is the torn line it counted;
//     zero bytes with more after them are the hole it reports (where, how many, what follows);
//     and write_bundle() of those lines — the writer that sorts and checks — writes the same bytes.
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/evidence/journal.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace ev = assay::evidence;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_journal", what, detail);
}

// A directory of this process's own (in memory when /dev/shm is there), made once and removed
// with what it holds when the process exits.
struct scratch {
  std::string dir;
  scratch() {
    const std::string base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    dir = base + "/assay-fuzz-journal-" + std::to_string(::getpid());
    ::mkdir(dir.c_str(), 0700);
  }
  ~scratch() {
    for (const char* f : {"/j", "/b.tar.gz"})
      ::unlink((dir + f).c_str());
    ::rmdir(dir.c_str());
  }
};

const std::string& work_dir() {
  static const scratch s;
  return s.dir;
}

std::string read_file(const std::string& path) {
  std::string out;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20))
    return 0;
  const std::string_view journal(reinterpret_cast<const char*>(data), size);
  const std::string in = work_dir() + "/j", out = work_dir() + "/b.tar.gz";
  if (std::FILE* f = std::fopen(in.c_str(), "wb")) {
    std::fwrite(journal.data(), 1, journal.size(), f);
    std::fclose(f);
  } else {
    fail("cannot write the journal file", in);
  }
  ::unlink(out.c_str());
  ev::bundle_options opt;
  opt.threads = 1;
  const auto r = ev::recover_journal(in, out, opt);
  if (!r) {
    if (::access(out.c_str(), F_OK) == 0)
      fail("a refused journal left a bundle");
    if (r.error().message.empty())
      fail("a refusal without a message");
    return 0;
  }
  // Recovery reads up to the first zero byte: zeros to the end are the space a recorder reserves
  // ahead of its lines; zeros with more after them are a hole (pages lost before a power loss),
  // and nothing after it is recovered.
  const std::size_t first_zero = std::min(journal.find('\0'), journal.size());
  const std::string_view read = journal.substr(0, first_zero);
  const std::size_t last_newline = read.rfind('\n');
  if (last_newline == std::string_view::npos)
    fail("recovered a journal without a whole line");
  const std::string_view whole = read.substr(0, last_newline + 1);
  if (r->torn_bytes != read.size() - whole.size())
    fail("torn_bytes is not what follows the last newline before the zeros", std::to_string(r->torn_bytes));
  const std::size_t after_zeros = std::min(journal.find_first_not_of('\0', first_zero), journal.size());
  if (after_zeros == journal.size()) {
    if (r->hole)
      fail("zero bytes to the end reported as a hole");
  } else if (!r->hole || r->hole->at != first_zero || r->hole->zero_bytes != after_zeros - first_zero ||
             r->hole->after_bytes != journal.size() - after_zeros) {
    fail("the hole is not where the zero bytes are");
  }
  const std::string bundle = read_file(out);
  const auto v = ev::verify_bundle_bytes(bundle);
  if (!v)
    fail("a recovered bundle does not verify", v.error().message);
  if (v->event_count != r->events || v->bundle_id != r->bundle_id)
    fail("the summary disagrees with the bundle");
  // The lines as they were: the bundle's events.ndjson is the journal's whole lines.
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < whole.size();) {
    const std::size_t nl = whole.find('\n', at);
    lines.push_back(whole.substr(at, nl - at));
    at = nl + 1;
  }
  if (lines.size() != r->events)
    fail("not every whole line became an event");
  const auto files = ev::build_bundle_files(lines, opt);
  if (!files)
    fail("write_bundle refuses lines recovery took", files.error().front().message);
  if (files->events != whole)
    fail("events.ndjson is not the journal's whole lines");
  const auto written = ev::pack_bundle(*files, opt);
  if (!written || *written != bundle)
    fail("write_bundle writes other bytes than recovery");
  return 0;
}
