// The main job: every scenario into results/<scenario>.{json,csv}, one SVG per figure (gnuplot) overlaying the
// papers' reference points on the simulated curves, and results/validation.md; or one paper's (reproduce --paper).
#include "core/atomic_write.hpp"
#include "core/progress.hpp"
#include "core/safe_name.hpp"
#include "core/signals.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "validation/curve_labels.hpp"
#include "validation/plot.hpp"
#include "validation/plot_overlays.hpp"
#include "validation/validate.hpp"

#include <algorithm>
#include <cctype>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace ompisim::validation {

namespace {
// A clustered bar chart of <key>.csv (its first row names the columns): writes <key>.gp and, with gnuplot, <key>.svg.
// `key_pos`, `title` and `ylabel` are gnuplot's, `extra` the chart's own settings lines, `columns` what follows
// "plot '<key>.csv' ". Paths in the script are relative to the output folder it runs in.
void write_bar_chart(const OutputDir& out, const std::string& key, const std::string& key_pos, const std::string& title,
                     const std::string& ylabel, const std::string& extra, const std::string& columns, bool have_gnuplot) {
  const std::string svg = key + ".svg";
  std::string gp = fmt::format(
      "set terminal svg size 900,600 dynamic noenhanced background '#ffffff'\nset output '{}.tmp'\n"
      "set datafile separator ','\nset key {}\nset grid ytics\nset title {}\n"
      "set ylabel '{}'\nset style data histograms\nset style histogram clustered gap 1\n"
      "set style fill solid 0.8 border -1\n{}set datafile columnheaders\n"
      "plot '{}.csv' {}\n",
      svg, key_pos, gp_quote(title), ylabel, extra, key, columns);
  write_atomic(out.file(key + ".gp"), gp);
  if (have_gnuplot && !run_gnuplot(out.root(), key + ".gp", svg)) std::cerr << "reproduce: gnuplot failed for " << key << "\n";
}

// Fig. 5 of the seastar-portals paper (application run times): one clustered bar per application, the run time of each
// stack relative to Open MPI CM, simulated next to the paper's (the reference file's 'applications' entries).
// Writes <key>.csv (the table) and, with gnuplot, <key>.svg.
void plot_app_runtimes(const OutputDir& out, const std::string& key, const std::string& title,
                       const std::map<std::string, Json>& results, bool have_gnuplot) {
  std::map<std::string, std::map<std::string, double>> sim;  // app -> stack -> runtime_s
  for (auto& [id, res] : results)
    for (auto& p : res["points"]) sim[p["app"].get<std::string>()][res["stack"].get<std::string>()] = p["runtime_s"];
  std::map<std::string, Json> paper;
  for (auto& f : reference_files(""))
    for (auto& a : load_json_file(f).value("applications", Json::array()))
      if (a.contains("relative_runtime_vs_cm")) paper[a["app"].get<std::string>()] = a["relative_runtime_vs_cm"];
  std::string csv = "app,cm_runtime_s,native_runtime_s,ob1_runtime_s,native_vs_cm,ob1_vs_cm,paper_native_vs_cm,paper_ob1_vs_cm\n";
  for (auto& entry : sim) {
    const std::string& app = entry.first;  // not a structured binding: clang 14 cannot capture those in a lambda
    auto& st = entry.second;
    if (!st.count("openmpi-cm") || !st.count("native") || !st.count("openmpi-ob1")) continue;
    double cm = st["openmpi-cm"];
    auto pv = [&](const char* k) { return paper.count(app) ? fmt::format("{:.4f}", paper[app].value(k, 0.0)) : std::string(""); };
    csv += fmt::format("{},{:.6g},{:.6g},{:.6g},{:.4f},{:.4f},{},{}\n", app, cm, st["native"], st["openmpi-ob1"],
                       st["native"] / cm, st["openmpi-ob1"] / cm, pv("native"), pv("openmpi-ob1"));
  }
  write_atomic(out.file(key + ".csv"), csv);
  write_bar_chart(out, key, "top left", title + ": application run time relative to Open MPI CM", "run time / CM run time",
                  "set yrange [0.8:*]\n",
                  "using 5:xtic(1) title 'Cray MPI (simulated)' lc rgb '#6a3d9a', "
                  "'' using 6 title 'OB1 (simulated)' lc rgb '#1b9e77', "
                  "'' using 7 title 'Cray MPI (paper)' lc rgb '#cab2d6', '' using 8 title 'OB1 (paper)' lc rgb '#a6dba0'",
                  have_gnuplot);
}

// A table of run times (heterogeneous Table 2): one bar per scenario, its simulated run time next to the paper's
// (the reference points of that scenario; none for a held-out or what-if row), named on the x axis by `names` (a
// scenario id -> its words, cut into lines of at most 28 characters). Writes <key>.csv and, with gnuplot, <key>.svg.
void plot_runtime_bars(const OutputDir& out, const std::string& key, const std::string& title,
                       const std::map<std::string, std::string>& names, const std::map<std::string, Json>& results,
                       const std::map<std::string, std::vector<std::pair<double, double>>>& refs, bool have_gnuplot) {
  std::string csv = "scenario,stack,runtime_s,paper_runtime_s\n";
  double lo = INFINITY, hi = 0;  // the bars' heights: the y range from 0 with room above the highest (and the key)
  for (auto& [id, res] : results) {
    auto it = refs.find(id);
    for (double v : {res["points"][0]["runtime_s"].get<double>(), it == refs.end() ? NAN : it->second.front().second})
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    csv += fmt::format("{},{},{:.6g},{}\n", id, res["stack"].get<std::string>(),
                       res["points"][0]["runtime_s"].get<double>(),
                       it == refs.end() ? std::string("") : fmt::format("{:.6g}", it->second.front().second));
  }
  write_atomic(out.file(key + ".csv"), csv);
  const YRange r = hi > 0 ? plot_y_range(lo, hi, false, 0.1, true) : YRange{};
  // The tick label of a row: its scenario's words (a gnuplot function of the CSV's first column, the id).
  std::string name = "name(id) = ";
  std::size_t rows = 1;  // the most lines of a tick label: the bottom margin holds them
  for (auto& [id, words] : names) {
    const auto lines = wrap_words(words, 28);
    rows = std::max(rows, lines.size());
    name += fmt::format("id eq {} ? {} : ", gp_quote(id), gp_quote_lines(lines));
  }
  name += fmt::format("id\nset bmargin {}\n", 2 + rows);
  write_bar_chart(out, key, "top right", title + ": run time (s)", "run time (s)",
                  (hi > 0 ? fmt::format("set yrange [0:{:.6g}]\n", r.hi) : std::string("set yrange [0:*]\n")) + name,
                  "using 3:xtic(name(stringcolumn(1))) title 'simulated' lc rgb '#1b9e77', "
                  "'' using 4 title 'paper' lc rgb '#d95f02'",
                  have_gnuplot);
}

// The figure's title: paper and figure name, then what the scenario descriptions share without their trailing stack
// name (the curves name the stacks) when that fits on two lines of the title; a longer shared description goes into
// `lines`, the first lines of the caption under the plot.
std::string caption(const Scenario& s, const std::vector<std::string>& descriptions, std::vector<std::string>& lines) {
  std::vector<std::string> ds;
  for (std::string d : descriptions) {
    // The descriptions end in the stack's name (", openmpi", ", Cray MPI"): a last segment without digits or brackets.
    std::size_t cut = d.rfind(", ");
    if (cut != std::string::npos && d.find_first_of("0123456789()", cut) == std::string::npos) d.resize(cut);
    ds.push_back(d);
  }
  const std::string d = common_description(ds);  // what all the figure's curves share
  std::string fig = s.figure.empty() ? s.id : s.figure;
  if (fig.starts_with("fig")) fig = "Fig. " + fig.substr(3);
  std::string title = fmt::format("{}{}", s.paper.empty() ? "" : s.paper + ", ", fig);
  constexpr std::size_t kTitleLines = 2 * 90;  // two lines of plot.cpp's title_lines (95 characters, cut at a space)
  if (d.empty()) return title;
  if (title.size() + 2 + d.size() <= kTitleLines) return title + ": " + d;
  for (auto& l : wrap_words(d, 150)) lines.push_back(l);
  return title;
}

struct Curve {
  std::string id, label, csv, xcol, ycol;
  std::string rel;               // the scenario file, "scenarios/<paper>/<id>.json" (claims name scenarios so)
  std::string falls;             // where its latency falls with message size (latency_falls), "" when nowhere
  std::string machine, routing;  // named in the label when a figure's curves differ in them (what-if machines)
  Scenario scenario;              // for the qualifiers of curves that still share a label (distinguish_labels)
  std::vector<std::pair<double, double>> points = {};  // (x, y) of the result: coinciding curves, one-size figures
  std::string block = {};  // the curve's rows as an inline datablock when it is one axis value of its CSV ("$name")
};

// What a figure's plot shows beside its curves (plot_overlays.hpp), computed once for every figure.
struct Overlays {
  std::map<std::string, std::vector<RefMark>> marks;                   // per scenario id: reference values
  std::map<std::string, std::vector<std::array<double, 4>>> intervals;  // per scenario id: intervals with a width
  const std::vector<Json>& docs;                                        // the reference files (their claims)
  const Json& v;                                                        // validate's result (claim status)
};

// One figure: its reference and interval files beside the curves' CSVs, its script and, with gnuplot, its SVG.
void plot_figure(const OutputDir& out, const std::string& key, const std::vector<Curve>& curves,
                 const std::vector<std::string>& descriptions, const Overlays& o, bool gnuplot,
                 std::set<std::string>& written) {
  written.insert({key + ".svg", key + ".gp"});
  PlotSpec spec;
  spec.svg = key + ".svg";
  std::vector<std::string> shared;  // a shared description too long for the title
  spec.title = caption(curves[0].scenario, descriptions, shared);
  spec.xcol = curves[0].xcol;
  spec.ycol = curves[0].ycol;
  spec.logy = !spec.ycol.ends_with("_pct");  // a share (CPU availability) on a linear axis from 0
  CaptionInput cap;
  const std::string& figure = curves[0].scenario.figure;
  cap.paper = curves[0].scenario.paper;
  cap.figure = figure;
  cap.paper_figure = figure.starts_with("Fig") || figure.starts_with("Table") || figure.starts_with("fig");
  for (auto& c : curves) {
    cap.scenarios.push_back(c.rel);
    if (!c.falls.empty()) cap.falls.push_back(c.label + ": " + c.falls);
    PlotCurve pc{c.csv, c.label, ""};
    pc.points = c.points;
    spec.inline_data += c.block;
    std::string pts;
    if (auto it = o.marks.find(c.id); it != o.marks.end()) pts = overlay_marks(it->second, spec.ycol, pc, cap);
    if (!pts.empty()) {
      pc.ref = key + "." + c.id + ".ref.dat";
      write_atomic(out.file(pc.ref), pts);
      written.insert(pc.ref);
    }
    if (auto iv = o.intervals.find(c.id); iv != o.intervals.end()) {
      cap.intervals = true;
      std::string bars;
      for (auto& [x, y, lo, hi] : iv->second) bars += fmt::format("{},{},{},{}\n", x, y, lo, hi);
      pc.interval_points = iv->second;
      pc.interval = key + "." + c.id + ".interval.dat";
      write_atomic(out.file(pc.interval), bars);
      written.insert(pc.interval);
    }
    spec.curves.push_back(pc);
  }
  spec.caption = shared;
  for (auto& l : figure_caption(cap, o.docs, o.v)) spec.caption.push_back(l);
  write_atomic(out.file(key + ".gp"), gnuplot_script(spec));
  if (gnuplot && !run_gnuplot(out.root(), key + ".gp", spec.svg)) std::cerr << "reproduce: gnuplot failed for " << key << "\n";
}

// Each folder reproduce plots into lists the plot files it wrote there (list_plots, plot.hpp). A plot file that the
// previous list names and this run did not write (a figure renamed or removed since) is removed; a plot file (.svg,
// .gp, .ref.dat, .interval.dat) that no list names is someone else's: left, and named on stderr. Other files stay.
void remove_stale_plots(const OutputDir& out, const std::set<std::string>& written) {
  std::map<fs::path, std::set<std::string>> mine;  // folder -> the plot files written there now
  for (const auto& w : written) mine[fs::path(w).parent_path()].insert(fs::path(w).filename().string());
  for (const auto& [rel_dir, names] : mine) {
    const fs::path dir = fs::path(out.root()) / rel_dir;
    const std::set<std::string> before = plots_listed(dir.string());
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      const bool plot = name.ends_with(".svg") || name.ends_with(".gp") || name.ends_with(".ref.dat") ||
                        name.ends_with(".interval.dat");
      if (!plot || names.count(name) || !e.is_regular_file()) continue;
      if (before.count(name)) fs::remove(e.path());
      else std::cerr << "reproduce: left " << (rel_dir / name).generic_string() << " (not a plot reproduce wrote)\n";
    }
    list_plots(out, rel_dir.generic_string(), names);
  }
}

