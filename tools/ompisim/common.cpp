#include "tools/ompisim/common.hpp"

#include "collectives/registry.hpp"
#include "core/error_text.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/progress.hpp"
#include "core/signals.hpp"
#include "core/units.hpp"
#include "engine/version.hpp"
#include "platform/data_path.hpp"
#include "platform/machine.hpp"
#include "protocols/register.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "tools/ompisim/mpi_launch.hpp"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <array>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <new>
#include <unistd.h>

#ifndef OMPISIM_VERSION
#define OMPISIM_VERSION "0.0.0"
#endif

namespace ompisim::cli {

const char* const kExitHelp =
    "Exit status: 0 success; 1 outside tolerance (validate, reproduce: a calibration point; compare: a value beyond "
    "--tolerance, or a file or point on one side only); 2 bad input (file, key and reason on "
    "stderr, decided before simulating); 3 internal error (a bug); 130 / 143 interrupted by SIGINT / SIGTERM (results "
    "finished before the signal are kept whole).\n";

void add_global_options(CLI::App& app, Context& ctx) {
  // the tool's own --help (and so the man page) also names the environment variable the tool reads
  app.footer(std::string(kExitHelp) +
             "\nEnvironment: OMPISIM_DATA, the data folder (models/, scenarios/, results/, ...) read instead of "
             "<prefix>/share/ompisim beside the binary's bin/.\n");
  app.set_version_flag("--version", [] {
    const std::string mpi = mpi_launch::library();
    return fmt::format("ompisim {}\ngit describe: {} (the source tree this binary was built from)\ndata folder: {}\n"
                       "SimGrid {}\nMPI: {}",
                       OMPISIM_VERSION, git_describe(),
                       data_dir() + (std::filesystem::is_directory(data_dir()) ? "" : " (no such folder)"),
                       engine::simgrid_version(),
                       mpi.empty() ? "not built in (mpirun sweeps read the launcher's environment)" : mpi);
  });
  app.require_subcommand(1);
  app.fallthrough();
  app.add_flag("--quiet", ctx.quiet,
               "no progress on stderr: neither the progress line (shown only when stderr is a terminal) nor "
               "reproduce's line per scenario");
  ctx.max_input = fmt::format("{}", limits::kDefaultMaxInputBytes);
  app.add_option("--max-input-size", ctx.max_input,
                 fmt::format("largest input file read, in bytes or with a unit (\"16 MiB\"); default {} (4 MiB)",
                             limits::kDefaultMaxInputBytes));
  app.add_option("--max-events", ctx.max_events_text,
                 "refuse (exit 2, nothing written, before starting) a run or sweep point whose estimated message count "
                 "(the estimate `describe` prints: ranks x calls x messages per call; not the result's stats.events, "
                 "the engine's events, several per message) is above N; default: no limit");
}

// The option meant by a misspelled one: at most 2 edits (a swap of two letters is 2) and at most half its letters,
// dashes left out ("--plto" -> "--plot"; "--plot" is not "--out").
static std::string near_option(const std::string& name, const std::vector<std::string>& known) {
  auto bare = [](const std::string& s) { return s.substr(std::min(s.find_first_not_of('-'), s.size())); };
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  const std::string n = bare(name);
  std::string best;
  std::size_t best_d = std::min<std::size_t>(2, n.size() / 2) + 1;
  for (auto& k : known)
    if (k.starts_with("--"))
      if (const std::size_t d = distance(n, bare(k)); d < best_d) best_d = d, best = k;
  return best;
}

// An option the subcommand does not have (CLI11: "The following argument was not expected: --plto"): the subcommand,
// the option, the one of its options meant when the spelling is close, else the options it has.
static std::string extras_text(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  const CLI::App* at = &app;
  std::string path;
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) words.emplace_back(argv[i]);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].starts_with("-")) {
      if (at == &app && (words[i] == "--max-events" || words[i] == "--max-input-size")) ++i;
      continue;
    }
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : at->get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == words[i]) sub = s;
    if (!sub) break;
    at = sub;
    path += (path.empty() ? "" : " ") + words[i];
  }
  if (at == &app) return e.what();
  std::vector<std::string> known;  // the subcommand's options, then the global ones (they may follow it)
  for (const CLI::App* a : {at, &app})
    for (const CLI::Option* o : a->get_options()) {
      for (auto& l : o->get_lnames()) known.push_back("--" + l);
      for (auto& n : o->get_snames()) known.push_back("-" + n);
    }
  for (auto& w : words) {
    if (!w.starts_with("-") || w == "-" || w == "--") continue;
    const std::string name = w.substr(0, w.find('='));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (name.size() > 2 && name[1] != '-') continue;  // -j2: a short option with its value
    const std::string hint = near_option(name, known);
    // its own options, then the tool's (--quiet, --max-events, ...), which may follow the subcommand too
    auto long_names = [](const CLI::App& a) {
      std::vector<std::string> v;
      for (const CLI::Option* o : a.get_options())
        if (!o->get_lnames().empty() && o->get_lnames()[0] != "help" && o->get_lnames()[0] != "version")
          v.push_back("--" + o->get_lnames()[0]);
      return v;
    };
    const std::vector<std::string> own = long_names(*at);
    std::vector<std::string> global;  // those the subcommand does not have itself (sweep's own --quiet)
    for (auto& g : long_names(app))
      if (std::find(own.begin(), own.end(), g) == own.end()) global.push_back(g);
    return fmt::format("{}: unknown option '{}' ({}) (ompisim {} --help)", path, name,
                       hint.empty() ? fmt::format("its options: {}; the tool's: {}", fmt::join(own, ", "),
                                                  fmt::join(global, ", "))
                                    : fmt::format("did you mean '{}'?", hint),
                       path);
  }
  // A word no option or positional took: a second key=value after one --set (each takes one), else CLI11's text.
  std::vector<std::string> extra;
  for (const std::string& w : words)
    if (w.find('=') != std::string::npos && !w.starts_with("-") && std::string(e.what()).ends_with(w)) extra.push_back(w);
  const std::vector<const CLI::Option*> options = at->get_options();
  const bool has_set =
      std::any_of(options.begin(), options.end(), [](const CLI::Option* o) { return o->check_lname("set"); });
  if (!extra.empty() && has_set)
    return fmt::format("{}: '{}' follows a --set, which takes one key=value: give each its own (--set {}) (ompisim {} "
                       "--help)", path, extra.front(), extra.front(), path);
  // `--set KEY VALUE`: the value is the word CLI11 did not expect, right after a --set whose word has no '='
  if (has_set)
    for (std::size_t i = 0; i + 2 < words.size(); ++i)
      if (words[i] == "--set" && words[i + 1].find('=') == std::string::npos &&
          std::string(e.what()).ends_with(words[i + 2]))
        return fmt::format("{}: '{}' follows --set {}: --set takes key=value in one word (--set {}={}) (ompisim {} "
                           "--help)", path, words[i + 2], words[i + 1], words[i + 1], words[i + 2], path);
  return fmt::format("{}: {} (ompisim {} --help)", path, e.what(), path);
}

