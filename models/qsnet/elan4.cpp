#include "models/qsnet/elan4.hpp"

#include "core/trace.hpp"

#include <algorithm>
#include <stdexcept>

namespace ompisim::qsnet {

Elan4::Elan4(Simulator& sim, const Contexts& contexts, Fabric& fabric)
    : sim_(sim), ctx_(contexts), fabric_(fabric), p_(nic(fabric.network()).p) {}

QdmaQueue<QdmaMsg>& Elan4::queue(int rank, int q) {
  if (q < 0 || q > 3) throw std::logic_error("Elan4: queue index out of range");
  auto key = static_cast<std::uint64_t>(rank) * 4 + static_cast<std::uint64_t>(q);
  auto it = queues_.find(key);
  if (it == queues_.end())
    it = queues_.emplace(key, QdmaQueue<QdmaMsg>(static_cast<int>(p_.qdma_slots.get()),
                                                 static_cast<std::uint32_t>(p_.qdma_slot_bytes.get())))
             .first;
  return it->second;
}

double Elan4::wire(int src, int dst, std::uint32_t bytes) const {
  long long a = ctx_.node_of(src), b = ctx_.node_of(dst);
  // NIC loopback: no network; the bytes cross the node's PCI-X bus twice (read by the NIC, written back)
  if (a == b) return p_.local_qdma_latency + buses_.loopback_time(bytes / p_.dma_bandwidth());
  return fabric_.wire_time(a, b, bytes);
}

double Elan4::command(long long node) {
  double& f = cmd_free_[node];
  const double start = std::max(f, sim_.now());
  f = start + p_.nic_cmd_cost;
  if (TraceSink* t = sim_.trace) t->nic(node, "command processor", start, f, "command");
  return f;
}

double Elan4::thread_processor(long long node, double cost) {
  double& f = tproc_free_[node];
  const double start = std::max(f, sim_.now());
  f = start + cost;
  if (TraceSink* t = sim_.trace) t->nic(node, "thread processor", start, f, "thread processor");
  return f;
}

void Elan4::qdma(int src, int dst, int q, std::uint32_t bytes, std::uint64_t payload, Callback acked) {
  if (bytes > static_cast<std::uint32_t>(p_.qdma_slot_bytes.get()))
    throw std::logic_error("Elan4: a QDMA larger than a queue slot (" + std::to_string(bytes) + " B)");
  counters_.add(Elan4Stat::Qdmas);
  double start = bus(ctx_.node_of(src), ctx_.node_of(dst), command(ctx_.node_of(src)), bytes);
  double arrive = start + wire(src, dst, bytes);
  sim_.at(arrive, [this, src, dst, q, bytes, payload, acked = std::move(acked)]() mutable {
    try_store(src, dst, q, bytes, payload, std::move(acked));
  });
}

void Elan4::try_store(int src, int dst, int q, std::uint32_t bytes, std::uint64_t payload, Callback acked) {
  auto& queue_ = queue(dst, q);
  if (queue_.put(bytes, QdmaMsg{src, bytes, payload}) == QdmaQueue<QdmaMsg>::Put::Full) {
    // Refused: the source NIC resends after the retry interval (the message crosses the network again).
    counters_.add(Elan4Stat::QdmaRetries);
    double again = p_.qdma_retry_delay + wire(src, dst, bytes);
    sim_.after(again, [this, src, dst, q, bytes, payload, acked = std::move(acked)]() mutable {
      try_store(src, dst, q, bytes, payload, std::move(acked));
    });
    return;
  }
  if (acked) sim_.after(fabric_.path(ctx_.node_of(dst), ctx_.node_of(src)).latency, std::move(acked));
  if (on_stored) on_stored(dst, q);
}

Elan4::EventId Elan4::new_event(int count, Callback host) {
  if (count < 1) throw std::logic_error("Elan4: an event needs a count >= 1");
  EventId id = next_event_++;
  events_.emplace(id, std::make_pair(ElanEvent(count), std::move(host)));
  return id;
}

void Elan4::chain(EventId ev, Callback op) { events_.at(ev).first.chain(std::move(op)); }

void Elan4::complete(EventId ev) {
  auto it = events_.find(ev);
  if (it == events_.end()) throw std::logic_error("Elan4: completion of an unknown or already fired event");
  if (!it->second.first.complete()) return;
  counters_.add(Elan4Stat::EventsFired);
  auto ops = it->second.first.take_chain();
  Callback host = std::move(it->second.second);
  events_.erase(it);  // one-shot
  counters_.add(Elan4Stat::ChainedOps, ops.size());
  sim_.after(p_.event_fire_cost, [ops = std::move(ops), host = std::move(host)]() mutable {
    for (auto& op : ops) op();
    if (host) host();
  });
}

void Elan4::move(int rank_a, int rank_b, std::uint64_t bytes, bool pulled, Callback done) {
  long long a = ctx_.node_of(rank_a), b = ctx_.node_of(rank_b);
  PathCost path = fabric_.path(a, b);
  if (static_cast<double>(bytes) > p_.flow_threshold && a != b) {
    counters_.add(Elan4Stat::RdmaFlows);
    fabric_.bulk(a, b, static_cast<double>(bytes), path.latency, std::move(done), pulled, rank_a, rank_b);
    return;
  }
  double start = bus(a, b, sim_.now(), static_cast<double>(bytes));
  // A loopback RDMA (both ranks on one node) crosses no link: its bytes cross the PCI-X bus twice (NodeBuses::hold).
  const double t = a != b ? path.time(static_cast<double>(bytes))
                          : path.latency + buses_.loopback_time(static_cast<double>(bytes) / p_.dma_bandwidth());
  sim_.at(start + t, std::move(done));
}

double Elan4::bus(long long a, long long b, double ready, double bytes) {
  // Both nodes' PCI-X buses carry the payload (read at the source, written at the destination), and between nodes
  // the source's link out and the destination's link in too, each at its payload rate: a payload starts when all of
  // them are free, so back-to-back payloads go no faster than the slowest (the flows above flow_threshold share the
  // same rates as the resources pcix, link-tx and link-rx, nic.hpp).
  if (a == b) return buses_.hold(a, b, ready, bytes / p_.dma_bandwidth(), sim_.trace);
  const double start = std::max({ready, buses_.free_at(a, b), links_.free_at(a, b)});
  links_.hold(a, b, start, bytes / (p_.link_bandwidth * p_.link_efficiency), sim_.trace);
  return buses_.hold(a, b, start, bytes / p_.dma_bandwidth(), sim_.trace);
}

void Elan4::rdma_write(int rank, int peer, std::uint64_t bytes, EventId ev) {
  counters_.add(Elan4Stat::RdmaWrites);
  double start = command(ctx_.node_of(rank)) + p_.mmu_translation_cost;
  sim_.at(start, [this, rank, peer, bytes, ev] {
    move(rank, peer, bytes, false, [this, rank, peer, ev] { on_written(rank, peer, ev); });
  });
}

void Elan4::on_written(int rank, int peer, EventId ev) {
  // The last packet's acknowledgement returns to the initiator, whose event then completes.
  sim_.after(fabric_.path(ctx_.node_of(peer), ctx_.node_of(rank)).latency, [this, ev] { complete(ev); });
}

void Elan4::rdma_read(int rank, int peer, std::uint64_t bytes, EventId ev) {
  counters_.add(Elan4Stat::RdmaReads);
  double start = command(ctx_.node_of(rank)) + p_.mmu_translation_cost;
  // The read request crosses to the remote NIC, whose DMA engine translates and pushes the data back.
  double at_peer = start + fabric_.path(ctx_.node_of(rank), ctx_.node_of(peer)).latency;
  sim_.at(at_peer, [this, rank, peer, bytes, ev] { on_read_request(rank, peer, bytes, ev); });
}

void Elan4::on_read_request(int rank, int peer, std::uint64_t bytes, EventId ev) {
  double go = command(ctx_.node_of(peer)) + p_.mmu_translation_cost;
  sim_.at(go, [this, rank, peer, bytes, ev] { move(peer, rank, bytes, true, [this, ev] { complete(ev); }); });
}

void Elan4::add_counters(std::map<std::string, std::uint64_t>& c) const {
  counters_.report(c);
}

}  // namespace ompisim::qsnet
