/* The conditionals around the source rewrite's position, and what their sides define. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_MACROCOND_H
#define CLWARP_MACROCOND_H

#include <stdbool.h>
#include <stddef.h>

#include "kernelmacro.h"
#include "ppexpr.h"

/*
 * Each side of a conditional that the compiler may take changes the macro
 * table as if it were taken; at its end the table goes back to what it was
 * before the conditional, and at #endif each macro a side changed becomes
 * what all the sides that may be taken agree on (the one taken, where
 * that is decided): a macro that is a kernel on both sides of an undecided
 * conditional is one. false: out of memory.
 */

/* Is the text here compiled? */
enum tri macro_cond_live(const struct kernel_macros *m);

/* #if, #ifdef, #ifndef whose condition is `v`, at file:line. */
bool macro_cond_open(struct kernel_macros *m, enum tri v, const char *file, unsigned line);

/* #elif (`v`; TRI_NO where an earlier side is surely taken) or #else (TRI_YES). */
bool macro_cond_next(struct kernel_macros *m, enum tri v, const char *file, unsigned line);

/* #endif of the open conditional (none open: nothing). */
bool macro_cond_close(struct kernel_macros *m);

/* Before the macro at `index` changes: remember it for the side's end. */
bool macro_cond_save(struct kernel_macros *m, size_t index);

/* Does an #elif's condition matter here: a conditional is open, around
 * text that may be compiled, and no earlier side of it is surely taken? */
bool macro_cond_elif_matters(const struct kernel_macros *m);

/* `#ifndef name` just opened: if the compiler may define the name and the
 * next directive is `#define name`, it is an include guard
 * (macro_cond_settle_guard), taken as not defined: a compiler's name would
 * leave the header out, and its declarations with it, so the build fails
 * and nothing runs wrong. */
bool macro_cond_note_guard(struct kernel_macros *m, const char *name, size_t len);

/* The directive after it: a #define (`define`) of `name`? */
void macro_cond_settle_guard(struct kernel_macros *m, bool define, const char *name, size_t len);

/* Close every conditional still open. */
void macro_cond_free(struct kernel_macros *m);

#endif
