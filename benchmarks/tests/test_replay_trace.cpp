// The SMPI time-independent trace parser and reader (benchmarks/replay/ti_trace.hpp, ti_reader.hpp) and the replay
// driver's block.
#include "benchmarks/driver.hpp"
#include "benchmarks/replay/replay_tables.hpp"
#include "benchmarks/replay/ti_reader.hpp"
#include "platform/machine.hpp"
#include "runner/scenario.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>

using namespace ompisim;
using namespace ompisim::bench::ti;

namespace {
Action parse(const std::string& line, int rank = 0, int nranks = 4) {
  std::uint32_t dt = 1;
  Action a;
  REQUIRE(parse_line(line, rank, nranks, dt, "r.txt", 7, a));
  return a;
}
std::string error(const std::string& line, int rank = 0, int nranks = 4) {
  std::uint32_t dt = 1;
  Action a;
  try {
    (void)parse_line(line, rank, nranks, dt, "r.txt", 7, a);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
std::filesystem::path tmpdir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("ompisim-ti-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
void write(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
}  // namespace

// Configuration: lines as smpirun -trace-ti (SimGrid 3.32) writes them, one per action kind, on 4 ranks (the line
// forms are copied from traces recorded by tests/e2e/replay.sh). Expected: the kind, peers, tag, root, bytes (count x
// the datatype's size: 0 = MPI_DOUBLE 8 B, 1 = MPI_INT 4 B, 6 = MPI_BYTE) and flops of each.
// How validated: the parsed Action's fields.
TEST_CASE("ti trace: every action kind SMPI writes parses with its arguments", "[replay][trace]") {
  CHECK(parse("0 init").kind == Kind::Init);
  CHECK(parse("0 finalize").kind == Kind::Finalize);
  Action c = parse("0 compute 67.7591");
  CHECK(c.kind == Kind::Compute);
  CHECK(c.amount == Approx(67.7591));
  Action ir = parse("0 irecv 3 7 128 0");
  CHECK((ir.kind == Kind::Irecv && ir.peer == 3 && ir.tag == 7 && ir.recv_bytes == 1024 && ir.send_bytes == 0));
  Action s = parse("0 send 1 3 10 1");
  CHECK((s.kind == Kind::Send && s.peer == 1 && s.tag == 3 && s.send_bytes == 40));
  CHECK(parse("0 isend 2 9 3 6").send_bytes == 3);
  Action sr = parse("2 sendRecv 5 3 7 1 0 1", 2);
  CHECK((sr.kind == Kind::SendRecv && sr.peer == 3 && sr.peer2 == 1 && sr.send_bytes == 40 && sr.recv_bytes == 28));
  Action w = parse("0 wait 1 0 7");
  CHECK((w.kind == Kind::Wait && w.peer == 1 && w.peer2 == 0 && w.tag == 7));
  CHECK(parse("0 wait -333 -333 -779").peer == -333);  // a nonblocking collective's request: matches nothing
  // MPI_ANY_SOURCE / MPI_ANY_TAG receives as SMPI 3.32 traces them (recorded: "irecv -333 5 1 1", "wait -333 0 5",
  // "recv -333 -444 1 1"): the stack's wildcards, and the wait names the same request.
  Action any = parse("0 irecv -333 5 1 1");
  CHECK((any.kind == Kind::Irecv && any.peer == -1 && any.tag == 5 && any.recv_bytes == 4));
  Action anyw = parse("0 wait -333 0 5");
  CHECK((anyw.peer == -1 && anyw.peer2 == 0 && anyw.tag == 5));
  Action anyt = parse("0 recv -333 -444 1 1");
  CHECK((anyt.kind == Kind::Recv && anyt.peer == -1 && anyt.tag == -1));
  CHECK(parse("0 test 0 1 9").kind == Kind::Test);
  CHECK(parse("0 waitall 2").kind == Kind::Waitall);
  CHECK(parse("0 barrier").kind == Kind::Barrier);
  Action ar = parse("0 allreduce 8 0 0 ");  // SMPI leaves a trailing space
  CHECK((ar.kind == Kind::Allreduce && ar.send_bytes == 64 && ar.amount == 0));
  Action bc = parse("0 bcast 128 1 0 ");
  CHECK((bc.kind == Kind::Bcast && bc.root == 1 && bc.send_bytes == 1024));
  Action rd = parse("0 reduce 16 2.5e3 2 0 ");
  CHECK((rd.kind == Kind::Reduce && rd.root == 2 && rd.send_bytes == 128 && rd.amount == 2500));
  Action a2a = parse("0 alltoall 4 4 0 0");
  CHECK((a2a.kind == Kind::Alltoall && a2a.send_bytes == 32 && a2a.recv_bytes == 32));
  Action g = parse("0 gather 4 4 3 0 0");
  CHECK((g.kind == Kind::Gather && g.root == 3 && g.send_bytes == 32));
  CHECK(parse("0 allgather 4 4 0 0").kind == Kind::Allgather);
  CHECK(parse("0 scatter 4 4 2 0 0").root == 2);
  Action v = parse("1 alltoallv 14 2 3 4 5 14 2 3 4 5 0 1", 1);
  CHECK(v.kind == Kind::Alltoallv);
  CHECK(v.counts_send == std::vector<std::uint64_t>{16, 24, 32, 40});
  CHECK(v.counts_recv == std::vector<std::uint64_t>{8, 12, 16, 20});
  Action gv = parse("0 gatherv 1 1 2 3 4 0 0 0");
  CHECK((gv.kind == Kind::Gatherv && gv.send_bytes == 8 && gv.root == 0));
  CHECK(gv.counts_recv == std::vector<std::uint64_t>{8, 16, 24, 32});
  Action agv = parse("2 allgatherv 3 1 2 3 4 0 0", 2);
  CHECK((agv.kind == Kind::Allgatherv && agv.send_bytes == 24 && agv.counts_recv.size() == 4));
  Action sv = parse("1 scatterv 0 0 0 0 2 0 0 0", 1);
  CHECK((sv.kind == Kind::Scatterv && sv.recv_bytes == 16 && sv.counts_send == std::vector<std::uint64_t>(4, 0)));
  Action rs = parse("0 reducescatter 2 2 2 2 100 0");
  CHECK((rs.kind == Kind::ReduceScatter && rs.amount == 100 && rs.counts_recv == std::vector<std::uint64_t>(4, 16)));
  CHECK(parse("0 scan 3 0 0 ").send_bytes == 24);
  CHECK(parse("0 exscan 3 0 0 ").kind == Kind::Exscan);
  CHECK(parse("0 comm_size 4").kind == Kind::NoOp);
  CHECK(parse("0 sleep 0.5").amount == 0.5);
  CHECK(parse("0 recv 1 -1 10 1").tag == -1);  // MPI_ANY_TAG
  // Counts written as doubles (SMPI's replay accepts them).
  CHECK(parse("0 send 1 3 1e3 6").send_bytes == 1000);
  std::uint32_t dt = 1;
  Action a;
  CHECK_FALSE(parse_line("   ", 0, 4, dt, "r.txt", 1, a));
  CHECK_FALSE(parse_line("# comment", 0, 4, dt, "r.txt", 1, a));
  // "init" with an argument makes MPI_DOUBLE the default datatype (MPE traces), as in SMPI's replay.
  REQUIRE(parse_line("0 init 1", 0, 4, dt, "r.txt", 1, a));
  REQUIRE(parse_line("0 send 1 3 10", 0, 4, dt, "r.txt", 2, a));
  CHECK(a.send_bytes == 80);
}

// Configuration: malformed lines, lines of another rank, actions SMPI writes that cannot be replayed, unknown
// datatypes and out-of-range values. Expected: InputError naming the file, the line number and the reason.
// How validated: the error text.
TEST_CASE("ti trace: malformed and unreplayable lines are input errors naming file and line", "[replay][trace]") {
  CHECK_THAT(error("0 isend 1 x7 512 0"), Catch::Contains("r.txt: line 7: isend: tag 'x7' is not an integer"));
  CHECK_THAT(error("0 isend 1 7"), Catch::Contains("line 7: isend: expected 'peer tag count [datatype]'"));
  CHECK_THAT(error("0 isend 4 7 1 0"), Catch::Contains("peer 4 is not a rank of the trace's 4 ranks"));
  CHECK_THAT(error("0 irecv -2 7 1 0"), Catch::Contains("peer -2 is not a rank of MPI_COMM_WORLD"));
  CHECK_THAT(error("0 send -333 7 1 0"), Catch::Contains("is not a rank of MPI_COMM_WORLD"));  // only receives
  CHECK_THAT(error("0 irecv 1 -7 1 0"), Catch::Contains("tag -7 is negative"));
  CHECK_THAT(error("1 barrier"), Catch::Contains("line 7: the line is rank 1's but the file is rank 0's"));
  CHECK_THAT(error("x barrier"), Catch::Contains("the first field 'x' is not a rank"));
  CHECK_THAT(error("0 ibarrier"), Catch::Contains("action 'ibarrier' cannot be replayed: nonblocking collective"));
  CHECK_THAT(error("0 Ssend 1 0 3 0"), Catch::Contains("action 'Ssend' cannot be replayed"));
  CHECK_THAT(error("0 Win_fence"), Catch::Contains("one-sided"));
  CHECK_THAT(error("0 waitAny 2"), Catch::Contains("cannot be replayed"));
  CHECK_THAT(error("0 frobnicate 1"), Catch::Contains("unknown action 'frobnicate'"));
  CHECK_THAT(error("0 send 1 3 10 77"), Catch::Contains("datatype id 77 is not a predefined SMPI datatype"));
  CHECK_THAT(error("0 send 1 3 10 55"), Catch::Contains("datatype id 55"));  // MPI_UB: no data
  CHECK_THAT(error("0 send 1 3 -5 0"), Catch::Contains("count -5 is outside"));
  CHECK_THAT(error("0 send 1 3 99999999999999999 0"), Catch::Contains("send"));
  // A whole number too large for a count is out of range, not "not an integer".
  CHECK_THAT(error("0 send 1 3 99999999999999999999999 0"),
             Catch::Contains("count '99999999999999999999999' is outside [0,"));
  CHECK_THAT(error("0 send 1 3 1.5 0"), Catch::Contains("count '1.5' is not an integer"));
  CHECK_THAT(error("0 compute nan"), Catch::Contains("flops 'nan' is not a number"));
  CHECK_THAT(error("0 compute -1"), Catch::Contains("flops -1 is outside"));
  CHECK_THAT(error("0 alltoallv 10 1 2 3 4 10 1 2 3"), Catch::Contains("alltoallv: expected"));
  CHECK_THAT(error("0 bcast 4 9 0"), Catch::Contains("root 9 is not a rank"));
  CHECK(datatype_size(0) == 8);
  CHECK(datatype_size(1) == 4);
  CHECK(datatype_size(6) == 1);
  CHECK(datatype_size(57) == 1);  // MPI_PACKED
  CHECK(datatype_size(60) == 0);
  CHECK(datatype_size(-1) == 0);
}

// Configuration: an index written as smpirun writes it (paths relative to where smpirun ran, here a directory that
// no longer exists relative to the index), and action files read through a 256-byte buffer: a line longer than the
// buffer (an alltoallv of 64 ranks), CRLF line ends, blank lines, a last line without a newline, a NUL byte.
// Expected: the index finds the files in <index>_files/; the reader returns every action in order with its line number
// and reports the NUL byte with its line; a missing action file is named with the index line.
// How validated: the actions read, line(), the error texts.
TEST_CASE("ti trace: the index and the lazy per-rank reader", "[replay][trace]") {
  auto d = tmpdir("idx");
  write(d / "t.txt", "elsewhere/t.txt_files/x_rank-1.txt\nelsewhere/t.txt_files/x_rank-2.txt\n");
  std::string v = "1 alltoallv 64";
  for (int i = 0; i < 64; ++i) v += " 1";
  v += " 64";
  for (int i = 0; i < 64; ++i) v += " 1";
  v += " 0 0";
  write(d / "t.txt_files/x_rank-1.txt", "0 init\r\n\n0 compute 5\n0 send 1 3 1000 6\n0 finalize");
  write(d / "t.txt_files/x_rank-2.txt", "1 init\n" + v + "\n1 recv 0 3 1000 6\n1 barrier\n");
  auto files = read_index((d / "t.txt").string(), 100);
  REQUIRE(files.size() == 2);
  CHECK(files[1] == (d / "t.txt_files/x_rank-2.txt").lexically_normal().string());
  RankReader r0(files[0], 0, 64, 256), r1(files[1], 1, 64, 256);
  Action a;
  std::vector<Kind> k0;
  while (r0.next(a)) k0.push_back(a.kind);
  CHECK(k0 == std::vector<Kind>{Kind::Init, Kind::Compute, Kind::Send, Kind::Finalize});
  CHECK(r0.line() == 5);
  REQUIRE(r1.next(a));
  REQUIRE(r1.next(a));
  CHECK(a.kind == Kind::Alltoallv);
  CHECK(a.counts_send.size() == 64);
  CHECK(r1.line() == 2);
  REQUIRE(r1.next(a));
  CHECK((a.kind == Kind::Recv && a.recv_bytes == 1000));
  REQUIRE(r1.next(a));
  CHECK_FALSE(r1.next(a));
  CHECK_THROWS_WITH(read_index((d / "t.txt").string(), 1), Catch::Contains("more than 1 ranks"));
  write(d / "u.txt", "u.txt_files/a.txt\nmissing/b.txt\n");
  write(d / "u.txt_files/a.txt", "0 init\n");
  CHECK_THROWS_WITH(read_index((d / "u.txt").string(), 10), Catch::Contains("line 2: rank 1's action file 'missing/b.txt' not found"));
  // A line naming the <index>_files/ folder: the index's folder and that folder give one path, named once.
  write(d / "w.txt", "w.txt_files/a.txt\nw.txt_files/b.txt\n");
  write(d / "w.txt_files/a.txt", "0 init\n");
  const std::string b = (d / "w.txt_files/b.txt").lexically_normal().string();
  CHECK_THROWS_WITH(read_index((d / "w.txt").string(), 10),
                    Catch::Contains("(looked for " + b + " and w.txt_files/b.txt in the working directory)"));
  // A file that is no index (its line no file name): the line is not echoed to the error stream.
  write(d / "secret.txt", "API_TOKEN=s3cr3t value\n");
  CHECK_THROWS_WITH(read_index((d / "secret.txt").string(), 10),
                    Catch::Contains("line 1: not the name of an action file") && !Catch::Contains("s3cr3t"));
  write(d / "e.txt", "\n# nothing\n");
  CHECK_THROWS_WITH(read_index((d / "e.txt").string(), 10), Catch::Contains("names no action file"));
  write(d / "nul.txt", std::string("0 init\n0 comp\0ute 1\n", 20));
  RankReader rn((d / "nul.txt").string(), 0, 1, 256);
  REQUIRE(rn.next(a));
  CHECK_THROWS_WITH(rn.next(a), Catch::Contains("nul.txt: line 2: contains a NUL byte"));
  std::filesystem::remove_all(d);
}

// Configuration: a folder "tr" holding an index, its <index>_files/ and a file of its own, a sibling folder "tr2" (its
// name starts with "tr") and files beside both; index lines naming: the sibling's file through '..', a file beside
// by an absolute path, a symbolic link in tr to the other, a line whose only file is outside but whose name is in
// <index>_files/ (SMPI's layout), tr's own file by an absolute path through '..', and "sub/../../etc/x.txt" where
// sub links to tr/a/b (tr/etc/x.txt; lexically, etc/x.txt beside tr).
// Expected: the first three are refused naming the index, the line and the file as resolved; the last three read,
// each the file inside tr. Fails when the check compares text (tr2 as inside tr) or does not follow the link.
// How validated: the InputError texts and the paths read.
TEST_CASE("ti trace: an index line naming a file outside the index's folder is refused", "[replay][trace]") {
  namespace fs = std::filesystem;
  const fs::path d = fs::weakly_canonical(tmpdir("outside"));
  write(d / "tr/own.txt", "0 init\n");
  write(d / "tr/i.txt_files/beside.txt", "0 init\n");
  write(d / "tr2/x.txt", "0 init\n");
  write(d / "beside.txt", "0 init\n");
  write(d / "other.txt", "0 init\n");
  fs::create_symlink(d / "beside.txt", d / "tr/link.txt");
  const std::string index = (d / "tr/i.txt").string();
  auto refused = [&](const std::string& line) {
    write(index, line + "\n");
    try {
      (void)read_index(index, 10);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string folder = ", outside the trace's folder " + (d / "tr").string();
  CHECK_THAT(refused("../tr2/x.txt"), Catch::StartsWith(index + ": line 1: rank 0's action file '../tr2/x.txt' is " +
                                                        (d / "tr2/x.txt").string() + folder));
  CHECK_THAT(refused((d / "other.txt").string()), Catch::Contains("is " + (d / "other.txt").string() + folder));
  CHECK_THAT(refused("link.txt"), Catch::Contains("'link.txt' is " + (d / "beside.txt").string() + folder));
  write(index, "../beside.txt\n" + (d / "tr/../tr/own.txt").string() + "\n");
  const auto files = read_index(index, 10);
  CHECK(files == std::vector<std::string>{(d / "tr/i.txt_files/beside.txt").string(), (d / "tr/own.txt").string()});
  // '..' after a symbolic link: the file read is the file checked, inside tr (lexically the line is d/etc/x.txt)
  fs::create_directories(d / "tr/a/b");
  fs::create_symlink("a/b", d / "tr/sub");
  write(d / "tr/etc/x.txt", "0 init\n");
  write(d / "etc/x.txt", "0 init\n");
  write(index, "sub/../../etc/x.txt\n");
  CHECK(read_index(index, 10) == std::vector<std::string>{(d / "tr/etc/x.txt").string()});
  fs::remove_all(d);
}

// Configuration: a trace whose rank 1 file is empty (0 bytes), and one whose rank 1 file holds only blank and comment
// lines. SMPI's own replay accepts both (the rank runs nothing: ti_reader.hpp); smpirun never writes them.
// Expected: read_index refuses the empty file before any rank is read, naming it and the rank; the reader of the
// comment-only file refuses it at its end, naming it; a file with one action reads.
// How validated: the error texts.
TEST_CASE("ti trace: a rank's action file without any action is refused", "[replay][trace]") {
  auto d = tmpdir("noaction");
  write(d / "i.txt", "r0.txt\nr1.txt\n");
  write(d / "r0.txt", "0 init\n0 finalize\n");
  write(d / "r1.txt", "");
  const std::string r1 = (d / "r1.txt").lexically_normal().string();
  CHECK_THROWS_WITH(read_index((d / "i.txt").string(), 10),
                    Catch::StartsWith(r1 + ": rank 1's action file holds no action, not even init or finalize"));
  write(d / "r1.txt", "\n# recorded by hand\n\n");
  auto files = read_index((d / "i.txt").string(), 10);
  REQUIRE(files.size() == 2);
  Action a;
  RankReader blank(files[1], 1, 2, 256);
  CHECK_THROWS_WITH(blank.next(a), Catch::StartsWith(r1 + ": rank 1's action file holds no action"));
  RankReader good(files[0], 0, 2, 256);
  CHECK(good.next(a));
  CHECK(good.next(a));
  CHECK_FALSE(good.next(a));
  std::filesystem::remove_all(d);
}

// Configuration: replay blocks with the fixture trace of 2 ranks (benchmarks/tests/data/ti_pair), relative to the
// scenario file: without flop_rate, with a bad unit, with another rank count, with an unknown collective choice and
// an algorithm this project lacks. Expected: InputError naming the scenario and the key.
// How validated: the error text; the good block parses.
TEST_CASE("replay driver: its block is checked against the trace", "[replay][driver]") {
  auto sc = [](Json block, long long ranks = 2) {
    block["name"] = "replay";
    return Json{{"machine", "loggp"}, {"stack", "loggp"}, {"ranks", ranks}, {"benchmark", block}};
  };
  auto err = [](const Json& s) {
    try {
      (void)scenario_from_json(s, "drv.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string tr = ompisim::data_dir() + "/benchmarks/tests/data/ti_pair/trace.txt";  // any working directory
  CHECK(err(sc(Json{{"trace", tr}, {"flop_rate", "2 Gf/s"}})).empty());
  CHECK(err(sc(Json{{"trace", tr}, {"flop_rate", 1e9}, {"collectives", "mpich"}})).empty());
  CHECK_THAT(err(sc(Json{{"trace", tr}})), Catch::Contains("key 'benchmark.flop_rate'") && Catch::Contains("required"));
  CHECK_THAT(err(sc(Json{{"trace", tr}, {"flop_rate", "2 GB/s"}})), Catch::Contains("unknown unit 'GB/s'"));
  CHECK_THAT(err(sc(Json{{"trace", tr}, {"flop_rate", "1 Gf/s"}}, 4)),
             Catch::Contains("key 'ranks'") && Catch::Contains("has 2 ranks"));
  CHECK_THAT(err(sc(Json{{"trace", tr}, {"flop_rate", "1 Gf/s"}, {"collectives", "tunde"}})),
             Catch::Contains("key 'benchmark.collectives'"));
  // a library whose tables cover some collectives only (v1.3's has no gather, scatter or allgather)
  CHECK_THAT(err(sc(Json{{"trace", tr}, {"flop_rate", "1 Gf/s"}, {"collectives", "tuned-v1.3"}})),
             Catch::Contains("key 'benchmark.collectives'") && Catch::Contains("cover every collective"));
  CHECK_THAT(err(sc(Json{{"trace", tr}, {"flop_rate", "1 Gf/s"}, {"algorithms", Json{{"allreduce", "rign"}}}})),
             Catch::Contains("benchmark.algorithms.allreduce") && Catch::Contains("recursive_doubling"));
  CHECK_THAT(err(sc(Json{{"trace", "nope/trace.txt"}, {"flop_rate", "1 Gf/s"}})),
             Catch::Contains("key 'benchmark.trace'") && Catch::Contains("not a file"));
}

// Configuration: a 16-rank trace whose every rank calls MPI_Bcast of 1 B from root 5 (a rank that is not its node's
// lowest), then MPI_Allreduce of 2 doubles, then MPI_Reduce of 2 doubles to root 5, replayed on Cielo with
// "collectives": "mpich" at 4 ranks a node and at 1 rank a node; and a block naming the composition "mpich_smp" in
// "algorithms". Expected (MPICH v3.4a2 MPIDI_Bcast_select, MPIDI_Allreduce_select and MPIDI_Reduce_select, as
// osu_bcast and osu_allreduce "mpich" in test_osu_coll.cpp): 4 a node: the node-aware compositions mpich_smp (their
// stages need the placement's layout); 1 a node: the flat MPIR_Bcast_intra_binomial (mpich_binomial), recursive
// doubling and the binomial reduce (16 B); every rank finishes, no fallback; the composition named alone is refused
// naming benchmark.algorithms.bcast. Fails when the replay decides on a flat communicator.
// How validated: the run's "algorithm" rows (rank 0's calls) and the InputError text.
TEST_CASE("replay driver: MPICH's node-aware bcast, allreduce and reduce are chosen from the placement", "[replay][driver]") {
  const int n = 16;
  auto dir = tmpdir("smp");
  std::string index;
  for (int r = 0; r < n; ++r) {
    std::string f = "r/rank-" + std::to_string(r) + ".txt";
    write(dir / f, fmt::format("{0} init\n{0} bcast 1 5 6\n{0} allreduce 2 0 6\n{0} reduce 2 0 5 6\n{0} finalize\n", r));
    index += f + "\n";
  }
  write(dir / "trace.txt", index);
  auto block = [&](Json extra) {
    Json b{{"name", "replay"}, {"trace", (dir / "trace.txt").string()}, {"flop_rate", "1 Gf/s"}};
    b.update(extra);
    return b;
  };
  auto used = [&](int rpn) {
    Scenario s = scenario_from_json(Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", n},
                                         {"ranks_per_node", rpn}, {"benchmark", block({{"collectives", "mpich"}})}},
                                    "r.json");
    test::Fixture f("cielo", n, rpn, "openmpi");
    Json pts = s.driver->run(*f.world, *f.stack, "r.json");
    std::vector<std::string> names;
    for (const auto& p : pts)
      if (p["row"] == "algorithm") names.push_back(p["name"].get<std::string>());
    return names;
  };
  CHECK(used(4) == std::vector<std::string>{"allreduce mpich_smp", "bcast mpich_smp", "reduce mpich_smp"});
  CHECK(used(1) ==
        std::vector<std::string>{"allreduce recursive_doubling", "bcast mpich_binomial", "reduce mpich_binomial"});
  try {
    (void)scenario_from_json(Json{{"machine", "cielo"}, {"stack", "openmpi"}, {"ranks", n}, {"ranks_per_node", 4},
                                  {"benchmark", block({{"algorithms", Json{{"bcast", "mpich_smp"}}}})}},
                             "r.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("benchmark.algorithms.bcast") && Catch::Contains("composition"));
  }
  std::filesystem::remove_all(dir);
}

// Configuration: 2-rank traces on crusher with Open MPI over LINKx (ompi_mtl_ofi_inject = "blocking":
// v5.0.0rc11 injects MPI_Send only): 8 B from rank 0 to rank 1 as "send" (MPI_Send) and as "isend" + "waitall"
// (MPI_Isend), rank 1 receiving with "recv"; and both ranks exchanging 8 B with "sendRecv" (Open MPI's MPI_Sendrecv:
// an irecv, then a blocking send). Expected: blocking sends are injected and write no send CQ entry: send 1 LINKx CQ
// write (the receive's), isend 2, sendRecv 2 (the two receives; 4 if its sends were not blocking).
// How validated: linkx_cq_writes of the run's stack; fails when the replay marks every send non-blocking.
TEST_CASE("replay driver: the trace's send and sendRecv are MPI_Send and isend is MPI_Isend", "[replay][driver]") {
  auto cq_writes = [](const std::string& rank0, const std::string& rank1) {
    auto dir = tmpdir("blk");
    write(dir / "r/rank-0.txt", "0 init\n" + rank0 + "0 finalize\n");
    write(dir / "r/rank-1.txt", "1 init\n" + rank1 + "1 finalize\n");
    write(dir / "trace.txt", "r/rank-0.txt\nr/rank-1.txt\n");
    Json b{{"name", "replay"}, {"trace", (dir / "trace.txt").string()}, {"flop_rate", "1 Gf/s"}};
    Scenario s = scenario_from_json(
        Json{{"machine", "crusher"}, {"stack", "openmpi-linkx"}, {"ranks", 2}, {"ranks_per_node", 1}, {"benchmark", b}},
        "r.json");
    test::Fixture f("crusher", 2, 1, "openmpi-linkx");
    (void)s.driver->run(*f.world, *f.stack, "r.json");
    std::filesystem::remove_all(dir);
    return f.stack->stats().counters["linkx_cq_writes"];
  };
  CHECK(cq_writes("0 send 1 0 8 6\n", "1 recv 0 0 8 6\n") == 1u);
  CHECK(cq_writes("0 isend 1 0 8 6\n0 waitall 1\n", "1 recv 0 0 8 6\n") == 2u);
  CHECK(cq_writes("0 sendRecv 8 1 8 1 6 6\n", "1 sendRecv 8 0 8 0 6 6\n") == 2u);
}

// Configuration: 2 Cielo ranks on 2 nodes (Open MPI over btl/ugni and Cray MPT), connected by a first exchange; rank 0
// posts two isends of 64 B to rank 1 and at once computes 1e6 flops at 1 Gf/s, then waits; rank 1 receives.
// Expected: rank 0's compute_s is the 1 ms of its flops and the CQ events its core reaps meanwhile (under 1 us): the
// MPI work the isends left queued on its core (the SMSG posts) is MPI time, not compute, where the replay timed compute
// from the action's start. How validated: the driver's per-rank row.
TEST_CASE("replay: compute is timed from when the core is free, not from the action's start", "[replay][driver]") {
  for (const std::string stack : {"openmpi", "native"}) {
    INFO(stack);
    auto dir = tmpdir("compute-" + stack);
    write(dir / "r/rank-0.txt", "0 init\n0 send 1 9 8 6\n0 recv 1 9 8 6\n0 isend 1 0 64 6\n0 isend 1 1 64 6\n"
                                "0 compute 1000000\n0 waitall 2\n0 finalize\n");
    write(dir / "r/rank-1.txt", "1 init\n1 recv 0 9 8 6\n1 send 0 9 8 6\n1 recv 0 0 64 6\n1 recv 0 1 64 6\n1 finalize\n");
    write(dir / "trace.txt", "r/rank-0.txt\nr/rank-1.txt\n");
    Json b{{"name", "replay"}, {"trace", (dir / "trace.txt").string()}, {"flop_rate", "1 Gf/s"}};
    Scenario s = scenario_from_json(
        Json{{"machine", "cielo"}, {"stack", stack}, {"ranks", 2}, {"ranks_per_node", 1}, {"benchmark", b}}, "r.json");
    test::Fixture f("cielo", 2, 1, stack);
    const Json pts = s.driver->run(*f.world, *f.stack, "r.json");
    std::filesystem::remove_all(dir);
    bool seen = false;
    for (const Json& p : pts)
      if (p.contains("rank") && p["rank"] == 0) {
        seen = true;
        // at least the flops' time; beyond it only what the core does while computing (the send CQ events reaped as
        // the acknowledgements return, under 1 us), not the isends' queued work (tens of us when timed from the
        // action's start)
        CHECK(p["compute_s"].get<double>() >= 1e-3);
        CHECK(p["compute_s"].get<double>() < 1e-3 + 1e-6);
        CHECK(p["time_s"].get<double>() > 1e-3);
      }
    CHECK(seen);
  }
}

// Configuration: the replay's size classes (k: sizes in (2^(k-1), 2^k]) at 0 B, 1 B, 2 KiB, 64 KiB, 128 KiB and 4 GiB.
// Expected: small bounds in bytes or exact units; above 64 KiB the lower bound is the class below's upper one + 1 B.
// How validated: the labels.
TEST_CASE("replay: size classes are labelled in units at every size", "[replay][unit]") {
  using ompisim::bench::replay::size_class;
  CHECK(size_class(-1) == "0 B");
  CHECK(size_class(0) == "1 B");
  CHECK(size_class(11) == "1025 B .. 2 KiB");
  CHECK(size_class(16) == "32769 B .. 64 KiB");
  CHECK(size_class(17) == "64 KiB + 1 B .. 128 KiB");
  CHECK(size_class(42) == "2 TiB + 1 B .. 4 TiB");
}

// Configuration: a rank's action file with a 4 MiB comment line between two actions, read through a 256-byte buffer.
// Expected: both actions read; the buffer grows for the long line and is back under 4 chunks once the action after it
//           is read, so ranks that each had one long line do not each keep a buffer of its size.
// How validated: RankReader::buffer_bytes after each action.
TEST_CASE("ti trace: a rank's buffer shrinks after a long line", "[replay][trace]") {
  auto d = tmpdir("longline");
  write(d / "r0.txt", "0 init\n# " + std::string(4u << 20, 'x') + "\n0 compute 5\n0 finalize\n");
  RankReader r((d / "r0.txt").string(), 0, 1, 256);
  Action a;
  REQUIRE(r.next(a));
  CHECK(a.kind == Kind::Init);
  REQUIRE(r.next(a));
  CHECK(a.kind == Kind::Compute);
  CHECK(r.buffer_bytes() <= 4 * 256);
  REQUIRE(r.next(a));
  CHECK(a.kind == Kind::Finalize);
  std::filesystem::remove_all(d);
}
