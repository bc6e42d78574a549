// Every registry of the project, filled once by the explicit register_* functions of each folder (STYLE.md §3):
// NIC kinds (models/), MPI stacks (runner/stacks.cpp). Collective algorithms have their own (collectives/registry).
#pragma once
#include "platform/machine.hpp"
#include "platform/nic.hpp"
#include "protocols/register.hpp"

#include <memory>
#include <string>

namespace ompisim {

const NicKindRegistry& nic_kinds();
// A machine by name (or explicit file) with the project's NIC kinds.
std::unique_ptr<Machine> load_machine(const std::string& name_or_path);
// The machine's software (MCA) defaults: the code defaults of each component's parameters, then the machine file's
// "mca_defaults" (each key a parameter of a component that runs on the machine's NIC kind).
McaParams machine_mca(const Machine& m);

}  // namespace ompisim
