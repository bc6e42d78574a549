// `ompisim reproduce`: every scenario run into the results folder (JSON, CSV, SVG) and validation.md written.
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "platform/machine.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

#include <filesystem>

namespace ompisim::cli {
namespace {

std::string g_from;  // --from: redraw from a results folder instead of running

int reproduce_command(const CLI::App& sub, const std::string& out, Context&) {
  refuse_empty_values(sub, {"--out", "--from"});
  if (!g_from.empty() && !std::filesystem::is_regular_file(std::filesystem::path(g_from) / "validation.json"))
    throw InputError(g_from, "validation.json", "--from needs a results folder written by reproduce (no validation.json)");
  const int rc = validation::reproduce(out, g_from);
  progress::clear();
  return rc;
}

}  // namespace

void add_reproduce(CLI::App& app, Context& ctx) {
  auto [rep, out] = ctx.command(app, "reproduce",
                                "run every scenario into results/ (JSON, CSV, SVG) and write validation.md",
                                reproduce_command);
  *out = data_dir() + "/results";
  rep->add_option("--out", *out, "results folder (default: results/ of the data folder, the committed results, "
                                 "rewritten)");
  rep->add_option("--from", g_from,
                  "run nothing: read the results and validation.json of this results folder and redraw the plots "
                  "into --out");
}

}  // namespace ompisim::cli
