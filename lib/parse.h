/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: strict parsers and formatters of the kernel's values: numbers,
 * booleans, frequencies, durations, choice lists (lib/parse.c).
 */
#ifndef PM_PARSE_H
#define PM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Digits at *s into *v; advances *s.  -EINVAL if none, -ERANGE overflow. */
int pm_parse_digits(const char **s, uint64_t *v);
/* Strict decimal: no sign, no junk, no empty, no overflow. */
int pm_parse_u64(const char *s, uint64_t *v);
int pm_parse_u32(const char *s, uint32_t *v);
/* Optional leading '-'. */
int pm_parse_s64(const char *s, int64_t *v);
/* "on"/"off", "1"/"0", "yes"/"no", "true"/"false", "enabled"/"disabled". */
int pm_parse_bool(const char *s, bool *v);
/* Percentage 0..100. */
int pm_parse_pct(const char *s, unsigned *v);

/*
 * A frequency: bare number = kHz; Hz, kHz, MHz, GHz in any case, decimals
 * allowed ("1.2GHz").  Result in Hz; -EINVAL for junk or a fraction of a
 * Hz, -ERANGE for overflow.
 */
int pm_parse_freq_hz(const char *s, uint64_t *hz);
/* Same, in kHz; a value that is not a whole number of kHz is -EINVAL. */
int pm_parse_freq_khz(const char *s, uint64_t *khz);
/* A duration: bare = seconds; us, ms, s, min, h; decimals; result in us. */
int pm_parse_duration_us(const char *s, uint64_t *us);
/* Format kHz for people: "800 MHz", "1.2 GHz", "2.401 GHz". */
char *pm_fmt_khz(uint64_t khz, char *buf, size_t size);

/*
 * A kernel choice list: "a b [c] d" (sleep states, mem_sleep, disk,
 * pm_test) or "a b c " (governors).  Splits in place into names[];
 * *current is the index of the bracketed one or -1.  Returns the count.
 */
int pm_choices_split(char *s, char **names, int max, int *current);
/* Is word one of the space-separated words in list? */
bool pm_word_in(const char *list, const char *word);

/* The bracketed choice into out ("" if none). */
void pm_choice_current(const char *list, char *out, size_t size);
/* Letters, digits, '_' and '-', 1 to max characters. */
bool pm_fset_name_ok(const char *s, size_t max);
/* The word of a "a [b] c" list equal to w ignoring case (the kernel's
 * match), copied to out. */
bool pm_word_find(const char *list, const char *w, char *out, size_t size);
/* "1.2 GHz" for a whole number of kHz, else "1234 Hz". */
char *pm_fmt_hz(uint64_t hz, char *buf, size_t size);

#endif /* PM_PARSE_H */
