/*
 * bytecode.c: reads MLIR bytecode, the format of a StableHLO portable
 * artifact (MLIR's docs/BytecodeFormat.md; the attributes, types and ops
 * of its dialects are vhlo.c's business).
 *
 *   file     ::= "ML\xefR" version:varint producer:cstring section*
 *   section  ::= id:byte (high bit: aligned) length:varint
 *                (alignment:varint padding 0xCB*)? data
 *
 * Sections: strings, dialects and op names, the attribute/type table and
 * its offsets, the IR, resources, properties (bytecode version >= 5). The
 * versions read are 0 (what the oldest StableHLO targets produce) to 6
 * (the current MLIR writer): dialect versions (1), isolated regions in
 * their own sections (2), use-list orders (3, parsed and dropped, as use
 * order means nothing to shloc), block arguments without locations (4),
 * op properties (5, 6).
 *
 * Errors carry the byte offset: `file: byte N: error: ...`. Ops take the
 * location the bytecode gives them (`loc("file":line:col)`, looking through
 * names, call sites and fusions), or their own byte offset.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_internal.h"

enum {
  SEC_STRING, SEC_DIALECT, SEC_ATTR_TYPE, SEC_ATTR_TYPE_OFFSETS, SEC_IR, SEC_RESOURCE,
  SEC_RESOURCE_OFFSETS, SEC_DIALECT_VERSIONS, SEC_PROPERTIES, N_SECTIONS
};

/* Bytecode versions that changed the encoding. */
enum {
  BV_DIALECT_VERSIONING = 1,
  BV_LAZY_LOADING = 2,      /* isolated regions in a section of their own */
  BV_USE_LIST_ORDERS = 3,
  BV_ELIDE_UNKNOWN_LOCS = 4, /* block arguments flag their locations */
  BV_PROPERTIES = 5,        /* op names flag registration; properties section */
  BV_MAX = 6,
};

/* The op encoding mask. */
enum {
  OM_ATTRS = 1, OM_RESULTS = 2, OM_OPERANDS = 4, OM_SUCCESSORS = 8, OM_REGIONS = 16,
  OM_USE_LISTS = 32, OM_PROPERTIES = 64
};

enum { MAX_DEPTH = 256 };

typedef struct Section {
  const uint8_t *p;
  uint64_t n;
  bool present;
} Section;

/* One entry of the attribute or type table. */
typedef struct Entry {
  const uint8_t *p;
  uint64_t n;
  uint64_t dialect;
  bool custom; /* dialect encoding, else assembly text */
  uint8_t state; /* 0 unread, 1 being read, 2 done */
} Entry;

typedef struct OpName {
  const char *dialect, *name;
} OpName;

/* The values of an isolated region and the regions nested in it: each
 * region reserves the ids of the values it defines itself (MLIR numbers
 * them from the isolated ancestor). */
typedef struct Scope {
  Value **v;
  uint64_t n, cap;
} Scope;

struct Bc {
  const SrcFile *file;
  Module *m;
  bool failed;
  uint64_t version;
  Section sec[N_SECTIONS];
  uint64_t nstrings, ndialects, nopnames, nattrs, ntypes, nprops;
  const char **strings;
  const char **dialects;
  OpName *opnames;
  Entry *attr_entries, *type_entries;
  BcAttr *attrs;
  BcType *types;
  const uint8_t **props; /* each: its length varint, then its bytes */
  Scope *scope;
  int depth;
};

/* ------------------------------------------------------------------------ */
/* Primitives                                                                */

static int offset_of(const Bc *bc, const uint8_t *p) { return (int)(p - (const uint8_t *)bc->file->text); }

bool bc_error(BcCursor *c, const char *fmt, ...) {
  if (c->bc->failed) return false;
  c->bc->failed = true;
  va_list ap;
  va_start(ap, fmt);
  diag_verror((Loc){c->bc->file, 0, offset_of(c->bc, c->p)}, "error", fmt, ap);
  va_end(ap);
  return false;
}

bool bc_byte(BcCursor *c, uint8_t *v) {
  *v = 0;
  if (c->bc->failed) return false;
  if (c->p >= c->end) return bc_error(c, "unexpected end of data");
  *v = *c->p++;
  return true;
}

bool bc_bytes(BcCursor *c, uint64_t n, const uint8_t **out) {
  *out = c->p;
  if (c->bc->failed) return false;
  if (n > (uint64_t)(c->end - c->p))
    return bc_error(c, "%llu bytes expected, %zu remain", (unsigned long long)n,
                    (size_t)(c->end - c->p));
  *out = c->p;
  c->p += n;
  return true;
}

/* PrefixVarInt: the trailing zeros of the first byte count the bytes that
 * follow; the value is the rest, little-endian. */
bool bc_varint(BcCursor *c, uint64_t *v) {
  uint8_t b;
  if (!bc_byte(c, &b)) return false;
  if (b & 1) {
    *v = b >> 1;
    return true;
  }
  int more = b ? __builtin_ctz(b) : 8;
  const uint8_t *rest;
  if (!bc_bytes(c, (uint64_t)more, &rest)) return false;
  uint64_t x = 0;
  for (int i = 0; i < more; i++) x |= (uint64_t)rest[i] << (8 * i);
  *v = more == 8 ? x : ((x << 8) | b) >> (more + 1);
  return true;
}

/* Zigzag: the low bit is the sign. */
bool bc_svarint(BcCursor *c, int64_t *v) {
  uint64_t u;
  if (!bc_varint(c, &u)) return false;
  *v = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
  return true;
}

