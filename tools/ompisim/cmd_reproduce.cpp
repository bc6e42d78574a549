// `ompisim reproduce`: every scenario run into the results folder (JSON, CSV, SVG) and validation.md written.
#include "core/progress.hpp"
#include "platform/machine.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

namespace ompisim::cli {

void add_reproduce(CLI::App& app, Context& ctx) {
  auto* rep = app.add_subcommand("reproduce", "run every scenario into results/ (JSON, CSV, SVG) and write validation.md");
  auto out = std::make_shared<std::string>(data_dir() + "/results");
  rep->add_option("--out", *out, "results directory");
  ctx.on(rep, [rep, out] {
    refuse_empty_values(*rep, {"--out"});
    const int rc = validation::reproduce(*out);
    progress::clear();
    return rc;
  });
}

}  // namespace ompisim::cli
