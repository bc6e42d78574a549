// `ompisim sweep GRID`: a parameter sweep, each point run once (resumable), sharded by --shard, a Slurm array task or
// an MPI launcher's rank; the merged table (sweep.json, sweep.csv, sweep_<axis>.svg) written by the process that merges.
#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/safe_name.hpp"
#include "core/signals.hpp"
#include "runner/estimate.hpp"
#include "runner/isolate.hpp"
#include "runner/sweep.hpp"
#include "tools/ompisim/commands.hpp"
#include "tools/ompisim/mpi_launch.hpp"
#include "validation/sweep_plot.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <set>
#include <unistd.h>

namespace ompisim::cli {
namespace {

// The sweep plots in `dir` that this merge did not draw (an earlier grid's axes in a reused folder, or an axis that
// now has one value) describe a table sweep.json no longer holds: removed when an earlier merge drew them (the folder's
// list of plots, validation::list_plots); returns their paths. A sweep_*.svg no merge drew is not the
// tool's: left, its path added to `left`. The list is then this merge's plots.
std::vector<std::string> remove_stale_plots(const OutputDir& out, const std::string& dir,
                                            const std::vector<std::string>& drawn, std::vector<std::string>& left) {
  namespace fs = std::filesystem;
  const std::set<std::string> before = validation::plots_listed(dir);
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file(ec) || !name.starts_with("sweep_") || !name.ends_with(".svg")) continue;
    if (std::find(drawn.begin(), drawn.end(), name) != drawn.end()) continue;
    if (!before.count(name)) left.push_back(e.path().string());
    else if (fs::remove(e.path(), ec)) removed.push_back(e.path().string());
  }
  validation::list_plots(out, "", std::set<std::string>(drawn.begin(), drawn.end()));
  return removed;
}

struct SweepCommandOptions {
  std::string grid_file, out, shard_spec, engine, machine_file;
  std::vector<std::string> sets;
  int jobs = 1;
  bool merge = false, quiet = false;
};

// Under an MPI launcher with MPI built in: this rank's shard from MPI_Comm_rank / _size, then the ranks' barrier.
// Returns the exit status when this process is done (an error elsewhere, or a rank other than 0), -1 when it merges.
int sweep_mpi(const SweepGrid& g, const SweepCommandOptions& opt, const std::string& dir) {
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = opt.jobs;
  o.progress = !opt.quiet && isatty(2);
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
  std::cerr << fmt::format("ompisim sweep: {} point{}, {} run now (shard {}/{} from MPI_Comm_rank), {} done in {}\n",
                           g.points.size(), g.points.size() == 1 ? "" : "s", ran, comm.rank, comm.size,
                           sweep_points_done(g, dir), dir);
  if (worst != 0) {
    if (comm.rank == 0)
      std::cerr << fmt::format("ompisim sweep: another rank's points failed (its error above, status {}): no merge; "
                               "finished points are kept\n", worst);
    return worst;
  }
  if (comm.rank != 0) return 0;
  return -1;
}

// This process's shard (--shard, a Slurm array task, a launcher's rank without MPI built in, or every point).
// Returns whether this process merges (after waiting for the other shards' points when it is a launcher's rank 0).
bool sweep_local(const SweepGrid& g, const SweepCommandOptions& opt, const std::string& dir) {
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = opt.jobs;
  o.shard = sweep_shard(opt.shard_spec);
  o.progress = !opt.quiet && isatty(2);
  int ran = run_sweep(g, o);
  if (!g.machine_file.empty()) warn_shadowed_machine(g.machine_file);  // after the points: an error stays one line
  std::cerr << fmt::format("ompisim sweep: {} point{}, {} run now{}, {} done in {}\n", g.points.size(),
                           g.points.size() == 1 ? "" : "s", ran,
                           o.shard.count > 1 ? fmt::format(" (shard {}/{} from {})", o.shard.index, o.shard.count,
                                                           o.shard.from)
                                             : "",
                           sweep_points_done(g, dir), dir);
  // One shard per process under an MPI launcher without MPI built in (or srun without PMI): rank 0 waits for the
  // others' point files, then merges. A Slurm array or an explicit --shard leaves the merge to `sweep --merge`.
  bool launcher = o.shard.from != "" && o.shard.from != "--shard" && o.shard.from != "SLURM_ARRAY_TASK_ID";
  bool merge = o.shard.count == 1 || (launcher && o.shard.index == 0);
  while (merge && o.shard.count > 1 && sweep_points_done(g, dir) < static_cast<int>(g.points.size())) {
    throw_if_interrupted();
    usleep(200000);
  }
  // a shard that leaves the merge to `sweep --merge` says what comes next: the merge once every point is done
  if (!merge && !opt.quiet) {
    const int done = sweep_points_done(g, dir), all = static_cast<int>(g.points.size());
    std::cerr << (done == all ? fmt::format("ompisim sweep: every point is done: `ompisim sweep {} --out {} --merge` "
                                            "(with the same --set and --engine) writes sweep.json and sweep.csv\n",
                                            g.file, dir)
                              : fmt::format("ompisim sweep: {} of {} points still to run on the other shards; then "
                                            "`ompisim sweep {} --out {} --merge`\n", all - done, all, g.file, dir));
  }
  return merge;
}