static bool varint_flag(BcCursor *c, uint64_t *v, bool *flag) {
  if (!bc_varint(c, v)) return false;
  *flag = *v & 1;
  *v >>= 1;
  return true;
}

/* A count of items that take at least `min` bytes each: bounded by what
 * remains, so that a corrupt count cannot ask for a huge allocation. */
static bool count(BcCursor *c, uint64_t *n, uint64_t min, const char *what) {
  if (!bc_varint(c, n)) return false;
  if (min && *n > (uint64_t)(c->end - c->p) / min)
    return bc_error(c, "%llu %s cannot fit in the %zu bytes left", (unsigned long long)*n,
                    what, (size_t)(c->end - c->p));
  return true;
}

static bool index_in(BcCursor *c, uint64_t *i, uint64_t n, const char *what) {
  if (!bc_varint(c, i)) return false;
  if (*i >= n)
    return bc_error(c, "%s index %llu out of range (%llu entries)", what, (unsigned long long)*i,
                    (unsigned long long)n);
  return true;
}

bool bc_string(BcCursor *c, const char **s) {
  uint64_t i;
  if (!index_in(c, &i, c->bc->nstrings, "string")) return false;
  *s = c->bc->strings[i];
  return true;
}

Module *bc_module(const BcCursor *c) { return c->bc->m; }

static bool section(BcCursor *c, int *id, Section *s) {
  uint8_t b;
  uint64_t n;
  if (!bc_byte(c, &b) || !bc_varint(c, &n)) return false;
  *id = b & 0x7f;
  if (b & 0x80) {
    uint64_t align;
    if (!bc_varint(c, &align)) return false;
    if (align == 0 || (align & (align - 1)) || align > 4096)
      return bc_error(c, "bad section alignment %llu", (unsigned long long)align);
    /* Offsets are aligned from the start of the file, which the writer
     * assumed to be loaded at an aligned address. */
    while (offset_of(c->bc, c->p) & (int)(align - 1)) {
      uint8_t pad;
      if (!bc_byte(c, &pad)) return false;
      if (pad != 0xCB) return bc_error(c, "bad alignment padding byte 0x%02x", pad);
    }
  }
  s->present = true;
  s->n = n;
  return bc_bytes(c, n, &s->p);
}

static BcCursor cursor(Bc *bc, const uint8_t *p, uint64_t n) { return (BcCursor){bc, p, p + n}; }

/* ------------------------------------------------------------------------ */
/* Header and tables                                                         */

/* The producer names the StableHLO version the artifact targets
 * ("StableHLO_v1.17.0"); the VHLO ops of newer versions are unknown here. */
static bool check_producer(BcCursor *c, const char *producer) {
  static const int newest[3] = {1, 17, 0};
  int v[3];
  if (sscanf(producer, "StableHLO_v%d.%d.%d", &v[0], &v[1], &v[2]) != 3)
    return bc_error(c, "MLIR bytecode from '%s' is not a StableHLO portable artifact "
                       "(only the VHLO dialect is read; serialize with "
                       "stablehlo.serialize_portable_artifact)", producer);
  for (int i = 0; i < 3; i++) {
    if (v[i] < newest[i]) return true;
    if (v[i] > newest[i])
      return bc_error(c, "StableHLO version %d.%d.%d is newer than this reader supports "
                         "(0.9.0 to %d.%d.%d): serialize for an older target version",
                      v[0], v[1], v[2], newest[0], newest[1], newest[2]);
  }
  return true;
}

static bool read_header(Bc *bc, BcCursor *c) {
  const uint8_t *magic;
  if (!bc_bytes(c, 4, &magic)) return false;
  if (!bc_varint(c, &bc->version)) return false;
  if (bc->version > BV_MAX)
    return bc_error(c, "MLIR bytecode version %llu is newer than this reader supports (0 to %d)",
                    (unsigned long long)bc->version, BV_MAX);
  const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
  if (!nul) return bc_error(c, "unterminated producer string");
  const char *producer = (const char *)c->p;
  if (!check_producer(c, producer)) return false;
  c->p = nul + 1;
  while (c->p < c->end) {
    int id;
    Section s = {0};
    const uint8_t *at = c->p;
    if (!section(c, &id, &s)) return false;
    if (id >= N_SECTIONS) {
      c->p = at;
      return bc_error(c, "unknown section id %d", id);
    }
    if (bc->sec[id].present) {
      c->p = at;
      return bc_error(c, "section %d appears twice", id);
    }
    bc->sec[id] = s;
  }
  static const char *const required[] = {"string", "dialect", "attribute/type",
                                         "attribute/type offset", "IR"};
  for (int i = 0; i <= SEC_IR; i++)
    if (!bc->sec[i].present) return bc_error(c, "missing the %s section", required[i]);
  if (bc->version >= BV_PROPERTIES && !bc->sec[SEC_PROPERTIES].present)
    return bc_error(c, "missing the properties section");
  return true;
}

/* strings ::= count:varint (size:varint)* in reverse order, then the
 * NUL-terminated strings back to back. */
