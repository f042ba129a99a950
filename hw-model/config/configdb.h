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

#include "config/sonic_buffermgr.h"

namespace mmusim {

// What the import has to say besides errors: `ignored` lines form one warning block (every
// table or key that is not modelled); `warnings` are single warnings; `notes` say what was
// derived.
struct ImportMessages {
  std::vector<std::string> ignored;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};

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
