// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regulators (sysfs), generic PM domains and the clock tree (debugfs
 * summaries).  The summaries are parsed by whitespace and indentation,
 * with the columns named by the header: kernels add columns over time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "domains.h"
#include "core.h"
#include "parse.h"

#define REGULATOR_DIR "/sys/class/regulator"
#define DEBUGFS_DIR "/sys/kernel/debug"
#define GENPD_SUMMARY DEBUGFS_DIR "/pm_genpd/pm_genpd_summary"
#define CLK_SUMMARY DEBUGFS_DIR "/clk/clk_summary"
/* regulator.N ids come from an atomic counter; thousands is plenty. */
#define MAX_REGULATORS 4096

/* The header is at most this many lines above its line of dashes. */
#define HEADER_LINES_MAX 4
#define DASHES_MIN 10
/* More words than this on one line is not a summary line. */
#define TOKENS_MAX 64
/* clk_summary puts a second consumer at column 105 and more. */
#define CLK_CONSUMER_INDENT_MIN 40
/* genpd children lines are indented by 48, device lines by 4. */
#define GENPD_CHILD_INDENT_MIN 16
#define CLK_INDENT_PER_LEVEL 3

/* -------------------------------------------------------------- regulators */

/* A number, or unknown for "constraint not defined" and anything else. */
static int64_t reg_number(struct pm_ctx *ctx, int fd, const char *name)
{
	char buf[64];
	int64_t v;

	if (pm_attr_readat(ctx, fd, name, buf, sizeof(buf)) <= 0 ||
	    pm_parse_s64(buf, &v) < 0)
		return PM_UNKNOWN_S64;
	return v;
}

static void reg_text(struct pm_ctx *ctx, int fd, const char *name, char *buf,
		     size_t size)
{
	if (pm_attr_readat(ctx, fd, name, buf, size) < 0)
		buf[0] = '\0';
}

/* base "/" rel with "." and ".." folded; an absolute rel stands alone. */
static void path_fold(char *out, size_t size, const char *base, const char *rel)
{
	char tmp[PM_PATH_MAX * 2];
	size_t len = 0;

	snprintf(tmp, sizeof(tmp), "%s/%s", rel[0] == '/' ? "" : base, rel);
	out[0] = '\0';
	for (char *save = NULL, *c = strtok_r(tmp, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *slash = strrchr(out, '/');

			len = slash ? (size_t)(slash - out) : 0;
			out[len] = '\0';
			continue;
		}
		int n = snprintf(out + len, size - len, "/%s", c);

		if (n < 0 || (size_t)n >= size - len) {
			out[0] = '\0';
			return;
		}
		len += (size_t)n;
	}
	if (!len)
		snprintf(out, size, "/");
}