static bool read_strings(Bc *bc) {
  Section *s = &bc->sec[SEC_STRING];
  BcCursor c = cursor(bc, s->p, s->n);
  if (!count(&c, &bc->nstrings, 2, "strings")) return false;
  bc->strings = ARENA_ARRAY(&bc->m->arena, const char *, bc->nstrings + 1);
  uint64_t end = s->n;
  for (uint64_t i = bc->nstrings; i-- > 0;) {
    uint64_t size;
    if (!bc_varint(&c, &size)) return false;
    if (size == 0 || size > end) return bc_error(&c, "bad string size %llu", (unsigned long long)size);
    end -= size;
    if (s->p[end + size - 1] != 0) return bc_error(&c, "string %llu is not NUL-terminated",
                                                   (unsigned long long)i);
    bc->strings[i] = (const char *)s->p + end;
  }
  if ((uint64_t)(c.p - s->p) != end) return bc_error(&c, "string section sizes do not add up");
  return true;
}

static bool read_dialects(Bc *bc) {
  Section *s = &bc->sec[SEC_DIALECT];
  BcCursor c = cursor(bc, s->p, s->n);
  if (!count(&c, &bc->ndialects, 1, "dialects")) return false;
  bc->dialects = ARENA_ARRAY(&bc->m->arena, const char *, bc->ndialects + 1);
  for (uint64_t i = 0; i < bc->ndialects; i++) {
    uint64_t name = 0;
    bool versioned = false;
    if (bc->version < BV_DIALECT_VERSIONING ? !bc_varint(&c, &name)
                                             : !varint_flag(&c, &name, &versioned))
      return false;
    if (name >= bc->nstrings) return bc_error(&c, "dialect name out of range");
    bc->dialects[i] = bc->strings[name];
    if (strcmp(bc->dialects[i], "builtin") && strcmp(bc->dialects[i], "vhlo"))
      return bc_error(&c, "dialect '%s' is not part of a StableHLO portable artifact",
                      bc->dialects[i]);
    if (versioned) { /* the VHLO version is in the producer string */
      int id;
      Section v;
      if (!section(&c, &id, &v)) return false;
    }
  }
  if (bc->version >= BV_ELIDE_UNKNOWN_LOCS) {
    uint64_t n;
    if (!bc_varint(&c, &n)) return false;
  }
  int cap = 0;
  while (c.p < c.end) {
    uint64_t d, n;
    if (!index_in(&c, &d, bc->ndialects, "dialect") || !count(&c, &n, 1, "op names")) return false;
    for (uint64_t k = 0; k < n; k++) {
      uint64_t name;
      bool registered;
      if (bc->version < BV_PROPERTIES ? !bc_varint(&c, &name) : !varint_flag(&c, &name, &registered))
        return false;
      if (name >= bc->nstrings) return bc_error(&c, "op name out of range");
      bc->opnames = arena_grow(&bc->m->arena, bc->opnames, (int)bc->nopnames, &cap,
                               sizeof *bc->opnames);
      bc->opnames[bc->nopnames++] = (OpName){bc->dialects[d], bc->strings[name]};
    }
  }
  return true;
}

/* offsets ::= nattrs:varint ntypes:varint (dialect:varint n:varint
 * (size << 1 | custom)*)* : entries in order, sizes into the table. */
static bool read_entries(Bc *bc, BcCursor *c, Entry *e, uint64_t n, uint64_t *at) {
  const Section *data = &bc->sec[SEC_ATTR_TYPE];
  for (uint64_t i = 0; i < n;) {
    uint64_t d, k;
    if (!index_in(c, &d, bc->ndialects, "dialect") || !bc_varint(c, &k)) return false;
    if (k > n - i) return bc_error(c, "attribute/type group overruns its table");
    for (; k > 0; k--, i++) {
      uint64_t size;
      bool custom;
      if (!varint_flag(c, &size, &custom)) return false;
      if (size > data->n - *at) return bc_error(c, "attribute/type entry past its section");
      e[i] = (Entry){data->p + *at, size, d, custom, 0};
      *at += size;
    }
  }
  return true;
}

static bool read_attr_type_table(Bc *bc) {
  Section *s = &bc->sec[SEC_ATTR_TYPE_OFFSETS];
  BcCursor c = cursor(bc, s->p, s->n);
  if (!count(&c, &bc->nattrs, 0, "attributes") || !count(&c, &bc->ntypes, 0, "types")) return false;
  if (bc->nattrs > bc->sec[SEC_ATTR_TYPE].n || bc->ntypes > bc->sec[SEC_ATTR_TYPE].n + 1)
    return bc_error(&c, "more attributes or types than the table can hold");
  Arena *a = &bc->m->arena;
  bc->attr_entries = ARENA_ARRAY(a, Entry, bc->nattrs + 1);
  bc->type_entries = ARENA_ARRAY(a, Entry, bc->ntypes + 1);
  bc->attrs = ARENA_ARRAY(a, BcAttr, bc->nattrs + 1);
  bc->types = ARENA_ARRAY(a, BcType, bc->ntypes + 1);
  uint64_t at = 0;
  if (!read_entries(bc, &c, bc->attr_entries, bc->nattrs, &at) ||
      !read_entries(bc, &c, bc->type_entries, bc->ntypes, &at))
    return false;
  if (c.p != c.end) return bc_error(&c, "trailing bytes in the attribute/type offsets");
  return true;
}

