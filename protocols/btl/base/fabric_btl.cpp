#include "protocols/btl/base/fabric_btl.hpp"

#include "models/commodity/nic.hpp"

#include <mutex>
#include <stdexcept>

namespace ompisim::btl {

const std::array<StatisticInfo, kFabricBtlStatistics.size()>& fabric_btl_statistics(const std::string& btl) {
  struct Named {
    std::array<std::string, kFabricBtlStatistics.size()> names;
    std::array<StatisticInfo, kFabricBtlStatistics.size()> table;
  };
  static std::mutex mutex;
  static std::map<std::string, Named> tables;  // a node per BTL: the names' addresses never change
  const std::lock_guard lock(mutex);
  auto [it, made] = tables.try_emplace(btl);
  Named& n = it->second;
  if (made)
    for (std::size_t i = 0; i < kFabricBtlStatistics.size(); ++i) {
      const StatisticInfo& s = kFabricBtlStatistics[i];
      n.names[i] = btl + "_" + s.name;
      n.table[i] = {n.names[i].c_str(), s.unit, s.description, s.when_counted};
    }
  return n.table;
}

int FabricBtl::network_of(const Machine& machine, const std::string& name, const std::string& nic_kind) {
  if (const int i = machine.network_index_of_kind(nic_kind); i >= 0) return i;
  throw std::invalid_argument("btl/" + name + ": machine '" + machine.name + "' has no " + nic_kind + " network");
}

FabricBtl::FabricBtl(const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, std::string name, BtlCaps caps,
                     Connection conn)
    : ctx_(contexts), cpus_(cpus), fabric_(fabric), name_(std::move(name)), caps_(caps), conn_(conn),
      stats_(fabric_btl_statistics(name_)) {
  const auto& nic = nic_as<commodity::CommodityNic>(*fabric.network().nic, fabric.network().nic_kind());
  latency_ = nic.p.latency;
  bandwidth_ = nic.injection_bandwidth();
  overhead_ = nic.p.frag_overhead;
}

bool FabricBtl::reaches(const Contexts& contexts, int rank, int peer) const {
  if (rank == peer) return false;
  const std::string& net = fabric_.network().name;
  auto has = [&](int r) {
    const platform::NodeType& t = contexts.node_type(r);
    return t.nics().empty() || t.nic_count(net) > 0;
  };
  return has(rank) && has(peer);
}

int FabricBtl::channel_of(const Descriptor& d) const {
  return conn_ == Connection::PriorityChannel && (d.flags & desc_flag::Priority) && d.wire_bytes() <= caps_.eager_limit
             ? 1
             : 0;
}

// ISSUING -> [COPYING] -> [AWAIT_CHANNEL] -> ON_WIRE -> RECEIVING -> COMPLETE (fabric_frag.hpp).
void FabricBtl::send(const Descriptor& d, Completion local_done) {
  const bool copy_in = !(d.flags & (desc_flag::InPlace | desc_flag::Put)) && d.data.length > 0;
  stats_.add(FabricStat::Frags);
  stats_.add(FabricStat::Bytes, d.data.length);
  if (d.wire_bytes() > caps_.eager_limit) stats_.add(FabricStat::LargeFrags);
  if (copy_in) stats_.add(FabricStat::CopiedFrags);
  const std::uint32_t id = frags_.create(fabric::FragState::Idle, d, std::move(local_done), copy_in, channel_of(d));
  fabric::SendFrag& s = frags_[id];
  s.state = step(s.state, fabric::FragEvent::Start);
  cpus_.cpu(d.src, overhead_, [this, id] { on_send_issued(id); }, "btl send");
}

void FabricBtl::on_send_issued(std::uint32_t id) {
  fabric::SendFrag& s = frags_[id];
  if (!s.copy_in) return on_data_ready(id);  // in place or RDMA: on the channel from the user buffer
  s.state = step(s.state, fabric::FragEvent::CopyIn);
  cpus_.cpu_copy(s.d.src, static_cast<double>(s.d.data.length), [this, id] { on_data_ready(id); }, s.d.data.buf.space);
}

void FabricBtl::on_data_ready(std::uint32_t id) {
  fabric::SendFrag& s = frags_[id];
  if (s.copy_in)
    if (Completion done = std::move(s.local_done)) done();  // the user buffer is free once copied into the BTL's
  if (s.channel) stats_.add(FabricStat::PriorityFrags);
  join_channel(s.channel, lane_key(s.d.src, s.d.dst), Queued{false, id});
}

void FabricBtl::join_channel(int channel, std::uint64_t key, Queued q) {
  Lane& l = lanes_[channel][key];
  if (l.busy) {
    stats_.add(FabricStat::ChannelWaits);
    l.queued.push_back(q);
    if (q.rdma) rdmas_[q.id].state = step(rdmas_[q.id].state, fabric::RdmaEvent::ChannelBusy);
    else frags_[q.id].state = step(frags_[q.id].state, fabric::FragEvent::ChannelBusy);
    return;
  }
  l.busy = true;
  on_channel_free(q, latency_);
}

void FabricBtl::next_on_lane(int channel, std::uint64_t key) {
  auto& lanes = lanes_[channel];
  auto it = lanes.find(key);
  if (it == lanes.end()) return;
  if (it->second.queued.empty()) {
    lanes.erase(it);  // no per-peer state while the channel is idle
    return;
  }
  const Queued next = it->second.queued.front();
  it->second.queued.pop_front();
  on_channel_free(next, 0.0);  // streams right behind the previous fragment: the link latency is already covered
}

void FabricBtl::on_channel_free(Queued q, double latency) {
  if (q.rdma) {
    fabric::RdmaFrag& r = rdmas_[q.id];
    r.state = step(r.state, fabric::RdmaEvent::ChannelFree);
    fabric_.bulk(ctx_.node_of(r.initiator), ctx_.node_of(r.peer), static_cast<double>(r.bytes), latency,
                 [this, id = q.id] { on_flow_done(id); }, false, r.initiator, r.peer);
    return;
  }
  fabric::SendFrag& s = frags_[q.id];
  s.state = step(s.state, fabric::FragEvent::ChannelFree);
  fabric_.bulk(ctx_.node_of(s.d.src), ctx_.node_of(s.d.dst), static_cast<double>(s.d.wire_bytes()), latency,
               [this, id = q.id] { on_arrived(id); }, false, s.d.src, s.d.dst);
}

void FabricBtl::on_arrived(std::uint32_t id) {
  fabric::SendFrag& s = frags_[id];
  s.state = step(s.state, fabric::FragEvent::Arrived);
  next_on_lane(s.channel, lane_key(s.d.src, s.d.dst));
  if (!s.copy_in)
    if (Completion done = std::move(s.local_done)) done();  // sent from the user buffer: free when the NIC has it all
  cpus_.cpu(s.d.dst, overhead_, [this, id] { on_received(id); }, "btl progress (receive)");
}

void FabricBtl::on_received(std::uint32_t id) {
  fabric::SendFrag& s = frags_[id];
  s.state = step(s.state, fabric::FragEvent::Received);
  const Descriptor in = s.d;
  frags_.erase(id);
  deliver_landed(in, MemSpace{});  // in a receive buffer of the receiver's
}

// ISSUING_PUT -> [AWAIT_CHANNEL] -> WRITING -> COMPLETING -> COMPLETE: on the connection's low-priority channel, in
// order with the data fragments to that peer.
void FabricBtl::put(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer, Completion done) {
  stats_.add(FabricStat::Puts);
  stats_.add(FabricStat::Bytes, bytes);
  start_rdma(initiator, peer, bytes, std::move(done), fabric::RdmaEvent::StartPut, &FabricBtl::on_put_issued);
}

void FabricBtl::on_put_issued(std::uint32_t id) {
  const fabric::RdmaFrag& r = rdmas_[id];
  join_channel(0, lane_key(r.initiator, r.peer), Queued{true, id});
}

// ISSUING_GET -> READING -> COMPLETING -> COMPLETE: pulled by the initiator, on no channel.
void FabricBtl::get(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer, Completion done) {
  stats_.add(FabricStat::Gets);
  stats_.add(FabricStat::GetBytes, bytes);
  start_rdma(initiator, peer, bytes, std::move(done), fabric::RdmaEvent::StartGet, &FabricBtl::on_get_issued);
}

// A put's or get's record, stepped by `start` (ISSUING_PUT or ISSUING_GET); the initiator's frag_overhead, then
// `issued`.
void FabricBtl::start_rdma(int initiator, int peer, std::uint64_t bytes, Completion done, fabric::RdmaEvent start,
                           void (FabricBtl::*issued)(std::uint32_t)) {
  const std::uint32_t id = rdmas_.create(fabric::RdmaState::Idle, initiator, peer, bytes, std::move(done));
  rdmas_[id].state = step(rdmas_[id].state, start);
  cpus_.cpu(initiator, overhead_, [this, id, issued] { (this->*issued)(id); }, "btl put/get issue");
}

void FabricBtl::on_get_issued(std::uint32_t id) {
  fabric::RdmaFrag& r = rdmas_[id];
  r.state = step(r.state, fabric::RdmaEvent::Issued);
  fabric_.bulk(ctx_.node_of(r.peer), ctx_.node_of(r.initiator), static_cast<double>(r.bytes), latency_,
               [this, id] { on_flow_done(id); }, true, r.peer, r.initiator);
}

void FabricBtl::on_flow_done(std::uint32_t id) {
  fabric::RdmaFrag& r = rdmas_[id];
  const bool put = r.state == fabric::RdmaState::Writing;
  r.state = step(r.state, fabric::RdmaEvent::FlowDone);
  if (put) next_on_lane(0, lane_key(r.initiator, r.peer));
  cpus_.cpu(r.initiator, overhead_, [this, id] { on_completed(id); }, "btl completion");
}

void FabricBtl::on_completed(std::uint32_t id) {
  fabric::RdmaFrag& r = rdmas_[id];
  r.state = step(r.state, fabric::RdmaEvent::Completed);
  Completion done = std::move(r.done);
  rdmas_.erase(id);
  if (done) done();
}

}  // namespace ompisim::btl