int pm_link_path(struct pm_ctx *ctx, const char *path, char *out, size_t size)
{
	char rel[PM_PATH_MAX], dir[PM_PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;
	ssize_t n;

	if (!slash)
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = pm_open(ctx, dir[0] ? dir : "/", O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd;
	n = readlinkat(fd, slash + 1, rel, sizeof(rel) - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	rel[n] = '\0';
	path_fold(out, size, dir, rel);
	return 0;
}

static void reg_read_one(struct pm_ctx *ctx, unsigned id,
			 struct pm_regulator *r)
{
	char path[96], canon[PM_PATH_MAX], dev[PM_PATH_MAX + 16];
	int fd;

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->num_users = r->microvolts = r->microamps = PM_UNKNOWN_S64;
	r->min_microvolts = r->max_microvolts = PM_UNKNOWN_S64;
	snprintf(path, sizeof(path), REGULATOR_DIR "/regulator.%u", id);
	fd = pm_open_dir(ctx, path);
	if (fd < 0)
		return;
	reg_text(ctx, fd, "name", r->name, sizeof(r->name));
	reg_text(ctx, fd, "type", r->type, sizeof(r->type));
	r->num_users = reg_number(ctx, fd, "num_users");
	r->microvolts = reg_number(ctx, fd, "microvolts");
	r->min_microvolts = reg_number(ctx, fd, "min_microvolts");
	r->max_microvolts = reg_number(ctx, fd, "max_microvolts");
	r->microamps = reg_number(ctx, fd, "microamps");
	reg_text(ctx, fd, "state", r->state, sizeof(r->state));
	reg_text(ctx, fd, "status", r->status, sizeof(r->status));
	reg_text(ctx, fd, "opmode", r->opmode, sizeof(r->opmode));
	reg_text(ctx, fd, "suspend_mem_state", r->suspend_mem,
		 sizeof(r->suspend_mem));
	reg_text(ctx, fd, "suspend_disk_state", r->suspend_disk,
		 sizeof(r->suspend_disk));
	reg_text(ctx, fd, "suspend_standby_state", r->suspend_standby,
		 sizeof(r->suspend_standby));
	close(fd);
	/* The class entry links to the regulator's own folder, whose
	 * "device" links to the device it belongs to. */
	if (pm_link_path(ctx, path, canon, sizeof(canon)) < 0)
		snprintf(canon, sizeof(canon), "%s", path);
	snprintf(dev, sizeof(dev), "%s/device", canon);
	if (pm_link_path(ctx, dev, r->device, sizeof(r->device)) < 0)
		r->device[0] = '\0';
}

int pm_regulators_read(struct pm_ctx *ctx, struct pm_regulator **out)
{
	unsigned *ids = calloc(MAX_REGULATORS, sizeof(*ids));
	struct pm_regulator *v;
	int n;

	*out = NULL;
	if (!ids)
		return -ENOMEM;
	n = pm_list_numbered(ctx, REGULATOR_DIR, "regulator.", ids,
			     MAX_REGULATORS);
	if (n < 0) {
		free(ids);
		return n;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		free(ids);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		reg_read_one(ctx, ids[i], &v[i]);
	free(ids);
	pm_err_clear(ctx);
	*out = v;
	return n;
}

/* ---------------------------------------------------------------- text */

struct tok {
	char *s;
	size_t len;
};

/* Blank-separated words of a line: the count, or -1 for too many. */
static int tokenize(char *line, struct tok *tk, int max)
{
	int n = 0;

	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (n == max)
			return -1;
		tk[n].s = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		tk[n].len = (size_t)(p - tk[n].s);
		n++;
	}
	return n;
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

static bool tok_s64(const struct tok *t, int64_t *v)
{
	char b[32];

	if (t->len >= sizeof(b))
		return false;
	memcpy(b, t->s, t->len);
	b[t->len] = '\0';
	return pm_parse_s64(b, v) == 0;
}

static bool tok_u64(const struct tok *t, uint64_t *v)
{
	char b[32];

	if (t->len >= sizeof(b))
		return false;
	memcpy(b, t->s, t->len);
	b[t->len] = '\0';
	return pm_parse_u64(b, v) == 0;
}

/* NUL-terminate the span from the first to the last token. */
static const char *span(struct tok *first, struct tok *last)
{
	last->s[last->len] = '\0';
	return first->s;
}

static size_t indent_of(const char *line)
{
	return strspn(line, " ");
}

static bool blank(const char *line)
{
	return !line[strspn(line, " \t\r")];
}

static bool dashes(const char *line)
{
	size_t n = strspn(line, "-");

	return n >= DASHES_MIN && blank(line + n);
}

static size_t count_lines(const char *text)
{
	size_t n = 1;

	for (const char *p = text; (p = strchr(p, '\n')); p++)
		n++;
	return n;
}

/* Cut the next line off *rest (in place); NULL at the end. */
static char *next_line(char **rest)
{
	char *line = *rest, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*rest = nl + 1;
	} else {
		*rest = NULL;
	}
	pm_strip(line, strlen(line));
	return line;
}

/*
 * Read the header: every line above the first line of dashes, each
 * passed to saw(); the lines after it are left in *rest.  false when
 * there is no such line near the top.
 */
static bool header(char **rest, void (*saw)(void *arg, const char *line),
		   void *arg, unsigned *lineno)
{
	char *line;

	while ((line = next_line(rest))) {
		++*lineno;
		if (dashes(line))
			return *lineno > 1;
		if (*lineno > HEADER_LINES_MAX)
			return false;
		saw(arg, line);
	}
	return false;
}

static void bad_line(int *nbad, unsigned *first_bad, unsigned lineno)
{
	if (!(*nbad)++)
		*first_bad = lineno;
}

/* ---------------------------------------------------------------- genpd */

struct genpd_hdr {
	bool domain, perf, managed;
};

static void genpd_saw(void *arg, const char *line)
{
	struct genpd_hdr *h = arg;

	h->domain |= strstr(line, "domain") != NULL;
	h->perf |= strstr(line, "performance") != NULL;
	h->managed |= strstr(line, "managed") != NULL;
}

/*
 * A domain state: "on", "off" or "off-N" (older kernels also printed
 * the transitional states).  Splits "off-N" into the word and N.
 */
static bool genpd_state(struct tok *t, int64_t *idx)
{
	static const char *const words[] = { "on", "off", "wait-master", "busy",
					     "repeat" };
	const char *dash = memchr(t->s, '-', t->len);

	*idx = PM_UNKNOWN_S64;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (tok_is(t, words[i]))
			return true;
	if (dash && (size_t)(dash - t->s) == 3 && !memcmp(t->s, "off", 3)) {
		struct tok n = { (char *)dash + 1,
				 t->len - (size_t)(dash + 1 - t->s) };
		int64_t v;

		if (tok_s64(&n, &v) && v >= 0) {
			*idx = v;
			t->len = 3;
			return true;
		}
	}
	return false;
}

static bool rpm_status_word(const struct tok *t)
{
	static const char *const words[] = { "active",	  "resuming",
					     "suspended", "suspending",
					     "error",	  "unsupported" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

/* The children "a, b, c" from p on: appended to t->children. */
static void genpd_children(struct pm_genpd_table *t, struct pm_genpd *pd,
			   char *p, int *nchild)
{
	for (char *save = NULL, *c = strtok_r(p, ",", &save); c;
	     c = strtok_r(NULL, ",", &save)) {
		c += strspn(c, " \t");
		pm_strip(c, strlen(c));
		if (!*c)
			continue;
		if (!pd->nchildren)
			pd->first_child = *nchild;
		t->children[(*nchild)++] = c;
		pd->nchildren++;
	}
}

static bool genpd_domain_line(struct pm_genpd_table *t, char *line,
			      struct pm_genpd *pd, int *nchild)
{
	struct tok tk[TOKENS_MAX];
	int n = tokenize(line, tk, TOKENS_MAX), st = -1;
	char *rest = NULL;

	if (n < 2)
		return false;
	memset(pd, 0, sizeof(*pd));
	pd->perf = PM_UNKNOWN_S64;
	if (t->has_perf) {
		/* name... state perf: read from the right, so a name may
		 * hold blanks. */
		int last = n - 1;

		if (tok_s64(&tk[last], &pd->perf))
			last--;
		if (last < 1 || !genpd_state(&tk[last], &pd->idle_state))
			return false;
		st = last;
	} else {
		/* Before the performance column, children followed the
		 * state on the same line. */
		for (int i = 1; i < n && st < 0; i++)
			if (genpd_state(&tk[i], &pd->idle_state))
				st = i;
		if (st < 0)
			return false;
		if (st + 1 < n)
			rest = tk[st + 1].s;
	}
	pd->name = span(&tk[0], &tk[st - 1]);
	pd->status = span(&tk[st], &tk[st]);
	if (rest)
		genpd_children(t, pd, rest, nchild);
	return true;
}

static bool genpd_dev_line(char *line, bool has_perf, bool has_managed,
			   struct pm_genpd_dev *d)
{
	struct tok tk[TOKENS_MAX];
	int n = tokenize(line, tk, TOKENS_MAX), last;

	if (n < 1)
		return false;
	last = n - 1;
	d->runtime_status = d->managed_by = NULL;
	d->perf = PM_UNKNOWN_S64;
	if (has_managed && last >= 1 &&
	    (tok_is(&tk[last], "SW") || tok_is(&tk[last], "HW"))) {
		d->managed_by = span(&tk[last], &tk[last]);
		last--;
	}
	if (has_perf && last >= 1 && tok_s64(&tk[last], &d->perf))
		last--;
	if (last >= 1 && rpm_status_word(&tk[last])) {
		d->runtime_status = span(&tk[last], &tk[last]);
		last--;
	}
	/* A device line has its runtime status or its perf state. */
	if (d->perf == PM_UNKNOWN_S64 && !d->runtime_status)
		return false;
	d->device = span(&tk[0], &tk[last]);
	return true;
}

void pm_genpd_table_free(struct pm_genpd_table *t)
{
	free(t->text);
	free(t->pd);
	free(t->children);
	free(t->devs);
	memset(t, 0, sizeof(*t));
}

int pm_genpd_parse(const char *text, struct pm_genpd_table *t)
{
	size_t lines = count_lines(text);
	struct genpd_hdr h = { false, false, false };
	struct pm_genpd *cur = NULL;
	unsigned lineno = 0;
	int nchild = 0;
	char *rest, *line;

	memset(t, 0, sizeof(*t));
	t->text = strdup(text);
	t->pd = calloc(lines, sizeof(*t->pd));
	t->devs = calloc(lines, sizeof(*t->devs));
	/* Every child name costs a comma or a line, or is the last. */
	t->children = calloc(strlen(text) / 2 + lines, sizeof(*t->children));
	if (!t->text || !t->pd || !t->devs || !t->children) {
		pm_genpd_table_free(t);
		return -ENOMEM;
	}
	rest = t->text;
	if (!header(&rest, genpd_saw, &h, &lineno) || !h.domain) {
		pm_genpd_table_free(t);
		return -EINVAL;
	}
	t->has_perf = h.perf;
	t->has_managed = h.managed;
	while ((line = next_line(&rest))) {
		size_t ind = indent_of(line);
		bool ok;

		lineno++;
		if (blank(line))
			continue;
		if (ind == 0) {
			ok = genpd_domain_line(t, line, &t->pd[t->n], &nchild);
			if (ok)
				cur = &t->pd[t->n++];
		} else if (!cur) {
			ok = false;
		} else if (ind >= GENPD_CHILD_INDENT_MIN) {
			genpd_children(t, cur, line, &nchild);
			ok = true;
		} else {
			ok = genpd_dev_line(line, t->has_perf, t->has_managed,
					    &t->devs[t->ndevs]);
			if (ok && !cur->ndevs++)
				cur->first_dev = t->ndevs;
			t->ndevs += ok;
		}
		if (!ok)
			bad_line(&t->nbad, &t->first_bad, lineno);
	}
	return t->n;
}

int pm_genpd_read(struct pm_ctx *ctx, struct pm_genpd_table *t)
{
	char *buf;
	ssize_t n = pm_file_read(ctx, GENPD_SUMMARY, &buf);
	int r;

	memset(t, 0, sizeof(*t));
	if (n < 0)
		return (int)n;
	r = pm_genpd_parse(buf, t);
	free(buf);
	if (r == -EINVAL)
		return pm_err_set(ctx, "parse", GENPD_SUMMARY, NULL, EINVAL,
				  "not a PM domain summary");
	if (r < 0)
		return pm_err_set(ctx, "read", GENPD_SUMMARY, NULL, -r, NULL);
	return r;
}

/* ---------------------------------------------------------------- clocks */

/* The columns after the name, in the order the kernel prints them. */
enum clk_col {
	COL_ENABLE,
	COL_PREPARE,
	COL_PROTECT,
	COL_RATE,
	COL_ACCURACY,
	COL_PHASE,
	COL_DUTY,
	COL_HW,
	NCOLS,
};

struct clk_hdr {
	bool clock, consumers, has[NCOLS];
};

static void clk_saw(void *arg, const char *line)
{
	static const char *const words[NCOLS] = {
		[COL_PROTECT] = "protect", [COL_ACCURACY] = "accuracy",
		[COL_PHASE] = "phase",	   [COL_DUTY] = "duty",
		[COL_HW] = "hardware",
	};
	struct clk_hdr *h = arg;

	h->clock |= strstr(line, "clock") != NULL;
	for (int i = 0; i < NCOLS; i++)
		if (words[i] && strstr(line, words[i]))
			h->has[i] = true;
	/* ≈6.8 (and 6.1.y): the consumer and connection id columns. */
	h->consumers |= strstr(line, "consumer") != NULL;
}

/* Read the columns from tk on into c; false if one does not fit. */
static bool clk_columns(const enum clk_col *cols, int ncols,
			const struct tok *tk, struct pm_clk *c)
{
	for (int i = 0; i < ncols; i++) {
		const struct tok *t = &tk[i];
		int64_t v;

		switch (cols[i]) {
		case COL_ENABLE:
			if (!tok_s64(t, &c->enable_count))
				return false;
			break;
		case COL_PREPARE:
			if (!tok_s64(t, &c->prepare_count))
				return false;
			break;
		case COL_PROTECT:
			if (!tok_s64(t, &c->protect_count))
				return false;
			break;
		case COL_RATE:
			if (!tok_u64(t, &c->rate_hz))
				return false;
			break;
		case COL_ACCURACY:
			if (!tok_u64(t, &c->accuracy_ppb))
				return false;
			break;
		case COL_PHASE:
			/* "-----" when unknown; before ≈5.x a negative
			 * errno was printed as the phase. */
			if (t->len && strspn(t->s, "-") >= t->len)
				break;
			if (!tok_s64(t, &v))
				return false;
			if (v >= 0)
				c->phase_deg = v;
			break;
		case COL_DUTY:
			if (!tok_s64(t, &c->duty))
				return false;
			break;
		case COL_HW:
			if (t->len != 1 || !strchr("YN?", t->s[0]))
				return false;
			c->hw_enabled = t->s[0] == 'Y' ? 1 :
					t->s[0] == 'N' ? 0 :
							 -1;
			break;
		case NCOLS:
			return false;
		}
	}
	return true;
}

static void clk_reset(struct pm_clk *c)
{
	memset(c, 0, sizeof(*c));
	c->enable_count = c->prepare_count = PM_UNKNOWN_S64;
	c->protect_count = c->phase_deg = c->duty = PM_UNKNOWN_S64;
	c->rate_hz = c->accuracy_ppb = PM_UNKNOWN;
	c->hw_enabled = -1;
	c->parent = -1;
}

/*
 * "dev_id   con_id": the two are apart by at least two blanks (dev_id is
 * printed %-30s and then two spaces), so either may hold one blank.
 */
static void clk_consumer(char *p, struct pm_clk_consumer *k)
{
	char *gap, *con;

	p += strspn(p, " ");
	gap = strstr(p, "  ");
	if (!gap)
		gap = strchr(p, ' ');
	if (gap) {
		*gap = '\0';
		con = gap + 1;
		con += strspn(con, " ");
		pm_strip(con, strlen(con));
	} else {
		con = NULL;
	}
	pm_strip(p, strlen(p));
	k->device = strcmp(p, "deviceless") ? p : NULL;
	k->con_id = con && *con && strcmp(con, "no_connection_id") ? con : NULL;
}

/*
 * A clock line: the name (which may hold blanks, and may be wider than
 * its column) is the shortest run of words after which the columns fit.
 * Returns the start of the consumer text in *cons (or NULL).
 */
static bool clk_line(const enum clk_col *cols, int ncols, bool consumers,
		     char *line, struct pm_clk *c, char **cons)
{
	struct tok tk[TOKENS_MAX];
	int n = tokenize(line, tk, TOKENS_MAX);

	*cons = NULL;
	/* At least one word of name, then the columns. */
	if (ncols < 1 || n <= ncols)
		return false;
	for (int k = 1; k <= n - ncols; k++) {
		if (!consumers && k + ncols != n)
			continue;
		clk_reset(c);
		if (!clk_columns(cols, ncols, &tk[k], c))
			continue;
		if (k + ncols < n)
			*cons = tk[k + ncols].s;
		c->name = span(&tk[0], &tk[k - 1]);
		return true;
	}
	return false;
}

void pm_clk_table_free(struct pm_clk_table *t)
{
	free(t->text);
	free(t->clk);
	free(t->cons);
	memset(t, 0, sizeof(*t));
}

static void clk_add_consumer(struct pm_clk_table *t, struct pm_clk *c,
			     char *text)
{
	if (!c->nconsumers++)
		c->first_consumer = t->ncons;
	clk_consumer(text, &t->cons[t->ncons++]);
}

int pm_clk_parse(const char *text, struct pm_clk_table *t)
{
	size_t lines = count_lines(text);
	struct clk_hdr h;
	enum clk_col cols[NCOLS];
	int ncols = 0, top = -1, *chain;
	unsigned lineno = 0;
	char *rest, *line;

	memset(t, 0, sizeof(*t));
	memset(&h, 0, sizeof(h));
	t->text = strdup(text);
	t->clk = calloc(lines, sizeof(*t->clk));
	t->cons = calloc(lines, sizeof(*t->cons));
	/* chain[d]: the last clock seen at depth d. */
	chain = calloc(lines + 1, sizeof(*chain));
	if (!t->text || !t->clk || !t->cons || !chain) {
		free(chain);
		pm_clk_table_free(t);
		return -ENOMEM;
	}
	rest = t->text;
	if (!header(&rest, clk_saw, &h, &lineno) || !h.clock) {
		free(chain);
		pm_clk_table_free(t);
		return -EINVAL;
	}
	h.has[COL_ENABLE] = h.has[COL_PREPARE] = h.has[COL_RATE] = true;
	for (int i = 0; i < NCOLS; i++)
		if (h.has[i])
			cols[ncols++] = (enum clk_col)i;
	t->has_protect = h.has[COL_PROTECT];
	t->has_accuracy = h.has[COL_ACCURACY];
	t->has_phase = h.has[COL_PHASE];
	t->has_duty = h.has[COL_DUTY];
	t->has_hw = h.has[COL_HW];
	t->has_consumers = h.consumers;
	while ((line = next_line(&rest))) {
		size_t ind = indent_of(line);
		struct pm_clk *c = &t->clk[t->n];
		char *cons;
		int depth;

		lineno++;
		if (blank(line))
			continue;
		if (clk_line(cols, ncols, t->has_consumers, line, c, &cons)) {
			/* Level L is indented 3L+1; a line deeper than one
			 * below the last hangs under the last. */
			depth = ind ? (int)((ind - 1) / CLK_INDENT_PER_LEVEL) :
				      0;
			if (depth > top + 1)
				depth = top + 1;
			c->depth = depth;
			c->parent = depth ? chain[depth - 1] : -1;
			chain[depth] = t->n;
			top = depth;
			if (cons)
				clk_add_consumer(t, c, cons);
			t->n++;
		} else if (t->has_consumers && t->n &&
			   ind >= CLK_CONSUMER_INDENT_MIN) {
			clk_add_consumer(t, &t->clk[t->n - 1], line);
		} else {
			bad_line(&t->nbad, &t->first_bad, lineno);
		}
	}
	free(chain);
	return t->n;
}

int pm_clk_read(struct pm_ctx *ctx, struct pm_clk_table *t)
{
	char *buf;
	ssize_t n = pm_file_read(ctx, CLK_SUMMARY, &buf);
	int r;

	memset(t, 0, sizeof(*t));
	if (n < 0)
		return (int)n;
	r = pm_clk_parse(buf, t);
	free(buf);
	if (r == -EINVAL)
		return pm_err_set(ctx, "parse", CLK_SUMMARY, NULL, EINVAL,
				  "not a clock summary");
	if (r < 0)
		return pm_err_set(ctx, "read", CLK_SUMMARY, NULL, -r, NULL);
	return r;
}

/* ---------------------------------------------------------------- debugfs */

int pm_debugfs_state(struct pm_ctx *ctx)
{
	struct pm_err keep = ctx->err;
	char **names;
	int n = pm_list_dir(ctx, DEBUGFS_DIR, &names);

	ctx->err = keep;
	if (n < 0)
		return n == -EACCES || n == -EPERM ? -EACCES : -ENOENT;
	pm_list_free(names, n);
	/* Unmounted, it is the empty folder of sysfs. */
	return n ? 0 : -ENOENT;
}
