// `ompisim calibrate`: the free parameters of a machine fitted (least squares) on a paper's calibration points.
#include "tools/ompisim/commands.hpp"
#include "validation/validate.hpp"

namespace ompisim::cli {
namespace {

struct CalibrateOptions {
  std::string paper, machine = "cielo";
  bool write = false;
  std::vector<std::string> free;
};

int calibrate_command(const CLI::App&, const CalibrateOptions& opt, Context&) {
  return validation::calibrate(opt.paper.empty() ? "gemini-xe-xk" : opt.paper, opt.machine, opt.write, opt.free);
}

}  // namespace

void add_calibrate(CLI::App& app, Context& ctx) {
  auto [cal, opt] = ctx.command(app, "calibrate", "fit the free parameters (least squares) on the calibration points",
                                calibrate_command);
  cal->add_option("--paper", opt->paper, "paper whose calibration points are used");
  cal->add_option("--machine", opt->machine, "machine file whose fitted parameters are updated");
  cal->add_flag("--write", opt->write, "write the fitted values into the machine file");
  cal->add_option("--free", opt->free,
                  "fit only the parameters whose name contains this (repeatable; the others keep their file values)");
}

}  // namespace ompisim::cli
