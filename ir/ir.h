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
/* Growable arrays: returns data, or a copy with twice the capacity (*cap
 * updated) when n elements fill it. The old copy stays in the arena. */
void *arena_grow(Arena *a, void *data, int n, int *cap, size_t elem);
void arena_free(Arena *a);
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ------------------------------------------------------------------------ */
/* Source locations and diagnostics (ir/diag.c)                              */

typedef struct SrcFile {
  const char *name; /* as given on the command line */
  const char *text; /* whole file, NUL-terminated */
  size_t len;
  bool binary;      /* MLIR bytecode (its magic, or a NUL byte in its
                       first 4 KiB: never text): its locations are byte
                       offsets */
} SrcFile;

/* A position in a source file; line and col are 1-based. file may be NULL
 * for ops created by passes without a source position. In a binary file
 * line is 0 and col the byte offset. */
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
/* The largest input: its text is held in memory whole (diagnostics quote
 * any line), and a compile needs a few times its size more (less for the
 * bytes of constants, which are written once). Regular files are mapped,
 * up to SRC_MAX_MAPPED_BYTES; pipes are read, up to SRC_MAX_BYTES. */
#define SRC_MAX_BYTES ((size_t)512 << 20)
#define SRC_MAX_MAPPED_BYTES ((size_t)1 << 30)
/* Maps or reads a whole file into a new SrcFile (lives for the process).
 * Returns NULL and prints an error when the file cannot be read or is
 * larger than its limit. */
SrcFile *srcfile_read(const char *path);
/* Lets the memory of [p, p + n) of f's text go when f is mapped (the pages
 * come back from the file if read again, for a diagnostic): for the text
 * of a large literal once decoded. Nothing for a file that was read. */
void srcfile_release(const SrcFile *f, const char *p, size_t n);
/* A file known only by name (one that locations of a bytecode file name),
 * made once per name; lives for the process. */
const SrcFile *srcfile_named(const char *name);

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
  /* #stablehlo.bounds<...>: per dimension the upper bound of a `?` size,
   * DIM_DYNAMIC where there is none; NULL when no size is bounded. Part of
   * the type (a bounded and an unbounded type differ, as in MLIR). */
  const int64_t *bounds;
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
/* ty (a tensor type) with the upper bounds of its `?` sizes (rank
 * entries, DIM_DYNAMIC: unbounded; NULL or all unbounded: none). The
 * caller has checked them (the bound of a static size is DIM_DYNAMIC). */
Type *type_with_bounds(TypeTable *t, const Type *ty, const int64_t *bounds);
/* Same quantization parameters (QuantInfo need not be interned). */
bool quant_info_equal(const QuantInfo *a, const QuantInfo *b);
Type *type_token(TypeTable *t);
Type *type_tuple(TypeTable *t, int n, Type *const *elems);
/* Same shape, another element type. */
Type *type_with_elem(TypeTable *t, const Type *ty, ElemType e);
int64_t type_num_elems(const Type *ty);  /* tensor; -1 if dynamic */
int64_t type_byte_size(const Type *ty);  /* tensor; -1 if dynamic */
bool type_is_static(const Type *ty);
/* The same rank and dims, `?` sizes (DIM_DYNAMIC) included; element
 * types aside. */
bool type_same_dims(const Type *a, const Type *b);
bool type_is_tensor(const Type *ty);
/* Writes the MLIR spelling, e.g. "tensor<2x3xf32>",
 * "tensor<?x3xf32, #stablehlo.bounds<16, ?>>". */
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
/* Typed attributes (ir/attr.c fills them from the generic ones)           */

typedef struct I64List {
  int n;
  int64_t *v;
} I64List;

/* Enumerations of attribute values: ATTR_ENUMS(enum, dialect name,
 * (spellings in the spec's order)). A value is the index of its spelling, so each C enum
 * below lists its values in the same order. */
#define ATTR_ENUMS(X)                                                        \
  X(EN_COMPARISON_DIRECTION, "comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT"))     \
  X(EN_COMPARISON_TYPE, "comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")) \
  X(EN_PRECISION, "precision", ("DEFAULT", "HIGH", "HIGHEST"))                        \
  X(EN_RNG_DISTRIBUTION, "rng_distribution", ("UNIFORM", "NORMAL"))                \
  X(EN_RNG_ALGORITHM, "rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX"))            \
  X(EN_FFT_TYPE, "fft_type", ("FFT", "IFFT", "RFFT", "IRFFT"))                           \
  X(EN_TRANSPOSE, "transpose", ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"))

typedef enum AttrEnum {
#define X(e, name, spellings) e,
  ATTR_ENUMS(X)
#undef X
  EN_COUNT
} AttrEnum;

typedef enum CmpDir { CMP_EQ, CMP_NE, CMP_GE, CMP_GT, CMP_LE, CMP_LT } CmpDir;
typedef enum CmpType {
  CMPT_NOTYPE, CMPT_FLOAT, CMPT_TOTALORDER, CMPT_SIGNED, CMPT_UNSIGNED
} CmpType;
typedef enum RngDistribution { RNG_UNIFORM, RNG_NORMAL } RngDistribution;
typedef enum RngAlgorithm { RNG_DEFAULT, RNG_THREE_FRY, RNG_PHILOX } RngAlgorithm;
typedef enum FftType { FFT_FFT, FFT_IFFT, FFT_RFFT, FFT_IRFFT } FftType;
typedef enum Transpose { TR_NO_TRANSPOSE, TR_TRANSPOSE, TR_ADJOINT } Transpose;

/* dot_general (spec "dot_general"). */
typedef struct DotDims {
  I64List lhs_batch, rhs_batch, lhs_contract, rhs_contract;
} DotDims;

/* dot_general's `algorithm` (spec "dot_general", (C21)-(C24)). */
typedef struct DotAlgorithm {
  bool present;
  Type *lhs_precision_type, *rhs_precision_type, *accumulation_type;
  int64_t lhs_component_count, rhs_component_count, num_primitive_operations;
  bool allow_imprecise_accumulation;
} DotAlgorithm;

/* convolution (spec "convolution"). Spatial dims listed in order. */
typedef struct ConvDims {
  int64_t in_batch, in_feature;
  I64List in_spatial;
  int64_t k_in_feature, k_out_feature;
  I64List k_spatial;
  int64_t out_batch, out_feature;
  I64List out_spatial;
} ConvDims;

/* gather and dynamic_gather (spec "gather"). */
typedef struct GatherDims {
  I64List offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  int64_t index_vector_dim;
  I64List slice_sizes; /* gather's `slice_sizes` (an operand of dynamic_gather) */
  bool indices_are_sorted;
} GatherDims;

/* scatter (spec "scatter"). */
typedef struct ScatterDims {
  I64List update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
  bool indices_are_sorted, unique_indices;
} ScatterDims;

/* `#stablehlo.channel_handle<handle = h, type = t>` of send, recv and the
 * collectives; present is false when the op has none. */
typedef struct ChannelHandle {
  bool present;
  int64_t handle, type;
} ChannelHandle;

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
  /* Padding as size expressions, low and high of each dimension in turn
   * (a dynamic_conv whose padding the program computes from symbolic
   * sizes, passes/symbolic.c; pad_lo and pad_hi are then 0, and the
   * convolution keeps the padding operand as its third), or NULL. */
  const struct DimExpr *const *pad_sym;
} Window;

/* The typed attributes of an op, named as in the spec. Which fields an op
 * has is the OP_ATTRS schema below; the others stay zero. */
typedef struct OpAttrs {
  I64List broadcast_dimensions; /* broadcast_in_dim, dynamic_broadcast_in_dim */
  I64List permutation;          /* transpose */
  I64List dimensions;           /* reduce, reverse, map */
  I64List broadcast_sizes;      /* broadcast */
  I64List slice_sizes;          /* dynamic_slice */
  I64List start_indices, limit_indices, strides;                   /* slice */
  I64List edge_padding_low, edge_padding_high, interior_padding;   /* pad */
  int64_t dimension;      /* concatenate, get/set_dimension_size, sort (-1: last) */
  int64_t iota_dimension; /* iota, dynamic_iota */
  int64_t all_gather_dim, scatter_dimension;
  int64_t split_dimension, concat_dimension, split_count; /* all_to_all */
  int64_t index;          /* get_tuple_element */
  CmpDir comparison_direction;
  CmpType compare_type;   /* CMPT_NOTYPE when absent */
  int precision[2];       /* dot, dot_general, convolution: EN_PRECISION values */
  DotDims dot;
  DotAlgorithm algorithm; /* dot_general */
  ConvDims conv;
  Window window;          /* reduce_window, select_and_scatter, convolution */
  int64_t feature_group_count, batch_group_count; /* convolution */
  GatherDims gather;
  ScatterDims scatter;
  ChannelHandle channel;
  bool use_global_device_ids;
  /* replica_groups of the collectives, source_target_pairs of
   * collective_permute: a rank-2 integer literal, NULL when absent */
  const DenseData *replica_groups;
  bool is_host_transfer;   /* send, recv */
  const char *feed_config; /* infeed_config, outfeed_config */
  const DenseData *value; /* constant, check.*_const */
  const char *callee;     /* func.call */
  const char *call_target_name; /* custom_call */
  const char *error_message;    /* custom_call @shape_assertion: `{0}` placeholders */
  const char *einsum_config;
  bool is_stable;         /* sort */
  int64_t exponent_bits, mantissa_bits; /* reduce_precision */
  RngDistribution rng_distribution;
  RngAlgorithm rng_algorithm;
  FftType fft_type;
  I64List fft_length;
  bool left_side, lower, unit_diagonal; /* triangular_solve, cholesky (lower) */
  Transpose transpose_a;  /* triangular_solve */
  double tolerance;       /* check.expect_almost_eq (default 1e-4) */
  int64_t max_ulp, min_ulp; /* check.expect_close */
  const char *probe_id;   /* interpreter.probe, check.expect_serialized_eq */
  int64_t probe_iter;     /* check.expect_serialized_eq: which recording (0) */
} OpAttrs;

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

/* OP(enum, name, operands, results, regions, flags): one row per op, the
 * facts every pass and codegen derive their op classes from.
 * `name` is the generic-form spelling. The frontend recognizes every op of
 * the spec; codegen implements those with OPF_IMPL and reports the others as
 * unsupported. Counts are exact, or N_ANY (variadic), or N_OPNDS (results:
 * as many as operands); the verifier checks them before the op's own rules.
 * The attribute schema of each op is the OP_ATTRS table below. */
enum { N_ANY = -1, N_OPNDS = -2 };

/* Flags. The predicates below (ir/ir.c, "Op classes") are the only place
 * that combines them. */
