/*
 * frontend_internal.h: what the files of frontend/ share and nobody else
 * sees. The public entry points (parse_module, attrs_decode) are in ir/ir.h.
 *
 *   lexer.c       text -> tokens, with line/column of every token
 *   parser.c      module, functions, regions, blocks, generic ops, SSA names,
 *                 types
 *   pretty.c      the custom (pretty) assembly forms of StableHLO, func and
 *                 check ops; each produces the attributes of the generic form
 *   attr_parse.c  attributes: numbers, strings, arrays, dictionaries,
 *                 `array<...>`, `#stablehlo...` enums and structs, aliases
 *   dense.c       `dense<...>` / `dense_resource<...>` literals and the
 *                 float encodings they need
 *   bytecode.c    MLIR bytecode: sections, strings, dialects, the
 *                 attribute/type table, properties, the IR section
 *   vhlo.c        the builtin and VHLO dialects' bytecode encodings of
 *                 attributes and types, and VHLO ops -> StableHLO ops
 *
 * Error handling: the first error is reported with diag_error and sets
 * `failed`; every parse function then returns NULL/false and the callers
 * unwind without reporting again.
 */
#ifndef SHLOC_FRONTEND_INTERNAL_H
#define SHLOC_FRONTEND_INTERNAL_H

#include "../ir/ir.h"

enum { MAX_RANK = 64 }; /* tensor ranks the frontend accepts */

/* ------------------------------------------------------------------------ */
/* Lexer (lexer.c)                                                           */

typedef enum TokKind {
  TK_EOF,
  TK_ERROR,      /* already diagnosed */
  TK_IDENT,      /* bare identifier: [a-zA-Z_][a-zA-Z0-9_$.]* */
  TK_VALUE,      /* %name, %0, %name#1 (the result number is part of it) */
  TK_SYMBOL,     /* @name or @"quoted name" */
  TK_BLOCK,      /* ^bb0 */
  TK_HASH,       /* #name: attribute alias or dialect attribute */
  TK_BANG,       /* !name: type alias or dialect type */
  TK_INT,        /* 123, 0x1F (no sign) */
  TK_FLOAT,      /* 1.5, 1.e3, 2.0E-5 (no sign) */
  TK_STRING,     /* "...", escapes kept as written */
  TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE,
  TK_LANGLE, TK_RANGLE, TK_COMMA, TK_COLON, TK_EQUAL, TK_ARROW, TK_MINUS,
  TK_PLUS, TK_QUESTION, TK_STAR,
  TK_META_BEGIN, /* {-# */
  TK_META_END,   /* #-} */
} TokKind;

typedef struct Token {
  TokKind kind;
  const char *s; /* first byte in the source */
  size_t n;      /* length in bytes */
  Loc loc;
} Token;

typedef struct Lexer {
  const SrcFile *file;
  const char *p, *end; /* next unread byte; end of the range */
  int line;
  const char *line_start;
  bool failed;
} Lexer;

void lex_init(Lexer *lx, const SrcFile *file, size_t begin, size_t end);
Token lex_next(Lexer *lx);
/* Skips blanks and comments; returns the next byte without consuming it
 * (0 at the end of the range). The parser reads a few things character by
 * character from there: tensor shapes (`0x2xf32` is not a hex number) and
 * balanced opaque attributes. */
char lex_peek_char(Lexer *lx);
Loc lex_here(const Lexer *lx);
const char *lex_kind_name(TokKind k);

/* ------------------------------------------------------------------------ */
/* Parser state (parser.c)                                                   */

typedef struct Alias {
  const char *name; /* without # or ! */
  size_t n;
  Attr *attr;       /* #name = attr */
  Type *type;       /* !name = type */
  struct Alias *next;
} Alias;

typedef struct Resource {
  const char *name;
  size_t n;
  uint8_t *bytes; /* the blob without its 4-byte alignment word */
  size_t nbytes;
  struct Resource *next;
} Resource;

typedef struct PendingResource {
  Attr *attr;
  const char *name;
  Loc loc;
  struct PendingResource *next;
} PendingResource;

