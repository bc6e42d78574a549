// The host buses of a network's nodes as its analytic transfers see them. A payload too small to move as a shared
// flow is read from its source node's memory over that node's bus (PCI-X, HyperTransport) and written into the
// destination's over its own: it starts when both are free (first come, first served) and holds them for its
// serialization time, so the payloads a node sends, or receives, one after another never pass the bus's rate. A
// half-duplex bus (PCI-X) is one resource per node, which a node's reads and writes share; a full-duplex one
// (HyperTransport) has a direction each way, so what a node sends does not wait for what it receives. A payload
// within one node (a NIC loopback) is read over the bus and written back over it: a half-duplex bus carries it twice,
// one after the other; a full-duplex one carries it once each way, at once.
// LIMITATION: payloads above a model's flow threshold share the same buses in the engine and are not seen here (an
// analytic payload and a flow on one bus overlap).
#pragma once
#include "core/trace.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace ompisim {

class NodeBuses {
public:
  enum class Duplex : bool { Half, Full };
  // `bus` names the bus in traces ("PCI-X bus"; full duplex: "HT out" and "HT in", one track a direction).
  NodeBuses(const char* bus, Duplex duplex)
      : full_(duplex == Duplex::Full), out_name_(full_ ? std::string(bus) + " out" : bus),
        in_name_(full_ ? std::string(bus) + " in" : bus) {}
  // A payload of `seconds` serialization time from node a to node b, not before `ready`: returns when it starts.
  // On one node (a == b) a half-duplex bus is held for twice `seconds`: the read, then the write (loopback_time).
  double hold(long long a, long long b, double ready, double seconds, TraceSink* trace) {
    double& out = send_[a];
    double& in = full_ ? receive_[b] : send_[b];
    const double start = std::max({ready, out, in});
    const bool twice = a == b && !full_;
    out = in = start + (twice ? 2 * seconds : seconds);
    if (trace) {
      trace->nic(a, out_name_.c_str(), start, start + seconds, "DMA read");
      const double w = twice ? start + seconds : start;
      trace->nic(b, in_name_.c_str(), w, w + seconds, "DMA write");
    }
    return start;
  }
  // When a payload from node a to node b could start on this bus (its sending and receiving sides both free).
  double free_at(long long a, long long b) const {
    auto at = [](const std::unordered_map<long long, double>& m, long long n) {
      const auto it = m.find(n);
      return it == m.end() ? 0.0 : it->second;
    };
    return std::max(at(send_, a), at(full_ ? receive_ : send_, b));
  }
  // The bus time of a payload of `seconds` serialization time that stays on one node (a NIC loopback).
  double loopback_time(double seconds) const { return full_ ? seconds : 2 * seconds; }

private:
  bool full_;
  std::string out_name_, in_name_;  // trace tracks: the sending side's and the receiving side's (half duplex: one)
  std::unordered_map<long long, double> send_;     // by node: when its bus (full duplex: its sending side) is free
  std::unordered_map<long long, double> receive_;  // full duplex: when its receiving side is free
};

}  // namespace ompisim
