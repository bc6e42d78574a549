// `ompisim run SCENARIO`: one scenario, simulated in a child process; the result as JSON and CSV in the output folder,
// optionally an SVG (--plot) and a protocol trace (--trace).
#include "benchmarks/driver.hpp"
#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/progress.hpp"
#include "core/signals.hpp"
#include "core/trace_file.hpp"
#include "core/trace_options.hpp"
#include "runner/estimate.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/discovery.hpp"
#include "validation/plot.hpp"
#include "validation/plot_overlays.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <unistd.h>

namespace ompisim::cli {
namespace {

// A run's plot title: what the table's header says (benchmark, machine, stack, ranks), and the algorithm every point
// ran (report.hpp points_algorithm).
std::string run_title(const Json& res) {
  const std::string algo = points_algorithm(res["points"]);
  return fmt::format("{} on {} ({}), {}{}", res.value("benchmark", ""), res.value("machine", ""), res.value("stack", ""),
                     ranks_text(res["ranks"]), algo.empty() ? "" : ", " + algo);
}

// `svg`: a path inside the output folder (relative to it) or an absolute path; the script is written into the folder.
bool plot_inline(validation::PlotSpec& spec, const OutputDir& out, const std::string& svg) {
  std::string script = std::filesystem::path(svg).filename().replace_extension(".gp").string();
  write_atomic(out.file(script), validation::gnuplot_script(spec));
  return validation::have_gnuplot() && validation::run_gnuplot_once(out.root(), script, svg);
}

// The caption lines of a run's plot: the scenario's mca block, the --set overrides and a machine file given with
// --machine-file (one not under models/), so that a what-if's plot cannot pass for the machine's own curve.
std::vector<std::string> run_caption(const Json& res, const Json& scenario_mca) {
  std::vector<std::string> lines;
  if (scenario_mca.is_object() && !scenario_mca.empty()) {
    std::vector<std::string> items;
    for (auto it = scenario_mca.begin(); it != scenario_mca.end(); ++it)
      items.push_back(it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump()));
    lines.push_back(fmt::format("scenario mca: {}", fmt::join(items, ", ")));
  }
  if (auto o = override_notes(res); !o.empty()) lines.push_back(fmt::format("--set {}", fmt::join(o, ", ")));
  const std::string mf = res.value("provenance", Json::object()).value("machine_file", "");
  if (!mf.empty() && !mf.starts_with("models/")) lines.push_back("machine file " + mf);
  return lines;
}

// `run --plot` for a benchmark whose result is rows (DriverInfo::row_plot): one curve per named column, linear axes.
bool draw_rows(const Json& res, const bench::DriverInfo::RowPlot& rp, const OutputDir& out,
                      const std::string& svg, const Json& scenario_mca) {
  validation::PlotSpec spec;
  spec.svg = svg;
  spec.caption = run_caption(res, scenario_mca);
  spec.xcol = rp.x;
  spec.ycol = "time_s";
  spec.logx = spec.logy = false;
  spec.title = run_title(res);
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

// `run --plot` of a committed scenario that a reference file reads: its reference values on the run's curve as
// reproduce's figure draws them (overlay_marks: the paper's points as filled circles, a peak without a size as a dashed
// line), those on the run's x axis (a size or a rank count), in an inline datablock; the caption says what they are.
// Nothing for any other scenario (a copy of a committed file included: its values may no longer be the paper's run).
void overlay_reference(const std::string& scenario_file, validation::PlotSpec& spec, validation::PlotCurve& pc) {
  const std::string rel = validation::committed_scenario(scenario_file);
  if (rel.empty()) return;
  std::vector<Json> docs;
  for (auto& f : validation::reference_files(""))
    if (Json d = load_json_file(f); validation::scenarios_named(d).count(rel)) docs.push_back(std::move(d));
  const auto marks = validation::reference_marks(docs);
  const auto it = marks.find(std::filesystem::path(rel).stem().string());
  if (it == marks.end()) return;
  std::vector<validation::RefMark> on_axis;
  for (const auto& m : it->second)
    if (m.line || m.axis == spec.xcol) on_axis.push_back(m);
  validation::CaptionInput cap;
  if (const std::string pts = validation::overlay_marks(on_axis, spec.ycol, pc, cap); !pts.empty()) {
    pc.ref = "$ref";
    spec.inline_data += "$ref << EOD\n" + pts + "EOD\n";
  }
  for (auto& line : validation::figure_caption(cap, {}, Json::object())) spec.caption.push_back(line);
}

// `run --plot NAME.svg`: the run's main metric against its x axis, data inline in the script (nothing else written);
// under the frame, what the run changed from the machine's and components' values (run_caption); for a committed
// scenario, its reference values (overlay_reference). False when gnuplot fails or is missing.
bool draw_run(const Json& res, const OutputDir& out, const std::string& svg, const Scenario& s) {
  const Json& scenario_mca = s.mca;
  const Json& pts = res["points"];
  const bench::DriverInfo* d = bench::driver_registry().find(res.value("benchmark", ""));
  if (d && !d->curve && d->row_plot && !pts.empty()) return draw_rows(res, *d->row_plot, out, svg, scenario_mca);
  if (pts.empty() || (d && !d->curve)) throw InputError("--plot", svg, "this benchmark has no curve to plot");
  const Json& p0 = pts[0];
  std::string x = p0.contains("bytes") ? "bytes" : p0.contains("radix") && res.contains("radix") ? "radix" : "ranks";
  // the scenario's "plot" (checked against the result), else the main metric the result has
  std::string y = !s.plot.empty()               ? s.plot
                  : p0.contains("latency_us")       ? "latency_us"
                  : p0.contains("availability_pct") ? "availability_pct"
                                                    : "bandwidth_GBps";
  validation::PlotSpec spec;
  spec.svg = svg;
  spec.caption = run_caption(res, scenario_mca);
  spec.xcol = x;
  spec.ycol = y;
  spec.title = run_title(res);
  std::string block = "$run << EOD\n" + x + "," + y + "\n";
  for (auto& p : pts) block += fmt::format("{},{}\n", std::max(p[x].get<double>(), 1.0), p[y].get<double>());
  spec.inline_data = block + "EOD\n";
  validation::PlotCurve pc{"$run", res.value("stack", ""), ""};
  overlay_reference(s.file, spec, pc);
  spec.curves.push_back(pc);
  return plot_inline(spec, out, svg);
}

struct RunOptions {
  std::string scen_file, out_dir, machine_file, plot_file, engine;
  std::vector<std::string> sets;
  bool as_json = false;
  std::string trace_file, trace_ranks, trace_window;
};

// --trace and its filters, checked; nullptr without --trace. A relative path is resolved inside --out later.
std::unique_ptr<TraceRequest> trace_request(const RunOptions& o) {
  if (o.trace_file.empty()) {
    if (!o.trace_ranks.empty() || !o.trace_window.empty())
      throw InputError(o.trace_ranks.empty() ? "--trace-window" : "--trace-ranks",
                       o.trace_ranks.empty() ? o.trace_window : o.trace_ranks,
                       "selects what --trace writes: give --trace FILE");
    return nullptr;
  }
  if (o.trace_file.front() == '/') {  // relative: inside --out, checked below
    check_trace_path(o.trace_file);
    refuse_inside_data(o.trace_file, "--trace");
  } else {
    (void)trace_format_of(o.trace_file, "--trace");
  }
  auto trace = std::make_unique<TraceRequest>();
  trace->path = o.trace_file;
  trace->ranks_text = o.trace_ranks;
  if (!o.trace_ranks.empty()) trace->filter.ranks = parse_rank_list(o.trace_ranks, "--trace-ranks");
  if (!o.trace_window.empty())
    std::tie(trace->filter.t0, trace->filter.t1) = parse_time_window(o.trace_window, "--trace-window");
  return trace;
}

// Without --out: ompisim-out/<id>/ for the scenario as written; a what-if (--set, --machine-file, an --engine other
// than the scenario's) gets its own folder, ompisim-out/<id>-whatif-<8 hex digits>/, named by a hash of the parsed
// --set values (each parameter by its path on the machine, canonical_sets: `bte_bandwidth` is `nic.bte_bandwidth`;
// sorted; `a = 1` and `mca.a=1` are `a=1`), the engine and the machine file's parsed contents, so it never
// replaces the plain run's result and the same what-if lands in the same folder again.
std::string default_out_dir(const std::string& id, const RunOptions& o, const Overrides& sets,
                            const std::string& scenario_engine) {
  const bool engine = !o.engine.empty() && o.engine != scenario_engine;
  if (sets.empty() && o.machine_file.empty() && !engine) return kDefaultOutRoot + id;
  std::vector<std::string> words;
  for (auto& [k, v] : sets) words.push_back(k + "=" + v);
  std::sort(words.begin(), words.end());
  std::string key = fmt::format("{}", fmt::join(words, "\n"));
  if (engine) key += "\nengine\n" + o.engine;
  if (!o.machine_file.empty()) key += "\nmachine-file\n" + load_json_file(o.machine_file).dump();
  return kDefaultOutRoot + fmt::format("{}-whatif-{:08x}", id, fnv1a(key) & 0xffffffffULL);
}

// The scenario file whose result DIR/<id>.json holds when it is another than this run's ("" otherwise, or when it is no
// result this tool wrote): an explicit --out is the user's folder, so its result is replaced, and the run says so.
std::string other_result_in(const std::string& dir, const std::string& id, const Scenario& s) {
  std::error_code ec;
  const std::string existing = dir + "/" + id + ".json";
  if (!std::filesystem::is_regular_file(existing, ec)) return {};
  try {
    const std::string theirs = load_json_file(existing).value("/provenance/scenario_file"_json_pointer, std::string());
    return theirs == provenance_path(s.file) ? std::string() : theirs;
  } catch (const std::exception&) {
    return {};
  }
}

// Two scenario files with one id (a copy of a paper's scenario, edited) would share ompisim-out/<id>/, the second
// replacing the first's result: when the folder holds a result of another scenario file, this run takes
// <folder>-<8 hex digits of its own file's path>; `why` says so, printed once the result is written (a run that fails
// its checks writes nothing and says nothing of a folder).
std::string own_default_dir(const std::string& dir, const std::string& id, const Scenario& s, std::string& why) {
  const std::string theirs = other_result_in(dir, id, s);
  if (theirs.empty()) return dir;  // none, this file's, or not a result this tool wrote (refuse_overwriting decides)
  const std::string other = fmt::format("{}-{:08x}", dir, fnv1a(provenance_path(s.file)) & 0xffffffffULL);
  why = fmt::format("ompisim: {}/ holds the result of {}, another scenario with id '{}': wrote into {}/ instead\n",
                    dir, theirs, id, other);
  return other;
}

int run_command(const CLI::App& sub, const RunOptions& opt, Context& ctx) {
  refuse_empty_values(sub, {"--out", "--plot", "--trace", "--trace-ranks", "--trace-window", "--machine-file", "--engine"});
  Scenario s = load_scenario(opt.scen_file);
  check_paper_name(s);
  const std::string scenario_engine = s.engine;
  set_engine(s, opt.engine);
  if (!opt.machine_file.empty()) refuse_not_machine_file(opt.machine_file);
  s.machine_file = opt.machine_file;
  Overrides o = parse_sets(opt.sets);
  check_sets_read(s, o);
  check_run_input(s, o);  // what the run would refuse (ranks that do not fit, ...) before its size is weighed
  use_machine_collectives(s);  // the estimate's caveat weighs the algorithms the run will use
  check_max_events(s, ctx.max_events, "scenario " + s.id, ctx.max_events_text);
  const std::string caveat = estimate_caveat(s);
  if (const double e = estimate_events(s);
      !ctx.quiet && (((e > kEventsWorthSaying || !caveat.empty()) && isatty(STDERR_FILENO)) || e > kEventsAlwaysSaid)) {
    std::cerr << fmt::format("ompisim: scenario {}: {} (--max-events N refuses such a run)\n", s.id,
                             estimate_text(s, e));
    if (const std::string hint = engine_hint(s, e); !hint.empty()) std::cerr << "ompisim: " << hint << "\n";
    if (!caveat.empty()) std::cerr << "ompisim: " << caveat << "\n";
  }
  std::string out_dir = opt.out_dir, other_dir_why;
  if (out_dir.empty()) {
    out_dir = own_default_dir(default_out_dir(s.id, opt, canonical_sets(s, o), scenario_engine), s.id, s, other_dir_why);
  } else if (const std::string theirs = other_result_in(out_dir, s.id, s); !theirs.empty()) {
    other_dir_why = fmt::format("ompisim: replaced {}/{}.json and its CSV, the result of another scenario file ({}) "
                                "with the same id; other files in {}/ (a plot, a trace) are left as they were\n",
                                out_dir, s.id, theirs, out_dir);
  }
  const std::string& plot_file = opt.plot_file;
  if (!plot_file.empty()) {
    if (!plot_file.ends_with(".svg")) throw InputError("--plot", plot_file, "expected a file name ending in .svg");
    if (plot_file.front() == '/') {
      check_output_path(plot_file, "--plot");
      refuse_inside_data(plot_file, "--plot");
    }
  }
  std::unique_ptr<TraceRequest> trace = trace_request(opt);
  ctx.out = output_dir(out_dir);
  const OutputDir& out = *ctx.out;
  // Output paths (one rule): a relative --plot or --trace is inside --out, an absolute one is written as given.
  if (!plot_file.empty() && plot_file.front() != '/') (void)out.file(plot_file, "--plot");  // checked now
  if (trace && opt.trace_file.front() != '/') {
    trace->path = out.file(opt.trace_file, "--trace");
    check_trace_path(trace->path);
  }
  // A scenario of several points (rank counts, barrier radices) writes one trace per point, beside the path given.
  const std::vector<std::string> trace_paths = trace ? point_trace_paths(s, trace->path) : std::vector<std::string>{};
  for (const std::string& p : trace_paths) check_trace_path(p);
  const std::string json_path = out.file(s.id + ".json"), csv_path = out.file(s.id + ".csv");
  {
    std::vector<NamedPath> outputs{{"--out", json_path}, {"--out", csv_path}};
    if (!plot_file.empty()) outputs.push_back({"--plot", plot_file.front() == '/' ? plot_file : out.file(plot_file)});
    for (const std::string& p : trace_paths) outputs.push_back({"--trace", p});
    refuse_overwriting({{"scenario", opt.scen_file}, {"--machine-file", opt.machine_file}}, outputs);
  }
  for (const std::string& p : trace_paths) {
    remove_stale_temporaries(p);  // what a killed run (SIGKILL of this command) left for the same trace
    add_child_temporary(p);       // removed if its simulation is killed first
  }
  // The simulation runs in a child process: this one stays free of SimGrid and handles SIGINT / SIGTERM. A traced
  // scenario of several points runs each point in a child of this process (run_scenario), so that the temporary trace
  // of a point interrupted is its child's, which this process removes.
  Json res = trace_paths.size() > 1 ? run_scenario(s, o, trace.get())
                                    : Json::parse(run_isolated([&] { return run_scenario(s, o, trace.get()).dump(); }));
  progress::clear();
  check_plot_field(s, res);  // a "plot" the result does not have: exit 2 before anything is written
  publish_pair(json_path, res.dump(2) + "\n", csv_path, result_csv(res));
  std::vector<std::string> wrote{json_path, csv_path};
  if (!plot_file.empty()) {
    std::string svg = plot_file.front() == '/' ? plot_file : out.file(plot_file);
    if (!draw_run(res, out, plot_file, s)) throw std::runtime_error("gnuplot failed (or is not installed) for --plot");
    wrote.push_back(svg);
  }
  if (opt.as_json) std::cout << res.dump(2) << "\n";
  else std::cout << result_table(res, s.mca);
  for (const auto& w : override_warnings(res)) std::cerr << "ompisim: warning: " << w << "\n";
  note_machine_swap(s.machine, s.stack, opt.machine_file);  // after the run: an input error stays one line
  if (!opt.machine_file.empty()) warn_shadowed_machine(opt.machine_file);
  std::cerr << other_dir_why << fmt::format("ompisim: wrote {}\n", fmt::join(wrote, ", "));
  // A file of one's own (a copy of a shipped scenario, renamed) whose "id" is not its name: its results take the id.
  if (const std::string stem = std::filesystem::path(s.file).stem().string();
      s.id != stem && validation::committed_scenario(s.file).empty())
    std::cerr << fmt::format("ompisim: the results are named by the scenario's \"id\" ('{}'), not by its file name "
                             "('{}'): edit \"id\" to rename them\n", s.id, stem);
  return 0;
}

}  // namespace

void add_run(CLI::App& app, Context& ctx) {
  auto [run, opt] = ctx.command(app, "run", "run one scenario", run_command);
  run->add_option("scenario", opt->scen_file, "scenario JSON file")->required();
  add_scenario_overrides(*run, opt->sets, &opt->engine, "the scenario");
  run->add_option("--out", opt->out_dir,
                  "folder for the result files <id>.json and <id>.csv, created and checked before the run (default: "
                  "ompisim-out/<id>/ under the current directory, and ompisim-out/<id>-whatif-<8 hex digits>/ for a run with "
                  "--set, --machine-file or another --engine, named by their hash; never results/, which holds the "
                  "committed results); a symlinked folder is resolved once and written into");
  run->add_flag("--json", opt->as_json, "print the result as JSON on stdout");
  run->add_option("--machine-file", opt->machine_file,
                  "machine file to use instead of looking up the scenario's machine name in models/*/machines/");
  run->add_option("--plot", opt->plot_file,
                  "also draw the run as an SVG (a relative name is written into the --out folder, an absolute path where it "
                  "says); for a committed scenario "
                  "a reference file reads, with the paper's values (or the public measurements) as reproduce's "
                  "figure draws them");
  run->add_option("--trace", opt->trace_file,
                  "write the protocol timeline: FILE.paje (Paje: ViTE, pj_dump) or FILE.json (Chrome trace events: "
                  "Perfetto); CPU spans per rank, NIC engines, bulk flows, messages and AMOs; a relative FILE is "
                  "written into the --out folder, as --plot's; a scenario of several points (rank counts, barrier radices) "
                  "writes one per point, FILE's name with -ranks<N> and -radix<R> where they vary");
  run->add_option("--trace-ranks", opt->trace_ranks, "trace only these ranks (and their nodes' NICs), e.g. 0-15,1024");
  run->add_option("--trace-window", opt->trace_window, "trace only this interval of simulated time, e.g. 10us:50us");
}

}  // namespace ompisim::cli