int sweep_command(const CLI::App& sub, const SweepCommandOptions& opt, Context& ctx) {
  refuse_empty_values(sub, {"--out", "--shard", "--engine", "--machine-file"});
  const std::string& grid_file = opt.grid_file;
  if (!opt.machine_file.empty()) refuse_not_machine_file(opt.machine_file);
  SweepGrid g = load_sweep_grid(grid_file, parse_sets(opt.sets), opt.engine, opt.machine_file);
  // Each point within --max-events; a grid whose points add up to hours says so before it starts, wherever stderr
  // goes, as a run does (--max-events bounds each point, not their sum).
  const bool tell = !ctx.quiet && !opt.merge;
  double total = 0;
  for (std::size_t i = 0; i < g.points.size() && (ctx.max_events > 0 || tell); ++i) {
    const Scenario s = scenario_from_json(g.points[i].scenario, g.base_file);
    if (ctx.max_events > 0)
      check_max_events(s, ctx.max_events, fmt::format("{}: point {} of {}", grid_file, i + 1, g.points.size()),
                       ctx.max_events_text);
    if (tell) total += estimate_events(s);
  }
  if (tell) {
    if (total > kEventsAlwaysSaid || (total > kEventsWorthSaying && isatty(STDERR_FILENO)))
      std::cerr << fmt::format("ompisim sweep: {} points, about {:.2g} messages in all, {} of CPU time (at {:.0e} "
                               "messages per CPU second; points already done are not run again; `ompisim describe "
                               "{}` gives the largest point)\n",
                               g.points.size(), total, events_duration(total), kEventsPerSecond, grid_file);
  }
  std::string stem = std::filesystem::path(grid_file).stem().string();
  if (opt.out.empty()) check_safe_name(stem, grid_file, "(file name)");
  ctx.out = output_dir(opt.out.empty() ? kDefaultOutRoot + "sweep-" + stem : opt.out);
  const OutputDir& out = *ctx.out;
  const std::string dir = out.root();
  ctx.kept_note = [points = std::make_shared<SweepGrid>(g), dir] {
    return fmt::format("{} of {} points finished and kept in {}: the same sweep command resumes from them",
                       sweep_points_done(*points, dir), points->points.size(), dir);
  };
  refuse_overwriting({{"grid", grid_file}, {"base scenario", g.base_file}, {"--machine-file", opt.machine_file}},
                     {{"--out", out.file("sweep.json")}, {"--out", out.file("sweep.csv")}});
  bool merge = opt.merge;
  // Under an MPI launcher, with MPI built in and no explicit shard: MPI_Comm_rank / _size give the shard and rank 0
  // merges after the ranks' barrier (tools/ompisim/mpi_launch.hpp; no process that called MPI_Init forks).
  if (!opt.merge && opt.shard_spec.empty() && !std::getenv("SLURM_ARRAY_TASK_ID") && mpi_launch::available() &&
      mpi_launch::launcher_variable()) {
    (void)sweep_shard("");  // the launcher's rank and size variables are refused (exit 2) before MPI_Init if malformed
    if (!mpi_launch::launcher_contact())
      throw InputError(mpi_launch::launcher_variable(), std::getenv(mpi_launch::launcher_variable()),
                       "an MPI launcher's rank variables are set, but none of the variables by which a launcher is "
                       "reached (PMIX_SERVER_URI*, OMPI_MCA_orte_hnp_uri, PMI_FD, PMI_PORT): MPI_Init would wait for a "
                       "launcher that is not there; run under mpirun or srun, or give --shard I/N");
    if (const int status = sweep_mpi(g, opt, dir); status >= 0) return status;
    merge = true;
  } else if (!opt.merge) {
    merge = sweep_local(g, opt, dir);
  }
  if (merge) {
    Json table = merge_sweep(g, dir);
    std::string json_path = out.file("sweep.json"), csv_path = out.file("sweep.csv");
    publish_pair(json_path, table.dump(1) + "\n", csv_path, sweep_csv(table));
    std::vector<std::string> wrote{json_path, csv_path};
    std::vector<std::string> no_plot;
    const std::vector<std::string> drawn = validation::draw_sweep(table, dir, &no_plot);
    for (auto& svg : drawn) wrote.push_back(out.file(svg));
    std::vector<std::string> left;
    const std::vector<std::string> stale = remove_stale_plots(out, dir, drawn, left);
    std::cerr << fmt::format("ompisim sweep: wrote {}\n", fmt::join(wrote, ", "));
    for (auto& f : stale)
      std::cerr << fmt::format("ompisim sweep: removed {}: a plot of an earlier sweep in this folder, not of the table "
                               "sweep.json now holds\n", f);
    for (auto& f : left)
      std::cerr << fmt::format("ompisim sweep: left {}: not a plot a sweep drew here\n", f);
    for (auto& why : no_plot) std::cerr << "ompisim sweep: " << why << "\n";
    for (auto& k : table["provenance"].value("unread_overrides", Json::array()))
      std::cerr << fmt::format("ompisim sweep: warning: {}: no part of any point's run read it (not a parameter of "
                               "the stack's path, or of a mechanism the runs never used), so it changed nothing\n",
                               k.get<std::string>());
  }
  return 0;
}

}  // namespace

