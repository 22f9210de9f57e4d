/* lexer.c: MLIR text to tokens.
 *
 * The lexer works on a byte range [begin, end) of a file (one `// -----`
 * case of a test file) and never reads outside it; line numbers count from
 * the start of the whole file so diagnostics point at the real line.
 * Token spellings follow the MLIR language reference: bare identifiers may
 * contain `.` (`stablehlo.add`), suffix identifiers after `%`, `^`, `#` and
 * `!` may also contain `-`. Signs are separate tokens.
 */
#include <ctype.h>
#include <string.h>

#include "frontend_internal.h"

void lex_init(Lexer *lx, const SrcFile *file, size_t begin, size_t end) {
  if (end > file->len) end = file->len;
  if (begin > end) begin = end;
  lx->file = file;
  lx->p = file->text + begin;
  lx->end = file->text + end;
  lx->line = 1;
  lx->line_start = file->text;
  lx->failed = false;
  for (const char *q = file->text; q < lx->p; q++)
    if (*q == '\n') {
      lx->line++;
      lx->line_start = q + 1;
    }
}

Loc lex_here(const Lexer *lx) {
  return (Loc){lx->file, lx->line, (int)(lx->p - lx->line_start) + 1};
}

/* The byte k positions ahead, or 0 past the end of the range. */
static char at(const Lexer *lx, size_t k) {
  return (size_t)(lx->end - lx->p) > k ? lx->p[k] : 0;
}

static void skip_space(Lexer *lx) {
  while (lx->p < lx->end) {
    char c = *lx->p;
    if (c == '\n') {
      lx->p++;
      lx->line++;
      lx->line_start = lx->p;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      lx->p++;
    } else if (c == '/' && at(lx, 1) == '/') {
      while (lx->p < lx->end && *lx->p != '\n') lx->p++;
    } else {
      break;
    }
  }
}

char lex_peek_char(Lexer *lx) {
  skip_space(lx);
  return at(lx, 0);
}

static bool is_bare_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_bare_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}
static bool is_suffix_char(char c) { return is_bare_char(c) || c == '-'; }

static Token make(Lexer *lx, TokKind k, const char *s, Loc loc) {
  return (Token){k, s, (size_t)(lx->p - s), loc};
}

static Token lex_error(Lexer *lx, const char *s, Loc loc, const char *msg) {
  if (!lx->failed) diag_error(loc, "%s", msg);
  lx->failed = true;
  lx->p = lx->end; /* stop: nothing after a lexical error is trusted */
  return (Token){TK_ERROR, s, 0, loc};
}

/* After `%`, `^`, `#`, `!`: digits, or a name that may contain `-`. */
static bool lex_suffix_id(Lexer *lx) {
  const char *s = lx->p;
  if (isdigit((unsigned char)at(lx, 0))) {
    while (isdigit((unsigned char)at(lx, 0))) lx->p++;
    return true;
  }
  if (!(is_bare_start(at(lx, 0)) || at(lx, 0) == '$' || at(lx, 0) == '.' ||
        at(lx, 0) == '-'))
    return false;
  while (lx->p < lx->end && is_suffix_char(*lx->p)) lx->p++;
  return lx->p > s;
}

static Token lex_number(Lexer *lx, const char *s, Loc loc) {
  if (at(lx, 0) == '0' && (at(lx, 1) == 'x' || at(lx, 1) == 'X') &&
      isxdigit((unsigned char)at(lx, 2))) {
    lx->p += 2;
    while (isxdigit((unsigned char)at(lx, 0))) lx->p++;
    return make(lx, TK_INT, s, loc);
  }
  while (isdigit((unsigned char)at(lx, 0))) lx->p++;
  if (at(lx, 0) != '.') return make(lx, TK_INT, s, loc);
  lx->p++;
  while (isdigit((unsigned char)at(lx, 0))) lx->p++;
  char e = at(lx, 0);
  if (e == 'e' || e == 'E') {
    size_t k = 1;
    if (at(lx, 1) == '+' || at(lx, 1) == '-') k = 2;
    if (isdigit((unsigned char)at(lx, k))) {
      lx->p += k;
      while (isdigit((unsigned char)at(lx, 0))) lx->p++;
    }
  }
  return make(lx, TK_FLOAT, s, loc);
}

/* "..." with backslash escapes; a string may not span lines. */
static Token lex_string(Lexer *lx, const char *s, Loc loc) {
  lx->p++;
  while (lx->p < lx->end) {
    /* Skipped in bulk (hex literals of hundreds of MB): the file's text
     * ends in a NUL (SrcFile), where strcspn stops at the latest. */
    lx->p += strcspn(lx->p, "\"\n\\");
    if (lx->p >= lx->end) break;
    char c = *lx->p;
    if (c == '"') {
      lx->p++;
      return make(lx, TK_STRING, s, loc);
    }
    if (c == '\n') break;
    if (c == '\0') return lex_error(lx, s, loc, "unexpected byte 0x00 in a string literal");
    if (c == '\\') {
      if (lx->p + 1 >= lx->end) break;
      lx->p++;
    }
    lx->p++;
  }
  return lex_error(lx, s, loc, "unterminated string literal");
}

