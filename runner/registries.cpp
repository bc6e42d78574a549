#include "runner/registries.hpp"

#include "core/errors.hpp"
#include "engine/des_engine.hpp"
#include "engine/fluid_engine.hpp"
#include "engine/lmm_engine.hpp"
#include "engine/simgrid_engine.hpp"
#include "models/register.hpp"
#include "runner/stacks.hpp"

#include <optional>

namespace ompisim {

const NicKindRegistry& nic_kinds() {
  static const NicKindRegistry reg = [] {
    NicKindRegistry r;
    models::register_nic_kinds(r);
    return r;
  }();
  return reg;
}

namespace {
void set_engine_grid(Simulator& s, double seconds) { static_cast<engine::EngineBase&>(s).set_completion_grid(seconds); }
}  // namespace

const EngineRegistry& engines() {
  static const EngineRegistry reg = [] {
    EngineRegistry r;
    r.add({"simgrid", "SimGrid 3.32: bulk flows share the resources they cross (CM02 max-min sharing); the reference",
           []() -> std::unique_ptr<Simulator> { return std::make_unique<engine::SimGridEngine>(); },
           true, nullptr, nullptr, set_engine_grid, true});
    r.add({"des", "plain C++ discrete events: a flow takes bytes / its smallest capacity, no sharing (unit tests, cross-checks)",
           []() -> std::unique_ptr<Simulator> { return std::make_unique<engine::DesEngine>(); },
           false});
    r.add({"fluid", "our own max-min flow engine: the allocation SimGrid's CM02 gives here, up to "
                    "rounding (a local solve around the flows a start or end touches, a class fast path per "
                    "bottleneck), the same values as the SimGrid and lmm engines with the completion grid, several "
                    "per process",
           []() -> std::unique_ptr<Simulator> { return std::make_unique<engine::FluidEngine>(); },
           true,
           [](Simulator& s, double w) { static_cast<engine::FluidEngine&>(s).set_window(w); },
           [](const Simulator& s) { return static_cast<const engine::FluidEngine&>(s).window_figures(); },
           set_engine_grid});
    r.add({"lmm", "SimGrid 3.32's CM02 max-min arithmetic repeated step for step without SimGrid: the SimGrid engine's "
                  "values bit for bit, no walk over the comms in flight at each completion, but each flow start or "
                  "end re-solves the whole connected set of flows",
           []() -> std::unique_ptr<Simulator> { return std::make_unique<engine::LmmEngine>(); },
           true, nullptr, nullptr, set_engine_grid, true});
    return r;
  }();
  return reg;
}

std::unique_ptr<Machine> load_machine(const std::string& name_or_path) { return load_machine(name_or_path, nic_kinds()); }

McaParams machine_mca(const Machine& m, const Json* preset_mca) {
  McaParams mca = component_registry().defaults();
  auto list = param_list(mca);
  if (preset_mca && !preset_mca->empty()) {
    ObjectReader p(*preset_mca, "stack preset", "mca");
    load_sourced(p, list, false);
  }
  ObjectReader r(m.mca_defaults, m.file, "mca_defaults");
  load_sourced(r, list, false);
  for (auto it = m.mca_defaults.begin(); it != m.mca_defaults.end(); ++it) {
    // A default no component on any of the machine's NIC kinds reads would be silently ignored.
    std::optional<InputError> refused;
    bool read = false;
    for (const auto& kind : m.nic_kinds()) {
      try {
        check_mca_family(it.key(), kind, m.file);
        read = true;
      } catch (const InputError& e) {
        if (!refused) refused = e;
      }
    }
    if (!read && refused) throw InputError(m.file, "mca_defaults." + it.key(), refused->reason());
  }
  return mca;
}

}  // namespace ompisim
