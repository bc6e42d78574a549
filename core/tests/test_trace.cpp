#include "core/json_input.hpp"
#include "core/trace_file.hpp"
#include "core/trace_options.hpp"
#include "engine/des_engine.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ompisim;
namespace fs = std::filesystem;

namespace {
std::string tmp_path(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("ompisim-trace-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}
std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

// Configuration: the --trace-ranks and --trace-window syntaxes. Expected: ranges and SI times; bad input is an
// InputError naming the option and the reason. How validated: exact values and the messages.
TEST_CASE("trace: rank lists and time windows parse, bad ones name the option", "[unit][trace]") {
  auto r = parse_rank_list("0-15,1024", "--trace-ranks");
  REQUIRE(r.size() == 2);
  CHECK(r[0] == std::pair<long long, long long>{0, 15});
  CHECK(r[1] == std::pair<long long, long long>{1024, 1024});
  CHECK_THROWS_WITH(parse_rank_list("3-1", "--trace-ranks"), Catch::Contains("--trace-ranks") && Catch::Contains("ends before"));
  CHECK_THROWS_WITH(parse_rank_list("0,,2", "--trace-ranks"), Catch::Contains("an empty item between commas"));
  CHECK_THROWS_WITH(parse_rank_list("-1", "--trace-ranks"), Catch::Contains("'-1' is not a rank or a range A-B"));
  CHECK_THROWS_WITH(parse_rank_list("x", "--trace-ranks"), Catch::Contains("'x' is not a rank"));
  CHECK_THROWS_WITH(parse_time_window("10us:10us", "--trace-window"), Catch::Contains("the window is empty"));
  auto w = parse_time_window("10us:50us", "--trace-window");
  CHECK(w.first == Approx(10e-6));
  CHECK(w.second == Approx(50e-6));
  CHECK(parse_time_window(":1 ms", "--trace-window").first == 0);
  CHECK(std::isinf(parse_time_window("1us:", "--trace-window").second));
  CHECK_THROWS_WITH(parse_time_window("50us:10us", "--trace-window"), Catch::Contains("ends before it starts"));
  CHECK_THROWS_WITH(parse_time_window("10us", "--trace-window"), Catch::Contains("START:END"));
  CHECK_THROWS_WITH(parse_time_window("10:20us", "--trace-window"), Catch::Contains("not a time"));
  TraceFilter f;
  f.ranks = r;
  CHECK(f.rank(15));
  CHECK_FALSE(f.rank(16));
  CHECK(f.rank(1024));
}

// Configuration: a sink filtering ranks 0-1 and the window [1 s, 2 s], fed spans of three ranks and a flow through the
// plain engine. Expected: only the selected spans are written, every count is right, the JSON parses, and no file
// appears under the destination's name before finish(). How validated: the counts and the parsed file.
TEST_CASE("trace: Chrome JSON keeps the filtered spans and counts flows from the engine", "[unit][trace]") {
  const std::string path = tmp_path("t.json");
  fs::remove(path);
  TraceFilter f;
  f.ranks = {{0, 1}};
  f.t0 = 1, f.t1 = 2;
  auto sink = open_trace(path, f);
  for (int r = 0; r < 3; ++r) sink->rank_node(r, r);
  sink->cpu(0, 1.5, 1.6, "mca_pml_ob1_send_request_start");
  sink->cpu(2, 1.5, 1.6, "not traced: rank 2");
  sink->cpu(1, 3.0, 3.5, "not traced: after the window");
  sink->nic(1, "BTE", 1.0, 1.2, "BTE GET");
  sink->nic(2, "BTE", 1.0, 1.2, "not traced: node 2");
  sink->message(0, 2, 7, 64, 1.1, 1.3);
  engine::DesEngine sim;
  sim.trace = sink.get();
  auto a = sim.add_resource("n0-ht", 1e9), b = sim.add_resource("link0", 1e9);
  sim.seal();
  sim.at(1.0, [&] {
    sink->flow_nodes(0, 2);
    sim.flow({a, b}, 1e8, [] {});
  });
  sim.run();
  CHECK(sim.flows_started == 1);
  CHECK_FALSE(fs::exists(path));
  sink->finish();
  CHECK(sink->counts.cpu == 1);
  CHECK(sink->counts.nic == 1);
  CHECK(sink->counts.messages == 1);
  CHECK(sink->counts.flows == 1);
  Json j = Json::parse(slurp(path));
  int x = 0, flows = 0;
  bool linked = false;
  for (auto& e : j["traceEvents"]) {
    if (e["ph"] == "X" && e["cat"] == "cpu") {
      ++x;
      CHECK(e["name"] == "mca_pml_ob1_send_request_start");
      CHECK(e["ts"].get<double>() == Approx(1.5e6));
      CHECK(e["dur"].get<double>() == Approx(0.1e6));
    }
    if (e["ph"] == "b") {
      ++flows;
      CHECK(e["args"]["bytes"] == 1e8);
      linked = e["args"]["resources"] == "n0-ht link0";
      CHECK(e["ts"].get<double>() == Approx(1e6));
    }
  }
  CHECK(x == 1);
  CHECK(flows == 1);
  CHECK(linked);
  CHECK(j["otherData"]["messages"] == 1);
  fs::remove_all(fs::path(path).parent_path());
}

// Configuration: a Paje sink given spans out of time order and an unfinished one. Expected: events sorted by time in
// the file; a sink destroyed without finish() leaves neither the file nor its temporary.
TEST_CASE("trace: Paje events are written in time order, an unfinished trace leaves nothing", "[unit][trace]") {
  const std::string path = tmp_path("t.paje");
  {
    auto sink = open_trace(path, TraceFilter{});
    sink->rank_node(0, 0);
    sink->rank_node(1, 0);
    sink->cpu(0, 5.0, 6.0, "late");
    sink->cpu(1, 1.0, 2.0, "early");
    sink->message(0, 1, 0, 8, 0.5, 4.0);
    sink->finish();
  }
  std::string text = slurp(path);
  auto early = text.find("\"early\""), late = text.find("\"late\"");
  REQUIRE(early != std::string::npos);
  REQUIRE(late != std::string::npos);
  CHECK(early < late);
  double last = -1;
  bool ordered = true;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '%' || line[0] == '0' || line[0] == '2' || line[0] == '4') continue;
    std::istringstream ls(line);
    int code;
    double t;
    ls >> code >> t;
    if (t < last) ordered = false;
    last = t;
  }
  CHECK(ordered);
  const std::string never = tmp_path("never.paje");
  {
    auto sink = open_trace(never, TraceFilter{});
    sink->rank_node(0, 0);
    sink->cpu(0, 0, 1, "x");
  }
  bool any = false;
  for (auto& e : fs::directory_iterator(fs::path(never).parent_path()))
    if (e.path().filename().string().rfind("never.paje", 0) == 0) any = true;
  CHECK_FALSE(any);
  fs::remove_all(fs::path(path).parent_path());
}

// Configuration: a Paje sink with the window [1 s, 2 s] given a span before it, two inside it and a message sent before
// the window and matched inside it. Expected: times are written from the first traced event (the message's send,
// 0.9 s, is time 0; counts.time_origin 0.9), so ViTE, which opens a trace on [0, its end], opens on the window instead
// of the whole run; every container is created at that time 0 and no event precedes it; the last span ends at 0.7.
// How validated: the creation times of the "6" lines and the smallest and largest event times. Fails with simulated
// times written (containers at 0.9).
TEST_CASE("trace: a windowed Paje trace starts at time 0, its first event", "[unit][trace]") {
  const std::string path = tmp_path("w.paje");
  double origin = -1;
  {
    TraceFilter filter;
    filter.t0 = 1.0, filter.t1 = 2.0;
    auto sink = open_trace(path, filter);
    sink->rank_node(0, 0);
    sink->rank_node(1, 1);
    sink->cpu(0, 0.1, 0.2, "before");
    sink->cpu(0, 1.2, 1.3, "inside");
    sink->cpu(1, 1.5, 1.6, "inside");
    sink->message(0, 1, 0, 8, 0.9, 1.4);
    sink->finish();
    origin = sink->counts.time_origin;
  }
  std::istringstream in(slurp(path));
  int containers = 0;
  double first_event = 1e300, last_event = -1;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    int code = -1;
    double t = 0;
    if (!(ls >> code >> t)) continue;
    if (code == 6) {
      ++containers;
      CHECK(t == Approx(0.0));
    } else if (code >= 8 && code != 7) {
      first_event = std::min(first_event, t);
      last_event = std::max(last_event, t);
    }
  }
  CHECK(containers >= 4);  // two nodes, two ranks
  CHECK(first_event == Approx(0.0));
  CHECK(last_event == Approx(0.7));
  CHECK(origin == Approx(0.9));
  fs::remove_all(fs::path(path).parent_path());
}

