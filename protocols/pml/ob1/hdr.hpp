// The pml/ob1 message alphabet (MCA_PML_OB1_HDR_TYPE_*, ompi/mca/pml/ob1/pml_ob1_hdr.h) and its serialisation into a
// BTL header segment. ob1 alone reads and writes these bytes; a BTL sees only the segment's length.
//
// Layout: byte 0 is the type (as hdr_common.hdr_type), then the type's fields, little-endian, zero padding up to the
// header's length on the wire:
//   MATCH        ctx:u16 tag:i32 seq:u32 msg_bytes:u64                      (19 bytes used)
//   RNDV, RGET   ctx:u16 tag:i32 seq:u32 msg_bytes:u64 send_req:u64 flags:u8 (28; flags: hdr_flag::Contig)
//   ACK, NACK    send_req:u64 recv_req:u64 offset:u64                       (25; offset: the ACK's hdr_rdma_offset,
//                                                                            where the receiver's RDMA PUTs start)
//   FRAG         offset:u64 send_req:u64 recv_req:u64                       (25)
//   PUT          offset:u64 send_req:u64 recv_req:u64 msg_bytes:u32 flags:u8 (30; the receiver's registered segment:
//                                                                            v1.1 mca_pml_ob1_rdma_hdr_t, seg_len u32;
//                                                                            flags: hdr_flag::Ack)
//   FIN          send_req:u64 recv_req:u64 offset:u64 msg_bytes:u32         (29; an RDMA PUT's FIN names the
//                                                                            receiver's fragment (hdr_des) by offset
//                                                                            and length; RGET's FIN has length 0)
// Every header is kHdrBytes = 32 bytes on the wire, the model's rounding of mca_pml_ob1_match_hdr_t and its
// relatives (14-48 B in Open MPI). `ctx` is the communicator's context id (mca_pml_ob1_match_hdr_t::hdr_ctx, 16 bits):
// the receiver matches the message in that communicator's queues. RGET's exposed buffer travels as the descriptor's data segment (Open MPI puts the
// segment descriptors in the RGET header itself).
#pragma once
#include "core/errors.hpp"
#include "protocols/base/transition_table.hpp"
#include "protocols/btl/btl.hpp"

#include <cstdint>

namespace ompisim::pml {

enum class Hdr : std::uint8_t { Match, Rndv, Rget, Ack, Nack, Frag, Put, Fin };
constexpr int kHdrTypes = 8;

inline constexpr std::array<const char*, kHdrTypes> kHdrNames{
    "MATCH", "RNDV", "RGET", "ACK", "NACK", "FRAG", "PUT", "FIN"};
constexpr const char* to_string(Hdr h) { return name_of<Hdr::Fin>(h, kHdrNames); }

constexpr std::uint8_t kHdrBytes = 32;
static_assert(kHdrBytes <= btl::kHdrSegmentMax, "an ob1 header must fit a BTL header segment");

// Bytes of header `h` on the wire (the segment's length). The same for every type today.
constexpr std::uint8_t hdr_len(Hdr) { return kHdrBytes; }

// The BTL tag ob1 registers for header `h` (MCA_PML_OB1_HDR_TYPE_MATCH = MCA_BTL_TAG_PML + 1, ...).
constexpr btl::Tag tag_of(Hdr h) { return static_cast<btl::Tag>(btl::kTagPml + 1 + static_cast<int>(h)); }

// hdr_common.hdr_flags. Of a RNDV / RGET: Contig (MCA_PML_OB1_HDR_FLAGS_CONTIG: the sender's data is contiguous, so
// the receiver may take the rest by RDMA) and Pin (MCA_PML_OB1_HDR_FLAGS_PIN: sent by start_rdma, the sender's buffer
// is registered). Of a PUT: Ack, the receiver's acknowledgment carried by its PUT where no ACK was sent (v1.1.1
// mca_pml_ob1_recv_request_schedule sets hdr_flags = MCA_PML_OB1_HDR_TYPE_ACK, value 4, and
// mca_pml_ob1_send_request_put tests the same constant; it shares the value of FLAGS_PIN, on another header type).
namespace hdr_flag {
constexpr std::uint8_t Ack = 0x4;
constexpr std::uint8_t Pin = 0x4;
constexpr std::uint8_t Contig = 0x8;
}

// A header's fields; a type uses the subset listed above, the others stay zero.
struct HdrFields {
  Hdr type = Hdr::Match;
  int tag = 0;
  std::uint32_t seq = 0;
  std::uint64_t msg_bytes = 0, send_req = 0, recv_req = 0, offset = 0;
  std::uint16_t ctx = 0;
  std::uint8_t flags = 0;
  bool operator==(const HdrFields&) const = default;
};

btl::HdrSegment pack(const HdrFields& h);
// Throws ProtocolError for an unknown type or a segment shorter than its type's fields.
HdrFields unpack(const btl::HdrSegment& s);

}  // namespace ompisim::pml
