// Every registry of the project, filled once by the explicit register_* functions of each folder (no static constructors):
// NIC kinds (models/), simulation engines (engine/), MPI stacks (runner/stacks.cpp). Collective algorithms have their own (collectives/registry).
#pragma once
#include "core/registry.hpp"
#include "core/sim.hpp"
#include "platform/machine.hpp"
#include "platform/nic.hpp"
#include "protocols/register.hpp"

#include <memory>
#include <string>

namespace ompisim {

const NicKindRegistry& nic_kinds();

// Simulation engines a scenario may choose with "engine" (engine/): the name, a description, a factory.
struct EngineInfo {
  std::string name, description;
  std::unique_ptr<Simulator> (*make)() = nullptr;
  bool shares_bandwidth = false;  // flows share what they cross: another job's traffic (neighbour_job) can congest
  // An engine that takes a solve window ("engine_window": approximate, off by default) sets it and reports what it
  // did for the result's provenance; null for the exact engines.
  void (*set_window)(Simulator&, double seconds) = nullptr;
  std::vector<std::pair<std::string, double>> (*window_figures)(const Simulator&) = nullptr;
  // An engine whose flows end at dates it computes (the sharing engines) takes a completion grid ("engine_grid",
  // kDefaultEngineGrid unless the scenario says otherwise): a flow's callback is delivered at its end date rounded up
  // to the grid, callbacks of one grid date in start order (engine/engine_base.hpp); null for the others.
  void (*set_grid)(Simulator&, double seconds) = nullptr;
  // An engine that re-solves every flow of the connected set a start or end touches (SimGrid's selective update: an
  // alltoall is one set), so that its CPU per message grows with the flows in flight; a long all-pairs run on it gets
  // a notice naming the fluid engine (runner/estimate.hpp).
  bool resolves_whole_component = false;
};
// The completion grid of a run unless the scenario sets "engine_grid": 1 ns, the default resolution of ns-3's
// simulation time (ns3::Time, nanoseconds), far below any latency or overhead of the machine files (the smallest is
// 0.01 us), and wide enough that the lmm and fluid engines, whose end dates differ in the last bits, deliver the same
// callbacks at the same dates (engine/README.md, "The completion grid").
inline constexpr double kDefaultEngineGrid = 1e-9;
using EngineRegistry = NamedRegistry<EngineInfo, &EngineInfo::make>;
const EngineRegistry& engines();
// A machine by name (or explicit file) with the project's NIC kinds.
std::unique_ptr<Machine> load_machine(const std::string& name_or_path);
// The machine's software (MCA) defaults: the code defaults of each component's parameters, then the machine file's
// "mca_defaults" (each key a parameter of a component that runs on the machine's NIC kind).
// With `preset_mca` (a stack preset's version defaults, StackInfo::mca): those first, then the machine's.
McaParams machine_mca(const Machine& m, const Json* preset_mca = nullptr);

}  // namespace ompisim
