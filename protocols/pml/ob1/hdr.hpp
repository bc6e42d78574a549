// The pml/ob1 message alphabet (MCA_PML_OB1_HDR_TYPE_*).
#pragma once
#include <cstdint>

namespace ompisim::pml {

enum class Hdr : std::uint8_t { Match, Rndv, Rget, Ack, Nack, Frag, Put, Fin };

inline const char* to_string(Hdr h) {
  switch (h) {
    case Hdr::Match: return "MATCH";
    case Hdr::Rndv: return "RNDV";
    case Hdr::Rget: return "RGET";
    case Hdr::Ack: return "ACK";
    case Hdr::Nack: return "NACK";
    case Hdr::Frag: return "FRAG";
    case Hdr::Put: return "PUT";
    case Hdr::Fin: return "FIN";
  }
  return "?";
}

}  // namespace ompisim::pml
