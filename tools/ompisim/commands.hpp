// The subcommands of ompisim, one file each (cmd_<name>.cpp). Each add_<name> adds its subcommand, its options and its
// handler to the app; main.cpp calls those of kCommands, in the order `ompisim --help` lists them. A new subcommand is a
// new cmd_<name>.cpp with its add_<name>, its declaration here and its entry in kCommands.
#pragma once
#include "tools/ompisim/common.hpp"

namespace ompisim::cli {

void add_run(CLI::App& app, Context& ctx);
void add_sweep(CLI::App& app, Context& ctx);
void add_validate(CLI::App& app, Context& ctx);
void add_calibrate(CLI::App& app, Context& ctx);
void add_reproduce(CLI::App& app, Context& ctx);
void add_sensitivity(CLI::App& app, Context& ctx);
void add_compare(CLI::App& app, Context& ctx);
void add_schema(CLI::App& app, Context& ctx);
void add_list(CLI::App& app, Context& ctx);
void add_describe(CLI::App& app, Context& ctx);
void add_machine(CLI::App& app, Context& ctx);

using AddCommand = void (*)(CLI::App&, Context&);
// In the order `ompisim --help` lists them.
inline constexpr AddCommand kCommands[] = {add_run,       add_sweep,       add_validate, add_calibrate,
                                           add_reproduce, add_sensitivity, add_compare,  add_schema,
                                           add_list,      add_describe,    add_machine};

}  // namespace ompisim::cli
