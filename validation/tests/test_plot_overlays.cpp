// What reproduce's figure plots overlay (validation/plot_overlays.hpp, validation/plot.hpp): reference values placed
// by their size or as a peak line, zero-width intervals without a bar, and a caption on every figure of the papers.
#include "runner/scenario.hpp"
#include "validation/plot.hpp"
#include "validation/plot_overlays.hpp"
#include "validation/validate.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>

using namespace ompisim;
using namespace ompisim::validation;

namespace {
const Json kDoc = Json::parse(R"({
  "points": [
    {"id": "p.lat", "figure": "Fig. 5", "metric": "latency_us", "value": 1.5, "scenario": "scenarios/x/lat.json",
     "select": {"bytes": 8}},
    {"id": "p.peak_at", "figure": "Fig. 4", "metric": "peak_bandwidth_GBps", "value": 15, "bytes": 102400,
     "scenario": "scenarios/x/bw.json", "select": {"peak": true}},
    {"id": "p.peak", "figure": "public", "metric": "peak_bandwidth_GBps", "value": 120, "scenario": "scenarios/x/bw.json",
     "select": {"peak": true}},
    {"id": "p.rate", "figure": "Fig. 4", "metric": "messages_per_s", "value": 1e6, "scenario": "scenarios/x/bw.json",
     "select": {"bytes": 8}}],
  "held_out": [{"id": "h.lat", "scenario": "scenarios/x/lat.json", "select": {"bytes": 1024}}],
  "claims": [{"id": "c.one", "text": "Latency is low (Fig. 5).",
              "check": {"kind": "all_of", "checks": [{"a": {"scenario": "scenarios/x/lat.json"}}]}},
             {"id": "c.other", "text": "Elsewhere.", "check": {"kind": "less_all", "a": "scenarios/x/other.json"}}]
})");
}  // namespace

// Configuration: one reference document with a point at a size, a peak at a size, a peak without one (public), and
//                a point of another metric.
// Expected:      the point and the sized peak are circles at their x, the unsized peak a line marked public; a
//                bandwidth plot leaves out the message-rate point.
// How validated: the marks' fields.
TEST_CASE("reference marks: placed by size, peaks without one as lines, other metrics left out") {
  auto marks = reference_marks({kDoc});
  REQUIRE(marks["lat"].size() == 1);
  CHECK(marks["lat"][0].x == 8);
  CHECK(marks["lat"][0].paper);
  auto bw = marks_for(marks["bw"], "bandwidth_GBps");
  REQUIRE(bw.size() == 2);
  CHECK(!bw[0].line);
  CHECK(bw[0].x == 102400);
  CHECK(bw[1].line);
  CHECK(!bw[1].paper);
  CHECK(marks_for(marks["bw"], "messages_per_s").size() == 1);
}

// Configuration: the marks of the document above overlaid on one bandwidth curve and one latency curve (overlay_marks,
//                what reproduce's figures and `run --plot` share).
// Expected:      bandwidth: the sized peak a circle at its size in the returned data, the unsized public peak a
//                dashed line, the key "public measurement", the caption flags for circles and lines; latency: one
//                circle at 8 B keyed "paper", its x axis "bytes"; the claims' scenarios, checks' plain paths included.
// How validated: the curve's fields, the returned "x,y" lines and the caption's flags.
TEST_CASE("overlay_marks: circles with their data, peaks as lines, the caption's flags") {
  auto marks = reference_marks({kDoc});
  PlotCurve bw{"bw.csv", "bw", ""};
  CaptionInput cap;
  CHECK(overlay_marks(marks["bw"], "bandwidth_GBps", bw, cap) == "102400,15\n");
  CHECK(bw.ref_points == std::vector<std::pair<double, double>>{{102400, 15}});
  CHECK(bw.peaks == std::vector<double>{120});
  CHECK(bw.ref_source == "public measurement");
  CHECK((cap.paper_points && cap.peak_lines && !cap.public_points));
  PlotCurve lat{"lat.csv", "lat", ""};
  CaptionInput cap2;
  CHECK(overlay_marks(marks["lat"], "latency_us", lat, cap2) == "8,1.5\n");
  CHECK(lat.ref_source == "paper");
  CHECK(marks["lat"][0].axis == "bytes");
  CHECK(overlay_marks(marks["lat"], "bandwidth_GBps", lat, cap2).empty());
  CHECK(scenarios_named(kDoc["claims"]) == std::set<std::string>{"scenarios/x/lat.json", "scenarios/x/other.json"});
}