/* properties ::= count:varint (size:varint bytes)* */
static bool read_properties(Bc *bc) {
  Section *s = &bc->sec[SEC_PROPERTIES];
  if (!s->present || s->n == 0) return true;
  BcCursor c = cursor(bc, s->p, s->n);
  if (!count(&c, &bc->nprops, 1, "properties")) return false;
  bc->props = ARENA_ARRAY(&bc->m->arena, const uint8_t *, bc->nprops + 1);
  for (uint64_t i = 0; i < bc->nprops; i++) {
    uint64_t n;
    const uint8_t *b;
    bc->props[i] = c.p;
    if (!bc_varint(&c, &n) || !bc_bytes(&c, n, &b)) return false;
  }
  if (c.p != c.end) return bc_error(&c, "trailing bytes in the properties section");
  return true;
}

/* ------------------------------------------------------------------------ */
/* The attribute and type table, decoded on first use                        */

static bool enter(BcCursor *c) {
  if (++c->bc->depth <= MAX_DEPTH) return true;
  return bc_error(c, "attributes, types or regions nested deeper than %d levels", MAX_DEPTH);
}

static void leave(BcCursor *c) { c->bc->depth--; }

static bool decode_attr(Bc *bc, uint64_t i) {
  Entry *e = &bc->attr_entries[i];
  BcCursor c = cursor(bc, e->p, e->n);
  const char *dialect = bc->dialects[e->dialect];
  if (!e->custom) {
    /* An attribute without a bytecode encoding is its assembly text:
     * kept verbatim, as the text parser keeps unknown attributes. */
    const uint8_t *nul = memchr(e->p, 0, e->n);
    if (!nul) return bc_error(&c, "unterminated %s attribute text", dialect);
    bc->attrs[i].kind = BA_VALUE;
    bc->attrs[i].attr = attr_new(bc->m, AT_OTHER);
    bc->attrs[i].attr->str = arena_strndup(&bc->m->arena, (const char *)e->p, (size_t)(nul - e->p));
    return true;
  }
  if (!vhlo_read_attr(&c, dialect, &bc->attrs[i])) return false;
  if (c.p != c.end) return bc_error(&c, "trailing bytes after a %s attribute", dialect);
  return true;
}

static bool decode_type(Bc *bc, uint64_t i) {
  Entry *e = &bc->type_entries[i];
  BcCursor c = cursor(bc, e->p, e->n);
  const char *dialect = bc->dialects[e->dialect];
  if (!e->custom)
    return bc_error(&c, "%s type in assembly format '%.*s' is not supported", dialect,
                    (int)(e->n > 60 ? 60 : e->n), (const char *)e->p);
  if (!vhlo_read_type(&c, dialect, &bc->types[i])) return false;
  if (c.p != c.end) return bc_error(&c, "trailing bytes after a %s type", dialect);
  return true;
}

/* Entry i of the attribute table; `c` reports errors. */
static const BcAttr *attr_at(BcCursor *c, uint64_t i) {
  Bc *bc = c->bc;
  Entry *e = &bc->attr_entries[i];
  if (e->state == 1) return bc_error(c, "attribute %llu contains itself", (unsigned long long)i), NULL;
  if (e->state == 0) {
    e->state = 1;
    bool ok = enter(c) && decode_attr(bc, i);
    leave(c);
    if (!ok) return NULL;
    e->state = 2;
  }
  return &bc->attrs[i];
}

static const BcType *type_at(BcCursor *c, uint64_t i) {
  Bc *bc = c->bc;
  Entry *e = &bc->type_entries[i];
  if (e->state == 1) return bc_error(c, "type %llu contains itself", (unsigned long long)i), NULL;
  if (e->state == 0) {
    e->state = 1;
    bool ok = enter(c) && decode_type(bc, i);
    leave(c);
    if (!ok) return NULL;
    e->state = 2;
  }
  return &bc->types[i];
}

const BcAttr *bc_attr(BcCursor *c) {
  uint64_t i;
  return index_in(c, &i, c->bc->nattrs, "attribute") ? attr_at(c, i) : NULL;
}

const BcType *bc_type(BcCursor *c) {
  uint64_t i;
  return index_in(c, &i, c->bc->ntypes, "type") ? type_at(c, i) : NULL;
}

Type *bc_value_type(BcCursor *c) {
  const uint8_t *at = c->p;
  const BcType *t = bc_type(c);
  if (!t) return NULL;
  if (t->kind != BT_VALUE) {
    c->p = at;
    bc_error(c, "expected a tensor, token or tuple type");
    return NULL;
  }
  return t->type;
}

/* ------------------------------------------------------------------------ */
/* The IR section                                                            */

/* What reading one op gathered before it is built. */
typedef struct OpRead {
  const VhloOp *vop;
  Loc loc;
  AttrList attrs;   /* VHLO names and values, BA_NONE dropped */
  const BcType *fty; /* vhlo.func_v1's function_type */
  int nresults, nopnds;
  Type **types;
  Value **opnds;
  uint64_t nregions;
  bool isolated;
} OpRead;

/* The ids a region reserves in its scope, and the next to define. */
typedef struct RegionIds {
  uint64_t next, end;
} RegionIds;

static bool define(BcCursor *c, RegionIds *ids, Value *v) {
  if (ids->next >= ids->end)
    return bc_error(c, "more values defined than the region declared");
  c->bc->scope->v[ids->next++] = v;
  return true;
}

static Value *operand(BcCursor *c) {
  Scope *s = c->bc->scope;
  uint64_t i;
  /* The top-level op (the module) has no enclosing region to name values. */
  if (!s) return bc_error(c, "an operand outside any region"), NULL;
  if (!index_in(c, &i, s->n, "value")) return NULL;
  /* StableHLO regions are single blocks in SSA order: a use never comes
   * before its definition, so forward references are not supported. */
  if (!s->v[i]) return bc_error(c, "value %llu used before its definition", (unsigned long long)i), NULL;
  return s->v[i];
}