// A result read by --from, checked for what reproduce reads of it: an object with a non-empty "points" list of
// objects, "ranks" a count or a list of counts, the points' bytes, ranks and plotted metrics finite numbers.
// InputError(file, key, reason) otherwise.
Json read_result(const std::string& file, const std::string& plot) {
  Json r = load_json_file(file);
  auto bad = [&](const std::string& key, const std::string& why) { throw InputError(file, key, why); };
  if (!r.is_object()) bad("(top level)", "not an ompisim result (an object with \"points\")");
  check_result_points(r, file, "points");
  if (!r.contains("ranks")) bad("ranks", "missing");
  const Json& rk = r["ranks"];
  if (!rk.is_number_integer() && !(rk.is_array() && !rk.empty() &&
                                   std::all_of(rk.begin(), rk.end(), [](const Json& x) { return x.is_number_integer(); })))
    bad("ranks", "must be a rank count or a non-empty list of them");
  for (const char* k : {"scenario", "machine", "stack", "benchmark"})
    if (r.contains(k) && !r[k].is_string()) bad(k, "must be a string");
  if (!r.contains("stack")) bad("stack", "missing (the stack the result was run on)");
  if (r.contains("provenance") && !r["provenance"].is_object()) bad("provenance", "must be an object");
  const Json& pts = r["points"];
  for (std::size_t i = 0; i < pts.size(); ++i) {
    for (const std::string& k : {std::string("bytes"), std::string("ranks"), std::string("latency_us"),
                                std::string("bandwidth_GBps"), std::string("availability_pct"), plot})
      if (!k.empty() && pts[i].contains(k) && !(pts[i][k].is_number() && std::isfinite(pts[i][k].get<double>())))
        bad(fmt::format("points[{}].{}", i, k), "must be a finite number");
    if (!plot.empty() && !pts[i].contains(plot)) bad(fmt::format("points[{}].{}", i, plot), "missing (the value plotted)");
    if (pts[i].contains("app") && !pts[i]["app"].is_string()) bad(fmt::format("points[{}].app", i), "must be a string");
  }
  // an application's run time table reads each point's run time and application
  // (and with the seastar paper's Table 1 row, its application's name)
  const bool table1 = pts[0].contains("paper_mpi_time_pct");
  if (table1 || pts[0].contains("app") || plot == "runtime_s")
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (!pts[i].contains("runtime_s")) bad(fmt::format("points[{}].runtime_s", i), "missing (an application's run time)");
      if (table1 && !pts[i].contains("app")) bad(fmt::format("points[{}].app", i), "missing (the application's name)");
    }
  return r;
}

}  // namespace

