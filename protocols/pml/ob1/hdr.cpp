#include "protocols/pml/ob1/hdr.hpp"

#include <string>

namespace ompisim::pml {

namespace {
struct Writer {
  btl::HdrSegment& s;
  std::size_t at = 1;
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) s.bytes[at++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s.bytes[at++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  void u16(std::uint16_t v) {
    for (int i = 0; i < 2; ++i) s.bytes[at++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
};
struct Reader {
  const btl::HdrSegment& s;
  std::size_t at = 1;
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(s.bytes[at++]) << (8 * i);
    return v;
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(s.bytes[at++]) << (8 * i);
    return v;
  }
  std::uint16_t u16() {
    std::uint16_t v = 0;
    for (int i = 0; i < 2; ++i) v = static_cast<std::uint16_t>(v | s.bytes[at++] << (8 * i));
    return v;
  }
};

// Bytes used by a type's fields (type byte included).
std::size_t used(Hdr h) {
  switch (h) {
    case Hdr::Match: return 19;
    case Hdr::Rndv:
    case Hdr::Rget: return 27;
    case Hdr::Ack:
    case Hdr::Nack:
    case Hdr::Fin: return 17;
    case Hdr::Frag:
    case Hdr::Put: return 25;
  }
  return 0;
}
static_assert(27 <= kHdrBytes);
}  // namespace

btl::HdrSegment pack(const HdrFields& h) {
  btl::HdrSegment s;
  s.len = hdr_len(h.type);
  s.bytes[0] = static_cast<std::uint8_t>(h.type);
  Writer w{s};
  switch (h.type) {
    case Hdr::Match:
    case Hdr::Rndv:
    case Hdr::Rget:
      w.u16(h.ctx);
      w.u32(static_cast<std::uint32_t>(h.tag));
      w.u32(h.seq);
      w.u64(h.msg_bytes);
      if (h.type != Hdr::Match) w.u64(h.send_req);
      break;
    case Hdr::Ack:
    case Hdr::Nack:
    case Hdr::Fin:
      w.u64(h.send_req);
      w.u64(h.recv_req);
      break;
    case Hdr::Frag:
    case Hdr::Put:
      w.u64(h.offset);
      w.u64(h.send_req);
      w.u64(h.recv_req);
      break;
  }
  return s;
}

HdrFields unpack(const btl::HdrSegment& s) {
  if (s.len == 0 || s.bytes[0] >= kHdrTypes)
    throw ProtocolError("ob1 header", "segment", "unknown header type " + std::to_string(s.len ? s.bytes[0] : -1));
  HdrFields h;
  h.type = static_cast<Hdr>(s.bytes[0]);
  if (s.len < used(h.type))
    throw ProtocolError("ob1 header", to_string(h.type), "segment of " + std::to_string(s.len) + " bytes");
  Reader r{s};
  switch (h.type) {
    case Hdr::Match:
    case Hdr::Rndv:
    case Hdr::Rget:
      h.ctx = r.u16();
      h.tag = static_cast<int>(r.u32());
      h.seq = r.u32();
      h.msg_bytes = r.u64();
      if (h.type != Hdr::Match) h.send_req = r.u64();
      break;
    case Hdr::Ack:
    case Hdr::Nack:
    case Hdr::Fin:
      h.send_req = r.u64();
      h.recv_req = r.u64();
      break;
    case Hdr::Frag:
    case Hdr::Put:
      h.offset = r.u64();
      h.send_req = r.u64();
      h.recv_req = r.u64();
      break;
  }
  return h;
}

}  // namespace ompisim::pml