// The subcommand the command line names (`machine template`): the deepest one its words reach, and their path ("" for
// the tool itself); `unknown` is set to the first word where a subcommand of the tool belongs that is none.
static const CLI::App* named_subcommand(const CLI::App& app, int argc, char** argv, std::string& path,
                                        std::string* unknown = nullptr) {
  auto find = [](const CLI::App& a, const std::string& name) -> const CLI::App* {
    for (const CLI::App* s : a.get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == name) return s;
    return nullptr;
  };
  const CLI::App* at = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.starts_with("-")) {
      if (at == &app && (a == "--max-events" || a == "--max-input-size")) ++i;  // global options that take a value
      continue;
    }
    const CLI::App* sub = find(*at, a);
    if (!sub) {  // a word where a subcommand belongs (`ompisim foo`, `ompisim machine foo`), else a positional argument
      if (unknown && (at == &app || !at->get_subcommands([](const CLI::App*) { return true; }).empty())) *unknown = a;
      break;
    }
    at = sub;
    path += (path.empty() ? "" : " ") + a;
  }
  return at;
}

// CLI11's message; for a word where a subcommand belongs (CLI11: "A subcommand is required") the word and the
// subcommands there are; for a known subcommand missing what it requires (`ompisim run`, `ompisim machine`), the
// subcommand and what is missing (its own subcommands when it has some); for an option value CLI11 refuses
// (`sweep -j 0`, `validate --samples x`), the subcommand and the help that lists the option.
static std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) return extras_text(app, e, argc, argv);
  auto names_of = [](const CLI::App& a) {
    std::vector<std::string> names;
    for (const CLI::App* sub : a.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
    return names;
  };
  std::string path, unknown;  // the subcommands named so far ("machine template")
  const CLI::App* at = named_subcommand(app, argc, argv, path, &unknown);
  const bool required = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr;
  if (at == &app) {
    if (!required) return e.what();
    if (!unknown.empty()) {
      const std::string hint = did_you_mean(unknown, names_of(app));
      return fmt::format("unknown subcommand '{}'{} (known: {})", unknown,
                         hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names_of(app), ", "));
    }
    return fmt::format("a subcommand is required ({})", fmt::join(names_of(app), ", "));
  }
  const std::vector<std::string> subs = names_of(*at);
  if (required && !subs.empty() && at->get_subcommands().empty() && !unknown.empty())
    return fmt::format("{}: unknown subcommand '{}'{} (known: {}) (ompisim {} --help)", path, unknown,
                       did_you_mean(unknown, subs).empty() ? "" : " (did you mean '" + did_you_mean(unknown, subs) + "'?)",
                       fmt::join(subs, ", "), path);
  if (required && !subs.empty() && at->get_subcommands().empty())
    return fmt::format("{}: a subcommand is required ({}) (ompisim {} --help)", path, fmt::join(subs, ", "), path);
  // a missing scenario or grid file: where the shipped ones are listed
  const std::string what = e.what();
  if (required && (what == "scenario is required" || what == "grid is required"))
    return fmt::format("{}: give a {} file (`ompisim list {}` names the shipped ones) (ompisim {} --help)", path,
                       what.starts_with("grid") ? "sweep grid" : "scenario",
                       what.starts_with("grid") ? "grids" : "scenarios", path);
  return fmt::format("{}: {} (ompisim {} --help)", path, what, path);
}

