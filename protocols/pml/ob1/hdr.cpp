#include "protocols/pml/ob1/hdr.hpp"

#include <bit>
#include <cstring>
#include <string>

namespace ompisim::pml {

namespace {
// Fields are stored little-endian (the byte order of the wire format, whatever the host's): on a little-endian host
// that is one memcpy per field instead of a loop over its bytes (the header is packed and unpacked once per fragment).
template <class T>
void put_le(std::uint8_t* p, T v) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, sizeof v);
  } else {
    for (std::size_t i = 0; i < sizeof v; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
}
template <class T>
T get_le(const std::uint8_t* p) {
  T v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, sizeof v);
  } else {
    for (std::size_t i = 0; i < sizeof v; ++i) v = static_cast<T>(v | static_cast<T>(p[i]) << (8 * i));
  }
  return v;
}
struct Writer {
  btl::HdrSegment& s;
  std::size_t at = 1;
  void u64(std::uint64_t v) { put_le(&s.bytes[at], v), at += 8; }
  void u32(std::uint32_t v) { put_le(&s.bytes[at], v), at += 4; }
  void u16(std::uint16_t v) { put_le(&s.bytes[at], v), at += 2; }
  void u8(std::uint8_t v) { s.bytes[at++] = v; }
};
struct Reader {
  const btl::HdrSegment& s;
  std::size_t at = 1;
  std::uint64_t u64() { return at += 8, get_le<std::uint64_t>(&s.bytes[at - 8]); }
  std::uint32_t u32() { return at += 4, get_le<std::uint32_t>(&s.bytes[at - 4]); }
  std::uint16_t u16() { return at += 2, get_le<std::uint16_t>(&s.bytes[at - 2]); }
  std::uint8_t u8() { return s.bytes[at++]; }
};

// Bytes used by a type's fields (type byte included).
std::size_t used(Hdr h) {
  switch (h) {
    case Hdr::Match: return 19;
    case Hdr::Rndv:
    case Hdr::Rget: return 28;
    case Hdr::Ack:
    case Hdr::Nack:
    case Hdr::Frag: return 25;
    case Hdr::Fin: return 29;
    case Hdr::Put: return 30;
  }
  return 0;
}
static_assert(30 <= kHdrBytes);
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
      if (h.type != Hdr::Match) w.u64(h.send_req), w.u8(h.flags);
      break;
    case Hdr::Ack:
    case Hdr::Nack:
      w.u64(h.send_req);
      w.u64(h.recv_req);
      w.u64(h.offset);
      break;
    case Hdr::Fin:
      w.u64(h.send_req);
      w.u64(h.recv_req);
      w.u64(h.offset);
      w.u32(static_cast<std::uint32_t>(h.msg_bytes));
      break;
    case Hdr::Frag:
    case Hdr::Put:
      w.u64(h.offset);
      w.u64(h.send_req);
      w.u64(h.recv_req);
      if (h.type == Hdr::Put) w.u32(static_cast<std::uint32_t>(h.msg_bytes)), w.u8(h.flags);
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
      if (h.type != Hdr::Match) h.send_req = r.u64(), h.flags = r.u8();
      break;
    case Hdr::Ack:
    case Hdr::Nack:
      h.send_req = r.u64();
      h.recv_req = r.u64();
      h.offset = r.u64();
      break;
    case Hdr::Fin:
      h.send_req = r.u64();
      h.recv_req = r.u64();
      h.offset = r.u64();
      h.msg_bytes = r.u32();
      break;
    case Hdr::Frag:
    case Hdr::Put:
      h.offset = r.u64();
      h.send_req = r.u64();
      h.recv_req = r.u64();
      if (h.type == Hdr::Put) h.msg_bytes = r.u32(), h.flags = r.u8();
      break;
  }
  return h;
}

}  // namespace ompisim::pml
