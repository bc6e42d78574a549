// `ompisim reproduce`: every scenario run into the results folder (JSON, CSV, SVG) and validation.md written; with
// --paper, one paper's scenarios, figures and validation rows (validation-PAPER.md).
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "platform/machine.hpp"
#include "platform/data_path.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace ompisim::cli {
namespace {

std::string g_from;   // --from: redraw from a results folder instead of running
std::string g_paper;  // --paper: one paper's scenarios, figures and validation rows
int g_jobs = 1;       // --jobs: scenarios run at once

int reproduce_command(const CLI::App& sub, const std::string& out, Context&) {
  refuse_empty_values(sub, {"--out", "--from", "--paper"});
  refuse_inside_data(out, "--out", true);
  // --from results/ names the committed results from any folder, as compare --against results/ does (data_path)
  const std::string from = g_from.empty() ? g_from : data_path(g_from);
  if (std::error_code ec; !from.empty() && !std::filesystem::exists(from, ec))
    throw InputError(g_from, "", "--from: no such folder (it names a results folder written by reproduce, such as "
                                 "results/)");
  if (!from.empty() && !std::filesystem::is_regular_file(std::filesystem::path(from) / "validation.json"))
    throw InputError(g_from, "validation.json", "--from needs a results folder written by reproduce (no validation.json)");
  const int rc = validation::reproduce(out, from, g_paper, g_jobs);
  progress::clear();
  // Where it went, as run and sweep say: the default is a checkout's results/ (the tool's data folder's, which
  // OMPISIM_DATA may name) or ompisim-out/reproduce/.
  if (progress::quiet()) return rc;  // --quiet: nothing on stderr but errors
  std::error_code ec;
  const std::filesystem::path where = std::filesystem::weakly_canonical(out, ec);
  std::cerr << fmt::format("ompisim reproduce: wrote {}/ ({})\n", ec ? out : where.string(),
                           g_paper.empty() ? "validation.md" : "validation-" + g_paper + ".md");
  return rc;
}

}  // namespace

void add_reproduce(CLI::App& app, Context& ctx) {
  auto [rep, out] = ctx.command(app, "reproduce",
                                "run every scenario (--paper: one paper's) into --out (JSON, CSV, SVG) and write "
                                "validation.md there (--paper: validation-PAPER.md); default the source checkout's "
                                "results/, for an installed tool ompisim-out/reproduce/. Prints the per-paper table, "
                                "the counts, the full table's path and the figures written; a line per scenario on "
                                "stderr unless --quiet (before or after the subcommand)",
                                reproduce_command);
  // From a source checkout (the build tree's data is a link to it) the committed results are rewritten; an installed
  // tool's results/ is the copy `compare --against results/` reads, shared by its users, and is never written.
  const bool checkout = std::filesystem::exists(std::filesystem::path(data_dir()) / "CMakeLists.txt");
  *out = checkout ? data_dir() + "/results" : std::string("ompisim-out/reproduce");
  rep->add_option("--out", *out, "results folder (default: results/ of the source checkout the tool was built in, the "
                                 "committed results, rewritten; for an installed tool ompisim-out/reproduce/ under the "
                                 "current directory, never its installed results/)");
  rep->add_option("--from", g_from,
                  "run nothing: read the results and validation.json of this results folder and redraw the plots "
                  "into --out");
  rep->add_option("--paper", g_paper,
                  "only this paper's scenarios (ompisim list papers; ompisim describe PAPER lists them by figure): its "
                  "results and its figures, drawn as the full run draws them, and the validation rows whose scenarios "
                  "all ran, written as validation-PAPER.md (its header says it is partial) and validation-PAPER.json "
                  "(a checkout's .gitignore covers both in results/); "
                  "the exit status is that of these rows. validation.md and validation.json, the tables of every "
                  "paper, are left as they are, and no stale plot file is removed (the full run does both). Not with "
                  "--from");
  rep->add_option("-j,--jobs", g_jobs,
                  "scenarios run at once on this machine (each in its own process; the same results in any number), "
                  "then the validation table's interval samples; default 1")
      ->check(jobs_range());
}

}  // namespace ompisim::cli
