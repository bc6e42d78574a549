#include "protocols/btl/ugni/mailbox_memory.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ompisim::btl::ugni {

namespace {
std::uint64_t align_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }
}  // namespace

std::uint64_t smsg_mailbox_bytes(std::uint64_t msg_maxsize, std::uint64_t credits) {
  if (msg_maxsize == 0 || credits == 0)
    throw std::invalid_argument("smsg_mailbox_bytes: msg_maxsize and credits must be positive");
  std::uint64_t slot = align_up(msg_maxsize + kGniSmsgMsgHeaderBytes, kGniSmsgSlotAlignBytes);
  return align_up(credits * slot + kGniSmsgMboxControlBytes, kOmpiMboxAlignBytes);
}

std::uint64_t mailboxes_per_block(std::uint64_t nprocs, std::uint64_t mailbox_bytes) {
  if (mailbox_bytes == 0) throw std::invalid_argument("mailboxes_per_block: mailbox_bytes must be positive");
  if (nprocs * mailbox_bytes <= kOmpiMboxBlockBytes) return std::max<std::uint64_t>(nprocs, 1);
  return std::max<std::uint64_t>(kOmpiMboxBlockBytes / mailbox_bytes, 1);
}

std::uint64_t smsg_allocated_bytes(std::uint64_t mailboxes, std::uint64_t nprocs, std::uint64_t mailbox_bytes) {
  if (mailboxes == 0) return 0;
  std::uint64_t inc = mailboxes_per_block(nprocs, mailbox_bytes);
  std::uint64_t n = (mailboxes + inc - 1) / inc * inc;
  return std::min(n, std::max(nprocs, mailboxes)) * mailbox_bytes;  // the free list never exceeds nprocs
}

MailboxMemory mailbox_memory(const MailboxJob& job, std::uint64_t smsg_limit, std::uint64_t credits,
                             std::uint64_t endpoints, std::uint64_t msgq_credits) {
  if (job.ranks < 1 || job.ranks_per_node < 1 || job.nodes < 1)
    throw std::invalid_argument("mailbox_memory: ranks, ranks_per_node and nodes must be positive");
  if (job.ranks > job.nodes * job.ranks_per_node)
    throw std::invalid_argument("mailbox_memory: " + std::to_string(job.ranks) + " ranks do not fit on " +
                                std::to_string(job.nodes) + " nodes x " + std::to_string(job.ranks_per_node));
  MailboxMemory m;
  m.smsg_limit = smsg_limit;
  m.credits = credits;
  m.msgq_credits = msgq_credits;
  m.mailbox_bytes = smsg_mailbox_bytes(smsg_limit, credits);
  m.msgq_queue_bytes = smsg_mailbox_bytes(smsg_limit, msgq_credits);
  const auto ranks = static_cast<std::uint64_t>(job.ranks);
  const auto nodes = static_cast<std::uint64_t>(job.nodes);
  const auto local = std::min<std::uint64_t>(static_cast<std::uint64_t>(job.ranks_per_node), ranks);
  m.off_node_peers = static_cast<long long>(ranks - local);
  m.smsg_all_peers = local * (ranks - local) * m.mailbox_bytes;
  const double e = static_cast<double>(endpoints), mb = static_cast<double>(m.mailbox_bytes);
  // Every ordered (rank, off-node rank) pair of the job, block placement: a mailbox count can never exceed it.
  const std::uint64_t rpn = static_cast<std::uint64_t>(job.ranks_per_node), full = ranks / rpn, rest = ranks % rpn;
  const double pairs = static_cast<double>(ranks) * static_cast<double>(ranks) -
                       static_cast<double>(full * rpn * rpn + rest * rest);
  m.smsg_connected = e * mb / static_cast<double>(nodes);
  m.smsg_connected_max = std::min(2 * e, pairs) * mb / static_cast<double>(nodes);
  // Open MPI's block allocation, applied to a rank holding the mean number of mailboxes (rounded up).
  const auto per_rank = static_cast<std::uint64_t>((endpoints + ranks - 1) / ranks);
  m.smsg_connected_allocated = static_cast<double>(smsg_allocated_bytes(per_rank, ranks, m.mailbox_bytes)) *
                               static_cast<double>(ranks) / static_cast<double>(nodes);
  m.msgq_per_node = (nodes - 1) * m.msgq_queue_bytes;
  return m;
}

}  // namespace ompisim::btl::ugni
