// `ompisim reproduce`: every scenario run into the results folder (JSON, CSV, SVG) and validation.md written.
#include "core/progress.hpp"
#include "platform/machine.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

namespace ompisim::cli {
namespace {

int reproduce_command(const CLI::App& sub, const std::string& out, Context&) {
  refuse_empty_values(sub, {"--out"});
  const int rc = validation::reproduce(out);
  progress::clear();
  return rc;
}

}  // namespace

void add_reproduce(CLI::App& app, Context& ctx) {
  auto [rep, out] = ctx.command(app, "reproduce",
                                "run every scenario into results/ (JSON, CSV, SVG) and write validation.md",
                                reproduce_command);
  *out = data_dir() + "/results";
  rep->add_option("--out", *out, "results directory");
}

}  // namespace ompisim::cli
