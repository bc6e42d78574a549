// SimGrid SMPI time-independent (TI) traces, as `smpirun -trace-ti` (SimGrid 3.32) writes them, and the parser of one
// action line (reading the index and the per-rank files lazily: ti_reader.hpp). The format:
// an index file with one line per rank, in rank order, naming that rank's action file; each action file holds one
// action per line, "<rank> <action> <args...>".
// Index lines: SMPI 3.32 writes each rank's file as <tracing/filename>_files/<prefix>_rank-<N>.txt and that path into
// the index verbatim (src/instr/instr_config.cpp on_container_creation_ti): relative to the directory smpirun ran in,
// or absolute when -trace-file was; its replay opens each line as given, relative to the working directory
// (src/smpi/internals/smpi_deployment.cpp smpi_read_replay, src/xbt/xbt_replay.cpp ReplayReader). A line is found
// here at the first of: the index's folder joined with it; <index>_files/ with its file name (where smpirun put every
// rank's file, so a trace recorded from another directory, or with an absolute -trace-file and then moved or copied,
// is found); the line as SMPI opens it (absolute, or relative to the working directory). Only a file inside the
// index's folder is read ('..' and symbolic links followed, compared by path components): an absolute line is
// accepted, as smpirun writes them, when it lies there; a line whose only file lies outside is refused (InputError
// naming the index, the line and where the file is), as is a line that names no file.
// The format (argument order, optional trailing datatypes, the counts of the v-collectives) is SMPI's TI output
// (src/instr/instr_private.hpp TIData::print) and what SMPI's own replay reads (src/smpi/internals/smpi_replay.cpp),
// both read in the v3.32 sources; status V: checked against traces recorded here with smpirun -trace-ti.
//
// Actions accepted (counts are elements of the datatype; a datatype is SMPI's id of a predefined type, see
// datatype_size; when a trailing datatype is absent, the default is MPI_BYTE, or MPI_DOUBLE when "init" has an
// argument, as SMPI's replay does):
//   init [x] | finalize | comm_size n | comm_split ... | comm_dup ... | location file line     (no time)
//   compute flops | sleep seconds
//   send|isend|recv|irecv peer tag count [dt]          (peer: MPI_COMM_WORLD rank; recv tag -1: MPI_ANY_TAG)
//   sendRecv sendcount dst recvcount src [sdt [rdt]]    (tags 0, as SMPI's replay)
//   wait src dst tag | test src dst tag | waitall [n]   (requests found by (src, dst, tag); waitall: all of them)
//   barrier | bcast count [root [dt]] | reduce count flops [root [dt]] | allreduce count flops [dt]
//   scan|exscan count flops [dt] | alltoall scount rcount [sdt [rdt]]
//   gather scount rcount [root [sdt [rdt]]] | allgather scount rcount [sdt [rdt]] | scatter scount rcount [root ...]
//   alltoallv ssum scounts[P] rsum rcounts[P] [sdt [rdt]] | gatherv scount rcounts[P] [root [sdt [rdt]]]
//   allgatherv scount rcounts[P] [sdt [rdt]] | scatterv scounts[P] rcount [root [sdt [rdt]]]
//   reducescatter rcounts[P] flops [dt]
// Refused with a reason (SMPI writes them but its replay cannot run them either, or the TI line lacks what a replay
// needs): nonblocking collectives (ibarrier, ibcast, ...), Ssend/ISsend/bsend/ibsend, waitAny/testany/testall/
// testsome, Start/Startall, one-sided (Win_*, Put, Get, ...), MPI-IO ("IO - ..."), migrate, iteration_in/out.
// Bounds (hostile input): a line of at most kMaxLineBytes, counts and flops within the limits below, peers and roots
// within the index's rank count, datatypes known. Every violation is an InputError naming the action file, the line
// number and the reason (exit status 2 in the tool).
// LIMITATIONS: the TI format records no communicator: collectives are replayed on MPI_COMM_WORLD, as SMPI's replay
// does (a collective on a sub-communicator becomes a world collective). A receive from MPI_ANY_SOURCE (traced as -333)
// or with MPI_ANY_TAG (-444) is replayed as the stack's wildcard receive.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace ompisim::bench::ti {

enum class Kind : std::uint8_t {
  Init, Finalize, NoOp, Compute, Sleep,
  Send, Isend, Recv, Irecv, SendRecv, Wait, Test, Waitall,
  Barrier, Bcast, Reduce, Allreduce, Scan, Exscan, Alltoall, Gather, Allgather, Scatter,
  Alltoallv, Gatherv, Allgatherv, Scatterv, ReduceScatter
};
const char* kind_name(Kind k);  // the TI action name ("irecv", "reducescatter", ...)
// The kind of an action name a replay runs ("isend" -> Isend); false for any other name (refused or unknown).
bool kind_of(std::string_view name, Kind& out);
bool is_collective(Kind k);
// A collective whose every rank sends a block to every other rank (alltoall, alltoallv, allgather, allgatherv).
bool is_all_pairs(Kind k);

constexpr std::size_t kMaxLineBytes = 64u << 20;        // one alltoallv line of 1M ranks fits
constexpr std::uint64_t kMaxCount = 1ull << 40;         // elements per count
constexpr std::uint64_t kMaxBytes = 1ull << 42;         // bytes per message (4 TiB)
constexpr double kMaxFlops = 1e21;                      // per compute action
constexpr double kMaxSleep = 1e9;                       // seconds

struct Action {
  Kind kind = Kind::NoOp;
  int peer = -1, peer2 = -1, tag = 0, root = 0;  // send/recv: peer; sendRecv: peer = dst, peer2 = src;
                                                 // wait/test: peer = src, peer2 = dst
  std::uint64_t send_bytes = 0, recv_bytes = 0;  // p2p: send_bytes (send) or recv_bytes (recv); collectives: the
                                                 // rank's own block (bcast/reduce/allreduce/scan: the vector)
  double amount = 0;                             // compute / reduction flops; sleep seconds
  std::vector<std::uint64_t> counts_send, counts_recv;  // v-collectives: bytes per rank (size P), else empty
};

// The size in bytes of SMPI 3.32's predefined datatype with this id (Datatype::encode), or 0 when the id is not one
// (a derived datatype: its size is not in the trace). x86-64 sizes.
std::uint32_t datatype_size(int id);

// Parses one line (without its newline). Returns false for a blank or comment ('#') line. `rank` is the file's rank
// (the line's first field must equal it), `nranks` the trace's rank count; `default_dt` is updated by "init".
// Throws InputError(file, "", "line N: reason").
bool parse_line(std::string_view line, int rank, int nranks, std::uint32_t& default_dt, const std::string& file,
                std::uint64_t line_no, Action& out);

}  // namespace ompisim::bench::ti
