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

void FabricBtl::send(const Descriptor& d, Completion local_done) {
  const bool copy_in = !(d.flags & (desc_flag::InPlace | desc_flag::Put)) && d.data.length > 0;
  stats_.add(FabricStat::Frags);
  stats_.add(FabricStat::Bytes, d.data.length);
  if (d.wire_bytes() > caps_.eager_limit) stats_.add(FabricStat::LargeFrags);
  if (copy_in) stats_.add(FabricStat::CopiedFrags);
  const double bytes = static_cast<double>(d.wire_bytes());
  cpus_.cpu(d.src, overhead_, [this, d, bytes, copy_in, local_done = std::move(local_done)]() mutable {
    auto wire = [this, d, bytes, copy_in, local_done = std::move(local_done)]() mutable {
      if (copy_in && local_done) local_done();  // the user buffer is free once copied into the BTL's
      const std::uint64_t key = lane_key(d.src, d.dst);
      const int ch = channel_of(d);
      if (ch) stats_.add(FabricStat::PriorityFrags);
      auto start = [this, d, bytes, copy_in, local_done, key, ch](double latency) mutable {
        fabric_.bulk(ctx_.node_of(d.src), ctx_.node_of(d.dst), bytes, latency,
                [this, d, copy_in, local_done, key, ch]() mutable {
          next_on_lane(ch, key);
          if (!copy_in && local_done) local_done();  // sent from the user buffer: free when the NIC has it all
          cpus_.cpu(d.dst, overhead_, [this, d] { deliver(d); }, "btl progress (receive)");
        }, false, d.src, d.dst);
      };
      on_lane(ch, key, std::move(start));
    };
    if (copy_in) cpus_.cpu_copy(d.src, static_cast<double>(d.data.length), std::move(wire));
    else wire();
  }, "btl send");
}

void FabricBtl::on_lane(int channel, std::uint64_t key, std::function<void(double)> start) {
  Lane& l = lanes_[channel][key];
  if (l.busy) {
    stats_.add(FabricStat::ChannelWaits);
    l.queued.push_back(std::move(start));
  } else {
    l.busy = true;
    start(latency_);
  }
}

void FabricBtl::next_on_lane(int channel, std::uint64_t key) {
  auto& lanes = lanes_[channel];
  auto it = lanes.find(key);
  if (it == lanes.end()) return;
  if (it->second.queued.empty()) {
    lanes.erase(it);  // no per-peer state while the channel is idle
    return;
  }
  auto next = std::move(it->second.queued.front());
  it->second.queued.pop_front();
  next(0.0);  // streams right behind the previous fragment: the link latency is already covered
}

void FabricBtl::put(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer, Completion done) {
  stats_.add(FabricStat::Puts);
  stats_.add(FabricStat::Bytes, bytes);
  cpus_.cpu(initiator, overhead_, [this, initiator, peer, bytes, done = std::move(done)]() mutable {
    const std::uint64_t key = lane_key(initiator, peer);
    auto start = [this, initiator, peer, bytes, key, done](double latency) mutable {
      fabric_.bulk(ctx_.node_of(initiator), ctx_.node_of(peer), static_cast<double>(bytes), latency,
              [this, initiator, key, done]() mutable {
        next_on_lane(0, key);
        cpus_.cpu(initiator, overhead_, std::move(done), "btl completion");
      }, false, initiator, peer);
    };
    on_lane(0, key, std::move(start));
  }, "btl put/get issue");
}

void FabricBtl::get(int initiator, int peer, std::uint64_t bytes, Buffer, Buffer, Completion done) {
  stats_.add(FabricStat::Gets);
  stats_.add(FabricStat::GetBytes, bytes);
  cpus_.cpu(initiator, overhead_, [this, initiator, peer, bytes, done = std::move(done)]() mutable {
    fabric_.bulk(ctx_.node_of(peer), ctx_.node_of(initiator), static_cast<double>(bytes), latency_,
            [this, initiator, done = std::move(done)]() mutable { cpus_.cpu(initiator, overhead_, std::move(done), "btl completion"); },
            true, peer, initiator);
  }, "btl put/get issue");
}

}  // namespace ompisim::btl
