// See ti_trace.hpp: the action names SMPI writes, the datatype sizes and the parser of one action line.
#include "benchmarks/replay/ti_trace.hpp"

#include "core/error_text.hpp"
#include "core/errors.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>
#include <vector>

namespace ompisim::bench::ti {
namespace {
constexpr long long kSmpiUndefined = -333;  // MPI_UNDEFINED in SimGrid's smpi.h: a traced MPI_ANY_SOURCE
constexpr long long kSmpiAnyTag = -444;     // MPI_ANY_TAG in SimGrid's smpi.h

struct KindName {
  const char* name;
  Kind kind;
};
// Every action SMPI 3.32's TI tracing writes that a replay can run (SMPI's replay registers the same names).
const KindName kKinds[] = {
    {"init", Kind::Init},           {"finalize", Kind::Finalize},   {"comm_size", Kind::NoOp},
    {"comm_split", Kind::NoOp},     {"comm_dup", Kind::NoOp},       {"location", Kind::NoOp},
    {"compute", Kind::Compute},     {"sleep", Kind::Sleep},         {"send", Kind::Send},
    {"isend", Kind::Isend},         {"recv", Kind::Recv},           {"irecv", Kind::Irecv},
    {"sendRecv", Kind::SendRecv},   {"wait", Kind::Wait},           {"test", Kind::Test},
    {"waitall", Kind::Waitall},     {"barrier", Kind::Barrier},     {"bcast", Kind::Bcast},
    {"reduce", Kind::Reduce},       {"allreduce", Kind::Allreduce}, {"scan", Kind::Scan},
    {"exscan", Kind::Exscan},       {"alltoall", Kind::Alltoall},   {"gather", Kind::Gather},
    {"allgather", Kind::Allgather}, {"scatter", Kind::Scatter},     {"alltoallv", Kind::Alltoallv},
    {"gatherv", Kind::Gatherv},     {"allgatherv", Kind::Allgatherv}, {"scatterv", Kind::Scatterv},
    {"reducescatter", Kind::ReduceScatter}};

// What SMPI writes but no replay (SMPI's or this one) can run, with the reason.
std::string refused_reason(std::string_view name) {
  static const std::map<std::string, std::string, std::less<>> r{
      {"ibarrier", "nonblocking collective"}, {"ibcast", "nonblocking collective"},
      {"ireduce", "nonblocking collective"}, {"iallreduce", "nonblocking collective"},
      {"iscan", "nonblocking collective"}, {"iexscan", "nonblocking collective"},
      {"ialltoall", "nonblocking collective"}, {"ialltoallv", "nonblocking collective"},
      {"igather", "nonblocking collective"}, {"iallgather", "nonblocking collective"},
      {"iscatter", "nonblocking collective"}, {"igatherv", "nonblocking collective"},
      {"iallgatherv", "nonblocking collective"}, {"iscatterv", "nonblocking collective"},
      {"ireducescatter", "nonblocking collective"},
      {"Ssend", "synchronous/buffered send (SMPI's replay has no such action)"},
      {"ISsend", "synchronous/buffered send (SMPI's replay has no such action)"},
      {"bsend", "synchronous/buffered send (SMPI's replay has no such action)"},
      {"ibsend", "synchronous/buffered send (SMPI's replay has no such action)"},
      {"waitAny", "the TI line does not say which request completed"},
      {"testany", "the TI line does not say which request completed"},
      {"testall", "the TI line does not name its requests"}, {"testsome", "the TI line does not name its requests"},
      {"Start", "persistent requests: the TI line does not name the request"},
      {"Startall", "persistent requests: the TI line does not name the requests"},
      {"migrate", "AMPI migration"}, {"iteration_in", "AMPI iteration marker"}, {"iteration_out", "AMPI iteration marker"},
      {"Put", "one-sided communication"}, {"Get", "one-sided communication"}, {"Accumulate", "one-sided communication"},
      {"Compare_and_swap", "one-sided communication"}, {"Get_accumulate", "one-sided communication"},
      {"Fetch_and_op", "one-sided communication"}, {"Rput", "one-sided communication"}, {"Rget", "one-sided communication"},
      {"IO", "MPI-IO"}};
  auto it = r.find(name);
  if (it != r.end()) return it->second;
  if (name.substr(0, 4) == "Win_") return "one-sided communication";
  return "";
}

// A field of the trace quoted in an error: when longer than kMaxEchoChars bytes, its first bytes, "..." and its length
// (the form core/error_text.hpp's one_line gives, which leaves it as it is), so a line of a hostile trace (up to
// kMaxLineBytes) is never copied whole into the message.
std::string quoted(std::string_view t) {
  if (t.size() <= kMaxEchoChars) return fmt::format("'{}'", t);
  return fmt::format("'{}...' ({} bytes)", t.substr(0, kMaxEchoChars - 3), t.size());
}

[[noreturn]] void fail(const std::string& file, std::uint64_t line, const std::string& reason) {
  throw InputError(file, "", fmt::format("line {}: {}", line, reason));
}

struct Parser {
  std::string_view tok[16];
  std::vector<std::string_view> more;  // tokens beyond the first 16 (v-collectives)
  std::size_t n = 0;
  const std::string& file;
  std::uint64_t line;
  std::string_view at(std::size_t i) const { return i < 16 ? tok[i] : more[i - 16]; }
  void push(std::string_view t) {
    if (n < 16) tok[n] = t;
    else more.push_back(t);
    ++n;
  }
  [[noreturn]] void bad(const std::string& reason) const { fail(file, line, reason); }
  std::string name() const { return std::string(at(1)); }