// Configuration: the committed scenarios of qsnet-elan4 (what describe lists and reproduce --paper runs), and a
//                misspelt paper.
// Expected:      every one is of that paper, every scenario of one of their figures is among them, none of another
//                folder; the misspelt name is an InputError naming --paper with the close name.
// How validated: scenario_entries() against paper_scenarios().
TEST_CASE("paper_scenarios: a paper's scenarios, each of its figures whole") {
  const auto mine = paper_scenarios("qsnet-elan4");
  REQUIRE(mine.size() > 20);
  std::set<std::string> keys, rels;
  for (const auto& e : mine) {
    CHECK(e.paper == "qsnet-elan4");
    CHECK(e.rel.starts_with("scenarios/qsnet/"));
    keys.insert(e.key), rels.insert(e.rel);
  }
  for (const auto& e : scenario_entries())
    if (keys.count(e.key)) CHECK(rels.count(e.rel) == 1);
  try {
    (void)paper_scenarios("qsnet-elan");
    FAIL("no error for an unknown paper");
  } catch (const InputError& e) {
    CHECK(e.file() == "--paper");
    CHECK(std::string(e.what()).find("did you mean 'qsnet-elan4'") != std::string::npos);
  }
}

// Configuration: validate results with a prediction interval of width 0 and one of width 0.2 us.
// Expected:      only the one with a width gets a bar.
// How validated: interval_marks' entries.
TEST_CASE("prediction intervals of zero width draw no bar") {
  Json v = Json::parse(R"({"points": [
      {"id": "p.lat", "scenario": "scenarios/x/lat.json", "simulated": 1.5, "interval": [1.5, 1.5]}],
    "held_out": [{"id": "h.lat", "scenario": "scenarios/x/lat.json", "simulated": 4.0, "interval": [3.9, 4.1]}]})");
  auto iv = interval_marks({kDoc}, v);
  REQUIRE(iv["lat"].size() == 1);
  CHECK(iv["lat"][0][0] == 1024);
  CHECK(iv["lat"][0][3] == Approx(4.1));
}

// Configuration: the caption of a figure holding scenarios/x/lat.json, with and without the paper's values.
// Expected:      it names what the circles and bars are, or says the paper gives no data points; it quotes the claims that
//                name the figure's scenarios with their status (at the nominal parameters, then over the samples where
//                they differ), and no other claim; the script prints each line
//                under the frame and draws a peak as a dashed line in its curve's colour.
// How validated: substrings of the caption and of the gnuplot script.
TEST_CASE("figure caption: what is overlaid, and the paper's statements with the model's verdict") {
  Json v = Json::parse(R"({"claims": [{"id": "c.one", "status": "fails"}]})");
  CaptionInput in;
  in.scenarios = {"scenarios/x/lat.json"};
  in.paper_figure = true;
  auto none = figure_caption(in, {kDoc}, v);
  REQUIRE(none.size() >= 3);
  CHECK(none[0].find("gives no data points") != std::string::npos);
  CHECK(none.back() == "- \"Latency is low (Fig. 5).\" (fails)");
  for (auto& l : none) CHECK(l.find("Elsewhere") == std::string::npos);
  // the table's verdict at the nominal parameters first, the samples' when they differ
  Json nominal = Json::parse(R"({"claims": [{"id": "c.one", "holds": true, "status": "undecided"}]})");
  CHECK(figure_caption(in, {kDoc}, nominal).back() == "- \"Latency is low (Fig. 5).\" (holds; undecided over the samples)");
  nominal["claims"][0]["status"] = "holds";
  CHECK(figure_caption(in, {kDoc}, nominal).back() == "- \"Latency is low (Fig. 5).\" (holds)");
  in.paper_points = in.intervals = true;
  auto with = figure_caption(in, {kDoc}, v);
  CHECK(with[0] == "Filled circles: the paper's values.");
  CHECK(with[1].starts_with("Bars: prediction interval"));

  PlotSpec p;
  p.svg = "f.svg";
  p.xcol = "bytes";
  p.ycol = "bandwidth_GBps";
  p.curves.push_back({"a.csv", "native", "", "", "public measurement", {120.0}});
  p.caption = with;
  const std::string gp = gnuplot_script(p);
  CHECK(gp.find("120 with lines lc 1 dt 4") != std::string::npos);
  CHECK(gp.find("native (public measurement: peak 120)") != std::string::npos);
  CHECK(gp.find("set label 100 'Filled circles: the paper''s values.' at screen") != std::string::npos);
  CHECK(gp.find("set bmargin") != std::string::npos);
}

