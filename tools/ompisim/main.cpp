// ompisim: the command-line tool. Subcommands: run, sweep, validate, calibrate, reproduce, sensitivity, list, describe.
// Exit status (kExitHelp below): 0 success; 1 validation failure (a calibration point outside its tolerance); 2 bad
// input (anything decidable from the input, before simulating); 3 internal error; 130 / 143 interrupted.
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "core/atomic_write.hpp"
#include "core/error_text.hpp"
#include "core/limits.hpp"
#include "core/safe_name.hpp"
#include "core/progress.hpp"
#include "core/signals.hpp"
#include "core/trace_file.hpp"
#include "engine/version.hpp"
#include "runner/estimate.hpp"
#include "runner/registries.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/schema.hpp"
#include "runner/sweep.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"
#include "validation/compare.hpp"
#include "validation/plot.hpp"
#include "validation/sensitivity.hpp"
#include "validation/sweep_plot.hpp"
#include "validation/validate.hpp"
#include "tools/ompisim/mpi_launch.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <cstdlib>
#include <exception>
#include <map>
#include <unistd.h>

using namespace ompisim;

#ifndef OMPISIM_VERSION
#define OMPISIM_VERSION "0.0.0"
#endif

static const char* kExitHelp =
    "Exit status: 0 success; 1 validation outside tolerance (validate, reproduce); 2 bad input (file, key and reason on "
    "stderr, decided before simulating); 3 internal error (a bug); 130 / 143 interrupted by SIGINT / SIGTERM (results "
    "finished before the signal are kept whole).\n";

// `describe BENCHMARK`: the driver's description and every key of its block (type, default, meaning, choices).
static std::string describe_benchmark(const bench::DriverInfo& d) {
  std::string out = fmt::format("# benchmark {} ({}): {}\n", d.name, d.family, d.description);
  out += "## keys of the scenario's \"benchmark\" block (besides \"name\"; any other key is refused)\n";
  for (auto& p : d.params) {
    out += fmt::format("{:<18} {}  (default: {})\n    {}\n", p.name, p.type, p.default_value, p.description);
    if (p.choices) out += fmt::format("    one of: {}\n", fmt::join(p.choices(), ", "));
  }
  if (d.params.empty()) out += "  (no keys)\n";
  return out;
}

// An option given with an empty value ("--out ''") is refused: it never means "as if the option were not given".
static void refuse_empty_values(const CLI::App& sub, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const CLI::Option* o = sub.get_option(name);
    if (o->count() == 0) continue;
    for (const auto& r : o->results())
      if (r.empty()) throw InputError(name, "", "empty value: give a value, or leave the option out");
  }
}