// `help WORD...`: each word (options aside) a subcommand of the one before; else the error line, and false.
static bool help_words_known(const CLI::App& app, int argc, char** argv) {
  const CLI::App* at = &app;
  std::string path = "help";
  for (int i = 2; i < argc; ++i) {
    if (argv[i][0] == '-') continue;  // an option (`help run --json`): --help is printed all the same
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : at->get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
      if (sub->get_name() == argv[i]) next = sub;
    }
    if (!next) {
      const std::string hint = did_you_mean(argv[i], names);
      std::cerr << "ompisim: error: "
                << one_line(names.empty()
                                ? fmt::format("{}: '{}' is not a subcommand ({} has none) (ompisim {} --help)", path,
                                              argv[i], path.substr(5), path.substr(5))
                                : fmt::format("{}: unknown subcommand '{}'{} (known: {}) (ompisim --help)", path,
                                              argv[i], hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")))
                << "\n";
      return false;
    }
    at = next;
    path += std::string(" ") + argv[i];
  }
  return true;
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  // `ompisim help [SUBCOMMAND...]` is `ompisim [SUBCOMMAND...] --help`, as git and CLI tools of its kind take it.
  std::vector<char*> help_argv;
  if (argc >= 2 && std::string_view(argv[1]) == "help") {
    if (!help_words_known(app, argc, argv)) return 2;
    help_argv.push_back(argv[0]);
    help_argv.insert(help_argv.end(), argv + 2, argv + argc);
    static char help_flag[] = "--help";
    help_argv.push_back(help_flag);
    argc = static_cast<int>(help_argv.size());
    argv = help_argv.data();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    // The same one-line form as every other error (CLI11's own is two lines).
    const std::string text = one_line(parse_error_text(app, e, argc, argv));
    std::cerr << "ompisim: error: " << text << (text.ends_with("--help)") ? "" : " (ompisim --help)") << "\n";
    return 2;
  }
  return -1;
}

// --max-input-size and --max-events, checked (InputError) and applied.
static void check_global_options(const CLI::App& app, Context& ctx) {
  const std::string& max_input = ctx.max_input;
  double bytes = 0;
  if (max_input.starts_with("-")) throw InputError("--max-input-size", max_input, "expected a size between 1 B and 1 GiB");
  try {
    bytes = max_input.find_first_not_of("0123456789") == std::string::npos && !max_input.empty()
                ? std::stod(max_input)
                : parse_quantity(max_input, Dim::Bytes);
  } catch (const std::exception& e) {  // the unit parser's reason (e.g. an SI prefix on a byte size) is kept
    throw InputError("--max-input-size", max_input, fmt::format("expected a size between 1 B and 1 GiB: {}", e.what()));
  }
  if (!(bytes >= 1 && bytes <= 1073741824.0)) throw InputError("--max-input-size", max_input, "expected a size between 1 B and 1 GiB");
  limits::set_max_input_bytes(static_cast<std::size_t>(bytes));
  const std::string& text = ctx.max_events_text;
  if (!text.empty() || app.get_option("--max-events")->count()) {
    std::size_t used = 0;
    try {
      ctx.max_events = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !(ctx.max_events >= 1 && ctx.max_events <= 1e30) ||
        text.find_first_not_of("0123456789.eE+") != std::string::npos)
      throw InputError("--max-events", text, "expected a number of events from 1 to 1e30 (e.g. 1e9)");
  }
}

namespace {
// What a command printed on stdout must have reached it whole: a stream the system refused (a full disk under
// `> file`, /dev/full) makes the command's output incomplete, which its exit status says (2: the output place's fault,
// as for a result file), whatever the command decided before.
int with_stdout_checked(int status) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return status;
  const int e = errno;
  std::cerr << "ompisim: error: standard output: cannot write what this command printed"
            << (e ? std::string(": ") + std::strerror(e) : std::string(" (a full disk, or a stream closed)"))
            << ": its output is incomplete\n";
  return 2;
}
}  // namespace