// Configuration: every scenario of scenarios/, grouped per paper figure as reproduce groups them (folder and figure
//                name; what-ifs and public-data plots are not figures of a paper), with the reference files and the
//                claims they hold.
// Expected:      every figure of the five papers shows the paper: its values (or public measurements) on the plot, or,
//                where the paper quotes none, at least one of its statements in the caption.
// How validated: figure_caption's lines for each figure.
TEST_CASE("every reproduced figure of the papers shows the paper's values or statements") {
  std::vector<Json> docs;
  for (auto& f : reference_files("")) docs.push_back(load_json_file(f));
  auto marks = reference_marks(docs);
  std::map<std::string, CaptionInput> figures;
  for (auto& rel : scenario_files()) {
    Scenario s = load_scenario(data_dir() + "/" + rel);
    if (!(s.figure.starts_with("Fig") || s.figure.starts_with("fig") || s.figure.starts_with("Table"))) continue;
    CaptionInput& in = figures[std::filesystem::path(rel).parent_path().string() + "/" + s.figure];
    in.paper_figure = true;
    in.paper = s.paper;
    in.figure = s.figure;
    in.scenarios.push_back(rel);
    for (auto& m : marks[s.id]) (m.paper ? in.paper_points : in.public_points) = true;
  }
  REQUIRE(figures.size() > 30);
  for (auto& [fig, in] : figures) {
    INFO(fig);
    auto caption = figure_caption(in, docs, Json::object());
    bool statement = false;
    for (auto& l : caption) statement = statement || l.starts_with("- \"");
    CHECK((in.paper_points || in.public_points || statement));
  }
}

// Configuration: figure names of the scenarios.
// Expected:      readable file stems: the number joined to Fig/Table, other spaces as '_', dots dropped.
// How validated: the stems.
TEST_CASE("figure file stems are readable") {
  CHECK(figure_file_stem("Fig. 5 D2D inter-node", "s.json") == "fig5_d2d_inter-node");
  CHECK(figure_file_stem("What-if routing alltoall under a neighbour job", "s.json") ==
        "what-if_routing_alltoall_under_a_neighbour_job");
  CHECK(figure_file_stem("Table 1", "s.json") == "table1");
  CHECK(figure_file_stem("fig5", "s.json") == "fig5");
  CHECK(figure_file_stem("public native", "s.json") == "public_native");
  CHECK_THROWS_AS(figure_file_stem("../x", "s.json"), InputError);
}

// Configuration: latency points with a drop of 10 % (4 KiB -> 8 KiB), one of 1 % and one of 0.01 us.
// Expected:      only the 10 % drop is named, with sizes and values; a rising curve names none.
// How validated: latency_falls' text.
TEST_CASE("latency_falls names drops beyond 2 % and 0.02 us") {
  Json pts = Json::parse(R"([{"bytes": 1, "latency_us": 1.5}, {"bytes": 2, "latency_us": 1.49},
    {"bytes": 4096, "latency_us": 14.665}, {"bytes": 8192, "latency_us": 6.971}, {"bytes": 16384, "latency_us": 6.9}])");
  CHECK(latency_falls(pts) == "4 KiB 14.66 us -> 8 KiB 6.97 us");
  CHECK(latency_falls(Json::parse(R"([{"bytes": 1, "latency_us": 1}, {"bytes": 2, "latency_us": 2}])")).empty());
  CHECK(latency_falls(Json::parse(R"([{"bytes": 8192, "latency_us": 10.37}, {"bytes": 8195, "latency_us": 9.31}])")) ==
        "8 KiB 10.37 us -> 8195 B 9.31 us");
}

