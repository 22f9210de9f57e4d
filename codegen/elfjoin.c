/*
 * elfjoin.c: one relocatable object from the two that optsplit.c's
 * modules are emitted as, each on its own thread (the ELF specification's
 * Elf64 structures: generic ABI, "Sections", "Symbol Table", "Relocation").
 *
 * The first object (a) has the entries and the weights' blob, the second
 * (b) the kernels moved to the second module, defined as hidden globals
 * for the time of the split, and undefined hidden references to what a
 * defines locally (the blob, the functions kernels of both call: optsplit.c
 * keep_only). The result is what one module would
 * have given, laid out as a then b:
 *  - each of b's sections goes after a's of the same name, type, flags
 *    and entry size, at its alignment (else it is a section of its own):
 *    b's symbols there move by its offset, and relocations against b's
 *    section symbols add it to their addends (x86-64 relocations carry
 *    their addends);
 *  - b's global definitions become local symbols (the moved kernels were
 *    internal), and a's references to them resolve to them; b's
 *    undefined symbols resolve to a's symbol of the name, global or local;
 *  - one string table holds the section and symbol names (as LLVM writes
 *    it), then the section headers.
 * Only what LLVM's ELF writer emits for these modules is read: sections of
 * code and data, RELA relocations, one symbol table; anything else (REL,
 * groups, extended section indices) fails the join with a message, as
 * does a hidden symbol neither object defines. The host is little-endian
 * (optsplit.c checks), so the structures are read in place of bytes.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

typedef struct Obj {
  const char *p;
  size_t len;
  Elf64_Ehdr h;
  Elf64_Shdr *sh;
  Elf64_Sym *sym;
  size_t nsym;
  const char *symstr, *shstr;
  int *secmap;      /* section index -> output section */
  uint64_t *delta;  /* section index -> its offset in the output section */
  int *symmap;      /* symbol index -> output symbol */
} Obj;

typedef struct OutSec {
  Elf64_Shdr h;
  const char *name;
  char *data;        /* NULL for NOBITS */
  Elf64_Rela *rela;  /* relocations applying to it */
  size_t nrela;
  int secsym;        /* its section symbol in the output, 0 if none yet */
} OutSec;

typedef struct Join {
  OutSec *sec;
  int nsec;
  Elf64_Sym *sym;
  size_t nsym;
  char *str;
  size_t strlen, strcap;
  const char *err;
} Join;

/* The sections LLVM writes for code and data, and the tables the join
 * rebuilds (REL, groups, extended indices, address-significance tables
 * and the like are not). */
static bool known_type(Elf64_Word t) {
  return t == SHT_PROGBITS || t == SHT_NOBITS || t == SHT_NOTE || t == SHT_X86_64_UNWIND ||
         t == SHT_RELA || t == SHT_SYMTAB || t == SHT_STRTAB;
}

static const char *obj_read(Obj *o, const char *p, size_t len) {
  *o = (Obj){.p = p, .len = len};
  if (len < sizeof o->h || memcmp(p, ELFMAG, SELFMAG)) return "not an ELF object";
  memcpy(&o->h, p, sizeof o->h);
  if (o->h.e_ident[EI_CLASS] != ELFCLASS64 || o->h.e_ident[EI_DATA] != ELFDATA2LSB ||
      o->h.e_type != ET_REL || o->h.e_shentsize != sizeof(Elf64_Shdr) ||
      o->h.e_shnum >= SHN_LORESERVE || o->h.e_shstrndx >= o->h.e_shnum ||
      o->h.e_shoff > len || (len - o->h.e_shoff) / sizeof(Elf64_Shdr) < o->h.e_shnum)
    return "not a relocatable little-endian ELF64 object";
  o->sh = calloc(o->h.e_shnum, sizeof *o->sh);
  memcpy(o->sh, p + o->h.e_shoff, o->h.e_shnum * sizeof *o->sh);
  for (int i = 1; i < o->h.e_shnum; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_NOBITS && (s->sh_offset > len || s->sh_size > len - s->sh_offset))
      return "a section past the end of the object";
    if (!known_type(s->sh_type) || (s->sh_flags & (SHF_GROUP | SHF_LINK_ORDER)))
      return "a section of a kind the join does not handle";
    if (s->sh_type != SHT_SYMTAB) continue;
    if (o->sym || s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link >= o->h.e_shnum)
      return "not one symbol table";
    o->nsym = s->sh_size / sizeof(Elf64_Sym);
    o->sym = calloc(o->nsym ? o->nsym : 1, sizeof *o->sym);
    memcpy(o->sym, p + s->sh_offset, o->nsym * sizeof *o->sym);
    o->symstr = p + o->sh[s->sh_link].sh_offset;
  }
  if (!o->sym) return "no symbol table";
  o->shstr = p + o->sh[o->h.e_shstrndx].sh_offset;
  o->secmap = calloc(o->h.e_shnum, sizeof *o->secmap);
  o->delta = calloc(o->h.e_shnum, sizeof *o->delta);
  o->symmap = calloc(o->nsym, sizeof *o->symmap);
  return NULL;
}