void add_sweep(CLI::App& app, Context& ctx) {
  auto [swp, opt] = ctx.command(app, "sweep",
                                "run a parameter sweep: a base scenario and axes over scenario keys, benchmark "
                                "keys, MCA and machine parameters; each point once, resumable; --merge gathers the "
                                "table (`ompisim schema grid` describes the grid file; grids to copy: scenarios/examples/)",
                                sweep_command);
  swp->add_option("grid", opt->grid_file, "grid JSON file")->required();
  CLI::Option* set = add_scenario_overrides(*swp, opt->sets, &opt->engine, "every point");
  // both recorded in sweep.json's provenance and part of each point's input (its hash)
  const std::string same = "; recorded in sweep.json's provenance; give the same to every shard and to --merge";
  set->description(set->get_description() + " (not a key the grid varies: refused)" + same);
  CLI::Option* engine = swp->get_option("--engine");
  engine->description(engine->get_description() + " (not with an \"engine\" axis)" + same);
  swp->add_option("--machine-file", opt->machine_file,
                  "machine file every point runs on, as run --machine-file (a what-if machine: `ompisim machine "
                  "template`); its contents are part of each point's input, so an edited file runs the points again; "
                  "give the same to every shard and to --merge");
  swp->add_option("-j,--jobs", opt->jobs, "points run at once on this machine (each in its own process); default 1")
      ->check(jobs_range());
  swp->add_option("--shard", opt->shard_spec,
                  "run only shard I of N (I/N, 0-based: point k belongs to shard k % N); default: a Slurm array task's "
                  "(SLURM_ARRAY_TASK_ID / _COUNT), or an MPI launcher rank's (mpirun, srun), else every point");
  swp->add_option("--out", opt->out, "the sweep's folder (default: ompisim-out/sweep-<grid file name>/ under the current directory)");
  swp->add_flag("--merge", opt->merge, "only gather the finished points into sweep.json, sweep.csv and sweep_<axis>.svg");
  swp->add_flag("--quiet", opt->quiet, "no progress line on stderr (there is none when stderr is not a terminal)");
}

}  // namespace ompisim::cli
