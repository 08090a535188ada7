/* The build memo (buildmemo.h). The program cache proper is keyed on the
 * SHA-256 of the whole expanded source (program.c), which a hit has to
 * rebuild and hash; the memo sits in front of it, keyed on what the caller
 * passed, and checks the files by their stamps alone. */
/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "buildmemo.h"
#include "util.h"

struct build_memo {
	char *name;
	char *text;           /* the caller's source; NULL for a file build */
	char *options;        /* "" for none */
	struct file_stamps stamps;
	clwarp_program *program;
	struct build_memo *next;
};

static bool
same_request(const struct build_memo *m, const char *name, const char *text, const char *options)
{
	if ((m->text == NULL) != (text == NULL) || strcmp(m->name, name) != 0 ||
	    strcmp(m->options, options ? options : "") != 0)
		return false;
	return !text || strcmp(m->text, text) == 0;
}

static struct build_memo *
find(clwarp_engine *engine, const char *name, const char *text, const char *options)
{
	for (struct build_memo *m = engine->memo; m; m = m->next)
		if (same_request(m, name, text, options))
			return m;
	return NULL;
}

clwarp_program *
buildmemo_lookup(clwarp_engine *engine, const char *name, const char *text, const char *options)
{
	clwarp_program *program = NULL;
	struct build_memo *m;

	pthread_mutex_lock(&engine->memo_lock);
	m = find(engine, name, text, options);
	if (m && file_stamps_unchanged(&m->stamps))
		program = m->program;
	pthread_mutex_unlock(&engine->memo_lock);
	return program;
}

void
buildmemo_store(clwarp_engine *engine, const char *name, const char *text, const char *options,
		struct file_stamps *stamps, clwarp_program *program)
{
	struct build_memo *m;

	pthread_mutex_lock(&engine->memo_lock);
	m = find(engine, name, text, options);
	if (m) {
		file_stamps_free(&m->stamps);
	} else if ((m = calloc(1, sizeof(*m)))) {
		m->name = strdup(name);
		m->text = text ? strdup(text) : NULL;
		m->options = strdup(options ? options : "");
		if (!m->name || (text && !m->text) || !m->options) {
			free(m->name);
			free(m->text);
			free(m->options);
			free(m);
			m = NULL;
		} else {
			m->next = engine->memo;
			engine->memo = m;
		}
	}
	if (m) {
		m->stamps = *stamps;
		memset(stamps, 0, sizeof(*stamps));
		m->program = program;
	}
	pthread_mutex_unlock(&engine->memo_lock);
	file_stamps_free(stamps);
}

void
buildmemo_free_all(clwarp_engine *engine)
{
	struct build_memo *m = engine->memo;

	while (m) {
		struct build_memo *next = m->next;

		free(m->name);
		free(m->text);
		free(m->options);
		file_stamps_free(&m->stamps);
		free(m);
		m = next;
	}
	engine->memo = NULL;
}