namespace {
// A Paje line's fields: words, and quoted strings as one field without their quotes.
std::vector<std::string> paje_fields(const std::string& line) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == ' ') {
      ++i;
    } else if (line[i] == '"') {
      const auto close = line.find('"', i + 1);
      out.push_back(line.substr(i + 1, close - i - 1));
      i = close == std::string::npos ? line.size() : close + 1;
    } else {
      const auto end = std::min(line.find(' ', i), line.size());
      out.push_back(line.substr(i, end - i));
      i = end;
    }
  }
  return out;
}
bool is_colour(const std::string& c) {
  std::istringstream in(c);
  double r = -1, g = -1, b = -1;
  std::string more;
  const bool three = static_cast<bool>(in >> r >> g >> b) && !(in >> more);
  return three && r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1;
}
}  // namespace

// Configuration: a Paje sink given CPU and NIC spans, an MPI message, a remote atomic and a bulk flow. Expected:
// every state (PajePushState, 12) names by its alias an entity value (PajeDefineEntityValue, 3) of its own type with an
// "r g b" colour (ViTE looks a state's value up by alias only: by name it draws the state black), and every link end
// (PajeStartLink 15, PajeEndLink 16) names one of its type, by alias or name: ViTE draws a state without one black
// and a link without one white. The three link types have three different colours, and a link still carries what it
// moved (its Info field). How validated: the file parsed line by line.
TEST_CASE("trace: every Paje state and link names an entity value with a colour", "[unit][trace]") {
  const std::string path = tmp_path("colours.paje");
  {
    auto sink = open_trace(path, TraceFilter{});
    sink->rank_node(0, 0);
    sink->rank_node(1, 1);
    sink->resource(0, "n0-ht");
    sink->cpu(0, 1.0, 2.0, "mca_pml_ob1_send_request_start");
    sink->nic(1, "BTE", 1.5, 2.5, "BTE GET");
    sink->message(0, 1, 3, 1024, 1.0, 2.0);
    sink->amo(1, 0, 2.0, 2.5);
    sink->flow_nodes(0, 1);
    sink->flow_ended(sink->flow_started(1.2, {0}, 65536), 1.8);
    sink->finish();
  }
  std::map<std::pair<std::string, std::string>, std::string> colour;  // (type, alias or name) -> colour
  std::set<std::pair<std::string, std::string>> aliases;              // (type, alias)
  std::map<std::string, std::string> link_colour;                     // link type -> colour of the values it uses
  int states = 0, links = 0;
  bool info = true;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);) {
    auto f = paje_fields(line);
    if (f.empty() || f[0][0] == '%') continue;
    if (f[0] == "3") {
      REQUIRE(f.size() == 5);
      CHECK(is_colour(f[4]));
      colour[{f[2], f[1]}] = colour[{f[2], f[3]}] = f[4];
      aliases.insert({f[2], f[1]});
    } else if (f[0] == "12") {
      ++states;
      REQUIRE(f.size() >= 5);
      INFO(line);
      CHECK(aliases.count({f[2], f[4]}) == 1);
    } else if (f[0] == "15" || f[0] == "16") {
      ++links;
      REQUIRE(f.size() >= 7);
      INFO(line);
      REQUIRE(colour.count({f[2], f[4]}) == 1);
      link_colour[f[2]] = colour[{f[2], f[4]}];
      info = info && f.size() == 8 && !f[7].empty();
    }
  }
  CHECK(states == 2);
  CHECK(links == 6);
  CHECK(info);
  REQUIRE(link_colour.size() == 3);
  CHECK(link_colour["MSG"] != link_colour["AMO"]);
  CHECK(link_colour["MSG"] != link_colour["FLOW"]);
  CHECK(link_colour["AMO"] != link_colour["FLOW"]);
  fs::remove_all(fs::path(path).parent_path());
}

