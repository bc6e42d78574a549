// `ompisim sensitivity SCENARIO`: normalised derivatives of a scenario's points with respect to each machine parameter
// and each MCA parameter named by --mca.
#include "core/errors.hpp"
#include "protocols/register.hpp"
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
  std::string machine_file;
  std::vector<std::string> sets;
};

int sensitivity_command(const CLI::App& sub, const SensitivityOptions& opt, Context&) {
  refuse_empty_values(sub, {"--machine-file"});
  if (!opt.machine_file.empty()) refuse_not_machine_file(opt.machine_file);
  // The varied values are written to the last bit (sizes and counts whole, and a step their rounding swallows is said
  // to be), so the text is no limit. The results are: S divides the difference of two simulated results by the log step,
  // and each result carries the rounding of the doubles it is computed in (about 1e-15 of it). Measured on cielo
  // osu_latency (1 B, 4 KiB, 1 MiB), against the derivatives at 1e-4: off by 2e-9 at a step of 1e-6, 2e-6 at 1e-9,
  // 2e-3 at 1e-12. The floor keeps that share near 1e-9, with room for runs whose results carry a thousand times more.
  constexpr double kMinStep = 1e-6;
  if (!(opt.step >= kMinStep && opt.step < 1))
    throw InputError("--step", fmt::format("{}", opt.step),
                     fmt::format("must be in [{:g}, 1): S divides the difference of two simulated results by the step, "
                                 "and the results carry floating-point rounding (about 1e-15 of their value), so a "
                                 "smaller step measures the rounding (S off by 2e-3 at 1e-12 on osu_latency)", kMinStep));
  std::vector<std::string> mca = opt.mca;
  for (auto& k : mca) {
    // a name, not a setting: `--mca btl_ugni_eager_limit=4096` names the parameter to vary around the run's value
    if (auto eq = k.find('='); eq != std::string::npos && eq > 0 && mca_owner(mca_name(k.substr(0, eq))))
      throw InputError("--mca", k,
                       fmt::format("takes a parameter's name, which sensitivity varies around the value the run uses: "
                                   "--mca {} (to vary it around another value: --set {} --mca {})",
                                   k.substr(0, eq), k, k.substr(0, eq)));
    k = mca_name(k);
  }
  Json r = validation::sensitivity(opt.file, opt.step, mca, opt.machine_file, parse_sets(opt.sets));
  std::cout << (opt.json ? r.dump(2) + "\n" : validation::render_sensitivity(r));
  if (opt.json) return 0;
  // An MCA parameter is mostly a limit (a size where the protocol changes): its derivative is zero unless a message
  // changes protocol between the two values it was moved to, and then it is that jump over the step, not a slope. Said
  // under the table with the values it was moved to (a message's size may count its headers, or take another path,
  // so whether a point's size lies between them is not what decides), and the command that shows what it does.
  for (auto& p : r["parameters"]) {
    const std::string name = p["name"].get<std::string>();
    if (std::find(mca.begin(), mca.end(), name) == mca.end()) continue;
    auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    const Json applied = p.value("applied", Json::array());
    const std::string moved = applied.size() == 2 ? fmt::format("to {} and {}", text(applied[0]), text(applied[1]))
                                                  : fmt::format("by +-{:g} %", opt.step * 100);
    const std::string value = text(p.value("value", Json("?")));
    const double s_max = p["max_abs"].get<double>();
    if (s_max == 0)
      std::cout << fmt::format("# {}: 0 at every point: moved from {} {}, it changed no point's value. A limit changes a "
                               "result only where a message changes protocol between the two values, so 0 does not say "
                               "it does not matter: a sweep over its values shows what it does (ompisim sweep, e.g. "
                               "scenarios/examples/grid_ugni_smsg_bte.json)\n",
                               name, value, moved);
    else if (applied.size() == 2 && text(applied[0]).ends_with(" B"))
      std::cout << fmt::format("# {}: a size limit: its |S| {:.3g} is the jump of the points whose protocol changes when "
                               "it moves from {} {}, divided by the step, not a slope; a sweep over its values shows "
                               "the jump itself\n",
                               name, s_max, value, moved);
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
  sens->add_option("--step", opt->step, "log-space step of the central differences, at least 1e-6 (default 0.01); a size or count moves by the whole "
                   "units nearest to it, and S is taken over the step it moved by");
  sens->add_flag("--json", opt->json, "print JSON");
  sens->add_option("--machine-file", opt->machine_file,
                   "machine file to use instead of looking up the scenario's machine name in models/*/machines/");
  sens->add_option("--mca", opt->mca, "also vary this MCA parameter (repeatable; ompisim describe COMPONENT); one at "
                                      "0 = auto is varied around the value the run used (its effective value)")
      ->allow_extra_args(false);  // one name each: `--mca NAME scenario.json` leaves the file to the positional
  add_scenario_overrides(*sens, opt->sets, nullptr, "every run of the scenario (the derivatives are taken around "
                                                     "that what-if)");
}

}  // namespace ompisim::cli