// What an interrupted command leaves, by the subcommand that ran: `run` writes its result files only when it ends;
// a sweep keeps its finished points and resumes from them; the others keep what they finished.
static std::string kept_after_interrupt(const Context& ctx) {
  if (ctx.kept_note) try {
      if (std::string n = ctx.kept_note(); !n.empty()) return n;
    } catch (const std::exception&) {  // the folder unreadable: say what the kind of command keeps
    }
  std::string name;
  for (auto& [sub, handler] : ctx.handlers)
    if (*sub) name = sub->get_name();
  if (name == "run")
    return "nothing of this run was written (a run writes its result when it ends; files already in the output "
           "folder are untouched)";
  if (name == "sweep") return "the points finished before the signal are kept: the same sweep command resumes from them";
  return "finished results are kept";
}

int run_selected(CLI::App& app, Context& ctx) {
  progress::set_enabled(!ctx.quiet && isatty(STDERR_FILENO));
  progress::set_quiet(ctx.quiet);
  try {
    check_data_dir();
    check_global_options(app, ctx);
    for (auto& [sub, handler] : ctx.handlers)
      if (*sub) return with_stdout_checked(handler());
  } catch (const Interrupted& e) {
    if (ctx.out) ctx.out->discard_if_unused();
    std::cerr << "ompisim: " << e.what() << ", stopped: " << kept_after_interrupt(ctx) << "\n";
    return e.exit_status();
  } catch (const AlreadyReported& e) {  // printed by the process that met it
    if (ctx.out) ctx.out->discard_if_unused();
    return e.status();
  } catch (const std::bad_alloc&) {  // in this process (a simulation process's is out_of_memory_text already)
    if (ctx.out) ctx.out->discard_if_unused();
    std::cerr << "ompisim: error: " << out_of_memory_text() << "\n";
    return 3;
  } catch (const std::exception& e) {
    if (ctx.out) ctx.out->discard_if_unused();
    if (interrupt_signal()) {  // e.g. gnuplot or git killed by the same Ctrl-C, or an input check it cut short
      std::cerr << "ompisim: interrupted, stopped: " << kept_after_interrupt(ctx) << "\n";
      return 128 + interrupt_signal();
    }
    std::cerr << "ompisim: error: " << one_line(e.what()) << "\n";
    return dynamic_cast<const InputError*>(&e) ? 2 : 3;
  }
  if (interrupt_signal()) return 128 + interrupt_signal();
  return 0;
}

std::string set_words(const std::vector<std::string>& sets) {
  std::vector<std::string> w;
  for (const auto& kv : sets) {
    const auto eq = kv.find('=');
    const bool quote = kv.find(' ') != std::string::npos && eq != std::string::npos;
    w.push_back("--set " + (quote ? kv.substr(0, eq + 1) + "\"" + kv.substr(eq + 1) + "\"" : kv));
  }
  return fmt::format("{}", fmt::join(w, " "));
}

