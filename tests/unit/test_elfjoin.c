/* Unit tests of codegen/elfjoin.c on two objects LLVM emits from IR
 * written here, as optsplit.c's modules are: the first (a) has the entry
 * and a local helper, the second (b) a hidden kernel that calls the
 * helper and reads constants of its own (relocations against b's
 * .rodata section symbol, whose addends the join moves). The joined
 * object is linked with cc into a program whose results are checked
 * against plain C; then the join's refusals: a hidden symbol no object
 * defines (from either side), a symbol both define, input that is not
 * ELF. Ends with `N passed, N failed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "unit.h"
#include "codegen/codegen.h"

/* entry(x) = kb(x) + ta[x & 3] + helper(x), helper(x) = 3x. */
static const char IR_A[] =
    "@ta = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]\n"
    "declare hidden i32 @kb(i32)\n"
    "define internal i32 @helper(i32 %x) noinline {\n"
    "  %y = mul i32 %x, 3\n  ret i32 %y\n}\n"
    "define i32 @entry(i32 %x) {\n"
    "  %k = call i32 @kb(i32 %x)\n  %h = call i32 @helper(i32 %x)\n"
    "  %i = and i32 %x, 3\n  %p = getelementptr [4 x i32], ptr @ta, i32 0, i32 %i\n"
    "  %t = load i32, ptr %p\n  %s = add i32 %k, %t\n  %r = add i32 %s, %h\n  ret i32 %r\n}\n";

/* kb(x) = helper(x) + tb[x & 3], tb after a's constants once joined. */
static const char IR_B[] =
    "@tb = private unnamed_addr constant [4 x i32] [i32 10, i32 20, i32 30, i32 40]\n"
    "declare hidden i32 @helper(i32)\n"
    "define hidden i32 @kb(i32 %x) {\n"
    "  %h = call i32 @helper(i32 %x)\n"
    "  %i = and i32 %x, 3\n  %p = getelementptr [4 x i32], ptr @tb, i32 0, i32 %i\n"
    "  %t = load i32, ptr %p\n  %s = add i32 %h, %t\n  ret i32 %s\n}\n";

static const char DRIVER[] =
    "#include <stdio.h>\n"
    "int entry(int);\n"
    "int main(void) {\n"
    "  static const int ta[4] = {1, 2, 3, 4}, tb[4] = {10, 20, 30, 40};\n"
    "  int bad = 0;\n"
    "  for (int x = 0; x < 64; x++) bad += entry(x) != 6 * x + tb[x & 3] + ta[x & 3];\n"
    "  printf(\"%d\\n\", bad);\n"
    "  return bad != 0;\n"
    "}\n";

/* The object of `ir` for x86-64 Linux (malloc'ed), NULL on failure. */
static char *emit(LLVMTargetMachineRef tm, const char *ir, size_t *len) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "ir");
  LLVMModuleRef mod = NULL;
  char *msg = NULL, *out = NULL;
  if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
    printf("FAIL parse: %s\n", msg);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return NULL;
  }
  LLVMSetTarget(mod, "x86_64-unknown-linux-gnu");
  LLVMMemoryBufferRef obj = NULL;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, &obj)) {
    *len = LLVMGetBufferSize(obj);
    out = malloc(*len);
    memcpy(out, LLVMGetBufferStart(obj), *len);
    LLVMDisposeMemoryBuffer(obj);
  } else {
    printf("FAIL emit: %s\n", msg);
    LLVMDisposeMessage(msg);
  }
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  return out;
}

/* The join of a and b's IR: NULL, or its refusal; the object in *out. */
static const char *join(LLVMTargetMachineRef tm, const char *a, const char *b, char **out,
                        size_t *n) {
  size_t alen = 0, blen = 0;
  char *ao = emit(tm, a, &alen), *bo = emit(tm, b, &blen);
  const char *err = ao && bo ? cg_elf_join(ao, alen, bo, blen, out, n) : "no object";
  free(ao);
  free(bo);
  return err;
}

static void write_file(const char *path, const char *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(p, 1, n, f);
  fclose(f);
}

/* The joined object linked with DRIVER and run: its results checked. */
static void check_linked(LLVMTargetMachineRef tm) {
  char *obj = NULL, dir[] = "/tmp/shloc-elfjoin-XXXXXX", cmd[512], path[256];
  size_t n = 0;
  const char *err = join(tm, IR_A, IR_B, &obj, &n);
  EXPECT_STR(err ? err : "joined", "joined");
  if (err || !mkdtemp(dir)) return;
  snprintf(path, sizeof path, "%s/m.o", dir);
  write_file(path, obj, n);
  snprintf(path, sizeof path, "%s/main.c", dir);
  write_file(path, DRIVER, strlen(DRIVER));
  snprintf(cmd, sizeof cmd, "cc -o %s/t %s/main.c %s/m.o && %s/t > %s/out", dir, dir, dir, dir,
           dir);
  EXPECT_I64(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  EXPECT_I64(system(cmd), 0);
  free(obj);
}

static void check_refusals(LLVMTargetMachineRef tm) {
  char *obj = NULL;
  size_t n = 0;
  static const char b_missing[] =
      "declare hidden i32 @nowhere(i32)\n"
      "define hidden i32 @kb(i32 %x) {\n  %y = call i32 @nowhere(i32 %x)\n  ret i32 %y\n}\n";
  static const char a_missing[] =
      "declare hidden i32 @nowhere(i32)\n"
      "define i32 @entry(i32 %x) {\n  %y = call i32 @nowhere(i32 %x)\n  ret i32 %y\n}\n";
  static const char b_twice[] = "define hidden i32 @kb(i32 %x) {\n  ret i32 %x\n}\n"
                                 "define i32 @entry(i32 %x) {\n  ret i32 %x\n}\n";
  EXPECT_STR(join(tm, IR_A, b_missing, &obj, &n), "a hidden symbol no object defines");
  EXPECT_STR(join(tm, a_missing, IR_B, &obj, &n), "a hidden symbol no object defines");
  EXPECT_STR(join(tm, IR_A, b_twice, &obj, &n), "a symbol both objects define");
  static const char text[] = "not an object at all, but long enough to hold a header .......";
  EXPECT_STR(cg_elf_join(text, sizeof text, text, sizeof text, &obj, &n), "not an ELF object");
}

int main(void) {
#if defined(__x86_64__)
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMTargetRef target = NULL;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple("x86_64-unknown-linux-gnu", &target, &msg)) {
    printf("FAIL target: %s\n", msg);
    return 1;
  }
  LLVMTargetMachineRef tm =
      LLVMCreateTargetMachine(target, "x86_64-unknown-linux-gnu", "x86-64", "",
                              LLVMCodeGenLevelDefault, LLVMRelocPIC, LLVMCodeModelDefault);
  check_linked(tm);
  check_refusals(tm);
  LLVMDisposeTargetMachine(tm);
#else
  printf("NOTICE elfjoin: x86-64 hosts only (the split and join are x86-64's)\n");
#endif
  return unit_report();
}