  long long integer(std::size_t i, long long lo, long long hi, const char* what) const {
    std::string_view t = at(i);
    long long v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size()) {
      double d = 0;  // SMPI's replay reads counts as doubles ("1e+06"), truncated
      auto [q, ec2] = std::from_chars(t.data(), t.data() + t.size(), d);
      const bool number = ec2 == std::errc() && q == t.data() + t.size() && std::isfinite(d);
      if (number && d == std::trunc(d) && std::fabs(d) > 9e18)
        bad(fmt::format("{}: {} {} is outside [{}, {}]", name(), what, quoted(t), lo, hi));
      if (!number || d != std::trunc(d) || std::fabs(d) > 9e18)
        bad(fmt::format("{}: {} {} is not an integer", name(), what, quoted(t)));
      v = static_cast<long long>(d);
    }
    if (v < lo || v > hi) bad(fmt::format("{}: {} {} is outside [{}, {}]", name(), what, v, lo, hi));
    return v;
  }
  double real(std::size_t i, double lo, double hi, const char* what) const {
    std::string_view t = at(i);
    double d = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
    if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(d))
      bad(fmt::format("{}: {} {} is not a number", name(), what, quoted(t)));
    if (d < lo || d > hi) bad(fmt::format("{}: {} {} is outside [{}, {}]", name(), what, d, lo, hi));
    return d;
  }
  void need(std::size_t lo, std::size_t hi, const char* form) const {
    std::size_t args = n - 2;
    if (args < lo || args > hi)
      bad(fmt::format("{}: expected '{}' ({} argument{}), got {}", name(), form, lo == hi ? fmt::format("{}", lo)
                                                                                         : fmt::format("{} to {}", lo, hi),
                      hi == 1 ? "" : "s", args));
  }
  std::uint32_t dt(std::size_t i, std::uint32_t def) const {
    if (i >= n) return def;
    long long id = integer(i, -1, 1000000, "datatype");
    std::uint32_t s = id >= 0 ? datatype_size(static_cast<int>(id)) : 0;
    if (s == 0)
      bad(fmt::format("{}: datatype id {} is not a predefined SMPI datatype (a derived datatype: the trace does not "
                      "give its size)", name(), id));
    return s;
  }
  std::uint64_t bytes(long long count, std::uint32_t dts) const {
    std::uint64_t b = static_cast<std::uint64_t>(count) * dts;
    if (b > kMaxBytes) bad(fmt::format("{}: {} B is more than the bound of {} B", name(), b, kMaxBytes));
    return b;
  }
};
}  // namespace

const char* kind_name(Kind k) {
  for (const auto& e : kKinds)
    if (e.kind == k && k != Kind::NoOp) return e.name;
  return "no-op";
}

bool kind_of(std::string_view name, Kind& out) {
  // The names as views (their lengths known): most names differ from the one looked for in length, a compare each.
  static const std::vector<std::pair<std::string_view, Kind>> names = [] {
    std::vector<std::pair<std::string_view, Kind>> v;
    for (const auto& e : kKinds) v.emplace_back(e.name, e.kind);
    return v;
  }();
  for (const auto& [n, k] : names)
    if (name == n) {
      out = k;
      return true;
    }
  return false;
}

bool is_collective(Kind k) { return k >= Kind::Barrier; }

bool is_all_pairs(Kind k) {
  return k == Kind::Alltoall || k == Kind::Alltoallv || k == Kind::Allgather || k == Kind::Allgatherv;
}

