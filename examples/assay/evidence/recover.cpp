// assay evidence recover JOURNAL --out B.tar.gz [--pack P]… — the bundle of a run that never
// finished, from the journal its recorder left (`assay evidence record --journal`, or a C++
// runtime's recorder_options::journal): every whole line checked as the verifier checks an event,
// a last line the crash cut short dropped and reported, a hole of zero bytes (pages lost in a power
// loss) reported with what follows it and the lines before it recovered, anything else refused
// with its line. The journal may be a pipe or a FIFO.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/journal.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace assay_cli {

namespace {

struct recover_args {
  std::string journal;
  std::string out;
  std::vector<std::string> packs;
  std::string limits;
};

int recover(const recover_args& a) {
  constexpr std::string_view command = "evidence recover";
  if (is_std_stream(a.journal) || is_std_stream(a.out)) {
    return usage_error(command,
                       "JOURNAL and --out name files (the journal may be a FIFO, e.g. <(cat J); the bundle is "
                       "written beside its target, then renamed)");
  }
  bundle_stamp given;
  if (auto code = read_bundle_stamp(command, a.limits, a.packs, given))
    return *code;
  assay::evidence::bundle_options opt;
  opt.packs_applied = std::move(given.packs_applied);
  opt.mappings = std::move(given.mappings);
  opt.limits = given.limits;
  auto r = assay::evidence::recover_journal(a.journal, a.out, opt);
  if (!r) {
    const assay::error& e = r.error();
    if (assay::evidence::is_verification_failure(e)) {  // a line the verifier would refuse
      print_error(command, std::string(assay::name(e.code)) + ": " + e.message);
      return exit_failed;
    }
    return fail(command, e);
  }
  std::string said = "recovered " + std::to_string(r->events) + " event(s) from " + a.journal + " into " + a.out +
                     " (bundle_id " + r->bundle_id + ")";
  std::printf("%s\n", printable(said).c_str());
  if (r->hole) {
    print_error(command,
                "a hole of " + std::to_string(r->hole->zero_bytes) + " zero bytes at byte " +
                    std::to_string(r->hole->at) + " (pages that never reached the disk)" +
                    (r->torn_bytes != 0 ? ", after " + std::to_string(r->torn_bytes) + " bytes of a line it cut short"
                                        : std::string()) +
                    ": the " + std::to_string(r->hole->after_bytes) + " bytes after it are not recovered");
  } else if (r->torn_bytes != 0) {
    print_error(command, "the last line was cut short (" + std::to_string(r->torn_bytes) +
                             " bytes without a newline) and was dropped: the run stopped while writing it");
  }
  return exit_ok;
}

}  // namespace

void add_evidence_recover(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand(
      "recover", "Write the bundle of a run that never finished, from the journal its recorder left");
  auto a = std::make_shared<recover_args>();
  sub->add_option("JOURNAL", a->journal, "The journal (events.ndjson as it was being written)")->required();
  sub->add_option("--out", a->out, "The bundle to write (.tar.gz)")->required();
  sub->add_option("--pack", a->packs,
                  "Record in the manifest's x-assay the packs applied and their rules' article_refs; comma lists "
                  "allowed");
  add_limits(sub, a->limits);
  d.on(sub, [a] { return recover(*a); });
}

}  // namespace assay_cli