namespace {
// Feeds a sink the same pseudo-random, out-of-order stream: CPU spans of 8 ranks scheduled up to 1 s ahead, messages
// reported at their match with a send up to 2 s back, NIC spans reported at their end.
void feed(TraceSink& s, int n) {
  for (int r = 0; r < 8; ++r) s.rank_node(r, r / 2);
  std::uint64_t x = 42;
  auto rnd = [&x] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(x >> 11) / 9007199254740992.0;
  };
  double now = 0;
  for (int i = 0; i < n; ++i) {
    now += 1e-3 * rnd();
    const int r = static_cast<int>(rnd() * 8) % 8;
    const double a = now + rnd();
    s.cpu(r, a, a + 1e-3 * rnd(), i % 3 ? "mca_pml_ob1_send_request_start" : "opal_progress");
    if (i % 4 == 0) s.message(r, (r + 1) % 8, i, 64, std::max(0.0, now - 2 * rnd()), now);
    if (i % 5 == 0) s.nic(r / 2, "BTE", std::max(0.0, now - rnd()), now, "BTE GET");
  }
}
}  // namespace

// Configuration: the same out-of-order event stream (20,000 CPU spans, 5,000 messages, 4,000 NIC spans) into a Paje
// sink holding all its events in memory and into one limited to 4 KiB of events (about 400 sorted runs spilled, merged
// into one whenever 64 accumulate). Expected: byte-identical files; the small sink never held more than its limit plus
// one line, spilled runs, left no file but the trace; every event line is in time order. How validated: file
// comparison, the sink's counts, a scan of the times.
TEST_CASE("trace: Paje sorts in bounded memory (spilled runs) and writes what an in-memory sort writes", "[unit][trace]") {
  const std::string big = tmp_path("big.paje"), small = tmp_path("small.paje");
  auto a = open_trace(big, TraceFilter{}, std::size_t{1} << 30);
  auto b = open_trace(small, TraceFilter{}, 4096);
  feed(*a, 20000);
  feed(*b, 20000);
  a->finish();
  b->finish();
  CHECK(a->counts.runs_spilled == 0);
  CHECK(b->counts.runs_spilled > 64);
  CHECK(b->counts.peak_buffer_bytes <= 4096 + 200);
  CHECK(a->counts.peak_buffer_bytes > 1000000);
  const std::string ta = slurp(big), tb = slurp(small);
  CHECK(ta.size() > 1000000);
  CHECK(ta == tb);
  std::istringstream in(tb);
  double last = 0;
  std::size_t lines = 0, disorder = 0;
  std::string first_bad;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("12 ", 0) && line.rfind("13 ", 0) && line.rfind("15 ", 0) && line.rfind("16 ", 0)) continue;
    ++lines;
    double t = std::stod(line.substr(3));
    if (t < last && first_bad.empty()) first_bad = line + " after " + std::to_string(last);
    disorder += t < last;
    last = t;
  }
  CHECK(lines == 2 * (20000 + 5000 + 4000));
  CHECK(disorder == 0);
  CHECK(first_bad == "");
  std::size_t files = 0;
  for (auto& e : fs::directory_iterator(fs::path(small).parent_path())) files += e.path().filename().string().find("small.paje") == 0;
  CHECK(files == 1);  // no temporary, no spill file
  fs::remove_all(fs::path(big).parent_path());
}

