#pragma once
// SONiC CONFIG_DB import (docs/configuration.md, "Switch configuration from SONiC
// CONFIG_DB"): a switch's CONFIG_DB JSON, as SONiC writes it, becomes the scenario's
// `buffer` tables, its ports' rates and delays and, when absent, mmu.buffer_bytes. What
// SONiC's buffer manager adds at run time is computed here too: the lossless PG profiles
// (pg_lossless_<speed>_<cable>_profile) and the sizes of size-less pools.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim {

// What the import has to say besides errors: `ignored` lines form one warning block (every
// table or key that is not modelled); `warnings` are single warnings; `notes` say what was
// derived.
struct ImportMessages {
  std::vector<std::string> ignored;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};

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

// Cable length as CONFIG_DB writes it ("300m") to one-way propagation delay: 5 ns per metre.
constexpr uint64_t kCableNsPerMetre = 5;

// Applies the scenario's `switch_config` (a CONFIG_DB file name, a list of them merged
// table by table, or an inline object; top-level, or per switch in topology.switches) to `j`
// in place: sets `buffer` (the switch's), and in the single-switch form the ports' rates and
// delays and topology.mtu_bytes; mmu.buffer_bytes where the scenario leaves it out; removes
// `switch_config` and `platform`. Without `switch_config` it only infers an absent
// mmu.buffer_bytes from the pools. True when a CONFIG_DB was imported. `origin` names the
// scenario in messages. ConfigError on bad input.
bool apply_switch_config(nlohmann::json& j, const std::string& origin, ImportMessages& msgs);

// True for a CONFIG_DB file's JSON (upper-case tables, no scenario keys), false for a scenario.
bool is_config_db(const nlohmann::json& j);

// A scenario around CONFIG_DB files alone (`mmusim config show CONFIG_DB`): one switch whose
// ports are the Ethernet<N> the files name (N = port index x the gcd of the N), 100 Gb/s
// where PORT gives no speed, no traffic. `note` says so.
nlohmann::json scenario_for_config_db(const std::vector<std::string>& files, std::string& note);

// mmu.buffer_bytes from the pools of a scenario `buffer`: the larger of the ingress pools'
// sizes plus their xoff summed and the largest egress pool. 0 when no pool has a size.
uint64_t infer_buffer_bytes(const nlohmann::json& buffer);

}  // namespace mmusim
