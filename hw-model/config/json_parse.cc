#include "config/json_parse.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "config/scenario.h"

namespace mmusim {
namespace {

// Echoed input is cut short: a message never grows with the input.
std::string clip(const std::string& s, size_t n = 40) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

struct Frame {
  bool object = false;
  bool expect_key = true;  // object: the next string is a key
  std::string key;         // object: the current key
  uint64_t index = 0;      // array: the current element
};

std::string field_path(const std::string& prefix, const std::vector<Frame>& st) {
  std::string p = prefix;
  for (const auto& f : st) {
    if (f.object) {
      if (f.key.empty() && f.expect_key) continue;  // before the first key
      p += (p.empty() ? "" : ".") + clip(f.key);
    } else {
      p += "[" + std::to_string(f.index) + "]";
    }
  }
  return p.empty() ? "(top level)" : p;
}

}  // namespace

std::string json_limit_problem(const std::string& text, const std::string& prefix, int max_depth,
                               bool with_position) {
  std::vector<Frame> st;
  uint64_t line = 1;
  size_t line_start = 0;
  auto problem = [&](size_t at, const std::string& what) {
    std::string pos;
    if (with_position) pos = std::to_string(line) + ":" + std::to_string(at - line_start + 1) + ": ";
    return pos + field_path(prefix, st) + ": " + what;
  };
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '"') {
      const size_t start = ++i;
      while (i < n && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      if (i > n) i = n;
      if (!st.empty() && st.back().object && st.back().expect_key) st.back().key = text.substr(start, i - start);
    } else if (c == '{' || c == '[') {
      if (int(st.size()) >= max_depth)
        return problem(i, "nested deeper than " + std::to_string(max_depth) + " levels");
      Frame f;
      f.object = c == '{';
      st.push_back(f);
    } else if (c == '}' || c == ']') {
      if (!st.empty()) st.pop_back();
    } else if (c == ':') {
      if (!st.empty() && st.back().object) st.back().expect_key = false;
    } else if (c == ',') {
      if (!st.empty()) {
        if (st.back().object) st.back().expect_key = true;
        else ++st.back().index;
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i;
      while (j < n && std::string("0123456789.eE+-").find(text[j]) != std::string::npos) ++j;
      const std::string num = text.substr(i, j - i);
      const double d = std::strtod(num.c_str(), nullptr);
      if (std::isinf(d)) return problem(i, "number " + clip(num) + " is out of range (beyond a double, about 1.8e308)");
      i = j - 1;
    }
  }
  return "";
}

nlohmann::json parse_json_text(const std::string& text, const std::string& origin, int max_depth) {
  const std::string p = json_limit_problem(text, "", max_depth, true);
  if (!p.empty()) throw ConfigError(origin + ":" + p);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(origin + ": malformed JSON: " + clip(e.what(), 300));
  }
}

}  // namespace mmusim
