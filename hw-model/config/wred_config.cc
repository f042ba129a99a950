#include "config/wred_config.h"

#include <map>

#include "config/json_reader.h"

namespace mmusim {

namespace {

const char* const kColourNames[3] = {"green", "yellow", "red"};

// SAI_ECN_MARK_MODE_*: the colours each SONiC ecn mode marks (bit per WredProfileCfg::Colour).
const std::map<std::string, uint8_t> kEcnModes = {
    {"ecn_none", 0},         {"ecn_green", 1},     {"ecn_yellow", 2},     {"ecn_red", 4},
    {"ecn_green_yellow", 3}, {"ecn_green_red", 5}, {"ecn_yellow_red", 6}, {"ecn_all", 7}};

// CONFIG_DB writes booleans as "true"/"false"; JSON booleans are accepted too.
bool boolean(JsonReader& r, const std::string& key) {
  const auto& v = r.raw(key);
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string() && (v == "true" || v == "false")) return v == "true";
  r.fail(key, "must be true or false");
}

// "[WRED_PROFILE|name]" (older CONFIG_DB) or "name".
std::string profile_ref(JsonReader& r, const std::string& key) {
  const std::string s = r.string(key);
  const std::string prefix = "[WRED_PROFILE|";
  if (s.empty() || s.front() != '[') return s;
  if (s.size() <= prefix.size() || s.compare(0, prefix.size(), prefix) != 0 || s.back() != ']')
    r.fail(key, "'" + s + "' is not a profile name or a reference like [WRED_PROFILE|name]");
  return s.substr(prefix.size(), s.size() - prefix.size() - 1);
}

WredProfileCfg load_profile(JsonReader p, const std::string& name) {
  WredProfileCfg w;
  w.name = name;
  w.ecn = p.string("ecn", "ecn_none");
  const auto mode = kEcnModes.find(w.ecn);
  if (mode == kEcnModes.end())
    p.fail("ecn", "unknown mode '" + w.ecn +
                      "' (ecn_none, ecn_green, ecn_yellow, ecn_red, ecn_green_yellow, ecn_green_red, ecn_yellow_red, "
                      "ecn_all)");
  w.ecn_colours = mode->second;
  for (int c = 0; c < 3; ++c) {
    const std::string col = kColourNames[c];
    const std::string kmin = col + "_min_threshold", kmax = col + "_max_threshold", kp = col + "_drop_probability";
    const std::string ken = "wred_" + col + "_enable";
    auto& cv = w.curve[size_t(c)];
    if (p.has(ken)) w.wred_enable[size_t(c)] = boolean(p, ken);
    cv.probability_pct = uint32_t(p.integer(kp, 0, 100, 100));
    const bool has_min = p.has(kmin), has_max = p.has(kmax);
    if (has_min != has_max) p.fail(has_min ? kmax : kmin, "required with " + (has_min ? kmin : kmax));
    const bool used = w.wred_enable[size_t(c)] || (w.ecn_colours >> c & 1);
    if (!has_min) {
      // Only green packets exist in mmusim: a yellow or red curve that is used but absent is
      // SONiC's business, a green one is an error.
      if (used && c == WredProfileCfg::kGreen)
        p.fail(kmin, std::string("required: ") + (w.wred_enable[size_t(c)] ? ken + " is true" : "ecn '" + w.ecn + "' marks green"));
      continue;
    }
    cv.has = true;
    cv.min_bytes = uint64_t(p.integer(kmin, 0, int64_t(1) << 50));
    cv.max_bytes = uint64_t(p.integer(kmax, 0, int64_t(1) << 50));
    if (cv.min_bytes > cv.max_bytes)
      p.fail(kmin, std::to_string(cv.min_bytes) + " is above " + kmax + " (" + std::to_string(cv.max_bytes) + ")");
  }
  p.done();
  return w;
}

uint8_t queue_set(const std::string& s, const std::string& field) {
  uint8_t mask = 0;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    const std::string part = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t dash = part.find('-');
    auto digit = [&](const std::string& d) -> int {
      if (d.size() != 1 || d[0] < '0' || d[0] > '7')
        throw ConfigError(field + ": '" + s + "' is not a queue list like 3, 3-4 or 0,3-4 (queues 0..7)");
      return d[0] - '0';
    };
    const int lo = digit(part.substr(0, dash));
    const int hi = dash == std::string::npos ? lo : digit(part.substr(dash + 1));
    if (lo > hi) throw ConfigError(field + ": '" + s + "': range " + part + " is empty");
    for (int q = lo; q <= hi; ++q) mask |= uint8_t(1u << q);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return mask;
}

}  // namespace