std::uint32_t datatype_size(int id) {
  // smpi_datatype.cpp (v3.32) CREATE_MPI_DATATYPE(name, id, type): size = sizeof(type) on x86-64; UB/LB (55, 56)
  // have size 0 and are not data.
  static const std::uint32_t sizes[] = {
      8,  4,  1,  2,  8,  4,  1,  8,  1,  1,   // 0 DOUBLE INT CHAR SHORT LONG FLOAT BYTE LONG_LONG SIGNED_CHAR UCHAR
      2,  4,  8,  8,  16, 4,  1,  1,  2,  4,   // 10 USHORT UNSIGNED ULONG ULLONG LONG_DOUBLE WCHAR C_BOOL INT8..INT32
      8,  1,  2,  4,  8,  8,  16, 32, 8,  8,   // 20 INT64 UINT8..UINT64 C_FLOAT_COMPLEX C_DOUBLE_COMPLEX C_LD_COMPLEX AINT OFFSET
      8,  16, 16, 8,  8,  8,  16, 16, 4,  4,   // 30 FLOAT_INT LONG_INT DOUBLE_INT SHORT_INT 2INT 2FLOAT 2DOUBLE 2LONG REAL REAL4
      8,  16, 8,  16, 16, 4,  2,  4,  8,  16,  // 40 REAL8 REAL16 COMPLEX8 COMPLEX16 COMPLEX32 INTEGER1(int) INTEGER2..16
      32, 1,  8,  16, 32, 0,  0,  1,  8,  8};  // 50 LONG_DOUBLE_INT CXX_BOOL CXX complexes UB LB PACKED PTR COUNT
  if (id < 0 || id >= static_cast<int>(std::size(sizes))) return 0;
  return sizes[id];
}

namespace {

// The fields of one action line after "<rank> <action>": the parser, the action's name, the trace's ranks and the
// datatype size a count is in when the line names none.
struct ActionFields {
  Parser& p;
  std::string_view name;
  long long P;
  std::uint32_t def;