enum {
  OPF_UNARY = 1 << 0,       /* elementwise, one operand */
  OPF_BINARY = 1 << 1,      /* elementwise, two operands */
  OPF_TERNARY = 1 << 2,     /* elementwise, three operands (select, clamp) */
  OPF_TERMINATOR = 1 << 3,  /* ends a block (a side effect, emitted in the entry) */
  OPF_IMPL = 1 << 4,        /* compiled: by codegen, or rewritten into ops that
                               are before codegen (dot, func.call, tuples,
                               optimization_barrier) */
  OPF_CHECK = 1 << 5,       /* a check op of the conformance protocol (a side
                               effect, emitted in the entry) */
  OPF_COSTLY = 1 << 6,      /* elementwise but tens of cycles (transcendental,
                               divide, remainder, roots): never recomputed */
  OPF_FUSIBLE = 1 << 7,     /* not elementwise, but with a cheap elemental
                               generator: may be computed inside its consumers */
  OPF_CHEAP = 1 << 8,       /* not elementwise, cheap to recompute per use
                               (index remapping) */
  OPF_MOVEMENT = 1 << 9,    /* result elements are operand elements, unchanged */
  OPF_BUFFERS = 1 << 10,    /* its kernel reads operands from buffers,
                               repeatedly, at computed indices: operands are
                               never fused into it */
  OPF_GEMM = 1 << 11,       /* computed by the blocked GEMM kernel, which can
                               apply a fused elementwise epilogue */
  OPF_SIDE_EFFECT = 1 << 12,/* never removed when unused */
  OPF_RUNTIME = 1 << 13,    /* its code calls the runtime library (collectives,
                               feeds, send/recv, rng, process ids) */
  OPF_ENTRY = 1 << 14,      /* emitted in the entry function, not as a kernel
                               (control flow, calls, tuples, custom calls) */
  OPF_CONTROL = 1 << 15,    /* while/if/case: its regions are kernel blocks,
                               not scalar computations */
};