void load_wred(Scenario& sc, JsonReader r) {
  WredCfg& w = sc.wred;
  const std::string at = r.string("mark_at", "dequeue");
  if (at == "dequeue") w.mark_at = WredCfg::MarkAt::kDequeue;
  else if (at == "enqueue") w.mark_at = WredCfg::MarkAt::kEnqueue;
  else r.fail("mark_at", "must be dequeue or enqueue, got '" + at + "'");
  std::map<std::string, uint32_t> idx;
  if (r.has("WRED_PROFILE")) {
    JsonReader profs = r.child("WRED_PROFILE");
    for (auto it = profs.object().begin(); it != profs.object().end(); ++it) {
      idx[it.key()] = uint32_t(w.profiles.size());
      w.profiles.push_back(load_profile(profs.child(it.key()), it.key()));
    }
    profs.done();
  }
  if (r.has("QUEUE")) {
    JsonReader q = r.child("QUEUE");
    for (auto it = q.object().begin(); it != q.object().end(); ++it) {
      JsonReader e = q.child(it.key());
      const std::string name = profile_ref(e, "wred_profile");
      const auto p = idx.find(name);
      if (p == idx.end()) e.fail("wred_profile", "unknown profile '" + name + "' (not in wred.WRED_PROFILE)");
      e.done();
      w.queues.push_back({it.key(), p->second});
    }
    q.done();
  }
  r.done();
  resolve_wred_queues(sc, false);
}

void resolve_wred_queues(SwitchConfig& sc, bool skip_missing) {
  WredCfg& w = sc.wred;
  w.queue_profile.assign(size_t(sc.ports()) * Scenario::kPrios, -1);
  for (const auto& e : w.queues) {
    const std::string field = "wred.QUEUE." + e.key;
    const auto bar = e.key.find('|');
    if (bar == std::string::npos) throw ConfigError(field + ": key must be PORTS|QUEUES, e.g. Ethernet0|3-4");
    const uint8_t mask = queue_set(e.key.substr(bar + 1), field);
    const WredProfileCfg& prof = w.profiles[e.profile];
    size_t start = 0;
    const std::string ports = e.key.substr(0, bar);
    while (start <= ports.size()) {
      const size_t comma = ports.find(',', start);
      const std::string name = ports.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      int port = -1;
      for (uint32_t i = 0; i < sc.ports(); ++i)
        if (sc.topo.ports[i].name == name) port = int(i);
      if (port < 0 && !skip_missing) throw ConfigError(field + ": unknown port '" + name + "'");
      for (uint32_t q = 0; port >= 0 && q < Scenario::kPrios; ++q) {
        if (!(mask >> q & 1)) continue;
        // A lossless queue never drops: its profile must mark, and then marks only.
        if (sc.lossless(uint32_t(port), q) && !prof.marks_green())
          throw ConfigError(field + ".wred_profile: profile '" + prof.name + "' on lossless queue " + name + "|" +
                            std::to_string(q) + " does not mark green packets (ecn '" + prof.ecn +
                            "'); a lossless queue is never WRED-dropped, so its profile must mark green");
        w.queue_profile[size_t(port) * Scenario::kPrios + q] = int(e.profile);
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
}

void load_int(Scenario& sc, JsonReader r) {
  IntCfg& c = sc.int_telemetry;
  const auto& v = r.raw("enabled_classes");
  if (!v.is_array()) r.fail("enabled_classes", "must be an array of priorities 0..7");
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer() || v[i].get<int64_t>() < 0 || v[i].get<int64_t>() > 7)
      r.fail("enabled_classes", "[" + std::to_string(i) + "]: must be a priority 0..7");
    c.classes |= uint8_t(1u << v[i].get<uint64_t>());
  }
  c.header_bytes = uint32_t(r.integer("header_bytes", 0, 1024, 42));
  r.done();
}

std::vector<admission::WredQueueConfig> wred_queue_configs(const SwitchConfig& sc) {
  std::vector<admission::WredQueueConfig> out(size_t(sc.ports()) * Scenario::kPrios);
  const WredCfg& w = sc.wred;
  for (uint32_t port = 0; port < sc.ports(); ++port)
    for (uint32_t q = 0; q < Scenario::kPrios; ++q) {
      const size_t i = size_t(port) * Scenario::kPrios + q;
      if (w.queue_profile.size() <= i || w.queue_profile[i] < 0) continue;
      const WredProfileCfg& p = w.profiles[size_t(w.queue_profile[i])];
      auto& c = out[i];
      c.mark = p.marks_green();
      c.drop = p.drops_green() && !sc.lossless(port, q);
      c.active = c.mark || c.drop;
      if (!c.active) continue;
      const auto& g = p.curve[WredProfileCfg::kGreen];
      c.green = {g.min_bytes / sc.mmu.cell_bytes, g.max_bytes / sc.mmu.cell_bytes,
                 uint32_t((uint64_t(g.probability_pct) * admission::kWredProbOne + 50) / 100)};
    }
  return out;
}

}  // namespace mmusim
