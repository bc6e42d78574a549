// An MPI datatype as the stacks need it: a name, the size of one element (MPI_Type_size), whether the elements lie
// contiguously in memory, and whether the data is ever converted between architectures. MPI_BYTE and MPI_PACKED are
// raw bytes that a receiver never converts (MPI-2.2 §3.3.2: "the type MPI_BYTE ... no conversion"; MPI_PACKED data
// was converted by MPI_Pack already); typed data between peers of different architectures is converted by the
// receiver (receiver makes right, Open MPI's convertor).
// LIMITATIONS: no derived-datatype engine: a derived type is its element size and one contiguity flag (no type map,
// no extent or holes); the predefined list is the subset the benchmarks and the heterogeneous study need.
#pragma once
#include <cstdint>
#include <string_view>

namespace ompisim::mpi {

struct Datatype {
  const char* name = "MPI_BYTE";
  std::uint32_t size = 1;      // bytes per element
  bool contiguous = true;      // the elements follow each other with no gaps (a derived vector type: false)
  bool never_convert = true;   // raw bytes (MPI_BYTE, MPI_PACKED): no receiver-makes-right conversion
  std::uint64_t bytes(std::uint64_t count) const { return count * size; }
  bool operator==(const Datatype& o) const {
    return std::string_view(name) == o.name && size == o.size && contiguous == o.contiguous &&
           never_convert == o.never_convert;
  }
};

inline constexpr Datatype kByte{"MPI_BYTE", 1, true, true};
inline constexpr Datatype kPacked{"MPI_PACKED", 1, true, true};
inline constexpr Datatype kChar{"MPI_CHAR", 1, true, false};
inline constexpr Datatype kInt{"MPI_INT", 4, true, false};
inline constexpr Datatype kLong{"MPI_LONG", 8, true, false};  // LP64
inline constexpr Datatype kFloat{"MPI_FLOAT", 4, true, false};
inline constexpr Datatype kDouble{"MPI_DOUBLE", 8, true, false};
inline constexpr Datatype kLongDouble{"MPI_LONG_DOUBLE", 16, true, false};  // x86-64; 8 or 16 B on a PowerPC
inline constexpr Datatype kCxxBool{"MPI_CXX_BOOL", 1, true, false};

// The predefined datatype called `name` ("MPI_INT"), or nullptr.
const Datatype* find_datatype(std::string_view name);

}  // namespace ompisim::mpi