  int peer(std::size_t idx, const char* what) const {
    long long v = p.integer(idx, -0x7fffffff, 0x7fffffff, what);
    if (v < 0 || v >= P) p.bad(fmt::format("{}: {} {} is not a rank of the trace's {} ranks", name, what, v, P));
    return static_cast<int>(v);
  }
  long long count(std::size_t idx, const char* what) const {
    return p.integer(idx, 0, static_cast<long long>(kMaxCount), what);
  }
  void counts(std::size_t from, std::uint32_t dts, std::vector<std::uint64_t>& v) const {
    v.resize(static_cast<std::size_t>(P));
    for (long long r = 0; r < P; ++r)
      v[static_cast<std::size_t>(r)] = p.bytes(count(from + static_cast<std::size_t>(r), "count"), dts);
  }
};

// The fields of a point-to-point action, its wait or test.
void parse_point_to_point(const ActionFields& f, Action& out) {
  Parser& p = f.p;
  const std::string_view name = f.name;
  const long long P = f.P;
  const std::uint32_t def = f.def;
  switch (out.kind) {
    case Kind::Send: case Kind::Isend: case Kind::Recv: case Kind::Irecv: {
      p.need(3, 4, "peer tag count [datatype]");
      bool recv = out.kind == Kind::Recv || out.kind == Kind::Irecv;
      long long pr = p.integer(2, -0x7fffffff, 0x7fffffff, "peer");
      if (pr >= P) p.bad(fmt::format("{}: peer {} is not a rank of the trace's {} ranks", name, pr, P));
      // A receive from MPI_ANY_SOURCE is traced with the rank SMPI's getPid gives it: MPI_UNDEFINED (-333); its tag
      // MPI_ANY_TAG as SMPI's -444. Both become the stack's wildcards (mpi::kAnySource, mpi::kAnyTag).
      if (recv && pr == kSmpiUndefined) pr = -1;
      else if (pr < 0)
        p.bad(fmt::format("{}: peer {} is not a rank of MPI_COMM_WORLD (MPI_PROC_NULL or undefined)", name, pr));
      out.peer = static_cast<int>(pr);
      long long tg = p.integer(3, recv ? kSmpiAnyTag : 0, 0x7fffffff, "tag");
      if (recv && tg < 0 && tg != -1 && tg != kSmpiAnyTag) p.bad(fmt::format("{}: tag {} is negative", name, tg));
      out.tag = static_cast<int>(tg == kSmpiAnyTag ? -1 : tg);
      std::uint64_t b = p.bytes(f.count(4, "count"), p.dt(5, def));
      (recv ? out.recv_bytes : out.send_bytes) = b;
      break;
    }
    case Kind::SendRecv: {
      p.need(4, 6, "sendcount dst recvcount src [sendtype [recvtype]]");
      long long sc = f.count(2, "sendcount"), rc = f.count(4, "recvcount");
      out.peer = f.peer(3, "dst");
      out.peer2 = f.peer(5, "src");
      out.send_bytes = p.bytes(sc, p.dt(6, def));
      out.recv_bytes = p.bytes(rc, p.dt(7, def));
      break;
    }
    case Kind::Wait: case Kind::Test:
      p.need(3, 3, "src dst tag");
      // SMPI writes MPI_UNDEFINED (-333) for a request with no peer (e.g. a nonblocking collective's): no match.
      // An MPI_ANY_SOURCE / MPI_ANY_TAG receive's request is waited for with the values it was posted with (-333,
      // -444): mapped as the receive's, so the wait finds it.
      out.peer = static_cast<int>(p.integer(2, -0x7fffffff, P - 1, "src"));
      out.peer2 = static_cast<int>(p.integer(3, -0x7fffffff, P - 1, "dst"));
      out.tag = static_cast<int>(p.integer(4, -0x7fffffff, 0x7fffffff, "tag"));
      // A rank is 0..P-1 or SMPI's MPI_UNDEFINED; any other negative value names no request SMPI could have traced.
      for (auto [v, what] : {std::pair{out.peer, "src"}, std::pair{out.peer2, "dst"}})
        if (v < 0 && v != kSmpiUndefined)
          p.bad(fmt::format("{}: {} {} is not a rank (0..{}) nor MPI_UNDEFINED ({}), the peer SMPI writes for a request",
                            p.name(), what, v, P - 1, kSmpiUndefined));
      if (out.peer == kSmpiUndefined && out.peer2 >= 0) out.peer = -1;
      if (out.tag == kSmpiAnyTag) out.tag = -1;
      break;
    default: break;
  }
}

// The fields of a collective action.
void parse_collective(const ActionFields& f, Action& out) {
  Parser& p = f.p;
  const long long P = f.P;
  const std::uint32_t def = f.def;
  const std::size_t Pn = static_cast<std::size_t>(P);
  switch (out.kind) {
    case Kind::Bcast:
      p.need(1, 3, "count [root [datatype]]");
      out.root = p.n > 3 ? f.peer(3, "root") : 0;
      out.send_bytes = p.bytes(f.count(2, "count"), p.dt(4, def));
      break;
    case Kind::Reduce:
      p.need(2, 4, "count flops [root [datatype]]");
      out.amount = p.real(3, 0, kMaxFlops, "flops");
      out.root = p.n > 4 ? f.peer(4, "root") : 0;
      out.send_bytes = p.bytes(f.count(2, "count"), p.dt(5, def));
      break;
    case Kind::Allreduce: case Kind::Scan: case Kind::Exscan:
      p.need(2, 3, "count flops [datatype]");
      out.amount = p.real(3, 0, kMaxFlops, "flops");
      out.send_bytes = p.bytes(f.count(2, "count"), p.dt(4, def));
      break;
    case Kind::Alltoall: case Kind::Allgather:
      p.need(2, 4, "sendcount recvcount [sendtype [recvtype]]");
      out.send_bytes = p.bytes(f.count(2, "sendcount"), p.dt(4, def));
      out.recv_bytes = p.bytes(f.count(3, "recvcount"), p.dt(5, def));
      break;
    case Kind::Gather: case Kind::Scatter:
      p.need(2, 5, "sendcount recvcount [root [sendtype [recvtype]]]");
      out.root = p.n > 4 ? f.peer(4, "root") : 0;
      out.send_bytes = p.bytes(f.count(2, "sendcount"), p.dt(5, def));
      out.recv_bytes = p.bytes(f.count(3, "recvcount"), p.dt(6, def));
      break;
    case Kind::Alltoallv: {
      p.need(2 * Pn + 2, 2 * Pn + 4, "sendsum sendcounts[P] recvsum recvcounts[P] [sendtype [recvtype]]");
      std::uint32_t sdt = p.dt(4 + 2 * Pn, def), rdt = p.dt(5 + 2 * Pn, def);
      (void)f.count(2, "send buffer size");
      (void)f.count(3 + Pn, "receive buffer size");
      f.counts(3, sdt, out.counts_send);
      f.counts(4 + Pn, rdt, out.counts_recv);
      break;
    }
    case Kind::Gatherv: case Kind::Allgatherv: {
      bool rooted = out.kind == Kind::Gatherv;
      p.need(Pn + 1, Pn + (rooted ? 4 : 3), rooted ? "sendcount recvcounts[P] [root [sendtype [recvtype]]]"
                                                   : "sendcount recvcounts[P] [sendtype [recvtype]]");
      std::size_t d = 3 + Pn;  // first field after the counts
      if (rooted) out.root = p.n > d ? f.peer(d, "root") : 0, ++d;
      std::uint32_t sdt = p.dt(d, def), rdt = p.dt(d + 1, def);
      out.send_bytes = p.bytes(f.count(2, "sendcount"), sdt);
      f.counts(3, rdt, out.counts_recv);
      break;
    }
    case Kind::Scatterv: {
      p.need(Pn + 1, Pn + 4, "sendcounts[P] recvcount [root [sendtype [recvtype]]]");
      out.root = p.n > 3 + Pn ? f.peer(3 + Pn, "root") : 0;
      std::uint32_t sdt = p.dt(4 + Pn, def), rdt = p.dt(5 + Pn, def);
      f.counts(2, sdt, out.counts_send);
      out.recv_bytes = p.bytes(f.count(2 + Pn, "recvcount"), rdt);
      break;
    }
    case Kind::ReduceScatter: {
      p.need(Pn + 1, Pn + 2, "recvcounts[P] flops [datatype]");
      out.amount = p.real(2 + Pn, 0, kMaxFlops, "flops");
      f.counts(2, p.dt(3 + Pn, def), out.counts_recv);
      break;
    }
    default: break;
  }
}

}  // namespace