/* One SSA name binding: `%name` -> its values (several for `%x:2 = ...`). */
typedef struct Sym {
  const char *name;
  size_t n;
  uint32_t hash;
  Value **vals;
  int nvals;
  struct Sym *next;      /* hash chain */
  struct Sym *scope_next; /* definitions of the same scope, newest first */
} Sym;

typedef struct SymScope {
  Sym *defs;
  struct SymScope *up;
} SymScope;

typedef struct Parser {
  Lexer lx;
  Token tok; /* current token; the lexer stands right after it */
  Module *m;
  const ParseOptions *opts;
  bool failed;
  Alias *aliases;
  Resource *resources;
  PendingResource *pending;
  int depth; /* nesting of attributes, types and regions (bounded) */
  bool warned_elided;
  uint64_t elided_seed;
  struct QuantEntry *quants; /* quantized element types seen, for interning */
  /* SSA names of the function being parsed */
  Sym **buckets;
  size_t nbuckets, nsyms; /* the table doubles past 2 names a bucket */
  SymScope *scope;
  int64_t nops; /* ops parsed so far (bounded by PARSE_MAX_OPS) */
} Parser;

/* Reports an error (only the first one of a parse) and returns false. */
bool parse_error(Parser *p, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void parse_next(Parser *p);
/* Enters one level of nesting; false (diagnosed) past a sane depth, so
 * that hostile input cannot overflow the stack. Pair with parse_leave. */
bool parse_enter(Parser *p);
void parse_leave(Parser *p);
bool parse_is(Parser *p, TokKind k);
/* True if the current token is the identifier `word`. */
bool parse_is_word(Parser *p, const char *word);
/* Consumes a token of kind k if present. */
bool parse_accept(Parser *p, TokKind k);
bool parse_accept_word(Parser *p, const char *word);
/* Consumes a token of kind k or reports "expected <what>". */
bool parse_expect(Parser *p, TokKind k, const char *what);
bool parse_expect_word(Parser *p, const char *word);
/* Skips a trailing `loc(...)` if present. */
bool parse_skip_loc(Parser *p);
char *parse_tok_str(Parser *p); /* arena copy of the current token text */
/* Unescapes a TK_STRING token into the arena; *len gets its length. */
char *parse_string_value(Parser *p, const Token *t, size_t *len);
/* Reads an optionally negative integer literal. */
bool parse_int(Parser *p, int64_t *out);

Type *parse_type(Parser *p);
/* `(T, ...) -> T` or `(T, ...) -> (T, ...)`; arrays in the arena. */
bool parse_function_type(Parser *p, int *nin, Type ***ins, int *nout,
                         Type ***outs);
/* An element type spelled alone (f32, i64, complex<f32>, ...) or ET_COUNT. */
ElemType parse_elem_type_name(Parser *p);
Type *parse_scalar_type(Parser *p, ElemType e); /* rank-0 tensor of e */

/* Growable arrays living in the module arena. */
void *parse_grow(Parser *p, void *data, int n, int *cap, size_t elem);

typedef struct AttrList {
  NamedAttr *v;
  int n, cap;
} AttrList;
void attrlist_add(Parser *p, AttrList *l, const char *name, Attr *a);
void attrlist_append(Module *m, AttrList *l, const char *name, Attr *a);

typedef struct ValueList {
  Value **v;
  Loc *locs;
  int n, cap;
} ValueList;
void valuelist_add(Parser *p, ValueList *l, Value *v, Loc loc);

/* `%x` or `%x#1` (current token): the value it names, or NULL (diagnosed). */
Value *parse_value_use(Parser *p);
/* Zero or more comma-separated value uses: stops before the first token
 * that is not a value (the comma after the last value is left in place). */
bool parse_value_list(Parser *p, ValueList *l);

/* A block argument declared in an op's custom syntax (while, reduce). */
typedef struct ArgDecl {
  Token name;
  Type *type;
} ArgDecl;
/* `{ ops }` with the entry block's arguments given by the caller (n may be
 * 0); rejects a label on the entry block when args != NULL. */
Region *parse_region(Parser *p, const ArgDecl *args, int nargs);

/* What the parser knows of an op before its operands: its name, location
 * and the result names bound to it. */
typedef struct OpStart {
  OpCode code;
  Loc loc;       /* the op name */
  Token *names;  /* result names, `%x` or `%x:2` */
  int *counts;   /* values bound to each name */
  int nnames;
  int nresults;  /* sum of counts; -1 when no results were named */
} OpStart;

/* Builds the op from its parts, checks operand types, binds the result
 * names and appends it to the current block. */
typedef struct OpParts {
  ValueList opnds;
  Type **opnd_types; /* declared types (NULL: no check) */
  int nresults;
  Type **result_types;
  Region **regions;
  int nregions;
  AttrList attrs;
} OpParts;
Op *parse_finish_op(Parser *p, const OpStart *st, OpParts *parts, Block *b);
/* Resolves `(T..) -> (T..)` against the parsed operands: counts must match. */
bool parse_apply_function_type(Parser *p, Loc loc, OpParts *parts);
bool parse_check_operand_types(Parser *p, Loc loc, const OpParts *parts);

/* ------------------------------------------------------------------------ */
/* Pretty op forms (pretty.c)                                                */

/* Parses the rest of a custom-form op (the current token follows the op
 * name) and appends it to b. */
Op *parse_pretty_op(Parser *p, const OpStart *st, Block *b);

/* ------------------------------------------------------------------------ */
/* Attributes (attr_parse.c)                                                 */

/* Any attribute value, including `: type` suffixes of numbers and dense
 * literals. */
Attr *parse_attr(Parser *p);
/* `{name = value, unit_name, ...}` (current token `{`), appended to l. */
bool parse_attr_dict(Parser *p, AttrList *l);
/* The fields of a #stablehlo struct after its `<`, through the `>`. */
bool parse_struct_fields(Parser *p, const char *sname, AttrList *fields);
/* `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` into the nine fields of
 * #stablehlo.conv. */
bool parse_conv_dims(Parser *p, AttrList *fields);
/* `[1, -2, 3]` of integers (current token `[`). */
bool parse_int_list(Parser *p, int64_t **v, int *n);
/* Copies text from `start` to the end of a balanced <...>/(...)/[...]/{...}
 * group whose opening bracket is the current token, for attributes kept
 * verbatim; leaves the parser after the group. */
Attr *parse_opaque_attr(Parser *p, const char *start);

/* ------------------------------------------------------------------------ */
/* Dense literals (dense.c)                                                  */

/* After `dense` (current token `<`): the literal, `>`, `:` and its type;
 * loc is that of the `dense` keyword. */
Attr *parse_dense(Parser *p, Loc loc);
/* After `dense_resource` (current token `<`). */
Attr *parse_dense_resource(Parser *p, Loc loc);
/* The `{-# dialect_resources: ... #-}` block (current token TK_META_BEGIN). */
bool parse_resource_block(Parser *p);
/* Fills every dense_resource<...> once the whole text is read. */
bool parse_resolve_resources(Parser *p);
/* A double rounded to nearest-even into the bit pattern of float type e
 * (f16, bf16, f32, f64, tf32 and the 4/6/8-bit formats). */
uint64_t dense_float_bits(double v, ElemType e);
/* A dense literal of static tensor type t from MLIR's raw element buffer
 * (what hex literals and bytecode blobs hold): every element, or one for a
 * splat. NULL when nbytes fits neither. */
DenseData *dense_from_raw(Module *m, const Type *t, const uint8_t *b, size_t nbytes);

/* ------------------------------------------------------------------------ */
/* Shared by both readers (parser.c)                                         */

/* attrs_decode on every op of every function; false after a diagnostic. */
bool frontend_decode_attrs(Module *m);

/* ------------------------------------------------------------------------ */
/* MLIR bytecode (bytecode.c) and its dialects (vhlo.c)                      */

typedef struct Bc Bc; /* the state of one read (bytecode.c) */

/* A position in one section of the file. Every read checks the bounds and
 * reports a failure once, with the byte offset, through bc_error. */
typedef struct BcCursor {
  Bc *bc;
  const uint8_t *p, *end;
} BcCursor;

/* A decoded entry of the attribute table. */
typedef enum BcAttrKind {
  BA_VALUE, /* attr holds it, in the form the text parser builds */
  BA_LOC,   /* a location: loc (file NULL when unknown) */
  BA_NONE,  /* `#vhlo.type_v1<!vhlo.none_v1>`: an absent optional value */
} BcAttrKind;

typedef struct BcType BcType;

typedef struct BcAttr {
  BcAttrKind kind;
  Attr *attr;
  Loc loc;
  const BcType *type; /* a type attribute's type (function types have no Attr) */
} BcAttr;

/* A decoded entry of the type table. Element types stand alone in MLIR
 * (the `f32` of tensor<f32>), so they are kept apart from value types. */
typedef enum BcTypeKind {
  BT_ELEM,  /* elem (and quant for ET_QUANT) */
  BT_VALUE, /* type: tensor, token or tuple */
  BT_FUNC,  /* nin -> nout value types */
  BT_NONE,  /* !vhlo.none_v1 */
} BcTypeKind;

struct BcType {
  BcTypeKind kind;
  ElemType elem;
  const QuantInfo *quant;
  Type *type;
  int nin, nout;
  Type **ins, **outs;
};

/* Reports `msg` at the cursor's byte offset (the first failure only) and
 * returns false. */
bool bc_error(BcCursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool bc_varint(BcCursor *c, uint64_t *v);
bool bc_svarint(BcCursor *c, int64_t *v);
bool bc_byte(BcCursor *c, uint8_t *v);
bool bc_bytes(BcCursor *c, uint64_t n, const uint8_t **out);
/* A reference to the string table: its NUL-terminated text. */
bool bc_string(BcCursor *c, const char **s);
/* A reference to the attribute or type table, decoded on first use. */
const BcAttr *bc_attr(BcCursor *c);
const BcType *bc_type(BcCursor *c);
/* A value type (tensor, token, tuple) reference; element and function
 * types are errors here. */
Type *bc_value_type(BcCursor *c);
Module *bc_module(const BcCursor *c);

/* Custom encodings of dialect `dialect` ("builtin" or "vhlo"); false after
 * a diagnostic (an unknown code names the dialect and the code). */
bool vhlo_read_attr(BcCursor *c, const char *dialect, BcAttr *out);
bool vhlo_read_type(BcCursor *c, const char *dialect, BcType *out);

/* What an operation name of the bytecode stands for. */
typedef enum VhloRole {
  VR_OP,     /* a StableHLO op (OpCode) */
  VR_FUNC,   /* vhlo.func_v1 */
  VR_RETURN, /* vhlo.return_v1: func.return in a function, else stablehlo.return */
  VR_CALL,   /* vhlo.call_v1 -> func.call */
  VR_MODULE, /* builtin.module */
} VhloRole;

typedef struct VhloOp {
  const char *name;  /* "dialect.op_vN" */
  VhloRole role;
  OpCode code;       /* VR_OP, VR_CALL */
  const char *attrs; /* attribute names as VhloOps.td declares them, by spaces */
} VhloOp;

/* The op named dialect.name, or NULL if this reader does not know it. */
const VhloOp *vhlo_op_lookup(const char *dialect, const char *name);
/* The op's attribute names in the order its properties are written (the
 * sorted names); returns their count (at most VHLO_MAX_ATTRS). */
enum { VHLO_NAMES_BUF = 512, VHLO_MAX_ATTRS = 24 };
int vhlo_attr_names(const VhloOp *op, char buf[VHLO_NAMES_BUF], const char **names);
/* Turns the attributes of a VHLO op (names in[i].name, values in[i].value
 * as decoded, BA_NONE ones already dropped) into those of the StableHLO op
 * code `c` as the text parser builds them: flattened structures gathered
 * into #stablehlo.dot / conv / gather / scatter / channel_handle, integer
 * tensors into array<i64>, defaults VHLO spells out that StableHLO cannot
 * (compare_type NOTYPE, channel 0, ...) dropped. */
bool vhlo_convert_attrs(BcCursor *c, OpCode code, const NamedAttr *in, int n, AttrList *out);

#endif
