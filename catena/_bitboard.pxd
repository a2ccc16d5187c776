# Bitboards of up to 271 cells: a fixed array of 64-bit words (bit c of the board is
# bit c % 64 of word c // 64) with one spare word, so that a 64-bit window starting at
# any multiple of 8 is one unaligned load.  Every cell's neighbourhood fits in such a
# window (the geometry keeps its base and mask: Geometry.wbase, Geometry.nbw), which
# turns "which neighbours of c are legal and touch two stones" into two ANDs.
#
# The window load reads the words' bytes in memory order, so it needs a
# little-endian machine; the position module refuses to load on any other.

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

cdef enum:
    BB_WORDS = 6             # 5 words hold 271 cells; the sixth keeps windows inside the array

cdef extern from *:
    """
    #include <stdint.h>
    /* Bit scans of a nonzero word: GCC's and Clang's builtins (one instruction), or in a
       portable build (CATENA_PORTABLE) and with other compilers standard C, a de Bruijn
       multiplication (Leiserson, Prokop and Randall, 1998) */
    #if !defined(CATENA_PORTABLE) && (defined(__GNUC__) || defined(__clang__))
    #define catena_lowest_bit(v) __builtin_ctzll(v)
    #define catena_highest_bit(v) (63 - __builtin_clzll(v))
    #else
    static inline int catena_single_bit_index(uint64_t bit) {
        static const unsigned char index[64] = {
            0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51,
            43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
            44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6};
        return index[(bit * 0x03F79D71B4CB0A89ULL) >> 58];
    }
    static inline int catena_lowest_bit(uint64_t v) { return catena_single_bit_index(v & (0 - v)); }
    static inline int catena_highest_bit(uint64_t v) {
        v |= v >> 1; v |= v >> 2; v |= v >> 4; v |= v >> 8; v |= v >> 16; v |= v >> 32;
        return catena_single_bit_index(v ^ (v >> 1));
    }
    #endif
    """
    int catena_lowest_bit(uint64_t v) noexcept nogil
    int catena_highest_bit(uint64_t v) noexcept nogil


cdef inline uint64_t bb_window(const uint64_t* bb, unsigned base) noexcept nogil:
    """The 64 bits of ``bb`` from bit ``base`` on, a multiple of 8 (bit 0 of the result
    is ``base``)."""
    cdef uint64_t v
    memcpy(&v, (<const uint8_t*>bb) + (base >> 3), 8)
    return v


cdef inline void bb_window_or(uint64_t* bb, int base, uint64_t m) noexcept nogil:
    """Set the bits ``m`` of the window at ``base`` (a multiple of 8)."""
    cdef int w = base >> 6, sh = base & 63
    bb[w] |= m << sh
    bb[w + 1] |= (m >> 1) >> (63 - sh)     # two shifts: no shift by 64 when sh == 0


cdef inline void bb_set(uint64_t* bb, unsigned c) noexcept nogil:
    bb[c >> 6] |= 1ULL << (c & 63)


cdef inline void bb_clear(uint64_t* bb, unsigned c) noexcept nogil:
    bb[c >> 6] &= ~(1ULL << (c & 63))


cdef inline bint bb_test(const uint64_t* bb, unsigned c) noexcept nogil:
    return (bb[c >> 6] >> (c & 63)) & 1


cdef inline int popcount64(uint64_t v) noexcept nogil:
    """Set bits of ``v``, branch-free (a portable build has no popcnt instruction,
    and the builtin would be a library call)."""
    v = v - ((v >> 1) & 0x5555555555555555ULL)
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((v * 0x0101010101010101ULL) >> 56)


cdef inline int popcount_few(uint64_t v) noexcept nogil:
    """``popcount64`` for a word with at most 15 bits set: nibble counts suffice."""
    v = v - ((v >> 1) & 0x5555555555555555ULL)
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL)
    return <int>((v * 0x1111111111111111ULL) >> 60)


cdef inline int lowest_bit(uint64_t v) noexcept nogil:
    """Index of the lowest set bit of ``v`` (``v`` != 0)."""
    return catena_lowest_bit(v)


cdef inline int highest_bit(uint64_t v) noexcept nogil:
    """Index of the highest set bit of ``v`` (``v`` != 0)."""
    return catena_highest_bit(v)