/* A one-character punctuation token at s, or the error for c. */
static Token lex_punct(Lexer *lx, const char *s, Loc loc, char c) {
  static const struct { char c; TokKind k; } punct[] = {
      {'(', TK_LPAREN},   {')', TK_RPAREN}, {'[', TK_LBRACKET}, {']', TK_RBRACKET},
      {'}', TK_RBRACE},   {'<', TK_LANGLE}, {'>', TK_RANGLE},   {',', TK_COMMA},
      {':', TK_COLON},    {'=', TK_EQUAL},  {'+', TK_PLUS},     {'?', TK_QUESTION},
      {'*', TK_STAR},
  };
  for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++)
    if (punct[i].c == c) {
      lx->p++;
      return make(lx, punct[i].k, s, loc);
    }
  char msg[64];
  if (isprint((unsigned char)c))
    snprintf(msg, sizeof msg, "unexpected character '%c'", c);
  else
    snprintf(msg, sizeof msg, "unexpected byte 0x%02X", (unsigned char)c);
  return lex_error(lx, s, loc, msg);
}

Token lex_next(Lexer *lx) {
  skip_space(lx);
  const char *s = lx->p;
  Loc loc = lex_here(lx);
  if (lx->p >= lx->end) return (Token){TK_EOF, s, 0, loc};
  char c = *lx->p;
  if (is_bare_start(c)) {
    while (lx->p < lx->end && is_bare_char(*lx->p)) lx->p++;
    return make(lx, TK_IDENT, s, loc);
  }
  if (isdigit((unsigned char)c)) return lex_number(lx, s, loc);
  switch (c) {
  case '"':
    return lex_string(lx, s, loc);
  case '%':
    lx->p++;
    if (!lex_suffix_id(lx)) return lex_error(lx, s, loc, "expected a value name after '%'");
    if (at(lx, 0) == '#' && isdigit((unsigned char)at(lx, 1))) {
      lx->p++;
      while (isdigit((unsigned char)at(lx, 0))) lx->p++;
    }
    return make(lx, TK_VALUE, s, loc);
  case '^':
    lx->p++;
    if (!lex_suffix_id(lx)) return lex_error(lx, s, loc, "expected a block name after '^'");
    return make(lx, TK_BLOCK, s, loc);
  case '@':
    lx->p++;
    if (at(lx, 0) == '"') {
      Token t = lex_string(lx, lx->p, loc);
      if (t.kind == TK_ERROR) return t;
      return make(lx, TK_SYMBOL, s, loc);
    }
    if (!is_bare_start(at(lx, 0)))
      return lex_error(lx, s, loc, "expected a symbol name after '@'");
    while (lx->p < lx->end && is_bare_char(*lx->p)) lx->p++;
    return make(lx, TK_SYMBOL, s, loc);
  case '#':
    lx->p++;
    if (at(lx, 0) == '-' && at(lx, 1) == '}') {
      lx->p += 2;
      return make(lx, TK_META_END, s, loc);
    }
    if (!lex_suffix_id(lx)) return lex_error(lx, s, loc, "expected a name after '#'");
    return make(lx, TK_HASH, s, loc);
  case '!':
    lx->p++;
    if (!lex_suffix_id(lx)) return lex_error(lx, s, loc, "expected a type name after '!'");
    return make(lx, TK_BANG, s, loc);
  case '{':
    lx->p++;
    if (at(lx, 0) == '-' && at(lx, 1) == '#') {
      lx->p += 2;
      return make(lx, TK_META_BEGIN, s, loc);
    }
    return make(lx, TK_LBRACE, s, loc);
  case '-':
    lx->p++;
    if (at(lx, 0) == '>') {
      lx->p++;
      return make(lx, TK_ARROW, s, loc);
    }
    return make(lx, TK_MINUS, s, loc);
  default:
    break;
  }
  return lex_punct(lx, s, loc, c);
}

const char *lex_kind_name(TokKind k) {
  switch (k) {
  case TK_EOF: return "end of input";
  case TK_ERROR: return "error";
  case TK_IDENT: return "identifier";
  case TK_VALUE: return "value name";
  case TK_SYMBOL: return "symbol";
  case TK_BLOCK: return "block label";
  case TK_HASH: return "'#' attribute";
  case TK_BANG: return "'!' type";
  case TK_INT: return "integer";
  case TK_FLOAT: return "float";
  case TK_STRING: return "string";
  case TK_LPAREN: return "'('";
  case TK_RPAREN: return "')'";
  case TK_LBRACKET: return "'['";
  case TK_RBRACKET: return "']'";
  case TK_LBRACE: return "'{'";
  case TK_RBRACE: return "'}'";
  case TK_LANGLE: return "'<'";
  case TK_RANGLE: return "'>'";
  case TK_COMMA: return "','";
  case TK_COLON: return "':'";
  case TK_EQUAL: return "'='";
  case TK_ARROW: return "'->'";
  case TK_MINUS: return "'-'";
  case TK_PLUS: return "'+'";
  case TK_QUESTION: return "'?'";
  case TK_STAR: return "'*'";
  case TK_META_BEGIN: return "'{-#'";
  case TK_META_END: return "'#-}'";
  }
  return "token";
}