/* use-list orders ::= (count:varint)? ((index:varint)? n:varint idx*)* */
static bool skip_use_lists(BcCursor *c, uint64_t nvalues) {
  uint64_t n = 1, x;
  if (nvalues > 1 && !count(c, &n, 1, "use lists")) return false;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t k;
    if (nvalues > 1 && !bc_varint(c, &x)) return false;
    if (!count(c, &k, 2, "use-list entries")) return false;
    for (uint64_t j = 0; j < k >> 1; j++)
      if (!bc_varint(c, &x)) return false;
  }
  return true;
}

/* Named attributes from an op's attribute dictionary or its properties.
 * A function type (vhlo.func_v1's function_type) has no Attr form. */
static void add_attr(Bc *bc, OpRead *r, const char *name, const BcAttr *a) {
  if (a->type && a->type->kind == BT_FUNC) r->fty = a->type;
  else if (a->kind == BA_VALUE) attrlist_append(bc->m, &r->attrs, name, a->attr);
}

static bool dict_attrs(BcCursor *c, OpRead *r) {
  const uint8_t *at = c->p;
  uint64_t i;
  if (!index_in(c, &i, c->bc->nattrs, "attribute")) return false;
  /* The dictionary's values as decoded, function types included. */
  BcCursor e = {c->bc, c->bc->attr_entries[i].p, c->bc->attr_entries[i].p + c->bc->attr_entries[i].n};
  if (c->bc->attr_entries[i].custom && !strcmp(c->bc->dialects[c->bc->attr_entries[i].dialect], "builtin")) {
    uint64_t code, n;
    if (bc_varint(&e, &code) && code == 1 && count(&e, &n, 2, "entries")) {
      for (uint64_t k = 0; k < n; k++) {
        const BcAttr *name = bc_attr(&e), *value;
        if (!name) return false;
        if (name->kind != BA_VALUE || name->attr->kind != AT_STRING) {
          c->p = at;
          return bc_error(c, "attribute name that is not a string");
        }
        if (!(value = bc_attr(&e))) return false;
        add_attr(c->bc, r, name->attr->str, value);
      }
      return true;
    }
  }
  c->p = at;
  return bc_error(c, "expected an attribute dictionary");
}

/* properties ::= index:varint into the properties section, where the op's
 * attributes lie in the order of vop->attrs; builtin.module's two are
 * optional (an index with a presence flag). */
static bool prop_attrs(BcCursor *c, OpRead *r) {
  Bc *bc = c->bc;
  const VhloOp *vop = r->vop;
  uint64_t i, n;
  if (!index_in(c, &i, bc->nprops, "properties")) return false;
  BcCursor p = {bc, bc->props[i], bc->sec[SEC_PROPERTIES].p + bc->sec[SEC_PROPERTIES].n};
  const uint8_t *b;
  if (!bc_varint(&p, &n) || !bc_bytes(&p, n, &b)) return false;
  p = cursor(bc, b, n);
  char buf[VHLO_NAMES_BUF];
  const char *names[VHLO_MAX_ATTRS];
  int nnames = vhlo_attr_names(vop, buf, names);
  for (int k = 0; k < nnames; k++) {
    const BcAttr *a;
    if (vop->role == VR_MODULE) {
      uint64_t idx;
      bool present;
      if (!varint_flag(&p, &idx, &present)) return false;
      if (!present) continue;
      if (idx >= bc->nattrs) return bc_error(&p, "attribute index out of range");
      a = attr_at(&p, idx);
    } else {
      a = bc_attr(&p);
    }
    if (!a) return false;
    add_attr(bc, r, arena_strdup(&bc->m->arena, names[k]), a);
  }
  if (p.p != p.end)
    return bc_error(&p, "'%s' has more properties than the %d this reader knows", vop->name,
                    nnames);
  return true;
}

static Loc op_loc(Bc *bc, const BcAttr *a, const uint8_t *at) {
  if (a->kind == BA_LOC && a->loc.file) return a->loc;
  return (Loc){bc->file, 0, offset_of(bc, at)};
}

static bool read_op_head(BcCursor *c, OpRead *r) {
  Bc *bc = c->bc;
  const uint8_t *at = c->p;
  uint64_t name;
  uint8_t mask;
  if (!index_in(c, &name, bc->nopnames, "op name")) return false;
  const OpName *on = &bc->opnames[name];
  r->vop = vhlo_op_lookup(on->dialect, on->name);
  if (!r->vop) {
    c->p = at;
    return bc_error(c, "unsupported operation '%s.%s'", on->dialect, on->name);
  }
  if (!bc_byte(c, &mask)) return false;
  const BcAttr *loc = bc_attr(c);
  if (!loc) return false;
  r->loc = op_loc(bc, loc, at);
  if ((mask & OM_ATTRS) && !dict_attrs(c, r)) return false;
  if (mask & OM_PROPERTIES) {
    if (bc->version < BV_PROPERTIES) return bc_error(c, "properties in bytecode version %llu",
                                                     (unsigned long long)bc->version);
    if (!prop_attrs(c, r)) return false;
  }
  uint64_t n;
  if (mask & OM_RESULTS) {
    if (!count(c, &n, 1, "results")) return false;
    r->nresults = (int)n;
    r->types = ARENA_ARRAY(&bc->m->arena, Type *, n + 1);
    for (uint64_t i = 0; i < n; i++)
      if (!(r->types[i] = bc_value_type(c))) return false;
  }
  if (mask & OM_OPERANDS) {
    if (!count(c, &n, 1, "operands")) return false;
    r->nopnds = (int)n;
    r->opnds = ARENA_ARRAY(&bc->m->arena, Value *, n + 1);
    for (uint64_t i = 0; i < n; i++)
      if (!(r->opnds[i] = operand(c))) return false;
  }
  if (mask & OM_SUCCESSORS) return bc_error(c, "'%s' has block successors: not supported",
                                            r->vop->name);
  if ((mask & OM_USE_LISTS) && bc->version >= BV_USE_LIST_ORDERS &&
      !skip_use_lists(c, (uint64_t)r->nresults))
    return false;
  if (mask & OM_REGIONS) {
    if (!varint_flag(c, &r->nregions, &r->isolated)) return false;
    if (r->nregions > 1024) return bc_error(c, "%llu regions", (unsigned long long)r->nregions);
  }
  return true;
}

