#pragma once
// What SONiC's buffer manager computes at run time, written anew from its sources: the
// traditional model's pg_profile_lookup.ini (sonic-swss cfgmgr/buffermgr.cpp) and the
// dynamic model's lossless headroom (cfgmgr/buffer_headroom_mellanox.lua). The dynamic pool
// sizing (buffer_pool_mellanox.lua) is in config/configdb.cc, next to the tables it counts.
#include <cstdint>
#include <map>
#include <string>

namespace mmusim {

// The ASIC parameters of SONiC's STATE_DB ASIC_TABLE that the dynamic buffer model's
// headroom and pool calculations use (files/build_templates/asic_table.j2 of
// sonic-buildimage). Defaults: MELLANOX-SPECTRUM (SN2410's ASIC).
struct AsicTable {
  uint32_t cell_size = 96;
  double pipeline_latency_kb = 18;    // x 1024 bytes
  double mac_phy_delay_kb = 0.8;      // x 1024 bytes
  double peer_response_time_kb = 3.8; // x 1024 bytes, used for speeds without a pause-quanta entry
};

// One lossless headroom as buffermgrdyn's Lua plugin (sonic-swss
// cfgmgr/buffer_headroom_mellanox.lua) computes it: bytes, rounded up to 1 KiB.
struct DynamicHeadroom {
  uint64_t xon = 0, xoff = 0, size = 0;
};
DynamicHeadroom dynamic_headroom(const AsicTable& asic, uint64_t speed_mbps, uint64_t cable_m, uint64_t port_mtu,
                                 uint64_t lossless_mtu, uint32_t small_packet_percentage, bool shared_headroom,
                                 bool eight_lanes);

// One row of pg_profile_lookup.ini: the generated lossless profile's fields as text.
struct LookupRow {
  std::string size, xon, xoff, threshold, xon_offset;
};
using PgProfileLookup = std::map<std::string, std::map<std::string, LookupRow>>;  // speed -> cable -> row

// pg_profile_lookup.ini as buffermgrd reads it (readPgProfileLookupFile); ConfigError
// "path:line: ..." on a malformed row.
PgProfileLookup read_pg_profile_lookup(const std::string& path);

}  // namespace mmusim