// Configuration: three flows through the plain engine: A over (hif0, link) from 0 to 1 s, B over (link, hif1) from
// 0.5 s, C over (hif2) between untraced nodes; the sink traces ranks 0-1 (nodes 0-1), then the same run with the
// windows [0.6 s, inf) and [0.55 s, 0.6 s]. Expected: the link's counter goes 1, 2, 1, 0 as the flows start and end,
// hif0 1, 0, nothing for C's resource; with the first window the link's first value is the 2 flows in flight at 0.6 s;
// in the second, where nothing changes, each resource shows its count at 0.55 s once. How validated: the Chrome
// JSON's "C" events per resource.
TEST_CASE("trace: link sharing counters follow the traced flows on each resource", "[unit][trace]") {
  auto run = [](const std::string& path, double t0, double t1) {
    TraceFilter f;
    f.ranks = {{0, 1}};
    f.t0 = t0, f.t1 = t1;
    auto sink = open_trace(path, f);
    sink->rank_node(0, 0), sink->rank_node(1, 1), sink->rank_node(2, 2), sink->rank_node(3, 3);
    engine::DesEngine sim;
    sim.trace = sink.get();
    auto hif0 = sim.add_resource("n0-hif", 1e9), link = sim.add_resource("link01", 1e9),
         hif1 = sim.add_resource("n1-hif", 1e9), hif2 = sim.add_resource("n2-hif", 1e9);
    sim.seal();
    sim.at(0.0, [&] {
      sink->flow_nodes(0, 1);
      sim.flow({hif0, link}, 1e9, [] {});
    });
    sim.at(0.5, [&] {
      sink->flow_nodes(1, 0);
      sim.flow({link, hif1}, 2e8, [] {});
      sink->flow_nodes(2, 3);
      sim.flow({hif2}, 1e8, [] {});
    });
    sim.run();
    sink->finish();
    std::map<std::string, std::vector<int>> series;
    const Json doc = Json::parse(slurp(path));
    for (auto& e : doc["traceEvents"])
      if (e["ph"] == "C") series[e["name"].get<std::string>()].push_back(e["args"]["flows"].get<int>());
    return series;
  };
  auto s = run(tmp_path("load.json"), 0, 1e9);
  CHECK(s["link01"] == std::vector<int>{1, 2, 1, 0});
  CHECK(s["n0-hif"] == std::vector<int>{1, 0});
  CHECK(s["n1-hif"] == std::vector<int>{1, 0});
  CHECK(s.count("n2-hif") == 0);
  auto w = run(tmp_path("loadw.json"), 0.6, 1e9);
  CHECK(w["link01"].front() == 2);
  CHECK(w["link01"].back() == 0);
  auto inside = run(tmp_path("loadi.json"), 0.55, 0.6);  // nothing changes inside: the counts at the window's start
  CHECK(inside["link01"] == std::vector<int>{2});
  CHECK(inside["n0-hif"] == std::vector<int>{1});
  CHECK(inside["n1-hif"] == std::vector<int>{1});
  fs::remove_all(fs::path(tmp_path("x")).parent_path());
}
