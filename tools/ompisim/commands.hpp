// The subcommands of ompisim, one file each (cmd_<name>.cpp). Each add_<name> adds its subcommand, its options and its
// handler to the app; main.cpp calls them in the order `ompisim --help` lists them. A new subcommand is a new
// cmd_<name>.cpp with its add_<name>, one line here and one line in main.cpp.
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

}  // namespace ompisim::cli