void refuse_overwriting(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  auto resolved = [](const std::string& p) {
    std::error_code ec;
    const std::filesystem::path r = std::filesystem::weakly_canonical(p, ec);
    return ec ? std::filesystem::absolute(p).lexically_normal().string() : r.string();
  };
  // the same file by two names (a hard link) is one file too
  auto same = [&](const std::string& a, const std::string& b) {
    std::error_code ec;
    return resolved(a) == resolved(b) || std::filesystem::equivalent(a, b, ec);
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedPath& in : inputs)
      if (!in.path.empty() && same(in.path, outputs[i].path))
        throw InputError(outputs[i].option, outputs[i].path,
                         fmt::format("is the {} this command reads ({}): writing it would replace it; choose another "
                                     "output", in.option, in.path));
    for (std::size_t j = 0; j < i; ++j)
      if (same(outputs[j].path, outputs[i].path))
        throw InputError(outputs[i].option, outputs[i].path,
                         fmt::format("is also where {} writes ({}): one output would replace the other; choose another "
                                     "name", outputs[j].option, outputs[j].path));
  }
}

void refuse_inside_data(const std::string& path, const std::string& option, bool results_ok) {
  namespace fs = std::filesystem;
  // The data folder's folders that commands read as data, and what reads them.
  struct Guarded {
    const char* folder;
    const char* why;
  };
  static constexpr std::array<Guarded, 6> kGuarded{{
      {"scenarios", "`ompisim list`, `validate` and `reproduce` read every .json file there as a scenario, so what is "
                    "written there would be read as one"},
      {"models", "`ompisim list` and every run read the machine files there, so what is written there would be read "
                 "as a machine"},
      {"validation", "`validate` and `reproduce` read the reference data there"},
      {"collectives", "the runs read the collective decision tables there"},
      {"benchmarks", "the runs read the application skeletons and traces there"},
      {"results", "`compare --against results/` and `describe` read the committed results there (`reproduce` "
                  "rewrites them)"},
  }};
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return;
  for (const Guarded& g : kGuarded) {
    if (results_ok && std::string_view(g.folder) == "results") continue;
    const fs::path folder = fs::weakly_canonical(fs::path(data_dir()) / g.folder, ec);
    if (ec || !fs::is_directory(folder, ec)) continue;
    const fs::path rel = p.lexically_relative(folder);
    if (rel.empty() || *rel.begin() == "..") continue;
    throw InputError(option, path, fmt::format("is inside the {} folder {}: {}; give {} outside it", g.folder,
                                               folder.string(), g.why, option));
  }
}

void note_machine_swap(const std::string& scenario_machine, const std::string& stack, const std::string& machine_file) {
  if (scenario_machine.empty() || machine_file.empty()) return;
  std::unique_ptr<Machine> from, to;
  try {
    from = load_machine(scenario_machine);
    to = load_machine(machine_file);
  } catch (const InputError&) {
    return;  // the run itself says what is wrong with either
  }
  auto kinds = [](const Machine& m) {  // the NIC kinds, each once: a second network of one kind changes no component
    auto k = m.nic_kinds();
    std::sort(k.begin(), k.end());
    k.erase(std::unique(k.begin(), k.end()), k.end());
    return k;
  };
  if (kinds(*from) == kinds(*to)) return;
  std::cerr << fmt::format("ompisim: note: the scenario was written for machine {} ({} NIC); --machine-file runs it on "
                           "{} ({} NIC), where stack '{}' is that machine's components (ompisim describe stack/{})\n",
                           from->name, fmt::join(kinds(*from), " + "), to->name, fmt::join(kinds(*to), " + "),
                           stack, stack);
}

void warn_shadowed_machine(const std::string& file) {
  const Json j = load_json_file(file);
  if (!j.is_object() || !j.contains("machine") || !j.at("machine").is_string()) return;  // the loader says what is wrong
  const std::string name = j.at("machine").get<std::string>();
  std::error_code ec;
  for (const auto& [installed, path] : list_machines())
    if (installed == name && !std::filesystem::equivalent(path, file, ec))
      std::cerr << fmt::format("ompisim: warning: {} names its machine '{}', as the installed machine file {} does: the "
                               "results say '{}' (their provenance names {}); a name of its own keeps them apart\n",
                               file, name, repo_relative(path), name, file);
}