static void obj_free(Obj *o) {
  free(o->sh);
  free(o->sym);
  free(o->secmap);
  free(o->delta);
  free(o->symmap);
}

static size_t align_up(size_t n, uint64_t a) { return a > 1 ? (n + a - 1) / a * a : n; }

static uint32_t add_str(Join *j, const char *s) {
  size_t n = strlen(s) + 1;
  if (j->strlen + n > j->strcap) {
    j->strcap = 2 * (j->strlen + n);
    j->str = realloc(j->str, j->strcap);
  }
  memcpy(j->str + j->strlen, s, n);
  j->strlen += n;
  return (uint32_t)(j->strlen - n);
}

static bool is_content(const Elf64_Shdr *s) {
  return s->sh_type != SHT_NULL && s->sh_type != SHT_SYMTAB && s->sh_type != SHT_STRTAB &&
         s->sh_type != SHT_RELA;
}

/* Section i of o appended to the output section like it (name, type,
 * flags, entry size; with `merge`), else as a new one. */
static void place_section(Join *j, Obj *o, int i, bool merge) {
  const Elf64_Shdr *s = &o->sh[i];
  const char *name = o->shstr + s->sh_name;
  int k = 1;
  for (; merge && k < j->nsec; k++) {
    const Elf64_Shdr *t = &j->sec[k].h;
    if (!strcmp(j->sec[k].name, name) && t->sh_type == s->sh_type &&
        t->sh_flags == s->sh_flags && t->sh_entsize == s->sh_entsize)
      break;
  }
  if (!merge || k == j->nsec) {
    k = j->nsec++;
    j->sec = realloc(j->sec, (size_t)j->nsec * sizeof *j->sec);
    j->sec[k] = (OutSec){.h = *s, .name = name};
    j->sec[k].h.sh_size = 0;
  }
  OutSec *t = &j->sec[k];
  size_t at = align_up(t->h.sh_size, s->sh_addralign);
  if (s->sh_addralign > t->h.sh_addralign) t->h.sh_addralign = s->sh_addralign;
  if (s->sh_type != SHT_NOBITS) {
    t->data = realloc(t->data, at + s->sh_size + 1);
    memset(t->data + t->h.sh_size, 0, at - t->h.sh_size);
    memcpy(t->data + at, o->p + s->sh_offset, s->sh_size);
  }
  t->h.sh_size = at + s->sh_size;
  o->secmap[i] = k;
  o->delta[i] = at;
}

static int add_sym(Join *j, Elf64_Sym s) {
  j->sym = realloc(j->sym, (j->nsym + 1) * sizeof *j->sym);
  j->sym[j->nsym] = s;
  return (int)j->nsym++;
}

/* Symbol i of o in the output: its section and value moved, its name
 * in the output's strings. */
static Elf64_Sym moved_sym(Join *j, const Obj *o, size_t i) {
  Elf64_Sym s = o->sym[i];
  s.st_name = s.st_name ? add_str(j, o->symstr + s.st_name) : 0;
  if (s.st_shndx != SHN_UNDEF && s.st_shndx < SHN_LORESERVE) {
    s.st_value += o->delta[s.st_shndx];
    s.st_shndx = (Elf64_Half)o->secmap[s.st_shndx];
  }
  return s;
}

static bool defined(const Elf64_Sym *s) { return s->st_shndx != SHN_UNDEF; }
static bool local(const Elf64_Sym *s) { return ELF64_ST_BIND(s->st_info) == STB_LOCAL; }

/* The local symbols: a's, then b's (its file symbol dropped, its section
 * symbols those of the output sections), then b's global definitions
 * made local. */