// A result's curves: one, with its (x, y) points; or, when the benchmark's own axis (a radix list) varies beside the
// process counts on x, one per axis value, each labelled with it and drawn from an inline datablock of its rows (the
// CSV holds them all, and one line through them would join different radices at one process count).
std::vector<Curve> axis_curves(const Curve& all, const Scenario& s, const Json& pts) {
  auto xy = [&](const Json& p, std::vector<std::pair<double, double>>& out) {
    if (p.contains(all.xcol) && p.contains(all.ycol) && p[all.xcol].is_number() && p[all.ycol].is_number())
      out.push_back({p[all.xcol].get<double>(), p[all.ycol].get<double>()});
  };
  const std::string axis = s.driver->axis();
  if (s.driver->axis_values().size() <= 1 || axis == all.xcol) {
    Curve c = all;
    for (const auto& p : pts) xy(p, c.points);
    return {c};
  }
  std::vector<Curve> curves;
  for (const Json& value : s.driver->axis_values()) {
    Curve c = all;
    std::string name = "$" + s.id + "_" + axis + "_" + value.dump();
    for (char& ch : name)
      if (ch != '$' && !std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    c.csv = name;
    c.label += fmt::format(" {}={}", axis, value.is_string() ? value.get<std::string>() : value.dump());
    for (const auto& p : pts)
      if (p.contains(axis) && p[axis] == value) xy(p, c.points);
    c.block = fmt::format("{} << EOD\n{},{}\n", name, all.xcol, all.ycol);
    for (auto& [px, py] : c.points) c.block += fmt::format("{},{}\n", px, py);
    c.block += "EOD\n";
    curves.push_back(std::move(c));
  }
  return curves;
}

// One bar chart of application skeletons: with the seastar paper's Table 1 row, run times relative to CM; others, a
// table of run times. The title as the curve figures' (caption: paper, figure, what the descriptions share); a bar
// named by what tells its scenario's description from the others'.
static void plot_app_figure(OutputDir& out, const std::string& key, const std::map<std::string, Json>& results,
                            const std::map<std::string, Scenario>& scs,
                            const std::map<std::string, std::vector<std::pair<double, double>>>& refs, bool gnuplot) {
  bool table1 = true;
  for (auto& [id, res] : results) table1 = table1 && res["points"][0].contains("paper_mpi_time_pct");
  std::vector<std::string> ds, ids, unused;
  for (auto& [id, sc] : scs) ids.push_back(id), ds.push_back(sc.description);
  const std::string title = caption(scs.begin()->second, ds, unused);
  std::map<std::string, std::string> names;
  const std::vector<std::string> tails = label_tails(ds);
  for (std::size_t i = 0; i < ids.size(); ++i) names[ids[i]] = ds[i].empty() ? ids[i] : tails[i];
  if (table1) plot_app_runtimes(out, key, title, results, gnuplot);
  else plot_runtime_bars(out, key, title, names, results, refs, gnuplot);
}

// The validation tables: validation.md (the table, then validation/notes.md) and validation.json; for a partial run
// (reproduce --paper) validation-<paper>.md, whose header says it is partial and which paper, and .json, the full
// tables left as they are.
static void write_tables(const OutputDir& out, const Json& v, const std::string& by, const std::string& paper,
                                std::size_t left_out) {
  const std::string standard =
      "Calibration points are fitted and must lie within their tolerance (exit status 1 otherwise); "
      "predictions are never fitted and are checked against their own tolerance (15 % unless the reference "
      "says otherwise), failing beyond it without changing the exit status; held-out values have no "
      "reference.\n\n";
  if (!paper.empty()) {
    const std::string md =
        fmt::format("# Validation table: paper {} only (partial)\n\nGenerated by `ompisim reproduce --paper {}` ({}). "
                    "Partial: only the scenarios of {} ran, and only the validation rows whose scenarios all ran are "
                    "evaluated ({} row{} of its reference file left out for a scenario that did not run); the exit "
                    "status is that of these rows. The table of every paper is validation.md, written by `ompisim "
                    "reproduce` without --paper; this run leaves it as it is.\n\n",
                    paper, paper, by, paper, left_out, left_out == 1 ? "" : "s") +
        standard + render_table(v);
    write_atomic(out.file("validation-" + paper + ".md"), md);
    write_atomic(out.file("validation-" + paper + ".json"), v.dump(2) + "\n");
    return;
  }
  std::string md = "# Validation table\n\nGenerated by `ompisim reproduce` (" + by + "). " + standard + render_table(v);
  // Hand-written notes (model changes, explanations of oddities), kept beside the reference data.
  if (fs::path notes = fs::path(data_dir()) / "validation" / "notes.md"; fs::exists(notes)) {
    std::ifstream in(notes);
    md += "\n" + std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  write_atomic(out.file("validation.md"), md);
  write_atomic(out.file("validation.json"), v.dump(2) + "\n");
}

// The scenario files a run takes: every one, or those of `paper` (paper_scenarios).
static std::vector<std::string> files_of(const std::string& paper) {
  if (paper.empty()) return scenario_files();
  std::vector<std::string> out;
  for (const ScenarioEntry& e : paper_scenarios(paper)) out.push_back(e.rel);
  return out;
}

// --from: every file the redraw reads, read and checked as the redraw reads it, before anything is written (a bad file
// found half-way would leave the output folder half redrawn): the results by scenario path, and validation.json.
struct FromFolder {
  std::map<std::string, Json> results;
  Json validation;
};
static FromFolder read_from(const std::string& from_dir) {
  FromFolder f;
  for (const std::string& rel : files_of("")) {
    const Scenario s = load_scenario(data_dir() + "/" + rel);
    Json res = read_result((fs::path(from_dir) / fs::path(rel).parent_path().filename() / (s.id + ".json")).string(), s.plot);
    check_plot_field(s, res);
    f.results.emplace(rel, std::move(res));
  }
  const std::string vf = (fs::path(from_dir) / "validation.json").string();
  f.validation = load_json_file(vf);
  const Json& v = f.validation;
  for (const char* k : {"points", "held_out", "claims"})
    if (!v.is_object() || !v.contains(k) || !v[k].is_array()) throw InputError(vf, k, "must be a list (the table validate writes)");
  std::vector<Json> docs;
  for (auto& file : reference_files("")) docs.push_back(load_json_file(file));
  try {  // what the tables and the intervals' overlays read of it
    (void)render_table(v);
    (void)interval_marks(docs, v);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(vf, "(table)", std::string("not as validate writes it: ") + e.what());
  }
  return f;
}

// Where a scenario's result goes, relative to the output folder: <its folder's name>/<its id>.
static std::string result_base(const std::string& rel, const Scenario& s) {
  return fs::path(rel).parent_path().filename().string() + "/" + s.id;
}

// Every scenario's result, `jobs` at once (or read --from a results folder), each written whole into `out` as it
// finishes (an interrupted run keeps those), in `results` by index and in `done` by scenario path.
static void run_all(const std::vector<std::string>& files, const std::vector<Scenario>& scenarios, const FromFolder* from,
                    int jobs, const OutputDir& out, std::vector<Json>& results, std::map<std::string, Json>& done) {
  results.assign(files.size(), Json());
  auto publish = [&](std::size_t i, Json res) {
    const std::string base = result_base(files[i], scenarios[i]);
    publish_pair(out.file(base + ".json"), res.dump(2) + "\n", out.file(base + ".csv"), result_csv(res));
    done[files[i]] = res;
    results[i] = std::move(res);
  };
  if (from) {
    for (std::size_t i = 0; i < files.size(); ++i) publish(i, from->results.at(files[i]));
    return;
  }
  std::size_t started = 0;
  run_isolated_each(
      files.size(), [&](std::size_t i) { return run_scenario(scenarios[i], {}).dump(); }, jobs,
      [&](std::size_t i) {
        if (progress::enabled()) progress::points(started++, files.size(), files[i]);  // the line names it
        else if (!progress::quiet()) std::cerr << "reproduce: " << files[i] << "\n";  // a log's line, unless --quiet
      },
      [&](std::size_t i, const std::string& text) { publish(i, Json::parse(text)); });
}

// Curves of one figure that differ in their machine (a what-if machine file) or route policy say which, and labels
// that would read alike name what tells their scenarios apart (distinguish_labels).
static void label_apart(std::map<std::string, std::vector<Curve>>& figures) {
  for (auto& [key, curves] : figures) {
    bool machines = false, routings = false;
    for (auto& c : curves) {
      machines = machines || c.machine != curves[0].machine;
      routings = routings || c.routing != curves[0].routing;
    }
    for (auto& c : curves) {
      if (machines) c.label += " on " + c.machine;
      if (routings) c.label += " routing=" + (c.routing.empty() ? std::string("machine default") : c.routing);
    }
    std::vector<std::string> labels;
    std::vector<const Scenario*> scenarios;
    for (auto& c : curves) labels.push_back(c.label), scenarios.push_back(&c.scenario);
    distinguish_labels(labels, scenarios);
    for (std::size_t i = 0; i < curves.size(); ++i) curves[i].label = labels[i];
  }
}

static int reproduce_into(const std::string& out_dir, const FromFolder* from, const std::string& paper, int jobs) {
  const std::string describe = git_describe();  // once, before this run writes anything (see git_describe)
  OutputDir out(out_dir);
  std::map<std::string, std::vector<Curve>> figures;  // figure key -> curves
  std::map<std::string, std::vector<std::string>> descriptions;  // figure key -> its scenarios' descriptions
  std::map<std::string, std::map<std::string, Json>> app_figures;  // figure key -> scenario id -> result (app_skeleton)
  std::map<std::string, std::map<std::string, Scenario>> app_scenarios;  // figure key -> scenario id -> scenario
  std::map<std::string, Json> done;  // by scenario path: validation reads these instead of running them again
  std::set<std::string> generated_by;  // --from: the git describe of the results read (they were run there)
  const auto files = files_of(paper);
  std::vector<Scenario> scenarios;
  for (const std::string& rel : files) scenarios.push_back(load_scenario(data_dir() + "/" + rel));
  std::vector<Json> results;
  run_all(files, scenarios, from, jobs, out, results, done);
  if (from)
    for (const Json& res : results)
      generated_by.insert(res.value("/provenance/git_describe"_json_pointer, std::string("?")));
  // Then the figures, in the scenarios' order.
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& rel = files[i];
    const Scenario& s = scenarios[i];
    const Json& res = results[i];
    std::string sub = fs::path(rel).parent_path().filename().string();
    std::string base = result_base(rel, s);
    if (!bench::find_driver(s.benchmark, s.file, "benchmark.name").curve) {  // bar chart per figure, below
      const std::string app_key = sub + "/" + (s.figure.empty() ? s.id : figure_file_stem(s.figure, s.file));
      app_figures[app_key][s.id] = res;
      app_scenarios[app_key].emplace(s.id, s);
      continue;
    }
    // x: the rank count where the points have one (a sweep's counts from the result's "ranks") at one message size.
    const Json pts = points_with_ranks(res);
    const Json& p0 = pts[0];
    std::set<double> sizes;
    for (const auto& p : pts)
      if (p.contains("bytes") && p["bytes"].is_number()) sizes.insert(p["bytes"].get<double>());
    std::string x = p0.contains("ranks") && sizes.size() <= 1 ? "ranks" : "bytes";
    if (s.driver->axis_values().size() > 1 && s.ranks.size() == 1) x = s.driver->axis();  // e.g. a radix sweep at one process count
    std::string y = p0.contains("latency_us") ? "latency_us" : "bandwidth_GBps";
    if (p0.contains("availability_pct")) y = "availability_pct";
    if (!s.plot.empty()) {
      check_plot_field(s, res);
      y = s.plot;
    }
    std::string fig = s.figure.empty() ? s.id : figure_file_stem(s.figure, s.file);  // "Fig. 5 D2D" -> fig5_d2d
    // Curve label: stack, benchmark (the algorithm for a barrier), and the rank count unless it is the x axis.
    std::string what = s.driver->label();
    std::string label = s.stack + " " + what + (res["ranks"].is_array() ? "" : " " + res["ranks"].dump() + "p");
    // Scenarios of one figure that differ only in MCA choices (a striping policy, a PTL option) name them.
    for (auto it = s.mca.begin(); it != s.mca.end(); ++it) {
      const Json& v = it.value().is_object() ? it.value()["value"] : it.value();
      label += fmt::format(" {}={}", it.key(), v.is_string() ? v.get<std::string>() : v.dump());
    }
    Curve curve{s.id, label, base + ".csv", x, y, rel,
                y == "latency_us" && x == "bytes" ? latency_falls(res["points"]) : "", s.machine, s.routing, s};
    for (Curve& c : axis_curves(curve, s, pts)) figures[sub + "/" + fig].push_back(std::move(c));
    descriptions[sub + "/" + fig].push_back(s.description);
  }
  // Validation: run (reusing the results above), or read beside the results when they were read.
  std::size_t left_out = 0;  // a partial run's rows that read a scenario it did not run
  Json v = from ? from->validation : paper.empty() ? validate("", {}, &done, jobs) : validate_ran(done, left_out, jobs);
  std::vector<Json> docs;
  for (auto& f : reference_files("")) docs.push_back(load_json_file(f));
  std::map<std::string, std::vector<std::pair<double, double>>> refs;  // run-time bars: the paper's run time
  for (auto& [sid, ms] : reference_marks(docs))
    for (auto& m : ms) refs[sid].push_back({m.x, m.y});
  bool gnuplot = have_gnuplot();
  std::set<std::string> written;  // plot files of this run, relative to the output folder (remove_stale_plots)
  for (auto& [key, results] : app_figures) {
    plot_app_figure(out, key, results, app_scenarios.at(key), refs, gnuplot);
    written.insert({key + ".svg", key + ".gp"});
  }
  label_apart(figures);
  const Overlays overlays{reference_marks(docs), interval_marks(docs, v), docs, v};
  for (auto& [key, curves] : figures) {
    throw_if_interrupted();
    plot_figure(out, key, curves, descriptions[key], overlays, gnuplot, written);
  }
  if (paper.empty()) remove_stale_plots(out, written);
  // Redrawn results were run by the build that wrote them: the table says so, and which build redrew the plots.
  const std::string by = !from ? describe
                                          : fmt::format("{}; redrawn by `ompisim reproduce --from` ({})",
                                                        fmt::join(generated_by, ", "), describe);
  const std::string md_name = paper.empty() ? "validation.md" : "validation-" + paper + ".md";
  write_tables(out, v, by, paper, left_out);
  // On stdout, what a reader looks at first: the per-paper table and the counts, then what was written where (the full
  // table, with every row and reason, is the file).
  std::map<std::string, std::vector<std::string>> svgs;  // by folder
  std::size_t n_svg = 0;
  for (const std::string& w : written)
    if (w.ends_with(".svg") && fs::is_regular_file(fs::path(out.root()) / w)) {
      const fs::path p(w);
      svgs[p.parent_path().string()].push_back(p.filename().string());
      ++n_svg;
    }
  std::string listing;
  for (const auto& [dir, names] : svgs) listing += fmt::format("  {}/: {}\n", dir, fmt::join(names, " "));
  std::cout << fmt::format("# Validation{}\n\n{}\nThe full table, with every row and reason: {}/{}\n"
                           "Written into {}/: {} result{} (JSON and CSV), {} figure{} (SVG{}){}\n{}",
                           paper.empty() ? "" : ": paper " + paper + " only (partial)", render_brief(v), out.root(),
                           md_name, out.root(), done.size(), done.size() == 1 ? "" : "s", n_svg, n_svg == 1 ? "" : "s",
                           gnuplot ? ", with the gnuplot script beside each" : ": gnuplot is not installed, only the "
                                                                              "gnuplot scripts are written",
                           n_svg ? ":" : "", listing);
  return all_calibration_pass(v) ? 0 : 1;
}

int reproduce(const std::string& out_dir, const std::string& from_dir, const std::string& paper, int jobs) {
  if (!paper.empty() && !from_dir.empty())
    throw InputError("--paper", paper, "not with --from: --from redraws every figure of a results folder");
  if (!paper.empty()) (void)reference_files(paper);  // an unknown paper, with the close name, before anything is written
  if (from_dir.empty()) return reproduce_into(out_dir, nullptr, paper, jobs);
  try {
    const FromFolder from = read_from(from_dir);
    return reproduce_into(out_dir, &from, paper, jobs);
  } catch (const nlohmann::json::exception& e) {  // what the checks of the files read leave: still bad input
    throw InputError(from_dir, "(results)", std::string("a file of this folder is not as reproduce writes it: ") + e.what());
  }
}

}  // namespace ompisim::validation
