// What the subcommands of ompisim share: the global options (--quiet, --max-input-size, --max-events) and the
// Context that carries them to a handler, the handler table, parse and exit-status rules (parse errors, errors
// thrown by a handler, interrupts), --set and empty-value checks. What one subcommand alone uses is in its cmd_*.cpp.
// Exit status: 0 success; 1 validation failure (a calibration point outside its tolerance); 2 bad input (anything
// decidable from the input, before simulating); 3 internal error; 130 / 143 interrupted.
#pragma once
#include "core/atomic_write.hpp"
#include "core/json_input.hpp"
#include "protocols/register.hpp"
#include "runner/scenario.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ompisim::cli {

extern const char* const kExitHelp;
// Where `run` and `sweep` write without --out, under the current directory: never results/, which in the repository
// holds the committed results.
inline const std::string kDefaultOutRoot = "ompisim-out/";

// The state a handler shares with main: the global options, once parsed, and the output folder a handler creates
// (removed again when the handler fails before writing into it).
struct Context {
  bool quiet = false;
  std::string max_input;        // --max-input-size as given
  std::string max_events_text;  // --max-events as given
  double max_events = 0;        // parsed: 0 when not given
  std::unique_ptr<OutputDir> out;
  // What an interrupted subcommand has kept, when it can say more than its kind does (a sweep: its finished points);
  // set by the subcommand once it knows, called after it has returned.
  std::function<std::string()> kept_note;
  // One handler per subcommand; the selected one runs after the global options are checked.
  std::vector<std::pair<const CLI::App*, std::function<int()>>> handlers;

  // Adds subcommand `name` to the app with its options (an Options object kept as long as the app, for the caller to
  // bind the subcommand's options to) and its handler, called with them when the subcommand is the one given.
  template <class Options>
  std::pair<CLI::App*, Options*> command(CLI::App& app, const std::string& name, const std::string& description,
                                         int (*handler)(const CLI::App&, const Options&, Context&)) {
    CLI::App* sub = app.add_subcommand(name, description);
    auto options = std::make_shared<Options>();
    handlers.emplace_back(sub, [sub, options, handler, this] { return handler(*sub, *options, *this); });
    return {sub, options.get()};
  }
};

// The app's version flag, footer and global options, bound to ctx.
void add_global_options(CLI::App& app, Context& ctx);
// Parses the command line: -1 when it parses; otherwise the exit status after printing --help / --version (0) or the
// parse error as one line (2).
int parse_command_line(CLI::App& app, int argc, char** argv);
// Checks the global options, then runs the selected subcommand's handler; its exit status, with errors and
// interrupts turned into the message on stderr and the status (kExitHelp).
int run_selected(CLI::App& app, Context& ctx);

// An output path (`option`'s value, or its default) inside a folder of the data that commands read as data is refused
// (InputError naming the folder and what reads it): scenarios/ (`list`, `validate` and `reproduce` read every .json
// file there as a scenario: a result written there would stop reproduce), models/ (machine files), validation/,
// collectives/, benchmarks/, and results/ unless `results_ok` (reproduce, which rewrites it).
void refuse_inside_data(const std::string& path, const std::string& option, bool results_ok = false);

// A file a command reads or writes, named by the option (or argument) that gave it.
struct NamedPath {
  std::string option, path;
};
// An output that would replace one of the command's inputs (the scenario, the grid, a machine file) or another of its
// outputs (the result, a trace, a plot) is refused (InputError naming the output's option) before anything runs:
// the input would be lost, or one output would silently overwrite the other. Paths are compared as the file system
// resolves them (symbolic links and ".." followed).
void refuse_overwriting(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);
// The output folder `dir` (created, checked writable: OutputDir), refused inside the scenarios folder.
std::unique_ptr<OutputDir> output_dir(const std::string& dir, const std::string& option = "--out");
// A scenario, a sweep grid or a result given to --machine-file: InputError saying what the file is and what takes it
// (the machine loader would say "key 'node_types': required key is missing").
void refuse_not_machine_file(const std::string& file);
// A warning on stderr when machine file `file` names its machine as an installed machine (`list machines`) other than
// that file itself: its results would carry the installed machine's name.
void warn_shadowed_machine(const std::string& file);
// A note on stderr when --machine-file puts a scenario written for one machine on a machine with other NIC kinds:
// its stack then means that machine's components ("native" over uGNI where the scenario had it over Portals).
void note_machine_swap(const std::string& scenario_machine, const std::string& stack, const std::string& machine_file);
// An option given with an empty value ("--out ''") is refused: it never means "as if the option were not given".
void refuse_empty_values(const CLI::App& sub, std::initializer_list<const char*> names);
// The check of a -j/--jobs option: a whole number from 1 to 256, refused with the value and the range otherwise.
CLI::Validator jobs_range();
// A component as `list components` and `describe FRAMEWORK` print it: name, the NIC kinds it drives, description.
std::string component_row(const ComponentInfo& c);
// Each collective of the registry (collectives/) with its algorithms, both in registration order: what `list
// collectives` and `describe coll` print.
std::vector<std::pair<std::string, std::vector<std::string>>> collectives_with_algorithms();
// An MCA parameter's name as the command line takes it: "mca.NAME" (a scenario's mca block, a grid's axis, the errors'
// key) is NAME; any other text is returned as it is.
std::string mca_name(const std::string& key);
// --set key=value, each checked.
Overrides parse_sets(const std::vector<std::string>& sets);
// Overrides as a user types them: `--set k=v` each, a value with a space quoted (`--set nic.bte_bandwidth="5 GB/s"`),
// so two overrides cannot read as one.
std::string set_words(const std::vector<std::string>& sets);
// The options of every subcommand that runs scenarios (run, compare --against, validate), declared here once:
// --set key=value (repeatable; parse_sets checks each) and, when `engine` is not null, --engine NAME. `which`: the
// scenarios they apply to ("the scenario", "every scenario"), in their help texts. Returns the --set option.
CLI::Option* add_scenario_overrides(CLI::App& sub, std::vector<std::string>& sets, std::string* engine,
                                    const std::string& which);

}  // namespace ompisim::cli
