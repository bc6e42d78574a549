// ompisim: the command-line tool. One file per subcommand (cmd_<name>.cpp, declared in commands.hpp); what they share
// (global options, exit status, --set, plots) is in common.cpp. Exit status: common.hpp.
#include "core/signals.hpp"
#include "tools/ompisim/commands.hpp"

using namespace ompisim;

// jemalloc's start-up options (read only when the tool is linked with jemalloc, see CMakeLists.txt): transparent huge
// pages for the heap. A whole-machine run touches about 1 GB of small objects; 2 MiB pages cut the page faults and
// TLB misses (Titan p2p barrier at 65,536 ranks: 4.3-4.8 s -> 3.8-4.1 s, peak RSS +5 %). MALLOC_CONF overrides it.
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:always";
}

int main(int argc, char** argv) {
  install_interrupt_handlers();
  CLI::App app{"ompisim: a discrete-event simulator of the Open MPI communication stack"};
  cli::Context ctx;
  cli::add_global_options(app, ctx);
  for (cli::AddCommand add : cli::kCommands) add(app, ctx);
  if (const int status = cli::parse_command_line(app, argc, argv); status >= 0) return status;
  return cli::run_selected(app, ctx);
}