static Overrides parse_sets(const std::vector<std::string>& sets) {
  Overrides o;
  for (auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set", s, "expected key=value");
    if (std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
      throw InputError("--set", s, "holds a control character (a line break, a tab, ...): not part of any key or value");
    o.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return o;
}

// jemalloc's start-up options (read only when the tool is linked with jemalloc, see CMakeLists.txt): transparent huge
// pages for the heap. A whole-machine run touches about 1 GB of small objects; 2 MiB pages cut the page faults and
// TLB misses (Titan p2p barrier at 65,536 ranks: 4.3-4.8 s -> 3.8-4.1 s, peak RSS +5 %). MALLOC_CONF overrides it.
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:always";
}

// `svg`: a path inside the output folder (relative to it) or an absolute path; the script is written into the folder.
static bool plot_inline(validation::PlotSpec& spec, const OutputDir& out, const std::string& svg) {
  std::string script = std::filesystem::path(svg).filename().replace_extension(".gp").string();
  write_atomic(out.file(script), validation::gnuplot_script(spec));
  bool ok = validation::have_gnuplot() && validation::run_gnuplot(out.root(), script, svg);
  std::filesystem::remove(out.file(script));
  return ok;
}

// `run --plot` for a benchmark whose result is rows (DriverInfo::row_plot): one curve per named column, linear axes.
static bool draw_rows(const Json& res, const bench::DriverInfo::RowPlot& rp, const OutputDir& out,
                      const std::string& svg) {
  validation::PlotSpec spec;
  spec.svg = svg;
  spec.xcol = rp.x;
  spec.ycol = "time_s";
  spec.logx = spec.logy = false;
  spec.title = fmt::format("{} on {} ({}), {} ranks", res.value("benchmark", ""), res.value("machine", ""),
                           res.value("stack", ""), res["ranks"].dump());
  int k = 0;
  for (const auto& [col, label] : rp.ys) {
    std::string name = fmt::format("$y{}", k++);
    std::string block = name + " << EOD\n" + rp.x + ",time_s\n";
    for (const auto& p : res["points"])
      if (p.value("row", "") == rp.row && p.contains(rp.x) && p[rp.x].is_number() && p.contains(col) &&
          p[col].is_number())
        block += fmt::format("{},{}\n", p[rp.x].get<double>(), p[col].get<double>());
    spec.inline_data += block + "EOD\n";
    spec.curves.push_back({name, label, ""});
  }
  return plot_inline(spec, out, svg);
}

// `run --plot NAME.svg`: the run's main metric against its x axis, data inline in the script (nothing else written).
static bool draw_run(const Json& res, const OutputDir& out, const std::string& svg) {
  const Json& pts = res["points"];
  const bench::DriverInfo* d = bench::driver_registry().find(res.value("benchmark", ""));
  if (d && !d->curve && d->row_plot && !pts.empty()) return draw_rows(res, *d->row_plot, out, svg);
  if (pts.empty() || (d && !d->curve)) throw InputError("--plot", svg, "this benchmark has no curve to plot");
  const Json& p0 = pts[0];
  std::string x = p0.contains("bytes") ? "bytes" : p0.contains("radix") && res.contains("radix") ? "radix" : "ranks";
  std::string y = p0.contains("latency_us") ? "latency_us" : p0.contains("availability_pct") ? "availability_pct"
                                                                                           : "bandwidth_GBps";
  validation::PlotSpec spec;
  spec.svg = svg;
  spec.xcol = x;
  spec.ycol = y;
  spec.title = fmt::format("{} on {} ({}), {} ranks", res.value("benchmark", ""), res.value("machine", ""),
                           res.value("stack", ""), res["ranks"].dump());
  std::string block = "$run << EOD\n" + x + "," + y + "\n";
  for (auto& p : pts) block += fmt::format("{},{}\n", std::max(p[x].get<double>(), 1.0), p[y].get<double>());
  spec.inline_data = block + "EOD\n";
  spec.curves.push_back({"$run", res.value("stack", ""), ""});
  return plot_inline(spec, out, svg);
}

// `describe NAME`: a component given as "framework/name", or by a name that no machine has and only one framework
// uses (InputError when several do: "portals" is btl/portals and mtl/portals); nullptr for a machine.
static const ComponentInfo* find_component(const std::string& name) {
  const auto& reg = component_registry();
  if (auto slash = name.find('/'); slash != std::string::npos) {
    const ComponentInfo* c = reg.find(name.substr(0, slash), name.substr(slash + 1));
    if (!c) {
      std::vector<std::string> ids;
      for (auto& e : reg.all()) ids.push_back(e.id());
      throw InputError("describe", name, fmt::format("unknown component (known: {})", fmt::join(ids, ", ")));
    }
    return c;
  }
  for (auto& [n, f] : list_machines())
    if (n == name) return nullptr;
  std::vector<const ComponentInfo*> hits;
  for (auto& e : reg.all())
    if (e.name == name) hits.push_back(&e);
  if (hits.size() > 1) {
    std::vector<std::string> ids;
    for (auto* h : hits) ids.push_back(h->id());
    throw InputError("describe", name, fmt::format("several components have this name: say which of {}", fmt::join(ids, ", ")));
  }
  return hits.empty() ? nullptr : hits.front();
}

// CLI11's message, or for a word where a subcommand belongs (CLI11: "A subcommand is required") the word and the
// subcommands there are.
static std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (!dynamic_cast<const CLI::RequiredError*>(&e)) return e.what();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.starts_with("-")) {
      if (a == "--max-events" || a == "--max-input-size") ++i;  // the global options that take a value
      continue;
    }
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
    return fmt::format("unknown subcommand '{}' (known: {})", a, fmt::join(names, ", "));
  }
  return e.what();
}

