#include "config/effective_config.h"

#include <cmath>
#include <iomanip>
#include <algorithm>
#include <array>
#include <map>
#include <sstream>

#include "config/headroom.h"
#include "config/scenario.h"
#include "config/wred_config.h"

namespace mmusim {
namespace {

using nlohmann::json;

json threshold(const admission::Threshold& t) {
  if (t.dynamic) return {{"mode", "dynamic"}, {"dynamic_th", int(t.shift)}, {"alpha", std::ldexp(1.0, t.shift)}};
  return {{"mode", "static"}, {"static_cells", t.static_cells}};
}

// A queue's WRED/ECN attachment: the profile's green curve in bytes and in the cells (and
// Q16 probability) the marker runs with, its ecn mode, and what it does on this queue.
json wred_queue(const WredProfileCfg& p, const admission::WredQueueConfig& c, uint32_t cell_bytes) {
  const auto& g = p.curve[WredProfileCfg::kGreen];
  json w = {{"profile", p.name}, {"ecn", p.ecn}, {"marks", c.mark}, {"drops", c.drop}};
  if (g.has)
    w["green"] = {{"min_bytes", g.min_bytes}, {"min_cells", g.min_bytes / cell_bytes},
                  {"max_bytes", g.max_bytes}, {"max_cells", g.max_bytes / cell_bytes},
                  {"probability_pct", g.probability_pct}};
  if (c.active) w["green"]["probability_q16"] = c.green.p_max_q16;  // what the marker draws against
  return w;
}

json switch_config(const SwitchConfig& v, const std::string& name) {
  const admission::CoreConfig c = v.core_config();
  const BufferCfg& b = v.buffer;
  const uint64_t cb = v.mmu.cell_bytes;
  json sw = {{"name", name},
             {"buffer_bytes", v.mmu.buffer_bytes},
             {"cell_bytes", cb},
             {"buffer_cells", c.buffer_cells},
             {"headroom_pool_cells", c.headroom_pool_cells},
             {"pools", json::array()},
             {"ports", json::array()}};
  for (size_t i = 0; i < b.pools.size(); ++i) {
    const auto& p = b.pools[i];
    json pj = {{"name", p.name},
               {"type", p.ingress ? "ingress" : "egress"},
               {"mode", p.dynamic ? "dynamic" : "static"},
               {"size_bytes", p.size_bytes},
               {"size_cells", c.pool_cells[i]}};
    if (p.has_xoff) pj["xoff_bytes"] = p.xoff_bytes, pj["xoff_cells"] = p.xoff_bytes / cb;
    sw["pools"].push_back(pj);
  }
  const std::vector<admission::WredQueueConfig> wred =
      v.wred.configured() ? wred_queue_configs(v) : std::vector<admission::WredQueueConfig>();
  for (uint32_t port = 0; port < v.ports(); ++port) {
    const PortCfg& pc = v.topo.ports[port];
    json pj = {{"name", pc.name},
               {"rate_gbps", double(pc.rate_bps) / 1e9},
               {"delay_ns", double(pc.delay_ps) / 1e3},
               {"pfc_enable", json::array()},
               {"pgs", json::array()},
               {"queues", json::array()}};
    // Bits of `of` whose entry in `map` is `to`, as a list.
    auto members = [](uint8_t of, const std::array<uint8_t, 8>& map, uint32_t to) {
      json a = json::array();
      for (uint32_t k = 0; k < Scenario::kPrios; ++k)
        if ((of >> k & 1) && map[k] == to) a.push_back(k);
      return a;
    };
    for (uint32_t q = 0; q < Scenario::kPrios; ++q) {
      const size_t i = size_t(port) * Scenario::kPrios + q;
      if (v.tc_lossless(port, q)) pj["pfc_enable"].push_back(q);
      const bool lossless = v.lossless(port, q);
      const auto& ip = c.ingress_profiles[c.pg_profile[i]];
      const auto& ipr = b.profiles[size_t(b.pg_profile[i])];
      json g = {{"name", std::to_string(q)},
                {"tcs", members(0xFF, b.tc_to_pg[port], q)},
                {"profile", ipr.name},
                {"pool", b.pools[ipr.pool].name},
                {"lossless", lossless},
                {"reserved_cells", ip.reserved_cells},
                {"threshold", threshold(ip.th)}};
      if (lossless) {
        g["pfc_priorities"] = members(v.pg_priorities(port, q), b.tc_to_pg[port], q);
        g["xoff_cells"] = ip.xoff_cells;
        g["xoff_derived"] = !ipr.has_xoff;  // mmusim's safe headroom (no profile xoff)
        g["xon_cells"] = ip.xon_cells;
        g["xon_offset_cells"] = ip.xon_offset_cells;
      }
      pj["pgs"].push_back(g);
      // The profile of the core's egress (port, queue) counter (egress profiles are the
      // BUFFER_PROFILE entries by index).
      const auto& ep = c.egress_profiles[c.queue_profile[i]];
      const auto& epr = b.profiles[c.queue_profile[i]];
      json qj = {{"name", std::to_string(q)},
                 {"tcs", members(0xFF, b.tc_to_queue[port], q)},
                 {"paused_by", members(0xFF, b.pfc_to_queue[port], q)},
                 {"profile", epr.name},
                 {"pool", b.pools[epr.pool].name},
                 {"reserved_cells", ep.reserved_cells},
                 {"threshold", threshold(ep.th)}};
      if (!wred.empty() && v.wred.queue_profile[i] >= 0)
        qj["wred"] = wred_queue(v.wred.profiles[size_t(v.wred.queue_profile[i])], wred[i], v.mmu.cell_bytes);
      pj["queues"].push_back(qj);
    }
    sw["ports"].push_back(pj);
  }
  if (v.wred.configured())
    sw["wred_mark_at"] = v.wred.mark_at == WredCfg::MarkAt::kDequeue ? "dequeue" : "enqueue";
  if (v.int_telemetry.enabled()) {
    json classes = json::array();
    for (uint32_t tc = 0; tc < Scenario::kPrios; ++tc)
      if (v.int_telemetry.classes >> tc & 1) classes.push_back(tc);
    sw["int"] = {{"classes", classes}, {"header_bytes", v.int_telemetry.header_bytes}};
  }
  if (v.pfc_wd.enabled()) {
    static const char* const kActions[] = {"drop", "forward", "alert"};
    json ports = json::object();
    for (uint32_t port = 0; port < v.ports(); ++port) {
      const auto& w = v.pfc_wd.ports[port];
      if (!w.enabled) continue;
      json prios = json::array();
      for (uint32_t p = 0; p < Scenario::kPrios; ++p)
        if (w.priorities >> p & 1) prios.push_back(p);
      ports[v.topo.ports[port].name] = {{"action", kActions[size_t(w.action)]},
                                        {"detection_ms", double(w.detection_ps) / 1e9},
                                        {"restoration_ms", double(w.restoration_ps) / 1e9},
                                        {"priorities", prios}};
    }
    sw["pfc_watchdog"] = {{"poll_interval_ms", double(v.pfc_wd.poll_ps) / 1e9}, {"ports", ports}};
  }
  return sw;
}

std::string th_text(const json& t) {
  std::ostringstream os;
  if (t["mode"] == "dynamic") os << "alpha 2^" << t["dynamic_th"].get<int>();
  else os << "static " << t["static_cells"].get<uint64_t>();
  return os.str();
}

std::string cell(const json& o, const char* k) { return o.contains(k) ? o[k].dump() : "-"; }

// [3, 4] -> "3,4"; [] -> "-".
std::string list(const json& a) {
  std::string s;
  for (const auto& e : a) s += (s.empty() ? "" : ",") + e.dump();
  return s.empty() ? "-" : s;
}

// Arrays of named objects (pools, ports, PGs) as objects keyed by name, so that a port
// present on one side only is one difference, not one per leaf.
json keyed(const json& j) {
  if (j.is_object()) {
    json o = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) o[it.key()] = keyed(*it);
    return o;
  }
  if (j.is_array() && !j.empty() && j[0].is_object() && j[0].contains("name")) {
    json o = json::object();
    for (const auto& e : j) o["[" + e["name"].get<std::string>() + "]"] = keyed(e);
    return o;
  }
  return j;
}

std::string shown(const json& j) {
  const std::string d = j.dump();
  return d.size() <= 60 ? d : d.substr(0, 57) + "...";
}

void diff(const json& a, const json& b, const std::string& path, std::vector<std::string>& out) {
  auto join = [&](const std::string& k) { return path.empty() || k[0] == '[' ? path + k : path + "." + k; };
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it)
      if (!b.contains(it.key())) out.push_back(join(it.key()) + ": " + shown(*it) + " -> (absent)");
      else diff(*it, b[it.key()], join(it.key()), out);
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key())) out.push_back(join(it.key()) + ": (absent) -> " + shown(*it));
  } else if (a != b) {
    out.push_back((path.empty() ? "." : path) + ": " + shown(a) + " -> " + shown(b));
  }
}

}  // namespace

