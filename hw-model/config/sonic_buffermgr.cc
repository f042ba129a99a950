#include "config/sonic_buffermgr.h"

#include <cmath>
#include <sstream>

#include "config/input_file.h"
#include "config/scenario.h"

namespace mmusim {

PgProfileLookup read_pg_profile_lookup(const std::string& path) {
  std::istringstream in(read_regular_file(path, 1 << 20, "pg_profile_lookup file"));
  PgProfileLookup l;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream row(line);
    std::string speed, cable;
    LookupRow r;
    row >> speed >> cable >> r.size >> r.xon >> r.xoff >> r.threshold >> r.xon_offset;
    if (r.threshold.empty())
      throw ConfigError(path + ":" + std::to_string(n) + ": expected speed cable size xon xoff threshold [xon_offset]");
    for (const std::string* f : {&r.size, &r.xon, &r.xoff, &r.xon_offset})
      if (f->size() > 16 || f->find_first_not_of("0123456789") != std::string::npos)
        throw ConfigError(path + ":" + std::to_string(n) + ": '" + *f + "' is not a byte count");
    l[speed][cable] = r;
  }
  return l;
}


DynamicHeadroom dynamic_headroom(const AsicTable& asic, uint64_t speed_mbps, uint64_t cable_m, uint64_t port_mtu,
                                 uint64_t lossless_mtu, uint32_t small_packet_percentage, bool shared_headroom,
                                 bool eight_lanes) {
  // IEEE 802.3 31B.3.7 pause quanta per speed (Mb/s), as the Lua plugin tabulates them.
  static const std::map<uint64_t, double> kPauseQuanta = {{800000, 905}, {400000, 905}, {200000, 453},
                                                          {100000, 394}, {50000, 147},  {40000, 118},
                                                          {25000, 80},   {10000, 67},   {1000, 2},
                                                          {100, 1}};
  const double cell = asic.cell_size;
  double pipeline_latency = asic.pipeline_latency_kb * 1024;
  const double mac_phy_delay = asic.mac_phy_delay_kb * 1024;
  double speed_overhead = 0;
  if (eight_lanes) {
    pipeline_latency = pipeline_latency * 2 - 1024;
    speed_overhead = double(port_mtu);
  }
  const double worst_case_factor = cell > 2 * 64 ? cell / 64 : (2 * cell) / (1 + cell);
  const double cell_occupancy =
      (100 - double(small_packet_percentage) + double(small_packet_percentage) * worst_case_factor) / 100;
  auto q = kPauseQuanta.find(speed_mbps);
  const double peer_response_time = q != kPauseQuanta.end() ? q->second * 512 / 8 : asic.peer_response_time_kb * 1024;
  const double bytes_on_cable = 2 * double(cable_m) * double(speed_mbps) * 1e9 / 198000000 / (8 * 1024);
  const double propagation_delay = double(port_mtu) + bytes_on_cable + mac_phy_delay + peer_response_time;
  auto kb_ceil = [](double x) { return std::ceil(x / 1024) * 1024; };
  const double xoff = kb_ceil(double(lossless_mtu) + propagation_delay * cell_occupancy);
  const double xon = kb_ceil(pipeline_latency);
  const double size = kb_ceil(shared_headroom ? xon : xoff + xon + speed_overhead);
  return {uint64_t(xon), uint64_t(xoff), uint64_t(size)};
}

}  // namespace mmusim
