/* clwarp-run --sanitize: the inlined call chain of an instruction that
 * Oclgrind reported, from the LLVM IR it dumped (OCLGRIND_DUMP_SPIR). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_SANITIZE_IR_H
#define CLWARP_RUN_SANITIZE_IR_H

#include <stddef.h>

/* One frame of an instruction's inlined call chain. */
struct ir_frame {
	char file[256];
	char func[96];
	unsigned line, col;
};

/*
 * Oclgrind prints the instruction of a report alone ("tail call ... #5,
 * !dbg !87"), and LLVM numbers the metadata of an instruction printed alone
 * as the module's named metadata and then its function's own, not as the
 * whole module's text does: the same node has another number there when
 * the function is not the module's first. So the node is found again by
 * numbering as LLVM does, function by function, in @p ir (the module's
 * text), for the function whose body holds the instruction.
 *
 * Returns the number of frames put into @p fr (innermost first: the
 * position Oclgrind printed, then each call site that inlining folded into
 * it), or 0 when @p ir does not hold @p instr in one function, or when the
 * numbering cannot be reproduced (then no guess is made).
 */
size_t ir_frames_of(const char *ir, const char *instr, struct ir_frame *fr, size_t max);

#endif
