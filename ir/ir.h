/*
 * ir.h: the one IR header of shloc. Read this first.
 *
 * A Module holds functions; a function body is a Block of Ops; ops may hold
 * Regions (while/if/case/reduce bodies), each a list of Blocks. Values are SSA:
 * each is either an op result or a block argument. Types are interned per
 * module, so two types are equal iff their pointers are equal.
 *
 * Everything is allocated from the module's Arena and freed as a whole.
 *
 * Attributes come in two layers:
 *  - Attr: the generic tree the parser builds for both the generic form
 *    (`<{...}>`, `{...}`) and the pretty forms (which produce the canonical
 *    attribute names of the generic form). Kept for printing.
 *  - OpAttrs: the typed struct filled from the Attr list once after parsing
 *    (frontend/attrs.c, `attrs_decode`). Passes and codegen only read OpAttrs.
 *
 * Prototypes are grouped by the file that defines them.
 */
#ifndef SHLOC_IR_H
#define SHLOC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------------ */
/* Arena (ir/arena.c)                                                        */

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
  ArenaChunk *head;
} Arena;

void *arena_alloc(Arena *a, size_t n);           /* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...);
void arena_free(Arena *a);
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ------------------------------------------------------------------------ */
/* Source locations and diagnostics (ir/diag.c)                              */

typedef struct SrcFile {
  const char *name; /* as given on the command line */
  const char *text; /* whole file, NUL-terminated */
  size_t len;
} SrcFile;

/* A position in a source file; line and col are 1-based. file may be NULL
 * for ops created by passes without a source position. */
typedef struct Loc {
  const SrcFile *file;
  int line, col;
} Loc;

/* Prints `file:line:col: error: msg`, then the source line and a caret, to
 * stderr (or to the sink installed with diag_set_sink). Counts errors. */
