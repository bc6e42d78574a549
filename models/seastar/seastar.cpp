#include "models/seastar/seastar.hpp"

#include "core/trace.hpp"

#include <algorithm>

namespace ompisim::seastar {

using namespace ompisim::portals;

namespace {
constexpr std::size_t kEqCapacity = 64;  // the model hands events over directly; the queue only bounds memory
}

SeaStar::SeaStar(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), p_(seastar::nic(fabric.network()).p) {}

int SeaStar::open(const std::string& component, const std::vector<PtIndex>& portals, Handler handler,
                  MatchHook on_match) {
  const int id = static_cast<int>(clients_.size());
  for (PtIndex pt : portals) {
    if (pt >= portal_owner_.size()) portal_owner_.resize(pt + 1u, -1);
    if (portal_owner_[pt] >= 0)
      throw std::logic_error("seastar: portal table index " + std::to_string(pt) + " of " + component +
                             " is used by " + clients_[static_cast<std::size_t>(portal_owner_[pt])].component);
  }
  for (PtIndex pt : portals) portal_owner_[pt] = id;
  clients_.push_back({component, std::move(handler), std::move(on_match)});
  return id;
}

int SeaStar::owner(PtIndex pt) const {
  if (pt >= portal_owner_.size() || portal_owner_[pt] < 0)
    throw std::logic_error("seastar: an event on portal table index " + std::to_string(pt) + ", which no component opened");
  return portal_owner_[pt];
}

Nic& SeaStar::nic(int rank) {
  auto it = nics_.find(rank);
  if (it != nics_.end()) return it->second;
  return nics_.emplace(rank, Nic(pid(rank))).first->second;
}

EqId SeaStar::eq(int rank, int client) {
  const std::uint64_t key = (static_cast<std::uint64_t>(rank) << 8) | static_cast<std::uint32_t>(client);
  auto it = eqs_.find(key);
  if (it != eqs_.end()) return it->second;
  return eqs_.emplace(key, nic(rank).eq_alloc(kEqCapacity)).first->second;
}

double SeaStar::firmware_free_at(int rank) const {
  auto it = fw_free_.find(ctx_.node_of(rank));
  return it == fw_free_.end() ? 0.0 : it->second;
}

void SeaStar::calls(int rank, int n, Callback then) {
  cpus_.cpu(rank, n * p_.portals_call_cost, std::move(then), "Portals library call");
}

double SeaStar::firmware(long long node, double cost) {
  double& f = fw_free_[node];
  const double start = std::max(f, sim_.now());
  f = start + cost;
  if (TraceSink* t = sim_.trace) t->nic(node, "firmware", start, f, "Portals firmware");
  return f;
}

void SeaStar::move(long long a, long long b, const PathCost& path, double bytes, Callback done) {
  if (bytes <= p_.flow_threshold || a == b) {
    const double serial = bytes / path.bandwidth;
    sim_.at(buses_.hold(a, b, sim_.now(), serial, sim_.trace) + serial, std::move(done));
    return;
  }
  TxEngine& tx = tx_[a];
  tx.waiting.push_back({b, bytes, std::move(done)});
  if (!tx.busy) tx_next(a);
}

// The sending node's transmit DMA engine streams its payloads one after another, in the order they were commanded (as
// the analytic path's outgoing HT does): the next flow starts when the one before has left the node.
void SeaStar::tx_next(long long a) {
  TxEngine& tx = tx_[a];
  if (tx.waiting.empty()) {
    tx.busy = false;
    return;
  }
  tx.busy = true;
  Outgoing o = std::move(tx.waiting.front());
  tx.waiting.pop_front();
  counters_.add(SeaStarStat::Flows);
  fabric_.bulk(a, o.b, o.bytes, 0, [this, a, done = std::move(o.done)]() mutable {
    tx_next(a);
    done();
  });
}

// Catamount generic mode: the kernel's interrupt handler does the Portals processing of one incoming header (event,
// ACK, GET reply set-up) on the rank's core, one handler at a time (Brightwell et al., "Portals 3.3 on the Sandia/Cray
// Red Storm System", IPDPS 2005; hardware-sources.md §4). So interrupts on a core serialize among themselves: handler k
// starts when handler k-1 ends, and what it produces (the event the stack reads, the ACK or REPLY it sends) follows at
// the end of its own handler. A handler does NOT wait for the MPI or application work running on the core: an
// interrupt preempts user-level code (the library's progress and the application are user processes under
// Catamount), so it starts at once and that work ends `host_interrupt_cost` later (CpuTimeline::steal), as does the
// work queued behind it. This is also what lets Portals deliver messages while the application computes (the overlap
// of the paper's receive availability, §3): a handler that waited for user code would deliver nothing until the
// computation ended.
void SeaStar::interrupt(int rank, Callback then) {
  counters_.add(SeaStarStat::Interrupts);
  const double c = p_.host_interrupt_cost;
  double& busy = irq_free_[rank];
  const double end = std::max(busy, sim_.now()) + c;
  busy = end;
  cpus_.steal(rank, c);
  sim_.at(end, std::move(then));
}

void SeaStar::dispatch(int rank, const std::vector<Event>& ev) {
  for (auto& e : ev) {
    const int c = owner(e.portal_index);
    nic(rank).eq_get(eq(rank, c));  // keep the bounded queue in step with what the handler saw
    clients_[static_cast<std::size_t>(c)].handler(rank, e);
  }
}

void SeaStar::put(int rank, MdId md, AckReq ack, int target, PtIndex pt, MatchBits bits, std::uint64_t hdr_data) {
  counters_.add(SeaStarStat::Puts);
  PutResult pr = nic(rank).put(md, ack, pid(target), pt, bits, 0, hdr_data);
  auto t = std::make_shared<Transfer>();
  t->rank = rank, t->target = target, t->a = ctx_.node_of(rank), t->b = ctx_.node_of(target);
  t->path = fabric_.path(t->a, t->b);
  t->put = pr.message;
  t->local = std::move(pr.local.events);
  double arrive = firmware(t->a, p_.fw_message_cost) + t->path.time(p_.header_bytes);
  sim_.at(arrive, [this, t] { put_header_arrived(t); });
}

// The target's firmware walks its match list (the component's match hook sees the result first).
void SeaStar::put_header_arrived(const TransferPtr& t) {
  t->in = nic(t->target).deliver_put(t->put);
  const IncomingResult& in = t->in;
  counters_.add(SeaStarStat::EntriesWalked, in.entries_walked);
  if (auto& hook = clients_[static_cast<std::size_t>(owner(t->put.portal_index))].on_match) hook(t->target, in, t->put);
  double matched_at = firmware(t->b, p_.fw_message_cost + in.entries_walked * p_.match_entry_cost);
  t->bytes = static_cast<double>(in.matched ? in.mlength : 0);
  if (in.truncated()) counters_.add(SeaStarStat::Truncated);
  sim_.at(matched_at, [this, t] { put_matched(t); });
}

void SeaStar::put_matched(const TransferPtr& t) {
  move(t->a, t->b, t->path, t->bytes, [this, t] { put_landed(t); });
}

void SeaStar::put_landed(const TransferPtr& t) {
  dispatch(t->rank, t->local);  // SEND_END: the data has left the initiator's buffer
  if (t->in.dropped()) {
    counters_.add(SeaStarStat::Dropped);
    return;
  }
  interrupt(t->target, [this, t] { put_target_handled(t); });
}

void SeaStar::put_target_handled(const TransferPtr& t) {
  dispatch(t->target, t->in.events);
  if (!t->in.ack) return;
  counters_.add(SeaStarStat::Acks);
  double back = firmware(t->b, p_.fw_message_cost) + t->path.time(p_.header_bytes);  // routes are symmetric
  sim_.at(back, [this, rank = t->rank, a = t->a, ackm = *t->in.ack] { response_at_initiator(rank, a, ackm, Response::Ack); });
}

void SeaStar::response_at_initiator(int rank, long long node, const ResponseMessage& m, Response kind) {
  double fw = firmware(node, p_.fw_message_cost);
  sim_.at(fw, [this, rank, m, kind] {
    interrupt(rank, [this, rank, m, kind] {
      dispatch(rank, kind == Response::Ack ? nic(rank).on_ack(m).events : nic(rank).on_reply(m).events);
    });
  });
}

void SeaStar::get(int rank, MdId md, int target, PtIndex pt, MatchBits bits) {
  counters_.add(SeaStarStat::Gets);
  GetResult gr = nic(rank).get(md, pid(target), pt, bits, 0);
  dispatch(rank, gr.local.events);
  auto t = std::make_shared<Transfer>();
  t->rank = rank, t->target = target, t->a = ctx_.node_of(rank), t->b = ctx_.node_of(target);
  t->path = fabric_.path(t->a, t->b);
  t->get = gr.message;
  double arrive = firmware(t->a, p_.fw_message_cost) + t->path.time(p_.header_bytes);
  sim_.at(arrive, [this, t] { get_request_arrived(t); });
}

void SeaStar::get_request_arrived(const TransferPtr& t) {
  t->in = nic(t->target).deliver_get(t->get);
  counters_.add(SeaStarStat::EntriesWalked, t->in.entries_walked);
  double fw = firmware(t->b, p_.fw_message_cost + t->in.entries_walked * p_.match_entry_cost);
  sim_.at(fw, [this, t] { get_matched(t); });
}

void SeaStar::get_matched(const TransferPtr& t) {
  if (t->in.dropped()) {
    counters_.add(SeaStarStat::Dropped);
    return;
  }
  // Generic mode: the target host sets up the reply.
  interrupt(t->target, [this, t] { get_target_handled(t); });
}

void SeaStar::get_target_handled(const TransferPtr& t) {
  double start = firmware(t->b, p_.fw_message_cost) + t->path.time(p_.header_bytes);
  t->bytes = static_cast<double>(t->in.mlength);
  sim_.at(start, [this, t] { move(t->b, t->a, t->path, t->bytes, [this, t] { get_streamed(t); }); });
}

void SeaStar::get_streamed(const TransferPtr& t) {
  dispatch(t->target, t->in.events);  // GET_END: the data has been read
  response_at_initiator(t->rank, t->a, *t->in.reply, Response::Reply);
}

void SeaStar::add_counters(std::map<std::string, std::uint64_t>& c) const {
  counters_.report(c);
}

}  // namespace ompisim::seastar