static void join_locals(Join *j, Obj *a, Obj *b) {
  for (size_t i = 1; i < a->nsym; i++) {
    if (!local(&a->sym[i])) continue;
    a->symmap[i] = add_sym(j, moved_sym(j, a, i));
    if (ELF64_ST_TYPE(a->sym[i].st_info) == STT_SECTION && a->sym[i].st_shndx < SHN_LORESERVE)
      j->sec[a->secmap[a->sym[i].st_shndx]].secsym = a->symmap[i];
  }
  for (size_t i = 1; i < b->nsym; i++) {
    const Elf64_Sym *s = &b->sym[i];
    int type = ELF64_ST_TYPE(s->st_info);
    if (type == STT_FILE || (!local(s) && !defined(s))) continue;
    if (type == STT_SECTION && s->st_shndx < SHN_LORESERVE) {
      OutSec *t = &j->sec[b->secmap[s->st_shndx]];
      if (!t->secsym) t->secsym = add_sym(j, moved_sym(j, b, i));
      j->sym[t->secsym].st_value = 0;
      b->symmap[i] = t->secsym;
      continue;
    }
    Elf64_Sym m = moved_sym(j, b, i);
    m.st_info = ELF64_ST_INFO(STB_LOCAL, type);
    m.st_other = STV_DEFAULT;
    b->symmap[i] = add_sym(j, m);
  }
}

/* The symbol named `name` of o that is (global) or is not (local) local
 * and is defined (def) or any; 0 if none. */
static size_t find_sym(const Obj *o, const char *name, bool global, bool def) {
  for (size_t i = 1; i < o->nsym; i++) {
    const Elf64_Sym *s = &o->sym[i];
    if (local(s) == global || (def && !defined(s))) continue;
    if (local(s) && ELF64_ST_TYPE(s->st_info) >= STT_SECTION) continue;
    if (!strcmp(o->symstr + s->st_name, name)) return i;
  }
  return 0;
}

/* The global symbols: a's (its references to b's definitions resolved),
 * then b's references to what a does not have. */
static void join_globals(Join *j, Obj *a, Obj *b) {
  for (size_t i = 1; i < a->nsym; i++) {
    const Elf64_Sym *s = &a->sym[i];
    if (local(s)) continue;
    size_t d = find_sym(b, a->symstr + s->st_name, true, true);
    if (d && defined(s)) j->err = "a symbol both objects define";
    if (!d && !defined(s) && ELF64_ST_VISIBILITY(s->st_other) == STV_HIDDEN)
      j->err = "a hidden symbol no object defines";
    a->symmap[i] = d ? b->symmap[d] : add_sym(j, moved_sym(j, a, i));
  }
  for (size_t i = 1; i < b->nsym; i++) {
    const Elf64_Sym *s = &b->sym[i];
    if (local(s) || defined(s)) continue;
    const char *name = b->symstr + s->st_name;
    size_t d = find_sym(a, name, true, false);
    if (!d) d = find_sym(a, name, false, true);
    if (d) b->symmap[i] = a->symmap[d];
    else if (ELF64_ST_VISIBILITY(s->st_other) == STV_HIDDEN) j->err = "a hidden symbol no object defines";
    else b->symmap[i] = add_sym(j, moved_sym(j, b, i));
  }
}

/* The relocations of o's section rs added to the output section they
 * apply to. */
static void join_relocs(Join *j, const Obj *o, int rs) {
  const Elf64_Shdr *r = &o->sh[rs];
  if (r->sh_entsize != sizeof(Elf64_Rela) || r->sh_info >= o->h.e_shnum ||
      !is_content(&o->sh[r->sh_info])) {
    j->err = "relocations of an unexpected form";
    return;
  }
  OutSec *t = &j->sec[o->secmap[r->sh_info]];
  size_t n = r->sh_size / sizeof(Elf64_Rela);
  t->rela = realloc(t->rela, (t->nrela + n) * sizeof *t->rela);
  for (size_t k = 0; k < n; k++) {
    Elf64_Rela x;
    memcpy(&x, o->p + r->sh_offset + k * sizeof x, sizeof x);
    size_t si = ELF64_R_SYM(x.r_info);
    if (si >= o->nsym) {
      j->err = "a relocation against no symbol";
      return;
    }
    const Elf64_Sym *s = &o->sym[si];
    if (ELF64_ST_TYPE(s->st_info) == STT_SECTION) x.r_addend += (int64_t)o->delta[s->st_shndx];
    x.r_offset += o->delta[r->sh_info];
    x.r_info = ELF64_R_INFO((uint64_t)o->symmap[si], ELF64_R_TYPE(x.r_info));
    t->rela[t->nrela++] = x;
  }
}

