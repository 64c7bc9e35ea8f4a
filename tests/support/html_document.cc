#include "support/html_document.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace benchprof::testing {

namespace {

// Whether `name` (lower case) is an element with no content and no end tag.
bool IsVoid(const std::string& name) {
  constexpr std::string_view kVoid =
      " area base br col embed hr img input link meta source track wbr ";
  return !name.empty() && kVoid.find(" " + name + " ") != std::string_view::npos;
}

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsSimpleValueChar(char c) {
  return IsAlpha(c) || IsDigit(c) || std::string_view("-_.:").find(c) != std::string_view::npos;
}

// The length of the character reference `text` starts with ("&amp;",
// "&#123;", "&#x1F;"), or 0 when its '&' starts none. Named references are
// letters then letters or digits; numeric ones name a code point other than
// U+0000 and the surrogates, at most U+10FFFF.
size_t ReferenceLength(std::string_view text) {
  const bool numeric = text.size() > 1 && text[1] == '#';
  const bool hex = numeric && text.size() > 2 && Lower(text[2]) == 'x';
  const size_t first = numeric ? (hex ? 3 : 2) : 1;
  size_t k = first;
  uint32_t code = 0;  // clamped to one past the largest code point
  while (k < text.size() &&
         (hex ? IsHexDigit(text[k]) : IsDigit(text[k]) || (!numeric && IsAlpha(text[k])))) {
    const char c = text[k++];
    code = std::min<uint32_t>(code * (hex ? 16 : 10) + (IsDigit(c) ? c - '0' : Lower(c) - 'a' + 10),
                              0x110000);
  }
  if (k == first || k == text.size() || text[k] != ';') return 0;
  const bool valid = numeric ? code != 0 && code < 0x110000 && (code < 0xD800 || code > 0xDFFF)
                             : IsAlpha(text[first]);
  return valid ? k + 1 : 0;
}

// An element whose end tag is still to come, and the line of its start tag.
struct OpenElement {
  std::string name;
  size_t line;
};

// One pass over one page, stopping at the first problem.
class Checker {
 public:
  explicit Checker(std::string_view page) : s_(page), lower_(page) {
    std::transform(lower_.begin(), lower_.end(), lower_.begin(), Lower);
  }

  // "" when the page is well-formed, else its first problem.
  std::string Check() { return Document() ? "" : error_; }

 private:
  // Record `message` at the line of the current position, or of byte `at`;
  // return false.
  bool Fail(const std::string& message) { return FailAt(pos_, message); }
  bool FailAt(size_t at, const std::string& message) {
    error_ = "line " + std::to_string(Line(at)) + ": " + message;
    return false;
  }
  // The 1-based line of byte `at`.
  size_t Line(size_t at) const {
    return 1 + static_cast<size_t>(std::count(s_.begin(), s_.begin() + at, '\n'));
  }
  // Whether the page continues with `prefix`, in any case (`prefix` is
  // lower case).
  bool At(std::string_view prefix) const {
    return lower_.compare(pos_, prefix.size(), prefix) == 0;
  }
  // Whether the page is read to its end; the byte `ahead` on, '\0' past the
  // end; moving past white space.
  bool Done() const { return pos_ >= s_.size(); }
  char Next(size_t ahead) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  void SkipSpace() {
    while (!Done() && IsSpace(s_[pos_])) ++pos_;
  }

  // Every '&' in [begin, end) starts a character reference.
  bool CheckReferences(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (s_[i] != '&') continue;
      const size_t length = ReferenceLength(s_.substr(i, end - i));
      if (length == 0) return FailAt(i, "'&' starts no character reference");
      i += length - 1;
    }
    return true;
  }

  // A tag name, lower-cased, from the letter after "<" or "</".
  std::string TagName() {
    const size_t begin = pos_;
    while (!Done() && (IsAlpha(s_[pos_]) || IsDigit(s_[pos_]) || s_[pos_] == '-')) ++pos_;
    return lower_.substr(begin, pos_ - begin);
  }

