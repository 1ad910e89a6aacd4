#include "models/postgres/host_file.h"

namespace ckptsim::postgres {

sim::Task<> HostFile::append(std::int64_t bytes) {
  if (bytes <= 0) co_return;
  const std::int64_t first = size_bytes_ / os::kBlockBytes;
  const std::int64_t last = (size_bytes_ + bytes - 1) / os::kBlockBytes;
  size_bytes_ += bytes;  // the offset is taken at the call, as O_APPEND does
  co_await fs_.write(writer_, file_, first, last - first + 1);
}

}  // namespace ckptsim::postgres