// Configuration: descriptions of the scenarios of one figure (heterogeneous Fig. 2, QsNet Fig. 8, Gemini Fig. 4).
// Expected:      the title keeps what they share: whole segments, then the shared words of the first that differs.
// How validated: the strings.
TEST_CASE("a figure's title keeps what its scenarios' descriptions share") {
  CHECK(common_description({"NetPIPE bandwidth, 2 ranks on 2 nodes, MPI_Alloc_mem buffers, striped",
                            "NetPIPE bandwidth, 2 ranks on 2 nodes, what-if: stripe only above 128 KiB"}) ==
        "NetPIPE bandwidth, 2 ranks on 2 nodes");
  CHECK(common_description({"RDMA read with the FIN_ACK chained to the read, no completion queue (polling)",
                            "RDMA read, a QDMA chained to every RDMA, polling"}) == "RDMA read");
  CHECK(common_description({"osu_bibw, 2 ranks on one Cielo node", "osu_mbw_mr, 16 ranks on one Cielo node"}).empty());
  CHECK(common_description({"osu_latency, 2 ranks"}) == "osu_latency, 2 ranks");
  CHECK(common_description({"latency at 4 B and 4 KB with basic progress", "latency at 4 B and 4 KB with interrupts"}) ==
        "latency at 4 B and 4 KB");
  CHECK(common_description({"IMB Reduce, 16 nodes: block", "IMB Reduce, 16 nodes: round robin"}) ==
        "IMB Reduce, 16 nodes");
  // A later segment that differs only in its value keeps none of its words (no title ending "..., route policy").
  CHECK(common_description({"osu_allreduce 1 MiB, all 9,408 nodes, route policy minimal, Open MPI over LINKx",
                            "osu_allreduce 1 MiB, all 9,408 nodes, route policy ugal, Open MPI over LINKx"}) ==
        "osu_allreduce 1 MiB, all 9,408 nodes");
  // The same for a later segment whose shared words lead on to the value (no title ending "..., on the machine").
  CHECK(common_description({"osu_latency between two nodes, Cielo's parameters, on the machine cielo (torus)",
                            "osu_latency between two nodes, Cielo's parameters, on the machine fattree (fattree)"}) ==
        "osu_latency between two nodes, Cielo's parameters");
}

// Configuration: curves as (x, y) points: two equal, one 0.8 % above them, one 10 % above, one at other sizes.
// Expected:      the equal ones and the one within 2 % form a group (the largest difference 0.8 %); the others are
//                in none; with a tolerance of 0.1 % only the equal pair is left, within 0.
// How validated: the groups.
TEST_CASE("curves that lie on one another are found, with how close they are") {
  using Pts = std::vector<std::pair<double, double>>;
  const std::vector<Pts> curves = {{{4, 10}, {8, 20}}, {{4, 10}, {8, 20}}, {{4, 11}, {8, 22}}, {{4, 10}, {16, 20}},
                                   {{4, 10.08}, {8, 20}}, {}};
  auto g = coinciding_curves(curves);
  REQUIRE(g.size() == 1);
  CHECK(g[0].curves == std::vector<std::size_t>{0, 1, 4});
  CHECK(g[0].within == Approx(0.08 / 10.08));
  g = coinciding_curves(curves, 1e-3);
  REQUIRE(g.size() == 1);
  CHECK(g[0].curves == std::vector<std::size_t>{0, 1});
  CHECK(g[0].within == 0);
  CHECK(coinciding_curves({Pts{}, Pts{}}).empty());
}

// Configuration: labels of one figure's curves.
// Expected:      each without the whole words all share; a label that would be left empty stays whole.
// How validated: the strings.
TEST_CASE("label tails name what tells curves apart") {
  CHECK(label_tails({"openmpi osu_allreduce 9408p routing=minimal", "openmpi osu_allreduce 9408p routing=ugal"}) ==
        std::vector<std::string>{"routing=minimal", "routing=ugal"});
  CHECK(label_tails({"native a=1", "native a=12"}) == std::vector<std::string>{"a=1", "a=12"});
  CHECK(label_tails({"same", "same"}) == std::vector<std::string>{"same", "same"});
  CHECK(label_tails({"only one"}) == std::vector<std::string>{"only one"});
}