#define OPS(X) \
  X(OP_ABS,                    "stablehlo.abs",                   1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_ADD,                    "stablehlo.add",                   2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_AFTER_ALL,              "stablehlo.after_all",             N_ANY, 1, 0,        OPF_IMPL | OPF_SIDE_EFFECT | OPF_ENTRY)            \
  X(OP_ALL_GATHER,             "stablehlo.all_gather",            N_ANY, N_OPNDS, 0,  OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_ALL_REDUCE,             "stablehlo.all_reduce",            N_ANY, N_OPNDS, 1,  OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_ALL_TO_ALL,             "stablehlo.all_to_all",            N_ANY, N_OPNDS, 0,  OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_AND,                    "stablehlo.and",                   2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_ATAN2,                  "stablehlo.atan2",                 2, 1, 0,            OPF_BINARY | OPF_IMPL | OPF_COSTLY)                \
  X(OP_BATCH_NORM_GRAD,        "stablehlo.batch_norm_grad",       5, 3, 0,            0)                                                 \
  X(OP_BATCH_NORM_INFERENCE,   "stablehlo.batch_norm_inference",  5, 1, 0,            0)                                                 \
  X(OP_BATCH_NORM_TRAINING,    "stablehlo.batch_norm_training",   3, 3, 0,            0)                                                 \
  X(OP_BITCAST_CONVERT,        "stablehlo.bitcast_convert",       1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP)                \
  X(OP_BROADCAST_IN_DIM,       "stablehlo.broadcast_in_dim",      1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_BROADCAST,              "stablehlo.broadcast",             1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_CASE,                   "stablehlo.case",                  1, N_ANY, N_ANY,    OPF_IMPL | OPF_ENTRY | OPF_CONTROL)                \
  X(OP_CBRT,                   "stablehlo.cbrt",                  1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_CEIL,                   "stablehlo.ceil",                  1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_CHOLESKY,               "stablehlo.cholesky",              1, 1, 0,            OPF_IMPL | OPF_BUFFERS)                            \
  X(OP_CLAMP,                  "stablehlo.clamp",                 3, 1, 0,            OPF_TERNARY | OPF_IMPL)                            \
  X(OP_COLLECTIVE_BROADCAST,   "stablehlo.collective_broadcast",  1, 1, 0,            OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_COLLECTIVE_PERMUTE,     "stablehlo.collective_permute",    1, 1, 0,            OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  /* collective_reduce: the upstream interpreter's (not in the spec text):                                                               \
   * all_reduce whose result only the group's first process keeps. */                                                                   \
  X(OP_COLLECTIVE_REDUCE,      "stablehlo.collective_reduce",     N_ANY, N_OPNDS, 1,  OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_COMPARE,                "stablehlo.compare",               2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_COMPLEX,                "stablehlo.complex",               2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_COMPOSITE,              "stablehlo.composite",             N_ANY, N_ANY, 0,    OPF_SIDE_EFFECT | OPF_ENTRY)                       \
  X(OP_CONCATENATE,            "stablehlo.concatenate",           N_ANY, 1, 0,        OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_CONSTANT,               "stablehlo.constant",              0, 1, 0,            OPF_IMPL)                                          \
  X(OP_CONVERT,                "stablehlo.convert",               1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_CONVOLUTION,            "stablehlo.convolution",           2, 1, 0,            OPF_IMPL | OPF_BUFFERS | OPF_GEMM)                 \
  X(OP_COSINE,                 "stablehlo.cosine",                1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_COUNT_LEADING_ZEROS,    "stablehlo.count_leading_zeros",   1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_CREATE_TOKEN,           "stablehlo.create_token",          0, 1, 0,            OPF_IMPL | OPF_ENTRY)                              \
  X(OP_CUSTOM_CALL,            "stablehlo.custom_call",           N_ANY, N_ANY, 0,    OPF_SIDE_EFFECT | OPF_ENTRY)                       \
  X(OP_DIVIDE,                 "stablehlo.divide",                2, 1, 0,            OPF_BINARY | OPF_IMPL | OPF_COSTLY)                \
  X(OP_DOT,                    "stablehlo.dot",                   2, 1, 0,            OPF_IMPL)                                          \
  X(OP_DOT_GENERAL,            "stablehlo.dot_general",           2, 1, 0,            OPF_IMPL | OPF_BUFFERS | OPF_GEMM)                 \
  X(OP_DYNAMIC_BROADCAST_IN_DIM,"stablehlo.dynamic_broadcast_in_dim",N_ANY, 1, 0,        0)                                              \
  X(OP_DYNAMIC_CONV,           "stablehlo.dynamic_conv",          3, 1, 0,            0)                                                 \
  X(OP_DYNAMIC_GATHER,         "stablehlo.dynamic_gather",        3, 1, 0,            0)                                                 \
  X(OP_DYNAMIC_IOTA,           "stablehlo.dynamic_iota",          1, 1, 0,            0)                                                 \
  X(OP_DYNAMIC_PAD,            "stablehlo.dynamic_pad",           5, 1, 0,            0)                                                 \
  X(OP_DYNAMIC_RESHAPE,        "stablehlo.dynamic_reshape",       2, 1, 0,            0)                                                 \
  X(OP_DYNAMIC_SLICE,          "stablehlo.dynamic_slice",         N_ANY, 1, 0,        OPF_IMPL | OPF_FUSIBLE | OPF_MOVEMENT)             \
  X(OP_DYNAMIC_UPDATE_SLICE,   "stablehlo.dynamic_update_slice",  N_ANY, 1, 0,        OPF_IMPL | OPF_MOVEMENT)                           \
  X(OP_EINSUM,                 "stablehlo.einsum",                2, 1, 0,            0)                                                 \
  X(OP_EXPONENTIAL,            "stablehlo.exponential",           1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_EXPONENTIAL_MINUS_ONE,  "stablehlo.exponential_minus_one", 1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_FFT,                    "stablehlo.fft",                   1, 1, 0,            OPF_IMPL | OPF_BUFFERS)                            \
  X(OP_FLOOR,                  "stablehlo.floor",                 1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_GATHER,                 "stablehlo.gather",                2, 1, 0,            OPF_IMPL | OPF_MOVEMENT)                           \
  X(OP_GET_DIMENSION_SIZE,     "stablehlo.get_dimension_size",    1, 1, 0,            0)                                                 \
  X(OP_GET_TUPLE_ELEMENT,      "stablehlo.get_tuple_element",     1, 1, 0,            OPF_IMPL | OPF_ENTRY)                              \
  X(OP_IF,                     "stablehlo.if",                    1, N_ANY, 2,        OPF_IMPL | OPF_ENTRY | OPF_CONTROL)                \
  X(OP_IMAG,                   "stablehlo.imag",                  1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_INFEED,                 "stablehlo.infeed",                1, N_ANY, 0,        OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_IOTA,                   "stablehlo.iota",                  0, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP)                \
  X(OP_IS_FINITE,              "stablehlo.is_finite",             1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_LOG,                    "stablehlo.log",                   1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_LOG_PLUS_ONE,           "stablehlo.log_plus_one",          1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_LOGISTIC,               "stablehlo.logistic",              1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_MAP,                    "stablehlo.map",                   N_ANY, 1, 1,        OPF_IMPL)                                          \
  X(OP_MAXIMUM,                "stablehlo.maximum",               2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_MINIMUM,                "stablehlo.minimum",               2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_MULTIPLY,               "stablehlo.multiply",              2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_NEGATE,                 "stablehlo.negate",                1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_NOT,                    "stablehlo.not",                   1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_OPTIMIZATION_BARRIER,   "stablehlo.optimization_barrier",  N_ANY, N_OPNDS, 0,  OPF_IMPL | OPF_ENTRY)                              \
  X(OP_OR,                     "stablehlo.or",                    2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_OUTFEED,                "stablehlo.outfeed",               N_ANY, 1, 0,        OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_PAD,                    "stablehlo.pad",                   2, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_PARTITION_ID,           "stablehlo.partition_id",          0, 1, 0,            OPF_IMPL | OPF_RUNTIME | OPF_ENTRY)                \
  X(OP_POPCNT,                 "stablehlo.popcnt",                1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_POWER,                  "stablehlo.power",                 2, 1, 0,            OPF_BINARY | OPF_IMPL | OPF_COSTLY)                \
  X(OP_REAL,                   "stablehlo.real",                  1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_REAL_DYNAMIC_SLICE,     "stablehlo.real_dynamic_slice",    4, 1, 0,            0)                                                 \
  X(OP_RECV,                   "stablehlo.recv",                  1, N_ANY, 0,        OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_REDUCE,                 "stablehlo.reduce",                N_ANY, N_ANY, 1,    OPF_IMPL)                                          \
  X(OP_REDUCE_PRECISION,       "stablehlo.reduce_precision",      1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_REDUCE_SCATTER,         "stablehlo.reduce_scatter",        1, 1, 1,            OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_REDUCE_WINDOW,          "stablehlo.reduce_window",         N_ANY, N_ANY, 1,    OPF_IMPL)                                          \
  X(OP_REMAINDER,              "stablehlo.remainder",             2, 1, 0,            OPF_BINARY | OPF_IMPL | OPF_COSTLY)                \
  X(OP_REPLICA_ID,             "stablehlo.replica_id",            0, 1, 0,            OPF_IMPL | OPF_RUNTIME | OPF_ENTRY)                \
  X(OP_RESHAPE,                "stablehlo.reshape",               1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_RETURN,                 "stablehlo.return",                N_ANY, 0, 0,        OPF_TERMINATOR | OPF_IMPL)                         \
  X(OP_REVERSE,                "stablehlo.reverse",               1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_RNG,                    "stablehlo.rng",                   3, 1, 0,            OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_RNG_BIT_GENERATOR,      "stablehlo.rng_bit_generator",     1, 2, 0,            OPF_IMPL)                                          \
  X(OP_ROUND_NEAREST_AFZ,      "stablehlo.round_nearest_afz",     1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_ROUND_NEAREST_EVEN,     "stablehlo.round_nearest_even",    1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_RSQRT,                  "stablehlo.rsqrt",                 1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_SCATTER,                "stablehlo.scatter",               N_ANY, N_ANY, 1,    OPF_IMPL)                                          \
  X(OP_SELECT,                 "stablehlo.select",                3, 1, 0,            OPF_TERNARY | OPF_IMPL | OPF_MOVEMENT)             \
  X(OP_SELECT_AND_SCATTER,     "stablehlo.select_and_scatter",    3, 1, 2,            OPF_IMPL)                                          \
  X(OP_SEND,                   "stablehlo.send",                  N_ANY, 1, 0,        OPF_IMPL | OPF_SIDE_EFFECT | OPF_RUNTIME | OPF_ENTRY) \
  X(OP_SET_DIMENSION_SIZE,     "stablehlo.set_dimension_size",    2, 1, 0,            0)                                                 \
  X(OP_SHIFT_LEFT,             "stablehlo.shift_left",            2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_SHIFT_RIGHT_ARITHMETIC, "stablehlo.shift_right_arithmetic",2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_SHIFT_RIGHT_LOGICAL,    "stablehlo.shift_right_logical",   2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_SIGN,                   "stablehlo.sign",                  1, 1, 0,            OPF_UNARY | OPF_IMPL)                              \
  X(OP_SINE,                   "stablehlo.sine",                  1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_SLICE,                  "stablehlo.slice",                 1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_SORT,                   "stablehlo.sort",                  N_ANY, N_OPNDS, 1,  OPF_IMPL)                                          \
  X(OP_SQRT,                   "stablehlo.sqrt",                  1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_SUBTRACT,               "stablehlo.subtract",              2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_TAN,                    "stablehlo.tan",                   1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_TANH,                   "stablehlo.tanh",                  1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_TORCH_INDEX_SELECT,     "stablehlo.torch_index_select",    2, 1, 0,            0)                                                 \
  X(OP_TRANSPOSE,              "stablehlo.transpose",             1, 1, 0,            OPF_IMPL | OPF_FUSIBLE | OPF_CHEAP | OPF_MOVEMENT) \
  X(OP_TRIANGULAR_SOLVE,       "stablehlo.triangular_solve",      2, 1, 0,            OPF_IMPL | OPF_BUFFERS)                            \
  X(OP_TUPLE,                  "stablehlo.tuple",                 N_ANY, 1, 0,        OPF_IMPL | OPF_ENTRY)                              \
  X(OP_UNARY_EINSUM,           "stablehlo.unary_einsum",          1, 1, 0,            0)                                                 \
  X(OP_UNIFORM_DEQUANTIZE,     "stablehlo.uniform_dequantize",    1, 1, 0,            0)                                                 \
  X(OP_UNIFORM_QUANTIZE,       "stablehlo.uniform_quantize",      1, 1, 0,            0)                                                 \
  X(OP_WHILE,                  "stablehlo.while",                 N_ANY, N_OPNDS, 2,  OPF_IMPL | OPF_ENTRY | OPF_CONTROL)                \
  X(OP_XOR,                    "stablehlo.xor",                   2, 1, 0,            OPF_BINARY | OPF_IMPL)                             \
  X(OP_FUNC_CALL,              "func.call",                       N_ANY, N_ANY, 0,    OPF_IMPL | OPF_SIDE_EFFECT | OPF_ENTRY)            \
  X(OP_FUNC_RETURN,            "func.return",                     N_ANY, 0, 0,        OPF_TERMINATOR | OPF_IMPL)                         \
  X(OP_CHECK_EXPECT_EQ,        "check.expect_eq",                 2, 0, 0,            OPF_CHECK | OPF_IMPL)                              \
  X(OP_CHECK_EXPECT_EQ_CONST,  "check.expect_eq_const",           1, 0, 0,            OPF_CHECK | OPF_IMPL)                              \
  X(OP_CHECK_EXPECT_ALMOST_EQ, "check.expect_almost_eq",          2, 0, 0,            OPF_CHECK | OPF_IMPL)                              \
  X(OP_CHECK_EXPECT_ALMOST_EQ_CONST,"check.expect_almost_eq_const",    1, 0, 0,            OPF_CHECK | OPF_IMPL)                         \
  X(OP_CHECK_EXPECT_CLOSE,     "check.expect_close",              2, 0, 0,            OPF_CHECK | OPF_IMPL)                              \
  X(OP_CHECK_EQ,               "check.eq",                        2, 1, 0,            OPF_CHECK | OPF_IMPL)                              \
  X(OP_CHECK_EXPECT_SERIALIZED_EQ,"check.expect_serialized_eq",      1, 0, 0,            OPF_CHECK | OPF_IMPL)                           \
  X(OP_INTERPRETER_RUN_PARALLEL,"interpreter.run_parallel",        N_ANY, N_ANY, 0,    OPF_IMPL | OPF_SIDE_EFFECT | OPF_ENTRY)           \
  X(OP_INTERPRETER_PRINT,      "interpreter.print",               N_ANY, 0, 0,        OPF_SIDE_EFFECT)                                   \
  X(OP_INTERPRETER_PROBE,      "interpreter.probe",               1, 1, 0,            OPF_IMPL | OPF_SIDE_EFFECT | OPF_ENTRY)            \
  /* CHLO ops, decomposed into StableHLO by passes/chlo.c right after                                                                    \
   * inline: codegen never sees them. is_inf & co. (i1 results) and the                                                                  \
   * broadcast_* ops (operands of different shapes) are not OPF_UNARY or                                                                 \
   * OPF_BINARY, whose verifier rules would reject them. */                                                                              \
  X(OP_CHLO_ACOS,              "chlo.acos",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ACOSH,             "chlo.acosh",                      1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ASIN,              "chlo.asin",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ASINH,             "chlo.asinh",                      1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ATAN,              "chlo.atan",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ATANH,             "chlo.atanh",                      1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_BESSEL_I1E,        "chlo.bessel_i1e",                 1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_CONJ,              "chlo.conj",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_COSH,              "chlo.cosh",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_DIGAMMA,           "chlo.digamma",                    1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ERF,               "chlo.erf",                        1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ERF_INV,           "chlo.erf_inv",                    1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_ERFC,              "chlo.erfc",                       1, 1, 0,            OPF_UNARY | OPF_IMPL | OPF_COSTLY)                 \
  X(OP_CHLO_LGAMMA,            "chlo.lgamma",                     1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_SINH,              "chlo.sinh",                       1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_TAN,               "chlo.tan",                        1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_SQUARE,            "chlo.square",                     1, 1, 0,            OPF_UNARY)                                         \
  X(OP_CHLO_IS_INF,            "chlo.is_inf",                     1, 1, 0,            0)                                                 \
  X(OP_CHLO_IS_NEG_INF,        "chlo.is_neg_inf",                 1, 1, 0,            0)                                                 \
  X(OP_CHLO_IS_POS_INF,        "chlo.is_pos_inf",                 1, 1, 0,            0)                                                 \
  X(OP_CHLO_MULHI,             "chlo.mulhi",                      2, 1, 0,            OPF_BINARY)                                        \
  X(OP_CHLO_NEXT_AFTER,        "chlo.next_after",                 2, 1, 0,            OPF_BINARY)                                        \
  X(OP_CHLO_POLYGAMMA,         "chlo.polygamma",                  2, 1, 0,            OPF_BINARY)                                        \
  X(OP_CHLO_ZETA,              "chlo.zeta",                       2, 1, 0,            OPF_BINARY)                                        \
  X(OP_CHLO_CONSTANT,          "chlo.constant",                   0, 1, 0,            0)                                                 \
  X(OP_CHLO_CONSTANT_LIKE,     "chlo.constant_like",              1, 1, 0,            0)                                                 \
  X(OP_CHLO_TOP_K,             "chlo.top_k",                      1, 2, 0,            0)                                                 \
  X(OP_CHLO_SCAN,              "chlo.scan",                       N_ANY, N_ANY, 1,    0)                                                 \
  X(OP_CHLO_RAGGED_DOT,        "chlo.ragged_dot",                 3, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_ADD,     "chlo.broadcast_add",              2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_AND,     "chlo.broadcast_and",              2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_ATAN2,   "chlo.broadcast_atan2",            2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_COMPARE, "chlo.broadcast_compare",          2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_COMPLEX, "chlo.broadcast_complex",          2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_DIVIDE,  "chlo.broadcast_divide",           2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_MAXIMUM, "chlo.broadcast_maximum",          2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_MINIMUM, "chlo.broadcast_minimum",          2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_MULTIPLY,"chlo.broadcast_multiply",         2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_NEXT_AFTER,"chlo.broadcast_next_after",       2, 1, 0,            0)                                               \
  X(OP_CHLO_BROADCAST_OR,      "chlo.broadcast_or",               2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_POLYGAMMA,"chlo.broadcast_polygamma",        2, 1, 0,            0)                                                \
  X(OP_CHLO_BROADCAST_POWER,   "chlo.broadcast_power",            2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_REMAINDER,"chlo.broadcast_remainder",        2, 1, 0,            0)                                                \
  X(OP_CHLO_BROADCAST_SELECT,  "chlo.broadcast_select",           3, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_SHIFT_LEFT,"chlo.broadcast_shift_left",       2, 1, 0,            0)                                               \
  X(OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC,"chlo.broadcast_shift_right_arithmetic",2, 1, 0,            0)                              \
  X(OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL,"chlo.broadcast_shift_right_logical",2, 1, 0,            0)                                    \
  X(OP_CHLO_BROADCAST_SUBTRACT,"chlo.broadcast_subtract",         2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_XOR,     "chlo.broadcast_xor",              2, 1, 0,            0)                                                 \
  X(OP_CHLO_BROADCAST_ZETA,    "chlo.broadcast_zeta",             2, 1, 0,            0)                                                

typedef enum OpCode {
#define X(e, name, nopnds, nresults, nregions, flags) e,
  OPS(X)
#undef X
  OP_COUNT
} OpCode;

/* ------------------------------------------------------------------------ */
/* The attribute schema                                                      */

/* How a typed attribute is spelled generically and where it goes. */
typedef enum AttrType {
  AK_INTS,      /* I64List: array<i64: ...>, dense<[...]> : tensor<Nxi64>, [...] */
  AK_INT,       /* int64_t, `v : i64` */
  AK_I32,       /* int64_t, `v : i32` */
  AK_BOOL,      /* bool: true/false, a unit attribute, or an integer */
  AK_FLOAT,     /* double */
  AK_STRING,    /* const char *, "..." */
  AK_SYMBOL,    /* const char *, @name */
  AK_TYPE,      /* Type *, a type used as attribute */
  AK_DENSE,     /* const DenseData *, dense<...> */
  AK_PADDING,   /* Window: pad_lo and pad_hi from dense<[[lo, hi], ...]> */
  AK_PRECISION, /* int[2]: [#stablehlo<precision P>, ...] */
  /* #stablehlo.<name><field = value, ...> structures (ATTR_STRUCTS) */
  AK_DOT, AK_DOT_ALGORITHM, AK_CONV, AK_GATHER, AK_SCATTER, AK_CHANNEL_HANDLE,
  AK_OUTPUT_OPERAND_ALIAS, AK_TYPE_EXTENSIONS, AK_RESULT_ACCURACY,
  AK_ENUM0      /* AK_ENUM(e): an int, the index of the value in ATTR_ENUMS e */
} AttrType;
#define AK_ENUM(e) ((AttrType)(AK_ENUM0 + (e)))

/* ATTR_STRUCTS(kind, name): the structures `#stablehlo.name<...>` the
 * parser knows. Those with STRUCT_FIELDS rows are decoded into typed
 * structs and their fields checked; the others keep only their generic
 * form (the verifier reads them). */
#define ATTR_STRUCTS(X)                                                       \
  X(AK_DOT, "dot") X(AK_DOT_ALGORITHM, "dot_algorithm") X(AK_CONV, "conv")     \
  X(AK_GATHER, "gather") X(AK_SCATTER, "scatter")                             \
  X(AK_CHANNEL_HANDLE, "channel_handle")                                      \
  X(AK_OUTPUT_OPERAND_ALIAS, "output_operand_alias")                          \
  X(AK_TYPE_EXTENSIONS, "type_extensions") X(AK_RESULT_ACCURACY, "result_accuracy")

/* Schema flags. A list that is absent and not AF_REQ is empty, or filled
 * with `def` to the operand's rank (AF_RANK) or to its spatial rank, the
 * rank less batch and feature (AF_SPATIAL). */
enum { AF_REQ = 1, AF_RANK = 2, AF_SPATIAL = 4 };

/* STRUCT_FIELDS(struct kind, field name, type, flags, default, C struct,
 * member): the fields of each structure, as StablehloAttrs.td names them.
 * Absent optional fields get `def` (lists: empty). */
#define STRUCT_FIELDS(X)                                                                       \
  X(AK_DOT, "lhs_batching_dimensions", AK_INTS, 0, 0, DotDims, lhs_batch)                      \
  X(AK_DOT, "rhs_batching_dimensions", AK_INTS, 0, 0, DotDims, rhs_batch)                      \
  X(AK_DOT, "lhs_contracting_dimensions", AK_INTS, 0, 0, DotDims, lhs_contract)                \
  X(AK_DOT, "rhs_contracting_dimensions", AK_INTS, 0, 0, DotDims, rhs_contract)                \
  X(AK_DOT_ALGORITHM, "lhs_precision_type", AK_TYPE, 0, 0, DotAlgorithm, lhs_precision_type) \
  X(AK_DOT_ALGORITHM, "rhs_precision_type", AK_TYPE, 0, 0, DotAlgorithm, rhs_precision_type) \
  X(AK_DOT_ALGORITHM, "accumulation_type", AK_TYPE, 0, 0, DotAlgorithm, accumulation_type) \
  X(AK_DOT_ALGORITHM, "lhs_component_count", AK_INT, 0, 0, DotAlgorithm, lhs_component_count) \
  X(AK_DOT_ALGORITHM, "rhs_component_count", AK_INT, 0, 0, DotAlgorithm, rhs_component_count) \
  X(AK_DOT_ALGORITHM, "num_primitive_operations", AK_INT, 0, 0, DotAlgorithm, num_primitive_operations) \
  X(AK_DOT_ALGORITHM, "allow_imprecise_accumulation", AK_BOOL, 0, 0, DotAlgorithm, allow_imprecise_accumulation) \
  X(AK_CONV, "input_batch_dimension", AK_INT, AF_REQ, 0, ConvDims, in_batch)                   \
  X(AK_CONV, "input_feature_dimension", AK_INT, AF_REQ, 0, ConvDims, in_feature)               \
  X(AK_CONV, "input_spatial_dimensions", AK_INTS, 0, 0, ConvDims, in_spatial)                  \
  X(AK_CONV, "kernel_input_feature_dimension", AK_INT, AF_REQ, 0, ConvDims, k_in_feature)      \
  X(AK_CONV, "kernel_output_feature_dimension", AK_INT, AF_REQ, 0, ConvDims, k_out_feature)    \
  X(AK_CONV, "kernel_spatial_dimensions", AK_INTS, 0, 0, ConvDims, k_spatial)                  \
  X(AK_CONV, "output_batch_dimension", AK_INT, AF_REQ, 0, ConvDims, out_batch)                 \
  X(AK_CONV, "output_feature_dimension", AK_INT, AF_REQ, 0, ConvDims, out_feature)             \
  X(AK_CONV, "output_spatial_dimensions", AK_INTS, 0, 0, ConvDims, out_spatial)                \
  X(AK_GATHER, "offset_dims", AK_INTS, 0, 0, GatherDims, offset_dims)                          \
  X(AK_GATHER, "collapsed_slice_dims", AK_INTS, 0, 0, GatherDims, collapsed_slice_dims)        \
  X(AK_GATHER, "operand_batching_dims", AK_INTS, 0, 0, GatherDims, operand_batching_dims)      \
  X(AK_GATHER, "start_indices_batching_dims", AK_INTS, 0, 0, GatherDims, start_indices_batching_dims) \
  X(AK_GATHER, "start_index_map", AK_INTS, 0, 0, GatherDims, start_index_map)                  \
  X(AK_GATHER, "index_vector_dim", AK_INT, 0, 0, GatherDims, index_vector_dim)                 \
  X(AK_SCATTER, "update_window_dims", AK_INTS, 0, 0, ScatterDims, update_window_dims)          \
  X(AK_SCATTER, "inserted_window_dims", AK_INTS, 0, 0, ScatterDims, inserted_window_dims)      \
  X(AK_SCATTER, "input_batching_dims", AK_INTS, 0, 0, ScatterDims, input_batching_dims)        \
  X(AK_SCATTER, "scatter_indices_batching_dims", AK_INTS, 0, 0, ScatterDims, scatter_indices_batching_dims) \
  X(AK_SCATTER, "scatter_dims_to_operand_dims", AK_INTS, 0, 0, ScatterDims, scatter_dims_to_operand_dims) \
  X(AK_SCATTER, "index_vector_dim", AK_INT, 0, 0, ScatterDims, index_vector_dim)               \
  X(AK_CHANNEL_HANDLE, "handle", AK_INT, 0, 0, ChannelHandle, handle)                          \
  X(AK_CHANNEL_HANDLE, "type", AK_INT, 0, 0, ChannelHandle, type)

/* OP_ATTRS(op, name, pretty keyword, type, flags, default, OpAttrs member):
 * the typed attributes of every op. attrs_decode fills the member from the
 * generic attribute `name` (with the spec's default when absent, an error
 * when AF_REQ), attrs_encode writes the generic attribute back from the
 * member, and the pretty form `op %x, keyword = value` is parsed from it
 * (NULL: no keyword). */
#define OP_ATTRS(X)                                                                                              \
  X(OP_BROADCAST_IN_DIM, "broadcast_dimensions", "dims", AK_INTS, AF_REQ, 0, broadcast_dimensions)             \
  X(OP_DYNAMIC_BROADCAST_IN_DIM, "broadcast_dimensions", "dims", AK_INTS, AF_REQ, 0, broadcast_dimensions)     \
  X(OP_TRANSPOSE, "permutation", "dims", AK_INTS, AF_REQ, 0, permutation)                                      \
  X(OP_REDUCE, "dimensions", NULL, AK_INTS, AF_REQ, 0, dimensions)                                             \
  X(OP_REVERSE, "dimensions", "dims", AK_INTS, AF_REQ, 0, dimensions)                                          \
  X(OP_MAP, "dimensions", NULL, AK_INTS, 0, 0, dimensions)                                                     \
  X(OP_BROADCAST, "broadcast_sizes", "sizes", AK_INTS, AF_REQ, 0, broadcast_sizes)                             \
  X(OP_SLICE, "start_indices", NULL, AK_INTS, AF_REQ, 0, start_indices)                                        \
  X(OP_SLICE, "limit_indices", NULL, AK_INTS, AF_REQ, 0, limit_indices)                                        \
  X(OP_SLICE, "strides", NULL, AK_INTS, AF_RANK, 1, strides)                                                   \
  X(OP_DYNAMIC_SLICE, "slice_sizes", "sizes", AK_INTS, AF_REQ, 0, slice_sizes)                                 \
  X(OP_PAD, "edge_padding_low", "low", AK_INTS, AF_REQ, 0, edge_padding_low)                                   \
  X(OP_PAD, "edge_padding_high", "high", AK_INTS, AF_REQ, 0, edge_padding_high)                                \
  X(OP_PAD, "interior_padding", "interior", AK_INTS, AF_RANK, 0, interior_padding)                             \
  X(OP_CONCATENATE, "dimension", "dim", AK_INT, AF_REQ, 0, dimension)                                          \
  X(OP_GET_DIMENSION_SIZE, "dimension", "dim", AK_INT, AF_REQ, 0, dimension)                                   \
  X(OP_SET_DIMENSION_SIZE, "dimension", "dim", AK_INT, AF_REQ, 0, dimension)                                   \
  X(OP_IOTA, "iota_dimension", "dim", AK_INT, AF_REQ, 0, iota_dimension)                                       \
  X(OP_DYNAMIC_IOTA, "iota_dimension", "dim", AK_INT, AF_REQ, 0, iota_dimension)                               \
  X(OP_SORT, "dimension", NULL, AK_INT, 0, -1, dimension)                                                      \
  X(OP_SORT, "is_stable", NULL, AK_BOOL, 0, 0, is_stable)                                                      \
  X(OP_ALL_GATHER, "all_gather_dim", NULL, AK_INT, AF_REQ, 0, all_gather_dim)                                  \
  X(OP_REDUCE_SCATTER, "scatter_dimension", NULL, AK_INT, AF_REQ, 0, scatter_dimension)                        \
  X(OP_ALL_TO_ALL, "split_dimension", NULL, AK_INT, 0, 0, split_dimension)                                     \
  X(OP_ALL_TO_ALL, "concat_dimension", NULL, AK_INT, 0, 0, concat_dimension)                                   \
  X(OP_ALL_TO_ALL, "split_count", NULL, AK_INT, 0, 0, split_count)                                             \
  X(OP_GET_TUPLE_ELEMENT, "index", NULL, AK_I32, AF_REQ, 0, index)                                             \
  X(OP_COMPARE, "comparison_direction", NULL, AK_ENUM(EN_COMPARISON_DIRECTION), AF_REQ, 0, comparison_direction) \
  X(OP_COMPARE, "compare_type", NULL, AK_ENUM(EN_COMPARISON_TYPE), 0, 0, compare_type)                         \
  X(OP_DOT, "precision_config", "precision", AK_PRECISION, 0, 0, precision)                                    \
  X(OP_DOT_GENERAL, "dot_dimension_numbers", NULL, AK_DOT, AF_REQ, 0, dot)                                     \
  X(OP_DOT_GENERAL, "precision_config", "precision", AK_PRECISION, 0, 0, precision)                            \
  X(OP_DOT_GENERAL, "algorithm", NULL, AK_DOT_ALGORITHM, 0, 0, algorithm)                                      \
  X(OP_CONVOLUTION, "dimension_numbers", NULL, AK_CONV, AF_REQ, 0, conv)                                       \
  X(OP_CONVOLUTION, "window_strides", NULL, AK_INTS, AF_SPATIAL, 1, window.strides)                            \
  X(OP_CONVOLUTION, "padding", NULL, AK_PADDING, AF_SPATIAL, 0, window)                                        \
  X(OP_CONVOLUTION, "lhs_dilation", NULL, AK_INTS, AF_SPATIAL, 1, window.base_dilations)                       \
  X(OP_CONVOLUTION, "rhs_dilation", NULL, AK_INTS, AF_SPATIAL, 1, window.window_dilations)                     \
  X(OP_CONVOLUTION, "window_reversal", NULL, AK_INTS, AF_SPATIAL, 0, window.reversal)                          \
  X(OP_CONVOLUTION, "feature_group_count", NULL, AK_INT, 0, 1, feature_group_count)                            \
  X(OP_CONVOLUTION, "batch_group_count", NULL, AK_INT, 0, 1, batch_group_count)                                \
  X(OP_CONVOLUTION, "precision_config", NULL, AK_PRECISION, 0, 0, precision)                                   \
  X(OP_DYNAMIC_CONV, "dimension_numbers", NULL, AK_CONV, AF_REQ, 0, conv)                                      \
  X(OP_DYNAMIC_CONV, "window_strides", NULL, AK_INTS, AF_SPATIAL, 1, window.strides)                           \
  X(OP_DYNAMIC_CONV, "lhs_dilation", NULL, AK_INTS, AF_SPATIAL, 1, window.base_dilations)                      \
  X(OP_DYNAMIC_CONV, "rhs_dilation", NULL, AK_INTS, AF_SPATIAL, 1, window.window_dilations)                    \
  X(OP_DYNAMIC_CONV, "window_reversal", NULL, AK_INTS, AF_SPATIAL, 0, window.reversal)                         \
  X(OP_DYNAMIC_CONV, "feature_group_count", NULL, AK_INT, 0, 1, feature_group_count)                           \
  X(OP_DYNAMIC_CONV, "batch_group_count", NULL, AK_INT, 0, 1, batch_group_count)                               \
  X(OP_DYNAMIC_CONV, "precision_config", NULL, AK_PRECISION, 0, 0, precision)                                  \
  X(OP_REDUCE_WINDOW, "window_dimensions", NULL, AK_INTS, AF_REQ, 0, window.dims)                              \
  X(OP_REDUCE_WINDOW, "window_strides", NULL, AK_INTS, AF_RANK, 1, window.strides)                             \
  X(OP_REDUCE_WINDOW, "base_dilations", NULL, AK_INTS, AF_RANK, 1, window.base_dilations)                      \
  X(OP_REDUCE_WINDOW, "window_dilations", NULL, AK_INTS, AF_RANK, 1, window.window_dilations)                  \
  X(OP_REDUCE_WINDOW, "padding", NULL, AK_PADDING, AF_RANK, 0, window)                                         \
  X(OP_SELECT_AND_SCATTER, "window_dimensions", NULL, AK_INTS, AF_RANK, 1, window.dims)                        \
  X(OP_SELECT_AND_SCATTER, "window_strides", NULL, AK_INTS, AF_RANK, 1, window.strides)                        \
  X(OP_SELECT_AND_SCATTER, "padding", NULL, AK_PADDING, AF_RANK, 0, window)                                    \
  X(OP_GATHER, "dimension_numbers", NULL, AK_GATHER, AF_REQ, 0, gather)                                        \
  X(OP_GATHER, "slice_sizes", NULL, AK_INTS, AF_REQ, 0, gather.slice_sizes)                                    \
  X(OP_GATHER, "indices_are_sorted", NULL, AK_BOOL, 0, 0, gather.indices_are_sorted)                           \
  X(OP_DYNAMIC_GATHER, "dimension_numbers", NULL, AK_GATHER, AF_REQ, 0, gather)                                \
  X(OP_DYNAMIC_GATHER, "indices_are_sorted", NULL, AK_BOOL, 0, 0, gather.indices_are_sorted)                   \
  X(OP_SCATTER, "scatter_dimension_numbers", NULL, AK_SCATTER, AF_REQ, 0, scatter)                             \
  X(OP_SCATTER, "indices_are_sorted", NULL, AK_BOOL, 0, 0, scatter.indices_are_sorted)                         \
  X(OP_SCATTER, "unique_indices", NULL, AK_BOOL, 0, 0, scatter.unique_indices)                                 \
  X(OP_SEND, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                                         \
  X(OP_RECV, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                                         \
  X(OP_ALL_GATHER, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                                   \
  X(OP_ALL_GATHER, "use_global_device_ids", NULL, AK_BOOL, 0, 0, use_global_device_ids)                        \
  X(OP_ALL_REDUCE, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                                   \
  X(OP_ALL_REDUCE, "use_global_device_ids", NULL, AK_BOOL, 0, 0, use_global_device_ids)                        \
  X(OP_REDUCE_SCATTER, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                               \
  X(OP_REDUCE_SCATTER, "use_global_device_ids", NULL, AK_BOOL, 0, 0, use_global_device_ids)                    \
  X(OP_ALL_TO_ALL, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                                   \
  X(OP_COLLECTIVE_PERMUTE, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                           \
  X(OP_COLLECTIVE_BROADCAST, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                         \
  X(OP_COLLECTIVE_REDUCE, "channel_handle", NULL, AK_CHANNEL_HANDLE, 0, 0, channel)                            \
  X(OP_COLLECTIVE_REDUCE, "use_global_device_ids", NULL, AK_BOOL, 0, 0, use_global_device_ids)                 \
  X(OP_ALL_GATHER, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                                     \
  X(OP_ALL_REDUCE, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                                     \
  X(OP_REDUCE_SCATTER, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                                 \
  X(OP_ALL_TO_ALL, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                                     \
  X(OP_COLLECTIVE_BROADCAST, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                           \
  X(OP_COLLECTIVE_REDUCE, "replica_groups", NULL, AK_DENSE, 0, 0, replica_groups)                              \
  X(OP_COLLECTIVE_PERMUTE, "source_target_pairs", NULL, AK_DENSE, AF_REQ, 0, replica_groups)                   \
  X(OP_SEND, "is_host_transfer", NULL, AK_BOOL, 0, 0, is_host_transfer)                                        \
  X(OP_RECV, "is_host_transfer", NULL, AK_BOOL, 0, 0, is_host_transfer)                                        \
  X(OP_INFEED, "infeed_config", NULL, AK_STRING, 0, 0, feed_config)                                            \
  X(OP_OUTFEED, "outfeed_config", NULL, AK_STRING, 0, 0, feed_config)                                          \
  X(OP_CONSTANT, "value", NULL, AK_DENSE, AF_REQ, 0, value)                                                    \
  X(OP_CHECK_EXPECT_EQ_CONST, "value", NULL, AK_DENSE, AF_REQ, 0, value)                                       \
  X(OP_CHECK_EXPECT_ALMOST_EQ_CONST, "value", NULL, AK_DENSE, AF_REQ, 0, value)                                \
  X(OP_CHECK_EXPECT_ALMOST_EQ_CONST, "tolerance", "tolerance", AK_FLOAT, 0, 1e-4, tolerance)                   \
  X(OP_CHECK_EXPECT_ALMOST_EQ, "tolerance", "tolerance", AK_FLOAT, 0, 1e-4, tolerance)                         \
  X(OP_CHECK_EXPECT_CLOSE, "max_ulp_difference", "max_ulp_difference", AK_INT, 0, 3, max_ulp)                 \
  X(OP_CHECK_EXPECT_CLOSE, "min_ulp_difference", "min_ulp_difference", AK_INT, 0, 0, min_ulp)                 \
  X(OP_CHECK_EXPECT_SERIALIZED_EQ, "probe_id", "probe_id", AK_STRING, AF_REQ, 0, probe_id)                     \
  X(OP_CHECK_EXPECT_SERIALIZED_EQ, "iter", "iter", AK_INT, 0, 0, probe_iter)                                   \
  X(OP_INTERPRETER_PROBE, "probe_id", "probe_id", AK_STRING, AF_REQ, 0, probe_id)                              \
  X(OP_FUNC_CALL, "callee", NULL, AK_SYMBOL, AF_REQ, 0, callee)                                                \
  X(OP_CUSTOM_CALL, "call_target_name", NULL, AK_STRING, AF_REQ, 0, call_target_name)                          \
  X(OP_CUSTOM_CALL, "error_message", NULL, AK_STRING, 0, 0, error_message)                                     \
  X(OP_EINSUM, "einsum_config", "config", AK_STRING, AF_REQ, 0, einsum_config)                                 \
  X(OP_UNARY_EINSUM, "einsum_config", "config", AK_STRING, AF_REQ, 0, einsum_config)                           \
  X(OP_REDUCE_PRECISION, "exponent_bits", NULL, AK_I32, AF_REQ, 0, exponent_bits)                              \
  X(OP_REDUCE_PRECISION, "mantissa_bits", NULL, AK_I32, AF_REQ, 0, mantissa_bits)                              \
  X(OP_RNG, "rng_distribution", "distribution", AK_ENUM(EN_RNG_DISTRIBUTION), AF_REQ, 0, rng_distribution)    \
  X(OP_RNG_BIT_GENERATOR, "rng_algorithm", "algorithm", AK_ENUM(EN_RNG_ALGORITHM), AF_REQ, 0, rng_algorithm)   \
  X(OP_TRIANGULAR_SOLVE, "left_side", NULL, AK_BOOL, 0, 0, left_side)                                          \
  X(OP_TRIANGULAR_SOLVE, "lower", NULL, AK_BOOL, 0, 0, lower)                                                  \
  X(OP_TRIANGULAR_SOLVE, "unit_diagonal", NULL, AK_BOOL, 0, 0, unit_diagonal)                                  \
  X(OP_TRIANGULAR_SOLVE, "transpose_a", NULL, AK_ENUM(EN_TRANSPOSE), 0, 0, transpose_a)                        \
  X(OP_CHOLESKY, "lower", "lower", AK_BOOL, 0, 0, lower)                                                       \
  X(OP_FFT, "fft_type", "type", AK_ENUM(EN_FFT_TYPE), AF_REQ, 0, fft_type)                                     \
  X(OP_FFT, "fft_length", "length", AK_INTS, AF_REQ, 0, fft_length)

typedef struct OpInfo {
  const char *name;
  int nopnds, nresults, nregions; /* a count, N_ANY or N_OPNDS */
  unsigned flags;
} OpInfo;

const OpInfo *op_info(OpCode c);
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
typedef struct Module Module;

/* ------------------------------------------------------------------------ */
/* Symbolic dimension sizes (ir/dimexpr.c)                                   */

/* A size as an expression over the dimension symbols of an entry compiled
 * without specialization (refine_shapes): interned per function in its
 * SymInfo, so equal expressions are the same pointer. Only what the shape
 * functions of the supported ops need (spec: each op's result shape). */
typedef enum DimKind { DX_CONST, DX_SYM, DX_ADD, DX_SUB, DX_MUL, DX_DIV, DX_MAX, DX_VALUE } DimKind;

/* DX_VALUE is an integer the program computes (element c of v, such as a
 * slice start read from data): it exists only once v is computed, so an
 * expression that depends on one (`runtime`) is never evaluated at entry.
 * It serves to fold shape operands whose difference is known although
 * they are not (real_dynamic_slice's limit - start); a result size, an
 * offset or a constraint is never such an expression. */
typedef struct DimExpr {
  DimKind kind;
  int id;          /* index in SymInfo.exprs: operands come first */
  int64_t c;       /* DX_CONST: the value; DX_SYM: the symbol's number; DX_VALUE: the element */
  const struct DimExpr *a, *b; /* DX_ADD, DX_SUB, DX_MUL, DX_DIV (floor, b > 0), DX_MAX */
  const struct Value *v;       /* DX_VALUE: the integer tensor */
  bool runtime;                /* a DX_VALUE or an expression over one */
} DimExpr;

/* A requirement the sizes must meet, checked when the entry is called. */
typedef struct DimConstraint {
  const DimExpr *a, *b;
  bool ge; /* a >= b, else a == b */
} DimConstraint;

/* A dimension symbol: `?` size `dim` of argument `arg`, or (dim < 0) the
 * value of the JAX dimension argument `arg` (a 0-d integer tensor). */
typedef struct DimSym {
  const char *name;
  int arg, dim;
} DimSym;

typedef struct SymInfo {
  int nsyms;
  DimSym *syms;
  int nexprs, capexprs;
  DimExpr **exprs;
  int ncons, capcons;
  DimConstraint *cons;
  /* The temp arena's size (codegen/dyndims.c lays out the buffers). */
  const DimExpr *temp_bytes;
} SymInfo;

/* Expressions are numbered (id) as they are interned: as for a Builder, no
 * call has two arguments that intern (tools/eval_order.py checks). */
const DimExpr *dx_const(Module *m, SymInfo *s, int64_t c);
const DimExpr *dx_sym(Module *m, SymInfo *s, int k);
/* Element k of the integer tensor v, computed at run time (DX_VALUE). */
const DimExpr *dx_value(Module *m, SymInfo *s, const struct Value *v, int64_t k);
/* Sums, products and floor quotients, folded when both are constants. A
 * sum or difference over a DX_VALUE is normalized as a linear combination
 * (terms in id order, then the constant), so (x + 4*b) - x is 4*b. */
const DimExpr *dx_add(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b);
const DimExpr *dx_sub(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b);
const DimExpr *dx_mul(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b);
const DimExpr *dx_div(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b);
/* max(a, b): the spec's shape functions clamp at 0 (pad's interior
 * padding of an empty operand, a window larger than its padded input). */
const DimExpr *dx_max(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b);
/* Records a == b (ge: a >= b) unless it holds by construction; false when
 * both are constants that break it. Neither may be `runtime`. */
bool dx_require(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b, bool ge);
/* The value of e for the symbols' values (floor division by a positive
 * divisor); INT64_MAX when a sum, difference or product overflows. */
int64_t dx_eval(const DimExpr *e, const int64_t *syms);
/* The upper bound of each symbol that the constraints give (c >= symbol,
 * from #stablehlo.bounds, carried over symbol == symbol), INT64_MAX where
 * there is none; ub has s->nsyms entries. */
void dx_sym_bounds(const SymInfo *s, int64_t *ub);
/* An upper bound of e when every symbol k is in [0, ub[k]] (interval
 * arithmetic: sound, not always attained), or INT64_MAX when a symbol is
 * unbounded or the bound overflows. */
int64_t dx_upper_bound(const DimExpr *e, const int64_t *ub);
/* Appends e in C syntax over the symbol names (DX_MAX as max(a, b)) to
 * the arena string. */
char *dx_str(Arena *a, const SymInfo *s, const DimExpr *e);

/* How a value is stored after the buffers pass. */
typedef enum Storage {
  ST_NONE,   /* not materialized: computed inside its consumers (fused) */
  ST_ARG,    /* an entry argument: read-only caller memory */
  ST_RESULT, /* written directly into the caller's result buffer */
  ST_TEMP,   /* the temp arena at `offset` */
  ST_CONST,  /* a read-only constant in the object */
} Storage;

/* The layout pass: a constant stored in the panel layout the GEMM
 * microkernel reads (codegen/gemm.c) instead of row-major, because every
 * user is a dot_general or convolution that takes it as B. B is nmat
 * matrices of K x N: matrix b (row-major over bdim[0..nbd)) holds B(k, n)
 * at row-major element offset sum(b_i * bstride[i]) + k * sk + n * sn of
 * the constant. Packed, matrix b starts at element b * K * Npad (Npad: N
 * rounded up to NR); in it the K slice at pc (KC rows, the last one
 * K - pc) starts at pc * Npad and its NR-column panel j at
 * pc * Npad + j * NR * rows, k-major (B(pc + k, j * NR + c) at k * NR + c),
 * zeros past N. Every element appears once: only N's padding is added. */
#define GEMM_PACK_MAX_DIMS 8
typedef struct GemmPacking {
  int nbd;
  int64_t bdim[GEMM_PACK_MAX_DIMS], bstride[GEMM_PACK_MAX_DIMS];
  int64_t K, N, sk, sn;
  int64_t kc, nr; /* the tile's K slice and panel width, in elements */
  /* The a x a matrices V_t (C x K) of a 3 x 3 kernel's Winograd transform
   * (ir_conv_wino; a = IrWino.m + 2: 16 or 36): matrix t is element t of
   * G g G^T over each (c, k)'s 3 x 3 filter g, bdim {a x a}, bstride
   * {C x K}, sk K, sn 1 of the transformed kernel (passes/layout.c computes
   * it), not of the constant. */
  bool wino;
} GemmPacking;

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
  /* layout pass: an ST_CONST stored packed for its GEMM users, or NULL
   * (row-major) */
  const GemmPacking *packed;
  /* Per dimension, its size over the symbols of the function's SymInfo
   * (refine_shapes, unspecialized entries); NULL for static values. */
  const DimExpr **sym;
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
  /* fuse pass, siblings: a root computed in the kernel of an earlier root
   * (leader) that reads the same input over the same index space; a
   * leader's followers chain through sibling, in program order. */
  Op *leader, *sibling;
  /* buffers pass: the scratch of its kernel in the arena, scratch_bytes
   * (ir_kernel_scratch_bytes, 0: none) per concurrent chunk, chunk c at
   * scratch_offset + c * scratch_bytes */
  int64_t scratch_offset, scratch_bytes;
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
  /* An entry compiled with symbolic sizes (refine_shapes), else NULL. */
  SymInfo *sym;
};

struct Module {
  Arena arena;
  TypeTable *types;
  const char *name;    /* `module @name`, NULL if absent */
  int nfuncs;
  Func **funcs;
  int nattrs;
  NamedAttr *attrs;    /* module attributes */
  Loc loc;
};

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
/* The string of argument i's attribute name (jax.arg_info ...), NULL if
 * absent or not a string. */
const char *ir_arg_string_attr(const Func *f, int i, const char *name);
/* The operand of concatenate op (1-d shape values) that holds element *k
 * of the result, *k made its index there; NULL when k is past the end or
 * an operand before it has an unknown size. */
Value *ir_concat_operand(const Op *op, int64_t *k);

/* ------------------------------------------------------------------------ */
/* Building ops in passes (ir/builder.c)                                     */

/* New ops go before `before` in `block` (NULL: at its end) with location
 * `loc`. ir_build creates one with zero typed attributes; the caller sets
 * op->a and calls ir_build_done, which writes the generic attributes from
 * them (attrs_encode) and returns the first result. The other builders
 * return the result of a finished op. No call has two arguments that
 * build ops, nor an initializer list two such elements: C leaves their
 * order, the ops' order, to the compiler that built shloc
 * (tools/eval_order.py checks). */
typedef struct Builder {
  Module *m;
  Block *block;
  Op *before;
  Loc loc;
} Builder;

Op *ir_build(Builder *b, OpCode code, int nopnds, Value *const *opnds, int nresults,
             Type *const *types, int nregions);
Value *ir_build_done(Builder *b, Op *op);
Value *ir_build1(Builder *b, OpCode code, Type *t, int n, Value *const *in);
Value *ir_build_unary(Builder *b, OpCode code, Value *x);          /* x's type */
Value *ir_build_binary(Builder *b, OpCode code, Value *x, Value *y); /* x's type */
Value *ir_build_select(Builder *b, Value *pred, Value *on_true, Value *on_false);
Value *ir_build_clamp(Builder *b, Value *lo, Value *x, Value *hi);
Value *ir_build_convert(Builder *b, Value *x, ElemType e);
Value *ir_build_compare(Builder *b, CmpDir dir, Value *x, Value *y, CmpType type);
Value *ir_build_constant(Builder *b, const DenseData *d);
/* A constant of type t, every element the low bytes of `bits`. */
Value *ir_build_splat(Builder *b, Type *t, uint64_t bits);
DenseData *ir_dense_splat(Module *m, Type *t, uint64_t bits);
/* n integers of type t (two's complement, little-endian). */
DenseData *ir_dense_ints(Module *m, Type *t, const int64_t *v, int64_t n);
/* Rewrites a `dot` into the dot_general it stands for (spec "dot"). */
void ir_make_dot_general(Module *m, Op *op);

/* ------------------------------------------------------------------------ */
/* Attributes (ir/attr.c): constructors and the schema (OP_ATTRS)           */

/* Generic attributes, allocated in the module's arena. */
Attr *attr_new(Module *m, AttrKind k);
Attr *attr_int(Module *m, int64_t v, ElemType type); /* `v : type`; ET_COUNT: untyped */
Attr *attr_float(Module *m, double v, ElemType type);
Attr *attr_bool(Module *m, bool v);
Attr *attr_string(Module *m, const char *s);
Attr *attr_symbol(Module *m, const char *s);
Attr *attr_enum(Module *m, const char *name, const char *value);
Attr *attr_type(Module *m, Type *t);
Attr *attr_dense_array(Module *m, ElemType e, const int64_t *v, int n); /* array<e: ...> */
Attr *attr_i64_array(Module *m, const int64_t *v, int n);  /* array<i64: ...> */
Attr *attr_int_list(Module *m, const int64_t *v, int n);   /* [1, 2], untyped */
Attr *attr_struct(Module *m, const char *name, NamedAttr *fields, int n);
Attr *attr_dense(Module *m, const DenseData *d);
/* A list in the module's arena holding a copy of v[0..n). */
I64List ir_list(Module *m, const int64_t *v, int n);

/* One row of OP_ATTRS (owner: an OpCode) or STRUCT_FIELDS (owner: the
 * structure's AttrType); offset is the member's in OpAttrs or the struct. */
typedef struct AttrSpec {
  int owner;
  const char *name, *keyword;
  AttrType type;
  unsigned flags;
  double def;
  size_t offset;
} AttrSpec;

/* Fills op->a from op->attrs following OP_ATTRS; 0 on success, else prints
 * an error at the op's location and returns -1. */
int attrs_decode(Module *m, Op *op);
/* Writes op->attrs from op->a for every OP_ATTRS row of the op (optional
 * attributes only when they differ from the default), so ops built or
 * rewritten by passes print as valid MLIR; other attributes stay. */
void attrs_encode(Module *m, Op *op);
/* The OP_ATTRS row of op c named name, or NULL. */
const AttrSpec *attr_spec_by_name(OpCode c, const char *name);
/* The STRUCT_FIELDS row named field of a structure attribute of op c, its
 * OP_ATTRS row in *row; NULL if no structure of c has that field. */
const AttrSpec *attr_spec_of_field(OpCode c, const char *field, const AttrSpec **row);
/* The structure's name ("dot"), and its i-th STRUCT_FIELDS row (NULL past
 * the last). */
const char *attr_struct_name(AttrType s);
const AttrSpec *attr_struct_field(AttrType s, int i);
/* The OP_ATTRS row of op c whose pretty keyword is kw[0..n), or NULL. */
const AttrSpec *attr_spec_by_keyword(OpCode c, const char *kw, size_t n);
/* Enumerations (ATTR_ENUMS): the dialect name, the spelling of value v
 * (NULL if out of range), the value of a spelling (-1 if unknown). */
const char *attr_enum_name(AttrEnum e);
const char *attr_enum_value(AttrEnum e, int v);
int attr_enum_lookup(AttrEnum e, const char *s);
/* Structures (ATTR_STRUCTS): the kind named name[0..n), or AK_ENUM0 if
 * unknown; whether a structure with STRUCT_FIELDS rows has field `f`
 * (always true for one without rows). */
AttrType attr_struct_kind(const char *name, size_t n);
bool attr_struct_has_field(AttrType s, const char *f);

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
/* MLIR bytecode input (frontend/bytecode.c): a StableHLO portable artifact
 * (VHLO dialect), alone (magic bytes `ML\xefR`) or inside a jax.export
 * flatbuffer. parse_module hands every binary file to it, whatever
 * [begin, end); it builds the IR the text parser builds for the same
 * program, or returns NULL after diagnostics. */
Module *bytecode_read_module(const SrcFile *file);

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
  bool check_args;      /* entries return 2 for NULL or misaligned buffers */
  bool allow_checks;    /* check.* ops and custom_call @check.* allowed (shloc check) */
  const char *dump_after; /* pass name or NULL */
  const char *stop_after; /* pass name or NULL: end the pipeline there */
  bool time_passes;
  bool verify_each;     /* verifier and structural checks after every pass */
  /* Where constants live (--weights): in .rodata (embed), in the linker
   * section weights_section, or in a separate file the application maps and
   * hands to the object's loader (codegen/weights.c). */
  enum { WEIGHTS_EMBED, WEIGHTS_SECTION, WEIGHTS_FILE } weights;
  const char *weights_section;
  /* --weights-align: the blob's alignment in bytes (0: 64), a power of
   * two up to 2 MiB; above 64 only for embed or section=NAME in
   * little-endian ELF objects. 2 MiB
   * lets Linux map the weights with huge pages (codegen/weights.c). */
  uint64_t weights_align;
  int replicas, partitions; /* the grid (--replicas, --partitions); 0: the
                               module's mhlo.num_replicas / num_partitions */
  /* Specialization of the entry (refine_shapes): the shapes of its
   * non-dimension arguments, "2x4xf32,3xi32" (NULL: none), and values of
   * its dimension arguments, "NAME=N" each. */
  const char *input_shapes;
  const char *const *dims;
  int ndims;
  bool flush_denormals; /* --denormals=flush: kernels run with FTZ/DAZ */
  /* --winograd=off: 3 x 3 convolutions stay direct (codegen/winograd.c
   * trades 16/9 the weight bytes and a larger scratch for fewer
   * multiplies) */
  bool no_winograd;
  int gemm_panel_bytes; /* bytes of a row of codegen's packed GEMM B panel (NR
                           elements) on the target, for kernel scratch sizes;
                           driver_compile asks codegen (0: assume 256) */
  int conv_panel_bytes; /* the same for a convolution's tile (AVX2: narrower) */
  int gemm_kc_tall;     /* the deepest K slice of a tall blocked dot_general on
                           the target (ir_dot_kc_deep), for kernel scratch
                           sizes; driver_compile asks codegen. Codegen plans
                           with its tile's value whatever this holds, so a
                           caller of pass_buffers must fill it with
                           codegen_gemm_tile_options (0 on AVX2 reserves too
                           little: cg_scratch's check aborts) */
  bool gemm_skinny_serial_packed; /* codegen's skinny GEMM path reads a constant B
                                     packed with one thread too (with more it
                                     always does); driver_compile asks codegen */
  /* Whether codegen's kernel of a dot_general or convolution packs its B
   * operand, and how, for these options (their gemm_panel_bytes,
   * conv_panel_bytes, gemm_skinny_serial_packed and threads; the layout
   * pass packs constant B operands so);
   * driver_compile sets codegen_gemm_b_packing (NULL: no kernel does). */
  bool (*gemm_b_packing)(const Op *op, const struct CompileOptions *o, GemmPacking *out);
  FILE *memory_plan;    /* --print-memory-plan: where codegen writes the plan
                           of an object (codegen/report.c), or NULL */
} CompileOptions;

int pass_verify(Module *m);                         /* passes/verify.c */
/* Whether the verifier has rules for op c (a unit test asks it for every
 * op marked OPF_IMPL). */
bool verify_has_rules(OpCode c);
/* Verifies one op (not its regions) and sets result sizes written `?` that
 * the spec's shape functions infer from the operands (refine_shapes).
 * Returns the number of errors (diagnosed). */
int verify_refine_op(Module *m, Func *f, Op *op);
int pass_inline(Module *m);                         /* passes/inline.c */
int pass_decompose_chlo(Module *m);                 /* passes/chlo.c */
int pass_refine_shapes(Module *m, const CompileOptions *o); /* passes/refine_shapes.c */
/* Makes dynamic_conv op the convolution it stands for, with padding pad
 * (low and high of each spatial dimension in turn), or, with pad_sym, the
 * symbolic padding the entry evaluates, the padding operand kept
 * (passes/refine_shapes.c). */
void refine_conv_padding(Module *m, Op *op, const int64_t *pad, const DimExpr *const *pad_sym);
/* passes/symbolic.c, called by refine_shapes for an entry it does not
 * specialize: symbols for the `?` sizes and the dimension arguments given,
 * Value.sym and Func.sym; returns the number of errors. */
int refine_symbolic(Module *m, Func *f, Value **dim_args, const char **dim_names, int ndims);
int pass_legalize(Module *m, const CompileOptions *o); /* passes/legalize.c */
int pass_lower_quant(Module *m);                    /* passes/quant.c */
int pass_simplify(Module *m);                       /* passes/simplify.c */
int pass_fuse(Module *m, const CompileOptions *o);  /* passes/fuse.c */
/* The GEMM epilogue rule (passes/fuse.c), which codegen/dyndims.c applies
 * too on the fusion it plans for a symbolic entry: the dot_general or
 * convolution D whose result the unfused elementwise op `root` computes
 * as D's epilogue, or NULL. D is unfused with one use, and from that use
 * a chain of fused elementwise ops of D's shape with one use each (or,
 * with in_kernel, several uses all in root's kernel: GELU reads the biased
 * dot twice) leads to root, which stores D's element type; the first such
 * D in operand order. The facts come from the caller: whether an op (one
 * result) is computed inside its user, how many uses a value has, and
 * (optional, NULL: single uses only) whether all of a value's uses are in
 * root's kernel. */
typedef struct FuseFacts {
  const void *ctx;
  bool (*fused)(const void *ctx, const Op *op);
  int (*nuses)(const void *ctx, const Value *v);
  bool (*in_kernel)(const void *ctx, const Value *v, const Op *root);
} FuseFacts;
Op *fuse_epilogue_source(const FuseFacts *ff, Op *root);
int pass_buffers(Module *m, const CompileOptions *o); /* passes/buffers.c */
/* passes/layout.c: constants that only dot_general / convolution kernels
 * read as B get Value.packed (the kernels' tile: o->gemm_panel_bytes, a
 * convolution's o->conv_panel_bytes; which
 * kernels pack B: o->gemm_b_packing).
 * layout_packed_elems: the elements of a packed constant (padding
 * included); layout_pack: writes them to dst from the row-major src
 * (elements of esz bytes; with splat, src is one element), for codegen
 * to emit; layout_same_packing: whether a and b pack alike. */
int pass_layout(Module *m, const CompileOptions *o);
int64_t layout_packed_elems(const GemmPacking *p);
void layout_pack(const GemmPacking *p, const void *src, int esz, bool splat, void *dst);
bool layout_same_packing(const GemmPacking *a, const GemmPacking *b);
/* The structural checker (passes/check.c), run after every pass with
 * --verify-each: IR links and SSA scoping, and the fusion and storage
 * invariants once `after` is fuse or buffers. */
int pass_check(Module *m, const CompileOptions *o, const char *after);
/* Each returns 0 on success or a non-zero count of errors (diagnosed). */

/* ------------------------------------------------------------------------ */
/* Helpers shared by passes and codegen (ir/ir.c)                            */

/* Op classes (ir/ir.c), each derived from the flags of the OPS table once.
 * Passes and codegen ask these; none keeps a list of ops of its own. */
bool ir_is_elementwise(OpCode c);
/* custom_call @shape_assertion (jax.export's check of the sizes). */
bool ir_is_shape_assertion(const Op *op);   /* OPF_UNARY/BINARY/TERNARY */
/* Its error_message is a Python format string (jax.export formats it with
 * str.format): `{i}` stands for operand i + 1, a 0-d integer. When s
 * starts such a field, returns i and sets *end past it; else -1 (the text
 * is kept as it is). */
int ir_message_field(const Op *op, const char *s, const char **end);
bool ir_is_costly(OpCode c);        /* OPF_COSTLY */
/* May be computed inside its consumers: elementwise, or OPF_FUSIBLE. */
bool ir_is_fusible(OpCode c);
/* Cheap to recompute per use: OPF_CHEAP, or elementwise and not costly. */
bool ir_is_cheap(OpCode c);
bool ir_is_movement(OpCode c);      /* OPF_MOVEMENT */
bool ir_reads_buffers(OpCode c);    /* OPF_BUFFERS */
bool ir_is_gemm(OpCode c);          /* OPF_GEMM */
bool ir_needs_runtime(OpCode c);    /* OPF_RUNTIME */
/* Must stay when unused: OPF_SIDE_EFFECT, checks, terminators. */
bool ir_has_side_effect(OpCode c);
/* Emitted in the entry function, not as a kernel: OPF_ENTRY, checks,
 * terminators. */
bool ir_is_entry_op(OpCode c);
/* while/if/case, whose regions are kernel blocks (OPF_CONTROL). */
bool ir_has_kernel_blocks(OpCode c);
/* An op whose regions are scalar computations (reduce bodies, comparators). */
bool ir_has_scalar_regions(const Op *op);
/* Computed by a kernel that reads its operands elementally (at the index
 * it needs), so a fusible operand may be computed inside it: an implemented
 * op, not an entry op, not OPF_BUFFERS. */
bool ir_reads_elementally(const Op *user);
/* Gets a kernel of its own: not fused, not an alias, not a constant (data
 * in the object), not an entry op. */
bool ir_is_kernel_root(const Op *op);
/* A reduce of one input over its last dimension only (spec "reduce"): the
 * fuse pass may compute it once per row inside the kernel of the
 * elementwise op that consumes it (a row kernel: softmax, layernorm). */
bool ir_is_row_reduce(const Op *op);

/* Whether op's GEMM kernels take the target's convolution tile (its B
 * panels CompileOptions.conv_panel_bytes wide), not the dot_general's:
 * one answer for the buffers pass's scratch and codegen's kernels. */
bool ir_gemm_conv_tile(const Op *op);

/* Whether an fft (L > 1) keeps its intermediate values in complex<f64>
 * scratch of one batch (IRFFT, whose intermediates are larger than its
 * real result; a complex<f32> result, which would round them) rather than
 * in its result buffer (codegen/fft.c). */
bool ir_fft_intermediates_in_scratch(const Op *op);
/* Bytes of an fft's scratch (codegen/fft.c): one line of complex<f64>
 * (the longest transformed dimension; *line_bytes, 64-byte aligned) and,
 * where ir_fft_intermediates_in_scratch, one batch of complex<f64>
 * intermediates after it (of the operand's shape for IRFFT, else the
 * result's). */
int64_t ir_fft_scratch_bytes(const Op *op, int64_t *line_bytes);
/* Bytes of scratch one call of op's own kernel may need (GEMM packing
 * buffers, FFT lines, row buffers) on a target whose GEMM tile packs panel_bytes per
 * row of B (0: unknown, assume the widest), with room for a Winograd
 * convolution's blocks where winograd allows it (ir_conv_wino), 0 for
 * none: an upper bound codegen checks (for a dot_general of symbolic
 * sizes too). The buffers pass places it in the temp arena, once per
 * concurrent chunk. kc_tall: CompileOptions.gemm_kc_tall (ir_dot_kc_deep). */
int64_t ir_kernel_scratch_bytes(const Op *op, int panel_bytes, bool winograd, int kc_tall);
/* The deepest K slice (KC) of a blocked dot_general that reads A in place
 * and packs B per call (codegen/gemm.c's gemm_plan_deep); other GEMMs
 * slice K by at most 128. */
enum { IR_DOT_KC_DEEP = 512 };
/* The deepest K slice ir_kernel_scratch_bytes makes room for in op's
 * packed B panel: IR_DOT_KC_DEEP, or 128 where the deeper slices do not
 * pay (A packed; at most 8 rows: the skinny path's dots, whose scratch
 * embedded targets would otherwise pay for; a constant B, which the layout
 * pass packs at compile time), or kc_tall (> 0: the target's
 * CompileOptions.gemm_kc_tall) for a dot of IR_DOT_TALL_ROWS rows or more
 * a batch and K deeper than IR_DOT_KC_DEEP whose slices would be
 * IR_DOT_KC_DEEP deep. codegen/gemm.c's
 * gemm_plan_deep slices no deeper than this. */
int64_t ir_dot_kc_deep(const Op *op, int kc_tall);
/* Rows from which a dot's A block of IR_DOT_KC_DEEP columns (1 MiB of
 * f32) is twice a 512 KiB L2: its block streams from L3 at KC 512, so for
 * K deeper than that, deeper slices only save passes over C
 * (codegen/gemm.c's GemmTile.kc_tall). */
enum { IR_DOT_TALL_ROWS = 512 };
/* The in-place skinny path computes C in its scratch, 4 KiB of room
 * beside it, only for rows of C of this many bytes or more (and more
 * than one row; codegen/gemm.c's skinny_stages). */
enum { IR_SKINNY_STAGE_MIN_BYTES = 1024 };
/* A convolution whose weights the layout pass packed runs as an indirect
 * GEMM (codegen/conv.c): its scratch holds a table of row pointers, one
 * per (output position, kernel tap) of a block of at most IR_CONV_IND_ROWS
 * rows, at most IR_CONV_IND_BYTES bytes (a full block of a 3 x 3 kernel);
 * the block has fewer rows when the kernel has more taps, and the table
 * fewer bytes with fewer rows. */
enum { IR_CONV_IND_ROWS = 288, IR_CONV_IND_BYTES = IR_CONV_IND_ROWS * 9 * 8 };
/* The indirect GEMM of a convolution with few input features (ResNet-50's
 * stem: 7 x 7 taps of 3 features, a pointer per 3 x NR multiply-adds)
 * folds the taps of the last spatial dimension into K when the input,
 * kernel and result are NHWC, HWIO, NHWC without window dilation along
 * it: the KW x C values of a window row are then contiguous in the input
 * and the rows of the kernel's matrix at the other taps (K = KW x C). A
 * window row reaching into the padding (or past the input) is gathered
 * with its zeros into the scratch, after the table: `edges` result
 * columns of each of at most `nq` result rows of a block (of at most
 * IR_CONV_IND_ROWS rows) and each tap, `edge_bytes` in all. The first
 * `left` columns and the last edges - left are the ones gathered. */
enum { IR_CONV_FOLD_MAX_C = 4 };
typedef struct IrConvFold {
  int64_t kw; /* taps folded: the last kernel spatial extent */
  int64_t left, edges, nq, edge_bytes;
} IrConvFold;
/* Whether op (a convolution that fits the indirect GEMM otherwise) folds;
 * *f its geometry then. */
bool ir_conv_fold(const Op *op, IrConvFold *f);
/* A convolution of f32 NHWC input, HWIO 3 x 3 kernel and NHWC result,
 * stride 1, no dilation, reversal or grouping, padding 0..2, static
 * sizes, whose weights the layout pass packs, runs by Winograd's
 * F(m x m, 3 x 3) (codegen/winograd.c; m = 2 or 4: IR_WINO_F4_MULS_PER_READ):
 * result tiles of m x m, th x tw of them per image, in blocks of nq tile
 * rows (nt = nq x tw tiles at most, the transformed input U and products
 * M of a block within IR_WINO_BLOCK_BYTES); scratch_bytes: a call's
 * scratch, U first, then M at m_at, the row pointers' table at tab_at
 * and at junk_at a row the stores past the result's edge go to where
 * they are not masked off (scalar K tails on x86, other targets). Each block reads all of V ((m + 2)^2 C x K matrices), so
 * larger blocks read it less often (measured with m = 2):
 * ResNet-50 at batch 1, one thread, CPU time, interleaved calls against 1
 * MiB (load 5): 256 KiB 1.10x slower, 512 KiB 1.10x, 2 MiB 0.99-1.00x,
 * 4 MiB 1.02x (batch 8 1.01x), 8 MiB 1.01x. On the 2-core Zen 3 (512 KiB
 * L2, F(4 x 4) where the rule takes it) 512 KiB again no faster: ResNet-50
 * b1, one thread, bench/ab.py, 20 calls, load 8: 1.035, 1.046, 1.003. */
enum { IR_WINO_BLOCK_BYTES = 1024 * 1024 };
/* Where one image's tiles fit a block and V is at least
 * IR_WINO_WIDE_V_BLOCKS times IR_WINO_BLOCK_BYTES, a block holds the tiles
 * of IR_WINO_WIDE_IMAGES whole images (batch > 1 only), and threads split
 * the tile rows of all images at a grain of one block, as many images
 * (cg_conv_wino_split, winograd.c), so that V is read half as often.
 * ResNet-50 b8's 7 x 7 x 512 layers (F(2 x 2), 16 tiles and 1 MiB of U and
 * M an image, V 16 MiB), paired per-loop medians of alternating calls
 * (SCHED_FIFO), measured while the grain was lost (pieces of 2 + 1 + 1
 * images a thread): 2 threads 0.939x and 0.952x the time of one-image
 * blocks (40 calls, load 6.5-7), 0.89x with the test suite running beside
 * them; one thread 0.82-0.83x with it (20 calls); blocks of 4 images (one
 * piece a thread) 0.983-0.994x. With the grain (2 + 2), the whole model at
 * 2 threads 0.976-0.986x of one-image blocks (bench/ab.py, 3 x 12 calls,
 * load 3-4 with the test suite running). */
enum { IR_WINO_WIDE_V_BLOCKS = 8, IR_WINO_WIDE_IMAGES = 2 };
/* ... and has at least this many tile rows in all images (th x batch).
 * Threads split tiles (cg_conv_wino_split) and each reads all of V:
 * with few tile rows, V's bytes outweigh the multiplies saved, and the
 * direct kernel, whose column split gives each thread its own panels, is
 * faster. ResNet-50 at batch 1, 2 threads (min and median of 30
 * alternating calls, load 1.6): its 7 x 7 layers (4 tile rows, 16 MB of V
 * each) direct 34.4 / 34.9 ms against 35.4 / 35.8 all by Winograd; the
 * 14 x 14 ones (7 tile rows) direct as well 36.7 / 37.1; at one thread the
 * 7 x 7 layers were as fast either way (1.00x), at batch 8 (32 tile rows)
 * 2% slower direct. The rule does not depend on the thread count, so that
 * the results' bits do not either. */
enum { IR_WINO_MIN_TILE_ROWS = 6 };
/* Such a convolution takes F(4 x 4, 3 x 3) (m = 4: 36 GEMMs on 6 x 6
 * input tiles, 2.25 multiplies per result against F(2 x 2)'s 4) when, on
 * one thread, its GEMMs multiply less and save at least this many
 * multiplies (of C x K each) per element of V (C x K) read more than
 * F(2 x 2)'s: V is 2.25x larger, each block reads all of it, and its
 * blocks hold fewer results. Break-even on one core is about 13
 * (50 G multiply-adds/s against 15 GB/s of V's floats), more with two
 * threads sharing the bandwidth. ResNet-50 (its 3 x 3 layers have C = K;
 * at batch 1 and 8 alike): 56 x 56 x 64 and 28 x 28 x 128 save 171-392,
 * 14 x 14 x 256 5-10, 7 x 7 x 512 6; F(4 x 4) at the first
 * two (min of 20 interleaved calls, load 5, 1 / 2 threads): batch 1
 * 0.96 / 0.97x the time of F(2 x 2), batch 8 0.91-0.95 / 0.87-0.95x;
 * also at 14 x 14: batch 1 0.98 / 1.01x, batch 8 mixed. Alone (its V
 * in cache) a 14 x 14 x 256 layer at batch 1 takes 0.80x / 1.0x the
 * time by F(4 x 4), a 7 x 7 x 512 one at batch 8 1.1 / 1.25x. */
enum { IR_WINO_F4_MULS_PER_READ = 32 };
typedef struct IrWino {
  int64_t m, th, tw, nq, nt, scratch_bytes, m_at, tab_at, junk_at;
} IrWino;
/* The GEMMs of the plan w, one per element of an (m + 2) x (m + 2) input
 * tile: 16 or 36. */
static inline int64_t ir_wino_taps(const IrWino *w) { return (w->m + 2) * (w->m + 2); }
/* Bytes of its transformed f32 weights V for C input and K output features. */
static inline int64_t ir_wino_v_bytes(const IrWino *w, int64_t c, int64_t k) {
  return ir_wino_taps(w) * c * k * 4;
}
/* Whether op takes that path when its weights are packed; *w its plan. */
bool ir_conv_wino(const Op *op, IrWino *w);
/* A row kernel (fuse.c fuse_rows) keeps a costly value that several of its
 * loops over a row read in a row buffer of its scratch, for rows of at
 * most this many bytes: ir_row_buffer_bytes(type), 64-byte aligned. */
enum { IR_ROW_CACHE_BYTES = 16384 };
int64_t ir_row_buffer_bytes(const Type *t);

/* Whether v is one of the elements of l (dimension lists of attributes). */
bool ir_list_has(const I64List *l, int64_t v);

/* n rounded up to a multiple of 64: the alignment of every arena block. */
int64_t ir_align64(int64_t n);

/* Entries and the process grid (spec "Parallel execution"). */
/* Whether f is compiled as an entry point: the function o->entry names
 * (every public one without it), or a program or infeed function named by
 * an interpreter.run_parallel op of m (shloc check runs them as processes). */
bool ir_func_is_entry(Module *m, const Func *f, const CompileOptions *o);
bool ir_is_parallel_program(Module *m, const Func *f);
/* Whether f (regions included) has an OPF_RUNTIME op: its entry then takes
 * the process context (runtime/shlort.h, the grid ABI). */
bool ir_func_needs_proc(Func *f);
/* The module's grid size from its mhlo.num_replicas and
 * mhlo.num_partitions attributes (the driver sets them from --replicas and
 * --partitions); 0 where absent. */
void ir_module_grid(const Module *m, int64_t *replicas, int64_t *partitions);

/* Row-major strides in elements of a static tensor type. */
void ir_strides(const Type *t, int64_t *strides);

#endif
