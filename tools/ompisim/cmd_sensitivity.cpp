// `ompisim sensitivity SCENARIO`: normalised derivatives of a scenario's points with respect to each machine parameter
// and each MCA parameter named by --mca.
#include "core/errors.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/sensitivity.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>

namespace ompisim::cli {
namespace {

struct SensitivityOptions {
  std::string file;
  bool json = false;
  double step = 0.01;
  std::vector<std::string> mca;
};

int sensitivity_command(const CLI::App&, const SensitivityOptions& opt, Context&) {
  // The varied values are written with 6 significant digits (core/units.cpp format_quantity), each up to 5e-6 relative
  // off its exact exp(+-step) multiple, so a derivative is off by up to 5e-6 / step: 0.005 at the smallest step taken
  // (at 1e-6 the derivatives came out halved, below 1e-7 the texts did not move and every derivative read 0).
  constexpr double kMinStep = 1e-3;
  if (!(opt.step >= kMinStep && opt.step < 1))
    throw InputError("--step", fmt::format("{}", opt.step),
                     fmt::format("must be in [{}, 1): the varied values are written with 6 significant digits, so a "
                                 "smaller step leaves each derivative off by more than 0.005 (below 1e-7 every one "
                                 "reads 0)", kMinStep));
  Json r = validation::sensitivity(opt.file, opt.step, opt.mca);
  std::cout << (opt.json ? r.dump(2) + "\n" : validation::render_sensitivity(r));
  if (opt.json) return 0;
  // An MCA parameter is mostly a limit (a size where the protocol changes): its derivative is zero unless a point's size
  // lies within the step of it, which says nothing about how much the limit matters. Said under the table, with the
  // command that shows it.
  for (auto& p : r["parameters"]) {
    const std::string name = p["name"].get<std::string>();
    if (p["max_abs"].get<double>() != 0 || std::find(opt.mca.begin(), opt.mca.end(), name) == opt.mca.end()) continue;
    std::cout << fmt::format("# {}: 0 at every point because moving it by +-{:g} % from {} crosses no point's size; a limit "
                             "changes a result only at the sizes it crosses, so 0 does not say it does not matter: a "
                             "sweep over its values shows what it does (ompisim sweep, e.g. "
                             "scenarios/examples/grid_ugni_smsg_bte.json)\n",
                             name, opt.step * 100, p.value("value", Json("?")).is_string() ? p["value"].get<std::string>() : p["value"].dump());
  }
  return 0;
}

}  // namespace

void add_sensitivity(CLI::App& app, Context& ctx) {
  auto [sens, opt] = ctx.command(app, "sensitivity",
                                 "normalised derivatives d ln(result) / d ln(parameter) of a scenario's points with "
                                 "respect to each machine parameter and each MCA parameter named by --mca, largest first",
                                 sensitivity_command);
  sens->add_option("scenario", opt->file, "scenario file")->required();
  sens->add_option("--step", opt->step, "log-space step of the central differences, at least 0.001 (default 0.01)");
  sens->add_flag("--json", opt->json, "print JSON");
  sens->add_option("--mca", opt->mca, "also vary this MCA parameter (repeatable; ompisim describe COMPONENT); one at "
                                      "0 = auto is varied around the value the run used (its effective value)");
}

}  // namespace ompisim::cli