static bool read_block_into(BcCursor *c, RegionIds *ids, Block **out, bool in_func);

/* region ::= nblocks:varint (nvalues:varint block*)? */
static Region *read_region(BcCursor *c, bool in_func) {
  Bc *bc = c->bc;
  uint64_t nblocks, nvalues;
  if (!count(c, &nblocks, 1, "blocks")) return NULL;
  if (nblocks == 0) return ir_region_new(bc->m, 0);
  if (nblocks > 1) return bc_error(c, "regions with several blocks are not supported"), NULL;
  if (!count(c, &nvalues, 0, "values")) return NULL;
  Scope *s = bc->scope;
  if (nvalues > (uint64_t)(c->end - c->p) + 1024 || s->n + nvalues > (1ull << 31))
    return bc_error(c, "region declares %llu values", (unsigned long long)nvalues), NULL;
  uint64_t base = s->n;
  if (s->n + nvalues > s->cap) {
    uint64_t cap = (s->n + nvalues) * 2;
    Value **v = realloc(s->v, sizeof *v * cap);
    if (!v) abort();
    s->v = v;
    s->cap = cap;
  }
  if (nvalues) memset(s->v + base, 0, sizeof *s->v * nvalues); /* s->v may be NULL */
  s->n += nvalues;
  RegionIds ids = {base, base + nvalues};
  Block *b;
  bool ok = read_block_into(c, &ids, &b, in_func);
  s->n = base;
  if (!ok) return NULL;
  Region *r = ir_region_new(bc->m, 1);
  r->blocks[0] = b;
  b->parent = r;
  return r;
}

/* args ::= n:varint (type << 1 | has_loc, loc?)* (version >= 4) or
 *          n:varint (type, loc)* */
static Block *read_block_args(BcCursor *c, RegionIds *ids, bool has_args) {
  Bc *bc = c->bc;
  uint64_t n = 0;
  if (has_args && !count(c, &n, 1, "block arguments")) return NULL;
  Type **types = ARENA_ARRAY(&bc->m->arena, Type *, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    bool has_loc = true;
    if (bc->version >= BV_ELIDE_UNKNOWN_LOCS) {
      uint64_t t;
      if (!varint_flag(c, &t, &has_loc)) return NULL;
      if (t >= bc->ntypes) return bc_error(c, "type index out of range"), NULL;
      const BcType *bt = type_at(c, t);
      if (!bt) return NULL;
      if (bt->kind != BT_VALUE) return bc_error(c, "block argument of a non-value type"), NULL;
      types[i] = bt->type;
    } else if (!(types[i] = bc_value_type(c))) {
      return NULL;
    }
    if (has_loc && !bc_attr(c)) return NULL;
  }
  Block *b = ir_block_new(bc->m, (int)n, types);
  for (uint64_t i = 0; i < n; i++)
    if (!define(c, ids, b->args[i])) return NULL;
  if (bc->version >= BV_USE_LIST_ORDERS && has_args) {
    uint8_t has_orders;
    if (!bc_byte(c, &has_orders)) return NULL;
    if (has_orders && !skip_use_lists(c, n)) return NULL;
  }
  return b;
}

static bool read_op(BcCursor *c, Block *b, RegionIds *ids, bool in_func);

/* block ::= (nops << 1 | has_args):varint args? op* */
static bool read_block_into(BcCursor *c, RegionIds *ids, Block **out, bool in_func) {
  uint64_t nops;
  bool has_args;
  if (!varint_flag(c, &nops, &has_args)) return false;
  Block *b = read_block_args(c, ids, has_args);
  if (!b) return false;
  for (uint64_t i = 0; i < nops; i++)
    if (!read_op(c, b, ids, in_func)) return false;
  *out = b;
  return true;
}

/* The regions of an op: inline, or (isolated, version >= 2) in an IR
 * section of their own with a fresh value scope. */
