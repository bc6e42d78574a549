// LogGOPS reference machine (Hoefler, Schneider, Lumsdaine, LogGOPSim, HPDC 2010; LogGP: Alexandrov et al., SPAA
// 1995): a flat network with no topology. g is LogP's gap, per processor and per direction (LogGP: "the minimum time
// interval between consecutive message transmissions or consecutive message receptions at a processor"). Messages up
// to S bytes are eager: the sender's CPU pays o + (s-1)O, its send gap g + (s-1)G before the next send, the first byte
// is on the wire L (the last L + (s-1)G, the LogGP convention: the first byte's cost is in o and L), and the
// receiver's CPU pays o + max((s-1)O, (s-1)G) from the first byte, its receive gap g + (s-1)G before the next receive
// (as LogGOPSim.cpp charges OP_SEND and OP_MSG with nexto, nextgs and nextgr). Larger ones use a rendezvous (a request-to-send and clear-to-send round
// before the data). Used to check benchmark drivers and collective schedules against closed forms and against other
// simulators configured the same way.
#pragma once
#include "core/params.hpp"

namespace ompisim::loggp {

struct LogGPParams {
  Sourced L, o, g, G_bandwidth, O_bandwidth, S;
  template <class Vis>
  void visit(Vis&& v) {
    v(L, {"L", Dim::Time, "network latency", 0, 1});
    v(o, {"o", Dim::Time, "CPU overhead per message per side", 0, 1});
    v(g, {"g", Dim::Time, "gap between consecutive sends, or consecutive receives, of a rank", 0, 1});
    v(G_bandwidth, {"G_bandwidth", Dim::Rate, "1/G: per-byte wire cost as a bandwidth", 1, 1e15});
    v(O_bandwidth, {"O_bandwidth", Dim::Rate, "1/O: per-byte CPU cost as a bandwidth", 1, 1e18});
    v(S, {"S", Dim::Bytes, "rendezvous threshold", 0, 1e18});
  }
};

}  // namespace ompisim::loggp