bool parse_line(std::string_view line, int rank, int nranks, std::uint32_t& default_dt, const std::string& file,
                std::uint64_t line_no, Action& out) {
  Parser p{{}, {}, 0, file, line_no};
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (p.n == 0 && line[i] == '#') return false;
    p.push(line.substr(i, j - i));
    i = j;
  }
  if (p.n == 0) return false;
  if (p.n < 2) fail(file, line_no, "expected '<rank> <action> ...'");
  {
    std::string_view r = p.at(0);
    long long v = -1;
    auto [q, ec] = std::from_chars(r.data(), r.data() + r.size(), v);
    if (ec != std::errc() || q != r.data() + r.size())
      fail(file, line_no, fmt::format("the first field {} is not a rank", quoted(r)));
    if (v != rank)
      fail(file, line_no, fmt::format("the line is rank {}'s but the file is rank {}'s (one file per rank, in index "
                                      "order; a single merged trace is not supported)", v, rank));
  }
  const std::string_view name = p.at(1);
  Kind kind{};
  if (!kind_of(name, kind)) {
    std::string why = refused_reason(name);
    if (!why.empty()) fail(file, line_no, fmt::format("action {} cannot be replayed: {}", quoted(name), why));
    fail(file, line_no, fmt::format("unknown action {}", quoted(name)));
  }
  out = Action{};
  out.kind = kind;
  const long long P = nranks;
  const ActionFields f{p, name, P, default_dt};
  switch (out.kind) {
    case Kind::Init:
      p.need(0, 1, "init [x]");
      default_dt = p.n > 2 ? 8 : 1;  // SMPI: an argument selects MPI_DOUBLE (MPE traces), else MPI_BYTE (TAU)
      break;
    case Kind::Finalize: p.need(0, 0, "finalize"); break;
    case Kind::NoOp:
      if (name == "comm_size") {  // a communicator's size: at least 1, at most the trace's ranks
        p.need(1, 1, "comm_size n");
        (void)p.integer(2, 1, P, "size");
      }
      break;
    case Kind::Compute:
      p.need(1, 1, "compute flops");
      out.amount = p.real(2, 0, kMaxFlops, "flops");
      break;
    case Kind::Sleep:
      p.need(1, 1, "sleep seconds");
      out.amount = p.real(2, 0, kMaxSleep, "seconds");
      break;
    case Kind::Waitall:
      p.need(0, 1, "waitall [count]");
      if (p.n > 2) (void)p.integer(2, 0, 0x7fffffff, "count");
      break;
    case Kind::Barrier: p.need(0, 0, "barrier"); break;
    case Kind::Send: case Kind::Isend: case Kind::Recv: case Kind::Irecv: case Kind::SendRecv: case Kind::Wait:
    case Kind::Test:
      parse_point_to_point(f, out);
      break;
    default:  // the collectives
      parse_collective(f, out);
      break;
  }
  return true;
}

}  // namespace ompisim::bench::ti