static bool read_regions(BcCursor *c, OpRead *r, Region **regions, bool in_func) {
  Bc *bc = c->bc;
  BcCursor rc = *c;
  Scope fresh = {0}, *outer = bc->scope;
  if (r->isolated) {
    if (bc->version >= BV_LAZY_LOADING) {
      int id;
      Section s;
      if (!section(c, &id, &s)) return false;
      if (id != SEC_IR) return bc_error(c, "expected the IR section of an isolated region");
      rc = cursor(bc, s.p, s.n);
    }
    bc->scope = &fresh;
  }
  bool ok = enter(c);
  for (uint64_t i = 0; ok && i < r->nregions; i++)
    ok = (regions[i] = read_region(r->isolated ? &rc : c, in_func)) != NULL;
  leave(c);
  if (r->isolated) {
    free(fresh.v);
    bc->scope = outer;
    if (ok && bc->version >= BV_LAZY_LOADING && rc.p != rc.end)
      ok = bc_error(&rc, "trailing bytes after the regions of '%s'", r->vop->name);
    if (bc->version < BV_LAZY_LOADING) c->p = rc.p;
  }
  return ok;
}

static const Attr *find(const AttrList *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i].name, name)) return l->v[i].value;
  return NULL;
}

/* vhlo.func_v1 -> a function of the module. Its attributes: sym_name,
 * function_type, sym_visibility ("" or "public" when public), arg_attrs
 * and res_attrs (arrays of dictionaries; result attributes are dropped, as
 * the text parser drops them). */
static bool read_func(BcCursor *c, OpRead *r, const uint8_t *at) {
  Bc *bc = c->bc;
  const Attr *name = find(&r->attrs, "sym_name");
  const Attr *vis = find(&r->attrs, "sym_visibility"), *args = find(&r->attrs, "arg_attrs");
  const BcType *fty = r->fty;
  BcCursor here = {bc, at, c->end};
  if (!name || name->kind != AT_STRING || !fty)
    return bc_error(&here, "vhlo.func_v1 without a name or function type");
  if (ir_module_find_func(bc->m, name->str))
    return bc_error(&here, "redefinition of function '@%s'", name->str);
  Func *f = ir_func_new(bc->m, name->str, r->loc);
  f->is_public = !vis || vis->kind != AT_STRING || !vis->str[0] || !strcmp(vis->str, "public");
  f->nresults = fty->nout;
  f->result_types = fty->outs;
  Region *body;
  if (r->nregions != 1) return bc_error(&here, "function '@%s' needs one region", name->str);
  if (!read_regions(c, r, &body, true)) return false;
  if (body->nblocks == 0) { /* a declaration */
    ir_module_add_func(bc->m, f);
    return true;
  }
  f->body = body->blocks[0];
  f->body->parent = NULL;
  int nargs = f->body->nargs;
  if (nargs != fty->nin) return bc_error(&here, "'@%s' has %d arguments but its type lists %d",
                                         name->str, nargs, fty->nin);
  for (int i = 0; i < nargs; i++)
    if (f->body->args[i]->type != fty->ins[i])
      return bc_error(&here, "argument %d of '@%s' differs from its function type", i, name->str);
  f->arg_attrs = ARENA_ARRAY(&bc->m->arena, NamedAttr *, nargs + 1);
  f->narg_attrs = ARENA_ARRAY(&bc->m->arena, int, nargs + 1);
  if (args && args->kind == AT_ARRAY && args->n == nargs) {
    for (int i = 0; i < nargs; i++) {
      const Attr *d = args->items[i];
      if (d->kind != AT_DICT) return bc_error(&here, "argument attributes that are not a dictionary");
      f->arg_attrs[i] = d->n ? d->fields : NULL;
      f->narg_attrs[i] = d->n;
    }
  } else if (args && !(args->kind == AT_ARRAY && args->n == 0)) {
    return bc_error(&here, "'@%s' has argument attributes for %d arguments, not %d", name->str,
                    args->kind == AT_ARRAY ? args->n : -1, nargs);
  }
  ir_module_add_func(bc->m, f);
  return true;
}

static bool read_op(BcCursor *c, Block *b, RegionIds *ids, bool in_func) {
  Bc *bc = c->bc;
  const uint8_t *at = c->p;
  OpRead r = {0};
  if (!read_op_head(c, &r)) return false;
  BcCursor here = {bc, at, c->end};
  const VhloOp *vop = r.vop;
  if (vop->role == VR_FUNC) {
    if (b || r.nresults || r.nopnds) return bc_error(&here, "vhlo.func_v1 outside the module");
    return read_func(c, &r, at);
  }
  if (vop->role == VR_MODULE) return bc_error(&here, "nested builtin.module");
  if (!b) return bc_error(&here, "'%s' at the top of the module: expected functions", vop->name);
  if (r.fty) return bc_error(&here, "function type attribute on '%s'", vop->name);
  OpCode code = vop->code;
  if (vop->role == VR_RETURN) code = in_func ? OP_FUNC_RETURN : OP_RETURN;
  AttrList attrs = {0};
  if (!vhlo_convert_attrs(&here, code, r.attrs.v, r.attrs.n, &attrs)) return false;
  Region **regions = ARENA_ARRAY(&bc->m->arena, Region *, r.nregions + 1);
  if (r.nregions && !read_regions(c, &r, regions, false)) return false;
  for (uint64_t i = 0; i < r.nregions; i++)
    if (regions[i]->nblocks == 0)
      return bc_error(&here, "'%s' has an empty region", op_name(code));
  Op *op = ir_op_new(bc->m, code, r.loc, r.nopnds, r.opnds, r.nresults, r.types, (int)r.nregions);
  for (uint64_t i = 0; i < r.nregions; i++) {
    op->regions[i] = regions[i];
    regions[i]->parent = op;
  }
  op->attrs = attrs.v;
  op->nattrs = attrs.n;
  ir_block_append(b, op);
  for (int i = 0; i < r.nresults; i++)
    if (!define(c, ids, op->results[i])) return false;
  return true;
}

