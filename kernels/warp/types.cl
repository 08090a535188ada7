/* libclwarp extension types: char, uchar, short, ushort, half and the
 * vectors of every scalar type, written once over the core types' warp
 * functions. The engine puts this file after generic.cl.
 *
 * A value moves as its carrier: its bits in a uint or ulong, or in a
 * ulong2/4/8/16 that moves as that many ulongs. Shuffles are therefore
 * bit-exact for every type, and a char4 costs one 32-bit shuffle. 3-vectors
 * move as their 4-vector with a zero last component. Reductions and scans
 * use generic.cl's templates with the type's own operators, so vectors
 * combine per component. */

/* Which types a program gets: the engine defines CLWARP_IF_USED_<type> to
 * keep its argument for the types the program's source names (and for all
 * with -DCLWARP_ALL_TYPES), so a program that names none of them parses
 * none of these functions. */
#ifdef CLWARP_ALL_TYPES
#define CLWARP_IF_USED(TYPE, ...) __VA_ARGS__
#else
#define CLWARP_IF_USED(TYPE, ...) CLWARP_IF_USED_##TYPE(__VA_ARGS__)
#endif

/* ---- Type tables: X(T, N, CARRIER, TO, FROM, MIN_ID, MAX_ID, MIN_FN, MAX_FN),
 * N the number of components (1: a scalar), TO an expression of the value
 * v giving its carrier, FROM one of the carrier c giving the value back.
 * MIN_ID and MAX_ID as in common.cl. */
