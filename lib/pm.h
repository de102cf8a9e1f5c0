/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the one place pmtools touches /sys, /proc and /dev.  Every
 * function returns 0 (or a count) on success and -errno on failure, and
 * fills ctx->err so the tool can say which file, which value and why.
 *
 * This header is all of it: the umbrella that the tools in cmd/ and the
 * tests include, as they use most layers.  Nothing is declared here.
 * Inside lib/, each file includes the headers of what it uses, and each
 * header only the layers below its own:
 *
 *   core: below everything; no kernel model, nothing printed to stderr
 *     parse.h core.h cpuset.h out.h
 *   transaction: writes applied, read back, rolled back, journaled, locked
 *     txn.h stop.h journal.h lock.h child.h
 *   kernel models: one header per subsystem, each over the core
 *     cpu.h cpuidle.h cpufreq.h proc.h counter.h virt.h sample.h delta.h
 *     sleep.h trace.h history.h hooks.h opp.h supply.h thermal.h state.h
 *     psi.h devfreq.h profile.h domains.h powercap.h dump.h device.h tune.h
 *     conf.h
 *   tool layer: the only code that prints to stderr or exits
 *     tool.h writer.h fset.h plan.h tuneplan.h
 */
#ifndef PM_H
#define PM_H

#include "parse.h"
#include "core.h"
#include "cpuset.h"
#include "out.h"
#include "nl80211.h"
#include "txn.h"
#include "stop.h"
#include "journal.h"
#include "lock.h"
#include "child.h"
#include "cpu.h"
#include "cpuidle.h"
#include "cpufreq.h"
#include "proc.h"
#include "counter.h"
#include "virt.h"
#include "sample.h"
#include "delta.h"
#include "sleep.h"
#include "trace.h"
#include "history.h"
#include "hooks.h"
#include "opp.h"
#include "supply.h"
#include "thermal.h"
#include "state.h"
#include "psi.h"
#include "devfreq.h"
#include "profile.h"
#include "domains.h"
#include "powercap.h"
#include "dump.h"
#include "device.h"
#include "tune.h"
#include "snapimg.h"
#include "snapdev.h"
#include "conf.h"
#include "tool.h"
#include "writer.h"
#include "fset.h"
#include "plan.h"
#include "tuneplan.h"

#endif /* PM_H */