/* The module op: its attributes, its name, its region of functions. */
static bool read_module(BcCursor *c) {
  Bc *bc = c->bc;
  const uint8_t *at = c->p;
  OpRead r = {0};
  if (!read_op_head(c, &r)) return false;
  BcCursor here = {bc, at, c->end};
  if (r.vop->role != VR_MODULE) return bc_error(&here, "expected builtin.module at the top");
  if (r.nresults || r.nopnds || r.nregions != 1)
    return bc_error(&here, "malformed builtin.module");
  Module *m = bc->m;
  m->loc = r.loc;
  AttrList rest = {0};
  for (int i = 0; i < r.attrs.n; i++) {
    const NamedAttr *a = &r.attrs.v[i];
    if (!strcmp(a->name, "sym_name") && a->value->kind == AT_STRING) m->name = a->value->str;
    else if (strcmp(a->name, "sym_visibility")) attrlist_append(m, &rest, a->name, a->value);
  }
  m->attrs = rest.v;
  m->nattrs = rest.n;
  Scope fresh = {0};
  BcCursor rc = *c;
  if (bc->version >= BV_LAZY_LOADING) {
    int id;
    Section s;
    if (!section(c, &id, &s)) return false;
    if (id != SEC_IR) return bc_error(c, "expected the IR section of the module");
    rc = cursor(bc, s.p, s.n);
  }
  bc->scope = &fresh;
  uint64_t nblocks, nvalues, nops;
  bool has_args, ok = count(&rc, &nblocks, 0, "blocks");
  if (ok && nblocks != 1) ok = bc_error(&rc, "the module needs one block");
  ok = ok && bc_varint(&rc, &nvalues) && varint_flag(&rc, &nops, &has_args);
  if (ok && (has_args || nvalues)) ok = bc_error(&rc, "the module's block has values");
  for (uint64_t i = 0; ok && i < nops; i++) ok = read_op(&rc, NULL, NULL, false);
  free(fresh.v);
  bc->scope = NULL;
  if (ok && bc->version >= BV_LAZY_LOADING && rc.p != rc.end)
    ok = bc_error(&rc, "trailing bytes in the module");
  if (ok && bc->version < BV_LAZY_LOADING) c->p = rc.p;
  return ok;
}

static bool read_ir(Bc *bc) {
  Section *s = &bc->sec[SEC_IR];
  BcCursor c = cursor(bc, s->p, s->n);
  uint64_t nops;
  bool has_args;
  if (!varint_flag(&c, &nops, &has_args)) return false;
  if (has_args || nops != 1) return bc_error(&c, "expected one builtin.module at the top");
  if (!read_module(&c)) return false;
  if (c.p != c.end) return bc_error(&c, "trailing bytes in the IR section");
  return true;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                              */

static const uint8_t MAGIC[4] = {'M', 'L', 0xEF, 'R'};

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* jax.export's Exported flatbuffer (jax/_src/export/serialization.fbs):
 * the root table's field 13, mlir_module_serialized, is a byte vector
 * holding the artifact. Every offset is checked against the file. */
static bool jax_export_payload(const SrcFile *f, const uint8_t **data, size_t *len) {
  const uint8_t *b = (const uint8_t *)f->text;
  size_t n = f->len;
  if (n < 8) return false;
  uint64_t table = le32(b);
  if (table + 4 > n) return false;
  int64_t vt = (int64_t)table - (int32_t)le32(b + table);
  if (vt < 0 || (uint64_t)vt + 4 > n) return false;
  unsigned vsize = b[vt] | b[vt + 1] << 8;
  const unsigned field = 4 + 2 * 13;
  if (vsize < field + 2 || (uint64_t)vt + vsize > n) return false;
  unsigned off = b[vt + field] | b[vt + field + 1] << 8;
  if (!off || table + off + 4 > n) return false;
  uint64_t vec = table + off + le32(b + table + off);
  if (vec + 4 > n) return false;
  uint64_t size = le32(b + vec);
  if (size < 4 || vec + 4 + size > n || memcmp(b + vec + 4, MAGIC, 4)) return false;
  *data = b + vec + 4;
  *len = (size_t)size;
  return true;
}

static bool payload(const SrcFile *f, const uint8_t **data, size_t *len) {
  if (f->len >= 4 && !memcmp(f->text, MAGIC, 4)) {
    *data = (const uint8_t *)f->text;
    *len = f->len;
    return true;
  }
  return jax_export_payload(f, data, len);
}

Module *bytecode_read_module(const SrcFile *file) {
  const uint8_t *data;
  size_t len;
  if (!file->binary || !payload(file, &data, &len)) {
    diag_error((Loc){file, 0, 0},
               "neither MLIR text nor MLIR bytecode (a binary file without the magic "
               "bytes ML\\xefR, nor a jax.export flatbuffer holding them)");
    return NULL;
  }
  Bc bc = {.file = file, .m = ir_module_new()};
  BcCursor c = cursor(&bc, data, len);
  bool ok = read_header(&bc, &c) && read_strings(&bc) && read_dialects(&bc) &&
            read_attr_type_table(&bc) && read_properties(&bc) && read_ir(&bc) &&
            frontend_decode_attrs(bc.m);
  if (!ok) {
    if (diag_error_count() == 0) diag_error((Loc){file, 0, 0}, "cannot read the bytecode");
    ir_module_free(bc.m);
    return NULL;
  }
  return bc.m;
}
