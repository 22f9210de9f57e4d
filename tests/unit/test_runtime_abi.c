/* test_runtime_abi.c: the runtime's element codes (runtime/shlort.h) are the
 * compiler's ElemType values (ir/ir.h), since generated code passes
 * ElemType values to the runtime. The runtime is built without ir/ on its
 * include path, so this file is where the two tables meet.
 *
 * Compile time: every SHLORT_ELEM_TYPES row names the ElemType of the same
 * name with the same value and bit width; the rows the runtime lacks are
 * exactly tf32, index and quantized. Run time, over every ELEM_TYPES row
 * codegen supports: the runtime handles it with the compiler's storage
 * size and class, and the small float formats agree with SMALL_FLOATS. */
#include "ir/ir.h"
#include "runtime/elem.h"
#include "runtime/shlort.h"
#include "unit.h"

#define SAME_CODE(name, code, bits, cls, spelling) \
  _Static_assert(SHLORT_##name == ET_##name && (code) == ET_##name, "code of " #name);
SHLORT_ELEM_TYPES(SAME_CODE)
#undef SAME_CODE

#define COUNT(name, code, bits, cls, spelling) +1
enum { RUNTIME_ROWS = 0 SHLORT_ELEM_TYPES(COUNT) };
#undef COUNT
_Static_assert(RUNTIME_ROWS + 3 == ET_COUNT, "the runtime lacks only tf32, index and quant");

static void compiler_rows(void) {
#define ROW(e, name, bits, cls_, ctype, ok)                                    \
  if (ok) {                                                                   \
    shlort_elem_kind k;                                                       \
    EXPECT(shlort_elem_kind_of(e, &k) == 0);                                  \
    EXPECT_I64(shlort_elem_bytes(e), elem_bytes(e));                          \
    EXPECT_I64(k.cls, cls_);                                                   \
  } else {                                                                    \
    EXPECT_I64(shlort_elem_bytes(e), -1);                                     \
  }
  ELEM_TYPES(ROW)
#undef ROW
}

static void runtime_rows(void) {
#define ROW(name, code, bits_, cls_, spelling)           \
  EXPECT_I64(elem_bits(ET_##name), bits_);               \
  EXPECT_I64(elem_class(ET_##name), cls_);               \
  EXPECT(!strcmp(elem_name(ET_##name), spelling));       \
  EXPECT_I64(shlort_elem_from_name(spelling), ET_##name);
  SHLORT_ELEM_TYPES(ROW)
#undef ROW
}

static void small_floats(void) {
  static const int kinds[] = {[FK_IEEE] = SHLORT_FK_IEEE, [FK_FN] = SHLORT_FK_FN,
                              [FK_FNUZ] = SHLORT_FK_FNUZ, [FK_FINITE] = SHLORT_FK_FINITE,
                              [FK_E8M0] = SHLORT_FK_E8M0};
#define ROW(e, eb, mb, bias_, kind)       \
  {                                       \
    shlort_elem_kind k;                   \
    EXPECT(shlort_elem_kind_of(e, &k) == 0); \
    EXPECT_I64(k.ebits, eb);              \
    EXPECT_I64(k.mbits, mb);              \
    EXPECT_I64(k.bias, bias_);            \
    EXPECT_I64(k.fk, kinds[kind]);        \
  }
  SMALL_FLOATS(ROW)
#undef ROW
}

int main(void) {
  compiler_rows();
  runtime_rows();
  small_floats();
  return unit_report();
}
