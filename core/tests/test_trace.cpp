#include "core/json_input.hpp"
#include "core/trace_file.hpp"
#include "engine/des_engine.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

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
  CHECK_THROWS_WITH(parse_rank_list("0,,2", "--trace-ranks"), Catch::Contains("not a rank"));
  CHECK_THROWS_WITH(parse_rank_list("-1", "--trace-ranks"), Catch::Contains("not a rank"));
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
