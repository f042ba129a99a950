#pragma once
// Strict reader over a JSON object: typed getters that name the field path in errors,
// and done() rejects keys nobody asked for (a typo must not be silently ignored).
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "config/scenario.h"

namespace mmusim {

class JsonReader {
 public:
  JsonReader(const nlohmann::json& j, std::string path) : m_j(j), m_path(std::move(path)) {
    if (!m_j.is_object()) fail("", "must be an object");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    const std::string f = field(key);
    throw ConfigError(f.empty() ? what : f + ": " + what);
  }
  std::string field(const std::string& key) const {
    if (key.empty()) return m_path;
    return m_path.empty() ? key : m_path + "." + key;
  }
  bool has(const std::string& key) {
    m_seen.insert(key);
    return m_j.contains(key);
  }
  const nlohmann::json& raw(const std::string& key) {
    if (!has(key)) fail(key, "required field is missing");
    return m_j.at(key);
  }
  const nlohmann::json& object() const { return m_j; }

  // A number, or a string holding one (SONiC CONFIG_DB writes numbers as strings).
  double number(const std::string& key) {
    const auto& v = raw(key);
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      // Plain decimal only: stod alone would take " 5", "0x10" or "inf".
      const bool plain = !s.empty() && s.find_first_not_of("0123456789.-+eE") == std::string::npos;
      try {
        size_t used = 0;
        double d = plain ? std::stod(s, &used) : 0;
        if (plain && used == s.size()) return d;
      } catch (const std::exception&) {
      }
      fail(key, "'" + s + "' is not a number");
    }
    fail(key, "must be a number");
  }
  double number(const std::string& key, double dflt) { return has(key) ? number(key) : dflt; }

  // Integer within [lo, hi]; fractions and out-of-range values are errors, never clamped.
  // JSON integers compare exactly (a double would round 2^61 - 1 up to 2^61).
  int64_t integer(const std::string& key, int64_t lo, int64_t hi) {
    const auto& v = raw(key);
    __int128 x = 0;
    std::string shown;
    if (v.is_number_unsigned()) {
      x = v.get<uint64_t>();
      shown = std::to_string(v.get<uint64_t>());
    } else if (v.is_number_integer()) {
      x = v.get<int64_t>();
      shown = std::to_string(v.get<int64_t>());
    } else if (v.is_string() && is_plain_integer(v.get_ref<const std::string&>())) {
      shown = v.get<std::string>();
      for (char c : shown) x = c == '-' ? x : x * 10 + (c - '0');
      if (shown[0] == '-') x = -x;
    } else {
      const double d = number(key);
      if (!std::isfinite(d) || d != std::floor(d)) fail(key, "must be an integer");
      x = std::fabs(d) < 0x1p100 ? __int128(d) : (d < 0 ? -(__int128(1) << 100) : __int128(1) << 100);
      shown = nlohmann::json(d).dump();
    }
    if (x < lo || x > hi)
      fail(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + shown);
    return int64_t(x);
  }
  int64_t integer(const std::string& key, int64_t lo, int64_t hi, int64_t dflt) {
    return has(key) ? integer(key, lo, hi) : dflt;
  }
  uint64_t positive(const std::string& key) {
    return uint64_t(integer(key, 1, std::numeric_limits<int64_t>::max() / 4));
  }
  uint64_t positive(const std::string& key, uint64_t dflt) { return has(key) ? positive(key) : dflt; }
  uint64_t non_negative(const std::string& key, uint64_t dflt) {
    return has(key) ? uint64_t(integer(key, 0, std::numeric_limits<int64_t>::max() / 4)) : dflt;
  }
  // A time in the key's unit (us or ns) converted to integer picoseconds.
  uint64_t time_ps(const std::string& key, double unit_ps, bool allow_zero) {
    const double d = number(key);
    if (!std::isfinite(d) || d < 0 || (!allow_zero && d == 0))
      fail(key, allow_zero ? "must be >= 0" : "must be > 0");
    constexpr double kMaxPs = 4611686018427387904.0;  // 2^62 ps (~53 days): sums never overflow
    if (d * unit_ps > kMaxPs) fail(key, "too large (at most 2^62 ps, about 53 days)");
    const uint64_t ps = uint64_t(std::llround(d * unit_ps));
    if (!allow_zero && ps == 0) fail(key, "rounds to 0 ps; must be at least 1 ps");
    return ps;
  }
  uint64_t time_ps(const std::string& key, double unit_ps, bool allow_zero, uint64_t dflt) {
    return has(key) ? time_ps(key, unit_ps, allow_zero) : dflt;
  }
  double fraction(const std::string& key, double lo, double hi) {
    const double d = number(key);
    if (!(d > lo && d <= hi))
      fail(key, "must be in (" + nlohmann::json(lo).dump() + ", " + nlohmann::json(hi).dump() + "]");
    return d;
  }
  // A link or pacing rate in Gb/s, 1 Mb/s to 100 Tb/s: from 1 Mb/s up, every serialisation
  // and pause time of the model stays far below 2^62 ps (docs/configuration.md).
  static constexpr double kMinGbps = 1e-3, kMaxGbps = 1e5;
  double gbps(const std::string& key) {
    const double g = number(key);
    if (!(g >= kMinGbps && g <= kMaxGbps))
      fail(key, "must be in [0.001, 100000] Gb/s (at least 1 Mb/s), got " + nlohmann::json(g).dump());
    return g;
  }
  uint64_t rate_bps(const std::string& key) { return uint64_t(std::llround(gbps(key) * 1e9)); }
  // "-12" or "12", at most 30 digits (exact in an __int128).
  static bool is_plain_integer(const std::string& s) {
    const size_t digits = s.size() - (!s.empty() && s[0] == '-');
    return digits >= 1 && digits <= 30 && s.find_first_not_of("0123456789", s.size() - digits) == std::string::npos;
  }
  std::string string(const std::string& key) {
    const auto& v = raw(key);
    if (!v.is_string()) fail(key, "must be a string");
    return v.get<std::string>();
  }
  std::string string(const std::string& key, const std::string& dflt) {
    return has(key) ? string(key) : dflt;
  }
  JsonReader child(const std::string& key) {
    const auto& v = raw(key);
    if (!v.is_object()) fail(key, "must be an object");
    return JsonReader(v, field(key));
  }
  void done() const {
    for (auto it = m_j.begin(); it != m_j.end(); ++it)
      if (!m_seen.count(it.key())) fail(it.key(), "unknown key");
  }

 private:
  const nlohmann::json& m_j;
  std::string m_path;
  std::set<std::string> m_seen;
};

}  // namespace mmusim
