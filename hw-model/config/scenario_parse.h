#pragma once
// What the scenario loader's parts share (config/scenario.cc, buffer_load.cc,
// traffic_load.cc, output_load.cc): units, the smallest frame, and the parsers of SONiC
// keys, priority sets and host lists. Messages name the field.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmusim {

struct Scenario;
struct SwitchConfig;

constexpr double kPsPerUs = 1e6;
constexpr double kPsPerNs = 1e3;
constexpr uint64_t kMinFrameBytes = 64;  // a PFC or BFC frame, the smallest data frame

std::string ns_text(uint64_t ps);
// Every field, empty ones included ("3," is "3" and ""), so a stray separator is an error.
std::vector<std::string> split(const std::string& s, char sep);
// Command-line text echoed in messages is cut short.
std::string clip(const std::string& s);
bool parse_uint(const std::string& s, uint64_t& out);
// "3", "3-4" or "0,3-4" -> bitmask of priorities 0..7.
uint8_t parse_prio_set(const std::string& s, const std::string& field);
// skip: a switch of a graph topology reading the shared SONiC tables ignores names of
// ports it lacks (they were checked against the largest switch); -1 then.
int port_index_or_skip(const SwitchConfig& sc, const std::string& name, const std::string& field, bool skip);
uint32_t port_index(const SwitchConfig& sc, const std::string& name, const std::string& field);
// SONiC key "Ethernet0|3-4" or "Ethernet0,Ethernet4|3" -> (ports, priority mask).
std::pair<std::vector<uint32_t>, uint8_t> parse_port_prio_key(const SwitchConfig& sc, const std::string& key,
                                                               const std::string& table, bool skip_missing = false);
// Host lists: "h3", "h1-h16", or an array of these (graph form: any host name, ranges of
// h<N> names).
std::vector<uint32_t> parse_hosts(const nlohmann::json& v, const std::string& field, const Scenario& sc);

}  // namespace mmusim
