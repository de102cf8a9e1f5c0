// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "choice": the kernel choice lists ("a b [c] d", "a b c ")
 * of lib/parse.c, lib/sleep.c and lib/fset.c on arbitrary text.
 *
 * The first byte is the size of the output buffer (modulo 80, so 0 too:
 * pm_choice_current promises to handle it), allocated to exactly that
 * many bytes.  The rest is the list; a NUL byte in it splits off a word
 * to look up.  Checked against reference versions written from pm.h:
 *
 *   pm_choice_current   the text between the first '[' and the next ']'
 *   pm_choice_selected  the same, else the list when it is one word
 *   pm_choices_split    count within max, names without blanks, current
 *                       an index of names[] or -1
 *   pm_word_in          every word of the list is in it (and a word of
 *                       plain characters is found exactly when it occurs
 *                       as a whole word)
 *   pm_word_find        the match it copies is the word, ignoring case
 */
#include <errno.h>
#include <strings.h>

#include "fuzz.h"

#define MAX_NAMES 64

static void ref_current(const char *list, char *out, size_t size)
{
	const char *a = strchr(list, '['), *b = a ? strchr(a, ']') : NULL;
	size_t n;

	if (!size)
		return;
	out[0] = '\0';
	if (!a || !b)
		return;
	n = (size_t)(b - a - 1);
	if (n > size - 1)
		n = size - 1;
	memcpy(out, a + 1, n);
	out[n] = '\0';
}

static void ref_selected(const char *list, char *out, size_t size)
{
	ref_current(list, out, size);
	if (size && !out[0] && list[0] && !strpbrk(list, " \t[]"))
		snprintf(out, size, "%s", list);
}

static bool ref_word_in(const char *list, const char *w)
{
	size_t wl = strlen(w), ll = strlen(list);

	if (!wl)
		return false;
	for (size_t i = 0; i + wl <= ll; i++) {
		if (memcmp(list + i, w, wl))
			continue;
		if (i && !strchr(" [\t\n", list[i - 1]))
			continue;
		if (list[i + wl] && !strchr(" ]\n\t", list[i + wl]))
			continue;
		return true;
	}
	return false;
}

static bool plain(const char *w)
{
	return !strpbrk(w, " \t\n[]");
}

/*
 * Exactly size bytes.  For 0, the end of a 1-byte block: ASan rounds
 * malloc(0) up to one byte, so only that catches a read of out[0].
 */
static char *out_buf(size_t size, char **base)
{
	*base = malloc(size ? size : 1);
	if (!*base)
		abort();
	return size ? *base : *base + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t osz;
	char *list, *word = NULL, *copy, *o, *r, *ob, *rb;
	char **names;
	int n, cur, max;

	if (!size)
		return 0;
	osz = data[0] % 80;
	list = fz_str(data + 1, size - 1);
	if (strlen(list) < size - 1)
		word = list + strlen(list) + 1;
	o = out_buf(osz, &ob);
	r = out_buf(osz + 1, &rb);

	pm_choice_current(list, o, osz);
	ref_current(list, r, osz);
	if (osz) {
		CHECK(fz_terminated(o, osz));
		CHECK(!strcmp(o, r));
	}
	pm_choice_selected(list, o, osz);
	ref_selected(list, r, osz);
	if (osz) {
		CHECK(fz_terminated(o, osz));
		CHECK(!strcmp(o, r));
	}

	/* Split with a names[] of exactly max entries. */
	max = (int)(osz % 17);
	names = malloc((size_t)(max ? max : 1) * sizeof(*names));
	copy = strdup(list);
	if (!names || !copy)
		abort();
	n = pm_choices_split(copy, names, max, &cur);
	CHECK(n >= 0 && n <= max);
	CHECK(cur == -1 || (cur >= 0 && cur < n));
	for (int i = 0; i < n; i++)
		CHECK(!strpbrk(names[i], " \t\n"));
	free(copy);
	free(names);

	/* Every word of the list is in the list. */
	names = malloc(MAX_NAMES * sizeof(*names));
	copy = strdup(list);
	if (!names || !copy)
		abort();
	n = pm_choices_split(copy, names, MAX_NAMES, NULL);
	CHECK(n >= 0 && n <= MAX_NAMES);
	for (int i = 0; i < n; i++) {
		if (!names[i][0] || !plain(names[i]))
			continue;
		CHECK(pm_word_in(list, names[i]));
		CHECK(pm_choice_offered(list, names[i]));
	}
	free(copy);
	free(names);

	if (word) {
		bool in = pm_word_in(list, word);

		if (plain(word))
			CHECK(in == ref_word_in(list, word));
		if (pm_word_find(list, word, o, osz) && osz) {
			size_t want = strlen(word) < osz - 1 ? strlen(word) :
							       osz - 1;

			CHECK(fz_terminated(o, osz));
			CHECK(strlen(o) == want);
			CHECK(!strncasecmp(o, word, want));
		}
		(void)pm_fset_name_ok(word, PM_NAME_MAX - 1);
		(void)pm_opp_name_valid(word);
	}
	free(ob);
	free(rb);
	free(list);
	return 0;
}