json effective_config(const Scenario& sc) {
  json out = {{"scenario", sc.name}, {"switches", json::array()}};
  if (!sc.net.graph) {
    out["switches"].push_back(switch_config(sc, sc.topo.switch_name));
  } else {
    for (size_t s = 0; s < sc.net.switches.size(); ++s)
      out["switches"].push_back(switch_config(sc.switch_view(uint32_t(s)), sc.net.switches[s].name));
  }
  return out;
}

void print_effective_config(std::ostream& os, const json& eff) {
  for (const auto& sw : eff["switches"]) {
    os << "switch " << sw["name"].get<std::string>() << ": buffer " << sw["buffer_bytes"] << " B = "
       << sw["buffer_cells"] << " cells of " << sw["cell_bytes"] << " B; headroom pool " << sw["headroom_pool_cells"]
       << " cells\n";
    os << std::left << "  " << std::setw(26) << "pool" << std::setw(9) << "type" << std::setw(9) << "mode"
       << std::setw(12) << "size B" << std::setw(10) << "cells" << std::setw(11) << "xoff B" << "xoff cells\n";
    for (const auto& p : sw["pools"])
      os << "  " << std::setw(26) << p["name"].get<std::string>() << std::setw(9) << p["type"].get<std::string>()
         << std::setw(9) << p["mode"].get<std::string>() << std::setw(12) << p["size_bytes"].dump() << std::setw(10)
         << p["size_cells"].dump() << std::setw(11) << cell(p, "xoff_bytes") << cell(p, "xoff_cells") << "\n";
    os << "  " << std::setw(13) << "port" << std::setw(9) << "Gb/s" << std::setw(10) << "delay ns" << std::setw(6)
       << "PG/Q" << std::setw(9) << "TCs" << std::setw(9) << "PFC prio" << std::setw(34) << "profile" << std::setw(10)
       << "class" << std::setw(7) << "resv" << std::setw(15) << "threshold" << std::setw(8) << "xoff" << std::setw(7)
       << "xon" << "xon_offset   (cells)\n";
    for (const auto& p : sw["ports"]) {
      bool first = true;
      for (const char* kind : {"pgs", "queues"})
        for (const auto& e : p[kind]) {
          const bool pg = std::string(kind) == "pgs";
          const bool ll = pg && e["lossless"].get<bool>();
          os << "  " << std::setw(13) << (first ? p["name"].get<std::string>() : "") << std::setw(9)
             << (first ? p["rate_gbps"].dump() : "") << std::setw(10) << (first ? p["delay_ns"].dump() : "")
             << std::setw(6) << ((pg ? "PG" : "Q") + e["name"].get<std::string>()) << std::setw(9) << list(e["tcs"])
             << std::setw(9) << list(pg ? e.value("pfc_priorities", json::array()) : e["paused_by"]) << std::setw(34)
             << e["profile"].get<std::string>() << std::setw(10) << (pg ? (ll ? "lossless" : "lossy") : "")
             << std::setw(7) << e["reserved_cells"].dump() << std::setw(15) << th_text(e["threshold"]) << std::setw(8)
             << (ll ? cell(e, "xoff_cells") + (e["xoff_derived"].get<bool>() ? "*" : "") : "-") << std::setw(7)
             << (ll ? cell(e, "xon_cells") : "-") << (ll ? cell(e, "xon_offset_cells") : "-") << "\n";
          first = false;
        }
    }
    if (sw.contains("wred_mark_at")) {
      os << "  WRED/ECN, marking at " << sw["wred_mark_at"].get<std::string>() << ":\n  " << std::setw(16) << "queue"
         << std::setw(24) << "profile" << std::setw(18) << "ecn" << std::setw(8) << "action" << std::setw(24)
         << "green min B (cells)" << std::setw(24) << "green max B (cells)" << "probability\n";
      for (const auto& p : sw["ports"])
        for (const auto& q : p["queues"]) {
          if (!q.contains("wred")) continue;
          const json& w = q["wred"];
          const bool g = w.contains("green");
          auto bc = [&](const char* b, const char* c) {
            return g ? w["green"][b].dump() + " (" + w["green"][c].dump() + ")" : std::string("-");
          };
          const std::string action = w["marks"].get<bool>() ? "mark" : w["drops"].get<bool>() ? "drop" : "none";
          os << "  " << std::setw(16) << (p["name"].get<std::string>() + "|" + q["name"].get<std::string>())
             << std::setw(24) << w["profile"].get<std::string>() << std::setw(18) << w["ecn"].get<std::string>()
             << std::setw(8) << action << std::setw(24) << bc("min_bytes", "min_cells") << std::setw(24)
             << bc("max_bytes", "max_cells")
             << (g ? w["green"]["probability_pct"].dump() + " %" : std::string("-")) << "\n";
        }
    }
    if (sw.contains("int"))
      os << "  INT on TCs " << list(sw["int"]["classes"]) << ", header " << sw["int"]["header_bytes"].dump()
         << " B\n";
    if (sw.contains("pfc_watchdog")) {
      const json& w = sw["pfc_watchdog"];
      os << "  PFC watchdog, poll " << w["poll_interval_ms"].dump() << " ms:";
      for (auto it = w["ports"].begin(); it != w["ports"].end(); ++it)
        os << " " << it.key() << " " << (*it)["action"].get<std::string>() << " " << (*it)["detection_ms"].dump()
           << "/" << (*it)["restoration_ms"].dump() << " ms prio " << list((*it)["priorities"]) << ";";
      os << "\n";
    }
  }
  os << "(* xoff derived: mmusim's safe headroom, the profile has none; PFC prio: the priorities a PG's XOFF "
        "pauses, and those whose pause stops a queue)\n";
}

std::vector<std::string> diff_effective_config(const json& a, const json& b) {
  json a2 = keyed(a), b2 = keyed(b);
  a2.erase("scenario");
  b2.erase("scenario");
  std::vector<std::string> out;
  diff(a2, b2, "", out);
  return out;
}

}  // namespace mmusim