// Configuration: a plot of two curves equal at every size beside a third; a plot whose two curves hold one size each.
// Expected:      the first says in its caption that the equal curves coincide and draws the second's markers larger;
//                the second is drawn as bars at x = 1, 2 named by what tells the labels apart, with their values
//                written inside, linear axes (y from 0, 6 % of the frame above the top), the one size in the x label,
//                the key below the frame; curves of one point at different x stay curves, drawn with a larger
//                marker.
// How validated: the script's lines.
TEST_CASE("plots say which curves coincide and draw a figure of one size as bars") {
  PlotSpec p;
  p.svg = "f.svg";
  p.xcol = "bytes";
  p.ycol = "latency_us";
  p.curves.push_back({"a.csv", "stack x=1", ""});
  p.curves.push_back({"b.csv", "stack x=2", ""});
  p.curves.push_back({"c.csv", "stack x=3", ""});
  p.curves[0].points = p.curves[1].points = {{4, 3.87}, {8, 4.2}};
  p.curves[2].points = {{4, 5.0}, {8, 6.0}};
  std::string gp = gnuplot_script(p);
  CHECK(gp.find("Curves \"x=1\" and \"x=2\" coincide (equal at every point") != std::string::npos);
  CHECK(gp.find("'a.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 ") !=
        std::string::npos);
  CHECK(gp.find("'b.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 1.3 ") !=
        std::string::npos);
  CHECK(gp.find("'c.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 ") !=
        std::string::npos);
  CHECK(gp.find("with boxes") == std::string::npos);

  p.curves.pop_back();
  p.curves[0].points = {{1048576, 438.8}};
  p.curves[1].points = {{1048576, 390.7}};
  gp = gnuplot_script(p);
  CHECK(gp.find("'a.csv' using (1):(column('latency_us')) with boxes lc 1") != std::string::npos);
  CHECK(gp.find("'b.csv' using (2):(column('latency_us')) with boxes lc 2") != std::string::npos);
  CHECK(gp.find("with labels") != std::string::npos);
  CHECK(gp.find("set xtics ('x=1' 1, 'x=2' 2)") != std::string::npos);
  CHECK(gp.find("set xlabel 'message size (bytes): 1 MiB'") != std::string::npos);
  CHECK(gp.find("set yrange [0 : *]\nset offsets 0, 0, graph 0.06, 0\n") != std::string::npos);  // clear of the top
  CHECK(gp.find("set key at screen") != std::string::npos);  // bars fill the frame's width: the key below it
  CHECK(gp.find("set logscale") == std::string::npos);
  CHECK(gp.find("linespoints") == std::string::npos);
  // Curves of one point each at different x (one process count per scenario) stay curves, their one marker larger.
  p.curves[0].points = {{64, 26.0}};
  p.curves[1].points = {{512, 38.0}};
  gp = gnuplot_script(p);
  CHECK(gp.find("with boxes") == std::string::npos);
  CHECK(gp.find("with linespoints lc 1 dt 1 pt 1 ps 1.4 ") != std::string::npos);
  CHECK(gp.find("with linespoints lc 2 dt 2 pt 2 ps 1.4 ") != std::string::npos);
  // Curves of several points at one x (a rank-count sweep at one size) stay lines: bars would stack them.
  p.curves[0].points = {{8, 14.9}, {8, 23.0}};
  p.curves[1].points = {{8, 20.9}, {8, 30.8}};
  CHECK(gnuplot_script(p).find("with boxes") == std::string::npos);
}

// Configuration: y ranges of values spanning part of a decade, several decades, a flat curve; log ticks over them.
// Expected:      the range holds the values with 5 % of the span (of its logarithm on a log scale) on each side, not
//                whole decades; a span under a factor 1.25 is widened to it; the top leaves the key its share; a
//                linear axis of a quantity from zero starts at 0; log ticks: evenly spaced (a power of ten times 1, 2
//                or 5) under a decade, 1-1.5-2-3-4-5-7 per decade about one, fewer as the decades grow, every second
//                decade over sixteen.
// How validated: the numbers.
TEST_CASE("plot y range from the data with readable log ticks") {
  YRange r = plot_y_range(0.5, 1.6, true, 0.0);
  CHECK(r.log);
  CHECK(r.lo == Approx(0.5 / std::pow(3.2, 0.05)));
  CHECK(r.hi == Approx(1.6 * std::pow(3.2, 0.05)));
  CHECK(r.lo > 0.45);
  CHECK(r.hi < 1.8);
  r = plot_y_range(0.5, 1.6, true, 0.25);  // the data in the lower three quarters of the frame
  CHECK(std::log(1.6 * std::pow(3.2, 0.05) / r.lo) / std::log(r.hi / r.lo) == Approx(0.75));
  r = plot_y_range(2.0, 2.02, true, 0.0);  // nearly flat: widened to a factor 1.25 about its middle
  CHECK(r.hi / r.lo == Approx(std::pow(1.25, 1.1)));
  CHECK(std::sqrt(r.lo * r.hi) == Approx(std::sqrt(2.0 * 2.02)));
  r = plot_y_range(3.0, 9.0, false, 0.0, true);
  CHECK(!r.log);
  CHECK(r.lo == 0.0);
  CHECK(r.hi == Approx(9.3));
  r = plot_y_range(3.0, 9.0, false, 0.0);
  CHECK(r.lo == Approx(2.7));
  r = plot_y_range(-1.0, 1.0, true, 0.0);  // a value not positive: linear
  CHECK(!r.log);
  CHECK(r.lo == Approx(-1.1));

  CHECK(log_ticks(0.45, 1.8) == std::vector<double>{0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8});
  CHECK(log_ticks(3.2, 33.0) == std::vector<double>{4, 5, 7, 10, 15, 20, 30});
  CHECK(log_ticks(1.81, 43.6, 300) == std::vector<double>{2, 3, 5, 10, 20, 30});
  CHECK(log_ticks(1.3, 50000) == std::vector<double>{3, 10, 30, 100, 300, 1000, 3000, 10000, 30000});
  const std::vector<double> wide = log_ticks(1e-4, 1e12);  // 16 decades: every second one
  CHECK(wide.front() == Approx(1e-4));
  CHECK(wide[1] == Approx(1e-2));
  CHECK(wide.size() == 9);
  CHECK(starts_at_zero("bandwidth_GBps"));
  CHECK(starts_at_zero("messages_per_s"));
  CHECK(!starts_at_zero("latency_us"));
}

