#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

/* The write end of the REPL's self-pipe: Ctrl-C writes one byte to it and does nothing
   else, so the handler stays async-signal-safe; the line editor's loop reads the byte
   and resets the line outside the handler. */
static volatile sig_atomic_t forager_interrupt_fd = -1;

static void forager_on_interrupt(int signal_number) {
  (void)signal_number;
  int saved = errno;
  if (forager_interrupt_fd >= 0) {
    char byte = 'i';
    ssize_t written = write(forager_interrupt_fd, &byte, 1);
    (void)written;
  }
  errno = saved;
}