#define CLWARP_EXT_1BYTE(X, S, US, MIN_ID, MAX_ID) \
	CLWARP_IF_USED(S, X(S, 1, uint, (uint)as_##US(v), as_##S((US)c), MIN_ID, MAX_ID, min, max)) \
	CLWARP_IF_USED(S##2, X(S##2, 2, uint, (uint)as_ushort(v), as_##S##2((ushort)c), MIN_ID, MAX_ID, min, max)) \
	CLWARP_IF_USED(S##3, X(S##3, 3, uint, as_uint((S##4)(v, (S)0)), as_##S##4(c).s012, MIN_ID, MAX_ID, min, max)) \
	CLWARP_IF_USED(S##4, X(S##4, 4, uint, as_uint(v), as_##S##4(c), MIN_ID, MAX_ID, min, max)) \
	CLWARP_IF_USED(S##8, X(S##8, 8, ulong, as_ulong(v), as_##S##8(c), MIN_ID, MAX_ID, min, max)) \
	CLWARP_IF_USED(S##16, X(S##16, 16, ulong2, as_ulong2(v), as_##S##16(c), MIN_ID, MAX_ID, min, max))

#define CLWARP_EXT_2BYTE(X, S, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_IF_USED(S, X(S, 1, uint, (uint)as_ushort(v), as_##S((ushort)c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##2, X(S##2, 2, uint, as_uint(v), as_##S##2(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##3, X(S##3, 3, ulong, as_ulong((S##4)(v, (S)0)), as_##S##4(c).s012, MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##4, X(S##4, 4, ulong, as_ulong(v), as_##S##4(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##8, X(S##8, 8, ulong2, as_ulong2(v), as_##S##8(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##16, X(S##16, 16, ulong4, as_ulong4(v), as_##S##16(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN))

/* The 4- and 8-byte scalars are core types (common.cl): only their vectors here. */
#define CLWARP_EXT_4BYTE(X, S, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_IF_USED(S##2, X(S##2, 2, ulong, as_ulong(v), as_##S##2(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##3, X(S##3, 3, ulong2, as_ulong2((S##4)(v, (S)0)), as_##S##4(c).s012, MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##4, X(S##4, 4, ulong2, as_ulong2(v), as_##S##4(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##8, X(S##8, 8, ulong4, as_ulong4(v), as_##S##8(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##16, X(S##16, 16, ulong8, as_ulong8(v), as_##S##16(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN))

#define CLWARP_EXT_8BYTE(X, S, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_IF_USED(S##2, X(S##2, 2, ulong2, as_ulong2(v), as_##S##2(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##3, X(S##3, 3, ulong4, as_ulong4((S##4)(v, (S)0)), as_##S##4(c).s012, MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##4, X(S##4, 4, ulong4, as_ulong4(v), as_##S##4(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##8, X(S##8, 8, ulong8, as_ulong8(v), as_##S##8(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN)) \
	CLWARP_IF_USED(S##16, X(S##16, 16, ulong16, as_ulong16(v), as_##S##16(c), MIN_ID, MAX_ID, MIN_FN, MAX_FN))

#define CLWARP_EXT_INT_TYPES(X) \
	CLWARP_EXT_1BYTE(X, char, uchar, CHAR_MAX, CHAR_MIN) \
	CLWARP_EXT_1BYTE(X, uchar, uchar, UCHAR_MAX, (uchar)0) \
	CLWARP_EXT_2BYTE(X, short, SHRT_MAX, SHRT_MIN, min, max) \
	CLWARP_EXT_2BYTE(X, ushort, USHRT_MAX, (ushort)0, min, max) \
	CLWARP_EXT_4BYTE(X, int, INT_MAX, INT_MIN, min, max) \
	CLWARP_EXT_4BYTE(X, uint, UINT_MAX, 0u, min, max) \
	CLWARP_EXT_8BYTE(X, long, LONG_MAX, LONG_MIN, min, max) \
	CLWARP_EXT_8BYTE(X, ulong, ULONG_MAX, 0ul, min, max)

#define CLWARP_EXT_FLOAT_TYPES(X) \
	CLWARP_IF_FP16(CLWARP_EXT_2BYTE(X, half, INFINITY, -INFINITY, fmin, fmax)) \
	CLWARP_EXT_4BYTE(X, float, INFINITY, -INFINITY, fmin, fmax) \
	CLWARP_IF_FP64(CLWARP_EXT_8BYTE(X, double, (double)INFINITY, -(double)INFINITY, fmin, fmax))

#define CLWARP_EXT_TYPES(X) CLWARP_EXT_INT_TYPES(X) CLWARP_EXT_FLOAT_TYPES(X)

/* ---- Carriers. uint and ulong move through the core's functions; a
 * ulongN moves component by component. */
#define CLWARP_MAP_2(F, v, ...) F((v).s0, __VA_ARGS__), F((v).s1, __VA_ARGS__)
#define CLWARP_MAP_4(F, v, ...) CLWARP_MAP_2(F, (v).lo, __VA_ARGS__), CLWARP_MAP_2(F, (v).hi, __VA_ARGS__)
#define CLWARP_MAP_8(F, v, ...) CLWARP_MAP_4(F, (v).lo, __VA_ARGS__), CLWARP_MAP_4(F, (v).hi, __VA_ARGS__)
#define CLWARP_MAP_16(F, v, ...) CLWARP_MAP_8(F, (v).lo, __VA_ARGS__), CLWARP_MAP_8(F, (v).hi, __VA_ARGS__)

#define CLWARP_CARRIER_SCALAR_MOVE(NAME, C) \
	CLWARP_OVERLOAD C CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_PARAM C c, uint arg) \
	{ \
		return NAME(c, arg); \
	} \
	CLWARP_OVERLOAD C CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_PARAM C c, uint arg, uint width) \
	{ \
		return NAME(c, arg, width); \
	}
#define CLWARP_CARRIER_VECTOR_MOVE(NAME, N) \
	CLWARP_OVERLOAD ulong##N CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_PARAM ulong##N c, uint arg) \
	{ \
		return (ulong##N)(CLWARP_MAP_##N(NAME, c, arg)); \
	} \
	CLWARP_OVERLOAD ulong##N CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_PARAM ulong##N c, uint arg, uint width) \
	{ \
		return (ulong##N)(CLWARP_MAP_##N(NAME, c, arg, width)); \
	}
#define CLWARP_CARRIER_MOVES(NAME) \
	CLWARP_CARRIER_SCALAR_MOVE(NAME, uint) \
	CLWARP_CARRIER_SCALAR_MOVE(NAME, ulong) \
	CLWARP_CARRIER_VECTOR_MOVE(NAME, 2) \
	CLWARP_CARRIER_VECTOR_MOVE(NAME, 4) \
	CLWARP_CARRIER_VECTOR_MOVE(NAME, 8) \
	CLWARP_CARRIER_VECTOR_MOVE(NAME, 16)
CLWARP_CARRIER_MOVES(warp_shuffle)
CLWARP_CARRIER_MOVES(warp_shuffle_down)
CLWARP_CARRIER_MOVES(warp_shuffle_up)
CLWARP_CARRIER_MOVES(warp_shuffle_xor)
#ifdef CLWARP_HAS_NATIVE_VECTOR_BROADCAST
/* The backend broadcasts a whole vector carrier at once (common.cl); with
 * a width the source lane differs per segment, so that stays per ulong. */
#define CLWARP_CARRIER_NATIVE_BROADCAST(N) \
	CLWARP_OVERLOAD ulong##N clwarp_c_warp_broadcast(ulong##N c, uint arg) \
	{ \
		return clwarp_native_broadcast(c, arg); \
	} \
	CLWARP_OVERLOAD ulong##N clwarp_c_warp_broadcast(ulong##N c, uint arg, uint width) \
	{ \
		return (ulong##N)(CLWARP_MAP_##N(warp_broadcast, c, arg, width)); \
	}
CLWARP_CARRIER_SCALAR_MOVE(warp_broadcast, uint)
CLWARP_CARRIER_SCALAR_MOVE(warp_broadcast, ulong)
CLWARP_CARRIER_NATIVE_BROADCAST(2)
CLWARP_CARRIER_NATIVE_BROADCAST(4)
CLWARP_CARRIER_NATIVE_BROADCAST(8)
CLWARP_CARRIER_NATIVE_BROADCAST(16)
#else
CLWARP_CARRIER_MOVES(warp_broadcast)
#endif

/* Match of a carrier: the lanes equal in every word. */
#define CLWARP_CARRIER_MATCH(C, LO, HI) \
	CLWARP_OVERLOAD ulong CLWARP_FN(clwarp_c_match)(CLWARP_CTX_PARAM C c) \
	{ \
		return CLWARP_FN(clwarp_c_match)(CLWARP_CTX_ARG c.LO) & \
		       CLWARP_FN(clwarp_c_match)(CLWARP_CTX_ARG c.HI); \
	} \
	CLWARP_OVERLOAD int clwarp_c_equal(C a, C b) { return all(a == b); }
CLWARP_OVERLOAD ulong CLWARP_FN(clwarp_c_match)(CLWARP_CTX_PARAM uint c)
{
	return clwarp_match_bits(CLWARP_CTX_ARG c);
}
CLWARP_OVERLOAD ulong CLWARP_FN(clwarp_c_match)(CLWARP_CTX_PARAM ulong c)
{
	return clwarp_match_bits(CLWARP_CTX_ARG c);
}
CLWARP_OVERLOAD int clwarp_c_equal(uint a, uint b) { return a == b; }
CLWARP_OVERLOAD int clwarp_c_equal(ulong a, ulong b) { return a == b; }
CLWARP_CARRIER_MATCH(ulong2, s0, s1)
CLWARP_CARRIER_MATCH(ulong4, lo, hi)
CLWARP_CARRIER_MATCH(ulong8, lo, hi)
CLWARP_CARRIER_MATCH(ulong16, lo, hi)

/* ---- The types' functions. */
#define CLWARP_EXT_MOVE(NAME, T, C, TO, FROM) \
	CLWARP_OVERLOAD T CLWARP_FN(NAME)(CLWARP_CTX_PARAM T v, uint arg) \
	{ \
		C c = CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_ARG TO, arg); \
		return FROM; \
	} \
	CLWARP_OVERLOAD T CLWARP_FN(NAME)(CLWARP_CTX_PARAM T v, uint arg, uint width) CLWARP_WIDTH_CHECK \
	{ \
		C c = CLWARP_FN(clwarp_c_##NAME)(CLWARP_CTX_ARG TO, arg, width); \
		return FROM; \
	}

/* Values equal as bits, as for the core types (generic.cl). */
#define CLWARP_EXT_MATCH(T, C, TO) \
	CLWARP_OVERLOAD ulong CLWARP_FN(warp_match_any)(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		uint w = clwarp_width(width); \
		ulong all = CLWARP_FN(clwarp_c_match)(CLWARP_CTX_ARG TO); \
		return (all >> clwarp_segment_start(w)) & clwarp_segment_mask(w); \
	} \
	CLWARP_OVERLOAD ulong CLWARP_FN(warp_match_any)(CLWARP_CTX_PARAM T v) \
	{ \
		return CLWARP_FN(clwarp_c_match)(CLWARP_CTX_ARG TO); \
	} \
	CLWARP_OVERLOAD int CLWARP_FN(warp_match_all)(CLWARP_CTX_PARAM T v, uint width) CLWARP_WIDTH_CHECK \
	{ \
		C mine = TO; \
		C first = CLWARP_FN(clwarp_c_warp_shuffle)(CLWARP_CTX_ARG mine, 0u, width); \
		return warp_all(clwarp_c_equal(first, mine), width); \
	} \
	CLWARP_OVERLOAD int CLWARP_FN(warp_match_all)(CLWARP_CTX_PARAM T v) \
	{ \
		C mine = TO; \
		C first = CLWARP_FN(clwarp_c_warp_shuffle)(CLWARP_CTX_ARG mine, 0u); \
		return warp_all(clwarp_c_equal(first, mine)); \
	}

/* The local backend's folds move values through one ulong slot: the
 * carrier's first word. Types wider than a slot take the shuffle path
 * (local.cl), so their slot functions are never called at run time. */
#ifdef CLWARP_BACKEND_LOCAL
CLWARP_OVERLOAD ulong clwarp_slot_of(uint c) { return c; }
CLWARP_OVERLOAD ulong clwarp_slot_of(ulong c) { return c; }
CLWARP_OVERLOAD ulong clwarp_slot_of(ulong2 c) { return c.s0; }
CLWARP_OVERLOAD ulong clwarp_slot_of(ulong4 c) { return c.s0; }
CLWARP_OVERLOAD ulong clwarp_slot_of(ulong8 c) { return c.s0; }
CLWARP_OVERLOAD ulong clwarp_slot_of(ulong16 c) { return c.s0; }
#define CLWARP_EXT_SLOTS(T, C, TO, FROM) \
	CLWARP_OVERLOAD ulong clwarp_to_slot(T v) { return clwarp_slot_of(TO); } \
	CLWARP_OVERLOAD T clwarp_from_slot(ulong slot, T like) \
	{ \
		C c = (C)(slot); \
		return FROM; \
	}
#else
#define CLWARP_EXT_SLOTS(T, C, TO, FROM)
#endif

/* Reductions and scans: generic.cl's templates over the whole value, so
 * a vector combines per component in one butterfly of carrier shuffles
 * (on local: one fold for values of one slot, else that butterfly of
 * exchanges). Combining component by component through the scalar folds
 * was tried on local: fewer barriers, but PoCL 3.1 took 2-15x longer to
 * compile the kernels (a uchar16 test kernel 2 min instead of 8 s). */
#define CLWARP_EXT_OPS(T, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_GEN_OPERATOR(add, T, CLWARP_ADD, 0) \
	CLWARP_GEN_OPERATOR(min, T, MIN_FN, MIN_ID) \
	CLWARP_GEN_OPERATOR(max, T, MAX_FN, MAX_ID) \
	CLWARP_GEN_OPERATOR(mul, T, CLWARP_MUL, 1)

#define CLWARP_EXT_TYPE(T, N, C, TO, FROM, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_EXT_MOVE(warp_shuffle, T, C, TO, FROM) \
	CLWARP_EXT_MOVE(warp_shuffle_down, T, C, TO, FROM) \
	CLWARP_EXT_MOVE(warp_shuffle_up, T, C, TO, FROM) \
	CLWARP_EXT_MOVE(warp_shuffle_xor, T, C, TO, FROM) \
	CLWARP_EXT_MOVE(warp_broadcast, T, C, TO, FROM) \
	CLWARP_EXT_MATCH(T, C, TO) \
	CLWARP_EXT_SLOTS(T, C, TO, FROM) \
	CLWARP_EXT_OPS(T, MIN_ID, MAX_ID, MIN_FN, MAX_FN)
CLWARP_EXT_TYPES(CLWARP_EXT_TYPE)

#define CLWARP_EXT_BITWISE(T, N, C, TO, FROM, MIN_ID, MAX_ID, MIN_FN, MAX_FN) CLWARP_GEN_BITWISE(T, C)
CLWARP_EXT_INT_TYPES(CLWARP_EXT_BITWISE)
