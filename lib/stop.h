/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: stop signals caught in the middle of a write (lib/stop.c).
 */
#ifndef PM_STOP_H
#define PM_STOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

/*
 * Signals in the middle of a write: from pm_stop_catch to pm_stop_release,
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (each one not ignored when it
 * starts) only set a flag, which pm_txn_apply reads before each write:
 * the writes stop and are rolled back, and a signal during the rollback
 * does not stop it.  pm_stop_hold blocks them, so that pm_stop_caught()
 * is final; pm_stop_release puts the old actions back, then lets a
 * signal that came meanwhile take its usual course.
 */

#define PM_STOP_NSIG 4

struct pm_stop {
	bool on, held;
	struct sigaction old[PM_STOP_NSIG];
	sigset_t mask;		/* the mask before pm_stop_hold */
};

void pm_stop_catch(struct pm_stop *s);
/* The last stop signal caught since pm_stop_catch, 0 none. */
int pm_stop_caught(void);
void pm_stop_hold(struct pm_stop *s);
void pm_stop_release(struct pm_stop *s);
/* "SIGTERM" */
const char *pm_signal_name(int sig);

#endif /* PM_STOP_H */