void refuse_not_machine_file(const std::string& file) {
  const Json j = load_json_file(file);
  if (!j.is_object() || j.contains("node_types") || j.contains("networks")) return;  // the machine loader's to check
  // a result names its benchmark too: said as what it is first
  if (j.contains("points") && j.contains("provenance"))
    throw InputError(file, "points", "a result (what `ompisim run` writes), not a machine file: --machine-file takes a "
                                     "machine file (`ompisim machine template NAME` writes one to start from)");
  if (j.contains("benchmark"))
    throw InputError(file, "benchmark", fmt::format("a scenario, not a machine file: run it with `ompisim run {}`; "
                                                    "--machine-file takes a machine file (`ompisim machine template "
                                                    "NAME` writes one to start from)", file));
  // A machine file may extend another with its own "base" (and names its "machine"); a grid has axes or points.
  if (j.contains("base") && (j.contains("axes") || j.contains("points")) && !j.contains("machine"))
    throw InputError(file, "base", fmt::format("a sweep grid, not a machine file: run it with `ompisim sweep {}`; "
                                               "--machine-file takes a machine file (`ompisim machine template NAME` "
                                               "writes one to start from)", file));
}

std::unique_ptr<OutputDir> output_dir(const std::string& dir, const std::string& option) {
  refuse_inside_data(dir, option);
  auto out = std::make_unique<OutputDir>(dir, option);
  add_created_folders(out->created_folders());  // an in-process run's interrupt removes them while empty
  return out;
}

void refuse_empty_values(const CLI::App& sub, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const CLI::Option* o = sub.get_option(name);
    if (o->count() == 0) continue;
    for (const auto& r : o->results())
      if (r.empty()) throw InputError(name, "", "empty value: give a value, or leave the option out");
  }
}

CLI::Validator jobs_range() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        int n = 0;
        const char* end = v.data() + v.size();
        auto [p, ec] = std::from_chars(v.data(), end, n);
        if (ec != std::errc() || p != end) return "'" + v + "' is not a whole number (1 to 256 processes)";
        if (n < 1 || n > 256) return v + " is outside 1 to 256 processes";
        return {};
      },
      "1..256");
}

std::string mca_name(const std::string& key) {
  return key.starts_with("mca.") && mca_owner(key.substr(4)) ? key.substr(4) : key;
}

Overrides parse_sets(const std::vector<std::string>& sets) {
  Overrides o;
  for (auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set", s, "expected key=value");
    if (std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
      throw InputError("--set", s, "holds a control character (a line break, a tab, ...): not part of any key or value");
    // Blanks around the '=' are the user's spacing, not part of the key or the value ("nic.bte_bandwidth = 5 GB/s").
    auto trim = [](std::string v) {
      const auto a = v.find_first_not_of(' '), b = v.find_last_not_of(' ');
      return a == std::string::npos ? std::string() : v.substr(a, b - a + 1);
    };
    std::string key = trim(s.substr(0, eq));
    const std::string value = trim(s.substr(eq + 1));
    key = mca_name(key);
    if (key.empty()) throw InputError("--set", s, "expected key=value");
    // The same key twice: the last would win without a word, and the header would list both.
    for (const auto& [k, v] : o)
      if (k == key)
        throw InputError("--set", key, fmt::format("given twice ('{}', then '{}'): give it once", v, value));
    o.emplace_back(key, value);
  }
  return o;
}

std::string component_row(const ComponentInfo& c) {
  return fmt::format("{:<14} [{}]  {}", c.name,
                     c.nic_kinds.empty() ? std::string("any") : fmt::format("{}", fmt::join(c.nic_kinds, ", ")),
                     c.description);
}

std::vector<std::pair<std::string, std::vector<std::string>>> collectives_with_algorithms() {
  std::vector<std::pair<std::string, std::vector<std::string>>> colls;
  for (auto& a : coll::default_registry().all()) {
    auto it = std::find_if(colls.begin(), colls.end(), [&](const auto& c) { return c.first == a.coll; });
    if (it == colls.end()) it = colls.insert(colls.end(), {a.coll, {}});
    it->second.push_back(a.algo);
  }
  return colls;
}

CLI::Option* add_scenario_overrides(CLI::App& sub, std::vector<std::string>& sets, std::string* engine,
                                    const std::string& which) {
  CLI::Option* set = sub.add_option(
      "--set", sets, fmt::format("override a machine or MCA parameter in {} (key=value; an MCA parameter as NAME or "
                                 "mca.NAME), repeatable (one key=value each)", which));
  // One value per --set: `--set k=v scenario.json` leaves the file to the positional argument (CLI11 would take it
  // as a second value of a vector option and then ask for a scenario file).
  set->allow_extra_args(false);
  if (engine)
    sub.add_option("--engine", *engine, fmt::format("run {} on this engine instead of its own (ompisim list)", which));
  return set;
}

}  // namespace ompisim::cli
