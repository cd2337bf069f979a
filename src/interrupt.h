/* SIGINT and SIGTERM during a sweep: the first one asks the sweep to stop at the next
 * whole row (the measurement in flight finishes, its CUPTI session is closed, rows
 * already complete stay); a second one removes the registered temporary file and exits
 * at once (the same signal from the same process within a second counts once: `timeout`
 * sends it twice). Exit status 128 + the signal number (130, 143), as shells expect. */
#ifndef GEMMPROF_SRC_INTERRUPT_H
#define GEMMPROF_SRC_INTERRUPT_H

void interrupt_install(void);
/* Restores the default handlers (after the sweep, so a later report can be stopped). */
void interrupt_uninstall(void);
/* The signal that asked the sweep to stop, or 0. */
int interrupt_pending(void);
/* A file the second signal removes before exiting (NULL for none); copied. */
void interrupt_set_temp_file(const char *path);

#endif