void diag_error(Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void diag_warning(Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void diag_verror(Loc loc, const char *kind, const char *fmt, va_list ap);
int diag_error_count(void);
void diag_reset(void);
/* Redirects diagnostics (used by `shloc check` to keep the first error of a
 * case as the failure reason). NULL restores stderr. */
typedef void (*DiagSink)(void *ctx, const char *text);
void diag_set_sink(DiagSink sink, void *ctx);
/* The largest input file: its text is held in memory whole (diagnostics
 * quote any line), and a compile needs a few times its size more. */
#define SRC_MAX_BYTES ((size_t)512 << 20)
/* Reads a whole file into a new SrcFile (malloc'ed, lives for the process).
 * Returns NULL and prints an error when the file cannot be read or is
 * larger than SRC_MAX_BYTES. */
SrcFile *srcfile_read(const char *path);

/* ------------------------------------------------------------------------ */
/* Element types (ir/types.c)                                                */

/* ELEM(enum, mlir spelling, bits, class, C type for the header, supported)
 * class: 'b' bool, 's' signed int, 'u' unsigned int, 'f' float, 'c' complex.
 * `supported` is 1 where codegen implements the type; the others parse and
 * verify but are rejected by codegen with an "unsupported element type" error. */
#define ELEM_TYPES(X)                                   \
  X(ET_I1, "i1", 1, 'b', "uint8_t", 1)                  \
  X(ET_SI2, "i2", 2, 's', "int8_t", 1)                  \
  X(ET_SI4, "i4", 4, 's', "int8_t", 1)                  \
  X(ET_SI8, "i8", 8, 's', "int8_t", 1)                  \
  X(ET_SI16, "i16", 16, 's', "int16_t", 1)              \
  X(ET_SI32, "i32", 32, 's', "int32_t", 1)              \
  X(ET_SI64, "i64", 64, 's', "int64_t", 1)              \
  X(ET_UI2, "ui2", 2, 'u', "uint8_t", 1)                \
  X(ET_UI4, "ui4", 4, 'u', "uint8_t", 1)                \
  X(ET_UI8, "ui8", 8, 'u', "uint8_t", 1)                \
  X(ET_UI16, "ui16", 16, 'u', "uint16_t", 1)            \
  X(ET_UI32, "ui32", 32, 'u', "uint32_t", 1)            \
  X(ET_UI64, "ui64", 64, 'u', "uint64_t", 1)            \
  X(ET_F4E2M1FN, "f4E2M1FN", 4, 'f', "uint8_t", 1)      \
  X(ET_F6E2M3FN, "f6E2M3FN", 6, 'f', "uint8_t", 1)      \
  X(ET_F6E3M2FN, "f6E3M2FN", 6, 'f', "uint8_t", 1)      \
  X(ET_F8E3M4, "f8E3M4", 8, 'f', "uint8_t", 1)          \
  X(ET_F8E4M3, "f8E4M3", 8, 'f', "uint8_t", 1)          \
  X(ET_F8E4M3FN, "f8E4M3FN", 8, 'f', "uint8_t", 1)      \
  X(ET_F8E4M3FNUZ, "f8E4M3FNUZ", 8, 'f', "uint8_t", 1)  \
  X(ET_F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8, 'f', "uint8_t", 1) \
  X(ET_F8E5M2, "f8E5M2", 8, 'f', "uint8_t", 1)          \
  X(ET_F8E5M2FNUZ, "f8E5M2FNUZ", 8, 'f', "uint8_t", 1)  \
  X(ET_F8E8M0FNU, "f8E8M0FNU", 8, 'f', "uint8_t", 1)    \
  X(ET_BF16, "bf16", 16, 'f', "uint16_t", 1)            \
  X(ET_F16, "f16", 16, 'f', "uint16_t", 1)              \
  X(ET_TF32, "tf32", 19, 'f', "uint32_t", 0)            \
  X(ET_F32, "f32", 32, 'f', "float", 1)                 \
  X(ET_F64, "f64", 64, 'f', "double", 1)                \
  X(ET_C64, "complex<f32>", 64, 'c', "float", 1)        \
  X(ET_C128, "complex<f64>", 128, 'c', "double", 1)     \
  X(ET_INDEX, "index", 64, 's', "int64_t", 0)           \
  X(ET_QUANT, "!quant.uniform", 0, 'q', "", 0)

typedef enum ElemType {
#define X(e, name, bits, cls, ctype, ok) e,
  ELEM_TYPES(X)
#undef X
  ET_COUNT
} ElemType;

const char *elem_name(ElemType e);   /* MLIR spelling */
int elem_bits(ElemType e);           /* logical bit width */
int elem_bytes(ElemType e);          /* storage bytes in buffers (i1: 1) */
char elem_class(ElemType e);         /* 'b','s','u','f','c','q' */
const char *elem_ctype(ElemType e);  /* C type used in the header */
bool elem_supported(ElemType e);     /* codegen implements it */
bool elem_is_int(ElemType e);        /* signed or unsigned integer (not i1) */
bool elem_is_float(ElemType e);
bool elem_is_complex(ElemType e);
/* Looks up an MLIR element type spelling ("f32", "ui8", "i1"...). For
 * "complex<f32>" pass the full spelling. Returns ET_COUNT if unknown. */
ElemType elem_lookup(const char *s, size_t n);

/* Float formats narrower than 16 bits (spec "Element types": the FP8 and MX
 * types). Codegen stores one per byte (the format's bits in the low bits)
 * and computes in f32, rounding back once per op (codegen/minifloat.c).
 * FloatKind says how a format spends its top exponent, as LLVM APFloat's
 * fltNonfiniteBehavior and fltNanEncoding do. */
typedef enum FloatKind {
  FK_IEEE,   /* inf and NaN as in IEEE 754 */
  FK_FN,     /* no inf; NaN = all ones (S.1111.111); overflow gives NaN */
  FK_FNUZ,   /* no inf, no -0; NaN = the sign bit alone (0x80) */
  FK_FINITE, /* no inf, no NaN: overflow saturates */
  FK_E8M0,   /* unsigned powers of two 2^(e - 127), no zero; NaN = 0xFF */
} FloatKind;

/* SMALL_FLOATS(enum, exponent bits, mantissa bits, exponent bias, kind) */
#define SMALL_FLOATS(X)                         \
  X(ET_F4E2M1FN, 2, 1, 1, FK_FINITE)            \
  X(ET_F6E2M3FN, 2, 3, 1, FK_FINITE)            \
  X(ET_F6E3M2FN, 3, 2, 3, FK_FINITE)            \
  X(ET_F8E3M4, 3, 4, 3, FK_IEEE)                \
  X(ET_F8E4M3, 4, 3, 7, FK_IEEE)                \
  X(ET_F8E4M3FN, 4, 3, 7, FK_FN)                \
  X(ET_F8E4M3FNUZ, 4, 3, 8, FK_FNUZ)            \
  X(ET_F8E4M3B11FNUZ, 4, 3, 11, FK_FNUZ)        \
  X(ET_F8E5M2, 5, 2, 15, FK_IEEE)               \
  X(ET_F8E5M2FNUZ, 5, 2, 16, FK_FNUZ)           \
  X(ET_F8E8M0FNU, 8, 0, 127, FK_E8M0)

typedef struct FloatFormat {
  int ebits, mbits, bias;
  FloatKind kind;
} FloatFormat;
/* Fills *f and returns true when e is one of SMALL_FLOATS. */
bool elem_small_float(ElemType e, FloatFormat *f);

/* Quantized element type `!quant.uniform<storage:expressed, scale:zp>`
 * (per-axis when axis >= 0). Parsed, verified and printed; passes/quant.c
 * lowers it to storage integers and float computation before simplify. */
typedef struct QuantInfo {
  ElemType storage, expressed;
  int64_t storage_min, storage_max;
  int axis; /* -1: per-tensor */
  int nscales;
  double *scales;
  int64_t *zero_points;
} QuantInfo;

/* ------------------------------------------------------------------------ */
/* Types (ir/types.c), interned per module: compare with ==                  */

typedef enum TypeKind { TY_TENSOR, TY_TOKEN, TY_TUPLE } TypeKind;

#define DIM_DYNAMIC INT64_MIN /* `?` in a tensor type */

typedef struct Type {
  TypeKind kind;
  /* TY_TENSOR */
  ElemType elem;
  const QuantInfo *quant; /* elem == ET_QUANT */
  int rank;
  const int64_t *dims;
  /* TY_TUPLE */
  int nelems;
  struct Type *const *elems;
} Type;

typedef struct TypeTable TypeTable;

TypeTable *type_table_new(Arena *a);
void type_table_free(TypeTable *t);

/* The most elements a static tensor may have: 2^58, so that byte sizes (at
 * most 16 bytes an element) and sums of a few of them never overflow int64.
 * Whoever makes a tensor type from input (the parser, shape refinement)
 * checks its dims with type_dims_fit first and reports an error;
 * type_tensor asserts it. */
#define TENSOR_MAX_ELEMS ((int64_t)1 << 58)
/* Whether every static dim is in [0, TENSOR_MAX_ELEMS] and their product is
 * at most TENSOR_MAX_ELEMS (DIM_DYNAMIC dims are skipped). */
bool type_dims_fit(int rank, const int64_t *dims);
Type *type_tensor(TypeTable *t, ElemType e, int rank, const int64_t *dims);
Type *type_tensor_quant(TypeTable *t, const QuantInfo *q, int rank,
                        const int64_t *dims);
/* Same quantization parameters (QuantInfo need not be interned). */
bool quant_info_equal(const QuantInfo *a, const QuantInfo *b);
Type *type_token(TypeTable *t);
Type *type_tuple(TypeTable *t, int n, Type *const *elems);
/* Same shape, another element type. */
Type *type_with_elem(TypeTable *t, const Type *ty, ElemType e);
int64_t type_num_elems(const Type *ty);  /* tensor; -1 if dynamic */
int64_t type_byte_size(const Type *ty);  /* tensor; -1 if dynamic */
bool type_is_static(const Type *ty);
bool type_is_tensor(const Type *ty);
/* Writes the MLIR spelling, e.g. "tensor<2x3xf32>". */
void type_print(FILE *f, const Type *ty);
char *type_str(Arena *a, const Type *ty);

/* ------------------------------------------------------------------------ */
/* Generic attributes (built by the parser, printed by the printer)          */

typedef enum AttrKind {
  AT_UNIT,        /* a name with no value: `{has_side_effect}` */
  AT_BOOL,        /* true / false */
  AT_INT,         /* 1 : i64 */
  AT_FLOAT,       /* 1.0 : f32 */
  AT_STRING,      /* "..." */
  AT_TYPE,        /* a type used as attribute */
  AT_SYMBOL,      /* @name (nested refs @a::@b keep the whole text) */
  AT_ARRAY,       /* [a, b, ...] */
  AT_DENSE_ARRAY, /* array<i64: 1, 2> (also i1 / bool arrays) */
  AT_DENSE,       /* dense<...> : tensor<...>, dense_resource<...> */
  AT_DICT,        /* {a = ..., b = ...} */
  AT_ENUM,        /* #stablehlo<comparison_direction EQ>,
                     #stablehlo.comparison_direction<EQ>: dialect name in
                     `name`, value spelled in `str` */
  AT_STRUCT,      /* #stablehlo.gather<k = v, ...>, #stablehlo.conv<...>,
                     #stablehlo.dot<...>, #stablehlo.scatter<...>,
                     #stablehlo.channel_handle<...> ...: `name` is the
                     struct's name ("gather"), fields in `dict` */
  AT_OTHER,       /* anything else kept verbatim (e.g. #loc, opaque
                     dialect attributes) in `str` */
} AttrKind;

typedef struct Attr Attr;
typedef struct NamedAttr {
  const char *name;
  Attr *value;
} NamedAttr;

typedef struct DenseData DenseData;

struct Attr {
  AttrKind kind;
  bool bval;
  int64_t ival;
  double fval;
  const char *str;  /* AT_STRING (unescaped), AT_SYMBOL, AT_ENUM value, AT_OTHER */
  const char *name; /* AT_ENUM / AT_STRUCT: e.g. "comparison_direction" */
  Type *type;       /* AT_TYPE, the `: type` of AT_INT/AT_FLOAT, AT_DENSE's type */
  ElemType array_elem; /* AT_DENSE_ARRAY element type */
  int n;            /* AT_ARRAY / AT_DENSE_ARRAY / AT_DICT / AT_STRUCT count */
  Attr **items;     /* AT_ARRAY */
  int64_t *ints;    /* AT_DENSE_ARRAY values (bools as 0/1, floats unsupported) */
  NamedAttr *fields;/* AT_DICT / AT_STRUCT */
  DenseData *dense; /* AT_DENSE */
};

/* Elements of a dense literal, stored as they lie in a buffer: row-major,
 * each element in elem_bytes() bytes, little-endian, i1 as 0/1 bytes,
 * f16/bf16 as their 16-bit patterns, sub-byte integers sign/zero-extended
 * to one byte. A splat stores one element. `elided` marks
 * `dense_resource<__elided__>`, already filled by the frontend. */
struct DenseData {
  const Type *type;
  bool splat;
  bool elided;
  const char *resource; /* dense_resource key, NULL otherwise */
  size_t nbytes;
  uint8_t *bytes;
};

/* Reads element i of a dense literal (handles splats) as double / int64. */
double dense_get_f64(const DenseData *d, int64_t i);
int64_t dense_get_i64(const DenseData *d, int64_t i);

/* ------------------------------------------------------------------------ */
/* Typed attributes (filled by frontend/attrs.c)                             */

typedef enum CmpDir { CMP_EQ, CMP_NE, CMP_GE, CMP_GT, CMP_LE, CMP_LT } CmpDir;
typedef enum CmpType {
  CMPT_NOTYPE, CMPT_FLOAT, CMPT_TOTALORDER, CMPT_SIGNED, CMPT_UNSIGNED
} CmpType;

typedef struct I64List {
  int n;
  int64_t *v;
} I64List;

/* dot_general (spec: dot_general). */
typedef struct DotDims {
  I64List lhs_batch, rhs_batch, lhs_contract, rhs_contract;
  int precision[2]; /* Precision enum values; ignored by codegen */
} DotDims;

/* convolution (spec: convolution). Spatial dims listed in order. */
typedef struct ConvDims {
  int64_t in_batch, in_feature;
  I64List in_spatial;
  int64_t k_in_feature, k_out_feature;
  I64List k_spatial;
  int64_t out_batch, out_feature;
  I64List out_spatial;
} ConvDims;

/* gather (spec: gather). */
typedef struct GatherDims {
  I64List offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  int64_t index_vector_dim;
  I64List slice_sizes;
  bool indices_are_sorted;
} GatherDims;

/* scatter (spec: scatter). */
typedef struct ScatterDims {
  I64List update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
  bool indices_are_sorted, unique_indices;
} ScatterDims;

/* A window of reduce_window / select_and_scatter / convolution. Arrays have
 * one entry per windowed dimension; absent attributes get their spec
 * defaults (strides 1, padding 0, dilations 1, reversal false). */
typedef struct Window {
  I64List dims;               /* window_dimensions (reduce_window) */
  I64List strides;
  I64List pad_lo, pad_hi;
  I64List base_dilations;     /* lhs_dilation for convolution */
  I64List window_dilations;   /* rhs_dilation for convolution */
  I64List reversal;           /* 0/1 */
} Window;

typedef struct OpAttrs {
  /* a list-valued attribute whose meaning depends on the op:
   * broadcast_in_dim: broadcast_dimensions; transpose: permutation;
   * reduce/reverse: dimensions; slice: start_indices (limit/strides below);
   * dynamic_slice: slice_sizes; pad: edge_padding_low (high/interior below);
   * sort: -; concatenate/iota/get_dimension_size/all_gather...: see `dim` */
  I64List dims;
  I64List limits, strides;       /* slice */
  I64List pad_hi, pad_interior;  /* pad */
  int64_t dim;        /* concatenate/iota/sort/all_gather/reduce_scatter dimension,
                         get_tuple_element index */
  CmpDir cmp;         /* compare */
  CmpType cmp_type;   /* compare (CMPT_NOTYPE when absent) */
  DotDims dot;        /* dot_general (dot is legalized to dot_general) */
  ConvDims conv;      /* convolution */
  Window window;      /* reduce_window, select_and_scatter, convolution */
  int64_t feature_group_count, batch_group_count; /* convolution */
  GatherDims gather;  /* gather, dynamic_gather */
  ScatterDims scatter;/* scatter */
  const DenseData *value; /* constant */
  const char *callee; /* func.call callee; custom_call call_target_name */
  bool is_stable;       /* sort */
  int64_t exponent_bits, mantissa_bits; /* reduce_precision */
  int rounding;       /* round ops, rng_bit_generator algorithm, rng distribution,
                         fft type ... (enum value spelled in the spec order) */
  I64List fft_length;
  bool left_side, lower, unit_diagonal; /* triangular_solve (transpose_a in
                                           `rounding`), cholesky (lower) */
  double tolerance;   /* check.expect_almost_eq (default 1e-4) */
  int64_t max_ulp, min_ulp; /* check.expect_close */
  const char *probe_id; /* interpreter.probe, check.expect_serialized_eq */
  int64_t probe_iter;   /* check.expect_serialized_eq: which recording (0) */
} OpAttrs;

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

/* OP(enum, name, flags). `name` is the generic-form spelling. The frontend
 * recognizes every op of the spec; codegen implements those with the
 * OPF_IMPL flag and reports the others as unsupported. Flags: */
enum {
  OPF_UNARY = 1 << 0,      /* elementwise, one operand */
  OPF_BINARY = 1 << 1,     /* elementwise, two operands */
  OPF_TERNARY = 1 << 2,    /* elementwise, three operands (select, clamp) */
  OPF_TERMINATOR = 1 << 3, /* ends a block */
  OPF_IMPL = 1 << 4,       /* compiled: by codegen, or rewritten into ops that
                              are before codegen (dot, func.call, tuples,
                              optimization_barrier) */
  OPF_CHECK = 1 << 5,      /* a check.* op of the conformance protocol */
  OPF_EXPENSIVE = 1 << 6,  /* elementwise but costly: never duplicated by fusion */
};

#define OPS(X)                                                                \
  X(OP_ABS, "stablehlo.abs", OPF_UNARY | OPF_IMPL)                            \
  X(OP_ADD, "stablehlo.add", OPF_BINARY | OPF_IMPL)                           \
  X(OP_AFTER_ALL, "stablehlo.after_all", 0)                                   \
  X(OP_ALL_GATHER, "stablehlo.all_gather", 0)                                 \
  X(OP_ALL_REDUCE, "stablehlo.all_reduce", 0)                                 \
  X(OP_ALL_TO_ALL, "stablehlo.all_to_all", 0)                                 \
  X(OP_AND, "stablehlo.and", OPF_BINARY | OPF_IMPL)                           \
  X(OP_ATAN2, "stablehlo.atan2", OPF_BINARY | OPF_IMPL | OPF_EXPENSIVE)       \
  X(OP_BATCH_NORM_GRAD, "stablehlo.batch_norm_grad", 0)                       \
  X(OP_BATCH_NORM_INFERENCE, "stablehlo.batch_norm_inference", 0)             \
  X(OP_BATCH_NORM_TRAINING, "stablehlo.batch_norm_training", 0)               \
  X(OP_BITCAST_CONVERT, "stablehlo.bitcast_convert", OPF_IMPL)                \
  X(OP_BROADCAST_IN_DIM, "stablehlo.broadcast_in_dim", OPF_IMPL)              \
  X(OP_BROADCAST, "stablehlo.broadcast", 0)                                   \
  X(OP_CASE, "stablehlo.case", OPF_IMPL)                                      \
  X(OP_CBRT, "stablehlo.cbrt", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)          \
  X(OP_CEIL, "stablehlo.ceil", OPF_UNARY | OPF_IMPL)                          \
  X(OP_CHOLESKY, "stablehlo.cholesky", OPF_IMPL)                              \
  X(OP_CLAMP, "stablehlo.clamp", OPF_TERNARY | OPF_IMPL)                      \
  X(OP_COLLECTIVE_BROADCAST, "stablehlo.collective_broadcast", 0)             \
  X(OP_COLLECTIVE_PERMUTE, "stablehlo.collective_permute", 0)                 \
  X(OP_COMPARE, "stablehlo.compare", OPF_BINARY | OPF_IMPL)                   \
  X(OP_COMPLEX, "stablehlo.complex", OPF_BINARY | OPF_IMPL)                  \
  X(OP_COMPOSITE, "stablehlo.composite", 0)                                   \
  X(OP_CONCATENATE, "stablehlo.concatenate", OPF_IMPL)                        \
  X(OP_CONSTANT, "stablehlo.constant", OPF_IMPL)                              \
  X(OP_CONVERT, "stablehlo.convert", OPF_UNARY | OPF_IMPL)                    \
  X(OP_CONVOLUTION, "stablehlo.convolution", OPF_IMPL)                        \
  X(OP_COSINE, "stablehlo.cosine", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)      \
  X(OP_COUNT_LEADING_ZEROS, "stablehlo.count_leading_zeros", OPF_UNARY | OPF_IMPL) \
  X(OP_CREATE_TOKEN, "stablehlo.create_token", 0)                             \
  X(OP_CUSTOM_CALL, "stablehlo.custom_call", 0)                               \
  X(OP_DIVIDE, "stablehlo.divide", OPF_BINARY | OPF_IMPL)                     \
  X(OP_DOT, "stablehlo.dot", OPF_IMPL)                                        \
  X(OP_DOT_GENERAL, "stablehlo.dot_general", OPF_IMPL)                        \
  X(OP_DYNAMIC_BROADCAST_IN_DIM, "stablehlo.dynamic_broadcast_in_dim", 0)     \
  X(OP_DYNAMIC_CONV, "stablehlo.dynamic_conv", 0)                             \
  X(OP_DYNAMIC_GATHER, "stablehlo.dynamic_gather", 0)                         \
  X(OP_DYNAMIC_IOTA, "stablehlo.dynamic_iota", 0)                             \
  X(OP_DYNAMIC_PAD, "stablehlo.dynamic_pad", 0)                               \
  X(OP_DYNAMIC_RESHAPE, "stablehlo.dynamic_reshape", 0)                       \
  X(OP_DYNAMIC_SLICE, "stablehlo.dynamic_slice", OPF_IMPL)                    \
  X(OP_DYNAMIC_UPDATE_SLICE, "stablehlo.dynamic_update_slice", OPF_IMPL)      \
  X(OP_EINSUM, "stablehlo.einsum", 0)                                         \
  X(OP_EXPONENTIAL, "stablehlo.exponential", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE) \
  X(OP_EXPONENTIAL_MINUS_ONE, "stablehlo.exponential_minus_one", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE) \
  X(OP_FFT, "stablehlo.fft", OPF_IMPL)                                        \
  X(OP_FLOOR, "stablehlo.floor", OPF_UNARY | OPF_IMPL)                        \
  X(OP_GATHER, "stablehlo.gather", OPF_IMPL)                                  \
  X(OP_GET_DIMENSION_SIZE, "stablehlo.get_dimension_size", 0)                 \
  X(OP_GET_TUPLE_ELEMENT, "stablehlo.get_tuple_element", OPF_IMPL)            \
  X(OP_IF, "stablehlo.if", OPF_IMPL)                                          \
  X(OP_IMAG, "stablehlo.imag", OPF_UNARY | OPF_IMPL)                         \
  X(OP_INFEED, "stablehlo.infeed", 0)                                         \
  X(OP_IOTA, "stablehlo.iota", OPF_IMPL)                                      \
  X(OP_IS_FINITE, "stablehlo.is_finite", OPF_UNARY | OPF_IMPL)                \
  X(OP_LOG, "stablehlo.log", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)            \
  X(OP_LOG_PLUS_ONE, "stablehlo.log_plus_one", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE) \
  X(OP_LOGISTIC, "stablehlo.logistic", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)  \
  X(OP_MAP, "stablehlo.map", OPF_IMPL)                                        \
  X(OP_MAXIMUM, "stablehlo.maximum", OPF_BINARY | OPF_IMPL)                   \
  X(OP_MINIMUM, "stablehlo.minimum", OPF_BINARY | OPF_IMPL)                   \
  X(OP_MULTIPLY, "stablehlo.multiply", OPF_BINARY | OPF_IMPL)                 \
  X(OP_NEGATE, "stablehlo.negate", OPF_UNARY | OPF_IMPL)                      \
  X(OP_NOT, "stablehlo.not", OPF_UNARY | OPF_IMPL)                            \
  X(OP_OPTIMIZATION_BARRIER, "stablehlo.optimization_barrier", OPF_IMPL)      \
  X(OP_OR, "stablehlo.or", OPF_BINARY | OPF_IMPL)                             \
  X(OP_OUTFEED, "stablehlo.outfeed", 0)                                       \
  X(OP_PAD, "stablehlo.pad", OPF_IMPL)                                        \
  X(OP_PARTITION_ID, "stablehlo.partition_id", 0)                             \
  X(OP_POPCNT, "stablehlo.popcnt", OPF_UNARY | OPF_IMPL)                      \
  X(OP_POWER, "stablehlo.power", OPF_BINARY | OPF_IMPL | OPF_EXPENSIVE)       \
  X(OP_REAL, "stablehlo.real", OPF_UNARY | OPF_IMPL)                         \
  X(OP_REAL_DYNAMIC_SLICE, "stablehlo.real_dynamic_slice", 0)                 \
  X(OP_RECV, "stablehlo.recv", 0)                                             \
  X(OP_REDUCE, "stablehlo.reduce", OPF_IMPL)                                  \
  X(OP_REDUCE_PRECISION, "stablehlo.reduce_precision", OPF_UNARY | OPF_IMPL)  \
  X(OP_REDUCE_SCATTER, "stablehlo.reduce_scatter", 0)                         \
  X(OP_REDUCE_WINDOW, "stablehlo.reduce_window", OPF_IMPL)                    \
  X(OP_REMAINDER, "stablehlo.remainder", OPF_BINARY | OPF_IMPL)               \
  X(OP_REPLICA_ID, "stablehlo.replica_id", 0)                                 \
  X(OP_RESHAPE, "stablehlo.reshape", OPF_IMPL)                                \
  X(OP_RETURN, "stablehlo.return", OPF_TERMINATOR | OPF_IMPL)                 \
  X(OP_REVERSE, "stablehlo.reverse", OPF_IMPL)                                \
  X(OP_RNG, "stablehlo.rng", 0)                                               \
  X(OP_RNG_BIT_GENERATOR, "stablehlo.rng_bit_generator", OPF_IMPL)            \
  X(OP_ROUND_NEAREST_AFZ, "stablehlo.round_nearest_afz", OPF_UNARY | OPF_IMPL) \
  X(OP_ROUND_NEAREST_EVEN, "stablehlo.round_nearest_even", OPF_UNARY | OPF_IMPL) \
  X(OP_RSQRT, "stablehlo.rsqrt", OPF_UNARY | OPF_IMPL)                        \
  X(OP_SCATTER, "stablehlo.scatter", OPF_IMPL)                                \
  X(OP_SELECT, "stablehlo.select", OPF_TERNARY | OPF_IMPL)                    \
  X(OP_SELECT_AND_SCATTER, "stablehlo.select_and_scatter", OPF_IMPL)          \
  X(OP_SEND, "stablehlo.send", 0)                                             \
  X(OP_SET_DIMENSION_SIZE, "stablehlo.set_dimension_size", 0)                 \
  X(OP_SHIFT_LEFT, "stablehlo.shift_left", OPF_BINARY | OPF_IMPL)             \
  X(OP_SHIFT_RIGHT_ARITHMETIC, "stablehlo.shift_right_arithmetic", OPF_BINARY | OPF_IMPL) \
  X(OP_SHIFT_RIGHT_LOGICAL, "stablehlo.shift_right_logical", OPF_BINARY | OPF_IMPL) \
  X(OP_SIGN, "stablehlo.sign", OPF_UNARY | OPF_IMPL)                          \
  X(OP_SINE, "stablehlo.sine", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)          \
  X(OP_SLICE, "stablehlo.slice", OPF_IMPL)                                    \
  X(OP_SORT, "stablehlo.sort", OPF_IMPL)                                      \
  X(OP_SQRT, "stablehlo.sqrt", OPF_UNARY | OPF_IMPL)                          \
  X(OP_SUBTRACT, "stablehlo.subtract", OPF_BINARY | OPF_IMPL)                 \
  X(OP_TAN, "stablehlo.tan", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)            \
  X(OP_TANH, "stablehlo.tanh", OPF_UNARY | OPF_IMPL | OPF_EXPENSIVE)          \
  X(OP_TORCH_INDEX_SELECT, "stablehlo.torch_index_select", 0)                 \
  X(OP_TRANSPOSE, "stablehlo.transpose", OPF_IMPL)                            \
  X(OP_TRIANGULAR_SOLVE, "stablehlo.triangular_solve", OPF_IMPL)              \
  X(OP_TUPLE, "stablehlo.tuple", OPF_IMPL)                                    \
  X(OP_UNARY_EINSUM, "stablehlo.unary_einsum", 0)                             \
  X(OP_UNIFORM_DEQUANTIZE, "stablehlo.uniform_dequantize", 0)                 \
  X(OP_UNIFORM_QUANTIZE, "stablehlo.uniform_quantize", 0)                     \
  X(OP_WHILE, "stablehlo.while", OPF_IMPL)                                    \
  X(OP_XOR, "stablehlo.xor", OPF_BINARY | OPF_IMPL)                           \
  X(OP_FUNC_CALL, "func.call", OPF_IMPL)                                      \
  X(OP_FUNC_RETURN, "func.return", OPF_TERMINATOR | OPF_IMPL)                 \
  X(OP_CHECK_EXPECT_EQ, "check.expect_eq", OPF_CHECK | OPF_IMPL)              \
  X(OP_CHECK_EXPECT_EQ_CONST, "check.expect_eq_const", OPF_CHECK | OPF_IMPL)  \
  X(OP_CHECK_EXPECT_ALMOST_EQ, "check.expect_almost_eq", OPF_CHECK | OPF_IMPL) \
  X(OP_CHECK_EXPECT_ALMOST_EQ_CONST, "check.expect_almost_eq_const", OPF_CHECK | OPF_IMPL) \
  X(OP_CHECK_EXPECT_CLOSE, "check.expect_close", OPF_CHECK | OPF_IMPL)        \
  X(OP_CHECK_EQ, "check.eq", OPF_CHECK | OPF_IMPL) /* custom_call @check.eq */ \
  X(OP_CHECK_EXPECT_SERIALIZED_EQ, "check.expect_serialized_eq", OPF_CHECK | OPF_IMPL) \
  X(OP_INTERPRETER_RUN_PARALLEL, "interpreter.run_parallel", 0)               \
  X(OP_INTERPRETER_PRINT, "interpreter.print", 0)                             \
  X(OP_INTERPRETER_PROBE, "interpreter.probe", OPF_IMPL)                      \
  /* CHLO ops, decomposed into StableHLO by passes/chlo.c right after         \
   * inline: codegen never sees them. is_inf & co. (i1 results) and the       \
   * broadcast_* ops (operands of different shapes) are not OPF_UNARY or      \
   * OPF_BINARY, whose verifier rules would reject them. */                   \
  X(OP_CHLO_ACOS, "chlo.acos", OPF_UNARY)                                     \
  X(OP_CHLO_ACOSH, "chlo.acosh", OPF_UNARY)                                   \
  X(OP_CHLO_ASIN, "chlo.asin", OPF_UNARY)                                     \
  X(OP_CHLO_ASINH, "chlo.asinh", OPF_UNARY)                                   \
  X(OP_CHLO_ATAN, "chlo.atan", OPF_UNARY)                                     \
  X(OP_CHLO_ATANH, "chlo.atanh", OPF_UNARY)                                   \
  X(OP_CHLO_BESSEL_I1E, "chlo.bessel_i1e", OPF_UNARY)                         \
  X(OP_CHLO_CONJ, "chlo.conj", OPF_UNARY)                                     \
  X(OP_CHLO_COSH, "chlo.cosh", OPF_UNARY)                                     \
  X(OP_CHLO_DIGAMMA, "chlo.digamma", OPF_UNARY)                               \
  X(OP_CHLO_ERF, "chlo.erf", OPF_UNARY)                                       \
  X(OP_CHLO_ERF_INV, "chlo.erf_inv", OPF_UNARY)                               \
  X(OP_CHLO_ERFC, "chlo.erfc", OPF_UNARY)                                     \
  X(OP_CHLO_LGAMMA, "chlo.lgamma", OPF_UNARY)                                 \
  X(OP_CHLO_SINH, "chlo.sinh", OPF_UNARY)                                     \
  X(OP_CHLO_TAN, "chlo.tan", OPF_UNARY)                                       \
  X(OP_CHLO_IS_INF, "chlo.is_inf", 0)                                         \
  X(OP_CHLO_IS_NEG_INF, "chlo.is_neg_inf", 0)                                 \
  X(OP_CHLO_IS_POS_INF, "chlo.is_pos_inf", 0)                                 \
  X(OP_CHLO_MULHI, "chlo.mulhi", OPF_BINARY)                                  \
  X(OP_CHLO_NEXT_AFTER, "chlo.next_after", OPF_BINARY)                        \
  X(OP_CHLO_POLYGAMMA, "chlo.polygamma", OPF_BINARY)                          \
  X(OP_CHLO_ZETA, "chlo.zeta", OPF_BINARY)                                    \
  X(OP_CHLO_CONSTANT, "chlo.constant", 0)                                     \
  X(OP_CHLO_CONSTANT_LIKE, "chlo.constant_like", 0)                           \
  X(OP_CHLO_TOP_K, "chlo.top_k", 0)                                           \
  X(OP_CHLO_SCAN, "chlo.scan", 0)                                             \
  X(OP_CHLO_RAGGED_DOT, "chlo.ragged_dot", 0)                                 \
  X(OP_CHLO_BROADCAST_ADD, "chlo.broadcast_add", 0)                           \
  X(OP_CHLO_BROADCAST_AND, "chlo.broadcast_and", 0)                           \
  X(OP_CHLO_BROADCAST_ATAN2, "chlo.broadcast_atan2", 0)                       \
  X(OP_CHLO_BROADCAST_COMPARE, "chlo.broadcast_compare", 0)                   \
  X(OP_CHLO_BROADCAST_COMPLEX, "chlo.broadcast_complex", 0)                   \
  X(OP_CHLO_BROADCAST_DIVIDE, "chlo.broadcast_divide", 0)                     \
  X(OP_CHLO_BROADCAST_MAXIMUM, "chlo.broadcast_maximum", 0)                   \
  X(OP_CHLO_BROADCAST_MINIMUM, "chlo.broadcast_minimum", 0)                   \
  X(OP_CHLO_BROADCAST_MULTIPLY, "chlo.broadcast_multiply", 0)                 \
  X(OP_CHLO_BROADCAST_NEXT_AFTER, "chlo.broadcast_next_after", 0)             \
  X(OP_CHLO_BROADCAST_OR, "chlo.broadcast_or", 0)                             \
  X(OP_CHLO_BROADCAST_POLYGAMMA, "chlo.broadcast_polygamma", 0)               \
  X(OP_CHLO_BROADCAST_POWER, "chlo.broadcast_power", 0)                       \
  X(OP_CHLO_BROADCAST_REMAINDER, "chlo.broadcast_remainder", 0)               \
  X(OP_CHLO_BROADCAST_SELECT, "chlo.broadcast_select", 0)                     \
  X(OP_CHLO_BROADCAST_SHIFT_LEFT, "chlo.broadcast_shift_left", 0)             \
  X(OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, "chlo.broadcast_shift_right_arithmetic", 0) \
  X(OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, "chlo.broadcast_shift_right_logical", 0) \
  X(OP_CHLO_BROADCAST_SUBTRACT, "chlo.broadcast_subtract", 0)                 \
  X(OP_CHLO_BROADCAST_XOR, "chlo.broadcast_xor", 0)                           \
  X(OP_CHLO_BROADCAST_ZETA, "chlo.broadcast_zeta", 0)

typedef enum OpCode {
#define X(e, name, flags) e,
  OPS(X)
#undef X
  OP_COUNT
} OpCode;

const char *op_name(OpCode c);
unsigned op_flags(OpCode c);
/* Finds an op by generic name ("stablehlo.add", "func.call", ...). Also
 * accepts the short pretty names `call` and `return` (func dialect). Returns
 * OP_COUNT if unknown. */
OpCode op_lookup(const char *name, size_t n);

typedef struct Op Op;
typedef struct Block Block;
typedef struct Region Region;
typedef struct Func Func;

/* How a value is stored after the buffers pass. */
typedef enum Storage {
  ST_NONE,   /* not materialized: computed inside its consumers (fused) */
  ST_ARG,    /* an entry argument: read-only caller memory */
  ST_RESULT, /* written directly into the caller's result buffer */
  ST_TEMP,   /* the temp arena at `offset` */
  ST_CONST,  /* a read-only constant in the object */
} Storage;

typedef struct Value {
  Type *type;
  Op *def;        /* defining op, NULL for a block argument */
  Block *block;   /* block argument: its block */
  int index;      /* result index in def, or argument index in block */
  int id;         /* unique in the function, for printing */
  const char *name; /* source name without `%` (may be NULL) */
  int nuses;      /* maintained by ir_recount_uses */
  /* filled by the buffers pass */
  Storage storage;
  int64_t offset;   /* ST_TEMP: byte offset in the arena; ST_ARG/ST_RESULT: index */
} Value;

struct Block {
  int nargs;
  Value **args;
  Op *first, *last;
  Region *parent;
};

struct Region {
  int nblocks;
  Block **blocks;
  Op *parent;
};

struct Op {
  OpCode code;
  Loc loc;
  int nopnds;
  Value **opnds;
  int nresults;
  Value **results;
  int nregions;
  Region **regions;
  int nattrs;
  NamedAttr *attrs; /* generic attributes (properties and attr-dict merged) */
  OpAttrs a;        /* typed attributes, filled by attrs_decode */
  Block *parent;
  Op *prev, *next;
  /* filled by passes */
  bool fused;       /* computed inside its consumers (no own kernel) */
  bool alias;       /* a reshape whose result shares its operand's buffer
                       (buffers pass): no kernel, no copy */
  int kernel;       /* for dumps: the kernel it belongs to, numbered from 1
                       in program order by the fuse pass */
};

struct Func {
  const char *name;
  bool is_public;
  Loc loc;
  int nresults;
  Type **result_types;
  NamedAttr **arg_attrs;  /* per argument, may be NULL */
  int *narg_attrs;
  Block *body;            /* args are the function arguments */
  int next_value_id;
  /* filled by the buffers pass */
  int64_t temp_bytes;
};

typedef struct Module {
  Arena arena;
  TypeTable *types;
  const char *name;    /* `module @name`, NULL if absent */
  int nfuncs;
  Func **funcs;
  int nattrs;
  NamedAttr *attrs;    /* module attributes */
  Loc loc;
} Module;

/* ------------------------------------------------------------------------ */
/* Construction and queries (ir/ir.c)                                        */

Module *ir_module_new(void);
void ir_module_free(Module *m);
Func *ir_func_new(Module *m, const char *name, Loc loc);
void ir_module_add_func(Module *m, Func *f);
Func *ir_module_find_func(Module *m, const char *name);
void ir_module_remove_func(Module *m, Func *f);

Block *ir_block_new(Module *m, int nargs, Type *const *argtypes);
Region *ir_region_new(Module *m, int nblocks);
Value *ir_value_new(Module *m, Type *t);
/* Creates an op with `nresults` result values of the given types; operands
 * and regions are filled by the caller (arrays allocated here). */
Op *ir_op_new(Module *m, OpCode code, Loc loc, int nopnds, Value *const *opnds,
              int nresults, Type *const *result_types, int nregions);
void ir_block_append(Block *b, Op *op);
void ir_block_insert_before(Block *b, Op *before, Op *op);
void ir_block_remove(Block *b, Op *op);
/* Replaces every use of `from` in `f` (regions included) by `to`. */
void ir_replace_uses(Func *f, Value *from, Value *to);
/* Recomputes Value.nuses over the function (regions included). */
void ir_recount_uses(Func *f);
/* Numbers values (Value.id) in program order. */
void ir_number_values(Func *f);
/* Calls fn on every op of f in program order, nested regions included
 * (an op before the ops of its regions). */
void ir_walk(Func *f, void (*fn)(Op *op, void *ctx), void *ctx);
/* A snapshot of ops, for passes that rewrite while they iterate. */
typedef struct OpList {
  Op **v;
  int n, cap;
} OpList;
/* Appends every op of f in ir_walk order to l (free l->v with free()). */
void ir_collect_ops(Func *f, OpList *l);
/* The terminator of a block (last op), or NULL. */
Op *ir_block_terminator(Block *b);
/* Reports `op-name: message` at the op's location (diag_error). */
void ir_op_error(const Op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ir_op_verror(const Op *op, const char *fmt, va_list ap);
/* Looks up a generic attribute by name, NULL if absent. */
Attr *ir_attr(const Op *op, const char *name);
void ir_set_attr(Module *m, Op *op, const char *name, Attr *value);

/* ------------------------------------------------------------------------ */
/* Printer (ir/print.c): valid MLIR text in generic op form                  */

void ir_print_module(FILE *f, Module *m);
void ir_print_attr(FILE *f, const Attr *a);

/* ------------------------------------------------------------------------ */
/* Frontend (frontend/)                                                      */

typedef enum ElidedFill { ELIDED_ZEROS, ELIDED_ONES, ELIDED_PATTERN } ElidedFill;

typedef struct ParseOptions {
  ElidedFill elided;   /* how dense_resource<__elided__> is filled */
} ParseOptions;

/* Parses the text of `file` between byte offsets [begin, end) (the whole
 * file: 0, file->len) as one module: `module @name attributes {...} {...}`
 * or bare top-level functions. Locations refer to the whole file. Decodes
 * typed attributes. Returns NULL after printing diagnostics. */
Module *parse_module(const SrcFile *file, size_t begin, size_t end,
                     const ParseOptions *opts);
/* Fills op->a from op->attrs (frontend/attrs.c); 0 on success, else prints
 * an error at the op's location and returns -1. */
int attrs_decode(Module *m, Op *op);

/* ------------------------------------------------------------------------ */
/* Passes (passes/), run in this order by driver_compile (tools/driver.c).   */

typedef struct CompileOptions {
  int opt_level;        /* 0..3; 0 disables fusion */
  const char *triple;   /* NULL: host */
  const char *cpu;      /* NULL: host */
  const char *features; /* NULL: host */
  const char *prefix;   /* C prefix of entry points */
  const char *entry;    /* NULL: every public function */
  int threads;          /* 1: no threading */
  bool packed_entry;    /* also emit `int P_F__packed(void **args)` for run/check/bench */
  bool allow_checks;    /* check.* ops and custom_call @check.* allowed (shloc check) */
  const char *dump_after; /* pass name or NULL */
  const char *stop_after; /* pass name or NULL: end the pipeline there */
  bool time_passes;
} CompileOptions;

int pass_verify(Module *m);                         /* passes/verify.c */
int pass_inline(Module *m);                         /* passes/inline.c */
int pass_decompose_chlo(Module *m);                 /* passes/chlo.c */
int pass_refine_shapes(Module *m, const CompileOptions *o); /* passes/refine_shapes.c */
int pass_legalize(Module *m, const CompileOptions *o); /* passes/legalize.c */
int pass_lower_quant(Module *m);                    /* passes/quant.c */
int pass_simplify(Module *m);                       /* passes/simplify.c */
int pass_fuse(Module *m, const CompileOptions *o);  /* passes/fuse.c */
int pass_buffers(Module *m, const CompileOptions *o); /* passes/buffers.c */
/* Each returns 0 on success or a non-zero count of errors (diagnosed). */

/* ------------------------------------------------------------------------ */
/* Helpers shared by passes and codegen (ir/ir.c)                            */

/* The op classes shared by fuse, buffers and codegen:
 * control flow with kernel blocks (while/if/case); ops whose regions are
 * scalar computations (reduce bodies, comparators ...); ops that codegen
 * emits in the entry function rather than as a kernel (control flow,
 * checks, terminators, calls, tuples, custom calls); and kernel roots (the
 * rest, when neither fused nor a constant). */
bool ir_is_region_op(OpCode c);
bool ir_has_scalar_regions(const Op *op);
bool ir_is_control_op(OpCode c);
bool ir_is_kernel_root(const Op *op);

/* Row-major strides in elements of a static tensor type. */
void ir_strides(const Type *t, int64_t *strides);
bool ir_is_elementwise(OpCode c);

#endif