// Configuration: a log-log plot of a curve whose values the writer knows (points, the paper's points, an interval, a
//                point at 0 B), of an inline datablock (`run --plot`), and of a CSV whose values it does not know.
// Expected:      the first two set the y range and the ticks in numbers from the values drawn (the 0 B point, not
//                drawn on a log x axis, left out; the interval's ends in); the third leaves it to gnuplot's data range
//                (GPVAL_DATA_Y_MIN / MAX), never the range rounded out to whole decades (GPVAL_Y_MIN / MAX); byte
//                ticks on x at every power of 2 where the sizes span eight or fewer, of 4 otherwise.
// How validated: the script's lines.
TEST_CASE("reproduced figures set their y range from what they draw") {
  PlotSpec p;
  p.svg = "f.svg";
  p.xcol = "bytes";
  p.ycol = "latency_us";
  p.curves.push_back({"a.csv", "native", "f.a.ref.dat", "f.a.interval.dat"});
  p.curves[0].points = {{0, 0.1}, {1, 0.5}, {1024, 1.2}, {4096, 1.6}};
  p.curves[0].ref_points = {{1, 0.55}};
  p.curves[0].interval_points = {{1024, 1.2, 1.1, 1.7}};
  std::string gp = gnuplot_script(p);
  const auto range = [](const std::string& s) {
    const auto at = s.find("set yrange [");
    REQUIRE(at != std::string::npos);
    double lo = 0, hi = 0;
    REQUIRE(std::sscanf(s.c_str() + at, "set yrange [%lf : %lf]", &lo, &hi) == 2);
    return std::pair{lo, hi};
  };
  auto [lo, hi] = range(gp);
  CHECK(lo < 0.5);
  CHECK(lo > 0.45);
  CHECK(hi > 1.7);
  CHECK(hi < 1.7 * 1.1);  // a margin above the data, no room for the key (it sits in a free corner), not a decade
  CHECK(gp.find("set ytics (\"0.6\" 0.6, ") != std::string::npos);
  CHECK(gp.find("GPVAL") == std::string::npos);
  CHECK(gp.find("set terminal unknown") == std::string::npos);

  PlotSpec run = p;
  run.curves = {{"$run", "native", ""}};
  run.inline_data = "$run << EOD\nbytes,latency_us\n1,2.5\n8,2.6\n1024,9.0\nEOD\n";
  std::tie(lo, hi) = range(gnuplot_script(run));
  CHECK(lo < 2.5);
  CHECK(lo > 2.0);
  CHECK(hi > 9.0);
  CHECK(hi < 9.0 * 1.1);

  // Sizes over 1 B to 4 KiB: byte ticks at powers of 4; over 512 B to 4 KiB (three powers of 2): at every power of 2.
  CHECK(gp.find("\"2 KiB\" 2048") == std::string::npos);
  CHECK(gp.find("\"4 KiB\" 4096") != std::string::npos);
  PlotSpec narrow = p;
  narrow.curves[0].points = {{512, 30}, {1024, 50}, {2048, 90}, {4096, 250}};
  CHECK(gnuplot_script(narrow).find("\"512 B\" 512, \"1 KiB\" 1024, \"2 KiB\" 2048, \"4 KiB\" 4096") !=
        std::string::npos);

  p.curves[0].points.clear();  // a CSV the writer did not read
  gp = gnuplot_script(p);
  CHECK(gp.find("y0 = GPVAL_DATA_Y_MIN; y1 = GPVAL_DATA_Y_MAX") != std::string::npos);
  CHECK(gp.find("GPVAL_Y_MIN") == std::string::npos);
}

