// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stop signals in the middle of a write (the transaction's, lib/txn.c).
 *
 * A write that SIGTERM cuts in half leaves the machine half at
 * a point.  While a writer catches them (pm_stop_catch), the stop
 * signals only set a flag, read before each write: the apply stops
 * there and rolls back what it wrote, as after a failed write, and a
 * signal during the rollback only sets the flag again.
 */
#include <signal.h>
#include <string.h>

#include "stop.h"

static const int stop_signals[PM_STOP_NSIG] = { SIGINT, SIGTERM, SIGHUP,
						SIGQUIT };

/* The last stop signal caught, 0 none: all a handler may do is set it. */
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

void pm_stop_catch(struct pm_stop *s)
{
	struct sigaction sa;

	if (s->on)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/* The other stop signals wait while the flag is set; a read or a
	 * write goes on rather than fail with EINTR. */
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < PM_STOP_NSIG; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	sa.sa_flags = SA_RESTART;
	stop_sig = 0;
	for (int i = 0; i < PM_STOP_NSIG; i++) {
		sigaction(stop_signals[i], NULL, &s->old[i]);
		/* Ignored when we started (nohup): it stays ignored. */
		if (s->old[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	}
	s->on = true;
	s->held = false;
}

int pm_stop_caught(void)
{
	return stop_sig;
}

void pm_stop_hold(struct pm_stop *s)
{
	sigset_t set;

	if (!s->on || s->held)
		return;
	sigemptyset(&set);
	for (int i = 0; i < PM_STOP_NSIG; i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, &s->mask);
	s->held = true;
}

void pm_stop_release(struct pm_stop *s)
{
	if (!s->on)
		return;
	for (int i = 0; i < PM_STOP_NSIG; i++)
		if (s->old[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &s->old[i], NULL);
	s->on = false;
	/* A signal that came since pm_stop_hold now acts as it would have
	 * without us: the transaction is over, all or nothing. */
	if (s->held)
		sigprocmask(SIG_SETMASK, &s->mask, NULL);
	s->held = false;
}

const char *pm_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		return "a signal";
	}
}
