#include "support/xml_document.h"

#include <algorithm>
#include <cstdint>

#include "common/utf8.h"

namespace benchprof::testing {

const std::string* XmlElement::Attribute(std::string_view key) const {
  for (const auto& attribute : attributes) {
    if (attribute.first == key) return &attribute.second;
  }
  return nullptr;
}

namespace {

bool IsNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  explicit Parser(std::string_view document) : s_(document) {}

  bool Parse(XmlElement* root, std::string* error) {
    const bool ok = CheckCharacters() && Document(root);
    if (!ok) *error = error_;
    return ok;
  }

 private:
  bool Fail(const std::string& message) {
    error_ = "at " + std::to_string(pos_) + ": " + message;
    return false;
  }
  bool At(std::string_view prefix) const { return s_.substr(pos_, prefix.size()) == prefix; }
  bool Done() const { return pos_ >= s_.size(); }
  void SkipSpace() {
    while (!Done() && IsSpace(s_[pos_])) ++pos_;
  }

  // Moves past the next `end`; the text before it goes to `skipped`.
  bool Through(std::string_view end, std::string_view what, std::string* skipped = nullptr) {
    const size_t at = s_.find(end, pos_);
    if (at == std::string_view::npos) return Fail("unterminated " + std::string(what));
    if (skipped != nullptr) *skipped = std::string(s_.substr(pos_, at - pos_));
    pos_ = at + end.size();
    return true;
  }

  // Valid UTF-8, and no character XML 1.0 forbids (C0 controls but tab,
  // newline and carriage return; U+FFFE, U+FFFF; surrogates).
  bool CheckCharacters() {
    for (pos_ = 0; pos_ < s_.size();) {
      const auto c = static_cast<unsigned char>(s_[pos_]);
      size_t more = 0;
      uint32_t code = c;
      if (c >= 0xF0 && c <= 0xF4) {
        more = 3, code = c & 0x07;
      } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2, code = c & 0x0F;
      } else if (c >= 0xC2 && c <= 0xDF) {
        more = 1, code = c & 0x1F;
      } else if (c >= 0x80) {
        return Fail("invalid UTF-8 lead byte");
      }
      for (size_t k = 1; k <= more; ++k) {
        if (pos_ + k >= s_.size() || (static_cast<unsigned char>(s_[pos_ + k]) & 0xC0) != 0x80) {
          return Fail("truncated UTF-8 sequence");
        }
        code = code << 6 | (static_cast<unsigned char>(s_[pos_ + k]) & 0x3F);
      }
      if ((more == 2 && code < 0x800) || (more == 3 && (code < 0x10000 || code > 0x10FFFF)) ||
          (code >= 0xD800 && code <= 0xDFFF) || code == 0xFFFE || code == 0xFFFF ||
          (code < 0x20 && code != '\t' && code != '\n' && code != '\r')) {
        return Fail("character U+" + std::to_string(code) + " is not allowed in XML");
      }
      pos_ += 1 + more;
    }
    pos_ = 0;
    return true;
  }

  bool Name(std::string* out) {
    const size_t begin = pos_;
    if (Done() || !IsNameStart(s_[pos_])) return Fail("expected a name");
    while (!Done() && IsNameChar(s_[pos_])) ++pos_;
    *out = std::string(s_.substr(begin, pos_ - begin));
    return true;
  }