// Configuration: key_place on drawings (frame fractions) that leave the top left corner free, only the top right
//                one, only the bottom left one, none (a level line across the top and the bottom, a curve through
//                the middle); a key wider than the frame. Then a figure of ten curves spread over the whole frame
//                (each from the bottom left to the top right corner and back) and one of two rising latency curves.
// Expected:      the first free corner in the order top left, top right, bottom right, bottom left, else below; a
//                key wider than the frame below it. The crowded figure's key below the frame (at screen
//                coordinates, in columns: 10 entries of about 30 characters, 3 a row), the canvas taller by its rows,
//                the y range the data's own (a 5 % margin); the rising curves' key top left, the canvas 600 px.
// How validated: key_place's answers; the scripts' set key, set yrange and set terminal lines.
TEST_CASE("a key goes into a corner the data leave free, below the frame otherwise, never raising the y range") {
  FrameDrawing rising;  // a latency curve: low on the left, high on the right
  rising.lines = {{{0.0, 0.05}, {0.5, 0.1}, {1.0, 0.95}}};
  CHECK(key_place(rising, 0.4, 0.3) == KeyPlace::TopLeft);
  FrameDrawing falling = rising;  // high on the left
  falling.lines = {{{0.0, 0.95}, {0.5, 0.1}, {1.0, 0.05}}};
  CHECK(key_place(falling, 0.4, 0.3) == KeyPlace::TopRight);
  FrameDrawing hump;  // free only at the bottom left: a line along the top, a marker at the bottom right
  hump.lines = {{{0.0, 0.95}, {1.0, 0.95}}};
  hump.marks = {{0.9, 0.05}};
  CHECK(key_place(hump, 0.3, 0.3) == KeyPlace::BottomLeft);
  FrameDrawing full;
  full.levels = {0.97, 0.03};
  full.lines = {{{0.0, 0.5}, {1.0, 0.5}}};
  CHECK(key_place(full, 0.3, 0.3) == KeyPlace::Below);
  FrameDrawing marker_only;  // one marker in the top left corner, the rest free
  marker_only.marks = {{0.05, 0.95}};
  CHECK(key_place(marker_only, 0.3, 0.3) == KeyPlace::TopRight);
  CHECK(key_place(rising, 1.2, 0.1) == KeyPlace::Below);

  PlotSpec p;
  p.svg = "f.svg";
  p.xcol = "bytes";
  p.ycol = "latency_us";
  for (int k = 0; k < 10; ++k) {
    PlotCurve c{fmt::format("c{}.csv", k), fmt::format("openmpi osu_latency {} pairs", k)};
    const double s = 1.0 + 0.01 * k;
    c.points = {{1, 1.0 * s}, {64, 1000.0 * s}, {4096, 1.0 * s}, {262144, 1000.0 * s}, {4194304, 1.0 * s}};
    p.curves.push_back(c);
  }
  std::string gp = gnuplot_script(p);
  CHECK(gp.find("set key at screen 0.012, screen ") != std::string::npos);
  CHECK(gp.find("maxrows 5\n") != std::string::npos);
  CHECK(gp.find("set key top") == std::string::npos);
  double lo = 0, hi = 0;
  REQUIRE(std::sscanf(gp.c_str() + gp.find("set yrange ["), "set yrange [%lf : %lf]", &lo, &hi) == 2);
  CHECK(hi == Approx(1090.0 * std::pow(1090.0, 0.05)).epsilon(1e-4));  // the largest value and a 5 % margin
  CHECK(lo == Approx(1.0 / std::pow(1090.0, 0.05)).epsilon(1e-4));
  int height = 0;
  REQUIRE(std::sscanf(gp.c_str() + gp.find("set terminal svg size 900,"), "set terminal svg size 900,%d", &height) ==
          1);
  CHECK(height > 600 + 4 * 12);
  CHECK(gp.find("set bmargin") != std::string::npos);

  PlotSpec two = p;
  two.curves.resize(2);
  two.curves[0].points = {{1, 1.0}, {1024, 2.0}, {4194304, 1000.0}};
  two.curves[1].points = {{1, 1.5}, {1024, 3.0}, {4194304, 1200.0}};
  gp = gnuplot_script(two);
  CHECK(gp.find("set key top left reverse Left box opaque") != std::string::npos);
  CHECK(gp.find("set terminal svg size 900,600 ") != std::string::npos);
  CHECK(gp.find("set linetype 5 lc rgb '#b08800'\n") < gp.find("\nplot "));  // no pale yellow curve
  REQUIRE(std::sscanf(gp.c_str() + gp.find("set yrange ["), "set yrange [%lf : %lf]", &lo, &hi) == 2);
  CHECK(hi == Approx(1200.0 * std::pow(1200.0, 0.05)).epsilon(1e-4));
}

