/* Kernels declared through macros: the names that expand to `kernel`. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "kernelmacro.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static bool
ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool
ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Skip blanks, comments and line continuations inside a directive. */
static const char *
skip_blank(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p + 1 < end && p[0] == '\\' && p[1] == '\n')
			p += 2;
		else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *close = p + 2;

			while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
				close++;
			p = close + 1 < end ? close + 2 : end;
		} else
			return p;
	}
}

/* The identifier at p (or none: *len = 0). */
static const char *
ident(const char *p, const char *end, size_t *len)
{
	const char *start = p;

	if (p < end && ident_start(*p))
		while (p < end && ident_char(*p))
			p++;
	*len = (size_t)(p - start);
	return start;
}

static bool
is_word(const char *name, size_t len, const char *word)
{
	return strlen(word) == len && strncmp(name, word, len) == 0;
}

bool
kernel_macros_is_kernel(const struct kernel_macros *macros, const char *name, size_t len)
{
	if (is_word(name, len, "kernel") || is_word(name, len, "__kernel"))
		return true;
	for (size_t i = 0; i < macros->count; i++)
		if (is_word(name, len, macros->names[i]))
			return true;
	return false;
}

static void
forget(struct kernel_macros *macros, const char *name, size_t len)
{
	for (size_t i = 0; i < macros->count; i++) {
		if (is_word(name, len, macros->names[i])) {
			free(macros->names[i]);
			macros->names[i] = macros->names[--macros->count];
			return;
		}
	}
}

clwarp_status
kernel_macros_directive(struct kernel_macros *macros, const char *text, const char *end)
{
	const char *p = skip_blank(text, end), *name, *body;
	size_t len, name_len, body_len;
	char **grown, *copy;
	bool undef;

	p = ident(p, end, &len);
	undef = is_word(p, len, "undef");
	if (!undef && !is_word(p, len, "define"))
		return CLWARP_OK;
	name = ident(skip_blank(p + len, end), end, &name_len);
	if (name_len == 0)
		return CLWARP_OK;
	/* Redefined or undefined: what it was no longer counts. */
	forget(macros, name, name_len);
	/* A '(' right after the name makes a function-like macro. */
	if (undef || (name + name_len < end && name[name_len] == '('))
		return CLWARP_OK;
	body = ident(skip_blank(name + name_len, end), end, &body_len);
	if (body_len == 0 || !kernel_macros_is_kernel(macros, body, body_len) ||
	    is_word(name, name_len, "kernel") || is_word(name, name_len, "__kernel"))
		return CLWARP_OK;
	copy = strndup(name, name_len);
	grown = copy ? realloc(macros->names, (macros->count + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(copy);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	macros->names = grown;
	macros->names[macros->count++] = copy;
	return CLWARP_OK;
}

void
kernel_macros_free(struct kernel_macros *macros)
{
	for (size_t i = 0; i < macros->count; i++)
		free(macros->names[i]);
	free(macros->names);
	macros->names = NULL;
	macros->count = 0;
}
