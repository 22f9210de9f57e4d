/* startup.c: the least a Cortex-M4F program needs without a C library: a
 * vector table, a reset handler that sets up .data and .bss and turns the
 * FPU on, and output and exit through semihosting (ARM's debug-monitor
 * calls: `bkpt 0xab` with the operation in r0 and its argument in r1,
 * which QEMU with -semihosting serves). */
#include <stdint.h>

#include "semihost.h"

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];
int main(void);

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
/* SYS_EXIT reasons (ARM semihosting: ADP_Stopped_*): QEMU exits with
 * status 0 for ApplicationExit and 1 for the others. */
enum { ADP_APPLICATION_EXIT = 0x20026, ADP_RUNTIME_ERROR = 0x20023 };

static uintptr_t semihost(uintptr_t op, uintptr_t arg) {
  register uintptr_t r0 __asm__("r0") = op;
  register uintptr_t r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void semihost_puts(const char *s) { semihost(SYS_WRITE0, (uintptr_t)s); }

void semihost_exit(int status) {
  semihost(SYS_EXIT, status ? ADP_RUNTIME_ERROR : ADP_APPLICATION_EXIT);
  for (;;) {
  }
}

void reset_handler(void) {
  for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;) *d++ = *s++;
  for (uint32_t *d = __bss_start; d < __bss_end;) *d++ = 0;
  /* CPACR: full access to the coprocessors 10 and 11 (the FPU), before any
   * float instruction runs (ARMv7-M ARM, B3.2.20). */
  *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  semihost_exit(main());
}

static void fault_handler(void) {
  semihost_puts("fault\n");
  semihost_exit(1);
}

/* The initial stack pointer, then the handlers: reset, NMI, hard fault,
 * memory management, bus and usage faults (ARMv7-M ARM, B1.5.3). */
__attribute__((section(".vectors"), used)) static const void *const vectors[] = {
    __stack_top,   (void *)reset_handler, (void *)fault_handler, (void *)fault_handler,
    (void *)fault_handler, (void *)fault_handler, (void *)fault_handler,
};