// Configuration: key_layout below the frame for three short titles, and for two titles of 200 characters (a sweep's
//                curve named by several axes), whose one column is wider than the 880 px a 900 px canvas holds.
// Expected:      short titles: a 900 px canvas, the key at screen 0.012; long titles: a canvas at least as wide as
//                one column with its margin, one column, the key's left edge still 10.8 px from the canvas's edge.
// How validated: KeyLayout's width_px and line.
TEST_CASE("a key whose titles would run off a 900 px canvas widens it") {
  const KeyLayout narrow = key_layout(KeyPlace::Below, {"a", "bb", "ccc"}, 0);
  CHECK(narrow.width_px == 900);
  CHECK(narrow.line.find("set key at screen 0.012, screen ") == 0);
  const std::vector<std::string> long_titles = {std::string(200, 'x'), std::string(200, 'y')};
  const KeyLayout wide = key_layout(KeyPlace::Below, long_titles, 0);
  const double column = key_box_px(long_titles).first;
  CHECK(column > 880.0);
  CHECK(wide.width_px >= column);
  CHECK(wide.line.find("maxrows 2\n") != std::string::npos);  // one column: both rows in it
  double x = 0;
  REQUIRE(std::sscanf(wide.line.c_str(), "set key at screen %lf", &x) == 1);
  CHECK(x * wide.width_px == Approx(10.8).epsilon(1e-3));
}

// Configuration: byte sizes a plot labels: powers of two, a size one byte short of one (a limit's default, 4095 B), a
// half multiple, a size that is not a whole number of hundredths of a KiB. Expected: binary units where the size is a
// whole number of hundredths of the unit, bytes otherwise (4095 B, not 3.99902 KiB). How validated: the strings.
TEST_CASE("byte_label: a unit up only where the size is a whole number of its hundredths", "[unit][plot]") {
  CHECK(ompisim::byte_label(3) == "3 B");
  CHECK(ompisim::byte_label(1024) == "1 KiB");
  CHECK(ompisim::byte_label(32768) == "32 KiB");
  CHECK(ompisim::byte_label(4194304) == "4 MiB");
  CHECK(ompisim::byte_label(1536) == "1.5 KiB");
  CHECK(ompisim::byte_label(4095) == "4095 B");
  CHECK(ompisim::byte_label(10304) == "10304 B");
  CHECK(ompisim::byte_label(1000000) == "1000000 B");
}

// Configuration: a replay-style plot against the rank index on a linear axis, ranks 0 to 3; the same from 0 to 63;
//                the same with a log axis over rank counts 2 to 8.
// Expected:      the short span ticks every whole rank ("set xtics 1": gnuplot's own 0.5 step printed each number
//                twice under %.0f); the long span and the log axis keep gnuplot's own steps.
// How validated: the script's text.
TEST_CASE("a short rank axis ticks each rank once", "[plot]") {
  PlotSpec p;
  p.svg = "r.svg";
  p.xcol = "rank";
  p.ycol = "mpi_time_pct";
  p.logx = p.logy = false;
  p.curves.push_back({"a.csv", "replay", ""});
  p.curves[0].points = {{0, 10}, {1, 12}, {2, 11}, {3, 9}};
  std::string gp = gnuplot_script(p);
  CHECK(gp.find("set format x '%.0f'\nset xtics 1\n") != std::string::npos);
  p.curves[0].points = {{0, 10}, {63, 12}};
  CHECK(gnuplot_script(p).find("set xtics 1\n") == std::string::npos);
  p.xcol = "ranks";
  p.logx = true;
  p.curves[0].points = {{2, 10}, {8, 12}};
  CHECK(gnuplot_script(p).find("set xtics 1\n") == std::string::npos);
}
