/* The warp-flow rewrite's loops (src/warpflow.c): which keep their trips, and their text. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_FLOWLOOP_H
#define CLWARP_FLOWLOOP_H

#include <stdbool.h>
#include <stddef.h>

#include "flowtext.h"

/* `__clwarp_live`, and the flags of the rewritten loop `loop`. */
void flow_put_alive(struct strbuf *sb, int loop);
/* `for (int d = 16; d > 0; d /= 2)`: the same trips for every work-item
 * (hdr: flow_loop_header's ranges; the body is t[body_a..body_e]). */
bool flow_uniform_for(const struct flow *f, const size_t *hdr, size_t body_a, size_t body_e);
/* An empty line where a `#pragma` stands right before t[k]: the loop it
 * names is rewritten, and the pragma must not land on other code. */
void flow_blank_pragma(struct flow *f, size_t k);
/* The trip test of rewritten loop `id` on the condition t[ca..cb] (none: ca > cb). */
void flow_put_loop_test(struct flow *f, struct strbuf *sb, size_t ca, size_t cb, unsigned id);
void flow_put_loop_open(struct strbuf *sb, unsigned id);
/* The end of loop `id`; `outer` is the enclosing rewritten loop's (-1: none). */
void flow_put_loop_close(struct flow *f, struct strbuf *sb, unsigned id, int outer);
/* The header of a for or while loop: init, condition and step ranges
 * (hdr[0..5], empty where first > last) and the body's first token. */
size_t flow_loop_header(const struct flow *f, size_t a, size_t *hdr);

#endif