  // One attribute of <`tag`>: a name, and a value quoted or made of letters,
  // digits and "-_.:" (anything else unquoted reads differently in HTML than
  // it looks: "x=1/>" gives x the value "1/").
  bool Attribute(const std::string& tag, std::vector<std::string>& seen) {
    const size_t begin = pos_;
    while (!Done() && !IsSpace(s_[pos_]) &&
           std::string_view("\"'<>/=`").find(s_[pos_]) == std::string_view::npos) {
      ++pos_;
    }
    if (pos_ == begin) {
      return Fail("unexpected '" + std::string(1, s_[pos_]) + "' in <" + tag + ">");
    }
    const std::string key = lower_.substr(begin, pos_ - begin);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return Fail("attribute " + key + " repeated in <" + tag + ">");
    }
    seen.push_back(key);
    SkipSpace();
    if (!At("=")) return true;  // a boolean attribute
    ++pos_;
    SkipSpace();
    if (Next(0) == '"' || Next(0) == '\'') {
      const char quote = s_[pos_++];
      const size_t end = s_.find(quote, pos_);
      if (end == std::string_view::npos) return Fail("unterminated value of attribute " + key);
      if (!CheckReferences(pos_, end)) return false;
      pos_ = end + 1;
      return true;
    }
    const size_t value = pos_;
    while (!Done() && IsSimpleValueChar(s_[pos_])) ++pos_;
    if (pos_ == value || !(Done() || IsSpace(s_[pos_]) || s_[pos_] == '>')) {
      return Fail("value of attribute " + key + " is neither quoted nor simple");
    }
    return true;
  }

  // The content of a <script>, <style> (raw text) or <title> (character
  // references allowed), through its end tag.
  bool RawText(const std::string& name) {
    const size_t begin = pos_;
    const size_t end = lower_.find("</" + name, pos_);
    if (end == std::string::npos) return Fail("<" + name + "> is not closed");
    pos_ = end + 2 + name.size();
    SkipSpace();
    if (!At(">")) return Fail("\"</" + name + "\" inside <" + name + "> before its end tag");
    ++pos_;
    if (name == "title") return CheckReferences(begin, end);
    // "<!--" in a script changes where the tokenizer looks for its end.
    const size_t comment = lower_.find("<!--", begin);
    if (name == "script" && comment < end) return FailAt(comment, "\"<!--\" inside <script>");
    return true;
  }

  // A start tag from its '<', and the element's content if it is raw text.
  bool StartTag() {
    const size_t start = pos_++;
    const std::string name = TagName();
    std::vector<std::string> seen;
    bool self_closing = false;
    while (true) {
      const size_t before = pos_;
      SkipSpace();
      if (Done()) return Fail("unterminated <" + name + ">");
      if (At("/>") || At(">")) {
        self_closing = At("/>");
        pos_ += self_closing ? 2 : 1;
        break;
      }
      if (pos_ == before) return Fail("expected white space before an attribute in <" + name + ">");
      if (!Attribute(name, seen)) return false;
    }
    const std::string parent = open_.empty() ? "" : open_.back().name;
    if (name == "html" || name == "head" || name == "body") {
      if (parent != (name == "html" ? "" : "html")) {
        return FailAt(start,
                      "<" + name + "> inside " + (parent.empty() ? "nothing" : "<" + parent + ">"));
      }
      if (singletons_.count(name) > 0) return FailAt(start, "a second <" + name + ">");
      if (name == "head" && singletons_.count("body") > 0)
        return FailAt(start, "<head> after <body>");
      singletons_.insert(name);
    } else if (parent.empty()) {
      return FailAt(start, "<" + name + "> outside <html>");
    }
    if (self_closing && !IsVoid(name)) {
      return FailAt(start, "<" + name + "/> is not void: it stays open");
    }
    if (IsVoid(name)) return true;
    if (name == "script" || name == "style" || name == "title") return RawText(name);
    open_.push_back({name, Line(start)});
    return true;
  }

  // An end tag from its '<'.
  bool EndTag() {
    const size_t start = pos_;
    pos_ += 2;
    const std::string name = TagName();
    SkipSpace();
    if (!At(">")) return Fail("expected '>' after </" + name);
    ++pos_;
    if (IsVoid(name)) return FailAt(start, "</" + name + "> ends a void element");
    if (open_.empty()) return FailAt(start, "</" + name + "> with no element open");
    if (open_.back().name != name) {
      return FailAt(start, "</" + name + "> closes <" + open_.back().name + "> from line " +
                               std::to_string(open_.back().line));
    }
    open_.pop_back();
    return true;
  }

  // The page: the DOCTYPE, then text, comments and elements.
  bool Document() {
    if (!At("<!doctype html")) return Fail("the page does not start with <!DOCTYPE html>");
    pos_ += 14;
    SkipSpace();
    if (!At(">")) return Fail("expected '>' to end the DOCTYPE");
    ++pos_;
    while (!Done()) {
      const size_t next = std::min(s_.find('<', pos_), s_.size());
      const size_t text = std::min(s_.find_first_not_of(" \t\n\r\f", pos_), s_.size());
      if (open_.empty() && text < next) return FailAt(text, "text outside <html>");
      if (!CheckReferences(pos_, next)) return false;
      pos_ = next;
      if (Done()) break;
      if (At("<!--")) {
        const size_t end = s_.find("-->", pos_ + 4);
        if (end == std::string_view::npos) return Fail("unterminated comment");
        pos_ = end + 3;
      } else if (Next(1) == '/' && IsAlpha(Next(2))) {
        if (!EndTag()) return false;
      } else if (IsAlpha(Next(1))) {
        if (!StartTag()) return false;
      } else if (At("<!doctype")) {
        return Fail("a second DOCTYPE");
      } else {
        return Fail("'<' starts no tag, comment or doctype");
      }
    }
    if (!open_.empty()) {
      return Fail("<" + open_.back().name + "> from line " + std::to_string(open_.back().line) +
                  " is not closed");
    }
    for (const char* name : {"html", "head", "body"}) {
      if (singletons_.count(name) == 0) return Fail(std::string("no <") + name + ">");
    }
    return true;
  }

  std::string_view s_;
  std::string lower_;  // s_ in lower case, for case-insensitive names
  size_t pos_ = 0;
  std::vector<OpenElement> open_;
  std::set<std::string> singletons_;  // the <html>, <head>, <body> started
  std::string error_;
};

}  // namespace

std::string CheckHtml(std::string_view page) { return Checker(page).Check(); }

}  // namespace benchprof::testing
