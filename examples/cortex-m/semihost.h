/* semihost.h: output and exit through ARM semihosting (startup.c). */
#ifndef SEMIHOST_H
#define SEMIHOST_H

/* Writes a NUL-terminated string to the debugger's (QEMU's) console. */
void semihost_puts(const char *s);
/* Ends the program: QEMU exits with 0 when status is 0, else 1. */
void semihost_exit(int status) __attribute__((noreturn));

#endif
