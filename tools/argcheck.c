/* clwarp-run: each -a SPEC checked against the kernel's parameter (argcheck.h). */
/* SPDX-License-Identifier: MIT */
#include "argcheck.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define TEN_TYPES "char uchar short ushort int uint long ulong float double"

/* Normalise a CL_KERNEL_ARG_TYPE_NAME: drop qualifiers and blanks, "unsigned int" -> "uint". */
static void
normalise_type(const char *in, char *out, size_t len, unsigned *pointers)
{
	char copy[256];
	char *save = NULL, *tok;
	size_t n = 0;
	bool is_unsigned = false;

	*pointers = 0;
	snprintf(copy, sizeof(copy), "%s", in);
	for (char *p = copy; *p; p++) {
		if (*p == '*') {
			(*pointers)++;
			*p = ' ';
		}
	}
	out[0] = '\0';
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "const") || !strcmp(tok, "volatile") || !strcmp(tok, "restrict") ||
		    !strcmp(tok, "__global") || !strcmp(tok, "global") || !strcmp(tok, "__local") ||
		    !strcmp(tok, "local") || !strcmp(tok, "__constant") || !strcmp(tok, "constant") ||
		    !strcmp(tok, "signed") || !strcmp(tok, "struct") || !strcmp(tok, "union"))
			continue;
		if (!strcmp(tok, "unsigned")) {
			is_unsigned = true;
			continue;
		}
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s", is_unsigned ? "u" : "", tok);
		is_unsigned = false;
		if (n >= len)
			break;
	}
	if (is_unsigned)
		snprintf(out, len, "uint");
}

/* "float4" -> ET_FLOAT and 4; "int" -> ET_INT and 1. False when the name
 * is not one of the ten types or a vector of one. */
static bool
split_vector(const char *name, enum elemtype *base, unsigned *width)
{
	size_t len = strlen(name);
	unsigned w = 0;

	while (len > 0 && isdigit((unsigned char)name[len - 1]))
		len--;
	if (name[len]) {
		w = (unsigned)strtoul(name + len, NULL, 10);
		if (w != 2 && w != 3 && w != 4 && w != 8 && w != 16)
			return false;
	}
	*width = w ? w : 1;
	return elemtype_from_name(name, len, base);
}

/* What a parameter clwarp-run cannot give is, or NULL when it can give it. */
static const char *
unsupported(const char *name, unsigned pointers, bool has_access, cl_kernel_arg_access_qualifier access)
{
	enum elemtype base;
	unsigned width;

	if (pointers)
		return NULL; /* a buffer or local memory; void*, half* and struct* are not checked */
	if (!strncmp(name, "image", 5))
		return "an image";
	if (has_access && access != CL_KERNEL_ARG_ACCESS_NONE)
		return "an image or a pipe";
	if (!strcmp(name, "sampler_t"))
		return "a sampler";
	if (!strcmp(name, "half"))
		return "a half scalar";
	if (!split_vector(name, &base, &width))
		return "a struct or another type that is not one of the ten";
	if (width > 1)
		return "a vector";
	return NULL;
}

bool
argcheck(cl_kernel k, const char *kname, unsigned index, const struct argspec *a, char *err,
	 size_t errlen)
{
	cl_kernel_arg_address_qualifier aq;
	cl_kernel_arg_access_qualifier access = CL_KERNEL_ARG_ACCESS_NONE;
	char raw[256];
	char name[256];
	unsigned pointers = 0, width = 1;
	enum elemtype base;
	const char *what;
	bool has_access;

	has_access = clGetKernelArgInfo(k, index, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access),
					&access, NULL) == CL_SUCCESS;
	if (clGetKernelArgInfo(k, index, CL_KERNEL_ARG_TYPE_NAME, sizeof(raw), raw, NULL) == CL_SUCCESS) {
		normalise_type(raw, name, sizeof(name), &pointers);
		what = unsupported(name, pointers, has_access, access);
		if (what) {
			snprintf(err, errlen,
				 "argument %u of kernel %s is %s (%s), which clwarp-run cannot pass; "
				 "it passes buffers, local memory and scalars of " TEN_TYPES,
				 index, kname, what, raw);
			return false;
		}
	} else {
		raw[0] = '\0'; /* CL_KERNEL_ARG_INFO_NOT_AVAILABLE or a long name: no type check */
	}
	if (clGetKernelArgInfo(k, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL) ==
	    CL_SUCCESS) {
		bool want_global = a->kind == ARGSPEC_BUFFER;
		bool want_local = a->kind == ARGSPEC_LOCAL;
		bool is_global = aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT;
		bool is_local = aq == CL_KERNEL_ARG_ADDRESS_LOCAL;

		if (want_global != is_global || want_local != is_local) {
			what = is_global ? "a global or constant buffer (TYPE[N] or out:TYPE[N])"
				: is_local ? "local memory (local:TYPE[N])"
				: "a scalar (TYPE:VALUE)";
			snprintf(err, errlen, "argument %u of kernel %s is %s; -a '%s' does not fit", index,
				 kname, what, a->text);
			return false;
		}
	}
	if (!raw[0])
		return true;
	if (a->kind == ARGSPEC_SCALAR) {
		if (pointers || !elemtype_from_name(name, strlen(name), &base) || base != a->type) {
			snprintf(err, errlen, "argument %u of kernel %s has type %s; -a '%s' gives %s", index,
				 kname, raw, a->text, elemtype_name(a->type));
			return false;
		}
		return true;
	}
	/* A buffer of float serves float4* too: compare the element type. */
	if (!split_vector(name, &base, &width))
		return true; /* void*, half*, a struct: nothing to compare */
	if (base != a->type) {
		snprintf(err, errlen, "argument %u of kernel %s has type %s; -a '%s' gives %s", index, kname,
			 raw, a->text, elemtype_name(a->type));
		return false;
	}
	/* ... in whole vectors: a 3-vector takes the room of 4 elements. */
	if (width == 3)
		width = 4;
	if (a->count % width != 0) {
		snprintf(err, errlen,
			 "argument %u of kernel %s has type %s: a buffer for it holds whole vectors of %u %ss, "
			 "but -a '%s' has %zu element%s",
			 index, kname, raw, width, elemtype_name(a->type), a->text, a->count,
			 a->count == 1 ? "" : "s");
		return false;
	}
	return true;
}

bool
argcheck_has_types(cl_kernel k, unsigned nargs)
{
	char raw[256];

	return nargs == 0 ||
	       clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(raw), raw, NULL) == CL_SUCCESS;
}