  // `raw` with entities and character references replaced.
  bool Decode(std::string_view raw, std::string* out) {
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '<') return Fail("raw '<' in text or an attribute value");
      if (raw[i] != '&') {
        *out += raw[i];
        continue;
      }
      const size_t semicolon = raw.find(';', i);
      if (semicolon == std::string_view::npos) return Fail("'&' without ';'");
      const std::string_view entity = raw.substr(i + 1, semicolon - i - 1);
      static constexpr std::pair<std::string_view, char> kNamed[] = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      bool known = false;
      for (const auto& [name, c] : kNamed) {
        if (entity == name) *out += c, known = true;
      }
      if (!known && entity.size() > 1 && entity[0] == '#') {
        const bool hex = entity[1] == 'x';
        const std::string_view digits = entity.substr(hex ? 2 : 1);
        uint32_t code = 0;
        for (const char d : digits) {
          const int value = d >= '0' && d <= '9'          ? d - '0'
                            : hex && d >= 'a' && d <= 'f' ? d - 'a' + 10
                            : hex && d >= 'A' && d <= 'F' ? d - 'A' + 10
                                                          : -1;
          if (value < 0 || code > 0x10FFFF)
            return Fail("bad character reference &" + std::string(entity) + ";");
          code = code * (hex ? 16 : 10) + static_cast<uint32_t>(value);
        }
        if (digits.empty() || code == 0 || code > 0x10FFFF) {
          return Fail("bad character reference &" + std::string(entity) + ";");
        }
        AppendUtf8(*out, code);
        known = true;
      }
      if (!known) return Fail("unknown entity &" + std::string(entity) + ";");
      i = semicolon;
    }
    return true;
  }

  // Comments, processing instructions and white space between markup
  // outside the root element.
  bool Misc() {
    while (true) {
      SkipSpace();
      if (At("<!--")) {
        if (!Through("-->", "comment")) return false;
      } else if (At("<?")) {
        if (!Through("?>", "processing instruction")) return false;
      } else {
        return true;
      }
    }
  }

  // A start tag from its '<'; `closed` tells whether it ended in "/>".
  bool StartTag(XmlElement* element, bool* closed) {
    ++pos_;
    if (!Name(&element->name)) return false;
    while (true) {
      const size_t before = pos_;
      SkipSpace();
      if (At("/>") || At(">")) {
        *closed = At("/>");
        pos_ += *closed ? 2 : 1;
        return true;
      }
      if (pos_ == before) return Fail("expected white space before an attribute");
      std::string key, value;
      if (!Name(&key)) return false;
      SkipSpace();
      if (!At("=")) return Fail("attribute " + key + " without '='");
      ++pos_;
      SkipSpace();
      if (Done() || (s_[pos_] != '"' && s_[pos_] != '\'')) {
        return Fail("unquoted value of attribute " + key);
      }
      const char quote = s_[pos_++];
      const size_t end = s_.find(quote, pos_);
      if (end == std::string_view::npos) return Fail("unterminated value of attribute " + key);
      if (!Decode(s_.substr(pos_, end - pos_), &value)) return false;
      pos_ = end + 1;
      if (element->Attribute(key) != nullptr) return Fail("attribute " + key + " repeated");
      element->attributes.emplace_back(std::move(key), std::move(value));
    }
  }

  bool Document(XmlElement* root) {
    if (!Misc()) return false;
    if (At("<!DOCTYPE")) {
      if (!Through(">", "DOCTYPE") || !Misc()) return false;
    }
    if (!At("<") || At("</")) return Fail("expected the root element");
    std::vector<XmlElement*> open;
    bool closed = false;
    if (!StartTag(root, &closed)) return false;
    if (!closed) open.push_back(root);
    while (!open.empty()) {
      XmlElement& parent = *open.back();
      if (Done()) return Fail("<" + parent.name + "> is not closed");
      if (At("</")) {
        pos_ += 2;
        std::string name;
        if (!Name(&name)) return false;
        SkipSpace();
        if (!At(">")) return Fail("expected '>' after </" + name);
        if (name != parent.name) return Fail("</" + name + "> closes <" + parent.name + ">");
        ++pos_;
        open.pop_back();
      } else if (At("<!--")) {
        if (!Through("-->", "comment")) return false;
      } else if (At("<![CDATA[")) {
        pos_ += 9;
        std::string data;
        if (!Through("]]>", "CDATA section", &data)) return false;
        parent.text += data;
      } else if (At("<?")) {
        if (!Through("?>", "processing instruction")) return false;
      } else if (At("<!")) {
        return Fail("unexpected markup declaration");
      } else if (At("<")) {
        parent.children.emplace_back();
        XmlElement* child = &parent.children.back();
        if (!StartTag(child, &closed)) return false;
        if (!closed) open.push_back(child);
      } else {
        const size_t end = std::min(s_.find('<', pos_), s_.size());
        const std::string_view raw = s_.substr(pos_, end - pos_);
        if (raw.find("]]>") != std::string_view::npos) return Fail("\"]]>\" in text");
        if (!Decode(raw, &parent.text)) return false;
        pos_ = end;
      }
    }
    if (!Misc()) return false;
    if (!Done()) return Fail("content after the root element");
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool ParseXml(std::string_view document, XmlElement* root, std::string* error) {
  *root = XmlElement{};
  return Parser(document).Parse(root, error);
}

}  // namespace benchprof::testing