int main(int argc, char** argv) {
  install_interrupt_handlers();
  CLI::App app{"ompisim: a discrete-event simulator of the Open MPI communication stack"};
  app.footer(kExitHelp);
  app.set_version_flag("--version", [] {
    const std::string mpi = mpi_launch::library();
    return fmt::format("ompisim {}\ngit describe: {}\nSimGrid {}\nMPI: {}", OMPISIM_VERSION, git_describe(),
                       engine::simgrid_version(),
                       mpi.empty() ? "not built in (mpirun sweeps read the launcher's environment)" : mpi);
  });
  app.require_subcommand(1);
  app.fallthrough();
  bool quiet = false;
  app.add_flag("--quiet", quiet, "no progress line on stderr (shown only when stderr is a terminal)");
  std::string max_input = fmt::format("{}", limits::kDefaultMaxInputBytes);
  app.add_option("--max-input-size", max_input,
                 fmt::format("largest input file read, in bytes or with a unit (\"16 MiB\"); default {} (4 MiB)",
                             limits::kDefaultMaxInputBytes));

  std::string max_events_text;
  app.add_option("--max-events", max_events_text,
                 "refuse (exit 2, nothing written, before starting) a run or sweep point whose estimated event count "
                 "(ranks x iterations x messages per iteration, runner/estimate.hpp) is above N");

  auto* run = app.add_subcommand("run", "run one scenario");
  std::string scen_file, out_dir, machine_file, plot_file;
  std::vector<std::string> sets;
  bool as_json = false;
  run->add_option("scenario", scen_file, "scenario JSON file")->required();
  run->add_option("--set", sets, "override a machine or MCA parameter (key=value), repeatable");
  std::string run_engine;
  run->add_option("--engine", run_engine, "run on this engine instead of the scenario's (ompisim list)");
  run->add_option("--out", out_dir,
                  "folder for the result files <id>.json and <id>.csv, created and checked before the run (default: "
                  "results/<id>/ under the current directory); a symlinked folder is resolved once and written into");
  run->add_flag("--json", as_json, "print the result as JSON on stdout");
  run->add_option("--machine-file", machine_file,
                  "machine file to use instead of looking up the scenario's machine name in models/*/machines/");
  run->add_option("--plot", plot_file, "also draw the run as an SVG (a file name, written into the --out folder)");
  std::string trace_file, trace_ranks, trace_window;
  run->add_option("--trace", trace_file,
                  "write the protocol timeline: FILE.paje (Paje: ViTE, pj_dump) or FILE.json (Chrome trace events: "
                  "Perfetto); CPU spans per rank, NIC engines, bulk flows, messages and AMOs");
  run->add_option("--trace-ranks", trace_ranks, "trace only these ranks (and their nodes' NICs), e.g. 0-15,1024");
  run->add_option("--trace-window", trace_window, "trace only this interval of simulated time, e.g. 10us:50us");

  auto* swp = app.add_subcommand("sweep", "run a parameter sweep: a base scenario and axes over scenario keys, benchmark "
                                          "keys, MCA and machine parameters; each point once, resumable; --merge "
                                          "gathers the table (runner/sweep.hpp describes the grid file)");
  std::string grid_file, swp_out, shard_spec;
  int swp_jobs = 1;
  bool swp_merge = false, swp_quiet = false;
  swp->add_option("grid", grid_file, "grid JSON file")->required();
  swp->add_option("-j,--jobs", swp_jobs, "points run at once on this machine (each in its own process)")
      ->check(CLI::Range(1, 256));
  swp->add_option("--shard", shard_spec,
                  "run only shard I of N (I/N, 0-based: point k belongs to shard k % N); default: a Slurm array task's "
                  "(SLURM_ARRAY_TASK_ID / _COUNT), or an MPI launcher rank's (mpirun, srun), else every point");
  swp->add_option("--out", swp_out, "the sweep's folder (default: results/sweep-<grid file name>)");
  swp->add_flag("--merge", swp_merge, "only gather the finished points into sweep.json, sweep.csv and sweep_<axis>.svg");
  swp->add_flag("--quiet", swp_quiet, "no progress line on stderr (there is none when stderr is not a terminal)");

  auto* val = app.add_subcommand("validate", "run the scenarios with reference data and print the validation table");
  std::string paper;
  bool val_json = false;
  val->add_option("--paper", paper, "only this paper (e.g. gemini-xe-xk)");
  val->add_flag("--json", val_json, "print JSON");
  std::string val_machine_file;
  val->add_option("--machine-file", val_machine_file,
                  "machine file used by every scenario whose machine has this file's name (a what-if machine)");
  int val_samples = validation::kDefaultIntervalSamples;
  val->add_option("--samples", val_samples,
                  "Latin-hypercube samples of the machines' estimate ranges and undetermined directions per paper, for "
                  "the prediction intervals (0: none)");
  std::vector<std::string> val_sets;
  val->add_option("--set", val_sets,
                  "override a machine or MCA parameter in every scenario (key=value), repeatable: the table for a "
                  "what-if parameter set (calibration points may then leave their tolerance)");

  auto* cal = app.add_subcommand("calibrate", "fit the free parameters (least squares) on the calibration points");
  std::string cal_machine = "cielo";
  bool cal_write = false;
  cal->add_option("--paper", paper, "paper whose calibration points are used");
  cal->add_option("--machine", cal_machine, "machine file whose fitted parameters are updated");
  cal->add_flag("--write", cal_write, "write the fitted values into the machine file");
  std::vector<std::string> cal_free;
  cal->add_option("--free", cal_free,
                  "fit only the parameters whose name contains this (repeatable; the others keep their file values)");

  auto* rep = app.add_subcommand("reproduce", "run every scenario into results/ (JSON, CSV, SVG) and write validation.md");
  std::string rep_out = data_dir() + "/results";
  rep->add_option("--out", rep_out, "results directory");

  auto* sens = app.add_subcommand("sensitivity", "normalised derivatives d ln(result) / d ln(parameter) of a scenario's "
                                                 "points with respect to each machine parameter, largest first");
  std::string sens_file;
  bool sens_json = false;
  double sens_step = 0.01;
  sens->add_option("scenario", sens_file, "scenario file")->required();
  sens->add_option("--step", sens_step, "log-space step of the central differences (default 0.01)");
  sens->add_flag("--json", sens_json, "print JSON");

  auto* cmp = app.add_subcommand("compare", "compare two results (files or folders) metric by metric, or rerun the "
                                            "committed scenarios of a results folder (--against) and report drift; "
                                            "exit 1 beyond the tolerance");
  std::string cmp_a, cmp_b, cmp_against, cmp_tol = "0", cmp_only;
  bool cmp_diff_only = false, cmp_json = false;
  std::vector<std::string> cmp_sets;
  cmp->add_option("A", cmp_a, "result JSON file or folder of results");
  cmp->add_option("B", cmp_b, "result JSON file or folder of results (paired with A by relative path)");
  cmp->add_option("--against", cmp_against, "rerun the scenario of every result in this folder and compare");
  cmp->add_option("--only", cmp_only, "with --against: only results whose relative path contains this text");
  cmp->add_option("--set", cmp_sets, "with --against: override a machine or MCA parameter in every rerun (key=value)");
  std::string cmp_engine;
  cmp->add_option("--engine", cmp_engine, "with --against: rerun every scenario on this engine (ompisim list)");
  cmp->add_option("--tolerance", cmp_tol, "relative tolerance (0.02 or 2%); default 0: any difference");
  cmp->add_flag("--diff-only", cmp_diff_only, "print only the values beyond the tolerance");
  cmp->add_flag("--json", cmp_json, "print JSON");

  auto* sch = app.add_subcommand("schema", "print the JSON Schema of a scenario file or of a result file");
  std::string schema_kind;
  sch->add_option("kind", schema_kind, "scenario | result")->required();

  auto* lst = app.add_subcommand("list", "list machines, stacks, benchmarks, algorithms and scenarios");
  auto* desc = app.add_subcommand("describe", "print every parameter of a machine or of a component (e.g. btl/ugni) "
                                              "with unit, value and source, or the keys a benchmark's \"benchmark\" "
                                              "block accepts");
  std::string desc_machine;
  desc->add_option("name", desc_machine, "machine, component (framework/name, or a name only one framework has) or "
                                         "benchmark name (ompisim list)")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
    // The same one-line form as every other error (CLI11's own is two lines).
    std::cerr << "ompisim: error: " << one_line(parse_error_text(app, e, argc, argv)) << " (ompisim --help)\n";
    return 2;
  }

  progress::set_enabled(!quiet && isatty(STDERR_FILENO));
  std::unique_ptr<OutputDir> out;  // removed again when a run that created it fails before writing
  try {
    {
      double bytes = 0;
      try {
        bytes = max_input.find_first_not_of("0123456789") == std::string::npos && !max_input.empty()
                    ? std::stod(max_input)
                    : parse_quantity(max_input, Dim::Bytes);
      } catch (const std::exception&) {
        bytes = -1;
      }
      if (!(bytes >= 1 && bytes <= 1e9)) throw InputError("--max-input-size", max_input, "expected a size between 1 B and 1 GB");
      limits::set_max_input_bytes(static_cast<std::size_t>(bytes));
    }
    double max_events = 0;
    if (!max_events_text.empty() || app.get_option("--max-events")->count()) {
      std::size_t used = 0;
      try {
        max_events = std::stod(max_events_text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != max_events_text.size() || !(max_events >= 1 && max_events <= 1e30) ||
          max_events_text.find_first_not_of("0123456789.eE+") != std::string::npos)
        throw InputError("--max-events", max_events_text, "expected a number of events of at least 1 (e.g. 1e9)");
    }
    refuse_empty_values(*run, {"--out", "--plot", "--trace", "--trace-ranks", "--trace-window", "--machine-file"});
    refuse_empty_values(*swp, {"--out", "--shard"});
    refuse_empty_values(*cmp, {"--against", "--only"});
    refuse_empty_values(*rep, {"--out"});
    if (*run) {
      Scenario s = load_scenario(scen_file);
      set_engine(s, run_engine);
      s.machine_file = machine_file;
      check_max_events(s, max_events, "scenario " + s.id);
      if (const double e = estimate_events(s); e > kEventsWorthSaying && isatty(STDERR_FILENO) && !quiet)
        std::cerr << fmt::format("ompisim: scenario {}: {} (--max-events N refuses such a run)\n", s.id,
                                 estimate_text(s, e));
      Overrides o = parse_sets(sets);
      check_sets_read(s, o);
      if (!plot_file.empty()) {
        if (!plot_file.ends_with(".svg")) throw InputError("--plot", plot_file, "expected a file name ending in .svg");
        if (plot_file.front() == '/') check_output_path(plot_file, "--plot");
      }
      std::unique_ptr<TraceRequest> trace;
      if (!trace_file.empty()) {
        if (trace_file.front() == '/') check_trace_path(trace_file);  // relative: inside --out, checked below
        else (void)trace_format_of(trace_file, "--trace");
        trace = std::make_unique<TraceRequest>();
        trace->path = trace_file;
        trace->ranks_text = trace_ranks;
        if (!trace_ranks.empty()) trace->filter.ranks = parse_rank_list(trace_ranks, "--trace-ranks");
        if (!trace_window.empty())
          std::tie(trace->filter.t0, trace->filter.t1) = parse_time_window(trace_window, "--trace-window");
      } else if (!trace_ranks.empty() || !trace_window.empty()) {
        throw InputError(trace_ranks.empty() ? "--trace-window" : "--trace-ranks",
                         trace_ranks.empty() ? trace_window : trace_ranks, "selects what --trace writes: give --trace FILE");
      }
      out = std::make_unique<OutputDir>(out_dir.empty() ? "results/" + s.id : out_dir);
      // Output paths (one rule): a relative --plot or --trace is inside --out, an absolute one is written as given.
      if (!plot_file.empty() && plot_file.front() != '/') (void)out->file(plot_file, "--plot");  // checked now
      if (trace && trace_file.front() != '/') {
        trace->path = out->file(trace_file, "--trace");
        check_trace_path(trace->path);
      }
      if (trace) add_child_temporary(trace->path);  // removed if the simulation is killed before it renames it
      // The simulation runs in a child process: this one stays free of SimGrid and handles SIGINT / SIGTERM.
      Json res = Json::parse(run_isolated([&] { return run_scenario(s, o, trace.get()).dump(); }));
      progress::clear();
      std::string json_path = out->file(s.id + ".json"), csv_path = out->file(s.id + ".csv");
      publish_pair(json_path, res.dump(2) + "\n", csv_path, result_csv(res));
      std::vector<std::string> wrote{json_path, csv_path};
      if (!plot_file.empty()) {
        std::string svg = plot_file.front() == '/' ? plot_file : out->file(plot_file);
        if (!draw_run(res, *out, plot_file)) throw std::runtime_error("gnuplot failed (or is not installed) for --plot");
        wrote.push_back(svg);
      }
      if (as_json) std::cout << res.dump(2) << "\n";
      else std::cout << result_table(res);
      for (const auto& w : override_warnings(res)) std::cerr << "ompisim: warning: " << w << "\n";
      std::cerr << fmt::format("ompisim: wrote {}\n", fmt::join(wrote, ", "));
      return 0;
    }
    if (*cmp) {
      const double tol = validation::parse_tolerance(cmp_tol);
      validation::Comparison c;
      std::string name_a = cmp_a, name_b = cmp_b;
      if (!cmp_against.empty()) {
        if (!cmp_a.empty()) throw InputError("compare", cmp_a, "--against reruns the results it names: give no A or B");
        c = validation::compare_against(cmp_against, tol, cmp_only, parse_sets(cmp_sets), progress::points, cmp_engine);
        name_a = cmp_against + " (committed)";
        name_b = "this build's rerun" + (cmp_sets.empty() ? std::string() : fmt::format(" with {}", fmt::join(cmp_sets, " ")));
        if (!cmp_engine.empty()) name_b += " on engine " + cmp_engine;
      } else {
        if (cmp_a.empty() || cmp_b.empty()) throw InputError("compare", cmp_a, "give A and B, or --against DIR");
        if (!cmp_engine.empty()) throw InputError("", "--engine", "applies to --against only");
        if (!cmp_only.empty() || !cmp_sets.empty())
          throw InputError(cmp_only.empty() ? "--set" : "--only", cmp_only.empty() ? cmp_sets.front() : cmp_only,
                           "applies to --against only");
        c = validation::compare_paths(cmp_a, cmp_b, tol);
      }
      if (cmp_json) std::cout << validation::comparison_json(c).dump(2) << "\n";
      else std::cout << validation::render_comparison(c, name_a, name_b, cmp_diff_only);
      return c.ok() ? 0 : 1;
    }
    if (*sch) {
      static const std::vector<std::pair<std::string, Json (*)()>> kinds = {{"scenario", scenario_schema},
                                                                            {"result", result_schema}};
      for (auto& [name, make] : kinds)
        if (name == schema_kind) {
          std::cout << make().dump(2) << "\n";
          return 0;
        }
      throw InputError("schema", schema_kind, "unknown schema: expected scenario or result");
    }
    if (*swp) {
      SweepGrid g = load_sweep_grid(grid_file);
      for (std::size_t i = 0; i < g.points.size() && max_events > 0; ++i)
        check_max_events(scenario_from_json(g.points[i].scenario, g.base_file), max_events,
                         fmt::format("{}: point {} of {}", grid_file, i + 1, g.points.size()));
      std::string stem = std::filesystem::path(grid_file).stem().string();
      if (swp_out.empty()) check_safe_name(stem, grid_file, "(file name)");
      out = std::make_unique<OutputDir>(swp_out.empty() ? "results/sweep-" + stem : swp_out);
      const std::string dir = out->root();
      bool merge = swp_merge;
      // Under an MPI launcher, with MPI built in and no explicit shard: MPI_Comm_rank / _size give the shard and rank 0
      // merges after the ranks' barrier (tools/ompisim/mpi_launch.hpp; no process that called MPI_Init forks).
      if (!swp_merge && shard_spec.empty() && !std::getenv("SLURM_ARRAY_TASK_ID") && mpi_launch::available() &&
          mpi_launch::launcher_variable()) {
        SweepOptions o;
        o.out_dir = dir;
        o.jobs = swp_jobs;
        o.progress = !swp_quiet && isatty(2);
        IsolatedWorker worker([&](const std::string& shard) {
          o.shard = sweep_shard(shard);
          o.shard.from = "MPI_Comm_rank";
          return std::to_string(run_sweep(g, o));
        });
        const mpi_launch::Comm comm = mpi_launch::init();
        std::exception_ptr failed;
        int status = 0, ran = 0;
        try {
          ran = std::stoi(worker.run(fmt::format("{}/{}", comm.rank, comm.size)));
        } catch (const Interrupted& e) {
          failed = std::current_exception(), status = e.exit_status();
        } catch (const InputError&) {
          failed = std::current_exception(), status = 2;
        } catch (const std::exception&) {
          failed = std::current_exception(), status = 3;
        }
        const int worst = mpi_launch::barrier_max(status);
        mpi_launch::finalize();
        if (failed) std::rethrow_exception(failed);
        std::cerr << fmt::format("ompisim sweep: {} points, {} run now (shard {}/{} from MPI_Comm_rank), {} done in {}\n",
                                 g.points.size(), ran, comm.rank, comm.size, sweep_points_done(g, dir), dir);
        if (worst != 0) {
          if (comm.rank == 0)
            std::cerr << fmt::format("ompisim sweep: another rank's points failed (its error above, status {}): no merge; "
                                     "finished points are kept\n", worst);
          return worst;
        }
        if (comm.rank != 0) return 0;
        merge = true;
      } else if (!swp_merge) {
        SweepOptions o;
        o.out_dir = dir;
        o.jobs = swp_jobs;
        o.shard = sweep_shard(shard_spec);
        o.progress = !swp_quiet && isatty(2);
        int ran = run_sweep(g, o);
        std::cerr << fmt::format("ompisim sweep: {} points, {} run now{}, {} done in {}\n", g.points.size(), ran,
                                 o.shard.count > 1 ? fmt::format(" (shard {}/{} from {})", o.shard.index, o.shard.count,
                                                                 o.shard.from)
                                                   : "",
                                 sweep_points_done(g, dir), dir);
        // One shard per process under an MPI launcher without MPI built in (or srun without PMI): rank 0 waits for the
        // others' point files, then merges. A Slurm array or an explicit --shard leaves the merge to `sweep --merge`.
        bool launcher = o.shard.from != "" && o.shard.from != "--shard" && o.shard.from != "SLURM_ARRAY_TASK_ID";
        merge = o.shard.count == 1 || (launcher && o.shard.index == 0);
        while (merge && o.shard.count > 1 && sweep_points_done(g, dir) < static_cast<int>(g.points.size())) {
          throw_if_interrupted();
          usleep(200000);
        }
      }
      if (merge) {
        Json table = merge_sweep(g, dir);
        std::string json_path = out->file("sweep.json"), csv_path = out->file("sweep.csv");
        publish_pair(json_path, table.dump(1) + "\n", csv_path, sweep_csv(table));
        std::vector<std::string> wrote{json_path, csv_path};
        for (auto& svg : validation::draw_sweep(table, dir)) wrote.push_back(out->file(svg));
        std::cerr << fmt::format("ompisim sweep: wrote {}\n", fmt::join(wrote, ", "));
      }
      return 0;
    }
    if (*lst) {
      std::cout << "machines:\n";
      for (auto& [n, f] : list_machines()) std::cout << "  " << n << "  (" << f << ")\n";
      std::cout << "components (by framework; a scenario's \"stack\" may compose them, e.g. {\"pml\": \"ob1\", \"btl\": "
                   "[\"self\", \"vader\", \"ugni\"]}):\n";
      for (auto& fw : component_registry().frameworks()) {
        std::cout << "  " << fw << ":\n";
        for (auto& c : component_registry().all())
          if (c.framework == fw)
            std::cout << fmt::format("    {:<14} [{}]  {}\n", c.name,
                                     c.nic_kinds.empty() ? std::string("any") : fmt::format("{}", fmt::join(c.nic_kinds, ", ")),
                                     c.description);
      }
      std::cout << "stacks (presets):\n";
      for (auto& s : stack_registry().all())
        std::cout << "  " << s.name << " [" << s.nic_kind << "] " << s.spec.to_json().dump() << "  " << s.description << "\n";
      std::cout << "engines (a scenario's \"engine\"):\n";
      for (auto& e : engines().all()) std::cout << fmt::format("  {:<8} {}\n", e.name, e.description);
      std::cout << "NIC kinds:\n";
      for (auto& k : nic_kinds().all()) std::cout << "  " << k.name << "  " << k.description << "\n";
      std::cout << "benchmarks (ompisim describe NAME: the keys of its \"benchmark\" block):\n";
      for (auto& b : bench::driver_registry().all())
        std::cout << fmt::format("  {:<14} [{}]  {}\n", b.name, b.family, b.description);
      std::cout << "benchmark keys that name one of a list (benchmark.key: values):\n";
      for (auto& b : bench::driver_registry().all())
        for (auto& p : b.params)
          if (p.choices) std::cout << fmt::format("  {}.{}: {}\n", b.name, p.name, fmt::join(p.choices(), ", "));
      std::cout << "scenarios:\n";
      for (auto& f : validation::scenario_files()) std::cout << "  " << f << "\n";
      return 0;
    }
    if (*desc && bench::driver_registry().find(desc_machine)) {
      std::cout << describe_benchmark(*bench::driver_registry().find(desc_machine));
      return 0;
    }
    if (*desc) {
      if (const ComponentInfo* c = find_component(desc_machine)) {
        std::cout << fmt::format("# {}: {}\n# source: {}\n# runs on NIC kinds: {}\n", c->id(), c->description,
                                 c->source, fmt::join(c->nic_kinds, ", "));
        if (c->make_btl)
          std::cout << fmt::format("# reaches: {} peers; MCA_BTL_FLAGS 0x{:x}\n", to_string(c->reach), c->btl_flags);
        std::cout << "## MCA parameters (name, default, description, source of the default)\n";
        auto rows = c->describe_params();
        if (rows.empty()) std::cout << "  (no parameters)\n";
        for (auto& row : rows)
          std::cout << fmt::format("{:<40} {:>16}  [{}] {}\n    {}\n", row["name"].get<std::string>(),
                                   row["value"].get<std::string>(), row["dimension"].get<std::string>(),
                                   row["description"].get<std::string>(), row["source"].get<std::string>());
        std::cout << "## presets using it\n";
        for (auto& s : stack_registry().all())
          for (auto& p : s.spec.parts())
            if (p.framework == c->framework && p.name == c->name)
              std::cout << "  " << s.name << " [" << s.nic_kind << "] " << s.spec.to_json().dump() << "\n";
        return 0;
      }
      std::unique_ptr<Machine> m;
      try {
        m = load_machine(desc_machine);
      } catch (const InputError& e) {  // neither a benchmark nor a machine: say both
        if (e.reason().rfind("unknown machine", 0) != 0) throw;
        throw InputError(e.file(), e.key(), fmt::format("{}; nor a benchmark (known: {})", e.reason(),
                                                        fmt::join(bench::driver_registry().names(), ", ")));
      }
      std::cout << fmt::format("# {} ({}), NIC kinds {}: {}\n", m->name, m->file, fmt::join(m->nic_kinds(), ", "),
                               m->description);
      for (auto& n : m->networks())
        std::cout << fmt::format("# network {}: NIC kind {}, {} port(s) per node, topology {}\n", n.name, n.nic_kind(),
                                 n.ports_per_node, n.topology_json.dump());
      for (auto& t : m->node_types()) std::cout << fmt::format("# node type {}: {} cores\n", t.name, t.type.cores());
      std::cout << fmt::format("# {} compute nodes\n", m->nodes);
      auto print = [](const ParamList& l) {
        for (auto& row : describe(l))
          std::cout << fmt::format("{:<40} {:>16}  {}{}\n    {}\n", row["name"].get<std::string>(),
                                   row["value"].get<std::string>(), row["fitted"].get<bool>() ? "[fitted] " : "",
                                   row["description"].get<std::string>(), row["source"].get<std::string>());
      };
      std::cout << "## physical parameters\n";
      print(m->physical_params());
      std::cout << "## components on this machine, with their software (MCA / Cray MPT) parameters\n";
      {
        McaParams mca = machine_mca(*m);
        for (auto& c : component_registry().all()) {
          const auto kinds = m->nic_kinds();
          if (std::none_of(kinds.begin(), kinds.end(), [&](const std::string& k) { return c.runs_on(k); })) continue;
          std::cout << fmt::format("### {}  {}\n", c.id(), c.description);
          ParamList l = c.param_list(mca);
          if (l.empty()) std::cout << "  (no parameters)\n";
          else print(l);
        }
      }
      std::cout << "## barrier algorithms\n";
      for (auto& a : bench::barrier_algorithm_names()) std::cout << "  " << a << "\n";
      std::cout << "## stacks on this machine\n";
      for (auto& s : stack_registry().all())
        if (m->has_nic_kind(s.nic_kind)) {
          std::cout << "  " << s.name << " " << s.spec.to_json().dump() << "  " << s.description << "\n";
          if (!s.version.empty()) std::cout << "    models " << s.version << "\n";
          for (auto it = s.mca.begin(); it != s.mca.end(); ++it)
            std::cout << "    mca " << it.key() << " = " << it.value()["value"].dump() << "  ("
                      << it.value()["source"].get<std::string>() << ")\n";
        }
      std::cout << "## application skeletons (app_skeleton; seastar-portals paper Table 1)\n";
      for (auto& a : bench::app_names()) std::cout << "  " << a << "\n";
      return 0;
    }
    if (*val) {
      if (!val_machine_file.empty()) validation::set_machine_file(val_machine_file);
      if (val_samples < 0) throw InputError("--samples", std::to_string(val_samples), "must be 0 or more");
      validation::set_interval_samples(val_samples);
      Json v = validation::validate(paper, parse_sets(val_sets));
      if (val_json) std::cout << v.dump(2) << "\n";
      else std::cout << validation::render_table(v);
      return validation::all_calibration_pass(v) ? 0 : 1;
    }
    if (*cal) return validation::calibrate(paper.empty() ? "gemini-xe-xk" : paper, cal_machine, cal_write, cal_free);
    if (*rep) {
      const int rc = validation::reproduce(rep_out);
      progress::clear();
      return rc;
    }
    if (*sens) {
      if (!(sens_step > 0 && sens_step < 1)) throw InputError("--step", std::to_string(sens_step), "must be in (0, 1)");
      Json r = validation::sensitivity(sens_file, sens_step);
      std::cout << (sens_json ? r.dump(2) + "\n" : validation::render_sensitivity(r));
      return 0;
    }
  } catch (const Interrupted& e) {
    if (out) out->discard_if_unused();
    std::cerr << "ompisim: " << e.what() << ", stopped (finished results are kept)\n";
    return e.exit_status();
  } catch (const std::exception& e) {
    if (out) out->discard_if_unused();
    if (interrupt_signal()) {  // e.g. gnuplot or git killed by the same Ctrl-C, or an input check it cut short
      std::cerr << "ompisim: interrupted, stopped (finished results are kept)\n";
      return 128 + interrupt_signal();
    }
    std::cerr << "ompisim: error: " << one_line(e.what()) << "\n";
    return dynamic_cast<const InputError*>(&e) ? 2 : 3;
  }
  if (interrupt_signal()) return 128 + interrupt_signal();
  return 0;
}