/* The output's headers (its sections' offsets) and bytes. */
static char *join_write(Join *j, const Elf64_Ehdr *ah, size_t *len) {
  int nrel = 0;
  for (int k = 1; k < j->nsec; k++) nrel += j->sec[k].nrela > 0;
  int nout = j->nsec + nrel + 2, symtab = nout - 2, strtab = nout - 1;
  Elf64_Shdr *sh = calloc((size_t)nout, sizeof *sh);
  for (int k = 1, r = j->nsec; k < j->nsec; k++) {
    sh[k] = j->sec[k].h;
    sh[k].sh_name = add_str(j, j->sec[k].name);
    if (!j->sec[k].nrela) continue;
    char *name = malloc(strlen(j->sec[k].name) + sizeof ".rela");
    strcat(strcpy(name, ".rela"), j->sec[k].name);
    sh[r] = (Elf64_Shdr){.sh_name = add_str(j, name), .sh_type = SHT_RELA, .sh_flags = SHF_INFO_LINK,
                         .sh_link = (Elf64_Word)symtab, .sh_info = (Elf64_Word)k,
                         .sh_addralign = 8, .sh_entsize = sizeof(Elf64_Rela),
                         .sh_size = j->sec[k].nrela * sizeof(Elf64_Rela)};
    free(name);
    r++;
  }
  size_t nlocal = 1;
  while (nlocal < j->nsym && local(&j->sym[nlocal])) nlocal++;
  sh[symtab] = (Elf64_Shdr){.sh_name = add_str(j, ".symtab"), .sh_type = SHT_SYMTAB,
                            .sh_link = (Elf64_Word)strtab, .sh_info = (Elf64_Word)nlocal,
                            .sh_addralign = 8, .sh_entsize = sizeof(Elf64_Sym),
                            .sh_size = j->nsym * sizeof(Elf64_Sym)};
  uint32_t strtab_name = add_str(j, ".strtab"); /* before sh_size reads strlen */
  sh[strtab] = (Elf64_Shdr){.sh_name = strtab_name, .sh_type = SHT_STRTAB,
                            .sh_addralign = 1, .sh_size = j->strlen};
  size_t off = sizeof(Elf64_Ehdr);
  for (int k = 1; k < nout; k++) {
    off = align_up(off, sh[k].sh_addralign);
    sh[k].sh_offset = off;
    if (sh[k].sh_type != SHT_NOBITS) off += sh[k].sh_size;
  }
  size_t shoff = align_up(off, 8);
  *len = shoff + (size_t)nout * sizeof *sh;
  char *out = calloc(*len, 1);
  Elf64_Ehdr h = *ah;
  h.e_shoff = shoff;
  h.e_shnum = (Elf64_Half)nout;
  h.e_shstrndx = (Elf64_Half)strtab;
  memcpy(out, &h, sizeof h);
  for (int k = 1, r = j->nsec; k < j->nsec; k++) {
    if (j->sec[k].data) memcpy(out + sh[k].sh_offset, j->sec[k].data, sh[k].sh_size);
    if (!j->sec[k].nrela) continue;
    memcpy(out + sh[r].sh_offset, j->sec[k].rela, sh[r].sh_size);
    r++;
  }
  memcpy(out + sh[symtab].sh_offset, j->sym, sh[symtab].sh_size);
  memcpy(out + sh[strtab].sh_offset, j->str, j->strlen);
  memcpy(out + shoff, sh, (size_t)nout * sizeof *sh);
  free(sh);
  return out;
}

/* The output sections and symbols, then the relocations. */
static void join_build(Join *j, Obj *a, Obj *b) {
  j->nsec = 1;
  j->sec = calloc(1, sizeof *j->sec);
  add_str(j, "");
  add_sym(j, (Elf64_Sym){0});
  for (int i = 1; i < a->h.e_shnum; i++)
    if (is_content(&a->sh[i])) place_section(j, a, i, false);
  for (int i = 1; i < b->h.e_shnum; i++)
    if (is_content(&b->sh[i])) place_section(j, b, i, true);
  join_locals(j, a, b);
  join_globals(j, a, b);
  for (int i = 1; i < a->h.e_shnum && !j->err; i++)
    if (a->sh[i].sh_type == SHT_RELA) join_relocs(j, a, i);
  for (int i = 1; i < b->h.e_shnum && !j->err; i++)
    if (b->sh[i].sh_type == SHT_RELA) join_relocs(j, b, i);
}

const char *cg_elf_join(const char *a, size_t alen, const char *b, size_t blen, char **out,
                        size_t *out_len) {
  Obj oa = {0}, ob = {0};
  Join j = {0};
  j.err = obj_read(&oa, a, alen);
  if (!j.err) j.err = obj_read(&ob, b, blen);
  if (!j.err && oa.h.e_machine != ob.h.e_machine) j.err = "objects for two machines";
  if (!j.err) join_build(&j, &oa, &ob);
  *out = j.err ? NULL : join_write(&j, &oa.h, out_len);
  for (int k = 0; k < j.nsec; k++) {
    free(j.sec[k].data);
    free(j.sec[k].rela);
  }
  free(j.sec);
  free(j.sym);
  free(j.str);
  obj_free(&oa);
  obj_free(&ob);
  return j.err;
}
